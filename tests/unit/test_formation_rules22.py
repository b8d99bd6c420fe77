"""Round twenty-two of the offline rules (work in progress; fresh13's errors read, fresh14 held
out): a shortcut of chat is no name ("im tane btw"), words with a word cut out between them keep a
space, a state said "now" with a day is since that day, and more of the job a conversation is
about (a job got with no name, an offer from someone, the title said alone, "the Crookes job").
Every sentence is our own, none from a benchmark; each with what it must leave alone. Said on
Wednesday 20 May 2026."""

from __future__ import annotations

from datetime import date

import pytest

from domain.text.parse import Word, joined
from tests.unit.test_formation_rules13 import found
from tests.unit.test_formation_rules21 import starts


@pytest.mark.parametrize(("line", "name"), [("im rua btw, 19, a roofer", "Rua"), ("I'm Sam lol", "Sam")])
def test_a_name_beside_a_shortcut_of_chat_is_the_name(line: str, name: str) -> None:
    assert [c.value for c in found(line) if c.attribute == "name"] == [name]


@pytest.mark.parametrize("line", ["im starving btw", "im home btw", "I'm done lol", "im btw"])
def test_a_shortcut_of_chat_is_never_a_name(line: str) -> None:
    assert [c.value for c in found(line) if c.attribute == "name"] == []


def _word(i: int, text: str, space: str) -> Word:
    return Word(i, text, space, text, "NOUN", "NN", "dep", 0)


def test_words_with_one_cut_out_between_them_keep_a_space() -> None:
    cream, comma, salve = _word(0, "cream", ""), _word(1, ",", " "), _word(2, "salve", "")
    assert joined([cream, salve]) == "cream salve"
    assert joined([cream, comma, salve]) == "cream, salve"
    assert joined([_word(0, "check", ""), _word(1, "-", ""), _word(2, "in", "")]) == "check-in"


def test_where_one_lives_now_since_a_day_gone_is_since_then() -> None:
    home = [c for c in found("We moved! Now we live in Rathmines, from 12 May.")
            if c.attribute == "home_city"]
    assert [(c.kind.value, c.value, c.valid_from.date()) for c in home] == [
        ("fact", "Rathmines", date(2026, 5, 12))]


def test_a_plan_said_now_for_a_day_ahead_is_still_ahead() -> None:
    assert [c.content for c in found("Now I fly to Rome on Friday.")] == ["Flies to Rome on 22 May 2026"]


@pytest.mark.parametrize(
    ("lines", "memory"),
    [
        (("I got the job!!", "I start on 1 June."), "Starts the new job on 1 June 2026"),
        (("Big news: I accepted an offer from Brightwell, I start on 2 June.",),
         "Starts the new job at Brightwell on 2 June 2026"),
        (("I got the Ashby job!", "start on 4 July"), "Starts the Ashby job on 4 July 2026"),
        (("I got the job!", "Senior physiotherapist, starting 1 June."),
         "Starts as senior physiotherapist on 1 June 2026"),
    ],
)
def test_more_of_the_job_talked_of_is_kept_with_its_start(lines: tuple[str, ...], memory: str) -> None:
    assert starts(*lines) == [memory]


@pytest.mark.parametrize(
    "lines",
    [
        ("Senior physiotherapist, starting 1 June.",),  # a title alone, with no job talked of
        ("I got an email from Brightwell.", "I start on 2 June."),  # no job
    ],
)
def test_a_title_or_a_name_with_no_job_talked_of_starts_nothing(lines: tuple[str, ...]) -> None:
    assert starts(*lines) == []


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("We found an apartment in Ranelagh, we move on 15 August.",
         "Moves into an apartment in Ranelagh on 15 August 2026"),
        ("We found a flat in Leith, we get the keys on the 25th.",
         "Moves into a flat in Leith on 25 May 2026"),
        ("We found a house in Didsbury and we close on June 14th.",
         "Moves into a house in Didsbury on 14 June 2026"),
    ],
)
def test_a_home_found_with_the_day_one_moves_in_is_a_move_planned(line: str, memory: str) -> None:
    assert [c.content for c in found(line) if c.kind.value == "plan"] == [memory]


@pytest.mark.parametrize(
    "line",
    [
        "We found a flat, we might move on 3 June.",      # not set
        "We found a flat in Leeds, we move in the spring.",  # no day
        "I found a flat in Leeds last week.",             # no move said
        "We found the keys on the 25th.",                 # no home
    ],
)
def test_a_home_found_with_no_day_set_is_no_move_planned(line: str) -> None:
    assert [c for c in found(line) if c.kind.value == "plan"] == []


def test_a_place_written_from_after_a_move_holds_from_the_day_of_the_move() -> None:
    home = [c for c in found("Hello again, writing from Truro! We moved in on the 1st.")
            if c.attribute == "home_city"]
    assert [(c.value, c.valid_from.date()) for c in home] == [("Truro", date(2026, 5, 1))]
