"""Pure game rules: tiles, hands, 卡五星/够级/碰胡 scoring, payments as transfers. No I/O."""

from ledger.scoring.api import score
from ledger.scoring.common import ScoringError, Transfer, net_of

__all__ = ["ScoringError", "Transfer", "net_of", "score"]
