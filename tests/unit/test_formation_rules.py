"""Round two of the offline rules (issue 29): health, plans, the people who are no longer the
person's, "we" that is a company, a job said with its employer, an errand named before "remind
me", a condition put to the listener, lines typed in capitals or with a lower-case "i", and the
times people say ("by the end of next year", "in a fortnight", "mid-March", "14/03/2027").
Each rule with what it must leave alone. Every sentence is our own, none from a benchmark."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from domain.commands import Message
from domain.extraction.candidate import Candidate
from domain.extraction.render import times
from domain.extraction.rules import extract
from domain.extraction.times import resolve_phrase, resolve_written_date
from domain.model import MemoryKind
from domain.text.english import typed_plainly, unshouted
from infra.nlp import english_parser

SAID_AT = datetime(2026, 3, 10, 9, 0, tzinfo=UTC)  # a Tuesday


def found(line: str, at: datetime = SAID_AT) -> list[Candidate]:
    return extract([Message(role="user", content=line, timestamp=at)], at, english_parser())


def by_rule(line: str, rule: str) -> list[Candidate]:
    """What the rule of that name found in the line."""
    return [c for c in found(line) if c.extractor.endswith(f":{rule}")]


def kinds(line: str) -> list[tuple[str, str]]:
    return [(c.kind.value, c.content) for c in found(line)]


# --- times ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("phrase", "future", "start", "text"),
    [
        ("by the end of next year", True, date(2027, 12, 31), "by the end of 2027"),
        ("the end of the month", True, date(2026, 3, 31), "at the end of March 2026"),
        ("end of next month", True, date(2026, 4, 30), "at the end of April 2026"),
        ("in a fortnight", True, date(2026, 3, 23), "in the week of 23 March 2026"),
        ("a fortnight ago", False, date(2026, 2, 24), "on 24 February 2026"),
        ("the day after tomorrow", True, date(2026, 3, 12), "on 12 March 2026"),
        ("this coming friday", True, date(2026, 3, 13), "on 13 March 2026"),
        ("early next year", True, date(2027, 1, 1), "in early 2027"),
        ("mid-june", True, date(2026, 6, 11), "in mid June 2026"),
        ("late january", True, date(2027, 1, 21), "in late January 2027"),
        ("late january", False, date(2026, 1, 21), "in late January 2026"),
        ("the beginning of next month", True, date(2026, 4, 1), "in early April 2026"),
        ("on new year's day", True, date(2027, 1, 1), "on 1 January 2027"),
        ("tuesday night", True, date(2026, 3, 10), "on 10 March 2026"),  # said on a Tuesday: tonight
        ("tuesday", True, date(2026, 3, 17), "on 17 March 2026"),  # the next one
    ],
)
def test_more_of_the_times_people_say_are_resolved(phrase: str, future: bool, start: date, text: str) -> None:
    when = resolve_phrase(phrase, SAID_AT, future)
    assert when is not None and (when.start, when.text) == (start, text)


@pytest.mark.parametrize(
    ("phrase", "day"),
    [
        ("14/03/2027", date(2027, 3, 14)),  # the day is over 12: day first
        ("03/14/2027", date(2027, 3, 14)),  # month first
        ("2027-03-14", date(2027, 3, 14)),
        ("the 2nd of april 2027", date(2027, 4, 2)),
    ],
)
def test_a_written_date_is_read_by_dateparser(phrase: str, day: date) -> None:
    when = resolve_written_date(phrase, SAID_AT, True)
    assert when is not None and when.start == day


@pytest.mark.parametrize("phrase", ["3/4", "04/05/2027", "three years", "the 90s", "a while"])
def test_a_date_whose_order_is_unsure_or_that_names_no_day_is_nothing(phrase: str) -> None:
    assert resolve_written_date(phrase, SAID_AT, True) is None


def test_since_looks_back_whatever_the_verb() -> None:
    (sore,) = found("My knee has hurt since Friday.")
    assert sore.valid_from == datetime(2026, 3, 6, tzinfo=UTC)


# --- how a line is typed --------------------------------------------------------------------------------


def test_a_shouted_line_is_read_in_lower_case_and_a_lone_i_as_I() -> None:
    assert (
        unshouted("MY KNEE IS BETTER NOW. I WALKED TWO MILES") == "My knee is better now. I walked two miles"
    )
    assert unshouted("I LOVE this song") == "I LOVE this song"  # one word shouted: left
    assert unshouted("NASA and ESA") == "NASA and ESA"
    assert typed_plainly("ok i'm home, im tired and i hate rain") == "ok I'm home, I'm tired and I hate rain"
    assert typed_plainly("my iPhone and the wifi") == "my iPhone and the wifi"
    assert kinds("I HAVE HAD ASTHMA FOR YEARS") == [("health", "Has had asthma for years")]


# --- health -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "content"),
    [
        ("I have asthma.", "Has asthma"),
        ("I'm allergic to shellfish.", "Is allergic to shellfish"),
        ("I'm diabetic, type 1.", "Is diabetic type 1"),
        ("My GP says I'm anaemic.", "Is anaemic"),  # a diagnosis, told by the one who makes it
        ("I'm on sertraline, 50mg a day.", "Takes sertraline 50mg a day"),
        ("I take vitamin D every morning.", "Takes vitamin D every morning"),
        ("I broke my ankle last Saturday.", "Broke their ankle on 7 March 2026"),
        ("I had a knee operation in 2024.", "Had a knee operation in 2024"),
        ("I quit smoking two months ago.", "Quit smoking in January 2026"),
        ("I gave up alcohol in January.", "Gave up alcohol in January 2026"),
        ("I've cut out fizzy drinks.", "Has cut out fizzy drinks"),
        ("I have high cholesterol.", "Has high cholesterol"),
        ("My shoulder has been stiff since Sunday.", "Shoulder has been stiff since 8 March 2026"),
        ("My wrists are sore.", "Wrists are sore"),
        ("I have a dentist appointment on Friday.", "Has a dentist appointment on 13 March 2026"),
        ("My cataract surgery is scheduled for April 14.", "Cataract surgery is scheduled on 14 April 2026"),
    ],
)
def test_what_is_said_of_ones_health_is_a_health_memory(line: str, content: str) -> None:
    (memory,) = found(line)
    assert (memory.kind, memory.content) == (MemoryKind.HEALTH, content)


def test_a_health_memory_holds_from_the_time_it_names() -> None:
    (injury,) = found("I sprained my wrist yesterday.")
    assert injury.valid_from == datetime(2026, 3, 9, tzinfo=UTC)
    (ahead,) = found("My hip operation is on the 20th.")
    assert ahead.valid_from == SAID_AT and "20 March 2026" in ahead.content


@pytest.mark.parametrize(
    "line",
    [
        "My neighbour says I'm anaemic.",  # not a diagnosis
        "My mum's surgery is on Friday.",  # someone else's
        "My brother quit smoking.",
        "I don't have asthma.",
        "Do I have diabetes?",
        "If I had diabetes I would know.",
        "I have a meeting on Friday.",  # not a health appointment (nor an occasion)
        "I cut the grass.",
        "I gave up my seat on the bus.",
        "I take the bus to work.",  # not a medicine
    ],
)
def test_what_is_not_ones_own_health_is_left(line: str) -> None:
    assert [c for c in found(line) if c.kind is MemoryKind.HEALTH] == []


@pytest.mark.parametrize(
    ("line", "content"),
    [
        ("I've been getting nosebleeds again, two since Sunday.", "Gets nosebleeds again"),
        ("I've been having panic attacks at work.", "Gets panic attacks"),
        ("I've been getting pains in my left hip.", "Gets pains in their left hip"),
        ("I have been getting eczema on my hands.", "Gets eczema"),
    ],
)
def test_a_complaint_that_keeps_coming_back_is_what_the_person_gets(line: str, content: str) -> None:
    assert [m.content for m in by_rule(line, "recurring")] == [content]


@pytest.mark.parametrize(
    "line",
    [
        "Have you been getting nosebleeds?",
        "I haven't been getting cramps since I stretch.",
        "My son has been getting nightmares.",  # someone else's
        "She says she's been getting hives.",  # reported
        "If I'd been having palpitations I would have called.",
        "I've been getting emails from my landlord.",  # not a complaint
        "I've been having a great week.",
        "I had a nosebleed on the train.",  # one bout, not a recurring complaint
    ],
)
def test_what_is_not_ones_own_recurring_complaint_is_left(line: str) -> None:
    assert by_rule(line, "recurring") == []


# --- plans --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "content"),
    [
        ("We're moving to Leeds in May.", "Is moving to Leeds in May 2026"),
        ("I have my driving test on the 19th.", "Has their driving test on 19 March 2026"),
        ("I'm taking the bar exam in July.", "Is taking the bar exam in July 2026"),
        ("I'm doing a triathlon in June.", "Is doing a triathlon in June 2026"),
        ("I start at Acme on April 1.", "Starts at Acme on 1 April 2026"),
        ("I fly to Rome on Friday.", "Flies to Rome on 13 March 2026"),
        ("I'm taking next week off.", "Is taking time off in the week of 16 March 2026"),
    ],
)
def test_what_the_person_will_do_on_a_date_is_a_plan_held_from_when_said(line: str, content: str) -> None:
    (memory,) = found(line)
    assert (memory.kind, memory.content, memory.valid_from) == (MemoryKind.PLAN, content, SAID_AT)


@pytest.mark.parametrize(
    "line",
    [
        "I'm doing laundry on Friday.",  # no occasion
        "I have a meeting on Friday.",
        "I might move to Leeds in May.",  # supposed
        "Am I flying on Friday?",
        "My sister is moving to Leeds in May.",  # someone else's
        "I'm flying on Friday.",  # no place
    ],
)
def test_what_is_no_plan_of_the_persons_is_left(line: str) -> None:
    assert [c for c in found(line) if c.kind is MemoryKind.PLAN] == []


# --- people and "we" ----------------------------------------------------------------------------------------


def test_one_who_died_or_is_an_ex_fills_no_slot_and_a_death_keeps_its_time() -> None:
    (died,) = found("My husband Ernesto died two years ago.")
    assert (died.content, died.attribute, died.valid_from) == (
        "Husband Ernesto died in 2024",
        None,
        datetime(2024, 1, 1, tzinfo=UTC),
    )
    (late,) = found("My late wife Anna loved roses.")
    assert (late.content, late.attribute) == ("Late wife is named Anna", None)
    (alive,) = found("My husband Ernesto loves roses.")
    assert (alive.attribute, alive.value) == ("partner", "Ernesto")


def test_a_name_after_a_pet_parsed_as_a_second_subject_is_still_its_name() -> None:
    assert [(c.attribute, c.value) for c in found("my dog Biscuit just ate my sandwich")] == [
        ("pet_dog", "Biscuit")
    ]


@pytest.mark.parametrize(
    ("line", "kind", "content"),
    [
        ("learning Spanish at night school", "fact", "Is learning Spanish at night school"),
        ("- studying nursing at Monash", "fact", "Is studying nursing at Monash"),
        ("also moved to Leeds in May", "fact", "Moved to Leeds in May 2025"),
    ],
)
def test_a_line_that_left_out_its_subject_is_read_as_the_persons(line: str, kind: str, content: str) -> None:
    assert kinds(line) == [(kind, content)]


@pytest.mark.parametrize(
    "line",
    ["Sounds good", "make the plan in a table", "moving to Leeds?", "Got it, thanks",
     "She moved to Leeds in May"],
)
def test_a_line_with_a_subject_an_order_or_a_question_gets_none(line: str) -> None:
    assert found(line) == []


def test_where_one_flies_to_is_a_place_whatever_the_small_model_takes_it_for() -> None:
    # The small model takes "Davao" for a person and "Mendoza" for nothing.
    assert kinds("I'm flying to Davao for my friend's graduation on July 3.") == [
        ("plan", "Is flying to Davao for their friend's graduation on 3 July 2026")]
    assert kinds("I'm flying to Mendoza on July 3.") == [("plan", "Is flying to Mendoza on 3 July 2026")]
    assert found("I'm driving to Tom's on Friday") == []  # someone's home: no place named


@pytest.mark.parametrize(
    ("line", "content"),
    [
        ("My daughter lives in Glasgow now", "Daughter lives in Glasgow"),
        ("my dad runs a garage in Bolton", "Dad runs a garage in Bolton"),
        ("my sister is a midwife in Cardiff", "Sister is a midwife in Cardiff"),
        # named: one memory of who they are and where they live (tests/unit/test_formation_rules12.py)
        ("My neighbour Tom lives in Derby", "Has a neighbour named Tom who lives in Derby"),
        # a statement with a question tagged on is still a statement
        ("my brother lives in Derby and never calls, you know?", "Brother lives in Derby"),
    ],
)
def test_what_the_persons_own_people_do_that_lasts_is_kept(line: str, content: str) -> None:
    assert ("person", content) in kinds(line)


def test_a_named_partner_said_with_what_they_do_fills_the_slot() -> None:
    (partner,) = found("My husband Ravi is a paramedic")
    assert (partner.content, partner.attribute, partner.value) == (
        "Husband Ravi is a paramedic", "partner", "Ravi")


@pytest.mark.parametrize(
    "line",
    [
        "my brother lived in Derby",  # once
        "does my brother live in Derby?",
        "my brother doesn't live in Derby",
        "my brother thinks I should move",  # what they think
        "my sister is great",
        "my flatmate is a chef",  # an unnamed flatmate, said in passing
        "my dog lives with my ex",
        "my neighbour's son lives in Derby",
    ],
)
def test_what_is_not_a_lasting_fact_of_the_persons_own_people_gives_none(line: str) -> None:
    assert by_rule(line, "relative") == []


def test_what_the_persons_own_money_comes_to_is_a_fact() -> None:
    assert kinds("my rent is 820 a month") == [("fact", "Rent is 820 a month")]
    assert kinds("rent is 820") == [("fact", "Rent is 820")]  # chat leaves out whose: theirs
    for line in ("his rent is 900", "the rent is 900", "is my rent 900?", "my mortgage is huge"):
        assert found(line) == [], line


@pytest.mark.parametrize(
    ("line", "content"),
    [
        ("the doctor says I have asthma", "Has asthma"),
        ("Doc says my blood sugar is too high", "Blood sugar is too high"),
    ],
)
def test_what_the_persons_doctor_says_of_them_is_their_health(line: str, content: str) -> None:
    assert kinds(line) == [("health", content)]


@pytest.mark.parametrize(
    "line", ["a doctor on the radio says I have asthma", "her doctor says I have asthma",
             "the doctor thinks I have asthma"],
)
def test_what_someone_elses_doctor_says_or_a_doctor_guesses_is_no_health_memory(line: str) -> None:
    assert found(line) == []


@pytest.mark.parametrize(
    ("line", "content"),
    [
        ("my driving test is on the 19th", "Driving test is on 19 March 2026"),  # a day of the month alone
        ("exam is on the 19th", "Exam is on 19 March 2026"),  # chat leaves out whose: theirs
        ("my thesis deadline is end of April", "Thesis deadline is at the end of April 2026"),
        ("my apprenticeship starts on 6 July", "Apprenticeship starts on 6 July 2026"),
    ],
)
def test_a_thing_of_the_persons_on_a_coming_day_is_a_plan(line: str, content: str) -> None:
    assert kinds(line) == [("plan", content)]


def test_an_ordinal_that_counts_something_is_no_day_of_the_month() -> None:
    at = datetime(2026, 3, 10, tzinfo=UTC)
    for line, days in (("my viva is on the 19th", ["on 19 March 2026"]),
                       ("it's the 3rd time I've failed my driving test", []),
                       ("we live on the 2nd floor", []), ("she came in the 2nd round", [])):
        (sentence,) = english_parser().parse([line])[0]
        assert [d.text for d in times(sentence, at, True)] == days, line


@pytest.mark.parametrize(
    "line", ["the match is on the 19th", "his exam is on the 19th", "is my exam on the 19th?",
             "the new phone comes out on the 19th", "I came 3rd in the race"],
)
def test_a_dated_thing_that_is_not_the_persons_is_no_plan(line: str) -> None:
    assert [c for c in found(line) if c.kind is MemoryKind.PLAN] == []


@pytest.mark.parametrize(
    ("line", "content"),
    [
        ("I live with two housemates", "Lives with two housemates"),
        ("I live with my gran", "Lives with their gran"),
    ],
)
def test_who_the_person_lives_with_is_a_fact(line: str, content: str) -> None:
    assert kinds(line) == [("fact", content)]


def test_a_home_shared_in_a_city_is_where_the_person_lives() -> None:
    (home,) = found("I share a flat in Leeds with two nurses")
    assert (home.content, home.attribute, home.value) == (
        "Shares a flat in Leeds with two nurses", "home_city", "Leeds")


@pytest.mark.parametrize(
    "line", ["I live with chronic pain", "I share an office with Tom", "I don't live with my parents",
             "do you live with your parents?"],
)
def test_what_is_no_one_at_home_with_the_person_gives_no_household(line: str) -> None:
    assert by_rule(line, "household") == []


def test_a_liking_felt_now_is_no_lasting_preference_and_one_held_for_years_is() -> None:
    assert found("I'm loving the sunshine today") == []
    assert found("hating this queue") == []
    assert kinds("I've been enjoying pottery for years") == [
        ("preference", "Has been enjoying pottery for years")]
    assert kinds("I love sea swimming") == [("preference", "Loves sea swimming")]


def test_a_name_written_in_lower_case_chat_is_still_the_name_of_the_persons_own() -> None:
    # A small parser reads "my girlfriend" at a lower-case start as an adverb of the verb.
    assert [(c.attribute, c.value) for c in found("my girlfriend Anke thinks I should go freelance")] == [
        ("partner", "Anke")
    ]
    assert found("my friend Kemi says hi") == []  # who said something, not who she is to them


@pytest.mark.parametrize(
    ("line", "slot", "name"),
    [
        ("We got a puppy! His name is Rolo.", "pet_dog", "Rolo"),
        ("I have a new cat. Her name is Mochi.", "pet_cat", "Mochi"),
        ("we got a kitten last week, she's called Pip.", "pet_cat", "Pip"),
        ("My new boss starts Monday. Her name is Grace Hopper.", "manager", "Grace Hopper"),
    ],
)
def test_a_name_given_right_after_the_one_brought_in_is_theirs(line: str, slot: str, name: str) -> None:
    assert [(c.attribute, c.value) for c in found(line) if c.value] == [(slot, name)]


@pytest.mark.parametrize(
    "line",
    [
        "My neighbour got a puppy. His name is Rolo.",  # not the person's dog
        "My friend got a dog, his name is Bo.",
        "I don't have a dog. Its name would be Rex.",  # denied
        "Do you have a cat? Her name is Mochi.",  # asked
        "We adopted a cat. The vet said her name is Tigger.",  # reported
        "We got a puppy. My friend has a cat. Her name is Luna.",  # not the sentence right after
    ],
)
def test_a_name_that_may_be_someone_elses_gives_no_name(line: str) -> None:
    assert [c.value for c in found(line) if c.value] == []


@pytest.mark.parametrize(
    ("line", "name"),
    [
        ("My sister is seeing someone, his name is Paul.", "Paul"),
        ("My brother got a new dog, her name is Bella.", "Bella"),
        ("My boss hired someone new, his name is Dev.", "Dev"),
        ("My daughter's teacher is lovely, her name is Mrs Obi.", "Obi"),
        ("My sister met a guy at work, his name is Joel.", "Joel"),
    ],
)
def test_his_or_her_name_is_of_the_one_brought_in_last(line: str, name: str) -> None:
    """"his", "her" point to the last one brought in; here nobody of the person's (it was "Has a
    sister named Paul")."""
    assert [c.content for c in found(line) if name in c.content] == []


