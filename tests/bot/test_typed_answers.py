"""Answers typed instead of pressed, as a play-tester found them ignored: 改's question answered by its asker's typed
yes (`对`, `好`, `改吧`; `yes` in English) as 「改成这样」; a line held back as a double entry by its typer's
`确实又一次` (`是又一次`; `again` in English) as 「确实又一次」, another ending of the hand by `new hand` in English as
by `是新的一局`; `我糊了 自摸` read as `我胡了 自摸` when it reads cleanly; `owed` alone as 未结. Only whoever the
question is for, only the words alone, never asked."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.bot.test_player_first import Table

#: 小李's win, then his own 改成: the question is his
ASKED = ("a: 开桌 @a @b @c 庄 @a", "b: 胡 清一色 自摸", "b: 改成 胡 七对 自摸")
CORRECTED = [
    "bot: 第1局 已改正（原记录作废）：",
    "bot: 小李 自摸：七对×4 → ×4",
    "bot: 各家比原来：",
    "bot: 阿杰 0（本晚 -4元）",
    "bot: 小李 0（本晚 +8元）",
    "bot: 老王 0（本晚 -4元）",
    "bot: 下一局：第2局，庄家 小李",
    "bot: 好的，改了（上面那条已经改成重记的结果）。",
]


@pytest.fixture
def asked(sqlite_url: str) -> Iterator[Table]:
    table = Table(sqlite_url, *ASKED)
    yield table
    table.ledger.close()


def _patterns(table: Table) -> list[object]:
    return [r.events[0]["hand"]["patterns"] for r in table.ledger.history(table.chat)]


@pytest.mark.parametrize("yes", ["对", "是的", "确定", "改吧", "好", "改成这样"])
def test_the_askers_typed_yes_corrects_as_the_press_does(asked: Table, yes: str) -> None:
    assert asked.say(f"b: {yes}") == CORRECTED
    assert _patterns(asked) == [["qidui"]]
    assert asked.say(f"b: {yes}") == []  # answered: nothing waits any more


def test_anyone_elses_yes_a_yes_asked_or_the_undo_buttons_word_is_chat(asked: Table) -> None:
    """An admin's typed yes answers only a question they asked (they may still press); `撤吧` is 撤销's word."""
    lines = ("a: 对", "c: 好", "b: 对？", "b: 好的 谢谢", "!clock +10s", "b: 撤吧", "b: 确认撤销", "b: yes")
    assert asked.say(*lines) == []
    assert _patterns(asked) == [["qingyise"]]
    asked.say("!clock +10s")  # a sixth line of 小李's within 10 s would be a flood: lines that change nothing count
    assert asked.say("b: 算了") == KEPT
    assert asked.say("b: 对") == [] and _patterns(asked) == [["qingyise"]]


KEPT = ["bot: 好的，没有改：第1局 小李 自摸 清一色 照旧。", "bot: 好的，不改了（上面问的已经作废）。"]


@pytest.mark.parametrize("no", ["不改", "不改了", "不用改"])
def test_the_askers_typed_no_button_label_keeps_the_record_as_the_press_does(asked: Table, no: str) -> None:
    """「不改」 typed (the button's own label, once read as chat while `算了` worked) by whoever asked answers 改's
    question as the press does; anyone else's, or said with more, is chat; it answers no other question (撤销's)."""
    assert asked.say(f"a: {no}", f"c: {no}", f"b: {no} 吧 谢谢", "b: 不是") == []
    assert asked.say(f"b: {no}") == KEPT
    assert _patterns(asked) == [["qingyise"]] and asked.say(f"b: {no}") == []
    asked.say("!clock +10s", "b: 撤销")  # 撤销's question is the latest: 不改 is no 「不撤销」
    assert asked.say(f"b: {no}") == [] and asked.say("b: 不撤销")[-1] == "bot: 好的，没有撤销（上面问的已经作废）。"


def test_the_askers_typed_no_answers_a_did_you_mean(asked: Table) -> None:
    """「不是」 typed by whoever got 「是不是：…」 answers it as the press does; under 改's question it is chat."""
    asked.say("b: 算了", "!clock +3m")
    assert asked.say("c: 胡 清一涩 自摸")[0] == "bot: 没看懂「清一涩」。是不是：胡 清一色 自摸？"
    assert asked.say("b: 不是", "c: 不是吧", "c: 不是？") == []
    assert asked.say("c: 不是") == ["bot: 已取消，没有记账。", "bot: 好的，不记了（上面的按钮已经作废）。"]
    assert len(asked.ledger.history(asked.chat)) == 1


