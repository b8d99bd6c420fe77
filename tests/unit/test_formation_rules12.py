"""Round twelve of the offline rules (rules/12): one memory of one of the person's people with
where they live, a pet with its breed and age, a medicine with its dose, requests said without a
verb, what holds "if that matters", a job one has just got, home said in the progressive. Every
sentence is our own, none from a benchmark; each with what it must leave alone."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from domain.commands import Message
from domain.extraction.candidate import Candidate
from domain.extraction.rules import extract
from domain.model import MemoryKind
from infra.nlp import english_parser

SAID_AT = datetime(2026, 5, 20, 12, 0, tzinfo=UTC)  # a Wednesday


def found(line: str) -> list[Candidate]:
    return extract([Message(role="user", content=line, timestamp=SAID_AT)], SAID_AT, english_parser())


def contents(line: str) -> list[str]:
    return [c.content for c in found(line)]


# --- one of theirs, and where they live ------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("my son Tariq lives in Leeds", "Has a son named Tariq who lives in Leeds"),
        ("my aunt Rosa is in Lisbon, we speak every Sunday",
         "Has an aunt named Rosa who lives in Lisbon"),
        ("my cousin Ade, who lives in Lagos, is getting married",
         "Has a cousin named Ade who lives in Lagos"),
        # a visit comes from home
        ("my daughter Ines is coming down from Aberdeen next week",
         "Has a daughter named Ines who lives in Aberdeen"),
        # one of a slot is named already
        ("my husband Omar lives in Beirut for now", "Husband is named Omar and lives in Beirut"),
        # where one is from is not where one lives
        ("my wife Olena comes from Kyiv", "Wife is named Olena and comes from Kyiv"),
    ],
)
def test_one_of_theirs_named_with_where_they_live_is_one_memory(line: str, memory: str) -> None:
    people = [c.content for c in found(line) if c.kind is MemoryKind.PERSON]
    assert people == [memory]


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("my sister Jo is in Paris this week", "Has a sister named Jo"),  # there for a while
        ("my mum Rose is in Spain until June", "Has a mum named Rose"),
        ("my brother Sam is in hospital", "Has a brother named Sam"),  # no place to live
        ("my son Ali might be in Leeds", "Has a son named Ali"),
        ("my brother Tom lived in Rome", "Has a brother named Tom"),  # once
        ("my sister Anna doesn't live in Paris anymore", "Has a sister named Anna"),
    ],
)
def test_where_they_are_for_a_while_or_were_is_not_where_they_live(line: str, memory: str) -> None:
    assert [c.content for c in found(line) if c.kind is MemoryKind.PERSON] == [memory]


# --- a pet: its breed, its age -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("my 8-year-old spaniel Toffee is slowing down", "Has a dog named Toffee, an 8-year-old spaniel"),
        ("we have a 3 year old whippet called Pip", "Has a dog named Pip, a 3-year-old whippet"),
        ("our cat Miso is 12", "Has a cat named Miso, aged 12"),
        ("my dog Rex is 4 years old", "Has a dog named Rex, aged 4"),
        ("my beagle Bonnie is turning 9", "Has a dog named Bonnie, a beagle, turning 9"),  # not yet 9
        # "my" hung on the name by the parser, the noun a compound of it
        ("my dog Biscuit loves the beach", "Has a dog named Biscuit"),
        ("my dog's name is Waffle", "Has a dog named Waffle"),
        ("we have a kitten called Sushi", "Has a cat named Sushi"),  # a kitten is no breed
    ],
)
def test_a_pet_is_kept_with_its_breed_and_age(line: str, memory: str) -> None:
    assert [c.content for c in found(line) if c.attribute and c.attribute.startswith("pet_")] == [memory]


@pytest.mark.parametrize(
    "line",
    [
        "my dog is 12",  # no name: no pet of a slot
        "my dog's name isn't Rex",
        "is my dog's name Rex?",
    ],
)
def test_no_pet_without_its_name_said(line: str) -> None:
    assert [c for c in found(line) if c.attribute and c.attribute.startswith("pet_")] == []


def test_an_age_denied_is_no_age() -> None:
    assert contents("my cat Luna isn't 12") == ["Has a cat named Luna"]


def test_a_name_that_was_is_no_one_they_have() -> None:
    assert [c for c in found("my grandad's name was Albert") if c.kind is MemoryKind.PERSON] == []
    assert contents("my son's name is Kai") == ["Has a son named Kai"]


# --- a medicine and its dose -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("the GP put me on metformin 500mg twice a day", "Takes metformin 500mg twice a day"),
        ("they put me on 20mg of citalopram", "Takes 20mg of citalopram"),
        ("she put me on ramipril 5mg", "Takes ramipril 5mg"),
        ("they put me on omeprazole", "Takes omeprazole"),
    ],
)
def test_a_medicine_one_is_put_on_keeps_its_dose(line: str, memory: str) -> None:
    assert [c.content for c in found(line) if c.kind is MemoryKind.HEALTH] == [memory]


def test_put_on_something_else_is_no_medicine() -> None:
    assert found("they put me on a waiting list for 20 weeks") == []


# --- a condition on the telling ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("I'm coeliac, if that helps", "Is coeliac"),
        ("I'm vegetarian if it's relevant", "Is vegetarian"),
        ("Also I'm a nurse, if that matters to you", "Is a nurse"),
    ],
)
def test_if_that_matters_is_a_condition_on_the_telling(line: str, memory: str) -> None:
    assert memory in contents(line)


@pytest.mark.parametrize(
    "line",
    [
        "I'd go vegan if it helps the planet",
        "I'll be vegan if that matters to her",  # a condition on someone else
        "I'm vegan if I'm at home",
    ],
)
def test_a_condition_on_what_is_told_still_holds_it_back(line: str) -> None:
    assert found(line) == []


# --- a job just got ---------------------------------------------------------------------------------


def test_a_job_one_has_got_fills_the_job_and_the_employer() -> None:
    memories = {(c.kind, c.content, c.attribute, c.value)
                for c in found("Great news, I've got a job as a sous chef at Dishoom")}
    assert memories == {
        (MemoryKind.EVENT, "Got a job as a sous chef at Dishoom", "job_title", "sous chef"),
        (MemoryKind.FACT, "Works at Dishoom", "employer", "Dishoom"),
    }


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("I've got a job interview on Friday", MemoryKind.PLAN),  # an interview to have
        ("I've got two cats", None),  # what one has: no event
    ],
)
def test_what_one_has_got_is_not_a_job_got(line: str, kind: MemoryKind | None) -> None:
    assert all(c.kind is not MemoryKind.EVENT for c in found(line))
    if kind is not None:
        assert [c.kind for c in found(line)] == [kind]


# --- requests with no verb ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("no emojis please", "Does not want emojis"),
        ("please, no bullet points", "Does not want bullet points"),
        ("no jargon ever", "Does not want jargon"),
        ("No tables in your replies", "Does not want tables in replies"),
        ("no headings again please, and keep it short", "Does not want headings"),
    ],
)
def test_a_request_said_without_a_verb_is_a_preference(line: str, memory: str) -> None:
    assert memory in contents(line)


@pytest.mark.parametrize(
    "line",
    [
        "no onions please",  # one order, not how to be answered
        "No rush, please",
        "no emojis",  # may answer a question
        "no kids, no pets",
        "No worries, please take your time",
    ],
)
def test_a_no_that_asks_nothing_of_answers_gives_none(line: str) -> None:
    assert [c for c in found(line) if c.kind is MemoryKind.PREFERENCE] == []


# --- plans to get a thing; home in the progressive ---------------------------------------------


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("we're adopting a kitten on Saturday", "Is adopting a kitten on 23 May 2026"),
        ("I'm buying a van next month", "Is buying a van in June 2026"),
        ("we're getting a puppy in July", "Is getting a puppy in July 2026"),
    ],
)
def test_a_thing_to_get_on_a_day_is_a_plan(line: str, memory: str) -> None:
    assert [(c.kind, c.content) for c in found(line)] == [(MemoryKind.PLAN, memory)]


@pytest.mark.parametrize("line", ["we get the keys on the 25th", "I'm getting better",
                                  "I get paid on Friday"])
def test_getting_said_of_little_is_no_plan(line: str) -> None:
    assert [c for c in found(line) if c.kind is MemoryKind.PLAN] == []


@pytest.mark.parametrize(
    ("line", "memory", "city"),
    [
        ("I'm living in Bristol now", "Is living in Bristol", "Bristol"),
        ("we sold up, living in Cork now", "Lives in Cork", "Cork"),
        ("I'll still live in Derby, it's close enough", "Still lives in Derby", "Derby"),
    ],
)
def test_home_said_in_the_progressive_or_still_is_home_now(line: str, memory: str, city: str) -> None:
    homes = [(c.kind, c.content, c.value) for c in found(line) if c.attribute == "home_city"]
    assert homes == [(MemoryKind.FACT, memory, city)]


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("I'm living in Leeds from June", MemoryKind.PLAN),  # from a time ahead
        ("I'll live in Leeds", MemoryKind.PLAN),
        ("my sister moved, living in Leeds now", None),  # hers, not theirs
    ],
)
def test_home_ahead_or_someone_elses_is_not_home_now(line: str, kind: MemoryKind | None) -> None:
    memories = found(line)
    assert all(c.attribute != "home_city" for c in memories)
    assert [c.kind for c in memories] == ([kind] if kind else [])


# --- what one uses; an aside before a body part ------------------------------------------------


@pytest.mark.parametrize(
    ("line", "kind", "memory"),
    [
        ("I use Obsidian for notes", MemoryKind.PREFERENCE, "Uses Obsidian for notes"),
        # used for years: a habit of long standing
        ("I've used a standing desk for 3 years", MemoryKind.FACT, "Has used a standing desk for 3 years"),
    ],
)
def test_what_one_uses_is_kept_by_how_long(line: str, kind: MemoryKind, memory: str) -> None:
    assert [(c.kind, c.content) for c in found(line)] == [(kind, memory)]


def test_using_what_names_no_thing_gives_none() -> None:
    assert found("I can't take more days off, I've used most of mine already") == []


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("ten deliveries back to back, my back is killing me", "Back is killing them"),  # the aside: no part
        ("after the run my knee is swollen", "Knee is swollen"),
    ],
)
def test_a_body_part_is_said_without_the_aside_before_it(line: str, memory: str) -> None:
    assert [c.content for c in found(line) if c.kind is MemoryKind.HEALTH] == [memory]


# --- a title without the year of study ---------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "memory", "title"),
    [
        ("I'm a final year medical student", "Is a final year medical student", "medical student"),
        ("I'm a 2nd year nursing student at Leeds", "Is a 2nd year nursing student at Leeds",
         "nursing student"),
        ("I'm a first-year teacher", "Is a first-year teacher", "teacher"),
        ("I'm a sous chef", "Is a sous chef", "sous chef"),  # nothing to leave out
    ],
)
def test_the_year_of_study_stays_in_the_memory_not_in_the_title(line: str, memory: str,
                                                                title: str) -> None:
    (job,) = [c for c in found(line) if c.attribute == "job_title"]
    assert (job.content, job.value) == (memory, title)


# --- children counted, with their names and ages ------------------------------------------------


@pytest.mark.parametrize(
    ("line", "kind", "memory"),
    [
        ("I have two boys, aged 5 and 8", MemoryKind.PERSON, "Has two boys, aged 5 and 8"),
        ("We have two girls, 7 and 3. Busy house", MemoryKind.PERSON, "Has two girls, aged 7 and 3"),
        ("I have two kids, Sam (7) and Ella (4)", MemoryKind.PERSON, "Has two kids, Sam (7) and Ella (4)"),
        # not every one named with an age: as said
        ("I have two kids, Sam is 7", MemoryKind.PERSON, "Has two kids"),
        ("I have two cats", MemoryKind.FACT, "Has two cats"),  # animals are facts of the household
    ],
)
def test_children_counted_keep_their_names_and_ages(line: str, kind: MemoryKind, memory: str) -> None:
    assert [(c.kind, c.content) for c in found(line)] == [(kind, memory)]


@pytest.mark.parametrize(
    ("line", "memories"),
    [
        ("we've got two kids, Mateo is 8 and Sofia is 5",
         ["Has a child named Mateo, aged 8", "Has a child named Sofia, aged 5"]),
        ("I have three kids: Jo 12, Sam 9 and Ali 4",
         ["Has a child named Jo, aged 12", "Has a child named Sam, aged 9", "Has a child named Ali, aged 4"]),
        ("I have two boys, Tom 7 and Ben 4", ["Has a son named Tom, aged 7", "Has a son named Ben, aged 4"]),
        # animals counted and named stay one fact of the household
        ("I have two cats, Miso 3 and Tofu 5", ["Has two cats: Miso (3) and Tofu (5)"]),
    ],
)
def test_children_counted_with_names_and_ages_are_one_memory_each(line: str, memories: list[str]) -> None:
    assert [c.content for c in found(line)] == memories


def test_a_school_named_by_a_place_is_no_employer() -> None:
    # "Valencia" is tagged a person by the small model; after "in" on "a secondary school" it is where
    memories = found("I teach maths at a secondary school in Valencia")
    assert [(c.content, c.attribute) for c in memories] == [
        ("Teaches maths at a secondary school in Valencia", None)]


# --- a promotion's title; off to a place ----------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "memory", "title"),
    [
        ("I got promoted to team lead", "Got promoted to team lead", "team lead"),
        ("I've been promoted to senior designer", "Has been promoted to senior designer", "senior designer"),
        ("I got promoted to the night shift", "Got promoted to the night shift", None),  # no title
    ],
)
def test_a_promotion_to_a_title_fills_the_job(line: str, memory: str, title: str | None) -> None:
    (event,) = found(line)
    assert (event.kind, event.content, event.value) == (MemoryKind.EVENT, memory, title)


@pytest.mark.parametrize("line", ["I hope to get promoted to manager", "my sister got promoted to director"])
def test_a_promotion_hoped_for_or_someone_elses_fills_no_job(line: str) -> None:
    assert all(c.attribute != "job_title" for c in found(line))


def test_off_to_a_place_the_small_model_took_for_an_organisation_is_a_plan() -> None:
    assert [(c.kind, c.content) for c in found("we're off to Crete for a week in July")] == [
        (MemoryKind.PLAN, "Is off to Crete for a week in July 2026")]
    assert found("I'm off to the shops") == []


# --- an illness that passed, with when ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "memory", "since"),
    [
        ("I caught the flu at Christmas", "Caught the flu at Christmas 2025",
         datetime(2025, 12, 25, tzinfo=UTC)),
        ("I had a chest infection in January", "Had a chest infection in January 2026",
         datetime(2026, 1, 1, tzinfo=UTC)),
    ],
)
def test_an_illness_that_passed_is_kept_with_when(line: str, memory: str, since: datetime) -> None:
    assert [(c.kind, c.content, c.valid_from) for c in found(line)] == [(MemoryKind.HEALTH, memory, since)]


@pytest.mark.parametrize("line", ["I had pneumonia", "I've had flu twice", "my son had flu last week"])
def test_an_illness_with_no_time_or_someone_elses_gives_none(line: str) -> None:
    assert [c for c in found(line) if c.kind is MemoryKind.HEALTH] == []


# --- a kind of person; "no ..." after a comma ------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("I'm a cat person", "Is a cat person"),
        ("I'm more of a tea person", "Is more of a tea person"),
        ("I'm not a morning person", "Is not a morning person"),
    ],
)
def test_a_kind_of_person_one_is_is_a_preference(line: str, memory: str) -> None:
    assert [(c.kind, c.content) for c in found(line)] == [(MemoryKind.PREFERENCE, memory)]


@pytest.mark.parametrize("line", ["I'm a private person", "is he a dog person?",
                                  "I'm the person who booked it"])
def test_a_person_said_of_how_one_is_or_of_someone_else_gives_none(line: str) -> None:
    assert found(line) == []


def test_no_after_a_comma_asks_of_answers_too() -> None:
    assert "Does not want recipes with eggs" in contents("I'm vegan, so no recipes with eggs please")
    assert "Does not want examples in Python" in contents("no examples in Python please")
    rush = found("there's no rush, please take your time")
    assert [c for c in rush if c.kind is MemoryKind.PREFERENCE] == []


# --- titles: "head of", "started as" ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "title"),
    [
        ("I'm the head of sales at a fintech in London", "head of sales"),
        ("I'm head of maths at a school in Leeds", "head of maths"),
        ("I'm a junior dev at Monzo", "junior dev"),
        ("I just started as a junior dev at Monzo", "junior dev"),
        ("I joined Acme as an analyst last month", "analyst"),
    ],
)
def test_a_title_said_as_a_head_of_or_started_as_fills_the_job(line: str, title: str) -> None:
    assert [c.value for c in found(line) if c.attribute == "job_title"] == [title]


@pytest.mark.parametrize("line", ["I'm the head of the family", "I'm head of the PTA",
                                  "I'm starting as a nurse in June"])  # the last: a plan, not the job now
def test_a_head_of_a_thing_named_or_a_start_ahead_fills_no_job(line: str) -> None:
    assert all(c.attribute != "job_title" for c in found(line))


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("my parents live in Cork", "Parents live in Cork"),
        ("my grandparents live with us", "Grandparents live with them"),
    ],
)
def test_parents_are_of_the_persons_people(line: str, memory: str) -> None:
    assert [(c.kind, c.content) for c in found(line)] == [(MemoryKind.PERSON, memory)]


def test_someone_elses_parents_are_not_theirs() -> None:
    assert found("his parents live in Cork") == []


# --- chat that leaves the "I" out of how one feels, or of "can't" ------------------------------------


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("hate cold weather tbh", "Hates cold weather"),
        ("prefer tea to coffee", "Prefers tea to coffee"),
        ("cant eat nuts, allergic", "Cannot eat nuts"),
        ("I can't drink milk, it makes me ill", "Cannot drink milk"),
    ],
)
def test_a_feeling_or_a_cannot_with_its_i_left_out_is_the_persons(line: str, memory: str) -> None:
    assert contents(line) == [memory]


@pytest.mark.parametrize("line", ["Love it!", "enjoy your weekend!", "can't wait for Friday",
                                  "Can you help me?",
                                  # a reaction to what was just shown is no lasting taste
                                  "Love that painting!", "Love the colours on this one"])
def test_a_reaction_a_wish_or_a_question_gets_no_subject(line: str) -> None:
    assert found(line) == []


# --- an age still to come; an aside after a visit's day ------------------------------------------------


@pytest.mark.parametrize(
    ("line", "memory"),
    [
        ("It's for my daughter Mia, she's turning 9", "Has a daughter named Mia, turning 9"),
        ("It's my son Leo, he's 7", "Has a son named Leo, aged 7"),
        ("she said my son Leo, he's 7", "Has a son named Leo"),  # told by someone else: no age
    ],
)
def test_an_age_said_after_the_name_is_kept_as_it_was_said(line: str, memory: str) -> None:
    assert [c.content for c in found(line) if c.kind is MemoryKind.PERSON] == [memory]


def test_an_aside_after_a_visits_day_is_no_part_of_it() -> None:
    line = ("my parents are coming over from Seoul at the end of June, "
            "their first trip abroad in twenty years.")
    assert [(c.kind, c.content) for c in found(line)] == [
        (MemoryKind.PLAN, "Parents are coming over from Seoul at the end of June 2026")]
