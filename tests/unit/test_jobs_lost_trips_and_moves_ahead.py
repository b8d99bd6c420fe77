"""A job lost however it is said ("made redundant", "let go", "sacked"); a trip said "off to"; a
move one has to make ("we have to move to Sheffield in the summer") is a plan, one that had to be
made is a home; what starts is ahead ("a place on the course starting September"); "'s been" is
"has been". Every sentence here is our own."""

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
    ("I've been made redundant", "Has been made redundant"),
    ("I was made redundant last month", "Was made redundant in February 2026"),
    ("I got sacked", "Got sacked"),
    ("I've been let go", "Has been let go"),
])
def test_a_job_lost_is_an_event(line: str, content: str) -> None:
    (lost,) = found(line)
    assert (lost.kind, lost.content) == (MemoryKind.EVENT, content)


@pytest.mark.parametrize("line", ["my husband was made redundant", "I might be made redundant"])
def test_no_job_lost_of_someone_else_or_a_maybe(line: str) -> None:
    assert [c for c in found(line) if c.kind is MemoryKind.EVENT] == []


@pytest.mark.parametrize(("line", "content"), [
    ("we're off to Crete on the 14th for ten days", "Is off to Crete on 14 April 2026 for ten days"),
    ("I'm off to Paris next week", "Is off to Paris in the week of 23 March 2026"),
])
def test_off_to_a_place_on_a_day_is_a_plan(line: str, content: str) -> None:
    (trip,) = found(line)
    assert (trip.kind, trip.content) == (MemoryKind.PLAN, content)


@pytest.mark.parametrize("line", [
    "I'm off to bed", "I'm off to work tomorrow", "my sister is off to Paris next week",
    "I was off to Paris last week",
])
def test_no_trip_to_bed_to_work_of_another_or_past(line: str) -> None:
    assert [c for c in found(line) if c.kind is MemoryKind.PLAN] == []


@pytest.mark.parametrize(("line", "content"), [
    ("we have to move to Sheffield in the summer", "Has to move to Sheffield in summer 2026"),
    ("we're going to have to move up to Sheffield in the summer",
     "Is going to have to move up to Sheffield in summer 2026"),
])
def test_a_move_one_has_to_make_is_a_plan(line: str, content: str) -> None:
    (move,) = found(line)
    assert (move.kind, move.content, move.attribute) == (MemoryKind.PLAN, content, None)


def test_a_move_one_had_to_make_is_a_home() -> None:
    (home,) = found("I had to move to Leeds last year")
    assert (home.kind, home.attribute, home.value, home.valid_from.year) == (
        MemoryKind.FACT, "home_city", "Leeds", 2025)


@pytest.mark.parametrize("line", [
    "I have to move the car", "I might have to move to Leeds", "do we have to move to Leeds?",
    "my sister has to move to Leeds",
])
def test_no_move_of_a_thing_a_maybe_a_question_or_another_s(line: str) -> None:
    assert [c for c in found(line) if c.kind is MemoryKind.PLAN or c.attribute == "home_city"] == []


def test_what_starts_is_ahead_whatever_the_verb() -> None:
    (place,) = found("got a place on the PGCE at Sheffield Hallam starting September!")
    assert place.content == "Got a place on the PGCE at Sheffield Hallam starting in September 2026"
    assert place.valid_from == SAID_AT  # the place was got now; the course starts later
    (job,) = [c for c in found("I got a job at Aviva starting in June") if c.kind is MemoryKind.EVENT]
    assert "June 2026" in job.content


def test_s_been_is_has_been() -> None:
    (knee,) = found("my knee's been playing up again since the hike")
    assert knee.content == "Knee has been playing up again since the hike"
