"""A pet or relative named before what they are ("Pip, my budgie, ..."), and what one has been for
years and still is ("I've been a nurse for ten years"). Every sentence here is our own."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from domain.commands import Message
from domain.extraction.candidate import Candidate
from domain.extraction.rules import extract
from infra.nlp import english_parser

SAID_AT = datetime(2026, 7, 1, 12, 0, tzinfo=UTC)


def found(line: str) -> list[Candidate]:
    return extract([Message(role="user", content=line, timestamp=SAID_AT)], SAID_AT, english_parser())


@pytest.mark.parametrize(("line", "content"), [
    ("Pip, my budgie, has been squawking all morning.", "Has a budgie named Pip"),
    ("Anna, my sister, is coming over later", "Has a sister named Anna"),
])
def test_a_name_said_before_what_they_are_to_the_person_is_kept(line: str, content: str) -> None:
    assert [c.content for c in found(line)] == [content]


@pytest.mark.parametrize("line", [
    "Paris, my favourite city, is lovely in spring.",   # a place, no one of theirs
    "Rex, my neighbour's dog, barked all night.",       # someone else's pet
])
def test_a_name_before_what_is_not_theirs_is_not_kept(line: str) -> None:
    assert [c for c in found(line) if c.attribute and c.attribute.startswith("pet_")] == []
    assert [c for c in found(line) if c.kind.value == "person"] == []


@pytest.mark.parametrize(("line", "slot", "value"), [
    ("I've been a paramedic for twelve years.", "job_title", "paramedic"),
    ("I've been vegan since 2020.", "diet", "vegan"),
])
def test_what_one_has_been_for_years_and_still_is_is_kept(line: str, slot: str, value: str) -> None:
    assert [(c.attribute, c.value) for c in found(line) if c.attribute] == [(slot, value)]


@pytest.mark.parametrize("line", [
    "I've been a paramedic, I know what that's like.",  # once, no how long: maybe not now
    "I was a paramedic for twelve years.",              # the past
])
def test_what_one_has_been_once_fills_no_slot(line: str) -> None:
    assert [c for c in found(line) if c.attribute == "job_title"] == []
