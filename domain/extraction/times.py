"""Times as people say them ("last month", "next Friday", "in October", "two weeks ago"), resolved
against the moment they were said, to a day and how precise it is, and written out again so that
a memory read later means the same ("in February 2026", "on 27 March 2026").

The past or the future is chosen by the sentence (a past verb, a plan), as a person would: "in
October", said in March of a plan, is the coming October; of a trip taken, the last one. What is
not recognised resolves to nothing: a memory then keeps the time it was said.
"""

from __future__ import annotations

import re
from calendar import monthrange
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

import dateparser
from dateparser.search import search_dates

MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
_SHORT_MONTHS = {m[:3]: i for i, m in enumerate(MONTHS, 1)} | {"sept": 9}
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_SEASONS = {"spring": (3, 5), "summer": (6, 8), "autumn": (9, 11), "fall": (9, 11), "winter": (12, 2)}
_NUMBERS = {
    w: i
    for i, w in enumerate(
        [
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
        ]
    )
} | {"a": 1, "an": 1, "a couple of": 2, "a few": 3, "couple of": 2, "few": 3}
_UNITS = {"day": 1, "week": 7, "fortnight": 14, "month": 30, "year": 365}
_PARTS = {"early": 1, "start": 1, "beginning": 1, "mid": 11, "middle": 11, "late": 21}
_HOLIDAYS = {
    "christmas": (12, 25),
    "christmas eve": (12, 24),
    "new year": (1, 1),
    "new year's": (1, 1),
    "new year's day": (1, 1),
    "new years day": (1, 1),
    "new year's eve": (12, 31),
    "new years eve": (12, 31),
    "new years": (1, 1),
    "halloween": (10, 31),
    "valentine's day": (2, 14),
}


@dataclass(frozen=True)
class When:
    """A resolved time: its first day, how precise it is, and how it is written."""

    start: date
    grain: str  # day, week, weekend, month, season, year, end, span
    text: str
    end: date | None = None  # a span's last day ("from 14 to 21 July")

    def moment(self) -> datetime:
        return datetime(self.start.year, self.start.month, self.start.day, tzinfo=UTC)

    def last_day(self) -> date:
        """The period's last day (a season's is its third month's)."""
        if self.end is not None:
            return self.end
        months = {"month": 1, "season": 3, "year": 12}.get(self.grain)
        if months is not None:
            year, month = divmod(self.start.month - 1 + months, 12)
            return date(self.start.year + year, month + 1, 1) - timedelta(days=1)
        return self.start + timedelta(days={"week": 6, "weekend": 1}.get(self.grain, 0))


def _day(d: date) -> str:
    return f"{d.day} {MONTHS[d.month - 1].capitalize()} {d.year}"


def _on(d: date) -> When:
    return When(d, "day", f"on {_day(d)}")


def _month(year: int, month: int, prefix: str = "in") -> When:
    return When(date(year, month, 1), "month", f"{prefix} {MONTHS[month - 1].capitalize()} {year}")


def _year(year: int, prefix: str = "in") -> When:
    return When(date(year, 1, 1), "year", f"{prefix} {year}")


def _week_of(d: date) -> When:
    monday = d - timedelta(days=d.weekday())
    return When(monday, "week", f"in the week of {_day(monday)}")


def _weekend_of(d: date) -> When:
    saturday = (
        d + timedelta(days=(5 - d.weekday()) % 7) if d.weekday() < 5 else d - timedelta(days=d.weekday() - 5)
    )
    return When(saturday, "weekend", f"on the weekend of {_day(saturday)}")


def _shift_month(year: int, month: int, by: int) -> tuple[int, int]:
    index = year * 12 + month - 1 + by
    return index // 12, index % 12 + 1


def _number(text: str) -> int | None:
    text = text.strip()
    if text.isdigit():
        return int(text)
    return _NUMBERS.get(text)


def _nearest(month: int, day: int, at: date, future: bool) -> date:
    this = date(at.year, month, min(day, monthrange(at.year, month)[1]))
    if future and this < at:
        return date(at.year + 1, month, min(day, monthrange(at.year + 1, month)[1]))
    if not future and this > at:
        return date(at.year - 1, month, min(day, monthrange(at.year - 1, month)[1]))
    return this


