"""The chat grammar and money display, with property tests where an invariant exists."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from opencc import OpenCC

from bot import vocabulary
from bot.amounts import parse_amount
from bot.commands._common import money
from bot.core import ManualClock, Refusal, load_plugins, registry
from bot.grammar import (
    _VOCABULARY,
    GrammarError,
    asks,
    closest_reading,
    fold,
    is_cjk,
    parse_counts,
    parse_double_win,
    parse_draw,
    parse_kong,
    parse_ma,
    parse_people,
    parse_piao,
    parse_ready,
    parse_win,
    read,
    render,
    split_command,
    tile_notation,
    tokens,
    unprompted,
)

SEATS = {"a": "a", "b": "b", "c": "c", "@a": "a", "@b": "b", "@c": "c", "小李": "b"}


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


@pytest.mark.parametrize(
    ("line", "me"),
    [("清一色 自摸 @b", "a"), ("清一色 自摸 @b", None), ("清一色 @b 自摸", "c"), ("清一色 @b 点 @c", "a")],
)
def test_a_mention_after_the_hands_words_names_its_winner(line: str, me: str | None) -> None:
    [spec] = parse_win(line, me, resolve)
    assert (spec.winner, spec.patterns) == ("b", ["qingyise"])


def test_a_second_winner_with_words_of_their_own_stays_a_second_winner() -> None:
    first, second = parse_win("卡五星 @c 七对 点 @b", "a", resolve)
    assert (first.winner, first.patterns, second.winner, second.patterns) == ("a", ["kawuxing"], "c", ["qidui"])


@pytest.mark.parametrize(
    "line", ["清一色 自摸 坎2", "清一色 自摸 2坎", "清一色 自摸 坎 2", "清一色自摸坎2", "自摸 2个坎 清一色"]
)
def test_a_kan_count_rides_on_the_win_however_it_is_written(line: str) -> None:
    [spec] = parse_win(line, "a", resolve)
    assert (spec.patterns, spec.method, spec.counts) == (["qingyise"], "self_draw", {"kan": 2})


@pytest.mark.parametrize(
    "written",
    [
        "暗四归一×2",
        "暗四归一 ×2",
        "暗四归一 × 2",
        "暗四归一x2",
        "暗四归一 X2",
        "暗四归一 x 2",
        "暗四归一*2",
        "暗四归一 * 2",
        "暗四归一 ＊２",
        "暗四归一乘2",
        "暗四归一 乘2",
        "两个暗四归一",
        "2个暗四归一",
        "暗四归一 暗四归一",
    ],
)
def test_a_four_counted_twice_however_the_multiplier_is_written(written: str) -> None:
    [spec] = parse_win(f"清一色 {written} 自摸", "a", resolve)
    assert (spec.patterns, spec.method) == (["qingyise", "ansiguiyi", "ansiguiyi"], "self_draw")


@pytest.mark.parametrize(
    ("written", "key"),
    [
        ("暗四归一 ×4", "fours_too_many"),
        ("暗四归一×12", "fours_too_many"),
        ("明四归一x2 暗四归一 ×2", "fours_too_many"),
        ("清一色 ×2", "pattern_once"),
        ("七对*2", "pattern_once"),
    ],
)
def test_more_fours_than_a_hand_holds_are_refused_by_name(written: str, key: str) -> None:
    with pytest.raises(GrammarError) as refused:
        parse_win(f"清一色 {written} 自摸".replace("清一色 清一色", "清一色"), "a", resolve)
    assert refused.value.key == key and not refused.value.suggest


def test_qia_ba_and_the_horse_tile_in_the_win_and_alone() -> None:
    [spec] = parse_win("清一色 自摸 恰1 八 3 买马 中", "a", resolve)
    assert (spec.counts, spec.ma) == ({"qia": 1, "ba": 3}, "7z")
    assert parse_win("八条 自摸", "a", resolve)[0].tiles == ["8s"]  # 八 before a suit is a tile
    assert parse_counts("恰 2 八0") == {"qia": 2, "ba": 0}
    assert parse_ma("七条") == "7s" and parse_ma("买马 5p") == "5p"
    for bad, key in (("坎5", "count_too_big"), ("坎1 坎2", "two_counts"), ("八12", "count_too_big")):
        with pytest.raises(GrammarError) as err:
            parse_counts(bad)
        assert err.value.key == key
    for bad, key in (("5p 6p", "ma_one_tile"), ("56p", "ma_one_tile"), ("", "ma_tile_missing")):
        with pytest.raises(GrammarError) as err:
            parse_ma(bad)
        assert err.value.key == key
    with pytest.raises(GrammarError) as err:
        parse_win("清一色 自摸 买马", "a", resolve)
    assert err.value.key == "ma_tile_missing"


def test_ready_hands_at_a_draw() -> None:
    first, second = parse_ready("听 @b 123p456p789s234s5s @c 清一色 碰 3s", "a", resolve) or []
    assert (first.player, first.tiles) == ("b", ["123p456p789s234s5s"])
    assert (second.player, second.patterns, second.melds) == ("c", ["qingyise"], [{"kind": "peng", "tile": "3s"}])
    [mine] = parse_ready("听 屁胡", "a", resolve) or []
    assert (mine.player, mine.pihu) == ("a", True)
    assert parse_ready("没人听", "a", resolve) == [] and parse_ready("", "a", resolve) is None
    for bad, key in (("听 @b", "ready_hand_missing"), ("听 @b 清一色 @b 七对", "ready_twice")):
        with pytest.raises(GrammarError) as err:
            parse_ready(bad, "a", resolve)
        assert err.value.key == key
    # where the table plays no 查大叫, 荒庄 takes no words (听 … is read, for the command to refuse by name)
    with pytest.raises(GrammarError) as err:
        parse_draw("清一色", "a", resolve, ready=False)
    assert err.value.key == "word_not_here"
    assert parse_draw("没人听", "a", resolve, ready=False) == []


def test_piao_for_oneself_or_named_players() -> None:
    assert parse_piao("2", "a", resolve) == [("a", 2)]
    assert parse_piao("@b 1 @c 0", "a", resolve) == [("b", 1), ("c", 0)]
    for bad, key in (("11", "piao_range"), ("@b", "piao_amount_missing"), ("1 @a 2", "piao_twice")):
        with pytest.raises(GrammarError) as err:
            parse_piao(bad, "a", resolve)
        assert err.value.key == key


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


def test_the_dealer_said_after_the_player_is_the_dealer_not_a_guest() -> None:
    assert parse_people("@b @c 阿杰坐庄") == (["@b", "@c"], "阿杰", False)
    assert parse_people("@b @c 我庄") == (["@b", "@c"], "我", False)
    assert parse_people("@b @c @a当庄") == (["@b", "@c"], "@a", False)
    assert parse_people("@a @b @c 老王 做庄") == (["@a", "@b", "@c"], "老王", False)
    assert parse_people("@b @c 加我") == (["@b", "@c", "我"], None, False)
    with pytest.raises(GrammarError):
        parse_people("坐庄 @a @b")  # whose?


@pytest.mark.parametrize(
    "line", ["胡 清一色 自摸 怎么算", "胡 七对 点 老王 会怎么算", "暗杠 算几块", "亮倒 什么意思", "荒庄 咋算？"]
)
def test_asking_what_a_record_pays_or_means_is_a_question(line: str) -> None:
    assert asks(line)


@pytest.mark.parametrize("line", ["胡 清一色 自摸", "算了", "亮倒"])
def test_a_record_is_no_question(line: str) -> None:
    assert not asks(line)


@given(st.integers(min_value=1, max_value=10**9))
def test_a_displayed_amount_reads_back_as_the_same_amount(amount: int) -> None:
    assert parse_amount(money(amount)) == amount


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
#: characters that start no word a record may be glued to (vocabulary words, tiles)
GLUE_INITIALS = frozenset(
    {spelling[0] for spelling in _VOCABULARY}
    | set(vocabulary.TILE_NUMERALS)
    | set(vocabulary.TILE_DRAGONS)
    | {n[0] for n in vocabulary.TILE_NICKNAMES}
    | {"第", *vocabulary.NUMERAL_DIGITS, *vocabulary.NUMERAL_UNITS}  # 撤销's hand number (`撤销第1局`)
    | {word[0] for words in vocabulary.HELP_TOPIC_WORDS.values() for word in words}  # 帮助's topics (`帮助算账`)
    | {word[0] for word in vocabulary.COMMAND_WORDS["help"]}  # 帮助 again (`帮助帮助`)
    | {word[0] for word in vocabulary.COMMAND_WORDS["settle"]}  # 结算 after a closing word (`不打了结算`)
    | set(vocabulary.LOOKED_UP_ENDINGS)  # a read-only word asked (`战况呀`, `余额呢`): the same answer
)
STARTS_NOTHING = st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF).filter(
    lambda c: fold(c)[0] not in GLUE_INITIALS
)


@given(st.sampled_from(CHINESE_WORDS), STARTS_NOTHING, st.text(max_size=8))
def test_a_word_glued_to_ordinary_chinese_is_never_that_command(word: str, glued: str, rest: str) -> None:
    """At most a longer registered word matched, or the command's own glued reading (`付丁0`: 付 a name and an
    amount, `payments._name_glued`), which acts only when it reads cleanly (`unprompted`): chat is never answered."""
    line = word + glued + rest
    found = split_command(line, registry, "kawuxing")
    assert found is None or len(found[1]) > len(word) or unprompted(line, found[1], found[0])


@given(
    st.lists(st.sampled_from(vocabulary.SETTLE_LEAD_WORDS), min_size=1, max_size=3),
    st.sampled_from(["", " ", "，", "、", "！ ", "。。"]),
    st.sampled_from(vocabulary.COMMAND_WORDS["settle"]),
)
def test_closing_words_before_a_settle_word_alone_are_that_settle(leads: list[str], gap: str, word: str) -> None:
    """`散了散了 结算吧`, `不打了，结算`: what players say as they stop, then a settle word alone, is that 结算, read
    as said (its refusals answered); with more words after it, or asked, it is never 结算."""
    line = gap.join([*leads, word])
    found = split_command(line, registry, "kawuxing")
    assert found is not None and (found[0].key, found[1], found[2]) == ("settle", word, ""), line
    assert not unprompted(line, word, found[0])
    for more in (" 明天见", "吗", "？", " 明天再来"):
        after = split_command(line + more, registry, "kawuxing")
        assert after is None or after[0].key != "settle", line + more


def test_no_settle_word_is_or_starts_with_a_closing_word() -> None:
    """A closing word is read off the line before its settle word: one a settle word started with would eat it."""
    settle = vocabulary.COMMAND_WORDS["settle"]
    assert not [(w, lead) for w in settle for lead in vocabulary.SETTLE_LEAD_WORDS if w.startswith(lead)]


@given(
    st.lists(st.sampled_from(vocabulary.UNDO_LEAD_WORDS), min_size=1, max_size=3),
    st.sampled_from([" ", "，", ", ", "！ ", "。。"]),
    st.sampled_from([w for w in vocabulary.COMMAND_WORDS["undo"] if w not in vocabulary.CHATTY_WORDS]),
)
@example(["oops wrong"] * 3, " ", "undo this please")  # longer than the head read for a command: found in CI
def test_what_is_said_on_seeing_a_mistake_before_an_undo_word_alone_is_that_undo(
    leads: list[str], gap: str, word: str
) -> None:
    """`哦不对 撤销`, `oops wrong, undo`: what players say on seeing their mistake, then an undo word alone, is that
    撤销, read as said (its refusals answered); with more words after it, or asked, it is never 撤销."""
    line = gap.join([*leads, word])
    found = split_command(line, registry, "kawuxing")
    assert found is not None and (found[0].key, found[1], found[2]) == ("undo", word, ""), line
    assert not unprompted(line, word, found[0])
    for more in (" 明天见", "吗", "？", " 第一局再说"):
        after = split_command(line + more, registry, "kawuxing")
        assert after is None or after[0].key != "undo", line + more


def test_no_undo_word_is_or_starts_with_a_lead_word() -> None:
    undo = vocabulary.COMMAND_WORDS["undo"]
    assert not [(w, lead) for w in undo for lead in vocabulary.UNDO_LEAD_WORDS if w.startswith(lead)]


@pytest.mark.parametrize(
    ("line", "args"),
    [("转小李4块", "小李4块"), ("转 小李 4", "小李 4"), ("转给 小李 4", "小李 4"), ("转给小李4块了", "小李4块了")],
)
def test_a_transfer_to_a_plain_name_is_read_as_sent_to_it(line: str, args: str) -> None:
    """`转小李4块`: read as `已转给 小李 4块`, which the payment books only for a player of the latest settlement."""
    found = split_command(line, registry, "kawuxing")
    assert found is not None and (found[0].key, found[1], found[2]) == ("pay", "已转给", args)
    assert unprompted(line, found[1], found[0])


@pytest.mark.parametrize("line", ["转发一下", "转 小李", "转小李4块吗", "转@b4", "转 @b 4", "转4块"])
def test_a_transfer_word_before_anything_but_a_plain_name_and_an_amount_is_chat(line: str) -> None:
    assert split_command(line, registry, "kawuxing") is None


@pytest.mark.parametrize(
    ("line", "seats", "args"),
    [("小李自摸七对", ("阿杰", "小李", "老王"), "小李 七对"), ("刚刚 阿杰自摸清一色", ("阿杰", "小李"), "阿杰 清一色")],
)
def test_a_seats_name_glued_to_zimo_starts_its_players_win(line: str, seats: tuple[str, ...], args: str) -> None:
    found = split_command(line, registry, "kawuxing", seats)
    assert found is not None and found[0].key == "hu" and found[2].split() == args.split(), found


@pytest.mark.parametrize("line", ["王哥自摸七对", "小李自摸七对吗", "小李胡了七对", "自摸七对小李"])
def test_no_name_but_a_seats_glued_to_zimo_is_read(line: str) -> None:
    found = split_command(line, registry, "kawuxing", ("阿杰", "小李", "老王"))
    assert found is None or not found[2].startswith("小李"), found


CHAT = [
    "胡说八道",
    "杠精",
    "和你说个事",
    "自摸了吗",
    "亮倒了没有啊",
    "胡了吗？",
    "撤销？",
    "胡 清一色 自摸？",
    "和白板说一下",
    "臭庄了真倒霉",
    "余额宝收益",
    "算账的时候叫我",
    "点杠是什么意思",
    "明天再结算",
    "散了 明天再结算",
    "好了",
]


@pytest.mark.parametrize("line", CHAT)
def test_ordinary_chat_is_no_command(line: str) -> None:
    assert split_command(line, registry, "kawuxing") is None


def test_a_question_about_an_admin_act_is_chat_by_the_command_s_typed_field() -> None:
    """`CommandBook`'s commands name `admin_only` (`GrammarCommand`): the grammar reads the field, not a guess."""
    from bot.grammar import GrammarCommand

    assert "admin_only" in GrammarCommand.__dict__
    load_plugins()
    kick = registry.lookup("请出")
    assert kick is not None and kick.admin_only
    assert split_command("请出 @x 吗", registry, "kawuxing") is None
    found = split_command("请出 @x 捣乱", registry, "kawuxing")
    assert found is not None and found[1:] == ("请出", "@x 捣乱")


