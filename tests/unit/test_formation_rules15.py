"""Round fifteen of the offline rules (rules/15): an occupation known by its ending or a known one
written into it; the organisation one is a job "with"; a learner's job without its article; a
name typed in lower case after the word for who it is; "my manager's a guy named ..."; a habit
quit in a line that goes on with someone else's words; "yday", "tmrw", "next yr"; a medicine the
parser misreads, and its dose said after a comma; "goal is to ..." with no "my"; "I've got a check
on the 20th"; a job applied for, or offered; what a medic said it is; "remind me, on the 28th I
must ...". Every sentence is our own, none from a benchmark; each with what it must leave alone."""

from __future__ import annotations

from datetime import date

import pytest

from domain.model import MemoryKind
from tests.unit.test_formation_rules13 import SAID_AT, contents, found  # said on Wednesday 20 May 2026
from tests.unit.test_formation_rules14 import by, one_of


def slots(line: str) -> set[tuple[str | None, str | None]]:
    return {(c.attribute, c.value) for c in found(line) if c.attribute}


# --- what one does, and for whom --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "title"),
    [
        ("I'm a hydrologist at the Environment Agency.", "hydrologist"),  # an ending only a job has
        ("I'm a neurosurgeon.", "neurosurgeon"),  # a known job written into it
        ("I am a songwriter, mostly for other people.", "songwriter"),
        ("I'm a mortician in a small town.", "mortician"),
        ("I'm a choreographer.", "choreographer"),
    ],
)
def test_an_occupation_is_known_by_its_ending_or_the_job_inside_it(line: str, title: str) -> None:
    assert ("job_title", title) in slots(line)


@pytest.mark.parametrize("line", ["I'm a homeowner now.", "I'm a hard worker.", "I'm a morning person."])
def test_a_word_that_only_ends_like_a_job_is_none(line: str) -> None:
    assert not [s for s in slots(line) if s[0] == "job_title"]


def test_the_organisation_one_is_a_job_with_employs_one() -> None:
    line = "I'm a paramedic with the London Ambulance Service."
    assert ("job_title", "paramedic") in slots(line)
    assert ("employer", "London Ambulance Service") in slots(line)


@pytest.mark.parametrize("line", ["I'm a teacher with two kids.", "I'm a nurse with Tomasz on nights."])
def test_a_job_with_people_names_no_employer(line: str) -> None:
    assert not [s for s in slots(line) if s[0] == "employer"]


def test_a_job_said_without_its_article_is_written_with_it() -> None:
    job = one_of("I am pharmacist in a small town.", "job")
    assert (job.content, job.value) == ("Is a pharmacist in a small town", "pharmacist")


# --- who is who, typed in lower case, or said with what kind of person they are ---------------------


@pytest.mark.parametrize(
    ("line", "memory", "slot"),
    [
        ("my bf daniel is cooking tonight, bless him", "Boyfriend is named Daniel", ("partner", "Daniel")),
        ("my wife helen is away till sunday", "Wife is named Helen", ("partner", "Helen")),
    ],
)
def test_a_name_typed_in_lower_case_after_who_it_is_and_read_as_a_name_is_one(line: str, memory: str,
                                                               slot: tuple[str, str]) -> None:
    assert memory in contents(line)
    assert slot in slots(line)


@pytest.mark.parametrize(
    "line",
    [
        "my girlfriend really likes it",  # no name
        "my dog barks at night",
        "My boyfriend tomas is cooking.",  # written with capitals: a lower-case word is no name there
    ],
)
def test_a_lower_case_word_is_a_name_only_where_it_reads_as_one(line: str) -> None:
    assert not [c for c in found(line)
                if c.kind is MemoryKind.PERSON or (c.attribute or "").startswith("pet_")]


@pytest.mark.parametrize(
    ("line", "memory", "slot"),
    [
        ("my manager's a guy named ollie, very laid back", "Manager is named Ollie", ("manager", "Ollie")),
        ("boss up here is a woman called Renata", "Boss is named Renata", ("manager", "Renata")),
        ("My landlord is a lovely old man called Ferris.", "Landlord is named Ferris", None),
        ("the supervisor's a bloke called kev, decent enough", "Supervisor is named Kev", None),
    ],
)
def test_one_of_theirs_said_as_a_kind_of_person_then_named(line: str, memory: str,
                                                           slot: tuple[str, str] | None) -> None:
    assert contents(line) == [memory]
    if slot:
        assert slot in slots(line)