@pytest.mark.parametrize(
    "line",
    [
        "We're based in Lyon, twelve people now.",
        "We make furniture for schools.",
        "We hired two engineers last month.",
    ],
)
def test_we_that_is_a_company_is_not_the_person(line: str) -> None:
    assert found(line) == []


def test_we_that_is_a_household_is_the_person() -> None:
    assert kinds("We bought a flat in Porto last year.") == [("event", "Bought a flat in Porto in 2025")]


# --- work ---------------------------------------------------------------------------------------------------


def test_a_job_said_with_its_employer_is_two_memories_and_the_city_stays_with_both() -> None:
    said = found("I'm a data analyst at Zalando in Berlin.")
    memories = {(c.attribute, c.value, c.content) for c in said if c.asserted}
    assert memories == {  # rules/20: where the employer is, with it too
        ("job_title", "data analyst", "Is a data analyst in Berlin"),
        ("employer", "Zalando", "Works at Zalando in Berlin"),
    }
    # the home is only inferred from where one works (see test_home_of_work.py), and a student's
    # university is no employer
    assert {(c.attribute, c.asserted) for c in said if not c.asserted} == {("home_city", False)}
    assert {c.attribute for c in found("I'm a nurse at a clinic in Leeds.") if c.asserted} == {"job_title"}
    assert {c.attribute for c in found("I'm a law student at the University of Ghent.")} == {"job_title"}