_PREP = r"(?:(?P<prep>in|on|since|by|at|from|until|till|before|after|during|over)\s+)?"
_NUM = r"(?P<n>\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a couple of|a few|a|an)"
_MONTHS = "|".join(MONTHS) + "|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec"


def _m(name: str) -> str:
    return rf"(?P<{name}>{_MONTHS})\.?"


def _d(name: str) -> str:
    return rf"(?P<{name}>\d{{1,2}})(?:st|nd|rd|th)?"


_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(rf"^{_PREP}{body}$"))
    for name, body in (
        ("today", r"(?:today|tonight|this (?:morning|afternoon|evening))"),
        ("yesterday", r"(?:yesterday(?: (?:morning|afternoon|evening))?|last night)"),
        ("after_tomorrow", r"(?:the )?day after tomorrow"),
        ("tomorrow", r"tomorrow(?: (?:morning|afternoon|evening|night))?"),
        ("ago", rf"{_NUM} (?P<unit>day|week|fortnight|month|year)s? ago"),
        ("weekday_ago", rf"{_NUM} (?P<weekday>{'|'.join(WEEKDAYS)})s ago"),
        ("within", rf"in {_NUM} (?P<unit>day|week|fortnight|month|year)s?(?: time)?"),
        ("nth", r"the (?P<day>\d{1,2})(?:st|nd|rd|th)"),
        (
            "weekday_nth",
            r"(?P<weekday>" + "|".join(WEEKDAYS) + r"|mon|tues|tue|wed|thurs|thur|thu|fri|sat|sun),? "
            rf"(?:the )?(?P<day>\d{{1,2}})(?:st|nd|rd|th)(?: of {_m('month')})?",
        ),
        ("the_weekend", r"the weekend"),
        ("the_season", r"the (?P<unit>spring|summer|autumn|fall|winter)"),
        (
            "relative",
            r"(?P<which>last|next|this|coming|the coming|the next|the last|past|the past) "
            r"(?P<unit>week|weekend|month|year|spring|summer|autumn|fall|winter)",
        ),
        (
            "weekday",
            r"(?:(?P<which>last|next|this coming|this|coming|the coming) )?(?P<weekday>"
            + "|".join(WEEKDAYS)
            + r"|mon|tues|tue|"
            r"wed|thurs|thur|thu|fri|sat|sun)\.?"
            r"(?: (?:morning|afternoon|evening|night))?",
        ),
        (
            "season",
            r"(?:the )?(?P<season>spring|summer|autumn|fall|winter)(?: of)?(?: (?P<year>(?:19|20)\d\d))?",
        ),
        (
            "days_span",
            rf"(?:the )?{_d('day')} (?:to|till|until|-|–|through) (?:the )?{_d('day2')} (?:of )?{_m('month')}"
            r"(?:,? (?P<year>(?:19|20)\d\d))?",
        ),
        (
            "month_days_span",
            rf"{_m('month')} (?:the )?{_d('day')} (?:to|till|until|-|–|through) (?:the )?{_d('day2')}"
            r"(?:,? (?P<year>(?:19|20)\d\d))?",
        ),
        (
            "week_of_month",
            rf"(?:the )?(?P<nth>first|second|third|fourth|last|1st|2nd|3rd|4th) (?P<unit>week|weekend) "
            rf"(?:of|in) {_m('month')}(?:,? (?P<year>(?:19|20)\d\d))?",
        ),
        ("end", rf"(?:the )?end of (?:(?P<which>the|this|next) )?"
                rf"(?P<unit>week|month|year|{_MONTHS}|(?:19|20)\d\d)"),
        (
            "part",
            rf"(?:the )?(?P<part>early|mid|late|start|beginning|middle)(?: of|-| )\s*"
            rf"(?:(?P<which>this|next|last) (?P<unit>year|month)|{_m('month')}(?:,? (?P<year>(?:19|20)\d\d))?"
            r"|(?P<year2>(?:19|20)\d\d))",
        ),
        (
            "month_day",
            rf"(?:the )?(?:{_m('month')} {_d('day')}|{_d('day2')} (?:of )?{_m('month2')})"
            r"(?:,? (?P<year>(?:19|20)\d\d))?",
        ),
        ("month", rf"(?:(?P<which>last|next|this|coming) )?{_m('month')}(?:,? (?P<year>(?:19|20)\d\d))?"),
        ("year", r"(?P<year>(?:19|20)\d\d)"),
        (
            "holiday",
            r"(?P<holiday>christmas eve|christmas|new year's day|new years day|new year's eve|new years eve|"
            r"new year's|new years|new year|halloween|easter sunday|easter monday|easter|"
            r"valentine's day)",
        ),
    )
)


