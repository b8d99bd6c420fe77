"""Round twenty-one of the offline rules (rules/21): where the person is as they write, said in
passing ("Good evening from Leeds", "writing from our new flat in Clontarf", "I'm in Dundee now",
"the kids are at school here in Cork"), and the city of a business run or work done at a
workplace ("I run a bakery in Galway", "I teach maths at a primary school in Derby"). A place
one writes from is a guess at home unless the message speaks of a move; a visit gives nothing.
Every sentence is our own, none from a benchmark; each with what it must leave alone. Said on
Wednesday 20 May 2026."""

from __future__ import annotations

import pytest

from domain.commands import Message
from domain.extraction.candidate import Candidate
from domain.extraction.rules import extract
from infra.nlp import english_parser
from tests.unit.test_formation_rules13 import SAID_AT, found


def homes(line: str) -> list[Candidate]:
    return [c for c in found(line) if c.attribute == "home_city"]


@pytest.mark.parametrize(
    ("line", "city"),
    [
        ("Good evening from Leeds. Can you help me with a cover letter?", "Leeds"),
        ("hello from Dundee! quick question about my boiler", "Dundee"),
        ("Morning from Swansea. I need a packing list.", "Swansea"),
        ("Hi, writing from Aberdeen, the heating is broken again.", "Aberdeen"),
        ("Hiya, now I am writing from Cardiff with a question.", "Cardiff"),
    ],
)
def test_a_place_greeted_or_written_from_is_a_guess_at_home(line: str, city: str) -> None:
    made = homes(line)
    assert [(c.value, c.content, c.asserted) for c in made] == [(city, f"Lives in {city}", False)]


@pytest.mark.parametrize(
    ("line", "city", "content"),
    [
        ("Hi from Bilbao! We moved on Saturday and it's all boxes.", "Bilbao", "Lives in Bilbao"),
        ("Hello again, writing from our new flat in Clontarf!", "Clontarf", "Lives in Clontarf"),
        ("Hello from Porto. We moved into a flat in Bonfim, tiny but bright.", "Porto",
         "Lives in Porto, in a flat in Bonfim"),
    ],
)
def test_a_place_written_from_after_a_move_is_home(line: str, city: str, content: str) -> None:
    assert (city, content, True) in [(c.value, c.content, c.asserted) for c in homes(line)]


@pytest.mark.parametrize(
    "line",
    [
        "Hello from Rome! The hotel is lovely.",            # a visit
        "Greetings from Crete, day three of our holiday.",  # a visit
        "Hi from Tom and the kids!",                        # a person, no place
        "Hi from the train, the wifi is awful.",            # no place named
        "Writing from the airport in Madrid.",              # passing through
        "I got a letter from Dublin today.",                # a letter, not a greeting
    ],
)
def test_a_visit_or_no_place_gives_no_home(line: str) -> None:
    assert homes(line) == []


@pytest.mark.parametrize(
    ("line", "city"),
    [
        ("Hello, it's Maeve. I'm in Dundee now.", "Dundee"),
        ("Now we are in Utrecht, in a small flat near the canal.", "Utrecht"),
    ],
)
def test_where_one_is_now_is_home(line: str, city: str) -> None:
    assert [c.value for c in homes(line)] == [city]


@pytest.mark.parametrize(
    "line",
    [
        "I'm in Paris now for the week.",      # a stay, for a time
        "I'm not in Leeds now, I'm at mum's.",  # denied
        "Are you in Leeds now?",                # asked, and of someone else
        "My brother is in Leeds now.",          # someone else
    ],
)
def test_a_stay_or_someone_else_is_not_home(line: str) -> None:
    assert homes(line) == []


@pytest.mark.parametrize(
    ("line", "city"),
    [
        ("Single mum of three here in Limerick, so excuse the typos.", "Limerick"),
        ("The twins go to school here in Cork.", "Cork"),
    ],
)
def test_here_in_a_place_is_where_they_live(line: str, city: str) -> None:
    assert [c.value for c in homes(line)] == [city]


@pytest.mark.parametrize(
    "line",
    [
        "When I was here in Leeds we had a dog.",  # a time gone
        "Is it always this cold here in Oslo?",    # a question
        "We're here in Venice on holiday.",        # a visit
    ],
)
def test_here_in_a_time_gone_a_question_or_a_visit_is_not(line: str) -> None:
    assert homes(line) == []


