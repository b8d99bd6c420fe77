"""A turn read with the turns around it: what the text source indexes beside the turn itself."""

from datetime import UTC, datetime

import pytest

from domain.retrieval.turn_context import said_on, turn_contexts

MONDAY = datetime(2025, 3, 3, 9, 30, tzinfo=UTC)


def test_a_short_answer_carries_the_question_it_answers_and_the_reply_to_it() -> None:
    turns = ["Did you finally fix the boiler?", "Yes, on Saturday!", "Great, no more cold showers then.",
             "Anyway, how was the concert?"]
    contexts = turn_contexts(turns, [MONDAY] * 4)
    assert contexts[1] == ("3 March 2025. Did you finally fix the boiler? Yes, on Saturday! "
                           "Great, no more cold showers then.")
    # The words that make "Yes, on Saturday!" findable by a question about the boiler:
    assert "boiler" in contexts[1] and "boiler" not in turns[1]


def test_the_window_stops_at_the_episode_edges() -> None:
    turns = ["first", "second", "third", "fourth"]
    contexts = turn_contexts(turns, [MONDAY] * 4)
    assert contexts[0] == "3 March 2025. first second"
    assert contexts[3] == "3 March 2025. second third fourth"
    assert turn_contexts(["alone"], [MONDAY]) == ["3 March 2025. alone"]


def test_two_turns_before_and_one_after_by_default_and_other_windows_on_request() -> None:
    turns = [str(n) for n in range(6)]
    assert turn_contexts(turns, [None] * 6)[3] == "1 2 3 4"
    assert turn_contexts(turns, [None] * 6, before=0, after=0)[3] == "3"
    assert turn_contexts(turns, [None] * 6, before=3, after=2)[3] == "0 1 2 3 4 5"


def test_each_turn_carries_its_own_day_and_a_turn_without_one_none() -> None:
    later = datetime(2025, 3, 4, 0, 5, tzinfo=UTC)
    contexts = turn_contexts(["late at night", "just after midnight"], [MONDAY, later])
    assert contexts[0].startswith("3 March 2025. ")
    assert contexts[1].startswith("4 March 2025. ")
    assert said_on(None) == ""


def test_days_and_turns_must_pair_up() -> None:
    with pytest.raises(ValueError, match="one day per turn"):
        turn_contexts(["a", "b"], [MONDAY])
