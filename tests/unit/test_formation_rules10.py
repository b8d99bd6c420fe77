"""Round ten of the offline rules: dates that were written wrong, a lower-case word taken for a
city, an ex kept as the partner now. Every sentence is our own, none from a benchmark; each with
what it must leave alone."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from domain.commands import Message
from domain.extraction.candidate import Candidate
from domain.extraction.render import times
from domain.extraction.rules import extract
from domain.extraction.times import resolve_written_date
from domain.text.english import typed_plainly
from infra.nlp import english_parser

SAID_AT = datetime(2026, 4, 14, 8, 10, tzinfo=UTC)  # a Tuesday


def found(line: str) -> list[Candidate]:
    return extract([Message(role="user", content=line, timestamp=SAID_AT)], SAID_AT, english_parser())


def dated(line: str) -> list[tuple[str, date]]:
    [sentence] = english_parser().parse([typed_plainly(line)])[0]
    return [(d.text, d.when.start) for d in times(sentence, SAID_AT, True)]


# --- dates ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        # two days of one month: the first, and both written (dateparser read "25" as a year: 2125); a
        # span from one day to another (rules/19: "from", where it was "on 3 to 5 June")
        ("we fly to Rome on 24 and 25 November", [("on 24 and 25 November 2026", date(2026, 11, 24))]),
        ("the course is 3 to 5 June", [("from 3 to 5 June 2026", date(2026, 6, 3))]),
        # the day and its month once, not "on 4 May 2026 of May"
        ("I start the 4th of May, can't wait", [("on 4 May 2026", date(2026, 5, 4))]),
        # a season or a holiday that says what kind a thing is, is no time
        ("remind me to post the Christmas cards by December 10",
         [("by 10 December 2026", date(2026, 12, 10))]),
        ("I need to find my winter coat", []),
        ("we went to see the autumn leaves", []),
        # ... and a time where it is one
        ("We're going to Spain in the summer.", [("in summer 2026", date(2026, 6, 1))]),
        ("I'll see them at Christmas", [("at Christmas 2026", date(2026, 12, 25))]),
    ],
)
def test_what_a_line_says_of_its_times(line: str, expected: list[tuple[str, date]]) -> None:
    assert dated(line) == expected


def test_a_written_date_far_from_now_with_no_year_written_is_no_date() -> None:
    assert resolve_written_date("24 and 25 November", SAID_AT, True) is not None
    assert resolve_written_date("14/03/1985", SAID_AT, False) is not None  # a year written stays
    assert resolve_written_date("May 25", SAID_AT, True) == resolve_written_date("25 May", SAID_AT, True)


def test_the_memory_keeps_both_days_and_the_kind_of_thing() -> None:
    assert [c.content for c in found("We go to Kyoto to see the autumn leaves on 24 and 25 November")] == [
        "Goes to Kyoto to see the autumn leaves on 24 and 25 November 2026"]


# --- a lower-case word is no city ---------------------------------------------------------------------


def test_a_word_in_lower_case_is_no_place_moved_to() -> None:
    assert [c for c in found("also I moved to a van route, started last Monday") if c.attribute] == []


@pytest.mark.parametrize(
    ("line", "city"), [("I moved to Leeds.", "Leeds"), ("we moved to Olsztyn", "Olsztyn")])
def test_a_city_moved_to_still_fills_home(line: str, city: str) -> None:
    assert [c.value for c in found(line) if c.attribute == "home_city"] == [city]


# --- an ex named where the couple parted ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "name", "memory"),
    [
        ("Me and my partner Rhys split up last year", "Rhys", "Split up with their partner Rhys in 2025"),
        ("My husband Dev and I split up in May", "Dev", "Split up with their husband Dev in May 2025"),
        ("I broke up with my boyfriend Tom last week", "Tom",
         "Broke up with their boyfriend Tom in the week of 6 April 2026"),
    ],
)
def test_the_one_parted_from_is_the_value_ended_not_the_partner_now(
    line: str, name: str, memory: str
) -> None:
    memories = found(line)
    assert [(c.content, c.ends, c.ended_value) for c in memories] == [(memory, ("partner",), name)]
    assert not any(c.attribute == "partner" for c in memories)


def test_a_partner_named_with_no_parting_is_the_partner() -> None:
    assert [(c.attribute, c.value) for c in found("My husband Dev is a chef.")] == [("partner", "Dev")]


# --- what is asked or said next, after a comma, is not the memory's --------------------------------


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        # a question typed with no question mark: its word, then its verb before the subject
        ("I'm coeliac, where could I grab a gluten free lunch near the station", "Is coeliac"),
        ("I'm vegan, what can I cook tonight", "Is vegan"),
        # another clause of theirs the parser hung inside this one
        ("Also I'm lactose intolerant, so at home I bake dairy free", "Is lactose intolerant"),
    ],
)
def test_what_follows_a_comma_as_another_clause_is_cut(line: str, memory: str) -> None:
    assert [c.content for c in found(line)][:1] == [memory]


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("I live in Leeds, where I grew up", "Lives in Leeds, where they grew up"),  # no question
        ("I love hiking, so I go every weekend", "Loves hiking"),
    ],
)
def test_a_clause_that_goes_on_after_a_comma_is_kept(line: str, memory: str) -> None:
    assert [c.content for c in found(line)][:1] == [memory]


# --- the employer named whole -------------------------------------------------------------------------


def test_an_employer_with_of_in_its_name_is_named_whole_and_the_job_without_it() -> None:
    memories = {c.attribute: c for c in found("I'm a porter at the University Hospital of Wales")}
    assert memories["job_title"].content == "Is a porter"
    assert (memories["employer"].content, memories["employer"].value) == (
        "Works at the University Hospital of Wales", "University Hospital of Wales")


def test_an_employer_said_with_the_is_named_without_it() -> None:
    [memory] = found("I work at the Royal Free Hospital")
    assert (memory.content, memory.value) == ("Works at the Royal Free Hospital", "Royal Free Hospital")


# --- one of their family said with "a" --------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("I have a daughter named Mia.", "Has a daughter named Mia"),
        ("I've got a son called Leo", "Has a son named Leo"),
        # and no "Has a son, Arjun" beside it
        ("We have a son, Arjun, he's 4", "Has a son named Arjun, aged 4"),
    ],
)
def test_one_of_their_family_said_with_a_is_theirs(line: str, memory: str) -> None:
    assert [(c.kind.value, c.content) for c in found(line)] == [("person", memory)]


@pytest.mark.parametrize(
    "line",
    [
        "I'd love a daughter named Mia",  # wished for
        "I don't have a sister named Anna",
        "if I had a son called Leo",
        "My sister has a daughter named Mia",  # hers
    ],
)
def test_one_wished_denied_or_anothers_is_not_theirs(line: str) -> None:
    assert [c for c in found(line) if c.kind.value == "person"] == []


def test_a_listing_that_says_more_than_the_name_stays_beside_it() -> None:
    # (rules/23: what he does where goes into the named one, which then says all the listing does)
    assert sorted(c.content for c in found("I have a brother, Sam, who works as a nurse in Oslo.")) == [
        "Has a brother named Sam who works as a nurse in Oslo"]
    # where they live goes into the one memory that names them (rules/12)
    assert [c.content for c in found("I have a brother, Sam, who lives in Oslo.")] == [
        "Has a brother named Sam who lives in Oslo"]
