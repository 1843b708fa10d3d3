"""Pure game rules: tiles, hands, 卡五星/够级/碰胡 scoring, payments as transfers. No I/O."""

from ledger.scoring.api import answer, score
from ledger.scoring.common import Reading, ScoringError, Transfer, net_of

__all__ = ["Reading", "ScoringError", "Transfer", "answer", "net_of", "score"]
