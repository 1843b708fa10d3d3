"""Commands of the games besides 卡五星 (够级, 碰胡): each module registers its commands for its own game only."""
