"""What one of the person's family has ahead on a day said ("my mum is visiting in April", "my
brother is getting married in June") is a plan they keep; a habit taken up ("I've started walking
to work instead of getting the bus"); a line that lost its subject before a participle ("settled
in Edinburgh now": I'm; "retired in 2021": I did); a remark before the clause ("big week, ...")
is no part of the memory; "veggie" is vegetarian. Every sentence here is our own."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from domain.commands import Message
from domain.extraction.candidate import Candidate
from domain.extraction.rules import extract
from domain.model import MemoryKind
from infra.nlp import english_parser

SAID_AT = datetime(2026, 3, 18, 9, 0, tzinfo=UTC)


def found(line: str) -> list[Candidate]:
    return extract([Message(role="user", content=line, timestamp=SAID_AT)], SAID_AT, english_parser())


@pytest.mark.parametrize(("line", "content"), [
    ("my mum is visiting in April", "Mum is visiting in April 2026"),
    ("my sister's coming up to visit next month with her kids", "Sister is coming up to visit in April 2026"),
    ("my brother is getting married in June", "Brother is getting married in June 2026"),
    ("my mum is having surgery on Tuesday", "Mum is having surgery on 24 March 2026"),
])
def test_a_day_ahead_of_one_of_the_family_is_a_plan(line: str, content: str) -> None:
    (plan,) = found(line)
    assert (plan.kind, plan.content) == (MemoryKind.PLAN, content)


@pytest.mark.parametrize("line", [
    "my brother got married in June",  # done: no plan
    "my brother is getting married",  # no day
    "my mum visits a lot",
    "my friend is visiting next week",  # not family
    "my boss is coming in tomorrow",
    "my sister might visit in May",
    "is my mum visiting next week?",
    "my mum is doing it tomorrow",  # "it" was said elsewhere
])
def test_no_family_plan_done_undated_maybe_or_not_family(line: str) -> None:
    assert [c for c in found(line) if c.kind is MemoryKind.PLAN] == []


@pytest.mark.parametrize(("line", "content"), [
    ("I've started walking to work instead of getting the bus, it's only 20 min",
     "Has started walking to work instead of getting the bus"),
    ("I started swimming twice a week in January", "Started swimming twice a week in January 2026"),
    ("I've recently started running", "Has recently started running"),
])
def test_a_habit_taken_up_is_kept(line: str, content: str) -> None:
    (habit,) = found(line)
    assert (habit.kind, habit.content) == (MemoryKind.FACT, content)


@pytest.mark.parametrize("line", [
    "I started cooking dinner",  # once, tonight
    "I'm going to start running in May",  # not yet
    "my son started swimming every week",
])
def test_no_habit_from_one_start_a_wish_or_another_s(line: str) -> None:
    assert [c for c in found(line) if c.kind is MemoryKind.FACT] == []


def test_a_line_without_its_subject_before_a_participle() -> None:
    (home,) = found("settled in Edinburgh now")
    assert (home.content, home.attribute, home.value) == ("Is settled in Edinburgh", "home_city", "Edinburgh")
    (retired,) = found("Retired in 2021.")
    assert (retired.content, retired.valid_from.year) == ("Retired in 2021", 2021)


@pytest.mark.parametrize(("line", "content"), [
    ("big week, we're moving to Edinburgh on Saturday", "Is moving to Edinburgh on 21 March 2026"),
    ("crazy day, I got engaged!", "Got engaged"),
])
def test_a_remark_before_the_clause_is_left_out(line: str, content: str) -> None:
    (memory,) = found(line)
    assert memory.content == content


def test_a_time_before_the_clause_stays() -> None:
    (plan,) = found("next month, we're moving to Leeds")
    assert plan.content == "Is moving to Leeds in April 2026"


def test_veggie_is_vegetarian() -> None:
    (diet,) = found("I'm veggie so no meat")
    assert (diet.attribute, diet.value, diet.content) == ("diet", "vegetarian", "Is vegetarian")
    assert all(c.attribute != "diet" for c in found("my wife is veggie"))  # hers, not theirs
