"""Round nine of the offline rules (issue 29, and keeping what is true): what has ended ends. A job
lost, a couple parted, a pet put down or a partner who died says that a value the person gave
before no longer holds (`Candidate.ends`: the slot, and where it is named, the value); "no longer"
and "rarely" stay in the memory instead of leaving its opposite; a habit given up said with its
-ing ("I stopped eating meat"), a condition one suffers from, a thing of theirs that falls due
("don't let me forget my passport expires in June"). Every sentence is our own, none from a
benchmark; each rule with what it must leave alone."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from domain.commands import Message
from domain.extraction.candidate import Candidate
from domain.extraction.rules import extract
from infra.nlp import english_parser

SAID_AT = datetime(2026, 4, 14, 8, 10, tzinfo=UTC)  # a Tuesday


def found(line: str) -> list[Candidate]:
    return extract([Message(role="user", content=line, timestamp=SAID_AT)], SAID_AT, english_parser())


def said(line: str) -> list[tuple[str, str]]:
    return [(c.kind.value, c.content) for c in found(line)]


def ended(line: str) -> list[tuple[tuple[str, ...], str | None]]:
    return [(c.ends, c.ended_value) for c in found(line) if c.ends]


# --- what ended ---------------------------------------------------------------------------------------

JOB = ("employer", "job_title")


@pytest.mark.parametrize(
    ("line", "ends", "value"),
    [
        ("I was laid off last month", JOB, None),
        ("I got made redundant in March", JOB, None),
        ("I lost my job last week", JOB, None),
        ("I got fired on Monday", JOB, None),
        ("I was let go in February", JOB, None),
        ("I retired last year", JOB, None),
        ("I quit my job at the bank", JOB, None),
        ("I left Google in May", JOB, "Google"),  # only if Google is the employer in force then
        ("I broke up with my boyfriend last month", ("partner",), None),
        ("my wife and I separated in March", ("partner",), None),
        ("I got divorced last year", ("partner",), None),
        ("we had to put our dog Bruno down", ("pet_dog",), "Bruno"),
        ("our dog Max was put down last week", ("pet_dog",), "Max"),
        ("my husband Ernesto died last year", ("partner",), "Ernesto"),
        ("my former boss Anna called me", ("manager",), "Anna"),
    ],
)
def test_what_the_person_says_has_ended_names_the_slot_it_ends(
    line: str, ends: tuple[str, ...], value: str | None
) -> None:
    assert ended(line) == [(ends, value)]


@pytest.mark.parametrize(
    "line",
    [
        "I lost my keys",
        "I left my job application on the desk",
        "I left the party early",
        "I quit smoking",  # a habit, not a job
        "I'm leaving Google in June",  # a plan: nothing has ended yet
        "I got married last year",
        "I put my dog Rex down for a nap",  # set down
        "I put my cat Tom down and he ran off",
        "we had our dog Bruno groomed",
        "my dog Pip is sleeping",
        "I lost my dad in May",  # one of theirs died, no slot of theirs
        "my sister's boyfriend dumped her",  # someone else's parting
        # an ending at a past no date holds names no value of now: a partner may have come since
        "I broke up with my boyfriend years ago",
        "I broke up with my ex a long time ago",
        "I got divorced when I was 30",
    ],
)
def test_what_has_not_ended_ends_nothing(line: str) -> None:
    assert ended(line) == []


def test_a_pet_put_down_is_a_death_not_a_pet_in_its_slot() -> None:
    assert said("we had to put our dog Bruno down last week") == [
        ("event", "Dog Bruno died in the week of 6 April 2026")]
    assert ("fact", "Has a dog named Rex") in said("I put my dog Rex down for a nap")


# --- no longer, rarely --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("I no longer drink coffee", "No longer drinks coffee"),  # was "Drinks coffee"
        ("I no longer have a car", "No longer has a car"),  # was "Has a car"
        ("I rarely drink these days", "Rarely drinks these days"),  # was "Drinks these days"
        ("I always cycle to work", "Always cycles to work"),
    ],
)
def test_how_often_and_no_longer_stay_with_what_they_qualify(line: str, memory: str) -> None:
    assert memory in [content for _, content in said(line)]


def test_a_no_at_the_start_of_a_line_is_still_an_opener() -> None:
    assert all(not content.startswith("No ") for _, content in said("No, I live in Leeds"))


# --- given up, suffered, falling due ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("I stopped eating meat two years ago", "Stopped eating meat in 2024"),
        ("I stopped drinking fizzy drinks in January", "Stopped drinking fizzy drinks in January 2026"),
        ("I've cut down on caffeine", "Has cut down on caffeine"),
        ("I cut down on sugar last month", "Cut down on sugar in March 2026"),
        ("I suffer from migraines", "Suffers from migraines"),
        ("I've suffered from asthma since I was a kid", "Has suffered from asthma"),
    ],
)
def test_a_habit_given_up_and_a_condition_suffered_are_health(line: str, memory: str) -> None:
    assert ("health", memory) in said(line)


@pytest.mark.parametrize(
    "line",
    [
        "I stopped eating at restaurants",  # no food given up
        "I stopped taking the bus",
        "I'll stop eating meat next year",  # not done yet
        "I cut the bread",
        "I suffer from a lack of sleep",  # no condition named
        "my mum suffers from migraines",  # hers
        "I don't suffer from anxiety",
    ],
)
def test_no_habit_or_condition_of_theirs_is_health(line: str) -> None:
    assert [k for k, _ in said(line) if k == "health"] == []


def test_a_thing_of_theirs_that_falls_due_is_a_to_do() -> None:
    (todo,) = found("don't let me forget my passport expires in June")
    assert (todo.kind.value, todo.content) == ("todo", "Their passport expires in June 2026")
    assert todo.due_at is not None and (todo.due_at.year, todo.due_at.month) == (2026, 6)
    (todo,) = found("don't let me forget that my car insurance runs out on the 3rd")
    assert todo.content == "Their car insurance runs out on 3 May 2026"


@pytest.mark.parametrize(
    "line",
    [
        "don't let me forget my sister is coming",  # no time
        "don't let me forget he owes me money on Friday",  # not theirs
        "I forgot my passport expired in May",  # done, and not asked
    ],
)
def test_what_is_not_theirs_falling_due_is_no_to_do(line: str) -> None:
    assert [c for c in found(line) if c.kind.value == "todo"] == []


# --- no longer so ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "memory", "slot", "value"),
    [
        ("I no longer work at Google", "No longer works at Google", "employer", "Google"),
        ("I don't work at Google anymore", "Does not work at Google anymore", "employer", "Google"),
        ("I no longer work for Deutsche Bank", "No longer works for Deutsche Bank", "employer",
         "Deutsche Bank"),
        ("I don't work there anymore", "No longer works at their old workplace", "employer", None),
        ("I don't live in London anymore", "Does not live in London anymore", "home_city", "London"),
        ("I no longer live in Leeds", "No longer lives in Leeds", "home_city", "Leeds"),
        ("I'm not vegan anymore", "Is not vegan anymore", "diet", "vegan"),
        ("I'm not veggie any more", "Is not veggie any more", "diet", "vegetarian"),
        ("I'm not with Tom anymore", "Is not with Tom anymore", "partner", "Tom"),
        # the parser hangs "no longer" on the adjective, not on "'m": still a denial, never "Is vegetarian"
        ("I'm no longer vegetarian.", "Is no longer vegetarian", "diet", "vegetarian"),
        ("I'm no longer a vegan", "Is no longer a vegan", "diet", "vegan"),
    ],
)
def test_a_value_said_to_hold_no_longer_is_ended(
    line: str, memory: str, slot: str, value: str | None
) -> None:
    assert [(c.content, c.ends, c.ended_value) for c in found(line)] == [(memory, (slot,), value)]


@pytest.mark.parametrize(
    "line",
    [
        "I don't live in London",  # a plain denial says nothing ended
        "I don't work at Google",
        "I never worked at Google",
        "do you still work at Google anymore?",
        "if I didn't live in London anymore I'd be sad",
        "my sister doesn't live in London anymore",  # hers
        "I don't work much anymore",  # no workplace
        "I'm not hungry anymore",  # no slot
    ],
)
def test_what_is_not_said_to_hold_no_longer_ends_nothing(line: str) -> None:
    assert ended(line) == []


@pytest.mark.parametrize(
    "line",
    ["I'm no longer vegetarian.", "I'm no longer vegetarian", "I'm no longer a vegan", "I'm not vegetarian"],
)
def test_a_diet_denied_on_its_adjective_fills_no_diet(line: str) -> None:
    assert [c for c in found(line) if c.attribute == "diet"] == []


# --- moved out, out of work, a couple said as the subject --------------------------------------------


@pytest.mark.parametrize(
    ("line", "memory", "value", "since"),
    [
        ("I moved out of London last month", "Moved out of London in March 2026", "London", "2026-03-01"),
        ("we moved away from Berlin in 2020", "Moved away from Berlin in 2020", "Berlin", "2020-01-01"),
        # moved to somewhere that is no city: the city left is home no longer all the same
        ("I moved from a flat in Bristol to a house in the country in May",
         "Moved from a flat in Bristol to a house in the country in May 2025", "Bristol", "2025-05-01"),
    ],
)
def test_a_city_moved_out_of_is_home_no_longer(line: str, memory: str, value: str, since: str) -> None:
    [moved] = found(line)
    assert (moved.content, moved.ends, moved.ended_value) == (memory, ("home_city",), value)
    assert moved.attribute is None  # no new home named
    assert moved.valid_from is not None and str(moved.valid_from.date()) == since


@pytest.mark.parametrize(
    "line",
    [
        "I'm moving out of London in May",  # ahead: not yet
        "I moved out of my parents' house",  # no city
        "I moved the sofa out of the flat",  # a thing moved
        "my sister moved out of London",  # hers
        "I never moved away from Leeds",
    ],
)
def test_what_is_no_move_out_of_a_city_ends_nothing(line: str) -> None:
    assert ended(line) == []


def test_a_move_from_one_city_to_another_still_fills_the_slot() -> None:
    [memory] = found("I moved from London to Leeds")
    assert (memory.attribute, memory.value, memory.ends) == ("home_city", "Leeds", ())


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("I'm unemployed at the moment", "Is unemployed at the moment"),
        ("I'm currently unemployed", "Is currently unemployed"),
        ("I'm between jobs right now", "Is between jobs"),
        ("I'm out of work", "Is out of work"),
        ("I've been unemployed since March", "Has been unemployed since March 2026"),
    ],
)
def test_being_out_of_work_now_ends_the_job(line: str, memory: str) -> None:
    assert [(c.content, c.ends, c.ended_value) for c in found(line)] == [(memory, JOB, None)]


@pytest.mark.parametrize(
    "line",
    [
        "I was unemployed for two years",  # what was
        "my brother is unemployed",  # his
        "I'm not unemployed",
        "if I'm unemployed next year, I'll move",
        "are you unemployed?",
        "I'm out of milk",
    ],
)
def test_what_is_not_being_out_of_work_now_ends_no_job(line: str) -> None:
    assert ended(line) == []


@pytest.mark.parametrize(
    "line",
    ["My girlfriend and I split up in March", "my husband and I separated last year"],
)
def test_a_couple_said_as_the_subject_parted_however_parsed(line: str) -> None:
    assert ended(line) == [(("partner",), None)]


def test_another_couple_parting_ends_no_partner_of_theirs() -> None:
    assert ended("My sister and her husband split up") == []


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("I'm learning Spanish right now", "Is learning Spanish"),
        ("I live in Leeds right now", "Lives in Leeds"),
    ],
)
def test_right_now_leaves_with_its_now(line: str, memory: str) -> None:
    assert [c.content for c in found(line)] == [memory]


# --- who one works with is no employer; a hyphen is part of a name ------------------------------------


@pytest.mark.parametrize(
    ("line", "employer"),
    [
        ("I work with Tom at Tesco", "Tesco"),  # Tom works beside them; Tesco employs them
        ("I work with Deloitte", "Deloitte"),
        ("I started a new job with Deloitte", "Deloitte"),
        ("I started working at Aldi", "Aldi"),
    ],
)
def test_the_employer_is_the_company_not_the_person_beside_them(line: str, employer: str) -> None:
    assert [c.value for c in found(line) if c.attribute == "employer"] == [employer]


@pytest.mark.parametrize(
    "line",
    [
        "I work with Tom",
        "I work closely with Sarah",
        "I work with my dad",
        "I work with children",
        "so I've started walking every evening after work with Efua",  # a habit begun, no job
        "I started running with Tom",
    ],
)
def test_someone_worked_or_walked_with_is_no_employer(line: str) -> None:
    assert [c for c in found(line) if c.attribute == "employer"] == []


@pytest.mark.parametrize(
    ("line", "name"),
    [
        ("My manager Mrs Owusu-Ansah is strict but fair", "Mrs Owusu-Ansah"),
        ("my friend Jean-Luc is visiting", "Jean-Luc"),
    ],
)
def test_a_hyphenated_name_keeps_its_hyphen(line: str, name: str) -> None:
    assert any(name in c.content and "OwusuAnsah" not in c.content for c in found(line))


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("I work with Tom", "Works with Tom"),
        ("I've started touring with a jazz band", "Has started touring with a jazz band"),
        ("I started a book club with Anna", "Started a book club with Anna"),
    ],
)
def test_what_is_said_with_someone_is_kept_with_no_employer(line: str, memory: str) -> None:
    assert [(c.content, c.attribute) for c in found(line)] == [(memory, None)]