@pytest.mark.parametrize(
    ("line", "word", "args"),
    [
        ("胡清一色自摸", "胡", "清一色自摸"),
        ("暗槓 3s", "暗杠", "3s"),
        ("自摸了！", "自摸了", ""),
        ("余额？", "余额", ""),
        ("ＵＮＤＯ", "undo", ""),
        ("／hu@paiju_bot 清一色", "hu", "清一色"),
        ("直杠九筒点小李", "直杠", "九筒点小李"),
        ("  荒莊！", "荒庄", ""),
        ("撤销第1局", "撤销", "第1局"),
        ("撤回第十二把", "撤回", "第十二把"),
    ],
)
def test_the_command_word_is_the_registry_s_own_and_the_arguments_are_as_typed(line: str, word: str, args: str) -> None:
    found = split_command(line, registry, "kawuxing")
    assert found is not None and found[1:] == (word, args)


@pytest.mark.parametrize(
    ("line", "key"),
    [
        ("流局啦", "draw"),
        ("荒庄啦！", "draw"),
        ("亮倒啦", "liangdao"),
        ("我亮倒啦", "liangdao"),
        ("暗杠啦 3s", "gang"),
        ("胡啦 清一色 自摸", "hu"),
        ("自摸啦 清一色", "hu"),
        ("撤销一下", "undo"),
        ("撤销下", "undo"),
        ("我输了多少钱", "balance"),
        ("我欠谁啊", "balance"),
        ("今晚我输了多少", "balance"),
        ("改 胡 七对 自摸", "correct"),
        ("my balance", "balance"),
        ("Who do I owe?", "balance"),
        ("last hand", "history"),
    ],
)
def test_what_players_say_at_the_table_is_the_command_it_means(line: str, key: str) -> None:
    """啦 for 了, 撤销一下, the first-person money questions with 钱 or a closing 啊/呢 (they were silent)."""
    found = split_command(line, registry, "kawuxing")
    assert found is not None and found[0].key == key


