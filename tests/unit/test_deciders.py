"""Every rule of the deciders, through decide() and evolve() only."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from domain.commands import EraseUser, ForgetMemory, RecordEpisode, RecordMemory, RestoreMemory
from domain.decide import decide
from domain.errors import (
    InvalidValidityWindow,
    MemoryAlreadyForgotten,
    MemoryNotForgotten,
    MemoryNotFound,
)
from domain.events import MemoryRecorded, MemoryReinforced, MemorySuperseded
from domain.model import MemoryStatus
from domain.state import UserState, evolve

NOW = datetime(2026, 6, 1, tzinfo=UTC)


def month(m: int) -> datetime:
    return datetime(2026, m, 1, tzinfo=UTC)


class Person:
    """A user's state, driven by commands the way the handler drives it."""

    def __init__(self) -> None:
        self.state = UserState("u")
        self.count = 0

    def do(self, command_type: type, **fields: object) -> list:
        self.count += 1
        fields.setdefault("occurred_at", NOW)
        command = command_type(command_id=f"c{self.count}", user_id="u", **fields)
        events = decide(self.state, command, NOW)
        evolve(self.state, events)
        return events

    def color(self, value: str, valid_from: datetime) -> list:
        return self.do(RecordMemory, content=f"favourite colour is {value}", kind="preference",
                       attribute="favorite_color", value=value, valid_from=valid_from)

    def value_at(self, moment: datetime) -> str | None:
        held = [m for m in self.state.timeline("favorite_color") if m.holds_at(moment)]
        assert len(held) <= 1
        return held[0].value_key if held else None


def test_a_new_value_for_a_slot_supersedes_the_current_one() -> None:
    person = Person()
    (blue,) = person.color("blue", month(1))
    events = person.color("green", month(3))
    recorded, superseded = events
    assert isinstance(recorded, MemoryRecorded) and recorded.valid_until is None
    assert superseded == MemorySuperseded(
        **superseded.model_dump(include={"event_id", "user_id", "command_id", "occurred_at",
                                         "recorded_at"}),
        memory_id=blue.memory_id, by_memory_id=recorded.memory_id, valid_until=month(3),
    )
    assert person.state.memories[blue.memory_id].status is MemoryStatus.SUPERSEDED
    assert person.state.memories[recorded.memory_id].status is MemoryStatus.ACTIVE


def test_a_late_value_slots_into_the_past_and_leaves_the_present_alone() -> None:
    person = Person()
    person.color("blue", month(1))
    person.color("green", month(3))
    recorded, closes_blue, closed_by_green = person.color("red", month(2))
    assert recorded.valid_until == month(3)
    assert closes_blue.valid_until == month(2)
    assert closed_by_green.memory_id == recorded.memory_id
    assert [person.value_at(month(m)) for m in (1, 2, 3, 5)] == ["blue", "red", "green", "green"]


def test_a_value_stated_before_any_other_ends_where_the_first_begins() -> None:
    person = Person()
    person.color("green", month(3))
    (recorded, closed) = person.color("blue", month(1))
    assert recorded.valid_until == month(3) and isinstance(closed, MemorySuperseded)
    assert person.value_at(month(2)) == "blue" and person.value_at(month(4)) == "green"


def test_the_same_value_again_reinforces_instead_of_duplicating() -> None:
    person = Person()
    (blue,) = person.do(RecordMemory, content="likes blue", attribute="favorite_color",
                        value="Blue", confidence=0.6, valid_from=month(1))
    (again,) = person.do(RecordMemory, content="really likes blue", attribute="Favorite_Color",
                         value=" blue ", confidence=0.5, valid_from=month(2), source="chat")
    assert isinstance(again, MemoryReinforced)
    assert again.memory_id == blue.memory_id and again.confidence == pytest.approx(0.8)
    assert len(person.state.memories) == 1


def test_the_same_statement_without_a_slot_is_not_duplicated() -> None:
    person = Person()
    person.do(RecordMemory, content="Works at  ACME", kind="fact")
    (again,) = person.do(RecordMemory, content="works at acme", kind="fact")
    assert isinstance(again, MemoryReinforced)


def test_a_window_that_ends_before_it_begins_is_refused() -> None:
    with pytest.raises(InvalidValidityWindow, match="before valid_from"):
        Person().do(RecordMemory, content="x", valid_from=month(3), valid_until=month(1))


