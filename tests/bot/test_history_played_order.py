"""历史 after an edit of one's own earlier hand: the re-recorded 第1局 is listed first, where it was played, not
last (hands used to be listed by id, and an edit records its hand anew); the edit asks nobody and its reply names
each player's change."""

from __future__ import annotations

from pathlib import Path

from tests.bot.test_transcripts import replay, said_after

NIGHT = [
    "!join a 阿杰",
    "!join b 大鹏",
    "!join c 小李",
    "a: 开桌 @a @b @c 庄 @a",
    "a: 胡 清一色 自摸",
    "!clock +3m",
    "b: 胡 七对 点 @c",
    "!clock +3m",
    "c: 胡 碰碰胡 自摸",
    "!clock +3m",
    "a: !edit 5 胡 卡五星 自摸",
    "!clock +1m",
    "b: 历史",
]


def test_history_lists_an_edited_earlier_hand_in_its_place(tmp_path: Path) -> None:
    out = replay(NIGHT, f"sqlite:///{tmp_path / 'x.db'}")
    edited = said_after(out, "a: !edit 5 胡 卡五星 自摸")
    assert edited[0] == "第1局 按改后的消息重记（原记录作废）："
    assert "各家比原来：" in edited
    assert not [line for line in edited if "确认" in line]  # nobody is asked
    history = said_after(out, "b: 历史")
    assert [line.split(" ")[0] for line in history[1:]] == ["第1局", "第2局", "第3局"]
    assert history[1].startswith("第1局 阿杰 自摸：卡五星")
