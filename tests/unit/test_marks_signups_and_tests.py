"""Things that happened that a person would keep: a mark got in something assessed, a probation or
quiz passed, a course signed up for, a medical test had; tickets for a day ahead are a plan; a
clause of its own after a comma does not run into the memory. Every sentence here is our own."""

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


@pytest.mark.parametrize(("line", "kind", "content"), [
    ("I got an A in my chemistry exam!", MemoryKind.EVENT, "Got an A in their chemistry exam"),
    ("got 78 on the statistics midterm", MemoryKind.EVENT, "Got 78 on the statistics midterm"),
    ("I passed my probation last week", MemoryKind.EVENT,
     "Passed their probation in the week of 9 March 2026"),
    ("I signed up for a pottery course at the college", MemoryKind.EVENT,
     "Signed up for a pottery course at the college"),
    ("I had a blood test yesterday.", MemoryKind.HEALTH, "Had a blood test on 17 March 2026"),
    ("I've got tickets for the Arsenal game on the 28th", MemoryKind.PLAN,
     "Has tickets for the Arsenal game on 28 March 2026"),
])
def test_what_happened_or_is_booked_is_kept(line: str, kind: MemoryKind, content: str) -> None:
    assert [(c.kind, c.content) for c in found(line)] == [(kind, content)]


@pytest.mark.parametrize("line", [
    "I got a coffee on the way in.",          # no mark, nothing assessed
    "I got 3 emails from the school.",
    "I had a test yesterday.",                # a test of what? not said to be medical
    "I signed up yesterday.",                 # for nothing named
    "I have tickets.",                        # no day
    "My son got a B in his maths test.",      # someone else's mark
])
def test_what_is_no_event_of_theirs_is_not_kept(line: str) -> None:
    assert found(line) == []
