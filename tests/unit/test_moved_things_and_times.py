"""A thing moved to another time is a plan for then, never a move of home ("we moved the trip to
October" names no city October); a day that comes back each week ("Wednesday mornings") names no
date; a part of a day is written after its date; a count given roughly ("maybe twice a month") is
"about", not a doubt. Every sentence here is our own."""

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


@pytest.mark.parametrize(("line", "content"), [
    ("we've moved the Lisbon trip to October", "Has moved the Lisbon trip to October 2026"),
    ("I pushed my dentist appointment to next Tuesday.", "Pushed their dentist appointment to 24 March 2026"),
    ("We postponed the wedding until June.", "Postponed the wedding until June 2026"),
])
def test_a_thing_moved_to_another_time_is_a_plan_for_then(line: str, content: str) -> None:
    (plan,) = found(line)
    assert (plan.kind, plan.content, plan.attribute) == (MemoryKind.PLAN, content, None)


@pytest.mark.parametrize("line", [
    "We moved the meeting to Friday.",
    "I moved the sofa to the living room.",
    "I moved my mum into a care home in June.",     # her move, not theirs
    "I moved the party to next week.",
])
def test_a_thing_or_another_person_moved_is_no_move_of_home(line: str) -> None:
    assert [c for c in found(line) if c.attribute == "home_city"] == []


@pytest.mark.parametrize(("line", "city"), [
    ("I moved my family to Leeds in May.", "Leeds"),
    ("I moved back into my old flat in Olsztyn in June.", "Olsztyn"),
    ("We moved to Porto last year.", "Porto"),
])
def test_moving_oneself_or_ones_household_still_moves_home(line: str, city: str) -> None:
    assert [c.value for c in found(line) if c.attribute == "home_city"] == [city]


@pytest.mark.parametrize(("line", "content"), [
    ("I swim on Monday mornings.", "Swims on Monday mornings"),
    ("I go to choir on Thursdays.", "Goes to choir on Thursdays"),
])
def test_a_day_that_comes_back_each_week_names_no_date(line: str, content: str) -> None:
    (habit,) = found(line)
    assert habit.content == content and habit.valid_from == SAID_AT


def test_a_part_of_the_day_is_written_after_its_date_and_a_rough_count_is_about() -> None:
    (plan,) = found("I'm seeing the dentist on Monday morning.")
    assert plan.content == "Is seeing the dentist on 23 March 2026 in the morning"
    (health,) = found("I get migraines, maybe twice a month")
    assert health.content == "Gets migraines, about twice a month"
    assert [c.content for c in found("Maybe I'll get a dog.")] == []  # a doubt stays a doubt
