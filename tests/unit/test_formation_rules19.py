"""Round nineteen of the offline rules (rules/19): times people say of trips and bookings ("the
first week of August", "the last weekend in June", "at Easter", "14th to 21st July") and times that
are none ("first holiday in 3 years", "the weekend before"); "'s" before "on" or "getting" read as
"is"; a booking made now for a day ahead, however it is said ("I booked flights for July", "I'm
booked on a course", "we've got a caravan booked for June"); where one is away; an appointment with
a medic one "has" or who "wants to see me"; a day named by what happens on it ("moving day"); a
meal, a meeting or a follow-up on a day; a bill that falls due said without "my"; a condition
named in passing as one's own ("for my psoriasis", "my asthma inhaler"); animals named in two
words and horses by their sex. Every sentence is our own, none from a benchmark; each with what
it must leave alone. Said on Wednesday 20 May 2026."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from domain.extraction.times import easter, resolve_phrase
from domain.text.english import typed_plainly
from tests.unit.test_formation_rules13 import SAID_AT, contents, found
from tests.unit.test_formation_rules14 import by

# --- times of trips and bookings ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("phrase", "text", "start", "last"),
    [
        ("the first week of August", "in the first week of August 2026", date(2026, 8, 1), date(2026, 8, 7)),
        ("the second week of June", "in the second week of June 2026", date(2026, 6, 8), date(2026, 6, 14)),
        ("the last week of June", "in the last week of June 2026", date(2026, 6, 24), date(2026, 6, 30)),
        ("the last weekend in June", "on the last weekend of June 2026", date(2026, 6, 27),
         date(2026, 6, 28)),
        ("the first weekend of July 2027", "on the first weekend of July 2027", date(2027, 7, 3),
         date(2027, 7, 4)),
        ("14th to 21st July", "from 14 to 21 July 2026", date(2026, 7, 14), date(2026, 7, 21)),
        ("October 8th to 12th", "from 8 to 12 October 2026", date(2026, 10, 8), date(2026, 10, 12)),
        ("from the 3rd to the 9th of August", "from 3 to 9 August 2026", date(2026, 8, 3), date(2026, 8, 9)),
        ("at Easter", "at Easter 2027", date(2027, 3, 28), date(2027, 3, 28)),
        ("Easter Monday", "on Easter Monday 2027", date(2027, 3, 29), date(2027, 3, 29)),
    ],
)
def test_times_of_trips_and_bookings_are_read(phrase: str, text: str, start: date, last: date) -> None:
    when = resolve_phrase(phrase, SAID_AT, True)
    assert when is not None and (when.text, when.start, when.last_day()) == (text, start, last)


def test_a_span_must_run_forward_and_easter_is_the_churches_date() -> None:
    assert resolve_phrase("the 21st to the 14th of July", SAID_AT, True) is None
    assert resolve_phrase("31st to 33rd May", SAID_AT, True) is None
    assert [easter(y) for y in (2024, 2025, 2026, 2027)] == [
        date(2024, 3, 31), date(2025, 4, 20), date(2026, 4, 5), date(2027, 3, 28)]
    # said after this year's Easter, of the past: this year's
    when = resolve_phrase("at Easter", SAID_AT, False)
    assert when is not None and when.start == date(2026, 4, 5)


@pytest.mark.parametrize(
    "line",
    [
        "We finally went to Crete, our first holiday in 3 years.",
        "It was the best night out in two years.",
        "My mum's coming to help us pack the weekend before.",
        "We fly home the day after the wedding.",
    ],
)
def test_a_time_counted_from_another_is_no_time_of_its_own(line: str) -> None:
    assert not [c for c in found(line) if "2027" in c.content or "2028" in c.content or "2029" in c.content]
    assert not [c for c in found(line) if "weekend of" in c.content or "on 2" in c.content]


def test_a_time_in_years_from_now_is_still_read() -> None:
    assert "Starts the new job in the week of 1 June 2026" in contents("I start the new job in two weeks.")


# --- "'s" that is "is" ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "plain"),
    [
        ("Interview's on the 12th, over Zoom.", "Interview is on the 12th, over Zoom."),
        ("My brother's getting married in June.", "My brother is getting married in June."),
        ("Mum's in hospital again.", "Mum is in hospital again."),
        ("the ferry's booked for the 13th", "the ferry is booked for the 13th"),
        # whose: left as it is
        ("My sister's wedding is in June.", "My sister's wedding is in June."),
        ("Tom's car broke down.", "Tom's car broke down."),
        # somebody's place, after a preposition
        ("I'm driving to Tom's on Friday.", "I'm driving to Tom's on Friday."),
        ("I'm a pharmacist at a chemist's in Porto.", "I'm a pharmacist at a chemist's in Porto."),
        ("Dinner at my mum's on Sunday.", "Dinner at my mum's on Sunday."),
        # a degree
        ("I'm doing a master's in history.", "I'm doing a master's in history."),
        # a pronoun's contraction a parser reads well
        ("It's on Friday.", "It's on Friday."),
        ("Let's go.", "Let's go."),
    ],
)
def test_s_before_a_preposition_or_an_ing_is_is(typed: str, plain: str) -> None:
    assert typed_plainly(typed) == plain


def test_a_thing_on_a_day_written_with_s_is_a_plan() -> None:
    assert [c.content for c in by("Interview's on the 12th, over Zoom.", "scheduled")] == [
        "Interview is on 12 June 2026 over Zoom"]
    assert "Brother is getting married in June 2026" in contents("My brother's getting married in June.")


# --- a booking made now for a day ahead ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("I booked flights to Rome for July.", "Booked flights to Rome in July 2026"),
        ("We booked a trip to Nashville, October 8th to 12th.",
         "Booked a trip to Nashville, from 8 to 12 October 2026"),
        ("I'm booked on a pottery class on the 2nd.", "Is booked on a pottery class on 2 June 2026"),
        ("We've got a caravan booked for the second week of June.",
         "Has a caravan booked in the second week of June 2026"),
        ("I have a table booked at Dishoom for Friday.", "Has a table booked at Dishoom on 22 May 2026"),
        ("We've booked a cottage in Devon for the first week of August.",
         "Has booked a cottage in Devon in the first week of August 2026"),
        ("We sign the lease on Friday.", "Signs the lease on 22 May 2026"),
    ],
)
def test_a_booking_for_a_day_ahead_is_a_plan(line: str, memory: str) -> None:
    assert [c.content for c in by(line, "plan")] == [memory]


@pytest.mark.parametrize(
    "line",
    [
        "I booked a table for last Friday.",  # the day has passed
        "I've got a table booked.",  # for when?
        "She booked flights for July.",  # another's
        "Should I book flights for July?",  # asked
        "I signed the lease last Friday.",  # done
    ],
)
def test_a_booking_that_is_not_the_persons_or_not_ahead_is_no_plan(line: str) -> None:
    assert not [c for c in found(line) if c.kind.value == "plan"]


def test_where_one_is_away_on_a_day_ahead_is_a_plan() -> None:
    assert [c.content for c in by("I'm away in Portugal the first week of June.", "away")] == [
        "Is away in Portugal in the first week of June 2026"]
    assert not by("I was away in Spain last week.", "away")
    assert not by("My brother is away in Italy in June.", "away")


# --- appointments with a medic --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("I've got the dentist on Tuesday at 3.", "Has a dentist appointment on 26 May 2026 at 3"),
        ("My GP wants to see me again on Friday.", "Has an appointment with the GP on 22 May 2026"),
        ("My eye doctor, Dr. Okafor, wants to see me on June 24th for a pressure check.",
         "Has an appointment with the eye doctor, Dr. Okafor, on 24 June 2026 for a pressure check"),
        ("The physio wants to see me in two weeks.",
         "Has an appointment with the physio in the week of 1 June 2026"),
    ],
)
def test_an_appointment_with_a_medic_is_a_plan(line: str, memory: str) -> None:
    assert memory in [c.content for c in found(line) if c.kind.value == "plan"]


@pytest.mark.parametrize(
    "line",
    [
        "I have the doctor's number.",  # no appointment
        "I had the dentist on Tuesday.",  # passed
        "Her doctor wants to see her on Friday.",  # another's
        "My GP wanted to see me last week.",  # passed
        "The dentist wants to see me.",  # no day
        "My GP wants to see my results on Friday.",  # not the person
    ],
)
def test_what_is_no_appointment_of_the_persons_is_no_plan(line: str) -> None:
    assert not [c for c in found(line) if c.kind.value == "plan"]


# --- a day, a meal, a meeting, a bill -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("Moving day is 30 June.", "Moving day is on 30 June 2026"),
        ("Results day is 13 August.", "Results day is on 13 August 2026"),
        ("GI follow-up is on June 16th.", "GI follow-up is on 16 June 2026"),
        ("Team dinner is on Friday.", "Team dinner is on 22 May 2026"),
    ],
)
def test_a_day_named_by_what_happens_on_it_is_a_plan(line: str, memory: str) -> None:
    assert [c.content for c in by(line, "scheduled")] == [memory]


@pytest.mark.parametrize(
    "line",
    ["The big day is Saturday.", "Any day is fine.", "The meeting was great.", "Lunch is at noon.",
     "Every day is a struggle."],
)
def test_a_day_or_a_meal_that_is_not_the_persons_on_a_day_is_no_plan(line: str) -> None:
    assert not by(line, "scheduled")


def test_a_bill_that_falls_due_said_without_my_is_a_todo() -> None:
    made = by("Car rego is due on the 25th, remind me.", "falls_due")
    assert [(c.content, c.due_at) for c in made] == [
        ("Car rego is due on 25 May 2026", datetime(2026, 5, 25, tzinfo=UTC))]
    assert not by("The report is due Friday.", "falls_due")  # whose report?
    assert not by("Payment was due last week.", "falls_due")
    assert not by("Baby is due in August.", "falls_due")


# --- a condition named in passing ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("I'm already on a lot for my psoriasis.", "Has psoriasis"),
        ("I keep forgetting to put my glaucoma drops in.", "Has glaucoma"),
        ("Should I take my asthma inhaler on the hike?", "Has asthma"),
        ("I forgot my diabetes meds at home.", "Has diabetes"),
    ],
)
def test_a_condition_named_as_ones_own_in_passing_is_kept(line: str, memory: str) -> None:
    assert memory in [c.content for c in by(line, "condition")]


@pytest.mark.parametrize(
    "line",
    [
        "I bought a cream for her eczema.",  # hers
        "I donate to an asthma charity.",  # a kind of charity
        "I take antihistamines for my allergies.",  # to what?
        "I do yoga for my back.",  # no condition
        "My sister's asthma inhaler is in my bag.",  # the sister's
    ],
)
def test_a_condition_that_is_not_named_as_ones_own_is_not_kept(line: str) -> None:
    assert not [c for c in by(line, "condition") if c.content in (
        "Has eczema", "Has asthma", "Has allergies", "Has back")]


# --- animals -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "memory", "slot"),
    [
        ("I have a guinea pig named Fudge.", "Has a guinea pig named Fudge", "pet_guinea_pig"),
        ("We have a bearded dragon called Spike.", "Has a bearded dragon named Spike", "pet_bearded_dragon"),
        ("Juniper, my mare, threw a shoe.", "Has a horse named Juniper", "pet_horse"),
    ],
)
def test_an_animal_named_in_two_words_or_by_its_sex_is_a_pet(line: str, memory: str, slot: str) -> None:
    assert [(c.content, c.attribute) for c in found(line) if (c.attribute or "").startswith("pet_")] == [
        (memory, slot)]


@pytest.mark.parametrize("line", ["I smelled a rat.", "The pig farm down the road stinks.",
                                  "My neighbour's mare is lame."])
def test_an_animal_that_is_not_the_persons_is_no_pet(line: str) -> None:
    assert not [c for c in found(line) if (c.attribute or "").startswith("pet_")]


# --- an allergy said without "to"; a day said after a comma; "me" for "my" --------------------------------


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("I can't eat peanuts, I'm allergic.", "Is allergic to peanuts"),
        ("Can't have the sulfa antibiotics either, I'm allergic.", "Is allergic to sulfa antibiotics"),
        ("cant take ibuprofen cos im allergic so its paracetamol n vibes", "Is allergic to ibuprofen"),
        ("I'm allergic to shellfish, and we've got a team dinner on Friday.", "Is allergic to shellfish"),
    ],
)
def test_an_allergy_is_to_what_one_said_one_cannot_have(line: str, memory: str) -> None:
    assert [c.content for c in found(line) if c.content.startswith("Is allergic")] == [memory]


@pytest.mark.parametrize("line", ["I'm allergic.", "I ate the cake, I'm allergic though."])
def test_an_allergy_to_nothing_named_is_no_memory(line: str) -> None:
    assert not [c for c in found(line) if c.content.startswith("Is allergic")]


def test_a_time_before_a_comma_is_not_the_day_of_what_follows_it() -> None:
    line = "Well, it's official, I handed in my letter yesterday, my last day is September 30th."
    assert [c.content for c in by(line, "scheduled")] == ["Last day is on 30 September 2026"]
    # a time said first, with no comma, is still the thing's
    assert [c.content for c in by("Tomorrow my exam is at 9.", "scheduled")] == [
        "On 21 May 2026 exam is at 9"]


@pytest.mark.parametrize(
    ("typed", "plain"),
    [
        ("me girlfriend abbie says im a nightmare", "my girlfriend abbie says I'm a nightmare"),
        ("tyson (me staffie) is coming with me", "tyson (my staffie) is coming with me"),
        ("out with me mates tonight", "out with my mates tonight"),
        # a "me" a verb takes, or "me and ...", stays
        ("me and abbie are done", "me and abbie are done"),
        ("tell me mum said hi", "tell me mum said hi"),
        ("she sent me cat pictures", "she sent me cat pictures"),
    ],
)
def test_me_before_ones_people_is_my(typed: str, plain: str) -> None:
    assert typed_plainly(typed).lower() == plain.lower()


def test_a_partner_said_with_me_for_my_is_named() -> None:
    assert "Girlfriend is named Abbie" in contents("me girlfriend Abbie says im a nightmare atm haha")


# --- a request for whenever a thing happens between the two of them -------------------------------------


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("When you give me instructions, please number the steps.",
         "Wants the assistant always to number the steps when it gives them instructions"),
        ("If you're not sure about something, say so.",
         "Wants the assistant always to say so if it is not sure about something"),
        ("When I make mistakes in Spanish, please correct me.",
         "Wants the assistant always to correct them when they make mistakes in Spanish"),
        ("Whenever you compare options, please put them in a table.", "Wants options in a table"),
        ("When you write code for me, always add type hints.",
         "Wants the assistant always to add type hints when it writes code for them"),
    ],
)
def test_a_request_for_whenever_a_thing_happens_is_a_preference(line: str, memory: str) -> None:
    assert [c.content for c in by(line, "request")] == [memory]


@pytest.mark.parametrize(
    "line",
    [
        "When you get a chance, send me the file.",  # once
        "If you see Tom, tell him hi.",  # not an answer
        "When my boss calls, tell her I'm out.",  # another's doing
        "When I was little, correct spelling mattered a lot.",  # no request
        "If you want, send me the link.",  # once
    ],
)
def test_a_request_for_once_or_of_another_is_no_preference(line: str) -> None:
    assert not [c for c in found(line) if c.kind.value == "preference"]


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("Just give it to me straight.", "Wants answers straight"),
        ("and pls just give me the answer straight up, no lectures lol", "Wants the answer straight up"),
    ],
)
def test_answers_asked_to_be_given_a_way_are_a_preference(line: str, memory: str) -> None:
    assert [c.content for c in by(line, "request")] == [memory]


@pytest.mark.parametrize("line", ["Give me the answer now.", "Give it to me straight, is it cancer?",
                                  "She gave it to me straight."])
def test_one_answer_asked_for_is_no_preference(line: str) -> None:
    assert not [c for c in found(line) if c.kind.value == "preference"]


def test_please_shortened_is_please() -> None:
    assert typed_plainly("pls keep it short, plz") == "please keep it short, please"
    assert typed_plainly("Pls no emojis") == "Please no emojis"


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("I need to do the driving test too, mine is booked for 2 June at 9.",
         "Driving test is booked on 2 June 2026 at 9"),
        ("We both have exams, mine is on the 12th.", "Exam is on 12 June 2026"),
    ],
)
def test_mine_is_the_thing_just_named(line: str, memory: str) -> None:
    assert memory in [c.content for c in by(line, "scheduled")]


@pytest.mark.parametrize("line", ["My sister passed her test, mine is on the 12th.",
                                  "Mine is booked for Friday.", "I lost my keys, mine is blue."])
def test_mine_of_nothing_named_or_of_anothers_is_no_plan(line: str) -> None:
    assert not by(line, "scheduled")
