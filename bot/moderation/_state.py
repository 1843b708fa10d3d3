"""A bot's moderation plumbing: the service over its ledger, the flood detector, short-lived caches.

Flood counters live in the shared state (`bot.shared_state`: the ledger's database, or Redis), so several
processes behind one webhook count a member's messages together and a burst split between them is one offence.
Offences are recorded in the ledger, idempotent on the message, so a redelivered message is never punished
twice. A group's settings come with the chat the dispatcher reads for every message (`GroupInfo.moderation`).
What stays per process is only a cache of facts that the ledger decides for everyone: a group's settings when
they were not read with the chat (trusted for `SETTINGS_TTL`) and the members whose name card was already checked.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any
from weakref import WeakKeyDictionary

import bot.shared_state as shared
from bot.core import Bot, Context
from bot.moderation.detectors import FloodDetector
from ledger.moderation import Moderation, RuleSettings, settings_from_overrides

#: how long a process trusts its copy of a group's settings (a change made in this process is seen at once)
SETTINGS_TTL = timedelta(seconds=60)


@dataclass
class BotState:
    service: Moderation
    detector: FloodDetector
    settings: dict[int, tuple[datetime, RuleSettings]] = field(default_factory=dict)
    namecard_done: set[tuple[int, int, str]] = field(default_factory=set)  # (chat, user, name) checked or reminded


_states: WeakKeyDictionary[Bot, BotState] = WeakKeyDictionary()


def state(bot: Bot) -> BotState:
    found = _states.get(bot)
    if found is None:
        ledger: Any = bot.service
        service = Moderation(ledger, ledger.engine, clock=bot.clock.now)
        detector = FloodDetector(shared.of(bot), clock=bot.clock.now)
        found = _states[bot] = BotState(service, detector)
    return found


def moderation(ctx: Context) -> Moderation:
    return state(ctx.bot).service


def settings(ctx: Context) -> RuleSettings:
    """The chat's moderation settings: as read with the chat for this message when the ledger gave them
    (`GroupInfo.moderation`), otherwise cached for `SETTINGS_TTL`."""
    if ctx.group.moderation is not None:
        return _parsed(json.dumps(ctx.group.moderation, sort_keys=True))
    st = state(ctx.bot)
    now = ctx.now()
    cached = st.settings.get(ctx.chat_id)
    if cached is not None and now - cached[0] < SETTINGS_TTL:
        return cached[1]
    group_id = ctx.group.id if ctx.group is not None else st.service.ledger.group(ctx.chat_id).id
    fresh = st.service.settings_for_group(group_id)
    st.settings[ctx.chat_id] = (now, fresh)
    return fresh


@functools.lru_cache(maxsize=256)
def _parsed(overrides: str) -> RuleSettings:
    """Stored overrides (as canonical JSON) → settings, parsed once per distinct value."""
    return settings_from_overrides(json.loads(overrides))


def remember_settings(ctx: Context, new: RuleSettings) -> None:
    state(ctx.bot).settings[ctx.chat_id] = (ctx.now(), new)