# --- requests, conditions, goals ---------------------------------------------------------------


def test_an_errand_named_before_remind_me_is_a_todo() -> None:
    (todo,) = found("Dentist on Friday at 10, remind me?")
    assert todo.kind is MemoryKind.TODO and todo.due_at == datetime(2026, 3, 13, tzinfo=UTC)
    assert todo.content == "Dentist on 13 March 2026 at 10"
    (mine,) = found("my car service on monday, remind me pls")
    assert mine.content == "Car service on 16 March 2026"
    assert found("My mum arrives on Friday, remind me") == []  # someone else's clause
    assert found("Can you remind me?") == []  # nothing named


def test_a_condition_put_to_the_listener_does_not_make_the_fact_a_hypothesis() -> None:
    assert kinds("I don't eat beef, if you're planning dinner.") == [("fact", "Does not eat beef")]
    assert found("If I eat beef I feel sick.") == []


def test_a_goal_keeps_its_task_without_the_clause_that_points_elsewhere() -> None:
    assert kinds("I want to sort my photos before I lose them.") == [("goal", "Wants to sort their photos")]


def test_learning_something_now_is_a_fact_and_a_subjectless_ing_line_is_the_persons() -> None:
    assert kinds("I'm learning Welsh.") == [("fact", "Is learning Welsh")]
    assert found("She's learning Welsh.") == []
    assert [c.kind for c in found("Moving to Glasgow in June!")] == [MemoryKind.PLAN]


