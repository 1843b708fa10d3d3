"""The pure detectors: links inside Chinese text, ad keywords, the name card, and flood counting."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.moderation.detectors import (
    BARE_DOMAIN_TLDS,
    FloodDetector,
    FloodRules,
    content_findings,
    find_ad_keywords,
    find_links,
    namecard_ok,
    same_text_key,
)
from ledger.moderation import DEFAULT_AD_KEYWORDS, DEFAULT_NAMECARD_PATTERN

chinese_text = st.text(
    alphabet=st.one_of(st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF), st.sampled_from("，。！？：、 ")),
    max_size=30,
)
label = st.from_regex(r"[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?", fullmatch=True)
path = st.from_regex(r"(/[A-Za-z0-9_\-]{1,8}){0,3}", fullmatch=True)
links = st.one_of(
    st.builds(
        lambda s, d, t, p: f"{s}://{d}.{t}{p}",
        st.sampled_from(["http", "https"]),
        label,
        st.sampled_from(sorted(BARE_DOMAIN_TLDS)),
        path,
    ),
    st.builds(lambda d, p: f"www.{d}.com{p}", label, path),
    st.builds(lambda d, t, p: f"{d}.{t}{p}", label, st.sampled_from(sorted(BARE_DOMAIN_TLDS)), path),
)


@given(chinese_text, links, chinese_text)
def test_a_link_anywhere_in_chinese_text_is_found_whole(before: str, link: str, after: str) -> None:
    found = find_links(before + link + after)
    assert [x.text for x in found] == [link]


invites = st.one_of(
    st.builds(lambda c: f"t.me/+{c}", st.from_regex(r"[A-Za-z0-9_]{4,12}", fullmatch=True)),
    st.builds(lambda c: f"https://t.me/joinchat/{c}", st.from_regex(r"[A-Za-z0-9_]{4,12}", fullmatch=True)),
    st.builds(lambda c: f"tg://join?invite={c}", st.from_regex(r"[A-Za-z0-9_]{4,12}", fullmatch=True)),
)


@given(chinese_text, invites, chinese_text)
def test_an_invite_anywhere_in_chinese_text_is_found_as_an_invite(before: str, invite: str, after: str) -> None:
    found = find_links(before + invite + after)
    assert [(x.text, x.invite) for x in found] == [(invite, True)]


@given(chinese_text, st.sampled_from(DEFAULT_AD_KEYWORDS), st.sampled_from(["", " ", "*", "·", "\u200b"]), chinese_text)
def test_an_ad_keyword_is_found_inside_chinese_text_even_spaced_out(
    before: str, keyword: str, separator: str, after: str
) -> None:
    assert keyword in find_ad_keywords(before + separator.join(keyword) + after, DEFAULT_AD_KEYWORDS)


@given(chinese_text)
def test_plain_chinese_text_has_no_link(text: str) -> None:
    assert find_links(text) == []


def test_link_in_the_middle_of_chinese_text() -> None:
    assert [x.text for x in find_links("今晚打牌吗看看abc.com吧好玩")] == ["abc.com"]
    assert [x.text for x in find_links("详情请访问https://x.cn/a?b=1哦")] == ["https://x.cn/a?b=1"]


def test_full_width_link_is_found() -> None:
    assert [x.text for x in find_links("ｗｗｗ．ａｂｃ．ｃｏｍ")] == ["www.abc.com"]


def test_numbers_versions_tiles_and_emails_are_not_links() -> None:
    for text in ["底金1.5元", "v1.2版本", "123p46p789s22s 胡了", "邮件a@b.com", "E.G.例子", "好.我去了.嗯"]:
        assert find_links(text) == [], text


def test_invite_links_are_told_apart() -> None:
    found = find_links("进群t.me/+AbCdEf快来，还有https://example.com和tg://join?invite=xyz")
    assert [(x.text, x.invite) for x in found] == [
        ("t.me/+AbCdEf", True),
        ("https://example.com", False),
        ("tg://join?invite=xyz", True),
    ]
    assert find_links("https://t.me/joinchat/AAAA")[0].invite


def test_ad_keywords_survive_spacing_width_and_case() -> None:
    assert find_ad_keywords("有需要的加 微 信哦", DEFAULT_AD_KEYWORDS) == ["加微信"]
    assert find_ad_keywords("加V：abc123", DEFAULT_AD_KEYWORDS) == ["加v"]
    assert find_ad_keywords("招兼職刷單日賺三百", DEFAULT_AD_KEYWORDS) == ["兼職", "刷單", "日賺"]
    assert find_ad_keywords("今晚三缺一，来不来", DEFAULT_AD_KEYWORDS) == []


def test_content_findings_lists_invites_then_links_then_keywords() -> None:
    text = "加微信看t.me/+abc和abc.com"
    assert [(f.rule, f.detail) for f in content_findings(text, ad_keywords=["加微信"])] == [
        ("invite", "t.me/+abc"),
        ("link", "abc.com"),
        ("ad_keyword", "加微信"),
    ]
    assert content_findings(text, links=False, invites=False) == []


def test_namecard_pattern() -> None:
    assert namecard_ok("刘XX-成员", DEFAULT_NAMECARD_PATTERN)
    assert namecard_ok("老王 - 群主", DEFAULT_NAMECARD_PATTERN)
    assert namecard_ok("小李－成員", DEFAULT_NAMECARD_PATTERN)
    assert not namecard_ok("小明", DEFAULT_NAMECARD_PATTERN)
    assert not namecard_ok("-成员", DEFAULT_NAMECARD_PATTERN)
    assert namecard_ok("Alice", r"[A-Z]\w+")


T0 = datetime(2026, 1, 1, 20, 0, tzinfo=UTC)
RULES = FloodRules(max_messages=5, window_seconds=10, repeat_count=3)


def _feed(detector: FloodDetector, seconds: list[float], texts: list[str] | None = None) -> list[bool]:
    texts = texts or [f"m{i}" for i in range(len(seconds))]
    return [
        detector.observe(1, 7, text, RULES, T0 + timedelta(seconds=s)).offence
        for s, text in zip(seconds, texts, strict=True)
    ]


def test_five_messages_in_ten_seconds_is_not_flooding() -> None:
    assert _feed(FloodDetector(), [0, 1, 2, 3, 4]) == [False] * 5


def test_six_messages_spanning_exactly_ten_seconds_is_not_flooding() -> None:
    # the window is (t - 10 s, t]: the first message has just left it when the sixth arrives
    assert _feed(FloodDetector(), [0, 2, 4, 6, 8, 10]) == [False] * 6


def test_sixth_message_within_ten_seconds_is_one_offence_for_the_whole_burst() -> None:
    verdicts = _feed(FloodDetector(), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9.5])
    assert verdicts == [False] * 5 + [True] + [False] * 5


def test_burst_ends_when_the_member_slows_down_and_a_new_burst_is_a_new_offence() -> None:
    detector = FloodDetector()
    first = _feed(detector, [0, 1, 2, 3, 4, 5])
    calm = _feed(detector, [30])  # alone in its window: the burst is over
    second = _feed(detector, [31, 32, 33, 34, 35])
    assert first[-1] and calm == [False] and second == [False] * 4 + [True]


def test_a_punished_bursts_messages_never_count_toward_the_next_offence() -> None:
    """Play-test: 哈哈 three times (warned), then three more lines within 5 s removed the member as a second
    flood of 6 messages in 10 s — counting the punished three again, before the warning could be read."""
    detector = FloodDetector()
    warned = _feed(detector, [0, 1, 2], ["哈哈", "哈哈", "哈哈"])
    after = _feed(detector, [3, 4, 5], ["来来来", "我也要打", "带我一个"])
    assert warned == [False, False, True] and after == [False] * 3
    # six fresh messages within ten seconds are a second offence
    assert _feed(detector, [6, 7, 8]) == [False, False, True]


def test_same_text_three_times_in_a_row() -> None:
    detector = FloodDetector()
    assert _feed(detector, [0, 60, 120], ["在吗", "在吗", "在吗"]) == [False, False, True]
    assert _feed(detector, [180], ["在吗"]) == [False]  # still the same repetition
    assert _feed(detector, [240, 300, 360, 420], ["好", "在吗", "在吗", "在吗"]) == [False, False, False, True]


def test_same_text_twice_then_something_else_is_fine() -> None:
    assert _feed(FloodDetector(), [0, 60, 120], ["在吗", "在 吗", "不在"]) == [False, False, False]
    assert same_text_key(" 在吗 ") == same_text_key("在吗")


def test_members_and_chats_are_counted_apart() -> None:
    detector = FloodDetector()
    offences = [detector.observe(1, user, "x", FloodRules(repeat_count=0), T0).offence for user in range(50)]
    assert not any(offences)


def test_injected_clock_is_used_when_no_time_is_given() -> None:
    now = [T0]
    detector = FloodDetector(clock=lambda: now[0])
    verdicts = []
    for _ in range(6):
        verdicts.append(detector.observe(1, 1, "x", FloodRules(repeat_count=0)).offence)
        now[0] += timedelta(seconds=1)
    assert verdicts == [False] * 5 + [True]


messages = st.lists(st.tuples(st.integers(0, 2), st.integers(0, 4000), st.sampled_from(["a", "b", "c"])), max_size=80)


@settings(max_examples=300)
@given(messages, st.integers(1, 6), st.integers(1, 15), st.integers(0, 4))
def test_flood_counting_matches_a_brute_force_count(
    msgs: list[tuple[int, int, str]], max_messages: int, window: int, repeat: int
) -> None:
    """Window counts and offences equal a brute-force recount over each member's whole history: a burst goes on
    while its window is over the limit, and a new one counts only the messages after the last burst's."""
    rules = FloodRules(max_messages=max_messages, window_seconds=window, repeat_count=repeat)
    detector = FloodDetector()
    history: dict[int, list[tuple[int, str]]] = {}
    flooding_before: dict[int, bool] = {}
    burst_end: dict[int, int] = {}
    clock_ms = 0
    for user, gap_ms, text in msgs:
        clock_ms += gap_ms
        verdict = detector.observe(1, user, text, rules, T0 + timedelta(milliseconds=clock_ms))
        mine = history.setdefault(user, [])
        mine.append((clock_ms, text))
        since = -1 if flooding_before.get(user, False) else burst_end.get(user, -1)
        in_window = sum(1 for t, _ in mine if clock_ms - window * 1000 < t <= clock_ms and t > since)
        run = 0
        for _, earlier in reversed(mine):
            if earlier != text:
                break
            run += 1
        flooding = in_window > max_messages or (repeat > 0 and run >= repeat)
        assert verdict.in_window == min(in_window, max_messages + 1)  # counted up to one over the limit
        assert verdict.run == run
        assert verdict.offence == (flooding and not flooding_before.get(user, False))
        flooding_before[user] = flooding
        if flooding:
            burst_end[user] = clock_ms