def resolve_phrase(phrase: str, at: datetime, future: bool | None = None) -> When | None:
    """The time `phrase` names (the whole phrase, e.g. "last month", "on March 2"), said at `at`;
    `future`: whether the sentence looks ahead (None: the nearest either way)."""
    text = re.sub(r"\s+", " ", phrase.strip().lower().replace("’", "'"))
    day = at.astimezone(UTC).date()
    for name, pattern in _PATTERNS:
        match = pattern.match(text)
        if match:
            return _RESOLVERS[name](match, day, future)
    return None


def _today(m: re.Match[str], at: date, future: bool | None) -> When:
    return _on(at)


def _yesterday(m: re.Match[str], at: date, future: bool | None) -> When:
    return _on(at - timedelta(days=1))


def _after_tomorrow(m: re.Match[str], at: date, future: bool | None) -> When:
    return _on(at + timedelta(days=2))


def _tomorrow(m: re.Match[str], at: date, future: bool | None) -> When:
    return _on(at + timedelta(days=1))


def _ago(m: re.Match[str], at: date, future: bool | None) -> When | None:
    n, unit = _number(m.group("n")), m.group("unit")
    if n is None:
        return None
    if unit == "year":
        return _year(at.year - n)
    if unit == "month":
        return _month(*_shift_month(at.year, at.month, -n))
    return _on(at - timedelta(days=n * _UNITS[unit]))


def _weekday_ago(m: re.Match[str], at: date, future: bool | None) -> When | None:
    """ "2 saturdays ago": the second Saturday before the day it was said."""
    n = _number(m.group("n"))
    if n is None or n < 1:
        return None
    back = (at.weekday() - WEEKDAYS.index(m.group("weekday"))) % 7 or 7
    return _on(at - timedelta(days=back + 7 * (n - 1)))


def _within(m: re.Match[str], at: date, future: bool | None) -> When | None:
    n, unit = _number(m.group("n")), m.group("unit")
    if n is None:
        return None
    if unit == "year":
        return _year(at.year + n)
    if unit == "month":
        return _month(*_shift_month(at.year, at.month, n))
    return (
        _on(at + timedelta(days=n * _UNITS[unit]))
        if unit == "day"
        else _week_of(at + timedelta(days=n * _UNITS[unit]))
    )


def _the_weekend(m: re.Match[str], at: date, future: bool | None) -> When:
    """ "on the weekend": this one when said on it; else the last one of a past tense, the coming
    one of a plan, and the nearer of the two otherwise (said on a Monday, the one just gone)."""
    if at.weekday() >= 5:
        return _weekend_of(at)
    last, coming = at - timedelta(days=at.weekday() + 2), at + timedelta(days=5 - at.weekday())
    if future is None:
        return _weekend_of(last if (at - last) <= (coming - at) else coming)
    return _weekend_of(coming if future else last)


def _the_season(m: re.Match[str], at: date, future: bool | None) -> When | None:
    """ "for the summer": this year's, as "this summer" is; told in the past ("I took up yoga in the
    autumn", said in March), the last one begun."""
    if future is False:
        unit = m.group("unit")
        first, _ = _SEASONS[unit]
        start = date(at.year, first, 1)
        if start > at:
            start = date(at.year - 1, first, 1)
        name = "autumn" if unit == "fall" else unit
        return When(start, "season", f"in {name} {start.year}")
    return _relative(m, at, future, "this")


