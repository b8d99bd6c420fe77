"""Round fourteen of the offline rules (rules/14): a medicine a medic started one on, moved one to,
changed the dose of, or one must take; a pastime taken up, an exam failed, a part of the body taken
out, an outing, a trip over, a job or a home found; "passed" for died; one's own name and a job
said beside it; the field one is in; a place typed in lower case; "the autumn" told in the past;
a date the parser runs a name into or leaves untagged; an aside after a comma and what follows
"so" left out. Every sentence is our own, none from a benchmark; each with what it must leave
alone (60 of these cases fail on rules/13)."""

from __future__ import annotations

from datetime import date

import pytest

from domain.extraction.candidate import Candidate
from domain.model import MemoryKind
from tests.unit.test_formation_rules13 import SAID_AT, contents, found  # said on Wednesday 20 May 2026


def by(line: str, rule: str) -> list[Candidate]:
    """What `rule` made of `line`."""
    return [c for c in found(line) if c.extractor.endswith(":" + rule)]


def one_of(line: str, rule: str) -> Candidate:
    made = by(line, rule)
    assert len(made) == 1, [c.content for c in found(line)]
    return made[0]


# --- a medicine a medic started, switched or changed ------------------------------------------------


@pytest.mark.parametrize(
    ("line", "memory", "since"),
    [
        ("my doctor started me on metformin in January", "Takes metformin", date(2026, 1, 1)),
        ("the GP switched me to sertraline last week", "Takes sertraline", date(2026, 5, 11)),
        ("she moved me onto omeprazole", "Takes omeprazole", SAID_AT.date()),
        ("they upped my dose of citalopram", "Takes citalopram", SAID_AT.date()),
        ("the consultant halved my prednisolone dose", "Takes prednisolone", SAID_AT.date()),
        # the parser runs the medicine's name into the date after it; the date is still read
        ("my GP put me on ramipril last month", "Takes ramipril", date(2026, 4, 1)),
    ],
)
def test_a_medicine_a_medic_started_or_changed_is_one_taken(line: str, memory: str, since: date) -> None:
    medicine = one_of(line, "medicine")
    assert (medicine.kind, medicine.content, medicine.valid_from.date()) == (MemoryKind.HEALTH, memory, since)


@pytest.mark.parametrize(
    "line",
    [
        "I switched my phone to silent",  # no medicine
        "we switched to oat milk",
        "she doubled the recipe",
        "my doctor might switch me to sertraline",  # supposed
        "did they up your dose of citalopram?",  # asked, and of someone else
        "the doctor started me on a new diet",
        "I started on the night shift",
    ],
)
def test_no_medicine_changed_is_no_medicine_taken(line: str) -> None:
    assert not by(line, "medicine")


# --- a pastime taken up ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "memory", "since"),
    [
        ("I started running in January", "Started running in January 2026", date(2026, 1, 1)),
        ("I've started swimming", "Has started swimming", SAID_AT.date()),
        ("I started doing pilates again", "Started doing pilates again", SAID_AT.date()),
        ("I started playing chess last month", "Started playing chess in April 2026", date(2026, 4, 1)),
        ("I took up pottery in the winter", "Took up pottery in winter 2025", date(2025, 12, 1)),
        ("I've taken up knitting", "Has taken up knitting", SAID_AT.date()),
    ],
)
def test_a_pastime_taken_up_is_a_habit(line: str, memory: str, since: date) -> None:
    habit = one_of(line, "habit")
    assert (habit.content, habit.valid_from.date()) == (memory, since)


@pytest.mark.parametrize(
    "line",
    [
        "I started walking home",  # one occasion
        "I started crying when I saw the photos",
        "I started running when the bus came",
        "I started cooking dinner",
        "my son started running",  # someone else
        "I'm going to start running",  # ahead: a plan or a wish, not a habit
        "I took up the offer",
        "it took up the whole afternoon",
        "I took up the running of the club",
        "I might take up golf",
    ],
)
def test_what_is_no_pastime_begun_is_no_habit(line: str) -> None:
    assert not by(line, "habit")


# --- "the autumn" told in the past -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("I took up yoga in the autumn", "Took up yoga in autumn 2025"),  # said in May: the last autumn
        ("I started cycling in the spring", "Started cycling in spring 2026"),  # this one, begun
        ("we're moving to Oslo in the autumn", "Is moving to Oslo in autumn 2026"),  # ahead: the coming one
    ],
)
def test_the_season_told_in_the_past_is_the_last_one_begun(line: str, memory: str) -> None:
    assert memory in contents(line)


