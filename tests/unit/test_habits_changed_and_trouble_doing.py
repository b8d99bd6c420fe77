"""A habit changed ("I cycle to work now instead of driving", "I've switched to oat milk") is kept as
how the person lives now; trouble with what the body does ("I've been having trouble sleeping") is
their health, trouble with anything else is not; a word the parser misreads as punctuation stays in
the memory. Every sentence here is our own."""

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
    ("I cycle to work now instead of driving", "Cycles to work instead of driving"),
    ("I drink green tea now", "Drinks green tea"),
    ("I walk everywhere these days", "Walks everywhere these days"),
    ("I read the news on my phone now instead of the paper",
     "Reads the news on their phone instead of the paper"),
])
def test_what_one_does_now_or_instead_is_a_habit(line: str, content: str) -> None:
    (habit,) = found(line)
    assert (habit.kind, habit.content) == (MemoryKind.FACT, content)


@pytest.mark.parametrize("line", [
    "I get it now", "I understand now, thanks", "I know now", "I feel better now",
    "I'll do it now", "can I go now", "I'm reading it now", "I want it now",
])
def test_now_alone_makes_no_habit_of_a_moment(line: str) -> None:
    assert found(line) == []


@pytest.mark.parametrize(("line", "content"), [
    ("I've switched to oat milk", "Has switched to oat milk"),
    ("I switched to decaf last month", "Switched to decaf in February 2026"),
])
def test_switching_to_a_thing_is_kept_with_when(line: str, content: str) -> None:
    (switch,) = found(line)
    assert (switch.kind, switch.content) == (MemoryKind.PREFERENCE, content)
    assert switch.attribute is None  # no editor, no slot: a thing, not a tool with a name


@pytest.mark.parametrize("line", [
    "I switched to it", "I changed to something else", "my sister switched to oat milk",
    "I might switch to oat milk", "should I switch to oat milk?",
])
def test_no_switch_to_a_pronoun_of_someone_else_or_of_a_maybe(line: str) -> None:
    assert found(line) == []


@pytest.mark.parametrize(("line", "content"), [
    ("I've been having trouble sleeping lately", "Has been having trouble sleeping lately"),
    ("I have difficulty swallowing", "Has difficulty swallowing"),
    ("I have trouble breathing when I climb stairs", "Has trouble breathing when they climb stairs"),
    ("I've had trouble sleeping for months", "Has had trouble sleeping for months"),
])
def test_trouble_with_what_the_body_does_is_health(line: str, content: str) -> None:
    (health,) = found(line)
    assert (health.kind, health.content) == (MemoryKind.HEALTH, content)


@pytest.mark.parametrize("line", [
    "I have trouble finding a flat",  # no health
    "I have trouble with my landlord",
    "my son has trouble sleeping",  # someone else's
    "I don't have any trouble sleeping",
    "do you have trouble sleeping?",
    "I had trouble sleeping last night",  # one night
])
def test_no_health_from_other_trouble_or_other_people(line: str) -> None:
    assert [c for c in found(line) if c.kind is MemoryKind.HEALTH] == []


def test_a_word_misread_as_punctuation_stays_in_the_memory() -> None:
    (goal,) = found("I want to get my weight down to 80 kilos")
    assert goal.content == "Wants to get their weight down to 80 kilos"


@pytest.mark.parametrize(("line", "kind", "name", "said"), [
    ("we got a puppy last weekend, a beagle called Biscuit", "dog", "Biscuit", ", a beagle"),
    ("we adopted a rescue greyhound, Luna", "dog", "Luna", ", a greyhound"),
    ("my lab Bonnie is nine now", "dog", "Bonnie", ", a 9-year-old lab"),  # the breed and age said kept
    ("I got a tabby called Pickle", "cat", "Pickle", ", a tabby"),
    ("I have a dog called Rolo", "dog", "Rolo", ""),
])
def test_a_pet_named_by_its_breed_or_after_a_comma_is_theirs(line: str, kind: str, name: str,
                                                             said: str) -> None:
    (pet,) = [c for c in found(line) if c.attribute and c.attribute.startswith("pet_")]
    memory = f"Has a {kind} named {name}{said}"
    assert (pet.attribute, pet.value, pet.content) == (f"pet_{kind}", name, memory)


@pytest.mark.parametrize("line", [
    "I'd love a dog called Waffles",  # wished for
    "I want a cat called Mochi one day",
    "if I got a dog named Rex",  # supposed
    "we had a dog called Bruno when I was a kid",  # long gone
    "I used to have a collie named Jess",
    "we didn't get a dog called Rex",
    "my neighbour's beagle called Rex barks all night",  # someone else's
    "my lab results came back fine",  # a lab that is no dog
])
def test_no_pet_of_theirs_that_is_wished_for_gone_or_another_s(line: str) -> None:
    assert [c for c in found(line) if c.attribute and c.attribute.startswith("pet_")] == []


@pytest.mark.parametrize("line", [
    "we adopted a cat, her name is Biscuit",  # the name read as a noun
    "also adopted a cat, her name's Biscuit",  # "name's", and the "I" left out
])
def test_a_pet_named_in_the_same_line_after_a_comma(line: str) -> None:
    (pet,) = [c for c in found(line) if c.attribute == "pet_cat"]
    assert (pet.value, pet.content) == ("Biscuit", "Has a cat named Biscuit")


def test_a_pet_got_by_someone_else_is_not_theirs() -> None:
    assert [c for c in found("my brother adopted a cat, her name is Bella") if c.attribute] == []


def test_a_count_of_one_a_day_is_no_pointer() -> None:
    (goal,) = found("trying to cut down on energy drinks too, down to one a day")
    assert goal.kind is MemoryKind.GOAL and "down to one a day" in goal.content
    assert found("I want that one") == []