@pytest.mark.parametrize(
    "line",
    [
        "my manager was a guy named Ollie",  # someone they had
        "is my boss a guy called Ollie?",
        "the waiter was a guy named Tim",
        "my neighbour is a man who never sleeps",  # no name given
    ],
)
def test_no_name_is_given_where_none_is_said_of_theirs_now(line: str) -> None:
    assert not [c for c in found(line) if c.kind is MemoryKind.PERSON]


# --- a habit quit, a day as chat shortens it --------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("quit the vape a month ago, my sister bet me I'd last a week", "Quit the vape in April 2026"),
        ("also quit fizzy drinks this week, the dentist said no more sugar",
         "Quit fizzy drinks in the week of 18 May 2026"),
    ],
)
def test_a_habit_quit_before_someone_elses_words_is_the_persons(line: str, memory: str) -> None:
    assert one_of(line, "given_up").content == memory


@pytest.mark.parametrize("line", ["quit the gym last month, too pricey",
                                  "quit my book club, the dentist said so"])
def test_quitting_what_is_no_habit_is_no_habit_given_up(line: str) -> None:
    assert not by(line, "given_up")


def test_a_first_part_with_no_subject_is_the_persons_and_the_rest_is_not() -> None:
    moved = contents("moved to Bristol in March, my brother helped with the van")
    assert "Moved to Bristol in March 2026" in moved
    assert not found("need to buy milk, my mum said")


@pytest.mark.parametrize(
    ("line", "due"),
    [
        ("remind me to call the bank tmrw", date(2026, 5, 21)),
        ("remind me to ring the garage 2moro", date(2026, 5, 21)),
    ],
)
def test_a_day_as_chat_shortens_it_is_read(line: str, due: date) -> None:
    todo = one_of(line, "reminder")
    assert todo.due_at is not None and todo.due_at.date() == due


def test_next_yr_is_next_year() -> None:
    assert "Wants to save 8k for a deposit by the end of 2027" in contents(
        "goal now is to save 8k for a deposit by the end of next yr")


# --- a medicine, and what a medic said it is ----------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "memory", "since"),
    [
        ("I started sertraline yesterday.", "Started sertraline on 19 May 2026", date(2026, 5, 19)),
        ("started citalopram yday, 20mg, feeling a bit dizzy tbh",
         "Started citalopram 20mg on 19 May 2026", date(2026, 5, 19)),
        ("I started lisdexamfetamine last week", "Started lisdexamfetamine in the week of 11 May 2026",
         date(2026, 5, 11)),
    ],
)
def test_a_medicine_started_is_taken_whatever_the_parser_reads_it_as(line: str, memory: str,
                                                                   since: date) -> None:
    medicine = one_of(line, "medicine")
    assert (medicine.kind, medicine.content, medicine.valid_from.date()) == (MemoryKind.HEALTH, memory, since)


@pytest.mark.parametrize("line", ["I started slowly yesterday.",
                                  "I started early today, 20 minutes before the rest"])
def test_starting_no_medicine_is_none(line: str) -> None:
    assert not by(line, "medicine")


def test_what_else_one_must_do_is_no_part_of_the_medicine() -> None:
    taken = one_of("I must take amoxicillin for a week and rest", "medicine")
    assert taken.content == "Takes amoxicillin for a week"


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("the GP says it's tendonitis", "Has tendonitis"),
        ("the physio says it's a hamstring tear", "Has a hamstring tear"),
        ("The doctor says yes, is asthma.", "Has asthma"),  # as a learner of English may leave "it" out
        ("the consultant said it's a stress fracture", "Has a stress fracture"),
    ],
)
def test_what_a_medic_said_it_is_is_what_one_has(line: str, memory: str) -> None:
    assert one_of(line, "condition").content == memory


@pytest.mark.parametrize(
    "line",
    [
        "my friend says it's asthma",  # no medic
        "the GP says it's nothing",
        "the doctor says it's not a fracture",
        "the GP said it's a lovely day",
    ],
)
def test_no_verdict_where_no_medic_named_a_condition(line: str) -> None:
    assert not by(line, "condition")