def test_an_age_said_with_years_old_is_kept() -> None:
    assert kinds("I am 64 years old.") == [("fact", "Is 64 years old")]


# --- money, work changes, a relative's age, sarcasm ---------------------------------------------


@pytest.mark.parametrize(
    ("line", "content"),
    [
        ("I earn about 2,000 a month after tax.", "Earns about 2,000 a month after tax"),
        ("I make 45k a year.", "Makes 45k a year"),
        ("I owe 3000 on my credit card.", "Owes 3000 on their credit card"),
        ("I pay 700 in rent.", "Pays 700 in rent"),
        ("I have about 4k of credit card debt.", "Has about 4k of credit card debt"),
        ("I save 200 a month.", "Saves 200 a month"),
    ],
)
def test_what_the_person_earns_owes_and_pays_is_a_fact(line: str, content: str) -> None:
    assert kinds(line) == [("fact", content)]


@pytest.mark.parametrize(
    "line",
    [
        "I made 3 cakes.",
        "I spent 3 hours on it.",
        "I got 5 stars.",
        "I paid the bill.",
        "If I earned 50k I'd move.",
    ],
)
def test_a_number_that_is_no_money_of_theirs_is_left(line: str) -> None:
    assert by_rule(line, "money") == []


@pytest.mark.parametrize(
    ("line", "content"),
    [
        ("I got laid off last week.", "Got laid off in the week of 2 March 2026"),
        ("I handed in my notice today.", "Handed in their notice on 10 March 2026"),
        ("I resigned in May.", "Resigned in May 2025"),
    ],
)
def test_a_change_of_work_is_an_event(line: str, content: str) -> None:
    assert kinds(line) == [("event", content)]


def test_the_age_of_a_relative_is_kept_and_a_denied_or_asked_one_is_not() -> None:
    assert kinds("My daughter is 7.") == [("person", "Daughter is 7")]
    # named, one memory says both (rules/11): not "Son Leo is 12 years old" beside "Has a son named Leo"
    assert kinds("My son Leo is 12 years old.") == [("person", "Has a son named Leo, aged 12")]
    assert found("My daughter is not 7.") == [] and found("Is my son 12?") == []
    assert found("My boss is 50.") == []  # no relative


@pytest.mark.parametrize(
    "line",
    [
        "Oh great, I just love waiting in line.",
        "I love mondays /s",
        "Yeah right, I'm a morning person.",
        "I adore traffic 🙄",
    ],
)
def test_a_sentence_that_says_it_means_the_opposite_gives_nothing(line: str) -> None:
    assert found(line) == []


def test_sarcasm_in_one_sentence_leaves_the_others() -> None:
    assert kinds("I'm allergic to wasps. Oh great, summer again.") == [("health", "Is allergic to wasps")]


def test_a_jobs_field_is_in_its_title_and_a_place_of_work_is_not() -> None:
    (field,) = found("I'm a professor of physics.")
    assert (field.attribute, field.value) == ("job_title", "professor of physics")
    (firm,) = found("I'm the cofounder of a small startup.")
    assert (firm.value, firm.content) == ("cofounder", "Is the cofounder of a small startup")


def test_expecting_a_baby_is_an_event_and_applying_for_something_a_goal() -> None:
    assert kinds("We're expecting twins in June.") == [("event", "Is expecting twins in June 2026")]
    assert found("I'm expecting a parcel.") == [] and found("She is expecting a baby.") == []
    assert kinds("I'm applying for jobs in Berlin.") == [("goal", "Is applying for jobs in Berlin")]
    assert found("I applied for the job.") == []


