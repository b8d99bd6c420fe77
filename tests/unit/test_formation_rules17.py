"""Round seventeen of the offline rules (rules/17): names typed in lower case read as names ("my
brother sean", "a kitten called mochi"); what is booked for a day ahead is a plan ("my flight is
booked for the 3rd of june"); a day told twice ("next friday, the 29th") is one day, the one the
date names; a month typed in lower case after a word of time ("end of june"); a to-do whose time was
said in a clause of its own says by when; an age said as a bare number, or as the years one "has";
"home is Swansea"; what one is at a named organisation is one's work; a pet's name does not run on
into the breed said beside it. Every sentence is our own, none from a benchmark; each with what it
must leave alone."""

from __future__ import annotations

import pytest

from domain.model import MemoryKind
from domain.text.english import typed_plainly
from tests.unit.test_formation_rules13 import contents, found
from tests.unit.test_formation_rules14 import by

# --- names typed in lower case ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("finally got a kitten called mochi, shes tiny", "Has a cat named Mochi"),
        ("my brother sean lives in galway now", "Has a brother named Sean who lives in Galway"),
        ("went to the match w my mate kieran", "Has a mate named Kieran"),
        ("my husband rob just got a new job", "Husband is named Rob"),
        ("me n my girlfriend chloe share a flat", "Girlfriend is named Chloe"),
    ],
)
def test_a_name_typed_in_lower_case_is_read_as_a_name(line: str, memory: str) -> None:
    assert memory in contents(line)


@pytest.mark.parametrize(
    "line",
    [
        "i have to give my landlord notice by friday",  # a thing given, no one named Notice
        "my dad jokes are the worst lol",  # a plural: the jokes
        "my sister works in a bank",  # a verb
        "my mates ticket got lost",  # "mates" is whose ticket
        "my friend group is tiny now",  # a word of the dictionary, not a name
        "my wife work is crazy",  # her work, the "'s" not typed
        "my boss man is annoying",
        "my brother inlaw got a new car",
        "My brother sean lives in Galway.",  # one who writes names with capitals wrote none here
    ],
)
def test_a_word_after_a_role_that_is_no_name_stays_as_typed(line: str) -> None:
    assert not [c for c in found(line) if c.kind is MemoryKind.PERSON and "named" in c.content]


# --- what is booked, and the day it is for ---------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("my flight is booked for the 3rd of june", "Flight is booked on 3 June 2026"),
        ("The flights are booked for the 12th.", "Flights are booked on 12 June 2026"),
        ("my driving test is booked for the 2nd of july, so nervous",
         "Driving test is booked on 2 July 2026"),
    ],
)
def test_what_is_booked_for_a_day_ahead_is_a_plan(line: str, memory: str) -> None:
    made = by(line, "scheduled")
    assert [c.content for c in made] == [memory]
    assert made[0].kind is MemoryKind.PLAN


@pytest.mark.parametrize(
    "line",
    [
        "the room was booked for last friday",  # gone by: the booking says nothing
        "his train is booked for the 12th",  # someone else's
        "we move to leeds, on the 2nd of june, the van is booked",  # the day is the move's
    ],
)
def test_no_plan_from_a_booking_that_is_past_someone_elses_or_of_another_days(line: str) -> None:
    assert not by(line, "scheduled")


def test_a_move_whose_van_is_booked_keeps_its_day() -> None:
    line = "we move to leeds, on the 2nd of june, the van is booked"
    assert "Moves to Leeds on 2 June 2026" in contents(line)


def test_a_weekday_and_a_date_said_together_are_the_day_the_date_names() -> None:
    # said on Wednesday 20 May: "next friday" alone is the 22nd; with "the 29th", the 29th
    assert "Appointment is on 29 May 2026" in contents("my appointment is next friday, the 29th")
    assert "Appointment is on 22 May 2026" in contents("my appointment is next friday")


def test_a_month_in_lower_case_after_a_word_of_time_gets_its_capital() -> None:
    assert typed_plainly("moving end of june") == "moving end of June"
    assert typed_plainly("since may I have") == "since May I have"
    assert typed_plainly("i may go") == "I may go"  # a verb
    assert typed_plainly("the march was long") == "the march was long"


# --- a to-do says by when --------------------------------------------------------------------------


def test_a_to_do_whose_time_was_said_in_a_clause_of_its_own_says_by_when() -> None:
    made = by("the lease runs out on the 30th, i need to find a new flat", "need")
    assert [c.content for c in made] == ["Find a new flat by 30 May 2026"]
    assert made[0].due_at is not None and made[0].due_at.day == 30


def test_a_to_do_with_its_time_in_it_is_written_as_before() -> None:
    made = by("I need to call the bank tomorrow", "need")
    assert [c.content for c in made] == ["Call the bank on 21 May 2026"]


# --- an age ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("I'm 45.", "Is 45 years old"),
        ("I'm 72 and retired now.", "Is 72 years old"),
        ("I have 52 years, I live in Porto.", "Is 52 years old"),
    ],
)
def test_an_age_said_bare_or_as_years_had_says_years_old(line: str, memory: str) -> None:
    assert memory in contents(line)


