"""Round thirteen of the offline rules (rules/13): what a medic or a test found, a medicine a
medic gave, a habit given up with how long ago said after it, a bare verb of where one lives or
what one quit, a pet named inside a list, a partner named before a question, children counted one
memory each, an age at death, a language to be answered in, a reminder's verb read as a noun,
a month typed in lower case. Every sentence is our own, none from a benchmark; each with what
it must leave alone."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from domain.commands import Message
from domain.extraction.candidate import Candidate
from domain.extraction.rules import extract
from domain.model import MemoryKind
from domain.text.english import typed_plainly
from infra.nlp import english_parser

SAID_AT = datetime(2026, 5, 20, 12, 0, tzinfo=UTC)  # a Wednesday


def found(line: str) -> list[Candidate]:
    return extract([Message(role="user", content=line, timestamp=SAID_AT)], SAID_AT, english_parser())


def contents(line: str) -> list[str]:
    return [c.content for c in found(line)]


# --- what a medic or a test found, and what a medic gave ---------------------------------------------


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("my GP said eczema and gave me a cream for it", "Has eczema"),
        ("the scan shows a fractured wrist", "Has a fractured wrist"),
        ("the doctor told me I have Lyme disease", "Has Lyme disease"),
        ("the consultant says coeliac disease, so no more bread", "Has coeliac disease"),
    ],
)
def test_what_a_medic_or_a_test_found_is_what_the_person_has(line: str, memory: str) -> None:
    assert memory in contents(line)


@pytest.mark.parametrize(
    "line",
    [
        "my friend says eczema",  # no medic
        "a doctor on the radio said diabetes is rising",  # not the person's doctor, nor theirs
        "the doctor said nothing",
        "did the scan show a torn ligament?",  # asked
        "my mum has heart disease",  # someone else's
        "I have a disease of the mind, it is called procrastination",  # a disease of nothing named
    ],
)
def test_what_no_medic_found_of_the_person_is_no_condition(line: str) -> None:
    assert not [c for c in found(line) if c.extractor.endswith(":condition")]


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("the doctor gave me omeprazole", "Takes omeprazole"),
        ("my GP gave me iron tablets, one every morning", "Takes iron tablets, one every morning"),
        ("the dermatologist prescribed me a steroid cream, twice a week",
         "Takes steroid cream, twice a week"),
        ("the vet nurse put me on meloxicam", "Takes meloxicam"),  # a medicine by its ending
    ],
)
def test_a_medicine_a_medic_gave_is_one_the_person_takes(line: str, memory: str) -> None:
    assert memory in contents(line)


@pytest.mark.parametrize(
    "line",
    [
        "my neighbour gave me some ibuprofen",  # not a medic: once, not a treatment
        "the doctor gave me some pills",  # names nothing one could keep
        "the doctor didn't give me antibiotics",
        "will the doctor give me antibiotics?",
    ],
)
def test_a_medicine_given_by_no_medic_or_named_by_nothing_is_not_kept(line: str) -> None:
    assert not [c for c in found(line) if c.extractor.endswith(":medicine")]


def test_the_day_a_diagnosis_was_told_is_when_it_began() -> None:
    told = found("last month the doctor told me I have asthma")
    (condition,) = [c for c in told if c.kind is MemoryKind.HEALTH]
    assert condition.content == "Has asthma" and condition.valid_from.date().isoformat() == "2026-04-01"


# --- a habit given up, and how long ago said after it -------------------------------------------------


@pytest.mark.parametrize(
    ("line", "memory", "since"),
    [
        ("I've stopped drinking. Two weeks today.", "Stopped drinking on 6 May 2026", "2026-05-06"),
        ("I quit smoking! 10 days now", "Quit smoking on 10 May 2026", "2026-05-10"),
        ("On a happier note, I gave up sugar. A month already.", "Gave up sugar in April 2026", "2026-04-01"),
        # said in the same sentence, after a comma
        ("also quit energy drinks, 2 weeks today", "Quit energy drinks on 6 May 2026", "2026-05-06"),
        ("I quit drinking, three months now, sleeping much better", "Quit drinking in February 2026",
         "2026-02-01"),
    ],
)
def test_a_habit_given_up_is_dated_by_how_long_ago_said_after_it(line: str, memory: str, since: str) -> None:
    (given_up,) = [c for c in found(line) if c.extractor.endswith(":given_up")]
    assert (given_up.content, given_up.valid_from.date().isoformat()) == (memory, since)


@pytest.mark.parametrize(
    "line",
    [
        "I've stopped drinking. My brother has two weeks left on his contract.",  # not a time gone by
        "I've stopped drinking. Two weeks ago my sister did too.",  # a sentence of its own
    ],
)
def test_a_duration_that_is_no_time_gone_by_leaves_the_day_it_was_said(line: str) -> None:
    (given_up,) = [c for c in found(line) if c.extractor.endswith(":given_up")]
    assert given_up.valid_from == SAID_AT


def test_a_turn_of_the_talk_is_no_part_of_the_memory() -> None:
    assert contents("On a brighter note, I've quit vaping") == ["Has quit vaping"]
    assert "Left a key on a note" not in contents("I left a key on a note")  # a note that is one


# --- a bare verb that tells of the one speaking ---------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("live in Tallinn with my wife Kadri", "Lives in Tallinn"),
        ("work at a garage in Hull, mostly on vans", "Works at a garage in Hull, mostly on vans"),
        ("also quit vaping. 3 weeks", "Quit vaping on 29 April 2026"),
    ],
)
def test_a_bare_verb_of_where_one_lives_or_works_or_what_one_quit_is_theirs(line: str, memory: str) -> None:
    assert memory in contents(line)


@pytest.mark.parametrize("line", ["Live in the moment", "live and let live", "work on your posture",
                                  "quit complaining"])
def test_a_bare_verb_that_is_advice_gives_nothing(line: str) -> None:
    assert found(line) == []


# --- people and pets named --------------------------------------------------------------------------


def test_a_pet_named_in_a_list_with_a_partner_is_a_memory_of_its_own() -> None:
    assert contents("I live in Bergen with my partner Siri and our cat Pelle") == [
        "Lives in Bergen", "Partner is named Siri", "Has a cat named Pelle"]
    # one named by no one stays with where one lives
    assert contents("I live in Leeds with my parents") == ["Lives in Leeds with their parents"]


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("my girlfriend Noor and I want a dog, is a puppy too much work?", "Girlfriend is named Noor"),
        ("my bf Theo hates mushrooms", "Boyfriend is named Theo"),
    ],
)
def test_a_partner_named_before_a_question_or_in_short_is_kept(line: str, memory: str) -> None:
    assert memory in contents(line)


def test_a_partner_named_in_short_fills_the_partner() -> None:
    assert [(c.attribute, c.value) for c in found("my gf Alba is vegan, what should I cook?")] == [
        ("partner", "Alba")]


@pytest.mark.parametrize("line", ["is my boyfriend Theo right about this?",
                                  "should my sister Ana move, is it wise?"])
def test_one_named_inside_what_is_asked_is_not_kept(line: str) -> None:
    assert not [c for c in found(line) if c.kind is MemoryKind.PERSON]


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("Sad news, our cat Misha died on Monday, she was 17.", "Cat Misha died on 18 May 2026, aged 17"),
        ("my grandad Joe died last year, he was 91", "Grandad Joe died in 2025, aged 91"),
        # a time of day is no age
        ("our dog Bo died, it was 4 in the morning", "Dog Bo died"),
        ("our dog Bo died, it was 4am", "Dog Bo died"),
    ],
)
def test_the_age_said_beside_a_death_is_kept_with_it(line: str, memory: str) -> None:
    assert contents(line) == [memory]


# --- how they want to be answered --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("can u answer in simple Spanish, I'm still learning",
         "Wants the assistant always to answer in simple Spanish"),
        ("could you reply in French", "Wants the assistant always to reply in French"),
    ],
)
def test_a_language_to_be_answered_in_is_a_standing_request(line: str, memory: str) -> None:
    assert contents(line) == [memory]


@pytest.mark.parametrize("line", ["could you reply in German this time", "can you write the email in Spanish",
                                  "can you translate it in Italian"])
def test_a_language_for_one_answer_or_one_thing_is_no_standing_request(line: str) -> None:
    assert not [c for c in found(line) if c.kind is MemoryKind.PREFERENCE]


# --- reminders and times -----------------------------------------------------------------------------


def test_a_reminder_whose_verb_reads_as_a_noun_is_a_todo_with_what_it_is_about() -> None:
    (todo,) = found("remind me to text maria tomorrow about the party")
    assert (todo.kind, todo.content, todo.due_at.date().isoformat()) == (
        MemoryKind.TODO, "Text maria on 21 May 2026 about the party", "2026-05-21")
    assert found("remind me to the meeting") == []


def test_a_reminder_due_on_one_day_about_another_says_both() -> None:
    (todo,) = found("remind me to call Lena tomorrow about the dinner on the 30th")
    assert todo.due_at.date().isoformat() == "2026-05-21"
    assert "30 May 2026" in todo.content and "21 May 2026" in todo.content


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("send it before 30 june", "send it before 30 June"),
        ("on the 3rd of october", "on the 3rd of October"),
        ("july 14th works", "July 14th works"),
        ("I may 2 times", "I may 2 times"),  # "may" before a number is a verb as often
        ("april is lovely", "april is lovely"),  # a month with no day is left as typed
    ],
)
def test_a_month_beside_its_day_is_read_with_its_capital(typed: str, read: str) -> None:
    assert typed_plainly(typed) == read


def test_a_day_typed_in_lower_case_gives_a_reminder_its_due_date() -> None:
    (todo,) = found("remind me to renew the insurance before 30 june")
    assert (todo.content, todo.due_at.date().isoformat()) == (
        "Renew the insurance before 30 June 2026", "2026-06-30")


def test_before_the_end_of_a_month_is_kept_as_a_limit() -> None:
    (todo,) = found("remind me to book the ferry before the end of July")
    assert todo.content == "Book the ferry before the end of July 2026"


def test_this_time_is_no_time_named() -> None:
    assert contents("I want to learn Welsh properly this time") == ["Wants to learn Welsh properly"]


# --- a couple parted, by name; the weekend ---------------------------------------------------------


def test_one_named_and_i_broke_up_is_a_parting_from_them() -> None:
    (parted,) = found("so Rui and I broke up last month")
    assert (parted.kind, parted.content, parted.ends, parted.ended_value) == (
        MemoryKind.EVENT, "Broke up with Rui in April 2026", ("partner",), "Rui")
    assert found("Sam and I split up the bill") == []  # a thing split
    assert found("my sister and I broke up the fight") == []


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        # said on a Wednesday: the weekend just gone, or the coming one of a plan
        ("Rui and I broke up on the weekend", "Broke up with Rui on the weekend of 16 May 2026"),
        ("remind me to call Ines at the weekend", "Call Ines on the weekend of 23 May 2026"),
    ],
)
def test_the_weekend_is_the_one_gone_or_the_one_coming(line: str, memory: str) -> None:
    assert contents(line) == [memory]


@pytest.mark.parametrize("line", ["I went to Porto for a weekend last month", "I booked a weekend in Porto",
                                  "I ruined the weekend", "I love the weekend"])
def test_a_weekend_that_is_no_time_named_is_no_day(line: str) -> None:
    assert not any("weekend of" in text for text in contents(line))


# --- an errand one says one will run ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "memory", "due"),
    [
        ("I'll call the surgery tomorrow", "Call the surgery on 21 May 2026", "2026-05-21"),
        ("I'm going to book the vet on Friday", "Book the vet on 22 May 2026", "2026-05-22"),
        ("ok I will email my landlord on Monday", "Email their landlord on 25 May 2026", "2026-05-25"),
    ],
)
def test_an_errand_one_will_run_on_a_day_soon_is_a_todo(line: str, memory: str, due: str) -> None:
    (todo,) = found(line)
    assert (todo.kind, todo.content, todo.due_at.date().isoformat()) == (MemoryKind.TODO, memory, due)


@pytest.mark.parametrize(
    "line",
    [
        "I'll call you tomorrow",  # of whom?
        "I might call the bank tomorrow",  # maybe
        "will you call the bank tomorrow?",
        "I'll pay the rent",  # no day
        "I'll buy a house in 2029",  # no errand
        "I called the bank yesterday",
    ],
)
def test_what_is_no_errand_run_soon_is_no_todo(line: str) -> None:
    assert not [c for c in found(line) if c.kind is MemoryKind.TODO]


# --- study, and signing up ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("I studied architecture, now I sell insurance", "Studied architecture"),
        ("i studied law, hoping to go back to it", "Studied law"),
        ("I'm learning Portuguese, I want to visit Recife in August", "Is learning Portuguese"),
    ],
)
def test_what_one_studied_or_is_learning_is_kept(line: str, memory: str) -> None:
    assert memory in contents(line)


@pytest.mark.parametrize("line", ["I studied the menu", "I studied for hours", "I'm learning it in June"])
def test_studying_one_thing_is_no_field_of_study(line: str) -> None:
    assert not [c for c in found(line) if c.extractor.endswith((":studied", ":learning"))]


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("I registered for a pottery class!", "Registered for a pottery class"),
        ("I enrolled in an evening course in Italian", "Enrolled in an evening course in Italian"),
        ("I signed up to help at the food bank on Saturdays from July",
         "Signed up to help at the food bank on Saturdays from July 2026"),
    ],
)
def test_signing_up_for_something_named_is_an_event(line: str, memory: str) -> None:
    assert contents(line) == [memory]


@pytest.mark.parametrize("line", ["I registered", "my brother registered for the race", "I signed up for it"])
def test_signing_up_for_nothing_named_or_someone_else_is_no_event(line: str) -> None:
    assert found(line) == []


# --- one of theirs named in a request for help ---------------------------------------------------------


def test_one_named_in_a_request_for_help_is_kept_and_one_asked_about_is_not() -> None:
    assert contents("can you help me write to my manager Petra about the rota?") == ["Manager is named Petra"]
    assert found("is my manager Petra allowed to do that?") == []
    assert found("can you tell me if my manager Petra can do that?") == []


# --- pets and children named as chat names them; home from work, said with its country ---------------


@pytest.mark.parametrize(
    ("line", "memories"),
    [
        ("the flat has to take pets, I have a hamster called Noodle", ["Has a hamster named Noodle"]),
        ("I have a parrot called Captain", ["Has a parrot named Captain"]),  # said once, kept once
        ("my parrot Kiwi just bit the postman", ["Has a parrot named Kiwi"]),
        ("our boy Kofi is 9 and loves football", ["Has a son named Kofi, aged 9"]),
        ("my girl Ama loves maths", ["Has a daughter named Ama"]),
    ],
)
def test_pets_and_children_named_as_chat_names_them(line: str, memories: list[str]) -> None:
    assert [c.content for c in found(line) if c.kind in (MemoryKind.FACT, MemoryKind.PERSON)] == memories


@pytest.mark.parametrize("line", ["the boy Kofi is 9", "I have a recipe called Apple Pie"])
def test_one_not_said_to_be_theirs_is_no_child_or_pet(line: str) -> None:
    assert found(line) == []


@pytest.mark.parametrize(
    ("line", "home"),
    [
        ("I'm a nurse at a hospital in Austin, Texas", "Austin"),
        ("I work at a bakery in Porto, Portugal", "Porto"),
        ("I'm a designer at Figma in Lisbon", "Lisbon"),  # "at Figma" is no second place
        ("I'm a nurse in Leeds, commuting from York", None),  # which is home is not said
    ],
)
def test_home_from_work_is_the_city_said_with_its_country_none_of_two(line: str, home: str | None) -> None:
    assert [c.value for c in found(line) if c.attribute == "home_city"] == ([home] if home else [])


# --- a condition or a medicine said of as one's own; a thing needed; the season -------------------------


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("my eczema is awful this week", "Has eczema"),
        ("my hay fever is terrible at this time of year", "Has hay fever"),
        ("I need a pharmacy near the hotel for my levothyroxine", "Takes levothyroxine"),
        ("I left my metformin at my sister's", "Takes metformin"),
    ],
)
def test_a_condition_or_a_medicine_said_as_ones_own_is_kept(line: str, memory: str) -> None:
    assert memory in contents(line)


@pytest.mark.parametrize(
    "line",
    [
        "my dad's eczema is awful this week",  # someone else's
        "I ran out of my pills",  # names no medicine
        "did I take my sertraline?",
        "I lost my inhaler",  # a thing one carries; said so, it says nothing of a daily medicine
    ],
)
def test_what_is_no_condition_or_medicine_of_theirs_is_not_kept(line: str) -> None:
    assert not [c for c in found(line) if c.kind is MemoryKind.HEALTH]


def test_a_medicine_one_was_put_on_at_a_time_is_taken_since_then() -> None:
    put_on = found("my doctor put me on amlodipine last month")
    (taken,) = [c for c in put_on if c.extractor.endswith(":medicine")]
    assert (taken.content, taken.valid_from.date().isoformat()) == ("Takes amlodipine", "2026-04-01")


def test_a_thing_needed_by_a_day_is_no_task() -> None:
    assert found("I start on 6 July so I need somewhere to live in Cork") == []
    assert contents("I need to renew my passport by Friday") == ["Renew their passport by 22 May 2026"]


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("I've decided to rent a van for the summer", "Has decided to rent a van in summer 2026"),
        ("we have to move to Derby in the autumn", "Has to move to Derby in autumn 2026"),
    ],
)
def test_the_season_said_with_the_is_this_years(line: str, memory: str) -> None:
    assert contents(line) == [memory]


# --- a title said bare; a thing given up on ------------------------------------------------------------


def test_a_title_said_bare_is_a_job() -> None:
    (job,) = [c for c in found("I'm principal of a secondary school in Dundee") if c.attribute == "job_title"]
    assert (job.content, job.value) == ("Is principal of a secondary school in Dundee", "principal")
    assert found("the principal of my school is strict") == []


@pytest.mark.parametrize(
    ("line", "memories"),
    [
        ("I've given up on Duolingo by the way", ["Has given up on Duolingo"]),
        ("I gave up on him", []),  # of whom?
        ("I gave up", []),  # on what?
    ],
)
def test_a_thing_given_up_on_is_an_event(line: str, memories: list[str]) -> None:
    assert [c.content for c in found(line) if c.kind is MemoryKind.EVENT] == memories


# --- a day of a thing of theirs; a condition one has got -------------------------------------------------


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("my car's MOT is on the 28th", "Car's MOT is on 28 May 2026"),
        ("my boiler's service is on Friday", "Boiler's service is on 22 May 2026"),
    ],
)
def test_a_day_of_a_thing_of_theirs_is_a_plan(line: str, memory: str) -> None:
    assert [(c.kind, c.content) for c in found(line)] == [(MemoryKind.PLAN, memory)]


@pytest.mark.parametrize("line", ["the car's MOT is on the 28th", "my neighbour's car's MOT is on the 28th"])
def test_a_day_of_a_thing_of_no_one_said_is_not_kept(line: str) -> None:
    assert found(line) == []


def test_a_condition_one_has_got_is_one_one_has() -> None:
    assert contents("I've got a dodgy knee") == ["Has a dodgy knee"]


# --- a question tagged on with no verb; an injury the parser runs into what one was doing ----------------


def test_one_named_before_a_question_with_no_verb_is_kept() -> None:
    assert contents("my cat Pesto hates the vet, any tips?") == ["Has a cat named Pesto"]
    assert found("any tips for my cat?") == []


def test_an_injury_read_into_what_one_was_doing_is_kept() -> None:
    (injury,) = found("I twisted my ankle playing tennis on Monday")
    assert (injury.kind, injury.valid_from.date().isoformat()) == (MemoryKind.HEALTH, "2026-05-18")
    assert found("I broke the window playing football") == []


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("please use plain English with me", "Wants plain English"),
        ("please use metric units with me", "Wants metric units"),
    ],
)
def test_what_to_use_with_the_person_is_a_standing_request(line: str, memory: str) -> None:
    assert contents(line) == [memory]


def test_a_language_for_one_answer_is_no_standing_request() -> None:
    assert found("use English for this one") == []