@pytest.mark.parametrize(
    ("line", "key", "args"),
    [
        ("看一下历史", "history", ""),
        ("查下余额 @乙", "balance", "@乙"),
        ("查看 余额", "balance", ""),
        ("余额呢？", "balance", ""),
        ("战绩啊", "stats", ""),
        ("看看规则", "rules", ""),
    ],
)
def test_a_question_about_the_books_is_read_around_its_word(line: str, key: str, args: str) -> None:
    found = split_command(line, registry, "kawuxing")
    assert found is not None and (found[0].key, found[2]) == (key, args)


@pytest.mark.parametrize("line", ["看看 撤销", "查一下", "看看再说", "余额宝呢", "多少钱啊", "谁坐庄啊", "规则呢"])
def test_a_look_word_or_a_particle_makes_no_other_command(line: str) -> None:
    """Only what reads the books is asked around its word; an act after 看看 is chat, and so are the everyday
    words (`多少钱啊`) and those left as chat before (`谁坐庄啊`)."""
    assert split_command(line, registry, "kawuxing") is None


@pytest.mark.parametrize(
    ("line", "key"), [("碰了 点 @c", "penghu_peng"), ("碰啦 摸", "penghu_peng"), ("扫了", "penghu_sao")]
)
def test_a_penghu_record_said_done_is_that_record_at_a_penghu_table_only(line: str, key: str) -> None:
    found = split_command(line, registry, "penghu")
    assert found is not None and found[0].key == key
    assert split_command(line, registry, "kawuxing") is None


