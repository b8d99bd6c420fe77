"""How a person asks to be answered from now on, without saying "always": a request about answers
in general ("your replies", "long lists", "metric units"), one said "whenever you write", or one
given with a reason that is how the person is ("I read on the bus"). A request for one thing ("the
recipe", "this email"), or with a reason of the moment ("I'm in a hurry"), is for this answer
only. Every sentence here is our own."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from domain.commands import Message
from domain.extraction.candidate import Candidate
from domain.extraction.clauses import clauses, is_question
from domain.extraction.rules import extract
from domain.model import MemoryKind
from infra.nlp import english_parser

SAID_AT = datetime(2026, 5, 12, 8, 30, tzinfo=UTC)


def requests(line: str) -> list[str]:
    found: list[Candidate] = extract([Message(role="user", content=line, timestamp=SAID_AT)], SAID_AT,
                                     english_parser())
    return [c.content for c in found if c.kind is MemoryKind.PREFERENCE and c.extractor.endswith(":request")]


@pytest.mark.parametrize(("line", "memory"), [
    # about answers in general
    ("Please keep your replies under a page.", "Wants replies under a page"),
    ("Use metric units please", "Wants metric units"),
    ("Please always use metric units, not imperial.", "Wants metric units, not imperial"),  # the "not" asked
    ("Don't use exclamation marks.", "Does not want exclamation marks"),  # punctuation is of every answer
    ("don't send me long emails", "Does not want long emails"),
    ("And please skip the jargon, keep your explanations short", "Wants explanations kept short"),
    # said for whenever the assistant writes
    ("Please use British spelling when you write to me",
     "Wants British spelling when the assistant writes to them"),
    # with a reason that lasts
    ("keep it short, I read these on the bus", "Wants answers kept short"),
    ("okay, explain it slowly, I've never studied chemistry",
     "Wants the assistant always to explain things slowly"),
    ("I love football but don't tell me the results, I watch the replays", None),  # "the results": these ones
    ("I love football but please don't tell me scores, I watch the replays",
     "Wants the assistant never to tell them scores"),
    # a request put as a question
    ("could you give me shorter answers", "Wants shorter answers"),
])
def test_a_request_about_every_answer_is_a_lasting_preference(line: str, memory: str | None) -> None:
    assert requests(line) == ([memory] if memory else [])


@pytest.mark.parametrize("line", [
    "Please keep it short, I'm in a hurry.",            # a reason of the moment
    "Keep it brief, I need to leave in ten minutes.",
    "Give me the recipe, I cook for six.",              # one thing asked for, whatever the reason
    "Send me the summary, I read it on the train.",
    "Give me three ideas for dinner.",
    "Can you send me the file?",
    "Could you give me the answer to the second question?",
    "Tell me a joke.",
    "I keep my answers short in interviews.",           # the person's own habit, not a request
    "I use metric units at work.",
    "I cook and send photos to my sister every week.",  # a bare verb after a finite one, no request
    "If you keep your answers short I'll read them.",   # a condition
])
def test_a_request_for_this_answer_or_no_request_at_all_is_not_kept(line: str) -> None:
    assert requests(line) == []


def test_an_order_that_opens_with_dont_is_no_question() -> None:
    parser = english_parser()
    (order,) = parser.parse(["Don't use emojis, I find them silly."])[0]
    (question,) = parser.parse(["Don't you think that's too much?"])[0]
    assert not is_question(order)
    assert is_question(question)
    assert all(not c.asked for c in clauses(order))
