"""Amounts of money as members type them, read into 分 — the one reader behind every typed amount (罚款, 发红包池
shares, 付/收到, 付台费, 设置 底金/台费/抽水, 群管设置 fine_amount).

A number is 元 unless a unit follows it: 元/块/块钱/圆 (and the group's own currency label, so an amount reads back
as the bot shows it), 角/毛 (a tenth of 元), 分. Units may be combined largest first (`2元5角`, `1块2毛5`), and a
bare digit after a unit is one of the next unit down, as people say it (`2块5` = 2.5元, `3毛5` = 0.35元). A number
may be written in Chinese numerals as people say it (`五块`, `三块五`, `两毛五`, `一百五` = 150, `两万五` = 25000,
`一千零五`): read exactly as the same number in digits, bounds included. A leading ¥ means 元, and 整 after a unit
(`4元整`) changes nothing. What is meant as an amount but names no whole number of 分 (`0.5分`, `2.555`), could be
read two ways (`1,000`, `2块50`), names no number as people say one (`五五`), or carries a unit that is not the
group's money (`8欢乐豆`, `5杯`), is refused with the reason (`AmountError.why`, a text key), never guessed.
"""

from __future__ import annotations

import re
import unicodedata

from bot.texts import register
from bot.vocabulary import NUMERAL_DIGITS, NUMERAL_UNITS

#: 分 in one of each unit
UNITS = {"元": 100, "块": 100, "块钱": 100, "圆": 100, "角": 10, "毛": 10, "分": 1}
#: the unit a bare number after a unit is in (`2块5`: 角)
_NEXT_DOWN = {100: 10, 10: 1}
#: more digits than any amount in bounds has: the number is too large, whatever it is (kept from int's limits)
_MANY_DIGITS = 30
#: a word meant as an amount: a sign, a currency symbol or a digit first, or Chinese numerals with or without
#: units, as people say an amount (`十元`, `五`, `两块`, `一块五`, `三块五毛`, `两毛五`)
_AMOUNT_LIKE = re.compile(
    r"^[-+.\d¥$€£]|^[零〇一二两三四五六七八九十百千万]+(?:(?:块钱|[元块圆角毛分])[零〇一二两三四五六七八九十百千万\d]*)*整?$"
)
#: after a unit, "exactly" (`4元整`, `20块整`): the amount is the same
_EXACTLY = "整"
_NEGATIVE = re.compile(r"^[-−]\s*[\d.]")
_COMMA = re.compile(r"\d[,，]\d")
#: a number in Chinese numerals (`一百五`), read by `_chinese_number`
_NUMERALS = re.compile(r"[零〇一二两三四五六七八九十百千万]+")
_TEN_THOUSAND = "万"
#: a number with a word after it (`8欢乐豆`, `5杯`, `3rmb`): when that word is no unit of the group, the reason says so
_NUMBER_THEN_WORD = re.compile(r"\d+(?:\.\d+)?(?P<word>[^\W\d_]+)")

register(
    {
        "amount_why_negative": {"zh": "金额不能是负数", "en": "an amount cannot be negative"},
        "amount_why_digits": {"zh": "请用数字写，如 5、2.5", "en": "write it in digits, e.g. 5 or 2.5"},
        "amount_why_fraction": {
            "zh": "最小是 1分：元最多两位小数，角一位，分不带小数",
            "en": "1分 is the smallest amount: at most two decimals of 元, one of 角, none of 分",
        },
        "amount_why_order": {
            "zh": "单位从大到小、各写一次，如 2元5角、2块5、1毛5",
            "en": "units go largest first, each once, e.g. 2元5角, 2块5, 1毛5",
        },
        "amount_why_ambiguous": {
            "zh": "单位后面的数只能是一位：2块5 是 2.5元，这样写说不清是几角几分",
            "en": "a number after a unit is one digit of the next unit, as in 2块5 = 2.5元: this reads two ways",
        },
        "amount_why_comma": {
            "zh": "逗号说不清是千位还是小数点：写 1000 或 1.5",
            "en": "a comma could be a thousands or a decimal separator: write 1000 or 1.5",
        },
        "amount_why_positive": {"zh": "金额要大于 0", "en": "it must be more than 0"},
        "amount_why_form": {"zh": "可以写 5、2.5、5元、5角 或 50分", "en": "write e.g. 5, 2.5, 5元, 5角 or 50分"},
        "amount_why_unit": {
            "zh": "「{unit}」不是本群的金额单位（本群记 {currency}，也可以写 角、分）",
            "en": "“{unit}” is no unit of this group's money (it keeps {currency}; 角 and 分 work too)",
        },
    }
)


