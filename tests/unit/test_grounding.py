"""A model's candidate is kept only when it comes from the conversation: its words and names are
said there. Examples of our own, with the cases a rule must not drop."""

from __future__ import annotations

import pytest

from domain.extraction.grounding import ungrounded

TALK = """[0] user: Hey Mel! Good to see you. I went to the LGBTQ support group yesterday.
[1] assistant: That sounds meaningful, Caroline.
[2] user: My sister Maya moved to Lisbon last month; I'm thinking of becoming a counselor."""


@pytest.mark.parametrize(("content", "value", "entities"), [
    ("Went to an LGBTQ support group", None, []),
    ("Sister Maya moved to Lisbon in March", "Lisbon", ["Maya", "Lisbon"]),  # a date resolved
    ("Is thinking of becoming a counselor", None, []),
    ("Caroline's sister lives in Lisbon", "lisbon", []),                     # a possessive, any case
    ("Has 1 sister", None, []),                                               # a number, written out
])
def test_what_the_conversation_says_is_grounded(content: str, value: str | None, entities: list[str]) -> None:
    assert ungrounded(content, value, entities, TALK) is None


@pytest.mark.parametrize(("content", "value", "entities", "why"), [
    ("Works at Acme as a designer", "Acme", ["Acme"], "no word of it"),      # the prompt's example
    ("Works at Acme as a counselor", "Acme", ["Acme"], "acme"),
    ("Is vegetarian", "vegetarian", [], "no word of it"),
    ("Sister Maya moved to Porto", "Porto", [], "porto"),                    # a name not said
    ("Moved to Lisbon with Tom", None, [], "tom"),
    ("Likes the support group", None, ["Picasso"], "picasso"),                        # an entity not said
    ("Call the counselor on 11 March 2026", None, [], "prompt's example"),  # a copy, "call" not said
])
def test_what_the_conversation_does_not_say_is_not(content: str, value: str | None, entities: list[str],
                                                   why: str) -> None:
    reason = ungrounded(content, value, entities, TALK, ("Call the counselor on 11 March 2026",))
    assert reason is not None and why in reason


def test_the_prompts_example_said_in_the_conversation_is_kept() -> None:
    talk = TALK + "\n[3] user: Remind me to call the counselor tomorrow."
    assert ungrounded("Call the counselor on 11 March 2026", None, [], talk,
                      ("Call the counselor on 11 March 2026",)) is None