def test_a_thing_of_the_persons_on_a_day_is_a_plan_and_a_birthday_a_fact() -> None:
    assert kinds("My last day is June 30.") == [("plan", "Last day is on 30 June 2026")]
    assert kinds("My exam is on the 16th.") == [("plan", "Exam is on 16 March 2026")]
    assert [k for k, _ in kinds("My birthday is on May 3.")] == ["fact"]
    assert found("My day was long.") == [] and found("Is my flight on Friday?") == []
    # a day of one of their people is one they keep (a wedding to go to); someone else's is not
    assert kinds("My sister's wedding is in June.") == [("plan", "Sister's wedding is in June 2026")]
    assert found("His sister's wedding is in June.") == [] and found("The wedding is in June.") == []
    assert kinds("My mum's birthday is on 3 May.") == [("fact", "Mum's birthday is on 3 May")]
    assert kinds("My grandad's funeral is on Friday.") == [("plan", "Grandad's funeral is on 13 March 2026")]


def test_more_of_how_people_say_what_they_want_need_and_do() -> None:
    assert kinds("I'm hoping to move to Spain next year.") == [("goal", "Is hoping to move to Spain in 2027")]
    assert kinds("Need to renew my car insurance by Friday.") == [
        ("todo", "Renew their car insurance by 13 March 2026")
    ]
    # rules/21: and the city of the business, as a guess at home (test_formation_rules21.py)
    assert kinds("I run a small bakery in Leeds.") == [("fact", "Runs a small bakery in Leeds"),
                                                        ("fact", "Lives in Leeds")]
    assert found("My therapist thinks I have anxiety.") == []  # a guess, not a diagnosis
    assert kinds("My therapist says I have anxiety.") == [("health", "Has anxiety")]


def test_what_the_person_did_with_someone_says_with_whom() -> None:
    assert ("event", "Is expecting twins with their wife Leila") in kinds(
        "My wife Leila and I are expecting twins!"
    )
    assert kinds("My husband and I moved to Leeds last year.") == [
        ("fact", "Moved to Leeds in 2025 with their husband")
    ]
    assert kinds("Tom and I went to Paris in May.") == [("event", "Went to Paris in May 2025")]


# --- a short reply to the assistant's question ------------------------------------------------


def replied(question: str, answer: str) -> list[tuple[str | None, str | None, str]]:
    messages = [
        Message(role="assistant", content=question, timestamp=SAID_AT),
        Message(role="user", content=answer, timestamp=SAID_AT),
    ]
    return [(c.attribute, c.value, c.content) for c in extract(messages, SAID_AT, english_parser())]


def test_a_short_reply_to_a_question_about_a_name_or_a_home_is_a_memory() -> None:
    assert replied("What's your dog's name?", "Biscuit. She is a beagle.") == [
        ("pet_dog", "Biscuit", "Has a dog named Biscuit")
    ]
    assert replied("What is the cat called?", "Miso lol") == [("pet_cat", "Miso", "Has a cat named Miso")]
    assert replied("What's your husband's name?", "Carlos") == [
        ("partner", "Carlos", "Husband is named Carlos")
    ]
    assert replied("Where do you live?", "Porto, in the north.") == [("home_city", "Porto", "Lives in Porto")]


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("What's your dog's name?", "Not sure yet, we are deciding."),
        ("What's your dog's name?", "Yes."),
        ("Where are you from?", "Porto."),  # where from is not where one lives
        ("Do you have a dog?", "Yes, Rex."),  # no name was asked for
        ("Where do you live?", "I moved around a lot, Berlin and Paris mostly."),
        ("What's your dog's name?", "Honestly I have no idea what my neighbour called hers, it changes"),
    ],
)
def test_a_reply_that_names_nothing_asked_for_gives_nothing(question: str, answer: str) -> None:
    assert replied(question, answer) == []


@pytest.mark.parametrize(("line", "at", "due"), [
    # A period already under way is due by its end: said on a Sunday, "this week" is today.
    ("Remind me to call the bank this week", datetime(2026, 3, 15, 18, tzinfo=UTC), date(2026, 3, 15)),
    ("Remind me to call the bank this week", SAID_AT, date(2026, 3, 15)),
    ("Remind me to renew my passport this month", SAID_AT, date(2026, 3, 31)),
    # One that starts ahead is due when it starts, as before.
    ("Remind me to call the bank next week", SAID_AT, date(2026, 3, 16)),
])
def test_a_todo_for_a_period_under_way_is_due_by_its_end(line: str, at: datetime, due: date) -> None:
    (todo,) = found(line, at)
    assert todo.kind is MemoryKind.TODO and todo.due_at == datetime(due.year, due.month, due.day, tzinfo=UTC)


def test_a_todo_for_a_period_gone_by_has_no_due_day() -> None:
    assert all(c.due_at is None for c in found("Remind me to call the bank, I forgot last week"))


@pytest.mark.parametrize(
    ("line", "content"),
    [
        ("I'm from Taichung", "Is from Taichung"),
        ("I come from Lagos", "Comes from Lagos"),
        ("I grew up in Ames, Iowa", "Grew up in Ames, Iowa"),
        ("I was born in Porto in 1988", "Was born in Porto in 1988"),
    ],
)
def test_where_the_person_comes_from_is_a_fact_and_no_home(line: str, content: str) -> None:
    (origin,) = found(line)
    assert (origin.kind, origin.content, origin.attribute) == (MemoryKind.FACT, content, None)


@pytest.mark.parametrize(
    "line", ["I'm back from Rome", "I just got back from Paris", "I'm from the council", "I was born in 1990",
             "I grew in confidence", "where are you from?", "I'm not from here", "I came from the gym",
             "I'm calling from Berlin"],
)
def test_a_trip_an_office_or_a_year_is_no_origin(line: str) -> None:
    assert by_rule(line, "origin") == []


def test_where_one_is_from_and_where_one_lives_are_two_memories() -> None:
    said = found("I'm originally from Taichung but live in Melbourne now")
    assert [(c.content, c.attribute) for c in said] == [
        ("Is originally from Taichung", None), ("Lives in Melbourne", "home_city")]


@pytest.mark.parametrize(
    ("line", "content"),
    [("I work from home", "Works from home"), ("I work remotely", "Works remotely")],
)
def test_working_from_home_is_a_fact(line: str, content: str) -> None:
    assert kinds(line) == [("fact", content)]


@pytest.mark.parametrize(
    "line", ["I worked from home yesterday", "I don't work from home", "I'm working from home today"])
def test_a_day_at_home_or_a_denial_is_no_way_of_working(line: str) -> None:
    assert by_rule(line, "work") == []


