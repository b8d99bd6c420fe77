"""Where one works, unnamed: "I work at a bakery", "I work in a hospital", "I work in finance" are
kept as work (no employer slot: no name was given); not a workplace of the past, of someone else,
or a place one merely works in ("at my desk", "in the garden"). A filler's preposition leaves with
it ("for now"). Every sentence here is our own."""

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
    ("I work at a bakery", "Works at a bakery"),
    ("I work part time at a bakery", "Works part time at a bakery"),
    ("I work in a hospital", "Works in a hospital"),
    ("I work in finance", "Works in finance"),
    ("I'm working in a call centre for now", "Is working in a call centre"),
    ("I've been working at a care home since May", "Has been working at a care home since May 2025"),
])
def test_an_unnamed_workplace_or_field_is_where_one_works(line: str, content: str) -> None:
    (work,) = found(line)
    assert (work.kind, work.content, work.attribute) == (MemoryKind.FACT, content, None)


@pytest.mark.parametrize("line", [
    "I worked at a bakery when I was a student",  # then, not now
    "I work at my desk", "I work at night", "I work in the garden", "I work in a team of five",
    "do you work in finance?", "I don't work in retail any more",
])
def test_no_workplace_from_the_past_a_question_or_a_place_one_only_works_in(line: str) -> None:
    assert [c for c in found(line) if c.content.startswith(("Works", "Worked", "Is working"))] == []


def test_someone_else_s_workplace_is_theirs() -> None:
    (wife,) = found("my wife works at a bank")
    assert (wife.kind, wife.content) == (MemoryKind.PERSON, "Wife works at a bank")


def test_a_filler_s_preposition_leaves_with_it() -> None:
    (lives,) = found("I live with my sister for now")
    assert lives.content == "Lives with their sister"
