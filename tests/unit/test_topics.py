"""Forgetting a topic: what is about it (weighed by the topic's rarer words), and the one decision
that forgets or purges it, on examples of my own."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from domain.commands import EndSession, ForgetTopic, RecordEpisode, RecordExtraction, RecordSummary
from domain.errors import NothingAboutTopic
from domain.events import MemoryForgotten, MemoryPurged, ProfileDue, SummaryDue, TopicForgotten
from domain.extraction.candidate import Candidate
from domain.extraction.deciders import extraction_command_id
from domain.layers.model import SessionSummary
from services.topics import relevance, said, topic_words
from tests.unit.test_layers import Person

NOW = datetime(2026, 5, 1, tzinfo=UTC)


def test_a_thing_is_about_a_topic_when_it_names_its_rarer_words() -> None:
    wanted = topic_words("my old job at Acme")
    assert set(wanted) == {"old", "job", "acm"}  # stemmed as the index reads them; 'my', 'at' say nothing
    assert wanted["acm"] > wanted["job"] > 1.0  # a name is rarer in the language than 'job'
    said_by_person = ["I quit Acme last spring", "My new job starts Monday", "We went hiking in the Alps"]
    weighed = said(wanted, said_by_person)
    assert set(weighed) == {"acm", "job"}  # 'old' is in nothing of theirs: it cannot tell things apart
    assert relevance(weighed, "I quit Acme last spring") > 0.45
    assert relevance(weighed, "My old job at Acme was in welding") == 1.0
    assert relevance(weighed, "My new job starts Monday") < 0.45  # another job: not about it
    assert relevance(weighed, "We went hiking in the Alps") == 0.0
    assert relevance(topic_words("my ex Tom"), "Tommy the dog needs his shots") == 0.0
    assert topic_words("what was my") == {}  # names nothing


def _talked(person: Person) -> list[str]:
    said = [{"role": "user", "content": t} for t in ("I worked at Acme", "Acme paid badly", "I like tea")]
    person.do(RecordEpisode, session_id="s1", episode_id="e1", messages=said)
    due = next(e for e in person.do(EndSession, session_id="s1") if isinstance(e, SummaryDue))
    person.do(RecordSummary, command_id=f"summary-{due.due_id}-0", summary_id=due.summary_id,
              due_id=due.due_id, session_id="s1", summarizer="extractive/1",
              summary=SessionSummary(summary="Talked about Acme."))
    window = [{"episode_id": "e1", "position": n} for n in range(3)]
    made = person.do(RecordExtraction, command_id=extraction_command_id("x1"), extraction_id="x1",
                     session_id="s1", window=window, extractor="rules/2",
                     candidates=[Candidate(content=t, kind="fact", valid_from=NOW, positions=(n,),
                                           confidence=0.9, extractor="rules/2")
                                 for n, t in ((0, "Worked at Acme"), (2, "Likes tea"))])
    return [e.memory_id for e in made if type(e).__name__ == "MemoryRecorded"]


def test_forgetting_a_topic_is_one_decision_that_hides_its_turns_and_forgets_its_memories() -> None:
    person = Person()
    acme, tea = _talked(person)
    events = person.do(ForgetTopic, topic="Acme", memory_ids=[acme, "gone"],
                       messages=[{"episode_id": "e1", "position": 1},
                                 {"episode_id": "nowhere", "position": 0}],
                       sessions=["s1"])
    topic = next(e for e in events if isinstance(e, TopicForgotten))
    assert topic.memory_ids == (acme,) and [(r.episode_id, r.position) for r in topic.messages] == [("e1", 1)]
    # Unknown ids (gone meanwhile) are passed over.
    assert [e.memory_id for e in events if isinstance(e, MemoryForgotten)] == [acme]
    assert [e.trigger for e in events if isinstance(e, SummaryDue)] == ["revised"]
    assert not any(isinstance(e, ProfileDue) for e in events)  # no profile yet
    assert person.state.memories[tea].active and person.state.memories[acme].forgotten
    with pytest.raises(NothingAboutTopic):
        person.do(ForgetTopic, topic="Acme", memory_ids=["gone"])


def test_purging_a_topic_purges_its_memories_with_their_turns_and_the_turns_about_it() -> None:
    person = Person()
    acme, tea = _talked(person)
    events = person.do(ForgetTopic, topic="Acme", purge=True, memory_ids=[acme],
                       messages=[{"episode_id": "e1", "position": 1}])
    (purged,) = [e for e in events if isinstance(e, MemoryPurged)]
    assert purged.memory_ids == (acme,)
    # The memory's own turn, and the turn about the topic.
    assert [(r.episode_id, r.position) for r in purged.messages] == [("e1", 0), ("e1", 1)]
    assert acme not in person.state.memories and tea in person.state.memories
