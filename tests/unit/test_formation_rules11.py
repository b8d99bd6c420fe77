"""Round eleven of the offline rules (rules/11): chat typed in haste, places a small model takes
for organisations, what holds "since" a time, medicines one is on, a relative's age said with
their name. Every sentence is our own, none from a benchmark; each with what it must leave alone."""

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


# --- typed in haste -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("dont use tables", "don't use tables"),
        ("Dont worry about it", "Don't worry about it"),
        ("ok. Ive been vegan", "ok. I've been vegan"),
        ("hes a beagle", "he's a beagle"),
        ("I cant swim", "I can't swim"),
        # words of their own, names and shouting are left as typed
        ("its tail is long", "its tail is long"),
        ("I feel ill", "I feel ill"),
        ("we were late", "we were late"),
        ("Jony Ive designed it", "Jony Ive designed it"),
        ("IVE", "IVE"),
    ],
)
def test_a_contraction_typed_without_its_apostrophe_is_read_with_it(typed: str, read: str) -> None:
    assert typed_plainly(typed) == read


def test_a_request_typed_without_an_apostrophe_is_a_request_not_a_question() -> None:
    assert contents("dont use tables, they look awful on my phone") == ["Does not want tables"]
    assert contents("don't use tables, they look awful on my phone") == ["Does not want tables"]


# --- places taken for organisations ---------------------------------------------------------------


def home(line: str) -> list[str | None]:
    return [c.value for c in found(line) if c.attribute == "home_city"]


@pytest.mark.parametrize(
    ("line", "city"),
    [
        ("I live in Hackney", "Hackney"),
        ("we moved to Hackney in March", "Hackney"),
        ("settled in Hackney now", "Hackney"),
        ("I live in Accra", "Accra"),
        ("I live in a flat in Leeds", "Leeds"),
    ],
)
def test_a_place_lived_in_is_home_however_the_model_tags_it(line: str, city: str) -> None:
    assert home(line) == [city]


@pytest.mark.parametrize(
    "line",
    [
        "I live in Hope Street",  # a street is no city
        "I live in Tom's flat",  # someone's home
        "I moved to Deloitte in March",  # one may move to a firm: a job, not a home
        "I live in the city centre",
    ],
)
def test_what_is_no_city_fills_no_home(line: str) -> None:
    assert home(line) == []


def test_a_move_to_a_place_is_no_change_of_tool() -> None:
    assert [c for c in found("ive moved to Hackney") if c.kind is MemoryKind.PREFERENCE] == []
    assert [c for c in found("I moved to Deloitte") if c.kind is MemoryKind.PREFERENCE] == []
    [editor] = found("I moved to Neovim last year")
    assert (editor.kind, editor.attribute, editor.value) == (MemoryKind.PREFERENCE, "editor", "Neovim")


# --- what the body will not take ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "content"),
    [
        ("I can't drink milk anymore", "Cannot drink milk anymore"),
        ("I can't have dairy", "Cannot have dairy"),
        ("I cant eat nuts", "Cannot eat nuts"),
    ],
)
def test_what_one_cannot_eat_or_drink_is_kept(line: str, content: str) -> None:
    assert contents(line) == [content]


@pytest.mark.parametrize(
    "line",
    [
        "if I'm pregnant I can't eat sushi",  # a condition
        "I can't eat that",  # no thing named
        "I couldn't eat breakfast",  # one morning
        "I can't eat before a run",
        "I can't eat much",
        "I might not eat meat",
    ],
)
def test_what_one_could_not_or_might_not_eat_is_not(line: str) -> None:
    assert found(line) == []


# --- since when ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "since"),
    [
        ("I've been vegan since 2019", datetime(2019, 1, 1, tzinfo=UTC)),
        ("ive been vegan since 2019", datetime(2019, 1, 1, tzinfo=UTC)),
        # the last October before it was said
        ("I'm vegetarian now by the way, since October", datetime(2025, 10, 1, tzinfo=UTC)),
        ("I've been on sertraline since June", datetime(2025, 6, 1, tzinfo=UTC)),
    ],
)
def test_what_holds_since_a_time_holds_from_it(line: str, since: datetime) -> None:
    [memory] = found(line)
    assert memory.valid_from == since