def _relative(m: re.Match[str], at: date, future: bool | None, which: str | None = None) -> When | None:
    which, unit = (which or m.group("which")).replace("the ", ""), m.group("unit")
    step = {"last": -1, "past": -1, "next": 1, "coming": 1, "this": 0}[which]
    if unit == "week":
        return _week_of(at + timedelta(days=7 * step))
    if unit == "weekend":
        if step == 0:
            return _weekend_of(at)
        return (
            _weekend_of(at + timedelta(days=7 * step))
            if step > 0
            else _weekend_of(at - timedelta(days=at.weekday() + 2))
        )
    if unit == "month":
        return _month(*_shift_month(at.year, at.month, step))
    if unit == "year":
        return _year(at.year + step)
    first, _ = _SEASONS[unit]
    year = at.year + step if unit != "winter" or step >= 0 else at.year - 1
    if step == 0 and first < at.month and unit != "winter" and future:
        year = at.year
    name = "autumn" if unit == "fall" else unit
    return When(date(year, first, 1), "season", f"in {name} {year}")


def _weekday(m: re.Match[str], at: date, future: bool | None) -> When:
    target = next(i for i, day in enumerate(WEEKDAYS) if day.startswith(m.group("weekday")))
    which = (m.group("which") or "").replace("the ", "")
    ahead = (target - at.weekday()) % 7
    behind = (at.weekday() - target) % 7
    part_of_day = m.group(0).rstrip().endswith(("morning", "afternoon", "evening", "night"))
    if not which and ahead == 0 and part_of_day and future is not False:
        return _on(at)  # "Sunday night", said on a Sunday: tonight
    if which in ("next", "coming", "this", "this coming") or (not which and future):
        return _on(at + timedelta(days=ahead or 7))
    if which == "last" or future is False or not which:
        return _on(at - timedelta(days=behind or 7))
    return _on(at + timedelta(days=ahead))


def _season(m: re.Match[str], at: date, future: bool | None) -> When:
    name = m.group("season")
    first, _ = _SEASONS[name]
    if m.group("year"):
        year = int(m.group("year"))
    else:
        start = _nearest(first, 1, at, bool(future))
        year = start.year
    label = "autumn" if name == "fall" else name
    return When(date(year, first, 1), "season", f"in {label} {year}")


def _nth(m: re.Match[str], at: date, future: bool | None) -> When | None:
    day = int(m.group("day"))
    if not 1 <= day <= 31:
        return None
    year, month = at.year, at.month
    if future is not False and day < at.day:
        year, month = _shift_month(year, month, 1)
    elif future is False and day > at.day:
        year, month = _shift_month(year, month, -1)
    return _on(date(year, month, min(day, monthrange(year, month)[1])))


def _weekday_nth(m: re.Match[str], at: date, future: bool | None) -> When | None:
    """ "Thursday the 12th": the nearest 12th that is a Thursday, ahead or behind as the sentence
    looks (within a year); the 12th alone if none is."""
    target = next(i for i, day in enumerate(WEEKDAYS) if day.startswith(m.group("weekday")))
    day = int(m.group("day"))
    if not 1 <= day <= 31:
        return None
    if m.group("month"):  # "Monday the 26th of October": the month says which
        month = _month_number(m.group("month"))
        return _on(_nearest(month, day, at, bool(future)) if future is not None else _closest(month, day, at))
    year, month = at.year, at.month
    step = -1 if future is False else 1
    for _ in range(13):
        if day <= monthrange(year, month)[1]:
            candidate = date(year, month, day)
            on_time = candidate <= at if future is False else candidate >= at
            if on_time and candidate.weekday() == target:
                return _on(candidate)
        year, month = _shift_month(year, month, step)
    return _nth(m, at, future)


def _month_number(text: str) -> int:
    text = text.rstrip(".")
    return (
        MONTHS.index(text) + 1 if text in MONTHS else _SHORT_MONTHS[text[:4] if text == "sept" else text[:3]]
    )