@pytest.mark.parametrize(
    ("line", "word", "args"),
    [
        ("撤销 结算", "撤销结算", ""),
        ("撤回　结算！", "撤回结算", ""),
        ("取消 结算", "取消结算", ""),
        ("撤销  结账", "撤销结账", ""),
        ("撤销 付款 @乙", "撤销付款", "@乙"),
        ("取消 付款", "取消付款", ""),
        ("撤销 处罚 #12 误判", "撤销处罚", "#12 误判"),
        ("撤回 結算", "撤回结算", ""),
        ("撤销 第3局", "撤销", "第3局"),
        ("撤销 结算一下", "撤销", "结算一下"),
        ("撤消 结算", "撤销结算", ""),
        ("撤消结算", "撤销结算", ""),
        ("撤消 付款 @乙", "撤销付款", "@乙"),
        ("撤消 第3局", "撤消", "第3局"),
        ("撤销上一局", "撤销", "上一局"),
        ("撤销 上一把", "撤销", "上一把"),
    ],
)
def test_an_undo_word_typed_apart_from_what_it_undoes_is_that_command(line: str, word: str, args: str) -> None:
    """`撤销 结算` is 撤销结算 (the settlement taken back), never 撤销 (the table's latest record)."""
    found = split_command(line, registry, "kawuxing")
    assert found is not None and found[1:] == (word, args)


