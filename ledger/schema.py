"""One metadata for Alembic: import every module that defines models here (moderation adds its line)."""

from __future__ import annotations

import ledger.chat_options
import ledger.inbox
import ledger.models
import ledger.moderation_models
from ledger.models import Base

metadata = Base.metadata

__all__ = ["ledger", "metadata"]
