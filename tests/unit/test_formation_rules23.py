"""Round twenty-three of the offline rules (fresh14's errors read, fresh15 held out): more of
what the person says of their people (where one lives, said by moving near them or staying at
theirs; what they do where; an age set beside the name, or said in the next sentence), a
hyphened name kept whole, the place of an introduction ("I'm Tom from Leeds") as a guess of home,
and a town a small model takes for a building. Every sentence is our own, none from a benchmark;
each with what it must leave alone. Said on Wednesday 20 May 2026."""

from __future__ import annotations

import pytest

from tests.unit.test_formation_rules13 import contents, found


def _people(line: str) -> list[str]:
    return sorted(c.content for c in found(line) if c.kind.value == "person")


# --- where one of theirs lives: moving near them, staying at theirs ------------------------------


@pytest.mark.parametrize(("line", "memory"), [
    ("My son Ravi keeps telling us to move up to Leeds near him.", "Has a son named Ravi who lives in Leeds"),
    ("Our daughter Mina wants us to move to Galway to be close to her.",
     "Has a daughter named Mina who lives in Galway"),
    ("My brother Olek said I can stay at his in Gdańsk for a bit.",
     "Has a brother named Olek who lives in Gdańsk"),
    ("my sister Ruth says I can crash at hers in Bristol", "Has a sister named Ruth who lives in Bristol"),
])
def test_where_one_would_move_to_be_near_them_or_stays_at_theirs_is_where_they_live(line: str,
                                                                                    memory: str) -> None:
    assert _people(line) == [memory]


@pytest.mark.parametrize("line", [
    "My son Ravi keeps telling us to move up to Leeds near her.",  # "her" is no son
    "My daughter Mina wants us to move to Galway, near her work.",  # near her work, not her
    "My sister Ruth and I went to Paris near her birthday.",  # no move
    "My brother Olek wants to move to Gdańsk to be near her.",  # someone else
])
def test_near_someone_else_or_something_of_theirs_says_nothing_of_where_they_live(line: str) -> None:
    assert not any("lives in" in m for m in _people(line))


# --- what they do, where ---------------------------------------------------------------------------


@pytest.mark.parametrize(("line", "memory"), [
    ("My daughter Ines is 22, she studies architecture in Porto.",
     "Has a daughter named Ines, aged 22, who studies architecture in Porto"),
    ("My sister Hana is a midwife in Brno.", "Has a sister named Hana who is a midwife in Brno"),
    ("My brother Kofi works in Accra as an electrician.",
     "Has a brother named Kofi who works in Accra as an electrician"),
])
def test_what_one_of_theirs_does_in_a_named_place_goes_with_their_name(line: str, memory: str) -> None:
    assert _people(line) == [memory]


@pytest.mark.parametrize("line", [
    "My brother Kofi is happy in Accra.",  # how he is there: no work
    "My brother Kofi is a nurse in Accra this week.",  # for a while
    "My sister Hana used to work in Brno.",  # no longer
    "My sister Hana doesn't work in Brno.",
    "My sister Hana might work in Brno.",
])
def test_a_mood_a_while_a_past_a_denial_or_a_maybe_adds_nothing_to_the_name(line: str) -> None:
    assert not any(" who " in m or " and " in m for m in _people(line))


# --- ages beside the name, or in the next sentence ------------------------------------------------


@pytest.mark.parametrize(("line", "memory"), [
    ("My son Tomás, 17, wants to be a pilot.", "Has a son named Tomás, aged 17"),
    ("I miss my grandson Eli, who is six.", "Has a grandson named Eli, aged 6"),
    ("My son Aled started at a new school. He is 11.", "Has a son named Aled, aged 11"),
    ("My daughter Sara is visiting. She works in Madrid as a vet.",
     "Has a daughter named Sara who works in Madrid as a vet"),
])
def test_an_age_beside_the_name_or_said_next_of_them_is_theirs(line: str, memory: str) -> None:
    assert _people(line) == [memory]


@pytest.mark.parametrize("line", [
    "My son Aled started at a new school. She is 11.",  # no son is "she"
    "My son Aled met his friend Gethin. He is 11.",  # which one?
    "My son Aled started at a new school. Is he 11?",
    "My son Aled started at a new school. He was 11 then.",
    "My daughter Sara is visiting. She might work in Madrid.",
    "My daughter Ana, who is not 5 yet, loves cats.",
    "My cousin Raj, 2024, went to India.",  # a year, no age
])
def test_another_one_a_question_a_past_or_a_denial_gives_no_age_or_work(line: str) -> None:
    assert not any(", aged" in m or " who " in m for m in _people(line))


# --- a name written with a hyphen -------------------------------------------------------------------


def test_a_name_written_with_a_hyphen_keeps_it() -> None:
    assert "Works for Nord-Bau since 2019" in contents("I work for Nord-Bau since 2019.")
    assert "Loves their job" in contents("I love my job - it is great.")  # a dash between words: no name


# --- the place of an introduction -------------------------------------------------------------------


@pytest.mark.parametrize(("line", "home"), [
    ("Hi, I'm Ewa from Kraków.", "Kraków"),
    ("Hello, I am Jonas from Vilnius, nice to meet you.", "Vilnius"),
])
def test_one_who_introduces_themselves_by_name_and_a_place_is_guessed_to_live_there(line: str,
                                                                                   home: str) -> None:
    homes = [c for c in found(line) if c.attribute == "home_city"]
    assert [(c.value, c.asserted) for c in homes] == [(home, False)]  # a guess: it may be where they grew up


@pytest.mark.parametrize("line", [
    "I'm Dutch from Utrecht.",  # a people, no name
    "I'm back from Kraków.",  # a trip
    "I was Ewa from Kraków.",
    "Am I Ewa from Kraków?",
])
def test_a_people_a_trip_a_past_or_a_question_gives_no_home(line: str) -> None:
    assert [c for c in found(line) if c.attribute == "home_city"] == []


def test_a_home_said_outright_wins_over_the_introductions_guess() -> None:
    line = "Hi, I'm Ewa from Kraków, I live in Oslo now."
    assert [c.value for c in found(line) if c.attribute == "home_city"] == ["Oslo"]


# --- a town a small model takes for a building ------------------------------------------------------


def test_a_town_tagged_as_a_facility_is_a_home_and_a_street_is_not() -> None:
    def homes(line: str) -> list[str | None]:
        return [c.value for c in found(line) if c.attribute == "home_city"]

    assert homes("I live in Hebden Bridge.") == ["Hebden Bridge"]
    assert homes("I live in Hope Street.") == []
