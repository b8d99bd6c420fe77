"""The offline extractor, rule by rule, with what each must leave alone; and one conversation in
which a person changes city and editor and asks for a reminder."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from domain.commands import Message
from domain.extraction.candidate import Candidate, importance
from domain.extraction.rules import extract
from domain.extraction.slots import canonical_slot
from domain.model import MemoryKind

SAID_AT = datetime(2026, 3, 10, 9, 0, tzinfo=UTC)


def found(*lines: str, role: str = "user") -> list[Candidate]:
    return extract([Message(role=role, content=line, timestamp=SAID_AT) for line in lines], SAID_AT)


def one(line: str) -> Candidate:
    (candidate,) = found(line)
    return candidate


@pytest.mark.parametrize(("line", "slot", "value"), [
    ("I moved to Lisbon last month.", "home_city", "Lisbon"),
    ("I've just relocated to New York.", "home_city", "New York"),
    ("I live in Rio de Janeiro with my family", "home_city", "Rio de Janeiro"),
    ("I'm based in Berlin these days.", "home_city", "Berlin"),
    ("I work at Globex as a designer.", "employer", "Globex"),
    ("I just started at Initech", "employer", "Initech"),
    ("I joined Hooli in 2024.", "employer", "Hooli"),
    ("I work as a data engineer at Umbrella.", "job_title", "data engineer"),
    ("My favourite colour is teal.", "favorite_color", "teal"),
    ("my favorite food is pad thai", "favorite_food", "pad thai"),
    ("I switched to Neovim last week.", "editor", "Neovim"),
    ("I switched my editor to Zed.", "editor", "Zed"),
    ("I prefer the dark theme.", "editor_theme", "dark"),
    ("My wife is called Maria.", "partner", "Maria"),
    ("My boss is Grace Hopper.", "manager", "Grace Hopper"),
    ("I'm vegetarian.", "diet", "vegetarian"),
])
def test_a_single_valued_statement_fills_its_slot(line: str, slot: str, value: str) -> None:
    candidate = one(line)
    assert (candidate.attribute, candidate.value) == (slot, value)
    assert candidate.content.rstrip(".").lower() == line.rstrip(".").lower()  # the person's own words
    assert candidate.asserted and candidate.positions == (0,)


@pytest.mark.parametrize(("line", "kind"), [
    ("I'm allergic to peanuts.", MemoryKind.FACT),
    ("I really love hiking in the Alps", MemoryKind.PREFERENCE),
    ("I don't like cilantro.", MemoryKind.PREFERENCE),
    ("I want to run a marathon next year.", MemoryKind.GOAL),
    ("My goal is to learn Rust", MemoryKind.GOAL),
    ("My sister is Anna.", MemoryKind.PERSON),
])
def test_statements_without_a_slot_keep_their_kind(line: str, kind: MemoryKind) -> None:
    candidate = one(line)
    assert candidate.kind is kind and candidate.attribute is None


@pytest.mark.parametrize("line", [
    "Hi there!", "Thanks, that helps a lot.", "Good morning", "ok",
    "Do you live in Lisbon?",                      # a question asserts nothing
    "If I moved to Paris, would I need a visa?",    # a hypothetical
    "I don't live in Berlin anymore.",              # a denial is no residence
    "I no longer work at ACME.",
    "My friend moved to Madrid.",                   # someone else
    "She works at Globex.",
    "I joined the team meeting late.",              # no name follows
    "My boss is annoying.",                         # not a name
    "I would like it if you were shorter.",
    "I started running again",
    "I love it!", "I like that.", "I really like this", "I like to think so",  # no thing to remember
])
def test_what_asserts_nothing_about_the_person_is_left_alone(line: str) -> None:
    assert found(line) == []


def test_the_assistants_words_are_not_the_persons() -> None:
    assert found("I live in Lisbon.", role="assistant") == []


@pytest.mark.parametrize(("line", "when"), [
    ("I moved to Lisbon last month.", datetime(2026, 2, 1, 9, 0, tzinfo=UTC)),  # a month: its start
    ("I've lived in Osaka since 2019.", datetime(2019, 1, 1, tzinfo=UTC)),
    ("I joined Hooli in March 2024.", datetime(2024, 3, 1, tzinfo=UTC)),
    ("I live in Lisbon.", SAID_AT),
])
def test_times_are_resolved_against_when_they_were_said(line: str, when: datetime) -> None:
    assert one(line).valid_from == when


def test_a_reminder_is_a_todo_due_when_it_says_also_when_asked_for() -> None:
    (todo,) = found("Can you remind me to renew my passport next Friday?")
    assert todo.kind is MemoryKind.TODO and todo.content == "Remind me to renew my passport next Friday"
    assert todo.due_at == datetime(2026, 3, 13, tzinfo=UTC) and todo.valid_from == SAID_AT
    (undated,) = found("Remind me to water the plants.")
    assert undated.due_at is None


def test_a_conversation_with_a_move_a_new_editor_and_a_reminder() -> None:
    said = [("user", "Hey! Big news: I moved to Lisbon last month."),
            ("assistant", "Congratulations! How do you like it?"),
            ("user", "Love it. Also I switched to VS Code from Vim, the Rust support is great."),
            ("user", "Please remind me to book the movers tomorrow at 10am.")]
    messages = [Message(role=role, content=text, timestamp=SAID_AT) for role, text in said]
    slots = {(c.attribute, c.value, c.positions) for c in extract(messages, SAID_AT) if c.attribute}
    assert slots == {("home_city", "Lisbon", (0,)), ("editor", "VS Code", (2,))}
    (todo,) = [c for c in extract(messages, SAID_AT) if c.kind is MemoryKind.TODO]
    assert todo.due_at == datetime(2026, 3, 11, 10, 0, tzinfo=UTC) and todo.positions == (3,)


def test_the_same_thing_said_twice_in_a_conversation_is_one_candidate_from_both_places() -> None:
    (candidate,) = found("I moved to Lisbon.", "Yes, I live in Lisbon now.")
    assert candidate.value == "Lisbon" and candidate.positions == (0, 1)


def test_importance_follows_the_documented_formula() -> None:
    preference = one("I prefer the dark theme.")               # 0.7 + 0.1 (confident)
    assert importance(preference) == 0.8
    event_like = Candidate(kind=MemoryKind.EVENT, content="Ran 10 km every day for a month",
                           valid_from=SAID_AT, confidence=0.5, extractor="test")  # 0.4 + 0.1 (concrete)
    assert importance(event_like) == 0.5
    assert importance(event_like, merges=3) == 0.8
    long = event_like.model_copy(update={"content": "x" * 101, "confidence": 0.9, "kind": MemoryKind.LESSON})
    assert importance(long, merges=2) == 1.0                    # capped


def test_slot_names_meet_in_one_canonical_slot() -> None:
    assert {canonical_slot(n) for n in ("city", "Home City", "lives_in", "home_city")} == {"home_city"}
    assert canonical_slot("Favourite Colour") == "favorite_color"
    assert canonical_slot("boss") == "manager" and canonical_slot("pet_name") == "pet_name"


def test_the_people_places_and_employers_named_are_typed_and_related_to_the_person() -> None:
    sister, city, work, goal = (one(line) for line in (
        "My sister is called Maya.", "I live in Porto.", "I work at Acme Corp.", "I want to visit Kyoto."))
    assert (sister.entity_types, [(r.subject, r.predicate, r.object) for r in sister.relations]) == \
        ((("Maya", "person"),), [(None, "sister", "Maya")])
    assert [(r.predicate, r.object) for r in city.relations] == [("lives_in", "Porto")]
    assert city.entity_types == (("Porto", "place"),)
    assert [(r.predicate, r.object) for r in work.relations] == [("works_at", "Acme Corp")]
    # A goal names a place, but says nothing of how the person stands to it now: no relation.
    assert goal.relations == () and goal.entity_types == ()


@pytest.mark.parametrize(("line", "kind"), [
    ("I adopted a rescue dog last spring.", MemoryKind.EVENT),
    ("We're thrilled: I got engaged in June!", MemoryKind.EVENT),
    ("I just graduated from nursing school.", MemoryKind.EVENT),
    ("I ran my first marathon in Berlin", MemoryKind.EVENT),
    ("Last summer I went to Japan with my sister.", MemoryKind.EVENT),
    ("I visited Lisbon in May.", MemoryKind.EVENT),
    ("I have two kids, both in school.", MemoryKind.FACT),
    ("I've got a cat named Miso.", MemoryKind.FACT),
    ("I've been married for 5 years.", MemoryKind.FACT),
    ("I'm a big fan of jazz.", MemoryKind.PREFERENCE),
    ("I'm a single mom.", MemoryKind.FACT),
    ("I am an artist who works with clay", MemoryKind.FACT),
    ("I'm thinking of going back to school.", MemoryKind.GOAL),
    ("I've decided to learn the piano", MemoryKind.GOAL),
    ("I'm saving up for a trip to Peru.", MemoryKind.GOAL),
])
def test_what_lasts_in_a_life_is_remembered_in_the_persons_words(line: str, kind: MemoryKind) -> None:
    candidate = one(line)
    assert candidate.kind is kind and candidate.attribute is None
    assert candidate.content.rstrip(".!").lower() == line.rstrip(".!").lower()


@pytest.mark.parametrize("line", [
    "I'm a bit tired today.", "I'm a mess this week.",               # passing
    "I went to the store.", "I went to bed early",                   # errands, and no place named
    "I have a meeting at 3.", "I have a question",                   # not a household
    "I'm thinking about it.",                                        # nothing to remember
    "Did you get married?", "I never won anything",                  # asked, denied
    "My sister adopted a dog.",                                      # someone else
    "If I got promoted, I'd buy a car.",                              # a hypothetical
])
def test_what_passes_or_is_someone_elses_is_left_alone(line: str) -> None:
    assert found(line) == []
