"""Times as Chinese speakers say them (下周五, 上个月, 明年年底, 三天前, 5月15号之前, 国庆节),
found in a text and resolved against the moment it was said, to a day and how precise it is, and
written out again in Chinese so that a memory read later means the same (2026年3月27日, 2026年2月,
2027年底).

The past or the future is chosen by the sentence, as a person would: 十月, said in March of a plan,
is the coming October; of a trip taken, the last one. A week starts on Monday (这周三 said on a
Sunday is the Wednesday before it). What is not recognised resolves to nothing.
"""

from __future__ import annotations

import re
from calendar import monthrange
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from domain.extraction.times import When

_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8,
           "九": 9}
NUM = r"(?:\d{1,4}|[零〇一二两三四五六七八九十]{1,3})"
_WEEKDAYS = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6, "末": 5}
_PART = r"(?P<part>初|中|底|末)"
# Festivals of a fixed day; the lunar ones by year, where they are known.
_FIXED_HOLIDAYS = {"元旦": (1, 1), "情人节": (2, 14), "五一": (5, 1), "劳动节": (5, 1), "国庆": (10, 1),
                   "国庆节": (10, 1), "圣诞": (12, 25), "圣诞节": (12, 25), "平安夜": (12, 24)}
_LUNAR_HOLIDAYS = {
    "春节": {2024: (2, 10), 2025: (1, 29), 2026: (2, 17), 2027: (2, 6), 2028: (1, 26), 2029: (2, 13),
             2030: (2, 3)},
    "中秋": {2024: (9, 17), 2025: (10, 6), 2026: (9, 25), 2027: (9, 15), 2028: (10, 3), 2029: (9, 22),
             2030: (9, 12)},
    "端午": {2024: (6, 10), 2025: (5, 31), 2026: (6, 19), 2027: (6, 9), 2028: (5, 28), 2029: (6, 16),
             2030: (6, 5)},
}
_HOLIDAY_NAMES = {"过年": "春节", "中秋节": "中秋", "端午节": "端午"}
_HOLIDAY = "|".join(sorted([*_FIXED_HOLIDAYS, *_LUNAR_HOLIDAYS, *_HOLIDAY_NAMES], key=len, reverse=True))
_YEARS = {"前年": -2, "去年": -1, "今年": 0, "明年": 1, "后年": 2}
_RELATIVE_YEAR = r"(?P<ry>前年|去年|今年|明年|后年)"
_MONTHS = {"上上": -2, "上": -1, "这": 0, "本": 0, "下": 1, "下下": 2}
_DAYS = {"大前天": -3, "前天": -2, "昨天": -1, "昨晚": -1, "昨日": -1, "今天": 0, "今晚": 0, "今早": 0,
         "今日": 0, "明天": 1, "明早": 1, "明晚": 1, "明日": 1, "后天": 2, "大后天": 3}
_UNITS = {"天": 1, "日": 1, "周": 7, "星期": 7, "礼拜": 7, "月": 30, "年": 365}
_SEASONS = {"春天": 3, "夏天": 6, "秋天": 9, "冬天": 12}

_PATTERNS = re.compile("|".join(f"(?P<{name}>{body})" for name, body in (
    ("ymd", rf"(?P<y1>\d{{4}})年(?P<m1>{NUM})月(?P<d1>{NUM})[日号]"),
    ("ym", rf"(?P<y2>\d{{4}})年(?P<m2>{NUM})月份?(?P<p2>初|中|底|末)?"),
    ("y", r"(?P<y3>(?:19|20)\d\d)年(?P<p3>初|中|底|末)?"),
    ("rym", rf"(?P<ry4>前年|去年|今年|明年|后年)(?P<m4>{NUM})月份?"
            rf"(?:(?P<d4>{NUM})[日号]|(?P<p4>初|中|底|末))?"),
    ("ryh", rf"(?P<ry5>前年|去年|今年|明年|后年)的?(?P<h5>{_HOLIDAY})"),
    ("ry", r"(?P<ry6>前年|去年|今年|明年|后年)"
           r"(?:(?P<p6>年初|年中|年底|年末|初|底)|(?P<s6>春天|夏天|秋天|冬天))?"),
    ("rm", rf"(?P<rm7>上上|上|下下|下|这|本)个?月(?:(?P<d7>{NUM})[日号]|(?P<p7>初|中|底|末))?"),
    ("md", rf"(?P<m8>{NUM})月(?P<d8>{NUM})[日号]"),
    # Not a month: 一个月 (a month long), 每月/一月一次 (how often).
    ("m", rf"(?<![\d个每])(?P<m9>{NUM})月份?(?P<p9>初|中|底|末)?(?!天|[一两]?次|一回)"),
    ("rwd", r"(?P<rw10>上上|上|下下|下|这|本)个?(?:周|星期|礼拜)(?P<wd10>[一二三四五六日天1-7]|末)"),
    ("rw", r"(?P<rw11>上上|上|下下|下|这|本)个?(?:周|星期|礼拜)"),
    ("wd", r"(?:周|星期|礼拜)(?P<wd12>[一二三四五六日天1-7]|末)"),
    ("ago", rf"(?P<n13>{NUM}|半)个?(?P<u13>天|周|星期|礼拜|月|年)半?(?P<dir13>以前|之前|前|以后|之后|后)"),
    ("day", "|".join(sorted(_DAYS, key=len, reverse=True))),
    ("h", rf"(?P<h14>{_HOLIDAY})"),
    ("part", r"(?P<p15>月初|月中|月底|月末|年初|年中|年底|年末)"),
    ("nth", rf"(?<![\d月])(?P<d16>{NUM})[号日](?![线楼门房院床位码子])"),
)))
# A deadline: the time is when it must be done by (5月15号之前).
_DEADLINE = re.compile(r"^(?:之前|以前|前(?!天|年|面))")
# The hours of a day, which a memory of a day leaves out (下午三点, 晚上, 10点半). Counted, a part of
# the day is how long something took, not when: "聊了一晚上", "吵了一个晚上", "整个下午" stay.
_DAYTIME = r"(?:凌晨|早上|上午|中午|下午|傍晚|晚上|夜里)"
CLOCK = re.compile(rf"(?:{_DAYTIME}{NUM}|\d{{1,2}})点(?:半|{NUM}分?|钟)?|(?<![一两几半整个]){_DAYTIME}")