def test_the_city_of_a_workplace_named_by_a_common_noun_is_no_employer() -> None:
    # (the home each city suggests is an inference of its own: test_home_of_work.py)
    (job,) = [c for c in found("I work remotely for a startup in Berlin") if c.asserted]
    assert (job.content, job.attribute) == ("Works remotely for a startup in Berlin", None)
    (barista,) = [c for c in found("I work part time as a barista at a cafe in Fitzroy") if c.asserted]
    assert (barista.content, barista.attribute, barista.value) == (
        "Works part time as a barista at a cafe in Fitzroy", "job_title", "barista")
    named = found("I work for Google in Zurich")
    assert [(c.attribute, c.value) for c in named if c.asserted] == [("employer", "Google")]


@pytest.mark.parametrize(
    ("line", "content"),
    [("I'm retired now", "Is retired"), ("I'm divorced", "Is divorced"),
     ("I'm self-employed", "Is self-employed"), ("I'm engaged to Tom", "Is engaged to Tom"),
     ("I'm separated from my husband", "Is separated from their husband")],
)
def test_where_the_person_stands_in_life_is_a_fact(line: str, content: str) -> None:
    assert kinds(line) == [("fact", content)]


@pytest.mark.parametrize(
    "line", ["I'm engaged in a big project", "I'm separated from the group", "I'm not married",
             "I'm single handedly running this",
             "I was married for ten years", "my dad is retired", "are you married?", "I'm tired"],
)
def test_a_busy_day_a_denial_or_someone_elses_standing_is_none_of_the_persons(line: str) -> None:
    assert by_rule(line, "standing") == []


@pytest.mark.parametrize(
    ("line", "content"),
    [
        ("I'm taking the kids to the zoo this weekend",
         "Is taking the kids to the zoo on the weekend of 14 March 2026"),
        ("Tomorrow I'm seeing the dentist", "Is seeing the dentist on 11 March 2026"),
        ("I'm in Rome on the 5th", "Is in Rome on 5 April 2026"),
        ("I'll be in Paris from the 3rd to the 7th", "Will be in Paris from 3 April 2026 to 7 April 2026"),
    ],
)
def test_an_outing_an_appointment_and_days_away_are_plans(line: str, content: str) -> None:
    assert kinds(line) == [("plan", content)]


@pytest.mark.parametrize(
    "line", ["I'm seeing Tom tomorrow", "I'm taking my time this weekend", "I'm in Rome",
             "I took the kids to the zoo last weekend"],
)
def test_a_friend_a_slow_weekend_or_a_day_gone_is_no_plan(line: str) -> None:
    assert [c for c in found(line) if c.kind is MemoryKind.PLAN] == []


@pytest.mark.parametrize(
    ("line", "content"),
    [
        ("my dad passed away last year", "Dad passed away in 2025"),
        ("my mum had a fall last week", "Mum had a fall in the week of 2 March 2026"),
        ("my wife had a baby boy on Friday", "Wife had a baby boy on 6 March 2026"),
        ("I lost my dad in May", "Lost their dad in May 2025"),
        ("I lost my job last month", "Lost their job in February 2026"),
        ("I broke up with my boyfriend", "Broke up with their boyfriend"),
        ("I visited my grandma on Sunday", "Visited their grandma on 8 March 2026"),
        ("I took the kids to the zoo last weekend",
         "Took the kids to the zoo on the weekend of 7 March 2026"),
    ],
)
def test_a_loss_a_birth_a_break_up_and_a_visit_are_events(line: str, content: str) -> None:
    assert kinds(line) == [("event", content)]


@pytest.mark.parametrize(
    "line", ["his dad passed away", "my dad passed the salt", "my mum had a coffee", "I lost my keys",
             "I broke up the fight", "I took a nap yesterday", "my boss had surgery", "I visited the museum",
             "I saw my sister last weekend",
             "my friend's cat died"],
)
def test_someone_elses_loss_a_small_thing_or_a_stranger_is_no_event(line: str) -> None:
    assert [c for c in found(line) if c.kind is MemoryKind.EVENT] == []


def test_a_range_ends_after_it_starts() -> None:
    # said on a Tuesday: "Monday" is the 16th, and "Friday" the one after it, not the 13th
    (off,) = found("I'm off work from Monday until Friday")
    assert off.content == "Is off work from 16 March 2026 until 20 March 2026"
    (paris,) = found("I'll be in Paris from the 3rd to the 7th")
    assert paris.content == "Will be in Paris from 3 April 2026 to 7 April 2026"
    (leeds,) = found("I'm in Leeds until Friday")  # no range: the next Friday
    assert leeds.content == "Is in Leeds until 13 March 2026"


# --- round six -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "content"),
    [
        ("I taught maths at a secondary school for twenty years.",
         "Taught maths at a secondary school for twenty years"),
        ("I was a nurse for eleven years before I retired", "Was a nurse for eleven years"),
        ("I played the trumpet in a brass band for a decade",
         "Played the trumpet in a brass band for a decade"),
    ],
)
def test_what_the_person_did_for_years_is_a_fact_of_their_life(line: str, content: str) -> None:
    assert [c.content for c in by_rule(line, "years_spent")] == [content]


@pytest.mark.parametrize(
    "line",
    [
        "I was on hold for two hours",  # an episode, not a life
        "I was sick for three days last week",
        "I waited for years",  # a sigh, not a count
        "My dad farmed for 40 years",  # someone else's life
        "If I had stayed there for two years, I would have a pension",
        "Did you live there for ten years?",
        "She thinks I was a nurse for ten years",
        "I've lived here for ten years",  # still so: not over
    ],
)
def test_an_episode_a_sigh_a_supposition_or_someone_elses_years_are_not(line: str) -> None:
    assert by_rule(line, "years_spent") == []


@pytest.mark.parametrize(
    ("line", "content"),
    [
        ("I really need to improve my German", "Needs to improve their German"),
        ("I need to learn to drive", "Needs to learn to drive"),
        ("honestly I need to quit smoking", "Needs to quit smoking"),
        ("I need to lose some weight", "Needs to lose some weight"),
    ],
)
def test_a_need_to_become_better_at_something_is_a_goal(line: str, content: str) -> None:
    assert [(c.kind, c.content) for c in by_rule(line, "bettering")] == [(MemoryKind.GOAL, content)]


@pytest.mark.parametrize(
    "line",
    [
        "Do I need to learn Python?",
        "My son needs to learn to swim",
        "I don't need to learn French",
        "If I need to learn Excel, I'll take a course",
        "I need to learn more about your pricing",  # about the one they talk to
        "I need to lose the receipt",  # a look-alike: nothing shed
        "I need to stop the car",
    ],
)
def test_a_question_someone_elses_need_or_a_look_alike_is_no_goal(line: str) -> None:
    assert by_rule(line, "bettering") == []


