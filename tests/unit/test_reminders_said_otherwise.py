"""A reminder asked for without "remind me to": "remind me about the dentist on Friday", "don't let
me forget to pay the gas bill", "make sure I remember to call mum on Sunday", "I mustn't forget
to ... on ..."; and a need's time kept in its words where the parser hangs it on "need". Not what
was forgotten, advice to anyone, or someone else's. Every sentence here is our own."""

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


@pytest.mark.parametrize(("line", "content", "due"), [
    ("remind me about the dentist on Friday", "The dentist on 20 March 2026", 20),
    ("remind me of the parents' evening on Thursday", "The parents' evening on 19 March 2026", 19),
    ("don't let me forget to pay the gas bill on the 3rd", "Pay the gas bill on 3 April 2026", None),
    ("make sure I remember to call mum on Sunday", "Call mum on 22 March 2026", 22),
    ("I mustn't forget to call mum on Sunday", "Call mum on 22 March 2026", 22),
    ("I must remember to water the plants tomorrow", "Water the plants on 19 March 2026", 19),
    ("I need to call the bank tomorrow", "Call the bank on 19 March 2026", 19),
    ("on Friday I need to pick up the kids", "Pick up the kids on 20 March 2026", 20),
])
def test_a_reminder_asked_for_in_other_words_is_a_dated_to_do(
        line: str, content: str, due: int | None) -> None:
    (todo,) = found(line)
    assert (todo.kind, todo.content) == (MemoryKind.TODO, content)
    assert todo.due_at is not None
    if due is not None:
        assert (todo.due_at.month, todo.due_at.day) == (3, due)


@pytest.mark.parametrize("line", [
    "remind me about it on Friday",  # what "it" is was said elsewhere
    "I forgot to call mum on Sunday",  # done, or not: past
    "don't forget to drink water",  # advice, to anyone
    "I always forget to drink water",
    "I can't remember to take my pills",
    "my husband must remember to call the plumber tomorrow",  # someone else's
    "I remember the day we met",
    "did I remember to pay the gas bill?",
    "let me remember to buy milk",
    "I mustn't forget to renew my passport",  # a duty with no time: nothing to remind of when
])
def test_no_reminder_from_memories_advice_or_another_s_duty(line: str) -> None:
    assert [c for c in found(line) if c.kind is MemoryKind.TODO] == []