# --- the field one is in -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("I'm in sales, mostly cars", "Works in sales"),
        ("I'm in HR", "Works in HR"),
        ("I'm in finance now", "Works in finance"),
        ("I work in payroll at a hospital trust", "Works in payroll at a hospital trust"),
    ],
)
def test_the_field_one_is_in_is_where_one_works(line: str, memory: str) -> None:
    assert memory in contents(line)


@pytest.mark.parametrize(
    "line",
    [
        "I'm in Paris",
        "I'm in pain",
        "I'm in a sales meeting",
        "I'm in law school",
        "I was in sales for years",  # once
        "are you in sales?",
        "my brother is in finance",
    ],
)
def test_being_in_what_is_no_field_is_no_work(line: str) -> None:
    assert not any(c.startswith("Works in") for c in contents(line))


# --- an aside after a comma --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("I'm a nurse, night shifts mostly", "Is a nurse"),
        ("I'm a plumber, a good one", "Is a plumber"),
        ("I'm retired, used to be a bus driver", "Is retired"),
    ],
)
def test_an_aside_after_a_comma_is_left_out_of_the_memory(line: str, memory: str) -> None:
    assert memory in contents(line)


def test_two_things_joined_by_and_stay_one_memory() -> None:
    assert "Is a nurse and a mum" in contents("I'm a nurse and a mum")


# --- a dose of a medicine; a pet named after it is said ----------------------------------------------


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("i take 10mg of amlodipine daily", "Takes 10mg of amlodipine daily"),
        ("I take two puffs of salbutamol before football", "Takes two puffs of salbutamol before football"),
    ],
)
def test_a_dose_of_a_medicine_taken_is_health(line: str, memory: str) -> None:
    medicine = one_of(line, "medicine")
    assert (medicine.kind, medicine.content) == (MemoryKind.HEALTH, memory)


@pytest.mark.parametrize("line", ["I take 20mg of sugar in my tea", "I take a spoonful of honey"])
def test_a_dose_of_no_medicine_is_no_medicine(line: str) -> None:
    assert not [c for c in found(line) if c.kind is MemoryKind.HEALTH]


def test_a_pet_named_after_it_is_said_is_one_memory() -> None:
    assert contents("we've got a dog, his name's Biscuit") == ["Has a dog named Biscuit"]
    # a count says more than the one named: both stay
    assert "Has three dogs" in contents("we have three dogs, one is called Biscuit")


# --- what happened: an exam failed, a part taken out, an outing, a trip over ------------------------


@pytest.mark.parametrize(
    ("line", "kind", "memory"),
    [
        ("I failed my theory test on Monday", MemoryKind.EVENT, "Failed their theory test on 18 May 2026"),
        ("had my wisdom teeth out last week", MemoryKind.HEALTH,
         "Had their wisdom teeth out in the week of 11 May 2026"),
        ("I had my tonsils removed in March", MemoryKind.HEALTH, "Had their tonsils removed in March 2026"),
        ("got my cast off yesterday", MemoryKind.HEALTH, "Got their cast off on 19 May 2026"),
        ("we went camping last weekend", MemoryKind.EVENT, "Went camping on the weekend of 16 May 2026"),
        ("I went fishing with my uncle on Sunday", MemoryKind.EVENT,
         "Went fishing with their uncle on 17 May 2026"),
        ("just got back from Vienna", MemoryKind.EVENT, "Got back from Vienna"),
        ("we're going kayaking on Saturday", MemoryKind.PLAN, "Is going kayaking on 23 May 2026"),
        ("we're going hiking in the Dolomites in July", MemoryKind.PLAN,
         "Is going hiking in the Dolomites in July 2026"),
    ],
)
def test_what_happened_or_is_ahead_is_kept(line: str, kind: MemoryKind, memory: str) -> None:
    assert (kind, memory) in [(c.kind, c.content) for c in found(line)]


@pytest.mark.parametrize(
    "line",
    [
        "my son failed his exam",  # someone else's
        "I failed to call her back",
        "I might fail the exam",
        "I had my hair cut on Friday",  # no part of the body taken out
        "I got my coat off",
        "my daughter had her tonsils out",
        "I need to get my stitches out",  # ahead, and no day
        "I'm going shopping tomorrow",  # an errand, no outing
        "I went camping once",  # when?
        "they went camping last weekend",
        "do you go hiking?",
        "I got back from work late",  # no place
        "got back from my run",
    ],
)
def test_what_is_no_such_happening_is_left_alone(line: str) -> None:
    assert not [c for c in found(line) if c.kind in (MemoryKind.EVENT, MemoryKind.PLAN, MemoryKind.HEALTH)]


