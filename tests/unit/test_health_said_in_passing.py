"""Health said the way people say it in a chat: a medicine one is put on, what a medicine is for, a
condition named by what it does to them ("my eczema flared up"), a state the parser splits
("lactose intolerant"), and a fact stated before a question in the same line ("I'm allergic to
nuts, how do I say that in French?"). Someone else's, and what has cleared, stay out. Every
sentence here is our own."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from domain.commands import Message
from domain.extraction.rules import extract
from domain.model import MemoryKind
from infra.nlp import english_parser

SAID_AT = datetime(2026, 6, 3, 19, 0, tzinfo=UTC)


def kept(line: str) -> set[tuple[str, str]]:
    found = extract([Message(role="user", content=line, timestamp=SAID_AT)], SAID_AT, english_parser())
    return {(c.kind.value, c.content) for c in found}


@pytest.mark.parametrize(("line", "memories"), [
    ("My GP put me on ramipril last month.", {("health", "Takes ramipril")}),
    ("the specialist has put me on omeprazole and ibuprofen",
     {("health", "Takes omeprazole"), ("health", "Takes ibuprofen")}),
    ("I'm on rivaroxaban for afib", {("health", "Takes rivaroxaban for afib"), ("health", "Has afib")}),
    ("I'm on sertraline.", {("health", "Takes sertraline")}),
    ("ugh, my eczema flared up again", {("health", "Has eczema")}),
    ("sinusitis is killing me today", {("health", "Has sinusitis")}),
    ("Also I'm lactose intolerant so go easy on the cheese", {("health", "Is lactose intolerant")}),
    ("I'm allergic to shellfish, how do I say that in Portuguese?", {("health", "Is allergic to shellfish")}),
    ("I live in Ghent, do you know any good bakeries?", {("fact", "Lives in Ghent")}),
])
def test_health_said_in_passing_is_kept(line: str, memories: set[tuple[str, str]]) -> None:
    assert kept(line) == memories


@pytest.mark.parametrize("line", [
    "My dad's asthma is playing up again.",           # someone else's
    "His gout flared up at the wedding.",
    "My eczema has cleared up.",                      # no longer theirs
    "They put me on hold for forty minutes.",         # put on something that is no medicine
    "The manager put me on the night rota.",
    "Is Tom on antibiotics?",                         # asked
    "Do you think I'm lactose intolerant, or is it something else?",
    "My sister says I'm allergic to cats, what do you think?",  # what another says, and asked
])
def test_someone_elses_or_no_health_is_not_kept(line: str) -> None:
    assert not {m for m in kept(line) if m[0] == MemoryKind.HEALTH.value}
