"""What one "has got" is what one has now ("I've got an appointment on the 26th", "I've got two
cats"), not a past event; a day at "the end of 2028"; a change of habit under way ("cutting back
on beer") is a goal; a count per day is a habit; a name the parser reads as a noun ("my partner
Siobhan") is still a name. Every sentence here is our own."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from domain.commands import Message
from domain.extraction.candidate import Candidate
from domain.extraction.rules import extract
from domain.model import MemoryKind
from infra.nlp import english_parser

SAID_AT = datetime(2026, 3, 18, 9, 0, tzinfo=UTC)  # a Wednesday


def found(line: str) -> list[Candidate]:
    return extract([Message(role="user", content=line, timestamp=SAID_AT)], SAID_AT, english_parser())


def test_what_one_has_got_is_had_now_and_its_day_lies_ahead() -> None:
    (plan,) = found("I've got an appointment with a dermatologist on the 26th, finally")
    assert (plan.kind, plan.content) == (
        MemoryKind.PLAN, "Has an appointment with a dermatologist on 26 March 2026")
    (cats,) = found("I've got two cats.")
    assert cats.content == "Has two cats"
    (engaged,) = found("I've got engaged!")  # became: an event, as before
    assert engaged.kind is MemoryKind.EVENT


def test_a_plan_for_the_end_of_a_year_is_kept_with_its_day() -> None:
    (plan,) = found("I'll retire at the end of 2029.")
    assert (plan.kind, plan.content) == (MemoryKind.PLAN, "Will retire at the end of 2029")


@pytest.mark.parametrize(("line", "content"), [
    ("I'm cutting back on wine and cheese", "Is cutting back on wine and cheese"),
    ("so I'm cutting down to two coffees a day", "Is cutting down to two coffees a day"),
])
def test_cutting_back_on_a_food_or_habit_is_a_goal_under_way(line: str, content: str) -> None:
    assert [(c.kind, c.content) for c in found(line)] == [(MemoryKind.GOAL, content)]


@pytest.mark.parametrize("line", [
    "I'm cutting back on hours at work.",  # no food or habit given up
    "The council is cutting back on bin collections.",
    "Should I cut back on coffee?",
])
def test_other_cutting_back_is_no_goal(line: str) -> None:
    assert [c for c in found(line) if c.kind is MemoryKind.GOAL] == []


def test_a_count_per_day_is_a_habit_and_a_name_read_as_a_noun_is_a_name() -> None:
    (habit,) = found("I drink three coffees a day.")
    assert habit.content == "Drinks three coffees a day"
    assert found("I drink coffee.") == []  # no count, no steady habit said
    partner = [c for c in found("I'm moving in with my partner Siobhan on the 1st of May.") if c.attribute]
    assert [(c.attribute, c.value) for c in partner] == [("partner", "Siobhan")]
