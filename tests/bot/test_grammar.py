"""The chat grammar and money display, with property tests where an invariant exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.commands._common import money
from bot.commands.config import parse_amount
from bot.core import ManualClock, Refusal, load_plugins, registry
from bot.grammar import GrammarError, is_cjk, parse_kong, parse_people, parse_win, split_command

SEATS = {"a": "a", "b": "b", "c": "c", "@a": "a", "@b": "b", "@c": "c"}


def resolve(token: str) -> str | None:
    return SEATS.get(token)


def test_a_win_with_tiles_and_a_discarder() -> None:
    [spec] = parse_win("123p46p789s22s333s 5p 点 @b", "a", resolve)
    assert (spec.winner, spec.method, spec.discarder, spec.tiles) == ("a", "discard", "b", ["123p46p789s22s333s", "5p"])


def test_named_patterns_situations_and_melds() -> None:
    [spec] = parse_win("清一色 七对 杠上开花 碰3s", "c", resolve)
    assert spec.patterns == ["qingyise", "qidui"] and spec.situations == ["gangshangkaihua"]
    assert spec.method == "self_draw" and spec.melds == [{"kind": "peng", "tile": "3s"}]


def test_a_double_win_shares_the_discarder() -> None:
    first, second = parse_win("@a 卡五星 @b 七对 点@c", None, resolve)
    assert (first.winner, first.patterns, first.discarder) == ("a", ["kawuxing"], "c")
    assert (second.winner, second.patterns, second.discarder) == ("b", ["qidui"], "c")


def test_kongs_take_their_kind_from_the_word_or_the_arguments() -> None:
    assert parse_kong("暗杠", "3s", "a", resolve).kind == "angang"
    spec = parse_kong("杠", "@c 直 点 @b 杠上杠", "a", resolve)
    assert (spec.player, spec.kind, spec.discarder, spec.chained) == ("c", "zhigang", "b", True)
    assert parse_kong("杠", "点 @a", "b", resolve).kind == "zhigang"


def test_opening_words() -> None:
    assert parse_people("@a @b 老王 庄 @b") == (["@a", "@b", "老王"], "@b", False)
    assert parse_people("@a @b @c 抽庄") == (["@a", "@b", "@c"], None, True)
    with pytest.raises(GrammarError):
        parse_people("@a @b @c 庄")


@given(st.integers(min_value=1, max_value=10**9))
def test_a_displayed_amount_reads_back_as_the_same_amount(amount: int) -> None:
    assert parse_amount(money(amount), "底金") == amount


@given(st.integers(min_value=-(10**9), max_value=10**9))
def test_money_is_signed_and_exact(amount: int) -> None:
    shown = money(amount, "元", signed=True)
    sign = -1 if shown.startswith("-") else 1
    digits = re.sub(r"[^0-9.]", "", shown)
    whole, _, cents = digits.partition(".")
    assert sign * (int(whole) * 100 + int(cents.ljust(2, "0") or 0)) == amount
    assert shown.startswith("+") == (amount > 0)


load_plugins()
CHINESE_WORDS = sorted(w for w in registry.words() if is_cjk(w[-1]))


@given(st.sampled_from(CHINESE_WORDS), st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF), st.text(max_size=8))
def test_a_word_glued_to_more_chinese_is_never_that_command(word: str, glued: str, rest: str) -> None:
    found = split_command(word + glued + rest, registry, "kawuxing")
    assert found is None or len(found[1]) > len(word)  # at most a longer registered word matched


VOCABULARY = [
    "自摸",
    "点",
    "抢杠",
    "清一色",
    "七对",
    "杠上开花",
    "杠上炮",
    "碰",
    "3s",
    "5p",
    "123p46p789s22s333s",
    "@a",
]
VOCABULARY += ["@b", "@c", "a", "b", "屁胡", "暗杠", "蓄杠", "直", "杠上杠", "？", "xyz", "一炮双响"]


@given(st.lists(st.sampled_from(VOCABULARY), max_size=10), st.sampled_from(["a", "b", None]))
def test_any_arguments_are_read_or_refused_with_a_reason(items: list[str], me: str | None) -> None:
    try:
        specs = parse_win(" ".join(items), me, resolve)
    except (GrammarError, Refusal):
        return
    assert specs and all(s.winner in {"a", "b", "c"} for s in specs)
    assert len({s.discarder for s in specs if s.method in {"discard", "rob_kong"}}) <= 1


# ------------------------------------------------------------------------------------ the whole bot, as a property

ACTIONS = [
    "a: 暗杠",
    "b: 蓄杠",
    "c: 直杠 点 @a",
    "b: 直杠 点 @c 杠上杠",
    "a: 亮倒",
    "c: 亮倒",
    "a: 胡 清一色 自摸",
    "b: 胡 七对 点 @c",
    "c: 胡 123p46p789s22s333s 5p 点 @a",
    "a: 胡 @a 卡五星 @b 七对 点 @c",
    "b: 荒庄",
    "a: 撤销",
    "c: 胡 屁胡 点 @b",
]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(actions=st.lists(st.sampled_from(ACTIONS), min_size=1, max_size=14))
def test_every_reply_s_night_balance_is_the_sum_of_the_changes_it_reported(
    actions: list[str], tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Whatever order things are typed in: each reply's per-player change adds up to the night balance it
    shows, refusals change nothing, and the ledger's balances sum to zero."""
    from bot.console import Console
    from bot.core import Bot
    from ledger.service import Ledger

    path = Path(tmp_path_factory.mktemp("prop")) / "p.db"
    clock = ManualClock()
    ledger = Ledger.open(f"sqlite:///{path}", clock=clock.now)
    try:
        console = Console(Bot(ledger, clock=clock), clock)
        for name in ("a", "b", "c"):
            console.feed(f"!join {name} {name}-成员")
        console.feed("a: 开桌 @a @b @c 庄 @a")
        night = {"a": 0, "b": 0, "c": 0}
        seen = 0
        change = re.compile(r"^bot: (a|b|c)-成员 ([+-]?[\d.]+元|0)（本晚 ([+-]?[\d.]+元|0)）$")
        for action in actions:
            for line in console.feed(action):
                matched = change.match(line)
                if matched:
                    who, delta, total = matched.groups()
                    seen += 1
                    night[who] += _fen(delta)
                    assert night[who] == _fen(total), (action, line)
        assert seen or "a: 暗杠" not in actions  # a concealed kong always books, so its lines were read
        balances = ledger.balances(-1000000000001)
        assert sum(line.amount for line in balances.lines) == 0
    finally:
        ledger.close()


def _fen(shown: str) -> int:
    return 0 if shown == "0" else parse_amount(shown.lstrip("+-"), "x") * (-1 if shown.startswith("-") else 1)
