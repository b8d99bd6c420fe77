"""Lore's own labelled conversations parse, and a mistake in them is named where it is."""

import pytest

from bench.chats import CATEGORIES, load, parse

SMALL = """person: ada
## 2024-01-07 20:15
@ garden
user~: hi
user: I planted tomatoes today {tomatoes}
assistant: Lovely!
## 2024-01-09 08:00
@ work
user: the new job starts on Monday {job} {start}
## questions
single-hop | What did I plant? | tomatoes | tomatoes
temporal | When does the job start? | 15 January 2024 | job start
"""


def test_a_chat_reads_its_sessions_turns_topics_fillers_and_questions() -> None:
    chat = parse(SMALL)
    assert chat.person == "ada" and len(chat.sessions) == 2
    hi, planted, reply = chat.sessions[0].turns
    assert (hi.id, hi.filler, hi.topic) == ("S1:1", True, "garden")
    assert (planted.id, planted.text, planted.tags, planted.filler) == (
        "S1:2", "I planted tomatoes today", ("tomatoes",), False)
    assert (planted.at - hi.at).total_seconds() == 60
    assert chat.sessions[1].turns[0].tags == ("job", "start")
    assert [(q.category, q.evidence) for q in chat.questions] == [
        ("single-hop", frozenset({"S1:2"})), ("temporal", frozenset({"S2:1"}))]


@pytest.mark.parametrize(("broken", "named"), [
    (SMALL.replace("| tomatoes\n", "| potatoes\n"), "potatoes"),
    (SMALL.replace("{job}", "{tomatoes}"), "already on S1:2"),
    (SMALL.replace("single-hop |", "one-hop |"), "category"),
    (SMALL.replace("user: I planted", "usr: I planted"), "not a turn"),
])
def test_a_mistake_is_named_with_its_line(broken: str, named: str) -> None:
    with pytest.raises(ValueError, match=named):
        parse(broken, "small.txt")


def test_the_committed_set_parses_with_enough_questions_in_every_category() -> None:
    chats = load()
    questions = [q for c in chats for q in c.questions]
    assert len(questions) >= 150
    for category in CATEGORIES:
        assert sum(q.category == category for q in questions) >= 15, category
    for chat in chats:
        ids = {t.id for t in chat.turns()}
        assert all(q.evidence <= ids for q in chat.questions)
