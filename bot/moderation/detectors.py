"""Detectors for the group rules: links, invite links, ad keywords, flooding, the name card.

Pure functions: each looks at text (and, for flooding, at a member's track of recent messages) and says what it
found; only `FloodDetector` keeps state, the members' tracks, in the shared state every bot process sees.
Matching works inside Chinese text: Python's `\\b` treats Han characters as word characters, so "看abc.com吧"
has no boundary before "abc"; every pattern here uses explicit ASCII look-arounds instead.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from ledger.moderation import namecard_regex
from ledger.shared_state import MemoryState, SharedState

# Top-level domains a bare domain ("abc.com", no scheme) must end with to count as a link. A closed list keeps
# "1.5" or "v1.2" out; scheme and "www." links need no list.
BARE_DOMAIN_TLDS = frozenset(
    {"com", "net", "org", "info", "biz", "xyz", "top", "vip", "club", "site", "online", "shop", "store", "live"}
    | {"link", "app", "io", "me", "co", "cc", "tv", "ly", "gg", "to", "tk", "ml", "ga", "cf", "cn", "hk", "tw"}
    | {"mo", "jp", "kr", "sg", "ru", "uk", "de", "fr", "us", "ca", "au", "in", "ph", "vn", "th", "my", "id"}
)

_ASCII_URL_CHARS = r"[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]"
_NOT_BEFORE = r"(?<![A-Za-z0-9_@.\-])"  # the ASCII look-behind that replaces \b
_NOT_AFTER = r"(?![A-Za-z0-9\-])"
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?"

_SCHEME_URL = rf"(?:https?|ftp)://{_ASCII_URL_CHARS}+"
_TG_URL = rf"tg://{_ASCII_URL_CHARS}+"
_WWW_URL = rf"{_NOT_BEFORE}www\.(?:{_LABEL}\.)*{_LABEL}{_NOT_AFTER}(?:/{_ASCII_URL_CHARS}*)?"
_BARE_DOMAIN = (
    rf"{_NOT_BEFORE}(?:{_LABEL}\.)+(?:{'|'.join(sorted(BARE_DOMAIN_TLDS, key=len, reverse=True))}){_NOT_AFTER}"
    rf"(?:/{_ASCII_URL_CHARS}*)?"
)
LINK_RE = re.compile(f"{_SCHEME_URL}|{_TG_URL}|{_WWW_URL}|{_BARE_DOMAIN}", re.IGNORECASE)

# A link is an invite when it points into Telegram (a group, channel or bot to join) or at a QQ/WeChat group.
INVITE_RE = re.compile(
    r"^(?:(?:https?://)?(?:www\.)?(?:t\.me|telegram\.me|telegram\.dog)/\S|tg://(?:join|resolve)"
    r"|(?:https?://)?(?:qm\.qq\.com|jq\.qq\.com|weixin\.qq\.com/g/))",
    re.IGNORECASE,
)

# Characters spammers slip between the characters of a keyword ("加 微 信", "加*微*信") and zero-width ones.
_KEYWORD_NOISE_RE = re.compile(r"[\s*·.\-_|/\\~\u200b\u200c\u200d\u2060\ufeff]+")


@dataclass(frozen=True)
class Link:
    text: str
    start: int
    end: int
    invite: bool


@dataclass(frozen=True)
class Finding:
    """One broken content rule: `rule` is `invite` (邀请链接), `link` (广告链接) or `ad_keyword` (广告词)."""

    rule: str
    detail: str


def normalize(text: str) -> str:
    """Full-width forms to ASCII (ｗｗｗ．ａｂｃ．ｃｏｍ → www.abc.com) so fancy letters do not dodge a pattern."""
    return unicodedata.normalize("NFKC", text)


def find_links(text: str) -> list[Link]:
    """Every link in `text`, in order; positions refer to the normalized text."""
    found = []
    for m in LINK_RE.finditer(normalize(text)):
        url = m.group(0).rstrip(".,;:!?)'")
        found.append(Link(url, m.start(), m.start() + len(url), bool(INVITE_RE.match(url))))
    return found


def _squash(text: str) -> str:
    return _KEYWORD_NOISE_RE.sub("", normalize(text).casefold())


def find_ad_keywords(text: str, keywords: Iterable[str]) -> list[str]:
    """The configured keywords `text` contains, ignoring case, width and separator characters between letters."""
    squashed = _squash(text)
    return [keyword for keyword, key in _squashed_keywords(tuple(keywords)) if key in squashed]


@functools.lru_cache(maxsize=256)
def _squashed_keywords(keywords: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """(keyword, squashed) for each keyword that squashes to something: a group's list is squashed once, not for
    every message checked against it (keyed by the list itself, so a changed list is squashed anew)."""
    return tuple((keyword, key) for keyword in keywords if (key := _squash(keyword)))


def content_findings(
    text: str, *, links: bool = True, invites: bool = True, ad_keywords: Iterable[str] = ()
) -> list[Finding]:
    """What rule 3 (no ads or ad links) objects to in one message; invites first, as the most specific."""
    out: list[Finding] = []
    found = find_links(text)
    if invites:
        out += [Finding("invite", link.text) for link in found if link.invite]
    if links:
        out += [Finding("link", link.text) for link in found if not link.invite]
    out += [Finding("ad_keyword", k) for k in find_ad_keywords(text, ad_keywords)]
    return out


def namecard_ok(name: str, pattern: str) -> bool:
    """Whether a display name/alias follows the group's name-card format (the whole name must match), in linear
    time whatever the pattern and the name."""
    return namecard_regex(pattern).fullmatch(name.strip()) is not None


# --- flooding -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FloodRules:
    """Rule 4 (严禁刷屏) thresholds: more than `max_messages` within `window_seconds`, or `repeat_count` identical
    texts in a row. `repeat_count` 0 switches the repeated-text check off."""

    max_messages: int = 5
    window_seconds: float = 10.0
    repeat_count: int = 3


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)
#: a member's counters are forgotten this long after their last message: the same "好" three evenings running is
#: not a flood, and the shared state does not keep every member who ever spoke
FLOOD_MEMORY = timedelta(minutes=10)


def _ticks(at: datetime) -> int:
    """Exact integer microseconds, so the window boundary never depends on float rounding."""
    return (at - _EPOCH) // _MICROSECOND


@dataclass(frozen=True)
class MemberTrack:
    """What the flood check remembers of one member: the times (µs, sorted) of their messages still in a window,
    a digest of their last text, how many times in a row they sent it, whether they are flooding now, and when
    their latest burst's last message came (`burst_end`: the messages up to it never count toward a new offence)."""

    times: tuple[int, ...] = ()
    last_text: str | None = None
    run: int = 0
    flooding: bool = False
    burst_end: int = 0

    def as_json(self) -> dict[str, object]:
        return {"t": list(self.times), "k": self.last_text, "r": self.run, "f": self.flooding, "e": self.burst_end}

    @classmethod
    def from_json(cls, value: object) -> MemberTrack:
        if not isinstance(value, dict):
            return cls()
        times = tuple(int(t) for t in value.get("t", ()))
        return cls(times, value.get("k"), int(value.get("r", 0)), bool(value.get("f")), int(value.get("e", 0)))