def test_what_is_said_with_no_since_holds_from_when_said() -> None:
    [memory] = found("I'm vegan")
    assert memory.valid_from == SAID_AT


# --- medicines one is on --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "content"),
    [
        ("I'm on antidepressants", "Takes antidepressants"),
        ("I'm on metformin and insulin", "Takes metformin and insulin"),
        ("I've been on sertraline since June", "Has been taking sertraline since June 2025"),
    ],
)
def test_a_medicine_one_is_on_is_taken(line: str, content: str) -> None:
    [memory] = found(line)
    assert (memory.kind, memory.content) == (MemoryKind.HEALTH, content)


@pytest.mark.parametrize("line", ["I've been on holiday", "I was on antibiotics last month", "I'm on it"])
def test_being_on_what_is_no_medicine_or_was_is_not(line: str) -> None:
    assert [c for c in found(line) if c.kind is MemoryKind.HEALTH] == []


# --- a relative's age, with their name --------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "content"),
    [
        ("my daughter Ffion is 7", "Has a daughter named Ffion, aged 7"),
        ("our son Leo turned 5 last week", "Has a son named Leo, aged 5"),
        ("My son Arjun turned three yesterday!", "Has a son named Arjun, aged 3"),
        ("my daughter turned 7 on Sunday", "Daughter is 7"),
        ("my daughter is seven", "Daughter is 7"),
    ],
)
def test_a_relatives_age_is_kept_once_with_their_name(line: str, content: str) -> None:
    assert contents(line) == [content]


@pytest.mark.parametrize(
    ("line", "content"),
    [
        ("my son Leo is turning 7", "Has a son named Leo, turning 7"),  # not "aged 7": not yet (rules/12)
        ("my daughter Ffion isn't 7", "Has a daughter named Ffion"),
        ("my son turned 200", None),
    ],
)
def test_an_age_not_had_now_is_not_kept(line: str, content: str | None) -> None:
    assert contents(line) == ([content] if content else [])


# --- a time is no employer ------------------------------------------------------------------------


def test_a_day_of_the_week_is_no_employer() -> None:
    [memory] = found("I volunteer at a food bank on Saturdays")
    assert (memory.attribute, memory.content) == (None, "Volunteers at a food bank on Saturdays")
    [named] = found("I work at Tesco on Saturdays")
    assert (named.attribute, named.value) == ("employer", "Tesco")


# --- studies, learning, what one is into ------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "kind", "content"),
    [
        ("I'm doing a PhD in chemistry", MemoryKind.FACT, "Is doing a PhD in chemistry"),
        ("I'm doing a masters in data science at Edinburgh", MemoryKind.FACT,
         "Is doing a masters in data science at Edinburgh"),
        ("I've just started learning the guitar", MemoryKind.FACT, "Has started learning the guitar"),
        ("I started learning Spanish in January", MemoryKind.FACT,
         "Started learning Spanish in January 2026"),
        ("I'm really into bouldering these days", MemoryKind.PREFERENCE, "Is into bouldering these days"),
        ("I'm into jazz", MemoryKind.PREFERENCE, "Is into jazz"),
    ],
)
def test_what_one_studies_learns_or_is_into_is_kept(line: str, kind: MemoryKind, content: str) -> None:
    [memory] = found(line)
    assert (memory.kind, memory.content) == (kind, content)


def test_learning_begun_in_a_month_holds_from_it() -> None:
    [memory] = found("I started learning Spanish in January")
    assert memory.valid_from == datetime(2026, 1, 1, tzinfo=UTC)


@pytest.mark.parametrize(
    "line",
    [
        "I'm into my second week",  # a span of time
        "I'm into it",
        "I was into punk as a teen",  # no longer
        "I'm doing the dishes",  # a chore, no course
        "I started cooking dinner",  # one evening
    ],
)
def test_what_is_no_study_or_liking_is_not(line: str) -> None:
    assert found(line) == []