def _end(m: re.Match[str], at: date, future: bool | None) -> When:
    """ "the end of the month", "end of next year", "the end of May": its last day."""
    unit = m.group("unit")
    step = 1 if m.group("which") == "next" else 0
    if unit == "week":
        friday = at + timedelta(days=(4 - at.weekday()) % 7 + 7 * step)
        return When(friday, "day", f"by the end of the week of {_day(friday - timedelta(days=4))}")
    if unit == "year":
        return When(date(at.year + step, 12, 31), "day", f"by the end of {at.year + step}")
    if unit.isdigit():  # "the end of 2028"
        return When(date(int(unit), 12, 31), "day", f"at the end of {unit}")
    if unit == "month":
        year, month = _shift_month(at.year, at.month, step)
    else:
        month = _month_number(unit)
        year = _nearest(month, 1, at.replace(day=1), future is not False).year
    last = date(year, month, monthrange(year, month)[1])
    # "before the end of June": a limit, said so; "at the end of June": the time itself
    lead = m.groupdict().get("prep")
    lead = lead if lead in ("by", "before", "until") else "at"
    return When(last, "day", f"{lead} the end of {MONTHS[month - 1].capitalize()} {year}")


def _part(m: re.Match[str], at: date, future: bool | None) -> When:
    """ "early next year", "mid-March", "late 2027", "the beginning of next month": the part's
    first day, at the grain of what it is part of (a month, a year)."""
    part = m.group("part")
    day = _PARTS[part]
    word = {"start": "early", "beginning": "early", "middle": "mid"}.get(part, part)
    if m.group("unit"):
        step = {"this": 0, "next": 1, "last": -1}[m.group("which")]
        if m.group("unit") == "year":
            year = at.year + step
            return When(date(year, 1 + (day - 1) // 10 * 4, 1), "season", f"in {word} {year}")
        year, month = _shift_month(at.year, at.month, step)
    elif m.group("year2"):
        year = int(m.group("year2"))
        return When(date(year, 1 + (day - 1) // 10 * 4, 1), "season", f"in {word} {year}")
    else:
        month = _month_number(m.group("month"))
        year = (
            int(m.group("year"))
            if m.group("year")
            else _nearest(month, 1, at.replace(day=1), future is not False).year
        )
    return When(date(year, month, day), "month", f"in {word} {MONTHS[month - 1].capitalize()} {year}")


def _month_day(m: re.Match[str], at: date, future: bool | None) -> When | None:
    month = _month_number(m.group("month") or m.group("month2"))
    day = int(m.group("day") or m.group("day2"))
    if not 1 <= day <= 31:
        return None
    if m.group("year"):
        year = int(m.group("year"))
        return _on(date(year, month, min(day, monthrange(year, month)[1])))
    return _on(_nearest(month, day, at, bool(future)) if future is not None else _closest(month, day, at))


def _closest(month: int, day: int, at: date) -> date:
    before, after = _nearest(month, day, at, False), _nearest(month, day, at, True)
    return before if (at - before) <= (after - at) else after


def _month_alone(m: re.Match[str], at: date, future: bool | None) -> When:
    month = _month_number(m.group("month"))
    prefix = "in"
    if m.group("year"):
        return _month(int(m.group("year")), month, prefix)
    which = m.group("which")
    if which in ("next", "coming"):
        start = _nearest(month, 1, at + timedelta(days=1), True)
    elif which == "last":
        start = _nearest(month, 1, date(at.year, at.month, 1) - timedelta(days=1), False)
    elif which == "this" or future is None:
        start = date(at.year, month, 1)
    else:
        start = _nearest(month, 1, at.replace(day=1), future)
    return _month(start.year, start.month, prefix)


def _year_alone(m: re.Match[str], at: date, future: bool | None) -> When:
    prefix = m.group("prep") if m.group("prep") in ("since", "by", "until", "before", "after") else "in"
    return _year(int(m.group("year")), prefix)


def easter(year: int) -> date:
    """Easter Sunday of a year (the Gregorian computus, Meeus/Jones/Butcher)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = divmod(b, 4)
    g = (8 * b + 13) // 25
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    weekday = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 19 * weekday) // 433
    month, day = divmod(h + weekday - 7 * m + 114, 31)
    return date(year, month, day + 1)


def _easter(holiday: str, at: date, future: bool) -> date:
    """Easter (Sunday or Monday) nearest `at`, ahead or behind: it moves from year to year."""
    shift = timedelta(days=1 if holiday.endswith("monday") else 0)
    this = easter(at.year) + shift
    if future and this < at:
        return easter(at.year + 1) + shift
    if not future and this > at:
        return easter(at.year - 1) + shift
    return this


def _days_span(m: re.Match[str], at: date, future: bool | None) -> When | None:
    """ "14th to 21st July", "October 8th to 12th": the days from the first to the last, of one month."""
    month = _month_number(m.group("month"))
    first, last = int(m.group("day")), int(m.group("day2"))
    if m.group("year"):
        year = int(m.group("year"))
    else:
        year = (_nearest(month, first, at, bool(future)) if future is not None
                else _closest(month, first, at)).year
    if not 1 <= first < last <= monthrange(year, month)[1]:
        return None
    name = f"{MONTHS[month - 1].capitalize()} {year}"
    return When(date(year, month, first), "span", f"from {first} to {last} {name}", date(year, month, last))


def _week_of_month(m: re.Match[str], at: date, future: bool | None) -> When:
    """ "the first week of August", "the last weekend in May": the week's first day (the month's
    1st, 8th, 15th or 22nd; the last seven days), or that weekend's Saturday."""
    month = _month_number(m.group("month"))
    year = int(m.group("year")) if m.group("year") else _nearest(
        month, 1, at.replace(day=1), future is not False).year
    nth = m.group("nth")
    order = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "fourth": 3, "4th": 3}
    ordinal = {0: "first", 1: "second", 2: "third", 3: "fourth"}.get(order.get(nth, -1), "last")
    name = f"{MONTHS[month - 1].capitalize()} {year}"
    if m.group("unit") == "weekend":
        saturdays = [d for d in (date(year, month, n) for n in range(1, monthrange(year, month)[1] + 1))
                     if d.weekday() == 5]
        saturday = saturdays[order[nth]] if nth in order else saturdays[-1]
        return When(saturday, "weekend", f"on the {ordinal} weekend of {name}")
    last = monthrange(year, month)[1]
    first = date(year, month, 1 + 7 * order[nth]) if nth in order else date(year, month, last - 6)
    return When(first, "week", f"in the {ordinal} week of {name}")


def _holiday(m: re.Match[str], at: date, future: bool | None) -> When:
    if m.group("holiday").startswith("easter"):
        found = _easter(m.group("holiday"), at, future is not False)
        name = m.group("holiday").title()
        lead = m.group("prep") or ("on" if " " in name else "at")  # "on Easter Monday", "at Easter"
        return When(found, "day", f"{lead} {name} {found.year}")
    month, day = _HOLIDAYS[m.group("holiday")]
    found = _nearest(month, day, at, future is not False)
    if m.group("holiday").endswith(("day", "eve")):
        return _on(found)  # a day of the year that says its date ("on 1 January 2027")
    name = m.group("holiday").title().replace("'S", "'s")
    return When(found, "day", f"{m.group('prep') or 'at'} {name} {found.year}")


_DAYS_OF_A_MONTH = re.compile(
    rf"(?P<a>\d{{1,2}})(?:st|nd|rd|th)? (?P<joint>and|&|to|-|–) (?P<b>\d{{1,2}})(?:st|nd|rd|th)? "
    rf"(?:of )?(?P<month>{_MONTHS})")
_NUMERIC = re.compile(r"(?P<a>\d{1,4})[/.-](?P<b>\d{1,2})(?:[/.-](?P<c>\d{2,4}))?")
_MONTH_WORD = re.compile(rf"\b(?:{_MONTHS})\b")


def resolve_written_date(phrase: str, at: datetime, future: bool | None = None) -> When | None:
    """A date written out in a way the patterns above do not read ("14/03/2027", "2027-03-14",
    "Tuesday the 3rd of March"), read by `dateparser`; a day, or nothing. A numeric date whose
    order is unsure (3/4: March or April?) is nothing, since people write both."""
    text = re.sub(r"\s+", " ", phrase.strip().lower())
    text = re.sub(r"^(?:on|by|before|until|from|since|for) ", "", text)
    days = _DAYS_OF_A_MONTH.fullmatch(text)
    if days:  # "24 and 25 November": from the first (dateparser reads "25" as a year)
        first = resolve_written_date(f"{days.group('a')} {days.group('month')}", at, future)
        if first is None:
            return None
        joint = "and" if days.group("joint") in ("and", "&") else "to"
        return When(first.start, "day", f"on {first.start.day} {joint} {days.group('b')} "
                                        f"{MONTHS[first.start.month - 1].capitalize()} {first.start.year}")
    numeric = _NUMERIC.fullmatch(text)
    order = None
    if numeric:
        a, b = int(numeric.group("a")), int(numeric.group("b"))
        if len(numeric.group("a")) == 4:
            order = "YMD"
        elif a > 12 >= b:
            order = "DMY"
        elif b > 12 >= a:
            order = "MDY"
        else:
            return None
    elif not (_MONTH_WORD.search(text) and re.search(r"\d", text)):
        return None
    settings: dict[str, object] = {
        "RELATIVE_BASE": at.astimezone(UTC).replace(tzinfo=None),
        "PREFER_DATES_FROM": "future" if future else ("past" if future is False else "current_period"),
        "REQUIRE_PARTS": ["day", "month"],
        "RETURN_AS_TIMEZONE_AWARE": False,
    }
    if order:
        settings["DATE_ORDER"] = order
    found = dateparser.parse(text, languages=["en"], settings=settings)
    if found is None or (not re.search(r"\d{4}", text) and abs(found.year - at.year) > 1):
        return None  # a year no one wrote, far from the time said: a misreading
    return _on(found.date())


_RESOLVERS = {
    "weekday_nth": _weekday_nth,
    "today": _today,
    "yesterday": _yesterday,
    "after_tomorrow": _after_tomorrow,
    "tomorrow": _tomorrow,
    "ago": _ago,
    "weekday_ago": _weekday_ago,
    "within": _within,
    "relative": _relative,
    "weekday": _weekday,
    "season": _season,
    "week_of_month": _week_of_month,
    "days_span": _days_span,
    "month_days_span": _days_span,
    "end": _end,
    "part": _part,
    "month_day": _month_day,
    "nth": _nth,
    "month": _month_alone,
    "the_weekend": _the_weekend,
    "the_season": _the_season,
    "year": _year_alone,
    "holiday": _holiday,
}


def written(when: When, prep: str | None) -> str:
    """How the time is written in a memory, keeping a preposition the person used where it
    carries meaning ("since 2019", "by 30 May 2026", "before Christmas 2026")."""
    if prep in ("since", "by", "before", "until", "after", "from") and when.text.startswith(
            ("on ", "in ", "at ")):
        return f"{prep} {when.text.split(' ', 1)[1]}"
    return when.text


_WHEN_WORD = re.compile(
    r"\d|\b(?:yesterday|today|tonight|tomorrow|last|next|ago|week|month|year|weekend|"
    r"morning|evening|monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|"
    r"february|march|april|may|june|july|august|september|october|november|december)\b",
    re.IGNORECASE,
)
_SINCE_YEAR = re.compile(r"\bsince (?P<year>(?:19|20)\d\d)\b", re.IGNORECASE)


def resolve(text: str, at: datetime, future: bool = False) -> datetime | None:
    """The time a free text names ("last month", "since 2019", "next Friday at 10"), resolved
    against `at`, in the past unless `future`; None when it names none. For what a model wrote,
    whose phrase is not cut out for us: the text is searched with `dateparser`."""
    if not future and (year := _SINCE_YEAR.search(text)):
        return datetime(int(year.group("year")), 1, 1, tzinfo=UTC)
    whole = resolve_phrase(text, at, future)
    if whole is not None:
        return whole.moment()
    found = search_dates(
        text,
        languages=["en"],
        settings={
            "RELATIVE_BASE": at.astimezone(UTC).replace(tzinfo=None),
            "PREFER_DATES_FROM": "future" if future else "past",
            "PREFER_DAY_OF_MONTH": "first",
            "RETURN_AS_TIMEZONE_AWARE": False,
        },
    )
    for phrase, moment in found or []:
        if _WHEN_WORD.search(phrase) and phrase.strip().lower() not in {"may", "march", "sun"}:
            return moment.replace(tzinfo=UTC)
    return None


def names_a_kind(word: str) -> bool:
    """A season or a holiday, which said before a noun names a kind of thing ("summer tyres",
    "Christmas cards", "autumn leaves"), not a time."""
    return word.lower() in _SEASONS or word.lower() in _HOLIDAYS or word.lower() == "easter"