def test_an_english_groups_typed_button_labels_keep(sqlite_url: str) -> None:
    table = Table(sqlite_url, "a: /config language en", *ASKED)
    try:
        assert table.say("b: leave it")[-1].startswith("bot: OK")
        assert _patterns(table) == [["qingyise"]]
        table.say("b: 撤销")
        assert table.say("b: keep it")[-1].startswith("bot: OK")
        assert len(table.ledger.history(table.chat)) == 1
    finally:
        table.ledger.close()


def test_a_yes_after_the_record_changed_says_so_and_corrects_nothing(sqlite_url: str) -> None:
    table = Table(sqlite_url, "a: 开桌 @a @b @c 庄 @a", "b: 暗杠 3s", "b: 改成 暗杠 4s", "c: 暗杠 5s")
    try:
        assert table.say("b: 对") == [
            "bot: 第1局那条记录已经变了（之后又记了别的，或者已经改过、撤销了），没有改。要改请重新发 改成 …"
        ]
        assert table.say("b: 对") == []
    finally:
        table.ledger.close()


def test_an_english_groups_yes_corrects(sqlite_url: str) -> None:
    table = Table(sqlite_url, "a: /config language en", *ASKED)
    try:
        out = table.say("b: yes")
        assert out[0] == "bot: Hand 1 corrected (the old record is void):"
        assert out[-1] == "bot: OK, corrected (the question above now shows the corrected record)."
    finally:
        table.ledger.close()


# ------------------------------------------------------------------------------------------------ held back

#: 小李's win, and 老王's 10 s later with the same winner: held back with 「确实又一次」
HELD = ("a: 开桌 @a @b @c 庄 @a", "b: 胡 清一色 自摸", "!clock +10s", "c: 胡 @b 清一色 自摸")
AGAIN = "bot: 好的，又记了一次（上面那条已经改成记下的结果）。"


@pytest.mark.parametrize("again", ["确实又一次", "是又一次", "又一次"])
def test_the_typers_typed_again_books_the_held_back_line_as_the_press_does(sqlite_url: str, again: str) -> None:
    table = Table(sqlite_url, *HELD)
    try:
        lines = ("b: 确实又一次", "a: 确实又一次", "c: 确实又一次？", "c: 确实又一次 吧", "c: 是新的一局", "c: again")
        assert table.say(*lines) == [] and len(table.ledger.history(table.chat)) == 1
        table.say("!clock +10s")  # 老王's sixth line within 10 s would be a flood: lines that change nothing count
        out = table.say(f"c: {again}")
        assert out[:2] == ["bot: 第2局 记下：", "bot: 小李 自摸：清一色×4 → ×4"] and out[-1] == AGAIN
        assert len(table.ledger.history(table.chat)) == 2
        assert table.say(f"c: {again}") == []  # answered: nothing waits any more
    finally:
        table.ledger.close()


def test_a_typed_again_books_a_held_back_button_flow(sqlite_url: str) -> None:
    flow = ("c: 胡", "c: !press 小李", "c: !press 自摸", "c: !press 清一色", "c: !press 预览", "c: !press 确认")
    table = Table(sqlite_url, *HELD[:3], *flow)
    try:
        out = table.say("c: 确实又一次")
        assert out[:2] == ["bot: 第2局 记下：", "bot: 小李 自摸：清一色×4 → ×4"] and out[-1] == AGAIN
    finally:
        table.ledger.close()


def test_an_english_group_types_the_buttons_words(sqlite_url: str) -> None:
    table = Table(sqlite_url, "a: /config language en", *HELD)
    try:
        out = table.say("c: again")
        assert out[0] == "bot: Hand 2 recorded:"
        assert out[-1] == "bot: OK, booked again (the question above now shows what was booked)."
        table.say("!clock +10s", "b: draw")  # another ending of hand 2 (booked by 老王): 「New hand」
        assert table.say("b: it happened again", "b: yes again", "c: new hand") == []
        out = table.say("b: new hand")
        assert out[0] == "bot: Hand 3 recorded:"
        assert out[-1] == "bot: OK, booked as a new hand (the question above now shows what was booked)."
    finally:
        table.ledger.close()


def test_english_words_are_chat_in_a_chinese_group(sqlite_url: str) -> None:
    table = Table(sqlite_url, *HELD)
    try:
        assert table.say("c: again", "c: it happened again") == []
        assert len(table.ledger.history(table.chat)) == 1
    finally:
        table.ledger.close()