# --- at home, and what one does not do at all ----------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "content"),
    [
        ("my mum lives with us now", "Mum lives with them"),
        ("my brother lives with me", "Brother lives with them"),
        ("I don't drink", "Does not drink"),
        ("I dont drive", "Does not drive"),
        ("I'm self employed", "Is self-employed"),
        ("I'm semi retired now", "Is semi-retired"),
    ],
)
def test_who_is_at_home_and_what_one_never_does_is_kept(line: str, content: str) -> None:
    assert contents(line) == [content]


@pytest.mark.parametrize(
    "line",
    [
        "my mum lived with us",  # no longer
        "my friend lives with me",  # a friend, said in passing
        "I didn't drive today",  # one day
        "I don't drive at night",
        "I can't drive",
        "I'm self conscious",
    ],
)
def test_what_was_once_or_only_sometimes_is_not(line: str) -> None:
    assert found(line) == []


# --- what one is, listed -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("I'm 34 and a nurse", [("Is 34", None), ("Is a nurse", "nurse")]),
        ("I'm 40, a teacher, and I live in York",
         [("Is 40", None), ("Is a teacher", "teacher"), ("Lives in York", "York")]),
        ("I am 74 and a retired teacher", [("Is 74", None), ("Is a retired teacher", "retired teacher")]),
        # one thing said with a word of its own: not a list
        ("I'm a nurse", [("Is a nurse", "nurse")]),
    ],
)
def test_each_thing_one_is_is_a_memory_of_its_own(line: str, expected: list[tuple[str, str | None]]) -> None:
    assert [(c.content, c.value) for c in found(line)] == expected


def test_a_time_said_of_one_listed_thing_is_not_the_others() -> None:
    # "widowed since 2019" is said beside the list: the age does not hold from 2019
    [age, job, _] = found("I am 74 and a retired teacher, widowed since 2019, and I live alone in Harrogate.")
    assert (age.content, age.valid_from) == ("Is 74", SAID_AT)
    assert job.value == "retired teacher"


# --- a weekday and its day of the month -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "content", "due"),
    [
        # said on Wednesday 20 May 2026: the next 12th that is a Thursday
        ("remind me to book the eye test for Thursday the 12th", "Book the eye test on 12 November 2026",
         datetime(2026, 11, 12, tzinfo=UTC)),
        ("remind me to call the vet on Friday the 22nd", "Call the vet on 22 May 2026",
         datetime(2026, 5, 22, tzinfo=UTC)),
        ("remind me to pay the deposit on Monday the 26th of October", "Pay the deposit on 26 October 2026",
         datetime(2026, 10, 26, tzinfo=UTC)),
    ],
)
def test_a_weekday_with_its_day_of_the_month_is_that_day(line: str, content: str, due: datetime) -> None:
    [todo] = found(line)
    assert (todo.content, todo.due_at) == (content, due)


# --- what the assistant is asked to stop offering; what the body does not take ------------------------------


@pytest.mark.parametrize(
    ("line", "content"),
    [
        ("stop suggesting recipes with mushrooms, I hate them",
         "Wants the assistant to stop suggesting recipes with mushrooms"),
        ("stop recommending podcasts", "Wants the assistant to stop recommending podcasts"),
        ("please stop calling me sir", "Wants the assistant to stop calling them sir"),
        ("dairy makes me bloated", "Dairy makes them bloated"),
        ("onions make me sick", "Onions make them sick"),
    ],
)
def test_what_to_stop_offering_and_what_disagrees_with_the_body_is_kept(line: str, content: str) -> None:
    assert contents(line) == [content]


@pytest.mark.parametrize(
    "line",
    [
        "suggest a recipe with mushrooms",  # one answer
        "stop suggesting it",
        "stop calling me",
        "my boss makes me sick",  # a person, said so
        "people make me sick",
        "that makes me sick",
        "the news made me sick",  # once
    ],
)
def test_one_answer_or_a_figure_of_speech_is_not(line: str) -> None:
    assert found(line) == []