def test_forget_and_restore_refuse_what_does_not_fit() -> None:
    person = Person()
    (memory,) = person.do(RecordMemory, content="likes tea")
    with pytest.raises(MemoryNotFound):
        person.do(ForgetMemory, memory_id="nope")
    with pytest.raises(MemoryNotForgotten):
        person.do(RestoreMemory, memory_id=memory.memory_id)
    person.do(ForgetMemory, memory_id=memory.memory_id)
    assert person.state.memories[memory.memory_id].status is MemoryStatus.FORGOTTEN
    with pytest.raises(MemoryAlreadyForgotten):
        person.do(ForgetMemory, memory_id=memory.memory_id)
    person.do(RestoreMemory, memory_id=memory.memory_id)
    assert person.state.memories[memory.memory_id].status is MemoryStatus.ACTIVE


def test_restoring_a_superseded_memory_keeps_it_superseded() -> None:
    person = Person()
    (blue,) = person.color("blue", month(1))
    person.color("green", month(2))
    person.do(ForgetMemory, memory_id=blue.memory_id)
    person.do(RestoreMemory, memory_id=blue.memory_id)
    assert person.state.memories[blue.memory_id].status is MemoryStatus.SUPERSEDED


def test_a_forgotten_value_stated_again_is_recorded_anew() -> None:
    person = Person()
    (blue,) = person.color("blue", month(1))
    person.do(ForgetMemory, memory_id=blue.memory_id)
    recorded, superseded = person.color("blue", month(2))
    assert isinstance(recorded, MemoryRecorded) and superseded.memory_id == blue.memory_id


def test_erasing_a_person_forgets_everything_about_them() -> None:
    person = Person()
    person.color("blue", month(1))
    person.do(RecordEpisode, session_id="s", messages=[{"role": "user", "content": "hi"}])
    person.do(EraseUser)
    assert person.state.memories == {} and person.state.episodes == {} and person.state.sessions == {}


def test_deciding_the_same_command_twice_gives_the_same_events() -> None:
    command = RecordMemory(command_id="c1", user_id="u", occurred_at=NOW, content="likes tea")
    assert decide(UserState("u"), command, NOW) == decide(UserState("u"), command, NOW)


def test_an_episode_recorded_twice_with_its_id_is_kept_once() -> None:
    person = Person()
    messages = [{"role": "user", "content": "hello"}]
    first = person.do(RecordEpisode, session_id="s", episode_id="e1", messages=messages)
    assert [type(e).__name__ for e in first] == ["EpisodeRecorded", "SessionAdvanced"]
    assert person.do(RecordEpisode, session_id="s", episode_id="e1", messages=messages) == []


def test_an_event_said_again_on_another_day_is_another_event() -> None:
    person = Person()
    (january,) = person.do(RecordMemory, content="had a migraine", kind="event", valid_from=month(1))
    (june,) = person.do(RecordMemory, content="Had a  migraine", kind="event", valid_from=month(6))
    assert isinstance(june, MemoryRecorded) and june.memory_id != january.memory_id
    (again,) = person.do(RecordMemory, content="had a migraine", kind="event", valid_from=month(6))
    assert isinstance(again, MemoryReinforced) and again.memory_id == june.memory_id


def test_the_same_event_told_twice_on_its_day_is_one_event() -> None:
    person = Person()
    (morning,) = person.do(RecordMemory, content="ran 10 km", kind="event",
                           valid_from=month(2).replace(hour=7))
    (evening,) = person.do(RecordMemory, content="ran 10 km", kind="event",
                           valid_from=month(2).replace(hour=19))
    assert isinstance(evening, MemoryReinforced) and evening.memory_id == morning.memory_id


def test_a_fact_said_again_while_it_holds_is_reinforced_and_after_it_ended_is_recorded_anew() -> None:
    person = Person()
    (first,) = person.do(RecordMemory, content="works at ACME", kind="fact", valid_from=month(1),
                         valid_until=month(3))
    (during,) = person.do(RecordMemory, content="works at ACME", kind="fact", valid_from=month(2))
    assert isinstance(during, MemoryReinforced) and during.memory_id == first.memory_id
    (after,) = person.do(RecordMemory, content="works at ACME", kind="fact", valid_from=month(5))
    assert isinstance(after, MemoryRecorded) and after.memory_id != first.memory_id