def test_every_spelling_reads_back_from_traditional_characters() -> None:
    to_traditional = OpenCC("s2t")
    spellings = [*_VOCABULARY, *(w for words in vocabulary.COMMAND_WORDS.values() for w in words)]
    assert [w for w in spellings if fold(to_traditional.convert(w)) != w] == []


def test_the_registry_takes_its_chinese_words_from_the_vocabulary() -> None:
    for key, spellings in vocabulary.COMMAND_WORDS.items():
        command = registry.commands[key]
        assert set(spellings) <= set(command.aliases), key
    assert registry.conflicts == []


def test_the_grammar_does_not_import_the_command_layer() -> None:
    """The grammar is text in, words out: bot.core imports it, never the other way round."""
    code = "import sys, bot.grammar; assert 'bot.core' not in sys.modules, sorted(sys.modules)"
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize(
    ("typed", "notation"),
    [
        ("幺鸡", "1s"),
        ("伍筒", "5p"),
        ("5w", "5m"),
        ("5t", "5s"),
        ("5b", "5p"),
        ("红中红中红中", "777z"),
        ("白板", "5z"),
    ],
)
def test_tile_nicknames(typed: str, notation: str) -> None:
    assert tile_notation(typed) == notation


def test_a_kong_takes_one_tile_and_one_player() -> None:
    with pytest.raises(GrammarError) as two_tiles:
        parse_kong("暗杠", "3s 4s", "a", resolve)
    assert (two_tiles.value.key, two_tiles.value.params["word"], two_tiles.value.suggest) == (
        "kong_two_tiles",
        "4s",
        False,
    )
    with pytest.raises(GrammarError, match="kong_one_tile"):
        parse_kong("暗杠", "3s4s", "a", resolve)
    with pytest.raises(GrammarError, match="kong_two_players"):
        parse_kong("杠", "@b @c 暗", "a", resolve)
    assert parse_kong("点杠", "9p @b", "a", resolve).discarder == "b"