# --- aids, teams, groups ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "kind", "content"),
    [
        ("I use a wheelchair", MemoryKind.HEALTH, "Uses a wheelchair"),
        ("I use hearing aids", MemoryKind.HEALTH, "Uses hearing aids"),
        ("I'm visually impaired", MemoryKind.HEALTH, "Is visually impaired"),
        ("I use a stick blender", MemoryKind.PREFERENCE, "Uses a stick blender"),  # a tool, no aid
        ("I support Celtic", MemoryKind.PREFERENCE, "Supports Celtic"),
        ("I'm in a book club", MemoryKind.FACT, "Is in a book club"),
        ("I'm in a band", MemoryKind.FACT, "Is in a band"),
    ],
)
def test_aids_teams_and_groups_are_kept_as_what_they_are(line: str, kind: MemoryKind, content: str) -> None:
    [memory] = found(line)
    assert (memory.kind, memory.content) == (kind, content)


@pytest.mark.parametrize(
    "line",
    ["I support my sister", "I support the idea", "I supported Leeds as a kid", "I'm in a meeting",
     "I was in a band at uni", "I'm in the team photo"],
)
def test_support_of_a_person_or_an_idea_and_a_place_for_now_are_not(line: str) -> None:
    assert found(line) == []


@pytest.mark.parametrize(
    ("line", "content"),
    [
        # one liking of two kinds of music, not a list of what one is
        ("I'm a fan of both classical like Bach and Mozart, as well as modern music like Ed Sheeran's songs.",
         "Is a fan of both classical like Bach and Mozart, as well as modern music like Ed Sheeran's songs"),
        # two jobs: one slot cannot hold both, the memory stays as said
        ("I'm a teacher and a nurse", "Is a teacher and a nurse"),
    ],
)
def test_what_is_not_an_age_and_a_job_stays_one_memory(line: str, content: str) -> None:
    assert contents(line) == [content]


# --- a job got, with whom and as what ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("I got a new job as a barista at Costa",
         [("Got a new job as a barista at Costa", "job_title", "barista"),
          ("Works at Costa", "employer", "Costa")]),
        ("I got a job at Tesco", [("Got a job at Tesco", "employer", "Tesco")]),
        ("I got a job with the NHS as a porter",
         [("Got a job with the NHS as a porter", "job_title", "porter"),
          ("Works at the NHS", "employer", "NHS")]),
        ("I got a new job as a senior hygienist",
         [("Got a new job as a senior hygienist", "job_title", "senior hygienist")]),
        # a place is no employer, and a name before "job" may be either
        ("I got a job at a hospital in Leeds", [("Got a job at a hospital in Leeds", None, None)]),
        ("I got the Brunswick job", [("Got the Brunswick job", None, None)]),
        ("I got the job!", [("Got the job", None, None)]),
    ],
)
def test_a_job_got_fills_the_slots_it_names(line: str, expected: list[tuple[str, str | None, str | None]]
                                            ) -> None:
    assert [(c.content, c.attribute, c.value) for c in found(line)] == expected


# --- a day said with a clock time, or untagged; what is booked for a day ahead ---------------------------


@pytest.mark.parametrize(
    ("line", "kind", "content", "due"),
    [
        ("I've got a job interview at 2pm tomorrow", MemoryKind.PLAN,
         "Has a job interview at 2pm on 21 May 2026", None),
        ("I've got an interview tomorrow", MemoryKind.PLAN, "Has an interview on 21 May 2026", None),
        ("remind me to call mum at 6pm tomorrow", MemoryKind.TODO, "Call mum at 6pm on 21 May 2026",
         datetime(2026, 5, 21, tzinfo=UTC)),
        ("I've booked a table at Dishoom for Friday", MemoryKind.PLAN,
         "Has booked a table at Dishoom on 22 May 2026", None),
        ("I've booked flights to Rome for June", MemoryKind.PLAN,
         "Has booked flights to Rome in June 2026", None),
    ],
)
def test_a_day_ahead_said_so_is_that_day(line: str, kind: MemoryKind, content: str,
                                         due: datetime | None) -> None:
    [memory] = found(line)
    assert (memory.kind, memory.content, memory.due_at) == (kind, content, due)
    assert memory.valid_from == SAID_AT  # a plan holds from when it was said


def test_what_was_booked_on_a_day_gone_by_is_that_day() -> None:
    [memory] = found("I booked my flights yesterday")
    assert (memory.kind, memory.valid_from) == (MemoryKind.EVENT, datetime(2026, 5, 19, tzinfo=UTC))
    assert found("I've booked it for Friday") == []  # no thing named