def test_a_need_with_a_time_stays_a_to_do() -> None:
    assert kinds("I need to learn Excel by Friday") == [("todo", "Learn Excel by 13 March 2026")]


@pytest.mark.parametrize(
    ("line", "content"),
    [
        ("I separated from my husband last year", "Separated from their husband in 2025"),
        ("I split up with my girlfriend in January", "Split up with their girlfriend in January 2026"),
        ("separated from my wife in 2022, it was hard", "Separated from their wife in 2022"),
    ],
)
def test_a_couple_parting_is_an_event(line: str, content: str) -> None:
    assert [c.content for c in found(line) if c.kind is MemoryKind.EVENT] == [content]


@pytest.mark.parametrize(
    "line",
    [
        "I separated from the group at the museum",  # no couple
        "I split up with the team at lunch",
        "My sister separated from her husband last year",  # her news, not theirs
        "I never separated from my husband",
        "Should I separate from my husband?",
        "If I split up with my boyfriend, where would I live?",
        "I separated the eggs from the yolks",
    ],
)
def test_a_group_someone_elses_parting_or_a_thought_of_one_is_no_event(line: str) -> None:
    assert [c for c in found(line) if c.kind is MemoryKind.EVENT] == []


def test_a_past_line_the_parser_hangs_on_the_clause_after_keeps_its_left_out_i() -> None:
    (moved,) = [c for c in found("moved to Leeds in May, it's been quiet") if c.attribute == "home_city"]
    assert (moved.content, moved.value) == ("Moved to Leeds in May 2025", "Leeds")


@pytest.mark.parametrize(
    ("line", "name"),
    [
        ("I've been seeing someone, his name is Marc", "Marc"),
        ("I'm dating someone new. Her name is Lea.", "Lea"),
        ("I've been seeing somebody, her name is Ines, we met at choir", "Ines"),  # a comma-joined line
    ],
)
def test_someone_the_person_is_seeing_named_after_is_their_partner(line: str, name: str) -> None:
    assert [(c.attribute, c.value) for c in found(line) if c.kind is MemoryKind.PERSON] == [("partner", name)]


@pytest.mark.parametrize(
    "line",
    [
        "I saw someone at the gym, his name is Tom",  # only met
        "I'm seeing someone about the roof, his name is Dave",  # a tradesman
        "I'm seeing someone for my back, her name is Dr Patel",
        "I'm not seeing anyone",
        "Should I be seeing someone? His name is Marc.",
        "my friend said her name is Rosa, it's pretty",  # reported
    ],
)
def test_one_met_once_a_tradesman_a_question_or_a_reported_name_is_no_partner(line: str) -> None:
    assert [c for c in found(line) if c.attribute == "partner"] == []


def test_a_name_the_line_reports_after_it_is_no_partner() -> None:
    assert [c for c in found("I've been seeing someone, her name is Rosa, my mum says") if c.attribute] == []


@pytest.mark.parametrize(
    ("line", "city"),
    [
        ("I'm a pharmacist at a small chemist here in Swindon", "Swindon"),
        ("I work as a welder here in Olsztyn", "Olsztyn"),
        ("honestly I'm a barber at a shop here in Glasgow and it's busy", "Glasgow"),
    ],
)
def test_a_job_said_here_in_a_city_tells_where_the_person_lives(line: str, city: str) -> None:
    assert [(c.content, c.value) for c in by_rule(line, "home_here")] == [(f"Lives in {city}", city)]


@pytest.mark.parametrize(
    "line",
    [
        "If I were a pharmacist here in Swindon I'd be rich",
        "I'm not a welder here in Olsztyn",
        "my brother is a welder here in Olsztyn",
        "Am I the only barber here in Glasgow?",
        "I was a barber here in Glasgow years ago",
        "I'm a barber and my aunt lives here in Glasgow",  # her home, in a clause of its own
    ],
)
def test_a_job_elsewhere_denied_supposed_past_or_anothers_tells_no_home(line: str) -> None:
    # rules/21: "here" still places the one who writes, whoever the clause is of, as a guess
    # (never a home said): test_formation_rules21.py
    assert [c for c in found(line) if c.attribute == "home_city" and c.asserted] == []


def test_a_job_in_a_city_not_said_to_be_here_tells_a_home_only_as_an_inference() -> None:
    (home,) = [c for c in found("I'm a pharmacist in Swindon") if c.attribute == "home_city"]
    assert (home.value, home.asserted) == ("Swindon", False)


def test_the_city_after_here_in_is_no_employer() -> None:
    line = "I'm a pharmacist at a small chemist here in Swindon"
    assert [c.value for c in found(line) if c.attribute == "employer"] == []


@pytest.mark.parametrize(
    ("line", "content"),
    [
        ("my kids are 5 and 11", "Has two kids, aged 5 and 11"),
        ("the children are 6 and 8, they love the beach", "Has two children, aged 6 and 8"),
        ("My girls are 2, 4 and 9", "Has three girls, aged 2, 4 and 9"),
        ("our sons are 14 and 16 years old", "Has two sons, aged 14 and 16"),
    ],
)
def test_the_ages_of_several_children_said_together_are_one_memory(line: str, content: str) -> None:
    assert [c.content for c in by_rule(line, "ages")] == [content]


@pytest.mark.parametrize(
    "line",
    [
        "my neighbour's kids are 5 and 11",  # someone else's
        "her kids are 5 and 11",
        "my kids aren't 5 and 11 anymore",
        "are the kids 5 and 11?",
        "If my kids were 5 and 11 I'd go back to work",
        "When the kids are 5 and 11 we'll travel",
        "she told me the kids are 5 and 11",  # reported
        "the students are 19 and 20",  # not children of theirs
    ],
)
def test_anothers_children_a_denial_a_question_a_supposition_or_a_report_gives_no_ages(line: str) -> None:
    assert [c for c in found(line) if c.extractor.endswith((":ages", ":age"))] == []


@pytest.mark.parametrize(
    ("line", "content"),
    [
        ("my nephew Omar, he's 8 and loves trains", "Has a nephew named Omar, aged 8"),
        ("my daughter Mia started school, she's 5", "Has a daughter named Mia, aged 5"),
        ("my cousin Jo will visit, she is 19 years old", "Has a cousin named Jo, aged 19"),
    ],
)
def test_an_age_told_by_he_or_she_after_a_name_goes_with_it(line: str, content: str) -> None:
    assert [c.content for c in by_rule(line, "person")] == [content]