def test_the_same_command_is_a_repeat_only_within_the_window_of_the_previous_message() -> None:
    """`余额` after each hand is using the bot; three in ten seconds is a repeat, as any text is."""
    detector = FloodDetector()
    slow = [detector.observe(1, 7, "余额", RULES, T0 + timedelta(seconds=s), command=True) for s in (0, 30, 60)]
    assert [v.run for v in slow] == [1, 1, 1] and not any(v.offence for v in slow)
    quick = [detector.observe(1, 7, "余额", RULES, T0 + timedelta(seconds=s), command=True) for s in (90, 95, 99)]
    assert [v.run for v in quick] == [1, 2, 3] and [v.offence for v in quick] == [False, False, True]


@settings(max_examples=300)
@given(
    st.lists(st.tuples(st.integers(0, 15_000), st.sampled_from(["a", "b"]), st.booleans()), max_size=60),
    st.integers(1, 15),
)
def test_a_commands_run_matches_a_brute_force_count(msgs: list[tuple[int, str, bool]], window: int) -> None:
    """A command continues a run of its text only when the member's previous message came less than the window
    before it; a chat text continues it however late (within the ten minutes a track is kept)."""
    rules = FloodRules(max_messages=1000, window_seconds=window, repeat_count=3)
    detector = FloodDetector()
    previous: tuple[int, str] | None = None
    run, clock_ms = 0, 0
    for gap_ms, text, command in msgs:
        clock_ms += gap_ms
        verdict = detector.observe(1, 7, text, rules, T0 + timedelta(milliseconds=clock_ms), command=command)
        if previous is None or previous[1] != text or (command and clock_ms - previous[0] >= window * 1000):
            run = 1
        else:
            run += 1
        assert verdict.run == run
        previous = (clock_ms, text)