def test_a_name_before_dianpao_is_the_discarder() -> None:
    [spec] = parse_win("七对 @b 点炮", "a", resolve)
    assert (spec.winner, spec.discarder, spec.method) == ("a", "b", "discard")
    [glued] = parse_win("七对 @b放炮", "a", resolve)
    assert glued.discarder == "b"


def test_minggang_reads_as_the_group_says() -> None:
    assert parse_kong("明杠", "4s", "a", resolve, lambda: "xugang").kind == "xugang"
    assert parse_kong("杠", "明 点 @b", "a", resolve).kind == "zhigang"
    [spec] = parse_win("3s 明杠 9p 自摸", "a", resolve, lambda: "xugang")
    assert spec.melds == [{"kind": "xugang", "tile": "9p"}]


def test_the_closest_reading_corrects_or_leaves_out_what_was_not_understood() -> None:
    with pytest.raises(GrammarError) as err:
        parse_win("清一涩 自摸 哈哈", "a", resolve)
    closest = closest_reading(err.value.reading)
    assert closest is not None and render(closest) == "清一色 自摸"


@pytest.mark.parametrize("line", ["清一色 亮倒 点 @b", "清一涩 报听 点 @b", "亮倒 清一色 自摸"])
def test_liangdao_in_a_win_is_refused_by_name_never_guessed_away(line: str) -> None:
    with pytest.raises(GrammarError) as err:
        parse_win(line, "a", resolve)
    assert err.value.key == "liangdao_in_win" and not err.value.suggest


@pytest.mark.parametrize("line", ["清一涩自摸", "清一色 点 @b 亮倒哈", "清一色 自摸 荒庄哈", "清一色 自摸 坎数呢"])
def test_no_closest_reading_leaves_out_a_word_the_vocabulary_knows(line: str) -> None:
    with pytest.raises(GrammarError) as err:
        parse_win(line, "a", resolve)
    assert closest_reading(err.value.reading) is None