class AmountError(ValueError):
    """A word meant as an amount that names no whole number of 分, or names it two ways; `why` is a text key and
    `params` fill it."""

    def __init__(self, why: str, **params: str) -> None:
        super().__init__(why)
        self.why = why
        self.params = params


def looks_like_amount(word: str) -> bool:
    """Whether `word` is meant as an amount (a digit, sign or currency symbol first, or a Chinese numeral), even
    one that cannot be read: such a word is refused, never taken for something else (a fine's reason)."""
    return bool(_AMOUNT_LIKE.match(unicodedata.normalize("NFKC", word.strip())))


def unit_words(currency: str = "") -> dict[str, int]:
    """The units an amount may carry in a group whose currency label is `currency` (that label means 元, unless it
    is itself one of the units)."""
    label = currency.strip()
    if label and label not in UNITS and not _AMOUNT_LIKE.match(label):
        return {**UNITS, label: 100}
    return dict(UNITS)


def _piece_pattern(units: dict[str, int]) -> re.Pattern[str]:
    names = "|".join(re.escape(u) for u in sorted(units, key=len, reverse=True))
    return re.compile(rf"(\d+)(?:\.(\d+))?({names})?")


def parse_amount(word: str, currency: str = "") -> int | None:
    """The amount `word` names, in 分 (0 included; bounds are the caller's): `5` → 500, `2.5元` → 250, `50分` → 50,
    `5毛` → 50, `2块5` → 250, `¥20` → 2000. None when the word is not meant as an amount at all (see
    `looks_like_amount`); `AmountError` when it is but cannot be read as one."""
    text = unicodedata.normalize("NFKC", word.strip())
    if not text or not looks_like_amount(text):
        return None
    if _NEGATIVE.match(text):
        raise AmountError("amount_why_negative")
    if _COMMA.search(text):
        raise AmountError("amount_why_comma")
    text = _in_digits(text)
    units = unit_words(currency)
    if text.endswith(_EXACTLY) and text.removesuffix(_EXACTLY).endswith(tuple(units)):
        text = text.removesuffix(_EXACTLY)  # `4元整`: exactly 4元, as a receipt writes it
    symbol = text.startswith("¥")
    pieces = list(_piece_pattern(units).finditer(text, 1 if symbol else 0))
    if not pieces or "".join(p[0] for p in pieces) != text[1 if symbol else 0 :]:
        raise _form_or_unit(text[1 if symbol else 0 :], units, currency)
    if symbol and any(p[3] for p in pieces):  # `¥5元`: one way of saying 元, not two
        raise AmountError("amount_why_form")
    return _total(pieces, units)


def _in_digits(text: str) -> str:
    """`text` with each number in Chinese numerals written in digits (`三块五` → `3块5`), so that it reads exactly as
    the amount typed in digits would, bounds included; numerals run into digits (`五十5`) or that name no number
    as people say one (`五五`, `一二三`, `一百零`) are refused with how to write it."""
    typed, end = [], 0
    for run in _NUMERALS.finditer(text):
        around = text[run.start() - 1 : run.start()] + text[run.end() : run.end() + 1]
        if any(c.isdigit() or c == "." for c in around):
            raise AmountError("amount_why_digits")
        typed += [text[end : run.start()], str(_chinese_number(run[0]))]
        end = run.end()
    return "".join(typed) + text[end:]