@pytest.mark.parametrize(
    "line",
    [
        "my son Leo and his friend Finn came, he's 9",  # which one?
        "my sister Ana came with Piet, he is 30",
        "my daughter Mia, he is 30",  # not her
        "my son Leo, he's not 7 yet",
        "my brother Piet says he is 40",  # reported
        "my son Leo, if he were 7 I'd let him",
        "my husband Karl, he's 6 feet tall",  # no age
    ],
)
def test_an_age_of_someone_else_denied_reported_supposed_or_no_age_is_not_added(line: str) -> None:
    assert [c.content for c in found(line) if "aged" in c.content] == []


@pytest.mark.parametrize(
    ("line", "content"),
    [
        ("two dogs, Rex and Bella, and a hamster called Bob", "Has two dogs, Rex and Bella"),
        ("three kids, Finn, Nell and Jo", "Has three kids, Finn, Nell and Jo"),
        ("I have two rabbits, Bun and Flop, and a gecko named Zed", "Has two rabbits, Bun and Flop"),
    ],
)
def test_animals_or_children_listed_by_count_and_name_are_theirs(line: str, content: str) -> None:
    assert [c.content for c in by_rule(line, "household")] == [content]


def test_one_named_after_a_listed_count_keeps_a_memory_of_its_own() -> None:
    line = "two dogs, Rex and Bella, and a hamster called Bob"
    assert [(c.attribute, c.value) for c in by_rule(line, "pet")] == [("pet_hamster", "Bob")]


def test_one_without_a_name_listed_after_a_count_stays_with_it() -> None:
    line = "I have two kids and a dog"
    assert [c.content for c in by_rule(line, "household")] == ["Has two kids and a dog"]


@pytest.mark.parametrize(
    "line",
    [
        "two coffees, Rex and Bella",  # not what one keeps
        "two cats, Miso and Tofu?",
        "two cats, Miso and Tofu, live next door",  # the neighbours'
        "two cats",  # no names: could be anything
    ],
)
def test_a_listed_count_that_is_no_household_gives_nothing(line: str) -> None:
    assert found(line) == []


@pytest.mark.parametrize(
    ("line", "content", "city"),
    [
        ("I moved back to Aberdeen in May", "Moved back to Aberdeen in May 2025", "Aberdeen"),
        (
            "I've moved back into my old flat in Tampere",
            "Has moved back into their old flat in Tampere",
            "Tampere",
        ),
        (
            "my dad fell ill so I moved back into my old cottage in Galway to care for him",
            "Moved back into their old cottage in Galway",
            "Galway",
        ),
    ],
)
def test_moving_back_to_a_city_or_into_a_home_in_one_is_where_the_person_lives(
    line: str, content: str, city: str
) -> None:
    assert [(c.content, c.value) for c in by_rule(line, "residence")] == [(content, city)]


@pytest.mark.parametrize(
    "line",
    [
        "I moved back into my office in Aberdeen",  # no home
        "If I moved back to Aberdeen I'd be happier",
        "I didn't move back to Aberdeen",
        "my sister moved back to Aberdeen",
        "Should I move back to Aberdeen?",
        "I moved back in May",  # no place
    ],
)
def test_a_move_back_that_is_no_home_or_not_the_persons_gives_no_home(line: str) -> None:
    assert [c for c in found(line) if c.attribute == "home_city"] == []


@pytest.mark.parametrize(
    ("line", "content"),
    [
        ("I moved to Aberdeen to care for her", "Moved to Aberdeen"),  # not "Moved to Aberdeen to care"
        ("I moved to Aberdeen to be near my daughter", "Moved to Aberdeen to be near their daughter"),
    ],
)
def test_why_one_moved_is_kept_unless_it_is_about_someone_unnamed(line: str, content: str) -> None:
    assert [c.content for c in by_rule(line, "residence")] == [content]


# --- round nine -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "content", "partner"),
    [
        ("my husband Stefan is German, so we speak both at home", "Husband Stefan is German", "Stefan"),
        ("My girlfriend Priya is Canadian.", "Girlfriend Priya is Canadian", "Priya"),
        ("my husband Raúl is a plumber", "Husband Raúl is a plumber", "Raúl"),  # parsed as two subjects
    ],
)
def test_a_named_partners_nationality_or_job_is_kept_with_the_name(
    line: str, content: str, partner: str
) -> None:
    assert [(c.content, c.attribute, c.value) for c in by_rule(line, "relative")] == [
        (content, "partner", partner)
    ]


@pytest.mark.parametrize(
    "line",
    [
        "my husband Stefan is tired",  # how he is today, not who he is
        "my husband is German",  # no name: nothing to keep it with (the rule keeps named ones)
        "my husband Stefan was German",
        "my husband Stefan isn't German",
        "is your husband German?",
        "my neighbour's husband Stefan is German",
    ],
)
def test_what_is_no_nationality_of_a_named_one_of_the_persons_is_not_kept_as_one(line: str) -> None:
    assert [c.content for c in by_rule(line, "relative") if "German" in c.content] == []


@pytest.mark.parametrize(
    ("line", "title"),
    [
        ("I got the night manager job!!", "night manager"),
        ("so I got the sales assistant job at the garden centre", "sales assistant"),
    ],
)
def test_a_named_job_the_person_got_is_their_job_title(line: str, title: str) -> None:
    assert [(c.attribute, c.value) for c in by_rule(line, "get")] == [("job_title", title)]


@pytest.mark.parametrize(
    "line",
    [
        "I got the job!",  # no title named
        "I got a new job",
        "I got the dream job",  # what kind of job, not what one is
        "I didn't get the night manager job",
        "my sister got the night manager job",
        "if I get the night manager job I'll move",
    ],
)
def test_a_job_got_without_a_title_or_not_the_persons_fills_no_job_title(line: str) -> None:
    assert [c for c in found(line) if c.attribute == "job_title"] == []


@pytest.mark.parametrize(
    ("line", "content"),
    [
        ("Nurse here, I work nights at a hospital in Bristol", "Works nights at a hospital in Bristol"),
        ("Mechanic here, I work weekends at a garage in Hull", "Works weekends at a garage in Hull"),
        ("I work nights here at a hospital in Bristol", "Works nights at a hospital in Bristol"),  # no intro
    ],
)
def test_a_self_introduction_is_not_glued_onto_what_the_clause_says(line: str, content: str) -> None:
    assert content in [c.content for c in found(line)]


def test_with_shortened_as_chat_types_it_is_with() -> None:
    assert typed_plainly("in Leeds w my partner and w/ the kids") == (
        "in Leeds with my partner and with the kids")
    assert typed_plainly("a w b, the w. a. s.") == "a w b, the w. a. s."  # no one after it
