"""Round eighteen of the offline rules (rules/18): a plan said with "going to" ("I'm going to view a
flat on Saturday"); what one has done for one on a day ahead ("I'm getting my braces taken off on
the 28th"); sessions, lessons and infusions on a day; one's first or last day or shift, and the
workplace the same message named; a thing done, then a comma and an -ing of its own ("found a
flat, moving in on the 3rd"), whose day is ahead, not read into the past; who "we" are, listed
after a comma, no part of where one lives; an ex named; praise of a kind of answer as a
preference; what follows a condition after a comma that says no more of it; chat's "got" for an
appointment one has; a request after "when you ..."; someone one is seeing "by the way"; a
substance being given up, and the days counted since ("day 5"). Every sentence is our own, none
from a benchmark; each with what it must leave alone. Said on Wednesday 20 May 2026."""

from __future__ import annotations

import pytest

from domain.model import MemoryKind
from domain.text.english import typed_plainly
from tests.unit.test_formation_rules13 import contents, found
from tests.unit.test_formation_rules14 import by

# --- a plan said with "going to" -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("I'm going to present a poster in Lisbon on Friday.",
         "Is going to present a poster in Lisbon on 22 May 2026"),
        ("We're going to view a flat in Leith on Saturday.",
         "Is going to view a flat in Leith on 23 May 2026"),
        ("im gonna start a new job on monday", "Is going to start a new job on 25 May 2026"),
    ],
)
def test_what_one_is_going_to_do_on_a_day_is_a_plan(line: str, memory: str) -> None:
    assert [c.content for c in by(line, "plan")] == [memory]


@pytest.mark.parametrize(
    "line",
    [
        "I'm going to see how it goes on Monday.",  # no thing to do
        "I'm not going to buy a car on Saturday.",  # denied
        "Are you going to visit Cork next week?",  # asked
        "If I'm going to visit Cork next week I need a car.",  # supposed
        "I'm going to do it on Monday.",  # of what?
    ],
)
def test_going_to_says_no_plan_where_nothing_is_planned(line: str) -> None:
    assert not by(line, "plan")


def test_a_journey_with_a_reason_after_it_is_the_journey() -> None:
    # "to see my parents" is why one goes, not what one is going to do
    assert contents("We're going to Lyon in July to see my parents.") == [
        "Is going to Lyon in July 2026 to see their parents"]


# --- what one has done for one, on a day ahead ------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("I'm getting my braces taken off on the 28th.", "Is getting their braces taken off on 28 May 2026"),
        ("We're having the boiler serviced next Monday.", "Is having the boiler serviced on 25 May 2026"),
        ("I'm having my wisdom teeth out on Tuesday.", "Is having their wisdom teeth out on 26 May 2026"),
    ],
)
def test_what_one_has_done_on_a_day_ahead_is_a_plan(line: str, memory: str) -> None:
    made = by(line, "done_for_them")
    assert [c.content for c in made] == [memory] and made[0].kind is MemoryKind.PLAN


@pytest.mark.parametrize(
    "line",
    [
        "I'm getting it fixed on Monday.",  # what "it" is was said elsewhere
        "I had my wisdom teeth out on Tuesday.",  # done: no plan
        "Should I get my hair cut on Friday?",
        "I'm not having my teeth out on Tuesday.",
        "My sister is having her tonsils out on Monday.",  # hers
        "I'm having my doubts.",
    ],
)
def test_nothing_done_for_one_ahead_is_no_such_plan(line: str) -> None:
    assert not by(line, "done_for_them")


# --- sessions, lessons, infusions; one's first or last day -----------------------------------------


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("My chemo session is on the 2nd of June.", "Chemo session is on 2 June 2026"),
        ("I have a physio session on Tuesday.", "Has a physio session on 26 May 2026"),
        ("My driving lesson is on Thursday.", "Driving lesson is on 21 May 2026"),
        ("The last day in the warehouse is the 29th.", "Last day in the warehouse is on 29 May 2026"),
        ("First shift is Monday, a bit nervous.", "First shift is on 25 May 2026"),
        ("I handed in my notice at Brightwater, my last day is the 12th of June.",
         "Last day at Brightwater is on 12 June 2026"),
    ],
)
def test_a_session_or_a_first_or_last_day_on_a_day_ahead_is_a_plan(line: str, memory: str) -> None:
    assert memory in contents(line)


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("The last day of the sale is Monday.", None),  # the sale's
        ("I met Sam at Costa, my last day is Friday.", "Last day is on 22 May 2026"),  # no work said there
    ],
)
def test_a_last_day_is_not_anothers_nor_at_a_place_named_for_something_else(
        line: str, memory: str | None) -> None:
    assert [c.content for c in by(line, "scheduled")] == ([memory] if memory else [])


def test_a_thing_done_then_an_ing_after_a_comma_keeps_its_day_ahead() -> None:
    # the day was read with "found" into the past: "moving on 3 June 2025"; since rules/22 the home
    # found with the day one moves in is the move planned (test_formation_rules22.py)
    assert contents("Found a flat in Leith, moving in on the 3rd of June.") == [
        "Moves into a flat in Leith on 3 June 2026"]


# --- who "we" are, an ex named --------------------------------------------------------------------------


