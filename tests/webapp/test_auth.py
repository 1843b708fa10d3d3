"""initData validation against vectors built with Telegram's documented algorithm, and the signed start parameter.

The vectors are built here from the documentation's steps (secret = HMAC-SHA256(key="WebAppData", token);
hash = hex HMAC-SHA256(key=secret, sorted "key=value" lines without hash)), independently of the code under test.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from datetime import UTC, datetime, timedelta
from urllib.parse import quote, urlencode

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.webapp.auth import AuthError, read_start, sign_start, start_key, validate_init_data

TOKEN = "110201543:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"
NOW = datetime(2026, 1, 10, 12, 0, tzinfo=UTC)
DAY = timedelta(days=1)
USER = {
    "id": 279058397,
    "first_name": "Vladislav",
    "last_name": "Kibenko",
    "username": "vdkfrost",
    "language_code": "ru",
}


def documented(fields: dict[str, str], token: str = TOKEN) -> str:
    """initData signed by the documentation's recipe, written out step by step."""
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    check = "\n".join(f"{k}={fields[k]}" for k in sorted(fields))
    digest = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    return "&".join(f"{k}={quote(v, safe='')}" for k, v in [*fields.items(), ("hash", digest)])


def fields(**extra: str) -> dict[str, str]:
    base = {
        "query_id": "AAHdF6IQAAAAAN0XohDhrOrc",
        "user": json.dumps(USER, separators=(",", ":")),
        "auth_date": str(int(NOW.timestamp())),
    }
    return {**base, **extra}


def validate(raw: str, token: str = TOKEN, now: datetime = NOW) -> object:
    return validate_init_data(raw, token, max_age=DAY, now=now)


def test_a_genuine_init_data_names_its_user_and_start_parameter() -> None:
    found = validate(documented(fields(start_param="-100123_7_abc", chat_type="supergroup")))
    assert found.user.user_id == 279058397  # type: ignore[attr-defined]
    assert found.user.name == "Vladislav Kibenko" and found.user.username == "vdkfrost"  # type: ignore[attr-defined]
    assert found.start_param == "-100123_7_abc" and found.chat_type == "supergroup"  # type: ignore[attr-defined]


def test_fields_in_any_order_and_unknown_fields_are_signed_too() -> None:
    raw = documented({"auth_date": fields()["auth_date"], "signature": "x" * 86, **fields(), "chat_instance": "-42"})
    assert validate(raw).user.user_id == 279058397  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("", "missing"),
        ("auth_date=1&&&", "malformed"),
        ("user=%7B%7D&auth_date=1", "bad_hash"),
    ],
)
def test_garbage_is_refused(raw: str, reason: str) -> None:
    with pytest.raises(AuthError) as refused:
        validate(raw)
    assert refused.value.reason == reason


def test_a_tampered_field_breaks_the_hash() -> None:
    genuine = documented(fields())
    forged_user = json.dumps({**USER, "id": 1}, separators=(",", ":"))
    tampered = genuine.replace(quote(fields()["user"], safe=""), quote(forged_user, safe=""))
    assert tampered != genuine
    with pytest.raises(AuthError, match="bad_hash"):
        validate(tampered)
    added = genuine + "&start_param=-100999_1_AAAAAAAAAAAAAAAA"
    with pytest.raises(AuthError, match="bad_hash"):
        validate(added)


def test_another_bots_signature_is_refused() -> None:
    with pytest.raises(AuthError, match="bad_hash"):
        validate(documented(fields(), token="999:ANOTHER-BOT"))


def test_a_stale_login_is_refused_and_a_fresh_one_accepted() -> None:
    raw = documented(fields())
    assert validate(raw, now=NOW + DAY - timedelta(seconds=1))
    with pytest.raises(AuthError, match="stale"):
        validate(raw, now=NOW + DAY + timedelta(seconds=1))
    with pytest.raises(AuthError, match="malformed"):
        validate(raw, now=NOW - timedelta(hours=1))  # signed an hour in the future


def test_init_data_without_a_user_is_refused() -> None:
    without = fields()
    del without["user"]
    with pytest.raises(AuthError, match="no_user"):
        validate(documented(without))
    with pytest.raises(AuthError, match="no_user"):
        validate(documented(fields(user=json.dumps({"id": "279058397", "first_name": "V"}))))


def test_a_repeated_field_is_refused() -> None:
    raw = documented(fields())
    with pytest.raises(AuthError, match="malformed"):
        validate(raw + "&" + urlencode({"user": fields()["user"]}))


def test_the_start_parameter_is_bound_to_its_group_and_table() -> None:
    key = start_key(TOKEN)
    param = sign_start(-1001234567890, 42, key)
    assert len(param) <= 64 and all(c.isalnum() or c in "_-" for c in param)
    assert read_start(param, key) == (-1001234567890, 42)
    mac = param.rsplit("_", 1)[1]
    for forged in (f"-1009999999999_42_{mac}", f"-1001234567890_43_{mac}", param[:-1] + "A", "", "x" * 57):
        with pytest.raises(AuthError, match="bad_start"):
            read_start(forged, key)
    with pytest.raises(AuthError, match="bad_start"):
        read_start(param, start_key("999:ANOTHER-BOT"))


@given(st.integers(-(2**62), -1), st.integers(0, 2**62))
def test_every_signed_start_parameter_reads_back(chat_id: int, table_id: int) -> None:
    key = start_key(TOKEN)
    param = sign_start(chat_id, table_id, key)
    assert len(param) <= 64
    assert read_start(param, key) == (chat_id, table_id)
