"""How the person likes to be answered, said of the assistant's ways ("I hate it when you use
emojis"); living alone; a bad back the parser reads as an adverb. Not someone else's ways, not a
wish about what "that" was, not a lukewarm "I don't hate it". Every sentence here is our own."""

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
    ("I hate when you use emojis", "Does not want the assistant to use emojis"),
    ("I don't like it when you use emojis", "Does not want the assistant to use emojis"),
    ("I love it when you explain with examples", "Wants the assistant to explain with examples"),
])
def test_what_one_likes_or_hates_the_assistant_doing_is_how_to_answer(line: str, content: str) -> None:
    (wish,) = found(line)
    assert (wish.kind, wish.content) == (MemoryKind.PREFERENCE, content)


@pytest.mark.parametrize("line", [
    "I hate when my boss calls me",  # someone else's ways
    "I hate it when you do that",  # what "that" was is elsewhere
    "I hated it when you did that",
    "I don't hate it when you use emojis",
    "do you like it when I ask questions?",
    "I'd love it if you used emojis",
])
def test_no_wish_from_another_s_ways_a_pointer_or_a_maybe(line: str) -> None:
    assert [c for c in found(line) if c.kind is MemoryKind.PREFERENCE] == []


@pytest.mark.parametrize("line", ["I live alone", "I live on my own", "I live by myself now"])
def test_living_alone_is_the_household(line: str) -> None:
    (home,) = found(line)
    assert (home.kind, home.content) == (MemoryKind.FACT, "Lives alone")


@pytest.mark.parametrize("line", ["I don't live alone", "my mum lives alone", "I live on my own terms"])
def test_no_living_alone_denied_or_another_s(line: str) -> None:
    assert [c for c in found(line) if c.content == "Lives alone"] == []


def test_living_alone_with_animals_keeps_them() -> None:
    (home,) = found("I live alone with two cats")
    assert home.content == "Lives alone with two cats"


def test_a_bad_back_is_health_however_the_parser_reads_back() -> None:
    (back,) = found("I have a bad back")
    assert (back.kind, back.content) == (MemoryKind.HEALTH, "Has a bad back")
    assert [c for c in found("I had a bad back years ago") if c.kind is MemoryKind.HEALTH] == []
    assert found("I have to go back") == []


@pytest.mark.parametrize("line", [
    "can you do bullet points from now on, long paragraphs do my head in",
    "do bullet points from now on please",
])
def test_doing_a_part_of_answers_for_good_is_how_to_answer(line: str) -> None:
    (wish,) = found(line)
    assert (wish.kind, wish.content) == (MemoryKind.PREFERENCE, "Wants bullet points from now on")


@pytest.mark.parametrize("line", ["can you do the shopping from now on", "do a table for this one"])
def test_no_wish_from_doing_another_thing_or_one_answer(line: str) -> None:
    assert found(line) == []


@pytest.mark.parametrize(("line", "content"), [
    ("Please write larger text, my eyes are poor.", "Wants the assistant always to write larger text"),
    ("keep it short, I'm dyslexic", "Wants answers kept short"),
    ("can you not use so many exclamation marks", "Does not want so many exclamation marks"),
])
def test_a_request_for_good_for_how_the_person_is(line: str, content: str) -> None:
    assert content in [c.content for c in found(line) if c.kind is MemoryKind.PREFERENCE]


@pytest.mark.parametrize("line", ["keep it short, I'm in a hurry", "keep it short, I'm tired"])
def test_no_request_for_good_for_how_busy_today(line: str) -> None:
    assert found(line) == []