@pytest.mark.parametrize(
    ("line", "content", "due"),
    [
        ("my MOT is due next month", "MOT is due in June 2026", datetime(2026, 6, 1, tzinfo=UTC)),
        ("my car insurance is due on the 30th", "Car insurance is due on 30 May 2026",
         datetime(2026, 5, 30, tzinfo=UTC)),
    ],
)
def test_a_thing_of_theirs_falling_due_is_a_to_do_by_then(line: str, content: str, due: datetime) -> None:
    [todo] = found(line)
    assert (todo.kind, todo.content, todo.due_at) == (MemoryKind.TODO, content, due)


@pytest.mark.parametrize(
    "line", ["my essay was due yesterday", "my library books are due", "my sister is due in June"])
def test_what_fell_due_or_has_no_day_or_is_a_person_is_no_to_do(line: str) -> None:
    assert [c for c in found(line) if c.kind is MemoryKind.TODO] == []


# --- recovering, care begun, weight -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "content"),
    [
        ("I'm recovering from covid", "Is recovering from covid"),
        ("I'm getting over a chest infection", "Is getting over a chest infection"),
        ("I'm recovering from knee surgery", "Is recovering from knee surgery"),
        ("I've started seeing a therapist", "Has started seeing a therapist"),
        ("I've lost 5 kilos since January", "Has lost 5 kilos since January 2026"),
    ],
)
def test_recovery_care_and_weight_are_health(line: str, content: str) -> None:
    [memory] = found(line)
    assert (memory.kind, memory.content) == (MemoryKind.HEALTH, content)


@pytest.mark.parametrize(
    "line", ["I'm recovering from a late night", "I saw the doctor yesterday", "I lost my keys",
             "we lost 5 pounds on the bet"])
def test_a_night_out_a_visit_and_money_are_no_health(line: str) -> None:
    assert [c for c in found(line) if c.kind is MemoryKind.HEALTH] == []


def test_an_age_said_of_a_time_ahead_is_no_age_now() -> None:
    # "before I'm 40": when the goal is for, not how old they are
    assert contents("my goal is to run a marathon before I'm 40") == [
        "Wants to run a marathon before they are 40"]
    assert contents("I'm 39") == ["Is 39 years old"]


@pytest.mark.parametrize(
    ("line", "title"),
    [
        ("I'm Raj, a software developer in Pune", "software developer"),  # a place, no field
        ("I'm a PhD student in marine biology", "PhD student in marine biology"),  # a field
    ],
)
def test_a_place_after_a_job_is_no_part_of_its_title(line: str, title: str) -> None:
    assert [c.value for c in found(line) if c.attribute == "job_title"] == [title]


# --- their people: a pet's death once, a verdict no fact -------------------------------------------------


def test_a_named_pets_death_is_one_memory() -> None:
    [death] = found("our cat Miso died last week")
    assert (death.content, death.ends, death.ended_value) == ("Cat Miso died in the week of 11 May 2026",
                                                              ("pet_cat",), "Miso")
    assert contents("our dog died last month") == ["Dog died in April 2026"]


@pytest.mark.parametrize(
    ("line", "content"),
    [
        ("my boss is a nightmare", None),  # a verdict on them, not what they are
        ("my mum is a legend", None),
        ("my dad is a control freak", None),
        ("my sister is a nurse", "Sister is a nurse"),
        ("my brother is a Spurs fan", "Brother is a Spurs fan"),
    ],
)
def test_what_one_of_theirs_is_is_kept_and_a_verdict_on_them_is_not(line: str, content: str | None) -> None:
    assert contents(line) == ([content] if content else [])


def test_a_move_here_from_a_city_ends_that_city_as_home() -> None:
    [moved] = found("I moved here from Manchester two years ago")
    assert (moved.content, moved.ends, moved.ended_value, moved.valid_from) == (
        "Moved from Manchester in 2024", ("home_city",), "Manchester", datetime(2024, 1, 1, tzinfo=UTC))
    assert found("I moved here last year") == []  # no city named: nothing to end, none to fill