@pytest.mark.parametrize(
    "line",
    [
        "I have 10 years of experience in sales.",
        "I have 5 years left on the mortgage.",
        "I have 3 years.",  # no one who chats of themselves is 3
        "We have 40 years to pay it back.",
    ],
)
def test_years_one_has_of_something_are_no_age(line: str) -> None:
    assert not [c for c in found(line) if c.extractor.endswith(":age")]


# --- home, work, a pet -----------------------------------------------------------------------------


def test_home_named_is_where_one_lives() -> None:
    made = by("Home is Swansea these days.", "residence")
    assert [(c.content, c.attribute, c.value) for c in made] == [("Lives in Swansea", "home_city", "Swansea")]


@pytest.mark.parametrize(
    "line", ["Home was Cardiff when I was a kid.", "Home is a caravan for now.", "His home is Cork."]
)
def test_home_that_was_is_no_city_or_is_someone_elses_is_no_residence(line: str) -> None:
    assert not by(line, "residence")


@pytest.mark.parametrize(
    ("line", "title", "employer"),
    [
        ("I'm a conservator at Tate Modern.", "conservator", "Tate Modern"),
        ("I'm a paintings conservator at the National Galleries.", "paintings conservator",
         "National Galleries"),
    ],
)
def test_what_one_is_at_a_named_organisation_is_ones_work(line: str, title: str, employer: str) -> None:
    slots = {(c.attribute, c.value) for c in found(line)}
    assert ("job_title", title) in slots and ("employer", employer) in slots


@pytest.mark.parametrize(
    "line", ["I'm a regular at the Crown.", "I'm a patient at St Mary's.", "I'm a nervous wreck at Heathrow."]
)
def test_what_one_is_at_a_place_that_is_no_work_gives_no_job(line: str) -> None:
    assert not [c for c in found(line) if c.attribute in ("job_title", "employer")]


def test_a_pets_name_does_not_run_into_the_breed_beside_it() -> None:
    assert [c.value for c in by("My cat Miso, a Siamese, sleeps all day.", "pet")] == ["Miso"]


def test_type_2_diabetes_in_lower_case_is_a_condition() -> None:
    assert "Has Type 2 diabetes" in contents("I have type 2 diabetes, I take metformin with meals.")


# --- tastes and ways of answering ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("I like answers that get to the point.", "Likes answers that get to the point"),
        ("I like films that make me cry.", "Likes films that make them cry"),
        ("I don't like people who shout.", "Does not like people who shout"),
    ],
)
def test_what_is_said_of_the_thing_liked_stays_with_it(line: str, memory: str) -> None:
    assert memory in contents(line)


def test_a_liking_with_nothing_said_of_its_thing_is_written_as_before() -> None:
    assert "Loves the cafe on the corner" in contents("I love the cafe on the corner.")


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("dont like when u use bullet points btw", "Does not want the assistant to use bullet points"),
        ("love it when you give examples", "Wants the assistant to give examples"),
    ],
)
def test_how_answers_are_liked_said_without_the_i_that_opens_the_line(line: str, memory: str) -> None:
    assert memory in contents(line)


@pytest.mark.parametrize("line", ["hate when my boss calls", "does she like when you call?"])
def test_someone_elses_ways_or_a_question_are_no_wish_of_how_to_answer(line: str) -> None:
    assert not [c for c in found(line) if c.kind is MemoryKind.PREFERENCE]


# --- what one stopped ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("I've given up driving.", "Has given up driving"),
        ("I gave up running last year.", "Gave up running in 2025"),
        ("I've stopped running.", "Has stopped running"),
    ],
)
def test_a_way_of_living_given_up_is_kept(line: str, memory: str) -> None:
    assert memory in contents(line)


@pytest.mark.parametrize(
    "line", ["I stopped walking when it rained.", "I'll give up running.", "I stopped cooking dinner."]
)
def test_one_occasion_or_a_time_ahead_is_no_habit_given_up(line: str) -> None:
    assert not by(line, "given_up_habit")


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("I stopped taking omeprazole last month.", "Stopped taking omeprazole in April 2026"),
        ("I've stopped the omeprazole.", "Has stopped taking omeprazole"),
        ("I came off sertraline in March.", "Stopped taking sertraline in March 2026"),
    ],
)
def test_a_medicine_stopped_is_health(line: str, memory: str) -> None:
    assert [c.content for c in by(line, "medicine_stopped")] == [memory]


@pytest.mark.parametrize(
    "line", ["I'll stop taking it.", "She stopped her pills.", "I stopped taking the bus."]
)
def test_no_medicine_stopped_where_none_of_the_persons_is(line: str) -> None:
    assert not by(line, "medicine_stopped")


@pytest.mark.parametrize(
    "line", ["also me and chloe split up last weekend", "chloe and i split up last weekend"]
)
def test_one_named_in_lower_case_beside_the_person_is_a_name(line: str) -> None:
    assert "Split up with Chloe on the weekend of 16 May 2026" in contents(line)


def test_a_thing_paired_with_the_person_stays_as_typed() -> None:
    assert not [c for c in found("me and work don't get along") if "Work" in c.content]


def test_a_gathering_one_holds_on_a_day_ahead_is_a_plan() -> None:
    assert "Is having a barbecue on 23 May 2026" in contents("We're having a barbecue on Saturday.")
    assert not [c for c in found("I'm having dinner with Sam on Friday.") if c.kind is MemoryKind.PLAN]