def test_a_known_word_with_no_place_stays_in_the_closest_reading() -> None:
    with pytest.raises(GrammarError) as err:
        parse_win("清一色 杠 自摸 哈哈", "a", resolve)
    closest = closest_reading(err.value.reading)
    assert closest is not None and render(closest) == "清一色 杠 自摸"  # still refused when checked: nothing dropped


# ------------------------------------------------------------------ any documented form, however it is typed

DOCUMENTED = [
    "胡 清一色 自摸",
    "胡 清一色 七对 自摸",
    "胡 123p46p789s22s333s 5p 点 @b",
    "胡 @a 卡五星 @b 七对 点 @c",
    "胡 卡五星 杠上炮 点 @b",
    "胡 杠上开花 碰碰胡",
    "胡 海底捞 清一色",
    "胡 抢杠 @b 卡五星",
    "胡 12s456p789p99s 碰 3s 3s 自摸",
    "自摸 龙七对",
    "暗杠 3s",
    "暗杠 7z",
    "蓄杠 4s",
    "直杠 9p 点 @b",
    "杠 @c 直 点 @b 杠上杠",
    "点杠 @b",
    "亮倒 @b",
    "荒庄",
    "撤销",
    "余额 @b",
]
SEPARATORS = [" ", "  ", "　", "，", "、", " ， ", "；", "：", "！ "]
TRAILING = ["", "！", "。", "~", "～～", "!!", " 😄", "🎉🎉", "…", "👍🏻"]
TO_TRADITIONAL = OpenCC("s2t")


def _traditional(word: str) -> str:
    return TO_TRADITIONAL.convert(word)


def _full_width(word: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in word)


@st.composite
def typed_as_players_do(draw: st.DrawFn) -> tuple[str, str]:
    plain = draw(st.sampled_from(DOCUMENTED))
    out = []
    for word in plain.split(" "):
        style = draw(st.sampled_from(["plain", "full-width", "traditional", "both"]))
        if style in {"traditional", "both"}:
            word = _traditional(word)
        if style in {"full-width", "both"}:
            word = _full_width(word)
        out.append(word)
    spaced = out[0] + "".join(draw(st.sampled_from(SEPARATORS)) + w for w in out[1:])
    return plain, draw(st.sampled_from(["", " ", "　"])) + spaced + draw(st.sampled_from(TRAILING))


def _understood(line: str) -> tuple[object, ...]:
    found = split_command(line, registry, "kawuxing")
    assert found is not None, line
    command, word, args = found
    return command.key, word, [(w.kind, w.value) for w in read(args, resolve)]


@given(typed_as_players_do())
def test_any_documented_form_typed_with_extra_spaces_punctuation_full_width_or_traditional_reads_the_same(
    pair: tuple[str, str],
) -> None:
    plain, typed = pair
    assert _understood(typed) == _understood(plain)


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
    actions: list[str], new_sqlite_url: Callable[[], str]
) -> None:
    """Whatever order things are typed in: each reply's per-player change adds up to the night balance it
    shows, refusals change nothing, and the ledger's balances sum to zero."""
    from bot.console import Console
    from bot.core import Bot
    from ledger.service import Ledger

    clock = ManualClock()
    ledger = Ledger.open(new_sqlite_url(), clock=clock.now)
    try:
        console = Console(Bot(ledger, clock=clock), clock)
        for name in ("a", "b", "c"):
            console.feed(f"!join {name} {name}-成员")
        console.feed("a: 开桌 @a @b @c 庄 @a")
        night = {"a": 0, "b": 0, "c": 0}
        seen = 0
        change = re.compile(r"^bot: (a|b|c)-成员 ([+-]?[\d.]+元|0)（本晚 ([+-]?[\d.]+元|0)）$")
        for action in actions:
            console.feed("!clock +11s")  # the same refused line three times at once is a flood, fined by the group
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
    return 0 if shown == "0" else (parse_amount(shown.lstrip("+-")) or 0) * (-1 if shown.startswith("-") else 1)


