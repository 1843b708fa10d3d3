"""Lines real players typed at a 卡五星 table that the bot misread or ignored (lines12): a win told by its discarder
dealing in to the sender (`小李给我点了个七对`, `小李点我七对`, `我胡小李 七对`), English `tom discarded, amy won seven
pairs`, `drawn hand lol`, a kong's tail of chat (`暗杠 三条 都没用`), `算账` with nothing played, `换人`, `我欠谁钱`
before 结算, and English replies glossing 够级 and 蓄杠."""

from __future__ import annotations

import pytest

from tests.bot.test_player_first import Table, same_as

SEATED = ("a: 开桌 @a @b @c 庄 @a", "!clock +1m")
ENGLISH = ("a: 设置 语言 en", *SEATED)


def test_an_english_kong_with_a_discarder_glosses_every_kong_named(sqlite_url: str) -> None:
    table = Table(sqlite_url, *ENGLISH)
    try:
        assert table.say("b: 蓄杠 6s 点 @a") == [
            "bot: Only an exposed kong (直杠) takes another player's discard; a concealed kong (暗杠) or an added kong "
            "(蓄杠) has no discarder."
        ]
    finally:
        table.ledger.close()