@pytest.mark.parametrize(
    ("line", "city"),
    [
        ("I run a small bakery in Galway.", "Galway"),
        ("I manage a pub in Kilkenny.", "Kilkenny"),
        ("I teach maths at a primary school in Derby, have done for ten years.", "Derby"),
        ("I'm a solicitor at a small firm in Cape Town.", "Cape Town"),
        ("I'm a barista at a café in Ancoats, in Manchester.", "Manchester"),
    ],
)
def test_the_city_of_a_business_or_a_workplace_is_a_guess_at_home(line: str, city: str) -> None:
    made = homes(line)
    assert [(c.value, c.asserted) for c in made] == [(city, False)]


@pytest.mark.parametrize(
    "line",
    [
        "I swim at a pool in Leeds every week.",           # a pastime, not work
        "I'm a nurse in Leeds, commuting from York.",      # two places: which is home is not said
        "I ran a bakery in Galway years ago.",             # a business gone
    ],
)
def test_a_pastime_two_places_or_a_past_business_give_no_home(line: str) -> None:
    assert homes(line) == []


def test_a_home_said_outright_wins_over_one_written_from() -> None:
    said = [
        Message(role="user", content="Good morning from Paris!", timestamp=SAID_AT),
        Message(role="user", content="I live in Lyon, I'm just here for a meeting.", timestamp=SAID_AT),
    ]
    made = [c for c in extract(said, SAID_AT, english_parser()) if c.attribute == "home_city"]
    assert [c.value for c in made] == ["Lyon"]


@pytest.mark.parametrize(
    ("line", "city"),
    [
        ("I'm not a welder here in Olsztyn", "Olsztyn"),
        ("my brother is a welder here in Olsztyn", "Olsztyn"),
        ("I'm in Paris now", "Paris"),
    ],
)
def test_here_or_now_places_the_one_who_writes_as_a_guess_only(line: str, city: str) -> None:
    assert [(c.value, c.asserted) for c in homes(line)] == [(city, False)]


# --- the day the job talked of starts ---------------------------------------------------------------


def said(*lines: str) -> list[Candidate]:
    messages = [Message(role="user", content=line, timestamp=SAID_AT) for line in lines]
    return extract(messages, SAID_AT, english_parser())


def starts(*lines: str) -> list[str]:
    return [c.content for c in said(*lines) if c.extractor.endswith(":job_started")]


@pytest.mark.parametrize(
    ("lines", "memory"),
    [
        (("Harwood & Finch offered me a job as a junior copywriter.", "I start on 6 July."),
         "Starts as junior copywriter at Harwood & Finch on 6 July 2026"),
        (("I got the night manager job at the Grand!", "start June 1, so I need a flat"),
         "Starts as night manager at Grand on 1 June 2026"),
        (("I accepted a senior nurse post at Whitfield, starting 3 August",),
         "Starts as senior nurse at Whitfield on 3 August 2026"),
        (("Big news, I got a job at Brightwell in Norwich.", "I start there on the 1st of July."),
         "Starts the new job at Brightwell in Norwich on 1 July 2026"),
    ],
)
def test_a_start_day_is_the_start_of_the_job_talked_of(lines: tuple[str, ...], memory: str) -> None:
    assert starts(*lines) == [memory]


@pytest.mark.parametrize(
    "lines",
    [
        ("I start on 6 July.",),                                                # no job talked of
        ("I got a job at Brightwell.", "I start the course on Monday."),        # a course
        ("I got a job at Brightwell.", "The course starts on 6 July."),         # the course's start
        ("I got a job at Brightwell.", "Starting Tuesday I'm bowling with Ray."),  # something else
        ("I got a job at Brightwell.", "I'm doing an MBA too. I start in September."),  # a course
        ("I got a job at Brightwell.", "Do I start on Monday?"),                # asked
        ("I got a job at Brightwell.", "I started on Monday."),                 # begun already: no plan
    ],
)
def test_a_start_with_no_job_or_of_something_else_is_not_one(lines: tuple[str, ...]) -> None:
    assert starts(*lines) == []