@dataclass(frozen=True)
class Dated:
    """A time a text names: where it is, what it resolves to, and whether it is a deadline."""

    start: int
    end: int
    phrase: str
    when: When
    deadline: bool = False


def number(text: str) -> int | None:
    """A number as written: 24, 二十四, 十二, 两, 十."""
    if text.isdigit():
        return int(text)
    if not text or any(c not in _DIGITS and c != "十" for c in text):
        return None
    if "十" in text:
        tens, _, ones = text.partition("十")
        return (_DIGITS.get(tens, 1) if tens else 1) * 10 + (_DIGITS[ones] if ones else 0)
    value = 0
    for c in text:
        value = value * 10 + _DIGITS[c]
    return value


def day_text(d: date) -> str:
    return f"{d.year}年{d.month}月{d.day}日"


def _on(d: date) -> When:
    return When(d, "day", day_text(d))


def _month(year: int, month: int, part: str | None = None) -> When:
    if part in ("底", "末"):
        last = date(year, month, monthrange(year, month)[1])
        return When(last, "end", f"{year}年{month}月底")
    if part in ("初", "中"):
        return When(date(year, month, 1 if part == "初" else 11), "month", f"{year}年{month}月{part}")
    return When(date(year, month, 1), "month", f"{year}年{month}月")


def _year(year: int, part: str | None = None) -> When:
    part = (part or "").removeprefix("年")
    if part in ("底", "末"):
        return When(date(year, 12, 31), "end", f"{year}年底")
    if part == "初":
        return When(date(year, 1, 1), "year", f"{year}年初")
    if part == "中":
        return When(date(year, 6, 1), "year", f"{year}年年中")
    return When(date(year, 1, 1), "year", f"{year}年")


def _week_of(d: date) -> When:
    monday = d - timedelta(days=d.weekday())
    return When(monday, "week", f"{day_text(monday)}那一周")


def _shift_month(year: int, month: int, by: int) -> tuple[int, int]:
    index = year * 12 + month - 1 + by
    return index // 12, index % 12 + 1


def _safe(year: int, month: int, day: int) -> date | None:
    if not (1 <= month <= 12 and 1 <= day <= monthrange(year, month)[1]):
        return None
    return date(year, month, day)


def _nearest(month: int, day: int, at: date, future: bool | None) -> date | None:
    """The day of that month and day nearest to `at`: ahead (a plan), behind (the past), or the
    closer of the two."""
    this = _safe(at.year, month, day)
    ahead = this if this is not None and this >= at else _safe(at.year + 1, month, day)
    behind = this if this is not None and this <= at else _safe(at.year - 1, month, day)
    if future is True or behind is None:
        return ahead
    if future is False or ahead is None:
        return behind
    return behind if (at - behind) <= (ahead - at) else ahead


def _holiday(name: str, year: int) -> date | None:
    name = _HOLIDAY_NAMES.get(name, name)
    if name in _FIXED_HOLIDAYS:
        return date(year, *_FIXED_HOLIDAYS[name])
    found = _LUNAR_HOLIDAYS.get(name, {}).get(year)
    return date(year, *found) if found else None


def _holiday_when(name: str, year: int) -> When | None:
    day = _holiday(name, year)
    return When(day, "day", f"{year}年{_HOLIDAY_NAMES.get(name, name)}") if day else None