# --- goals, plans, a job applied for or offered --------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("goal is to swim a mile by August", "Wants to swim a mile by August 2026"),
        ("big goal now is to finish my degree next year", "Wants to finish their degree in 2027"),
    ],
)
def test_a_goal_said_with_no_my_is_the_persons(line: str, memory: str) -> None:
    assert one_of(line, "goal").content == memory


@pytest.mark.parametrize("line", ["The goal is to win.", "His goal is to win.", "goal is to win?"])
def test_a_goal_of_no_one_or_of_someone_else_is_none(line: str) -> None:
    assert not by(line, "goal")


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("I've got a check-up on the 28th.", "Has a check-up on 28 May 2026"),
        ("I've got a vet check on Friday", "Has a vet check on 22 May 2026"),
    ],
)
def test_what_one_has_got_on_a_day_ahead_is_a_plan(line: str, memory: str) -> None:
    assert one_of(line, "plan").content == memory


@pytest.mark.parametrize("line", ["I've got a cold.", "I got a new phone on Monday.",
                                  "I've got a check to cash."])
def test_what_one_has_got_with_no_day_ahead_is_no_plan(line: str) -> None:
    assert not by(line, "plan")


@pytest.mark.parametrize(
    ("line", "memory", "since"),
    [
        ("I've applied to Greenleaf Bank, fingers crossed", "Applied to Greenleaf Bank", SAID_AT.date()),
        ("I applied for a mortgage last week", "Applied for a mortgage in the week of 11 May 2026",
         date(2026, 5, 11)),
        ("Bit of a gamble, but I applied for a transfer to the Leeds office",
         "Applied for a transfer to the Leeds office", SAID_AT.date()),
    ],
)
def test_a_step_applied_for_is_an_event(line: str, memory: str, since: date) -> None:
    applied = one_of(line, "apply")
    assert (applied.kind, applied.content, applied.valid_from.date()) == (MemoryKind.EVENT, memory, since)


@pytest.mark.parametrize("line", ["I applied sunscreen twice.", "should I apply for the job?",
                                  "I applied the changes to the file"])
def test_applying_what_is_no_step_in_life_is_no_event(line: str) -> None:
    assert not by(line, "apply")


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("Harbour Studio offered me a job as a junior editor!",
         "Was offered a job as a junior editor by Harbour Studio"),
        ("news: a bakery in Leith, Crumb & Co, offered me the head baker job",
         "Was offered the head baker job by a bakery in Leith, Crumb & Co"),
        ("I was offered a promotion last week.", "Was offered a promotion in the week of 11 May 2026"),
    ],
)
def test_a_job_offered_is_an_event(line: str, memory: str) -> None:
    assert one_of(line, "offered").content == memory


@pytest.mark.parametrize("line", ["They offered me a coffee.", "I wasn't offered the job.",
                                  "If they offer me the job, I'll take it.", "did they offer you the job?"])
def test_no_offer_where_none_was_made_to_the_person(line: str) -> None:
    assert not by(line, "offered")


# --- "remind me", and the errand said beside it ------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "memory", "due"),
    [
        ("remind me, on the 28th I must renew the car insurance", "Renew the car insurance on 28 May 2026",
         date(2026, 5, 28)),
        ("can u remind me the vet is fri 29th at 10.30", "The vet on 29 May 2026 at 10.30",
         date(2026, 5, 29)),
    ],
)
def test_the_errand_said_beside_a_reminder_is_the_todo(line: str, memory: str, due: date) -> None:
    todo = one_of(line, "reminder")
    assert (todo.content, todo.due_at and todo.due_at.date()) == (memory, due)


@pytest.mark.parametrize("line", ["remind me, I must call mum", "remind me my passport is somewhere"])
def test_an_errand_beside_a_reminder_needs_a_day(line: str) -> None:
    assert not by(line, "reminder")


# --- habits, homes, pets, and how to answer ---------------------------------------------------------


def test_a_first_part_with_no_subject_before_another_with_none_is_the_persons_too() -> None:
    assert ("home_city", "Dundee") in slots("living in dundee now, moved up in march")


@pytest.mark.parametrize(
    ("line", "on"),
    [
        ("I sprained my ankle 2 saturdays ago", date(2026, 5, 9)),  # said on a Wednesday
        ("I sprained my ankle three Wednesdays ago", date(2026, 4, 29)),
    ],
)
def test_a_weekday_counted_back_is_that_day(line: str, on: date) -> None:
    hurt = one_of(line, "injury")
    assert hurt.valid_from.date() == on