def test_a_comma_between_digits_stays_in_its_word_for_the_amount_reader() -> None:
    assert tokens("@b 1,000") == ["@b", "1,000"]
    assert tokens("胡 清一色，自摸") == ["胡", "清一色", "自摸"]
    assert tokens("@b 1, 2") == ["@b", "1", "2"]


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("@ajie已转8", "@ajie 已转8"),
        ("给@ajie转了2", "给@ajie 转了2"),
        ("c: @xiao_li2收到4", "c: @xiao_li2 收到4"),
        ("付@ajie 4", "付@ajie 4"),  # glued before: `clean` splits it
        ("@ajie 已转 8", "@ajie 已转 8"),
        ("me@ajie已转", "me@ajie已转"),  # no username: a Latin letter before the @
    ],
)
def test_an_at_username_glued_to_the_words_after_it_ends_where_a_username_ends(typed: str, read: str) -> None:
    from bot.grammar import spaced_usernames

    assert spaced_usernames(typed) == read


def test_the_bots_own_mention_glued_to_a_word_stays_glued() -> None:
    from bot.grammar import spaced_usernames

    assert spaced_usernames("@Paiju_Bot余额 @ajie已转", "paiju_bot") == "@Paiju_Bot余额 @ajie 已转"


# ---------------------------------------------------------------------------------------------- 一炮双响 by names

NAMED_SEATS = ("阿杰", "小李", "老王")
#: the ways a 一炮双响 is told with the seats' names: {a}/{b} the winners with their hands, {c} the discarder
DOUBLE_WIN_FORMS = (
    "{a} {b} 点 {c}",
    "{a} {b} 都胡了 {c}点的",
    "{a} {b} 都胡了，{c}点炮",
    "一炮双响 {a} {b} 点 {c}",
    "{c} 一炮双响 {a} {b}",
    "{c}一炮双响 {a} {b}",
    "{a} 胡了 {b} 胡了 点 {c}",
)
_HANDS = st.lists(st.sampled_from(sorted(vocabulary.PATTERNS)[:8]), min_size=1, max_size=2, unique=True)


@given(st.permutations(NAMED_SEATS), _HANDS, _HANDS, st.sampled_from(DOUBLE_WIN_FORMS))
def test_a_double_win_told_with_names_reads_as_its_plain_line(
    seats: list[str], first: list[str], second: list[str], form: str
) -> None:
    """However the names, hands and discarder are ordered, the line reads as `胡 甲 … 乙 … 点 丙` does."""
    a, b, c = seats
    said = [" ".join((a, *(vocabulary.PATTERNS[key][0] for key in first)))]
    said.append(" ".join((b, *(vocabulary.PATTERNS[key][0] for key in second))))
    resolve = {seat: seat for seat in NAMED_SEATS}.get
    line = form.format(a=said[0], b=said[1], c=c)
    assert parse_double_win(line, None, resolve) == parse_win(f"{said[0]} {said[1]} 点 {c}", None, resolve)


@pytest.mark.parametrize(
    ("line", "key"),
    [
        ("阿杰 小李 都胡了 老王点的", "double_win_hands_missing"),
        ("阿杰和小李 胡 老王 点炮", "double_win_hands_missing"),
        ("老王 一炮双响 阿杰 小李", "double_win_hands_missing"),
        ("阿杰 小李 都胡了 七对 老王点的", "double_win_whose"),
        ("阿杰 小李 都胡了", "double_win_discarder_missing"),
        ("老王 点炮 阿杰 小李 都胡了", "double_win_which_discarder"),
        ("阿杰 七对 小李 卡五星 点 老王 都胡了 阿杰点的", "two_discarders"),
        ("阿杰 七对 小李 卡五星 小张点的", "discarder_not_seated"),
    ],
)
def test_what_a_double_win_leaves_open_is_asked_never_guessed(line: str, key: str) -> None:
    with pytest.raises(GrammarError) as refused:
        parse_double_win(line, None, {seat: seat for seat in NAMED_SEATS}.get)
    assert refused.value.key == key
