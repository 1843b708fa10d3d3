"""paiju (牌局): the command-line entry point over the bot, the ledger and the scoring core."""