def test_a_weekday_said_in_the_plural_is_still_every_week() -> None:
    assert all(c.valid_from.date() == SAID_AT.date() for c in found("I swim on saturdays"))


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("I started pilates in March.", "Started pilates in March 2026"),
        ("I've started badminton, twice a week", "Has started badminton twice a week"),
    ],
)
def test_a_pastime_named_as_a_thing_and_begun_is_a_habit(line: str, memory: str) -> None:
    assert one_of(line, "habit").content == memory


@pytest.mark.parametrize("line", ["I started the yoga video", "I'll start pilates next week",
                                  "I started my pottery course"])
def test_a_pastime_not_yet_begun_or_one_thing_of_it_is_no_habit(line: str) -> None:
    assert not by(line, "habit")


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("I drink about four cups of green tea a day.", "Drinks about four cups of green tea a day"),
        ("I eat two bowls of porridge a day", "Eats two bowls of porridge a day"),
    ],
)
def test_a_count_of_what_one_has_each_day_is_a_habit(line: str, memory: str) -> None:
    assert one_of(line, "habit").content == memory


def test_a_day_ago_is_no_count_each_day() -> None:
    assert not by("I ate a bowl of soup a day ago", "habit")


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("I've lived in this cottage since 1991.", "Has lived in this cottage since 1991"),
        ("We've lived in our flat for twelve years.", "Has lived in their flat for twelve years"),
    ],
)
def test_a_home_kept_a_long_time_is_kept(line: str, memory: str) -> None:
    assert one_of(line, "home").content == memory


@pytest.mark.parametrize("line", ["I've lived in a tent.", "I lived in this house as a kid."])
def test_a_home_with_no_time_or_long_ago_is_not(line: str) -> None:
    assert not by(line, "home")


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("We have a basenji, Tamu, he never barks.", "Has a dog named Tamu, a basenji"),
        ("we've got a malamute called Juno", "Has a dog named Juno, a malamute"),
    ],
)
def test_a_dog_named_by_its_breed_is_a_dog(line: str, memory: str) -> None:
    assert memory in contents(line)


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("Please answer me in Spanish, with easy words.",
         "Wants the assistant always to answer them in Spanish with easy words"),
        ("please you answer me in Spanish, with easy words.",  # as a learner of English may put it
         "Wants the assistant always to answer them in Spanish with easy words"),
        ("From now, please use imperial units.", "Wants imperial units"),  # "from now (on)"
    ],
)
def test_how_to_answer_said_plainly_or_as_a_learner_says_it(line: str, memory: str) -> None:
    assert one_of(line, "request").content == memory


@pytest.mark.parametrize("line", ["please you answer this email for me", "answer me in Spanish this time",
                                  "two weeks from now give me a nudge", "Please answer me."])
def test_one_answer_asked_for_is_no_lasting_wish(line: str) -> None:
    assert not by(line, "request")


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("remind me the optician is on the 27th at 8.45am", "The optician on 27 May 2026 at 8:45am"),
        ("remind me to call the council on the 27th at 9 o'clock in the morning",
         "Call the council on 27 May 2026 at 9am"),
    ],
)
def test_a_time_of_day_is_written_one_way(line: str, memory: str) -> None:
    assert one_of(line, "reminder").content == memory


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("keep it brief please", "Wants answers kept brief"),
        ("Keep it simple though.", "Wants answers kept simple"),
        ("Be blunt and direct with me.", "Wants the assistant to be blunt and direct with them"),
        ("be honest with me pls", "Wants the assistant to be honest with them"),
    ],
)
def test_how_answers_are_to_be_kept_or_the_assistant_to_be_with_the_person(line: str, memory: str) -> None:
    assert one_of(line, "request").content == memory


@pytest.mark.parametrize(
    "line",
    [
        "Yes, but keep it brief, she's my boss.",  # the one message for her
        "keep it short this time",
        "keep it short, I'm in a rush",  # a reason that passes
        "keep it warm in the oven",
        "Be careful on the stairs.",
        "be honest with me, does this jacket look bad?",  # asked of one thing
    ],
)
def test_one_thing_kept_a_way_or_a_way_to_be_once_is_no_lasting_wish(line: str) -> None:
    assert not by(line, "request")