def resolve(m: re.Match[str], at: date, future: bool | None) -> When | None:  # noqa: C901 - one case each
    """The time a match of `_PATTERNS` names, said on `at`."""
    kind = m.lastgroup
    g = m.groupdict()
    if kind == "ymd":
        month, day = number(g["m1"]), number(g["d1"])
        found = _safe(int(g["y1"]), month or 0, day or 0)
        return _on(found) if found else None
    if kind == "ym":
        month = number(g["m2"])
        return _month(int(g["y2"]), month, g["p2"]) if month and 1 <= month <= 12 else None
    if kind == "y":
        return _year(int(g["y3"]), g["p3"])
    if kind == "rym":
        year, month = at.year + _YEARS[g["ry4"]], number(g["m4"])
        if not month or not 1 <= month <= 12:
            return None
        if g["d4"]:
            found = _safe(year, month, number(g["d4"]) or 0)
            return _on(found) if found else None
        return _month(year, month, g["p4"])
    if kind == "ryh":
        return _holiday_when(g["h5"], at.year + _YEARS[g["ry5"]])
    if kind == "ry":
        year = at.year + _YEARS[g["ry6"]]
        if g["s6"]:
            first = _SEASONS[g["s6"]]
            return When(date(year, first, 1), "season", f"{year}年{g['s6']}")
        return _year(year, g["p6"])
    if kind == "rm":
        year, month = _shift_month(at.year, at.month, _MONTHS[g["rm7"]])
        if g["d7"]:
            found = _safe(year, month, number(g["d7"]) or 0)
            return _on(found) if found else None
        return _month(year, month, g["p7"])
    if kind == "md":
        month, day = number(g["m8"]), number(g["d8"])
        found = _nearest(month or 0, day or 0, at, future) if month and day else None
        return _on(found) if found else None
    if kind == "m":
        month = number(g["m9"])
        if not month or not 1 <= month <= 12:
            return None
        if future is None:
            year = at.year
        else:
            coming, last = future and month < at.month, not future and month > at.month
            year = at.year + (1 if coming else -1 if last else 0)
        return _month(year, month, g["p9"])
    if kind in ("rwd", "rw"):
        step = _MONTHS[g["rw10"] or g["rw11"]]
        monday = at - timedelta(days=at.weekday()) + timedelta(days=7 * step)
        if kind == "rw":
            return _week_of(monday)
        target = _WEEKDAYS.get(g["wd10"], int(g["wd10"]) - 1 if g["wd10"].isdigit() else 0)
        found = monday + timedelta(days=target)
        if g["wd10"] == "末":
            return When(found, "weekend", f"{day_text(found)}那个周末")
        return _on(found)
    if kind == "wd":
        target = _WEEKDAYS.get(g["wd12"], int(g["wd12"]) - 1 if g["wd12"].isdigit() else 0)
        ahead, behind = (target - at.weekday()) % 7, (at.weekday() - target) % 7
        found = at + timedelta(days=ahead) if future is not False else at - timedelta(days=behind)
        if g["wd12"] == "末":
            return When(found, "weekend", f"{day_text(found)}那个周末")
        return _on(found)
    if kind == "ago":
        n = 0.5 if g["n13"] == "半" else number(g["n13"])
        if n is None:
            return None
        sign = -1 if g["dir13"].endswith("前") else 1
        unit = g["u13"]
        if unit == "年" and float(n).is_integer():
            return _year(at.year + sign * int(n))
        if unit == "月" and float(n).is_integer():
            return _month(*_shift_month(at.year, at.month, sign * int(n)))
        return _on(at + timedelta(days=sign * round(n * _UNITS[unit])))
    if kind == "day":
        return _on(at + timedelta(days=_DAYS[m.group()]))
    if kind == "h":
        name = g["h14"]
        this = _holiday(name, at.year)
        if this is None:
            return None
        year = at.year + (1 if future and this < at else -1 if future is False and this > at else 0)
        return _holiday_when(name, year)
    if kind == "part":
        part = g["p15"]
        if part.startswith("月"):
            return _month(at.year, at.month, part[1])
        return _year(at.year, part[1])
    if kind == "nth":
        day = number(g["d16"])
        if not day or not 1 <= day <= 31:
            return None
        year, month = at.year, at.month
        if future is not False and day < at.day:
            year, month = _shift_month(year, month, 1)
        elif future is False and day > at.day:
            year, month = _shift_month(year, month, -1)
        found = _safe(year, month, day)
        return _on(found) if found else None
    return None


def find(text: str, at: datetime, future: bool | None = None) -> list[Dated]:
    """The times `text` names, in order, resolved against `at` (`future`: whether the sentence
    looks ahead; None: the nearest either way)."""
    day = at.astimezone(UTC).date()
    found = []
    for m in _PATTERNS.finditer(text):
        when = resolve(m, day, future)
        if when is not None:
            found.append(Dated(m.start(), m.end(), m.group(), when, bool(_DEADLINE.match(text[m.end():]))))
    return found


def written(text: str, dated: list[Dated], keep_clock: bool = False) -> str:
    """`text` with each time it names written out ("上个月" -> "2026年2月"), a deadline's 之前 kept,
    and the hours of the day left out unless asked."""
    out, last = [], 0
    for d in dated:
        out.append(text[last:d.start])
        out.append(d.when.text)
        last = d.end
    out.append(text[last:])
    joined = "".join(out)
    return joined if keep_clock else CLOCK.sub("", joined)