def test_a_preference_restated_months_later_is_the_same_preference() -> None:
    person = Person()
    (tea,) = person.do(RecordMemory, content="prefers green tea", kind="preference", valid_from=month(1))
    (later,) = person.do(RecordMemory, content="prefers green tea", kind="preference", valid_from=month(11))
    assert isinstance(later, MemoryReinforced) and later.memory_id == tea.memory_id


def test_a_memory_marked_wrong_loses_half_its_confidence_and_helpful_changes_nothing() -> None:
    from domain.commands import GiveFeedback
    from domain.events import FeedbackGiven

    person = Person()
    (recorded,) = person.do(RecordMemory, content="lives in Lisbon", confidence=0.8)
    (helpful,) = person.do(GiveFeedback, memory_id=recorded.memory_id, verdict="helpful")
    assert isinstance(helpful, FeedbackGiven) and helpful.confidence == 0.8
    (wrong,) = person.do(GiveFeedback, memory_id=recorded.memory_id, verdict="wrong", note="moved to Porto")
    assert wrong.confidence == 0.4 and wrong.note == "moved to Porto"
    (again,) = person.do(GiveFeedback, memory_id=recorded.memory_id, verdict="wrong")
    assert again.confidence == 0.2 and person.state.memories[recorded.memory_id].confidence == 0.2
    assert person.state.memories[recorded.memory_id].status is MemoryStatus.ACTIVE  # kept, not forgotten
    with pytest.raises(MemoryNotFound):
        person.do(GiveFeedback, memory_id="nothing", verdict="wrong")


def test_while_memory_is_paused_nothing_new_is_remembered_and_settings_stay_as_set() -> None:
    from domain.commands import ConfigureUser, EndSession, Message
    from domain.errors import MemoryPaused
    from domain.events import UserConfigured

    person = Person()
    (configured,) = person.do(ConfigureUser, temporary=True)
    assert isinstance(configured, UserConfigured) and configured.temporary and configured.memory
    hello = (Message(role="user", content="hi"),)
    for command, fields in ((RecordMemory, {"content": "likes tea"}),
                            (RecordEpisode, {"session_id": "s1", "messages": hello}),
                            (EndSession, {"session_id": "s1"})):
        with pytest.raises(MemoryPaused, match="temporary session"):
            person.do(command, **fields)
    (ended,) = person.do(ConfigureUser, temporary=False, episode_retention_days=3)
    assert not ended.temporary and ended.episode_retention_days == 3
    (off,) = person.do(ConfigureUser, memory=False)
    assert off.episode_retention_days == 3  # a field left out keeps its value
    with pytest.raises(MemoryPaused, match="memory is off"):
        person.do(RecordMemory, content="likes tea")
    person.do(ConfigureUser, memory=True)
    (recorded,) = person.do(RecordMemory, content="likes tea")
    assert isinstance(recorded, MemoryRecorded)


def test_with_extraction_off_a_conversation_is_kept_and_nothing_is_due() -> None:
    from domain.commands import ConfigureUser, Message
    from domain.events import EpisodeRecorded, ExtractionDue

    def talk(person: Person) -> list:
        turns = tuple(Message(role="user" if i % 2 == 0 else "assistant", content=f"turn {i} about tea")
                      for i in range(40))
        return person.do(RecordEpisode, session_id="s1", messages=turns)

    assert any(isinstance(e, ExtractionDue) for e in talk(Person()))  # on: due, the baseline
    person = Person()
    person.do(ConfigureUser, extraction=False)
    events = talk(person)
    assert any(isinstance(e, EpisodeRecorded) for e in events)
    assert not any(isinstance(e, ExtractionDue) for e in events)


def test_every_command_has_exactly_one_named_decider() -> None:
    from typing import get_args

    from domain.commands import Command
    from domain.decide import DECIDERS, EMBEDDED_TEXTS

    (union, *_) = get_args(Command)
    commands = set(get_args(union))
    assert set(DECIDERS) == commands
    assert len(set(DECIDERS.values())) == len(DECIDERS), "one decider per command"
    # A traceback names the decider: no handler called `_`.
    assert all(d.__name__.startswith(("decide_", "_erase")) for d in DECIDERS.values())
    assert set(EMBEDDED_TEXTS) <= commands
