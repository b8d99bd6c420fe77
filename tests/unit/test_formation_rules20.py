"""Round twenty of the offline rules (rules/20, work in progress): where one of the person's
people lives, said beside their name ("my sister Kate in Bristol") or by "he"/"she" after it ("my
son Declan is driving me, he lives in Limerick"); where the employer is, kept with it ("an actuary
at Travelers in Hartford"). Every sentence is our own, none from a benchmark; each with what it
must leave alone. Said on Wednesday 20 May 2026."""

from __future__ import annotations

import pytest

from tests.unit.test_formation_rules13 import found


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("My sister Kate in Bristol just had a baby.", "Has a sister named Kate who lives in Bristol"),
        ("My son Declan is driving me, he lives in Limerick with his wife.",
         "Has a son named Declan who lives in Limerick"),
        ("My sister Kate is visiting, she lives in Rome.", "Has a sister named Kate who lives in Rome"),
    ],
)
def test_where_one_of_theirs_lives_is_kept_with_them(line: str, memory: str) -> None:
    assert memory in [c.content for c in found(line) if c.kind.value == "person"]


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("My brother Sam is visiting, she lives in Rome.", "Has a brother named Sam"),  # she is someone else
        ("My sister Kate was in Bristol last week.", "Has a sister named Kate"),  # a visit
        ("My son Tom in hospital again.", "Has a son named Tom"),  # no town
    ],
)
def test_where_someone_else_lives_or_a_visit_is_not_where_they_live(line: str, memory: str) -> None:
    assert [c.content for c in found(line) if c.kind.value == "person"] == [memory]


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("I'm an actuary at Travelers in Hartford.", "Works at Travelers in Hartford"),
        ("I'm a UX researcher at Tidewell, a small health-tech company in Brighton.",
         "Works at Tidewell in Brighton"),
    ],
)
def test_where_the_employer_is_is_kept_with_it(line: str, memory: str) -> None:
    assert memory in [c.content for c in found(line) if c.attribute == "employer"]


@pytest.mark.parametrize("line", ["I'm a teacher at Leeds Grammar.", "I'm a nurse at St Mary's."])
def test_an_employer_with_no_city_said_has_none(line: str) -> None:
    assert all(" in " not in c.content for c in found(line) if c.attribute == "employer")


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("My son Bao came from San Diego for three days.", "Has a son named Bao who lives in San Diego"),
        ("My son Tom came from Leeds for the weekend.", "Has a son named Tom who lives in Leeds"),
        ("My mum Ewa came from Poland in 1985.", "Has a mum named Ewa"),  # came to stay: where from
        ("My son Tom came from Leeds.", "Has a son named Tom"),  # a visit or a move: not said
        ("We have a jack russell called Pip.", "Has a dog named Pip"),
    ],
)
def test_a_visit_over_now_says_where_they_live(line: str, memory: str) -> None:
    assert [c.content for c in found(line) if c.kind.value in ("person", "fact")] == [memory]


def test_a_headline_before_a_colon_is_no_part_of_the_statement() -> None:
    made = [c.content for c in found("Bit of an odd one: I'm a funeral director in Ballarat.")
            if c.attribute == "job_title"]
    assert made == ["Is a funeral director in Ballarat"]
    # a colon after the subject leaves the words before it
    made = [c.content for c in found("I moved to Lisbon last month: best move ever.")]
    assert "Moved to Lisbon in April 2026" in made
