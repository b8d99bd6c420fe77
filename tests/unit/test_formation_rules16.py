"""Round sixteen of the offline rules (rules/16): how answers are to be, asked as where "it" is put
("put it in bullet points, I print them"); a medicine's dose said last, after a comma, where one
medicine is named; an irregular heartbeat is a condition; an age said beside a job ("a locksmith,
68 years old, ...") is its own memory and no part of the job. Every sentence is our own, none from
a benchmark; each with what it must leave alone."""

from __future__ import annotations

import pytest

from domain.model import MemoryKind
from tests.unit.test_formation_rules13 import contents, found
from tests.unit.test_formation_rules14 import by

# --- how answers are to be ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "wanted"),
    [
        ("Please put it in bullet points, I read your answers on the bus.", "Wants answers in bullet points"),
        ("Always put your answers in a table.", "Wants answers in a table"),
        ("Put it in a numbered list from now on.", "Wants answers in a numbered list from now on"),
    ],
)
def test_where_it_is_put_is_how_answers_are_wanted(line: str, wanted: str) -> None:
    assert wanted in contents(line)
    assert not any("always to put" in c for c in contents(line))


@pytest.mark.parametrize(
    "line",
    [
        "Put it in the calendar for Tuesday.",  # a thing put somewhere, once
        "Can you put it in bullet points?",  # this answer, asked
        "Please always use it sparingly.",  # "it" is no answer
        "Please put it in bullet points, I need it for a meeting today.",  # for one meeting
    ],
)
def test_a_thing_put_somewhere_once_is_no_standing_request(line: str) -> None:
    assert not [c for c in found(line) if c.kind is MemoryKind.PREFERENCE]


# --- a medicine and its dose ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "taken"),
    [
        ("My GP has put me on ramipril, 5 mg once a day.", "Takes ramipril 5 mg once a day"),
        ("The consultant put me on rivaroxaban in January for a clot, 20 mg daily.",
         "Takes rivaroxaban 20 mg daily"),
        ("The GP put me on sertraline, 50mg.", "Takes sertraline 50mg"),
    ],
)
def test_a_dose_said_last_after_a_comma_is_the_one_medicines(line: str, taken: str) -> None:
    assert taken in contents(line)


@pytest.mark.parametrize(
    ("line", "taken"),
    [
        # two medicines: whose dose it is cannot be told
        ("She put me on metformin and ramipril, 5 mg once a day.", "Takes ramipril"),
        # the dose is not the last thing said: something else follows it
        ("The doctor put me on amlodipine, 5 mg once a day, and told me to walk more.", "Takes amlodipine"),
    ],
)
def test_a_dose_that_may_be_another_medicines_or_is_not_said_last_stays_out(line: str, taken: str) -> None:
    assert taken in contents(line)
    assert not any("5 mg" in c for c in contents(line))


def test_an_irregular_heartbeat_is_a_condition() -> None:
    assert by("I have an irregular heartbeat.", "condition")
    assert not by("My heartbeat was irregular after the run.", "condition")  # once, after a run


# --- an age beside a job ----------------------------------------------------------------------------


def test_an_age_beside_a_job_is_its_own_memory() -> None:
    said = contents("I'm a joiner in Dundee, 61 years old, still taking on small jobs.")
    assert "Is a joiner in Dundee" in said
    assert "Is 61 years old" in said
    assert not any("still taking" in c for c in said)


@pytest.mark.parametrize(
    ("line", "job"),
    [
        ("I'm a designer, freelance.", "Is a designer, freelance"),  # said of the job: it stays
        ("I'm a nurse, retired since 2019.", "Is a nurse, retired since 2019"),
        ("I'm a teacher with 20 years old kids.", "Is a teacher with 20 years old kids"),  # no age of theirs
    ],
)
def test_what_is_said_of_the_job_stays_with_it(line: str, job: str) -> None:
    assert job in contents(line)
    assert not by(line, "age")