def _chinese_number(run: str) -> int:
    """The number a run of Chinese numerals names, up to 万 sections (`五百万`; larger ones are out of every bound):
    after 万 a lone digit is of the thousands (`两万五` = 25000), else 零 leads what is below the thousands
    (`十万零五`) or the rest starts at the thousands (`一万二千`)."""
    high, ten_thousand, low = run.partition(_TEN_THOUSAND)
    if not ten_thousand:
        return _below_ten_thousand(run, leading=True)
    if not high or _TEN_THOUSAND in low:
        raise AmountError("amount_why_digits")
    value = _below_ten_thousand(high, leading=True) * 10_000
    if not low:
        return value
    if NUMERAL_DIGITS.get(low):
        return value + NUMERAL_DIGITS[low] * 1000
    if NUMERAL_DIGITS.get(low[0]) == 0:
        below = _below_ten_thousand(low[1:], leading=False)
        if below >= 1000 or not below:
            raise AmountError("amount_why_digits")
        return value + below
    below = _below_ten_thousand(low, leading=False)
    if below < 1000:
        raise AmountError("amount_why_digits")  # `一万五十`: 零 left out, or a slip
    return value + below


def _below_ten_thousand(run: str, *, leading: bool) -> int:
    """A number below 10000 in Chinese numerals: each digit before its unit, units largest first and next to each
    other unless 零 stands for those left out (`一千零五十`); 十 alone leads a number (`十五`, `leading`); a last
    digit after 百/千 is of the unit below (`一百五` = 150, `三千二` = 3200), after 零 or 十 of the ones."""
    if run in ("零", "〇"):
        return 0
    if not run or NUMERAL_DIGITS.get(run[0]) == 0:
        raise AmountError("amount_why_digits")
    total, above, digit, zero = 0, 10_000, None, False
    for index, char in enumerate(run):
        if char in NUMERAL_DIGITS:
            if digit is not None or (zero and not NUMERAL_DIGITS[char]):
                raise AmountError("amount_why_digits")  # `五五`, `一二三`, `一千零零五`
            if NUMERAL_DIGITS[char]:
                digit = NUMERAL_DIGITS[char]
            else:
                zero = True
            continue
        power = NUMERAL_UNITS[char]
        if digit is None and char == "十" and index == 0 and leading:
            digit = 1
        adjacent = above == 10_000 or power * 10 == above
        if digit is None or power >= above or adjacent == zero:
            raise AmountError("amount_why_digits")  # `百`, `十百`, `一千五十`, `一百零十`
        total, above, digit, zero = total + digit * power, power, None, False
    if digit is None:
        if zero:
            raise AmountError("amount_why_digits")  # `一百零`
        return total
    return total + digit * (1 if zero or above in (10, 10_000) else above // 10)


def _form_or_unit(text: str, units: dict[str, int], currency: str) -> AmountError:
    """Why a word meant as an amount cannot be read: a number followed by a word that is no unit of the group
    (`8欢乐豆`, not `5元钱`, which starts with one) says which word; anything else, how an amount is written."""
    said = _NUMBER_THEN_WORD.fullmatch(text)
    if said is None or said["word"].startswith(tuple(units)):
        return AmountError("amount_why_form")
    return AmountError("amount_why_unit", unit=said["word"], currency=currency.strip() or "元")


def _total(pieces: list[re.Match[str]], units: dict[str, int]) -> int:
    total, above = 0, 0  # `above`: the unit of the piece before (0 for none yet)
    for index, piece in enumerate(pieces):
        whole, decimals, unit_word = piece[1], (piece[2] or "").rstrip("0"), piece[3]
        if unit_word is not None:
            unit = units[unit_word]
        elif not above:
            unit = 100
        elif above in _NEXT_DOWN and len(whole) == 1 and piece[2] is None:
            unit = _NEXT_DOWN[above]
        else:
            raise AmountError("amount_why_ambiguous" if above in _NEXT_DOWN else "amount_why_order")
        if above and (unit >= above or int(whole) * unit >= above):  # `5分2元`, `2元3元`, `2元15角`
            raise AmountError("amount_why_order")
        if piece[2] is not None and index != len(pieces) - 1:  # `1.5元5角`
            raise AmountError("amount_why_order")
        if len(whole) > _MANY_DIGITS:
            return 10**_MANY_DIGITS
        scale = 10 ** len(decimals)
        if int(decimals or "0") * unit % scale:
            raise AmountError("amount_why_fraction")
        total += int(whole) * unit + int(decimals or "0") * unit // scale
        above = unit
    return total