# --- chat's lower case and shortcuts -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "memory", "home"),
    [
        ("i live in leeds", "Lives in Leeds", "Leeds"),
        ("i live in glasgow w my partner", "Lives in Glasgow with their partner", "Glasgow"),
        ("we moved from manchester to bristol last year", "Moved from Manchester to Bristol in 2025",
         "Bristol"),
        ("im a nurse in leeds", "Lives in Leeds", "Leeds"),
    ],
)
def test_a_place_typed_in_lower_case_is_a_place(line: str, memory: str, home: str) -> None:
    assert (memory, home) in [(c.content, c.value) for c in found(line) if c.attribute == "home_city"]


@pytest.mark.parametrize(
    "line",
    [
        "i'm in bath",  # the word before the place: a large place's name is read as it, a small one's not
        "i live in bed these days lol",
        "moving to nice things",
        "i'm in reading mode",
    ],
)
def test_a_word_that_names_a_small_place_too_is_read_as_the_word(line: str) -> None:
    assert not [c for c in found(line) if c.attribute == "home_city"]


def test_only_a_place_after_a_preposition_of_where_is_written_as_a_name() -> None:
    from infra.nlp.places import places_capitalised

    assert places_capitalised("we moved to lagos from berlin") == "we moved to Lagos from Berlin"
    assert places_capitalised("dinner at leeds") == "dinner at leeds"  # "at": no preposition of where
    assert places_capitalised("off to david's later") == "off to david's later"  # someone's home
    assert places_capitalised("back in march") == "back in march"  # a month, and a small place


# --- one's own name ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "name"),
    [
        ("my name is Ines", "Ines"),  # read as a plural noun ("ine"), and as a product
        ("My name's Ines", "Ines"),
        ("hi, I'm Olga", "Olga"),
        ("I'm Olga, 34, from Braga", "Olga"),
    ],
)
def test_ones_own_name_is_kept_whatever_the_model_took_it_for(line: str, name: str) -> None:
    made = one_of(line, "name")
    assert (made.content, made.attribute, made.value) == (f"Is named {name}", "name", name)


@pytest.mark.parametrize("line", ["I'm British", "I'm Polish", "I'm Gemini", "I'm Sam's mum",
                                  "my name is not Ines", "is your name Ines?", "my name is long"])
def test_what_is_no_name_of_theirs_is_no_name(line: str) -> None:
    assert not [c for c in found(line) if c.attribute == "name"]


# --- "passed" for "passed away", "yrs" for "years", a number the parser strays -------------------------


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("my mom passed in 2019", "Mom passed away in 2019"),
        ("my grandad passed last year", "Grandad passed away in 2025"),
    ],
)
def test_one_of_theirs_who_passed_died(line: str, memory: str) -> None:
    assert memory in contents(line)


@pytest.mark.parametrize("line", ["my mom passed her driving test", "my dad passed by",
                                  "my sister passed through Leeds in May", "the storm passed last night"])
def test_what_passed_that_is_no_death_is_none(line: str) -> None:
    assert not by(line, "their_people")


def test_a_unit_of_time_as_chat_shortens_it_is_read() -> None:
    # "yrs" read as a name broke the sentence: nothing was kept
    diet = [c.content for c in found("been a vegetarian for 10 yrs") if c.attribute == "diet"]
    assert diet == ["Is vegetarian"]


def test_a_number_the_parser_strays_from_a_part_left_out_goes_with_it() -> None:
    assert "Wants to run a marathon" in contents("i want to run a marathon before i turn 40")


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("my GP diagnosed me with hypothyroidism", "Was diagnosed with hypothyroidism"),
        ("the consultant diagnosed me with MS last year", "Was diagnosed with MS in 2025"),
    ],
)
def test_a_medic_diagnosing_one_is_a_diagnosis(line: str, memory: str) -> None:
    assert memory in contents(line)


@pytest.mark.parametrize("line", ["my GP diagnosed my son with asthma",
                                  "a friend diagnosed me with a sweet tooth",
                                  "did the doctor diagnose you with anything?"])