@dataclass(frozen=True)
class FloodVerdict:
    """`offence` is true only for the message that starts a burst; `reasons` say which check(s) tripped;
    `in_window` counts the member's messages in the window up to one over the limit (all a verdict needs)."""

    offence: bool
    reasons: tuple[str, ...]
    in_window: int
    run: int


def same_text_key(text: str) -> str:
    """Repeated text is compared after width/case folding, dropping invisible format characters (zero-width
    spaces and joiners, direction marks: Unicode category Cf) and collapsing whitespace, so `在吗` and `在吗\u200b`
    are the same text."""
    visible = "".join(c for c in normalize(text) if unicodedata.category(c) != "Cf")
    return " ".join(visible.casefold().split())


def message_content(text: str, photo_file_id: str = "", sticker_id: str = "") -> str:
    """What the repeat check compares of a message: its text, and for a photo the photo too (its file id), so
    three different photos of an album are three contents, not the same empty caption three times; a sticker is
    its file_unique_id, so the same sticker again is a repeat and different stickers are not."""
    if sticker_id:
        return f"{text}\x00sticker:{sticker_id}"
    return f"{text}\x00photo:{photo_file_id}" if photo_file_id else text


def _digest(text: str) -> str:
    """A short fixed-size stand-in for a message's text: the shared state never holds what members wrote."""
    return hashlib.blake2b(same_text_key(text).encode(), digest_size=8).hexdigest()