# --------------------------------------------------------------------------------------------------- lines


def test_wo_hu_typed_with_hu_mistyped_books_as_wo_hu_when_it_reads_cleanly(sqlite_url: str) -> None:
    typo, plain = Table(sqlite_url, "a: 开桌 @a @b @c 庄 @a"), Table(sqlite_url, "a: 开桌 @a @b @c 庄 @a")
    try:
        assert typo.say("c: 我糊了 自摸") == plain.say("c: 我胡了 自摸")
        assert typo.booked() == plain.booked()
        assert typo.say("c: 我糊了 清一色 自摸 @a", "d: 我糊了 自摸", "c: 照片我糊了") == []
    finally:
        typo.ledger.close()
        plain.ledger.close()


@pytest.mark.parametrize("line", ["owed", "Owed now"])
def test_owed_alone_is_unpaid(sqlite_url: str, line: str) -> None:
    settled = ("a: 开桌 @a @b @c 庄 @a", "b: 胡 清一色 自摸", "a: 结算")
    table = Table(sqlite_url, *settled)
    try:
        # written in English, answered in English (the group's language is Chinese)
        owed = ["bot: Not paid yet: 老王 owes 小李 4元; 阿杰 owes 小李 4元"]
        assert table.say(f"c: {line}") == table.say("c: unpaid") == owed
        assert table.say("c: owed him one", "c: owed him one?", "c: owed!") == []
        table.say("!clock +10s")  # six lines at once would be a flood: 余额 and its kin count as lines
        assert table.say(f"c: {line}?") == table.say(f"c: {line} ？") == table.say("c: unpaid")  # asked, as 未结？
        table.say("!clock +10s")
        assert table.say("c: what I owe") == table.say("c: who do I owe") != table.say("c: 我欠谁")
    finally:
        table.ledger.close()


# ------------------------------------------------------------------------------------ go-ahead labels typed


def test_the_askers_typed_label_books_a_did_you_mean_as_the_press_does(sqlite_url: str) -> None:
    """`就是这个` typed (the label of 「是不是：…」's button, once chat) by whoever got the question books its reading
    as their press does; anyone else's, asked, or with more words is chat; answered, nothing waits any more."""
    table = Table(sqlite_url, "a: 开桌 @a @b @c 庄 @a", "c: 胡 清一涩 自摸")
    try:
        assert table.say("b: 就是这个", "c: 就是这个？", "c: 就是这个 吧") == []
        out = table.say("c: 就是这个")
        assert out[:2] == ["bot: 第1局 记下：", "bot: 老王 自摸：清一色×4 → ×4"]
        assert out[-1] == "bot: 好的，记了（上面那条已经改成记下的结果）。"
        assert len(table.ledger.history(table.chat)) == 1 and table.say("c: 就是这个") == []
    finally:
        table.ledger.close()


def test_the_typers_typed_label_books_a_repeated_payment(sqlite_url: str) -> None:
    table = Table(sqlite_url, "a: 开桌 @a @b @c 庄 @a", "b: 胡 清一色 自摸", "a: 结算", "a: 付 @b 1", "a: 付 @b 1")
    try:
        assert table.say("c: 再记一笔") == []
        out = table.say("a: 再记一笔")
        assert out[0] == "bot: 记下付款：阿杰 → 小李 1元（阿杰 说已付，等 小李 点「收到」确认）"
        assert out[-1] == "bot: 好的，又记了一次（上面那条已经改成记下的结果）。"
        owed = sum(d.amount for d in table.ledger.debts(table.chat) if (d.debtor, d.creditor) == ("阿杰", "小李"))
        assert owed == 200
    finally:
        table.ledger.close()


def test_the_admins_typed_label_takes_back_the_settlement_and_only_its_own_label(sqlite_url: str) -> None:
    table = Table(sqlite_url, "a: 开桌 @a @b @c 庄 @a", "b: 胡 清一色 自摸", "a: 结算", "a: 撤销结算")
    try:
        assert table.say("a: 确认撤销付台费", "a: 确认撤销发红包池", "b: 确认撤销结算") == []
        assert table.ledger.current_table(table.chat) is None
        out = table.say("a: 确认撤销结算")
        assert out[0] == "bot: 已撤销结算：这一晚重新打开，结算的付款作废。"
        assert out[-1] == "bot: 好的，撤销了（上面那条已经改成撤销的结果）。"
        assert table.ledger.current_table(table.chat) is not None
    finally:
        table.ledger.close()
