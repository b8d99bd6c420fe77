"""What a question says about time, read relative to when it is asked."""

from datetime import UTC, datetime

import pytest

from domain.retrieval.time_focus import TimeFocus, asks_when, mentions_time, time_focus

ASKED = datetime(2024, 9, 18, 15, 0, tzinfo=UTC)  # a Wednesday


def day(y: int, m: int, d: int) -> datetime:
    return datetime(y, m, d, tzinfo=UTC)


@pytest.mark.parametrize(("question", "start", "end"), [
    ("Which restaurant did we try in October 2023?", day(2023, 10, 1), day(2023, 11, 1)),
    ("what was I reading in 2021", day(2021, 1, 1), day(2022, 1, 1)),
    ("What did Tom fix yesterday?", day(2024, 9, 17), day(2024, 9, 18)),
    ("Where did I park last week?", day(2024, 9, 11), day(2024, 9, 18)),
    ("Which plants did I repot last spring?", day(2023, 3, 1), day(2023, 6, 1)),
    ("what did we grow in the summer of 2022?", day(2022, 6, 1), day(2022, 9, 1)),
    ("Who did I call on Monday?", day(2024, 9, 16), day(2024, 9, 17)),
    ("what did I cook in July?", day(2024, 7, 1), day(2024, 8, 1)),
])
def test_a_named_span_is_read_relative_to_the_moment_asked(question: str, start: datetime,
                                                             end: datetime) -> None:
    focus = time_focus(question, ASKED)
    assert (focus.start, focus.end) == (start, end)


@pytest.mark.parametrize("question", [
    "What kind of tea does Priya like?",
    "May I ask which bank my sister uses?",       # "May" the verb
    "Which weekend bag did I order?",             # a kind of bag, not a weekend
    "we talked about the boiler, who fixed it?",  # dateparser reads "we" as a day
    "Which team does Sam support in the summer?",  # a season of no year in particular
    "What is the second book of the series?",
])
def test_a_question_without_a_span_names_none(question: str) -> None:
    focus = time_focus(question, ASKED)
    assert (focus.start, focus.end) == (None, None)


@pytest.mark.parametrize(("question", "when"), [
    ("When did Lena start her new job?", True),
    ("  when was the wedding", True),
    ("What year did we move to Lyon?", True),
    ("How long ago did I stop smoking?", True),
    ("On which day is the dentist appointment?", True),
    ("What did Lena say about her new job?", False),
    ("Where did we go when it rained?", False),  # "when" inside, not asked
    ("What time zone is Omar in?", False),
])
def test_asking_when(question: str, when: bool) -> None:
    assert asks_when(question) is when
    assert time_focus(question, ASKED).asks_when is when


@pytest.mark.parametrize(("text", "carries"), [
    ("We finally moved last spring!", True),
    ("I started there in 2019.", True),
    ("It was on the 3rd, a Friday.", True),
    ("Two weeks ago, after the storm.", True),
    ("That sounds lovely, tell me more.", False),
    ("I love the blue one with the stripes.", False),
    ("SEE YOU ON THE 5TH", True),                        # any case
    ("Room 2023b, or the blasting_2019 file", False),   # a number inside a word is no day or year
    ("We lasted; the weekday crowd was thin", False),   # nor is a word that holds a time word
    ("I paid 120 for it", False),                       # three digits: neither a day nor a year
])
def test_a_turn_carries_a_time_or_not(text: str, carries: bool) -> None:
    assert mentions_time(text) is carries


def test_a_span_covers_what_overlaps_it_a_moment_or_a_stretch() -> None:
    october = TimeFocus(day(2023, 10, 1), day(2023, 11, 1))
    assert october.covers(day(2023, 10, 14))                      # said then
    assert not october.covers(day(2023, 11, 1))                   # the span ends before November
    assert october.covers(day(2023, 6, 1), day(2023, 10, 2))      # true until early October
    assert october.covers(day(2023, 6, 1), None) is False         # a moment in June
    assert not october.covers(day(2023, 6, 1), day(2023, 9, 30))  # over before October
    assert not TimeFocus().covers(day(2023, 10, 14))              # no span: covers nothing