def observe(
    track: MemberTrack, at: datetime, text: str, rules: FloodRules, *, command: bool = False
) -> tuple[MemberTrack, FloodVerdict]:
    """One message of a member: their new track and the verdict (pure; `FloodDetector` keeps the tracks).

    A message is *flooding* when, counting it, more than `max_messages` of the member's messages fall in the
    half-open window (t - window, t], or it is the `repeat_count`-th (or later) identical text in a row. A burst
    is a maximal run of the member's flooding messages: the offence is reported on the first one only. The
    window resets by itself: as soon as one of the member's messages is not flooding (fewer messages in the
    window, and a different text), the burst is over and the next flooding message is a new offence — counting
    only messages after the burst: a punished burst's messages never count twice, so `哈哈` three times (warned)
    and three more lines at once are not a second offence (removal) before the warning could be read. After
    `FLOOD_MEMORY` of silence a member starts afresh. A message handled out of order (two workers) is counted by
    its own time and cannot end a burst, so a burst split between workers is still one offence.

    A `command` (a bot command, `余额`) counts toward the window as any message, and as the same text again only
    within the window of the member's latest message: `余额` three times in ten seconds is a repeat, `余额` after
    each hand of the night is using the bot."""
    now = _ticks(at)
    window = round(rules.window_seconds * 1_000_000)
    if track.times and now - track.times[-1] >= FLOOD_MEMORY // _MICROSECOND:
        track = MemberTrack()
    times = sorted((*track.times, now))
    newest = times[-1]
    # only messages that can still fall in a window matter, and never more than one over the limit per window
    kept = tuple(t for t in times if t > newest - window)[-(rules.max_messages + 1) :]
    # a burst goes on while the window is over the limit; a new one counts only what came after the last
    counted = kept if track.flooding else tuple(t for t in kept if t > track.burst_end)
    in_window = sum(1 for t in counted if now - window < t <= now)
    key = _digest(text)
    run = track.run + 1 if key == track.last_text else 1
    if command and track.times and now - track.times[-1] >= window:
        run = 1  # a command asked again a while later is no repeat
    reasons = []
    if in_window > rules.max_messages:
        reasons.append("flood")
    if rules.repeat_count and run >= rules.repeat_count:
        reasons.append("repeat")
    verdict = FloodVerdict(bool(reasons) and not track.flooding, tuple(reasons), in_window, run)
    # a message older than one already counted (another worker was faster) may start a burst but never ends one
    flooding = bool(reasons) or (track.flooding and now < newest)
    burst_end = max(track.burst_end, now) if reasons else track.burst_end
    return MemberTrack(kept, key, run, flooding, burst_end), verdict


class FloodDetector:
    """Counts each member's recent messages in a `SharedState` and reports a flood burst exactly once, whichever
    bot process sees which message: each message's count and verdict are one atomic update of the member's track.

    `clock` supplies the time when `observe` is not given one (tests inject a simulated clock)."""

    def __init__(
        self, state: SharedState | None = None, clock: Callable[[], datetime] = lambda: datetime.now(UTC)
    ) -> None:
        self.state = state or MemoryState()
        self._clock = clock
        #: the members whose latest counted line this process saw, whose run of the same text a line that does not
        #: count must break (`interrupt`): only then is the shared state written, so a scorekeeper's records in a
        #: row cost nothing (a worker that took the chat over knows none of them until it counts a line itself).
        #: A reading command (`余额`) puts its member in `_commanded` instead: its run goes on only within the flood
        #: window, so a line that does not count breaks it here, in memory (`_broken`, applied at the member's next
        #: counted line), and a seated player's record after their own `余额` costs no write either
        self._running: set[str] = set()
        self._commanded: set[str] = set()
        self._broken: set[str] = set()

    @staticmethod
    def _key(chat_id: int, user_id: int) -> str:
        return f"flood:{chat_id}:{user_id}"

    def observe(
        self,
        chat_id: int,
        user_id: int,
        text: str,
        rules: FloodRules,
        at: datetime | None = None,
        *,
        command: bool = False,
    ) -> FloodVerdict:
        moment = at or self._clock()

        key = self._key(chat_id, user_id)
        broken = key in self._broken

        def change(stored: object) -> tuple[object, FloodVerdict]:
            track = MemberTrack.from_json(stored)
            if broken:  # a line that did not count came since this member's reading command
                track = dataclasses.replace(track, last_text=None, run=0)
            track, verdict = observe(track, moment, text, rules, command=command)
            return track.as_json(), verdict

        ttl = max(rules.window_seconds, FLOOD_MEMORY.total_seconds())
        verdict = self.state.update(key, change, ttl)
        self._broken.discard(key)
        (self._commanded if command else self._running).add(key)
        (self._running if command else self._commanded).discard(key)
        return verdict

    def interrupt(self, chat_id: int, user_id: int, rules: FloodRules) -> None:
        """A member's line that does not count toward flooding (a seated player's record, a command) still comes
        between their other lines: a run of the same text is broken by it (`哈哈`, a record, `哈哈`, a record,
        `哈哈` is no repeat), as any different text would break it."""

        def change(stored: object) -> tuple[object, None]:
            if stored is None:
                return None, None  # nothing said lately: nothing to break
            track = MemberTrack.from_json(stored)
            return dataclasses.replace(track, last_text=None, run=0).as_json(), None

        key = self._key(chat_id, user_id)
        if rules.repeat_count and key in self._commanded:  # a reading command's run: broken here, no write
            self._commanded.discard(key)
            self._broken.add(key)
        if rules.repeat_count and key in self._running:
            self._running.discard(key)
            ttl = max(rules.window_seconds, FLOOD_MEMORY.total_seconds())
            self.state.update(key, change, ttl)

    def forget(self, chat_id: int, user_id: int) -> None:
        """Drop a member's history (after they are removed, so a returning member starts clean)."""
        for kept in (self._running, self._commanded, self._broken):
            kept.discard(self._key(chat_id, user_id))
        self.state.delete(self._key(chat_id, user_id))
