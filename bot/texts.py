"""Every text a player sees, Chinese first, English when the chat's language is `en`.

Handlers never inline a sentence: they name a key. Other modules (moderation, reports, games) add their own
keys with `register` at import time.
"""

from __future__ import annotations

from collections.abc import Mapping

#: key -> {"zh": template, "en": template}; templates use str.format fields.
TEXTS: dict[str, dict[str, str]] = {
    "admin_only": {"zh": "只有群管理员可以这样做。", "en": "Only the group's admins can do that."},
    "button_expired": {"zh": "这个按钮已经失效了。", "en": "This button has expired."},
    "scoring_refused": {"zh": "不能记录：{message}", "en": "Cannot record: {message}"},
}


def register(texts: Mapping[str, Mapping[str, str]]) -> None:
    """Add texts for a module; a key may not be registered twice with different wording."""
    for key, versions in texts.items():
        if key in TEXTS and TEXTS[key] != dict(versions):
            raise ValueError(f"text {key!r} registered twice")
        if "zh" not in versions:
            raise ValueError(f"text {key!r} has no Chinese version")
        TEXTS[key] = dict(versions)


def text(lang: str, key: str, **params: object) -> str:
    versions = TEXTS[key]
    template = versions.get(lang) or versions["zh"]
    return template.format(**params) if params else template


def refusal_text(lang: str, err: Exception) -> str | None:
    """The player-facing message of a refusal raised below the bot (scoring or ledger), or None for a bug."""
    from ledger.scoring.common import ScoringError

    if isinstance(err, ScoringError):
        return text(lang, "scoring_refused", message=err.message)
    return None