def test_a_diagnosis_of_someone_else_or_by_no_medic_is_none(line: str) -> None:
    assert not by(line, "diagnosis")


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("I'm lactose intolerant so no milk please", "Is lactose intolerant"),
        ("I'm vegan so no cheese on mine", "Is vegan"),
    ],
)
def test_what_follows_so_is_not_part_of_what_they_are(line: str, memory: str) -> None:
    assert memory in contents(line)


@pytest.mark.parametrize(
    ("line", "name", "job"),
    [
        ("Hi! I'm Nadia, a freelance translator.", "Nadia", "freelance translator"),
        ("I'm Tom, a nurse at St Mary's", "Tom", "nurse"),  # the name is Tom's alone
    ],
)
def test_a_job_said_beside_ones_name_is_kept_with_it(line: str, name: str, job: str) -> None:
    assert [(c.attribute, c.value) for c in found(line) if c.attribute in ("name", "job_title")] == [
        ("name", name), ("job_title", job)]


def test_no_job_beside_the_name_is_none() -> None:
    assert [c.attribute for c in found("I'm Tom, a huge fan of yours")] == ["name"]


# --- a move done, a day of the month untagged, "from now on" -------------------------------------------


@pytest.mark.parametrize(
    ("line", "home"),
    [
        ("we're in Bristol now, finally unpacked", "Bristol"),
        ("I'm in Leeds now, all settled in", "Leeds"),
        ("we're in our new flat in Glasgow", "Glasgow"),
    ],
)
def test_where_one_is_having_moved_in_is_home(line: str, home: str) -> None:
    assert [c.value for c in found(line) if c.attribute == "home_city"] == [home]


@pytest.mark.parametrize("line", ["I'm in Rome now, the hotel is lovely", "I'm in Paris now",
                                  "we're in Lisbon, settled into the hotel", "were you in Bristol?",
                                  "are we in Bristol now that we've unpacked?",  # asked
                                  "we're not in Leeds yet, still unpacking in York",  # denied
                                  "if we're in Leeds by then, settled in, I'll call"])  # supposed
def test_where_one_is_without_moving_in_is_no_home(line: str) -> None:
    # rules/21: "I'm in Paris now" is a guess at home (not asserted; test_formation_rules21.py)
    assert not [c for c in found(line) if c.attribute == "home_city" and c.asserted]


def test_a_day_of_the_month_the_model_does_not_tag_is_still_a_day() -> None:
    todo = one_of("remind me to give notice to the landlord by the 31st", "reminder")
    assert (todo.content, todo.due_at and todo.due_at.date()) == (
        "Give notice to the landlord by 31 May 2026", date(2026, 5, 31))
    assert not [c for c in found("I live on the 3rd floor") if c.due_at or "2026" in c.content]


def test_from_now_on_is_no_particle_of_the_verb() -> None:
    assert "Wants answers in bullet points from now on" in contents(
        "please give me answers in bullet points from now on")


# --- a medicine one must take, a job or a home found, "like" for "as" ------------------------------------


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("I must take statins now", "Takes statins"),
        ("I have to take metformin every day", "Takes metformin every day"),
    ],
)
def test_a_medicine_one_is_bound_to_take_is_taken(line: str, memory: str) -> None:
    assert memory in contents(line)


@pytest.mark.parametrize("line", ["I might have to take statins", "must I take statins?",
                                  "I had to take the bus", "I have to take the bins out"])
def test_no_medicine_bound_to_be_taken_is_none(line: str) -> None:
    assert not by(line, "medicine")


def test_a_dose_bound_to_be_taken_on_a_day_is_a_todo() -> None:
    assert [c.kind for c in found("I have to take my tablets at 9 tonight")] == [MemoryKind.TODO]


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("I found a new job in Geneva!", "Found a new job in Geneva"),
        ("we found a flat in Didsbury last week", "Found a flat in Didsbury in the week of 11 May 2026"),
    ],
)
def test_a_job_or_a_home_found_is_an_event(line: str, memory: str) -> None:
    assert memory in contents(line)


def test_keys_found_are_nothing_to_keep() -> None:
    assert found("I found my keys") == []


def test_working_like_a_cook_is_working_as_one() -> None:
    job = one_of("I am working like a cook in a restaurant", "job")
    assert (job.content, job.value) == ("Is working as a cook in a restaurant", "cook")
    assert not [c for c in found("I work like a dog") if c.attribute == "job_title"]
