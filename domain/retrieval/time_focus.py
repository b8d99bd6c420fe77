"""What a question says about time: a span it names ("in May 2023", "last spring", "yesterday"),
and whether it asks when something happened.

A named span is soft: what lies in it counts for more in the ranking, what lies outside is not
dropped (people misremember dates by a little, and a fact told in June about May is in June).
A "when" question favours turns that carry a time ("we moved last spring"), as the answer is
in them. Phrases are read with `dateparser`, relative to the moment the question is asked of
(the search's `valid_at`, else now), and kept only where they hold a word of time, so that
"May I ask ..." or "we" name no day.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from dateparser.date import DateDataParser
from dateparser.search import search_dates

_TIME_WORDS = (r"yesterday|today|tonight|tomorrow|last|next|ago|week|weeks|month|months|year|years|weekend|"
               r"morning|evening|monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|"
               r"march|april|may|june|july|august|september|october|november|december|spring|summer|"
               r"autumn|fall|winter|recently|earlier|later|since|before|after")
# A word of time, or a number that can be a year or a day: what makes a turn carry a time.
# Read word by word (a set, and a pattern for numbers): one pattern of all the words, tried at every
# place of a text, took 50 µs a turn, and a "when" question weighs a few hundred turns.
_TIME_WORD_SET = frozenset(_TIME_WORDS.split("|"))
_WORD = re.compile(r"\w+")
_DAY_OR_YEAR = re.compile(r"(?:19|20)\d\d|\d{1,2}(?:st|nd|rd|th)?")
_ASKS_WHEN = re.compile(r"^\W*(?:when\b|since when\b|what (?:year|month|day|date|week)\b|"
                        r"what time (?:did|do|does|is|was|will|are|were)\b|"
                        r"how long ago\b|on which (?:day|date)\b|in which (?:year|month)\b|at what time\b)",
                        re.IGNORECASE)
# A phrase that names a span: a month, a year, a day of the week, or a relative span.
_NAMES_SPAN = re.compile(r"\d|\b(?:yesterday|today|tonight|tomorrow|last|next|ago|week|month|year|weekend|"
                         r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|"
                         r"april|june|july|august|september|october|november|december)\b", re.IGNORECASE)
_AMBIGUOUS = {"may", "march", "sun", "now", "second", "a second"}
_SEASON = re.compile(r"\b(?:(?P<which>last|this|next)\s+)?(?P<season>spring|summer|autumn|fall|winter)"
                     r"(?:\s+(?:of\s+)?(?P<year>(?:19|20)\d\d))?\b", re.IGNORECASE)
_SEASON_START = {"spring": 3, "summer": 6, "autumn": 9, "fall": 9, "winter": 12}
_PERIOD = {"day": timedelta(days=1), "week": timedelta(days=7)}


@dataclass(frozen=True)
class TimeFocus:
    """`start`..`end`: the span the question names (None: none); `asks_when`: it asks for a time."""

    start: datetime | None = None
    end: datetime | None = None
    asks_when: bool = False

    def covers(self, start: datetime | None, end: datetime | None = None) -> bool:
        """Whether something true (or said) from `start` until `end` (None: a moment, or still)
        overlaps the named span."""
        if self.start is None or self.end is None or start is None:
            return False
        return start < self.end and (end or start) >= self.start


def mentions_time(text: str) -> bool:
    """Whether a turn says when something was (a day, a month, a year, "last week", "ago")."""
    return any(word in _TIME_WORD_SET or (word[0].isdigit() and _DAY_OR_YEAR.fullmatch(word) is not None)
               for word in _WORD.findall(text.lower()))


def asks_when(question: str) -> bool:
    return bool(_ASKS_WHEN.search(question))


def time_focus(question: str, at: datetime) -> TimeFocus:
    """What `question`, asked at `at`, says about time."""
    start, end = _season(question, at) or _named_span(question, at) or (None, None)
    return TimeFocus(start, end, asks_when(question))


def _season(question: str, at: datetime) -> tuple[datetime, datetime] | None:
    found = _SEASON.search(question)
    if not found or not (found["which"] or found["year"]):
        return None  # "summer" alone is a season of any year: no span
    first = _SEASON_START[found["season"].lower()]
    if found["year"]:
        year = int(found["year"])
    else:
        start_now = datetime(at.year if at.month >= first else at.year - 1, first, 1, tzinfo=UTC)
        if first == 12 and at.month < 3:
            start_now = datetime(at.year - 1, 12, 1, tzinfo=UTC)
        year = start_now.year + {"last": -1, "this": 0, "next": 1}[found["which"].lower()]
    start = datetime(year, first, 1, tzinfo=UTC)
    return start, _months_later(start, 3)


def _named_span(question: str, at: datetime) -> tuple[datetime, datetime] | None:
    base = at.astimezone(UTC).replace(tzinfo=None)
    settings = {"RELATIVE_BASE": base, "PREFER_DATES_FROM": "past", "RETURN_AS_TIMEZONE_AWARE": False}
    if not _NAMES_SPAN.search(question):
        return None  # dateparser reads "we" or "may" as dates: only ask it when a word of time is there
    for phrase, moment in search_dates(question, languages=["en"], settings=settings) or []:
        if phrase.strip().lower() in _AMBIGUOUS or not _NAMES_SPAN.search(phrase):
            continue
        period = DateDataParser(languages=["en"], settings=settings).get_date_data(phrase).period
        moment = moment.replace(tzinfo=UTC)
        if period == "year":
            start = datetime(moment.year, 1, 1, tzinfo=UTC)
            return start, datetime(moment.year + 1, 1, 1, tzinfo=UTC)
        if period == "month":
            start = datetime(moment.year, moment.month, 1, tzinfo=UTC)
            return start, _months_later(start, 1)
        day = moment.replace(hour=0, minute=0, second=0, microsecond=0)
        return day, day + _PERIOD.get(period or "day", timedelta(days=1))
    return None


def _months_later(start: datetime, months: int) -> datetime:
    month = start.month - 1 + months
    return start.replace(year=start.year + month // 12, month=month % 12 + 1)
