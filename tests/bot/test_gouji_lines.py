"""够级 and 碰胡 lines play-testers typed that the bot left silent or refused: laughter after one's own place, the
last place known once the others are placed, `改成 名次 …`, 进贡/点贡, places glued before names, `@ 名字`,
`串三户！！`, and 碰胡's `胡 点炮 老王` read as 卡五星 reads it."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from bot.console import Console
from tests.bot.test_gouji_places import console, said

__all__ = ["console"]  # the fixture, from the 名次 tests (six seated, a 够级 table open)

#: a round booked typed `名次 @a @b @c @d @e @f`
ROUND_ONE = "bot: 第1局 够级：头科 阿一、二科 阿二、三科 阿三、四科 阿四、二落 阿五、大落 阿六"


def booked(console: Console) -> int:
    with console.bot.service.engine.connect() as connection:
        return connection.execute(sa.text("SELECT count(*) FROM transfers WHERE voided_at IS NULL")).scalar_one()


# ------------------------------------------------------------------------------------------------ 1. laughter


@pytest.mark.parametrize("line", ["c: 我三科 哈哈", "c: 我 三科 哈哈哈", "c: 三科 我 笑死"])
def test_laughter_after_ones_own_place_is_dropped(console: Console, line: str) -> None:
    assert said(console, line)[:2] == ["bot: 记名次（第1局）：按出完的顺序点人", "bot: 名次：三科 阿三（自己说的）"]


# ------------------------------------------------------------------------------------------------ 2. the last place


def test_the_last_place_is_known_once_five_are_placed(console: Console) -> None:
    for line in ("a: 我头科", "b: 我二科", "c: 我三科", "d: 我四科"):
        said(console, line)
    reply = said(console, "e: 我五科")
    assert reply[-1] == "bot: 记到上面的名次按钮里了：阿五 二落。只剩 阿六，就是 大落：点上面的「✅ 确认」记账。"
    assert "bot: 只剩 阿六：大落（是革命或烧牌失败的话，点「革命…」或「烧牌失败…」再点 TA）" in reply
    assert "bot: [按钮] ✅ 确认 | ↩ 撤一个" in reply
    assert booked(console) == 0  # confirmed first, as every round on the buttons
    assert said(console, "b: !press ✅ 确认")[1] == ROUND_ONE


def test_a_tapped_round_needs_no_tap_of_the_last_player(console: Console) -> None:
    said(console, "a: 名次")
    for name in ("阿一", "阿二", "阿三", "阿四"):
        console.feed(f"a: !press {name}")
    reply = console.feed("a: !press 阿五")
    assert "bot: 只剩 阿六：大落（是革命或烧牌失败的话，点「革命…」或「烧牌失败…」再点 TA）" in reply
    assert console.feed("a: !press ✅ 确认")[1] == ROUND_ONE


def test_the_last_player_may_still_be_marked_as_a_failed_burn(console: Console) -> None:
    said(console, "a: 名次")
    for name in ("阿一", "阿二", "阿三", "阿四", "阿五"):
        console.feed(f"a: !press {name}")
    asked = console.feed("a: !press 烧牌失败…")
    assert "bot: 谁烧牌失败了？（按失败的先后点）" in asked
    console.feed("a: !press 阿六")
    assert console.feed("a: !press ✅ 确认")[1:3] == [ROUND_ONE, "bot: 烧牌失败：阿六"]


# ------------------------------------------------------------------------------------------------ 3. 改成 名次


def test_a_round_is_corrected_with_gaicheng_after_one_question(console: Console) -> None:
    said(console, "b: 名次 @a @b @c @d @e @f")
    asked = said(console, "b: 改成 名次 @b @a @c @d @e @f")
    assert asked == [
        "bot: 把第1局的「出完：阿一、阿二、阿三、阿四、阿五、阿六」（你 60秒前记的）改成"
        "「出完：阿二、阿一、阿三、阿四、阿五、阿六」？改了按新的重算这一局。",
        "bot: [按钮] 改成这样 | 不改",
    ]
    done = console.feed("b: !press 改成这样")
    assert done[1] == (
        "bot: 第1局 已改正（原记录作废）：头科 阿二、二科 阿一、三科 阿三、四科 阿四、二落 阿五、大落 阿六"
    )
    assert booked(console) == 0  # a tie now: the old money voided, none booked


def test_someone_elses_round_is_theirs_to_correct(console: Console) -> None:
    said(console, "b: 名次 @a @b @c @d @e @f")
    told = said(console, "c: 改成 名次 @b @a @c @d @e @f")
    assert told[0].startswith("bot: 「改」不会改别人记的账：最后一条（第1局 出完：阿一、")
    assert "是 阿二 记的" in told[0]


def test_a_correction_the_round_would_refuse_gets_that_refusal(console: Console) -> None:
    said(console, "b: 名次 @a @b @c @d @e @f")
    assert said(console, "b: 改成 名次 @b @a @c") == [
        "bot: 还差 阿四、阿五、阿六：六个人都要写上（革命的写在「革命」后面，烧牌失败的写在「烧牌」后面）。"
    ]


# ------------------------------------------------------------------------------------------------ 4. 进贡


@pytest.mark.parametrize(
    ("line", "word"),
    [
        ("c: 进贡", "进贡"),
        ("c: 点贡 @a", "点贡"),
        ("c: 开点", "开点"),
        ("c: 大哥 进贡 给 阿一", "进贡"),  # whoever passes named first (once silent), by any word
        ("c: 阿三 进贡 阿一", "进贡"),
        ("c: @c 点贡 @a", "点贡"),
        ("c: 阿三 还贡了", "还贡"),
    ],
)
def test_card_passing_is_answered_not_recorded(console: Console, line: str, word: str) -> None:
    assert said(console, line) == [
        f"bot: {word} 只是换牌，不算分，这里不用记。记的是每局的名次（头科在前）：名次 @甲 @丁 @丙 @己 @乙 @戊"
        "（革命 @某人、烧牌 @某人 写在后面；只发「名次」出按钮）。"
    ]
    assert booked(console) == 0


@pytest.mark.parametrize("line", ["c: 大哥 进贡了吗", "c: 大哥 进贡？", "c: 大哥 说 进贡"])
def test_card_passing_asked_or_said_inside_a_sentence_is_chat(console: Console, line: str) -> None:
    assert said(console, line) == []


@pytest.mark.parametrize(
    "line",
    ["b: 改成 阿二 阿一 阿三 阿四 阿五 阿六", "b: 改成 @b @a @c @d @e @f", "b: 改成 @ 阿二 @ 阿一 阿三 @d 阿五 阿六"],
)
def test_a_round_corrected_by_names_alone_is_a_correction_of_its_places(console: Console, line: str) -> None:
    """`改成 老王 阿杰 …` (the names in finishing order, without 名次) after a round was silent: it is `改成 名次 …`."""
    said(console, "b: 名次 @a @b @c @d @e @f")
    assert said(console, line)[0].endswith("改成「出完：阿二、阿一、阿三、阿四、阿五、阿六」？改了按新的重算这一局。")


@pytest.mark.parametrize(
    "line", ["b: 改成 阿二 阿一", "b: 改天 阿二 阿一 阿三 阿四 阿五 阿六", "b: 改成 阿二 阿一 阿三 阿四 吃饭 阿六"]
)
def test_a_few_names_or_other_words_are_no_round_to_correct(console: Console, line: str) -> None:
    said(console, "b: 名次 @a @b @c @d @e @f")
    assert said(console, line) == []


# ------------------------------------------------------------------------------------- 5. how rounds are typed


@pytest.mark.parametrize(
    "line",
    [
        "c: 名次 头科阿一 二科阿二 三科阿三 四科阿四 五科阿五 大落阿六",
        "c: 名次 二科阿二 头科阿一 三科 阿三 四科 阿四 二落阿五 末游阿六",
        "c: 头科阿一 二科阿二 三科阿三 四科阿四 五科阿五 大落阿六",
        "c: 头科 阿一 二科 阿二 三科 阿三 四科 阿四 二落 阿五 大落 阿六 哈哈",
        "c: 名次 @ 阿一 @b @c @d @e @f",
        "c: 名次 头科 @ 阿一 二科 @b 三科 @ 阿三 四科 @d 五科 @e 大落 @f",  # @ typed apart after a place too
        "c: 头科 @ 阿一 二科 @ 阿二 三科 @c 四科 @d 五科 @e 大落 @ 阿六",
        "c: 名次 @a @b @c @d @e @f 哈哈",
        "c: 名次 @a @b @c @d @e @f！！",
    ],
)
def test_a_round_is_read_as_players_type_it(console: Console, line: str) -> None:
    assert said(console, line)[0] == ROUND_ONE


def test_a_round_called_chuansanhu_is_booked_when_it_is_one(console: Console) -> None:
    reply = said(console, "c: 名次 @a @c @e @b @d @f 串三户！！")
    assert reply[1] == "bot: 阿一、阿三、阿五 得 12 分（串三户，翻倍）"


def test_a_round_called_chuansanhu_that_is_none_is_refused(console: Console) -> None:
    assert said(console, "c: 名次 @a @b @c @d @e @f 串三户") == [
        "bot: 没有记：这个名次不是串三户（头科、二科、三科不是同一队）：头科 阿一、二科 阿二、三科 阿三、四科 阿四、"
        "二落 阿五、大落 阿六。名次对的话去掉「串三户」再发（串三户不用写，会自己算）。"
    ]
    assert booked(console) == 0


@pytest.mark.parametrize(
    ("line", "refusal"),
    [
        ("c: 名次 头科阿一 头科阿二 @c @d @e @f", "bot: 头科 写了两个人：阿一、阿二。"),
        (
            "c: 名次 @a @b @c @d @e @f 头科",
            "bot: 「头科」后面要写是谁：名次 头科阿杰 二科老王 …（或按出完的顺序写名字：名次 @甲 @丁 @丙 …）",
        ),
        (
            "c: 名次 头科阿一 二科阿三 三科阿二 四科阿四 大落阿六 革命 阿五",  # 阿五's 革命 is 三科 (串三户)
            "bot: 没有记：写的是 阿二 三科，可这样算出来是：头科 阿一、二科 阿三、三科 阿五、四科 阿二、二落 阿四、"
            "大落 阿六（革命、烧牌失败会挪名次）。按出完的顺序写名字再发：名次 @甲 @丁 @丙 … 革命 @某人",
        ),
    ],
)
def test_places_that_do_not_add_up_are_refused_by_name(console: Console, line: str, refusal: str) -> None:
    assert said(console, line) == [refusal]
    assert booked(console) == 0


@pytest.mark.parametrize("line", ["c: 头科阿一 厉害", "c: 头科阿一 二科阿二", "c: 头科 真难", "c: 头科阿一 二科阿二？"])
def test_places_said_without_a_whole_round_are_chat(console: Console, line: str) -> None:
    assert said(console, line) == []


# ------------------------------------------------------------------------------------------------ 6. 碰胡


@pytest.mark.parametrize(
    "line", ["a: 胡 点炮 阿二", "a: 胡 阿二 点炮", "a: 胡 阿二 放炮", "a: 胡 点的炮 @b", "a: 胡 接炮 阿二"]
)
def test_a_penghu_win_names_its_discarder_as_kawuxing_lines_do(console: Console, line: str) -> None:
    for setup in ("a: 设置 游戏 碰胡", "a: 开桌 @a @b @c @d 庄 @a"):
        said(console, setup)
    assert said(console, line)[0] == "bot: 第1局 阿一 胡，点 阿二（一人出）"


def test_a_penghu_discard_word_without_a_name_still_asks_for_it(console: Console) -> None:
    for setup in ("a: 设置 游戏 碰胡", "a: 开桌 @a @b @c @d 庄 @a"):
        said(console, setup)
    assert said(console, "a: 碰 点炮") == ["bot: 「点炮」后面要写是谁：例如 点 @丙"]
