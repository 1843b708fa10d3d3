"""结算's caption and 统计's totals name every kind of money a night moved, as 余额 counts it: a player's 净 in the
caption says what of it is no play (`｜含 罚款 -4元、台费 -1元、领红包池/台费 +4元`: play plus these is the 净 余额
shows), and 统计's totals give 台费 beside 罚款, with the house's line beside the pot's."""

from __future__ import annotations

import re

from tests.bot.test_player_first import Table

NIGHT = (
    "a: 设置 台费 1",
    "a: 开桌 @a @b @c 庄 @a",
    "!clock +3m",
    "b: 胡 清一色 自摸",
    "!clock +1m",
    "a: 罚款 @b 4 迟到",
    "!clock +10s",
    "a: 发红包池 @a 4",
    "!clock +5m",
)


def _signed(text: str) -> int:
    return round(float(text.replace("元", "")) * 100) if text != "0" else 0


def test_the_settle_caption_and_stats_totals_tell_fines_and_fees(sqlite_url: str) -> None:
    table = Table(sqlite_url, *NIGHT)
    try:
        said = table.say("a: 结算")
        lines = {line.split()[1]: line for line in said if re.match(r"bot: \S+ [+-]\d", line)}
        assert lines["小李"].endswith("｜含 罚款 -4元、台费 -1元"), said
        assert lines["阿杰"].endswith("｜含 台费 -1元、领红包池/台费 +4元"), said
        assert lines["老王"].endswith("｜含 台费 -1元"), said
        assert "bot: 台费 +3元（台费、抽水）" in said
        # each player's play (8, -4, -4) plus the parts is the 净 the caption and 余额 show
        balances = {line.name: line.amount for line in table.ledger.balances(table.chat).lines}
        for name, play in (("小李", 800), ("阿杰", -400), ("老王", -400)):
            net = _signed(lines[name].split()[2].split("｜")[0])
            parts = lines[name].split("｜含 ")[1].split("、")
            assert net == play + sum(_signed(part.split()[1]) for part in parts) == balances[name], lines[name]
        stats = table.say("!clock +10s", "c: 统计")
        assert "bot: 共 1局（荒庄 0）｜胡 1｜自摸 1｜杠钱 0｜罚款 4元｜台费 3元" in stats, stats
        assert "bot: 台费 +3元（台费、抽水）" in stats, stats
    finally:
        table.ledger.close()