def test_who_we_are_listed_after_a_comma_is_no_part_of_where_one_lives() -> None:
    made = contents("We live in York, me and my husband Tom.")
    assert "Lives in York" in made and "Husband is named Tom" in made
    assert contents("We live in York, near the park.") == ["Lives in York near the park"]


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("My ex, Dave, keeps texting me.", "Ex-partner is named Dave"),
        ("my ex dave keeps texting me", "Ex-partner is named Dave"),
        ("my ex-wife Carla lives in Spain.", "Ex-wife is named Carla"),
    ],
)
def test_an_ex_named_is_kept_as_one(line: str, memory: str) -> None:
    made = [c for c in found(line) if c.kind is MemoryKind.PERSON]
    assert [c.content for c in made] == [memory] and made[0].attribute is None


@pytest.mark.parametrize(
    "line", ["I texted my ex last night.", "My sister's ex Tom is nice.", "Is my ex Dave right?"])
def test_an_ex_unnamed_or_anothers_is_no_memory(line: str) -> None:
    assert not [c for c in found(line) if c.kind is MemoryKind.PERSON]


def test_ex_hyphened_is_typed_as_two_words() -> None:
    assert typed_plainly("my ex-wife Carla") == "my ex wife Carla"
    assert typed_plainly("an ex-pat in Spain") == "an ex-pat in Spain"


# --- a kind of answer praised ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("Bullet points are perfect, I read these on the train.", "Prefers bullet points"),
        ("Short answers are great, keep doing that.", "Prefers short answers"),
        ("Table format is perfect, keep doing that.", "Prefers table format"),
    ],
)
def test_praise_of_a_kind_of_answer_is_a_preference(line: str, memory: str) -> None:
    made = by(line, "suits")
    assert [c.content for c in made] == [memory] and made[0].kind is MemoryKind.PREFERENCE


@pytest.mark.parametrize(
    "line", ["The answer is perfect.", "Mornings are perfect.", "My answers were great."])
def test_praise_of_one_answer_or_of_anything_else_is_no_preference(line: str) -> None:
    assert not by(line, "suits")


# --- what follows a condition after a comma -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("I've got hypothyroidism, 50 micrograms of levothyroxine every morning.", "Has hypothyroidism"),
        ("I've got diabetes, which is why I'm tired.", "Has diabetes"),
        # what says more of it stays
        ("I have low iron, because of the coeliac.", "Has low iron because of the coeliac"),
        ("I have type 2 diabetes, diagnosed in 2019.", "Has Type 2 diabetes, diagnosed in 2019"),
        ("I get migraines, bad ones, maybe twice a month.", "Gets migraines, bad ones, about twice a month"),
    ],
)
def test_a_condition_leaves_out_a_remark_or_a_dose_after_it(line: str, memory: str) -> None:
    assert [c.content for c in by(line, "condition")] == [memory]


# --- chat's "got" for an appointment; a request after "when you" ------------------------------------------


def test_got_an_appointment_on_a_day_is_one_had_for_that_day() -> None:
    assert contents("got a dentist appt on the 28th") == ["Has a dentist appointment on 28 May 2026"]
    assert typed_plainly("dentist appt, two appts") == "dentist appointment, two appointments"
    assert not contents("I got an appointment last week.")


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("When you write to me, please use simple words.", "Wants simple words"),
        ("When you reply, keep it short.", "Wants answers kept short"),
    ],
)
def test_a_request_after_when_you_is_a_request(line: str, memory: str) -> None:
    assert [c.content for c in by(line, "request")] == [memory]


@pytest.mark.parametrize("line", ["When do you open", "When will my parcel come"])
def test_a_question_opened_by_when_stays_a_question(line: str) -> None:
    assert not found(line)


def test_someone_one_is_seeing_by_the_way_is_named_after() -> None:
    assert "Partner is named Marco" in contents("I'm seeing someone, by the way. His name is Marco.")
    assert not contents("I'm seeing someone about the roof. His name is Marco.")


# --- a habit being given up, and the days counted since ------------------------------------------------


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("I'm quitting energy drinks.", "Is quitting energy drinks"),
        ("I'm cutting out caffeine.", "Is cutting out caffeine"),
        # the days counted since: the fifth day without them, given up four days before
        ("im quitting energy drinks, day 5 no energy drinks", "Quit energy drinks on 16 May 2026"),
        ("giving up sugar. like actually. day 3", "Gave up sugar on 18 May 2026"),
    ],
)
def test_a_substance_being_given_up_is_kept_with_the_days_counted(line: str, memory: str) -> None:
    assert [c.content for c in by(line, "given_up")] == [memory]


@pytest.mark.parametrize(
    "line",
    [
        "I'm giving up sugar next month.",  # ahead: not under way
        "I'm not giving up coffee.",
        "Should I be cutting out caffeine?",
        "My dad is quitting smoking.",  # his
    ],
)
def test_a_substance_not_being_given_up_by_the_person_now_is_no_memory(line: str) -> None:
    assert not by(line, "given_up")


def test_a_day_of_something_else_counts_nothing() -> None:
    assert [c.content for c in by("I'm giving up sugar. It's day 12 of the course.", "given_up")] == [
        "Is giving up sugar"]


def test_a_time_after_who_we_are_is_the_clauses_again() -> None:
    assert contents("We moved to Leeds, me and the kids, in 2019.") == ["Moved to Leeds in 2019"]
    assert contents("We live in Leeds, me and my husband, since 2015.") == ["Lives in Leeds since 2015"]
