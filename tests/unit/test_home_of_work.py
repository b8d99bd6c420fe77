"""The city one works in now is, most often, the one they live in: kept as an inference (not
asserted), so that a home city the person states — in the same conversation or any other — wins.
Every sentence here is our own."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from domain.commands import Message
from domain.extraction.candidate import Candidate
from domain.extraction.rules import extract
from infra.nlp import english_parser

SAID_AT = datetime(2026, 9, 14, 10, 0, tzinfo=UTC)


def homes(*lines: str) -> list[Candidate]:
    found = extract([Message(role="user", content=line, timestamp=SAID_AT) for line in lines], SAID_AT,
                    english_parser())
    return [c for c in found if c.attribute == "home_city"]


@pytest.mark.parametrize(("line", "city"), [
    ("I'm a pharmacist at a chemist's in Porto.", "Porto"),
    ("I work as a welder at a shipyard in Gdansk", "Gdansk"),
    ("hey, I'm a junior designer at Canva in Sydney", "Sydney"),
])
def test_the_city_of_ones_work_now_is_an_inferred_home(line: str, city: str) -> None:
    (home,) = homes(line)
    assert (home.value, home.content, home.asserted) == (city, f"Lives in {city}", False)
    assert home.confidence < 0.9


@pytest.mark.parametrize("line", [
    "I was a pharmacist in Porto for years.",               # the past: not where they are now
    "I'm a pharmacist.",                                    # no city
    "I'd love to be a pharmacist in Porto.",                # a wish
    "Is there work for a pharmacist in Porto?",             # a question
    "My sister is a pharmacist in Porto.",                  # someone else's work
])
def test_no_home_is_inferred_from_past_wished_asked_or_others_work(line: str) -> None:
    assert homes(line) == []


def test_a_home_the_person_states_wins_over_the_one_inferred_from_work() -> None:
    (home,) = homes("I'm a nurse at the General in Leeds, but I live in York.")
    assert (home.value, home.asserted) == ("York", True)
    (home,) = homes("I'm a nurse at the General in Leeds.", "We live in Harrogate though.")
    assert (home.value, home.asserted) == ("Harrogate", True)
