"""The person's own edits (domain/memories/revisions.py): corrections keep the old wording in
history and take its window; new lines are recorded; removed ones forgotten; one refusal refuses
all of it."""

from __future__ import annotations

import pytest

from domain.commands import ConfigureUser, Correction, ForgetMemory, NewMemory, RecordMemory, ReviseMemories
from domain.errors import (
    MemoryAlreadyForgotten,
    MemoryNotCurrent,
    MemoryNotFound,
    MemoryPaused,
    RevisionInvalid,
)
from domain.events import MemoryCorrected, MemoryForgotten, MemoryRecorded, MemorySuperseded
from domain.model import MemoryStatus
from tests.unit.test_deciders import Person, month


def _ids(events: list) -> dict[type, list[str]]:
    found: dict[type, list[str]] = {}
    for event in events:
        found.setdefault(type(event), []).append(event.memory_id)
    return found


def test_a_correction_takes_the_old_window_and_the_old_wording_holds_no_time() -> None:
    person = Person()
    (cat,) = person.do(RecordMemory, content="Ada's cat is called Mso", valid_from=month(2))
    events = person.do(ReviseMemories, correct=(Correction(memory_id=cat.memory_id,
                                                           content="Ada's cat is called Miso"),))
    recorded, corrected = events
    assert isinstance(recorded, MemoryRecorded) and isinstance(corrected, MemoryCorrected)
    assert recorded.content == "Ada's cat is called Miso"
    assert (recorded.valid_from, recorded.valid_until) == (month(2), None)
    assert corrected.memory_id == cat.memory_id and corrected.by_memory_id == recorded.memory_id
    assert corrected.valid_until == month(2)  # closed where it opened: never true, as known now
    old = person.state.memories[cat.memory_id]
    assert old.status is MemoryStatus.SUPERSEDED and old.valid_until == old.valid_from
    assert person.state.memories[recorded.memory_id].active


def test_a_corrected_slot_value_keeps_its_place_in_the_timeline() -> None:
    person = Person()
    person.color("blue", month(1))
    (green, superseded) = person.color("gren", month(3))
    events = person.do(ReviseMemories, correct=(Correction(
        memory_id=green.memory_id, content="favourite colour is green", attribute="favorite_color",
        value="green"),))
    recorded, corrected, moved = events
    assert isinstance(moved, MemorySuperseded) and moved.memory_id == superseded.memory_id
    assert moved.by_memory_id == recorded.memory_id and moved.valid_until == month(3)
    # The typo stays in the timeline as a value replaced where it began: it held no time.
    assert [m.value_key for m in person.state.timeline("favorite_color")] == ["blue", "gren", "green"]
    assert person.value_at(month(2)) == "blue" and person.value_at(month(4)) == "green"
    # A later value supersedes the corrected one; a late one ends where the corrected one begins.
    later, closes = person.color("red", month(5))
    assert closes.memory_id == recorded.memory_id
    *_, ends = person.color("teal", month(2))
    assert ends.valid_until == month(3)
    assert [person.value_at(month(m)) for m in (1, 2, 3, 4, 5)] == ["blue", "teal", "green", "green", "red"]


def test_a_revision_records_corrects_and_forgets_as_one_decision() -> None:
    person = Person()
    (tea,) = person.do(RecordMemory, content="Ada likes tea", kind="preference")
    (cello,) = person.do(RecordMemory, content="Ada plays the chello", kind="event")
    events = person.do(ReviseMemories, record=(NewMemory(content="Ada reads Borges", kind="fact"),),
                       correct=(Correction(memory_id=cello.memory_id, content="Ada plays the cello"),),
                       forget=(tea.memory_id,), source="memory.md")
    ids = _ids(events)
    assert len(ids[MemoryRecorded]) == 2 and ids[MemoryCorrected] == [cello.memory_id]
    assert ids[MemoryForgotten] == [tea.memory_id]
    new = next(e for e in events if isinstance(e, MemoryRecorded) and e.content == "Ada reads Borges")
    assert new.source == "memory.md" and new.kind.value == "fact"


@pytest.mark.parametrize("revision, refusal", [
    ({"forget": ("no-such",)}, MemoryNotFound),
    ({"correct": (Correction(memory_id="TEA", content="Ada likes green tea"),), "forget": ("TEA",)},
     RevisionInvalid),
    ({"correct": (Correction(memory_id="TEA", content="ada likes tea"),)}, RevisionInvalid),
    ({"correct": (Correction(memory_id="TEA", content="Ada likes tea!", attribute="drink"),)},
     RevisionInvalid),
    ({"correct": (Correction(memory_id="OLD", content="favourite colour is navy"),)}, MemoryNotCurrent),
    ({"forget": ("GONE",)}, MemoryAlreadyForgotten),
])
def test_one_part_that_cannot_be_done_refuses_the_whole_revision(revision: dict, refusal: type) -> None:
    person = Person()
    (tea,) = person.do(RecordMemory, content="Ada likes tea", kind="preference")
    (old,) = person.color("blue", month(1))
    person.color("navy", month(2))
    (gone,) = person.do(RecordMemory, content="Ada had a cold")
    person.do(ForgetMemory, memory_id=gone.memory_id)
    names = {"TEA": tea.memory_id, "OLD": old.memory_id, "GONE": gone.memory_id}

    def named(value: object) -> object:
        if isinstance(value, Correction):
            return value.model_copy(update={"memory_id": names.get(value.memory_id, value.memory_id)})
        return names.get(value, value) if isinstance(value, str) else value

    before = {m: (s.status, s.content_key) for m, s in person.state.memories.items()}
    with pytest.raises(refusal):
        person.do(ReviseMemories, record=(NewMemory(content="Ada reads Borges"),),
                  **{k: tuple(named(v) for v in vs) for k, vs in revision.items()})
    assert {m: (s.status, s.content_key) for m, s in person.state.memories.items()} == before


def test_while_memory_is_paused_a_revision_may_forget_but_not_remember() -> None:
    person = Person()
    (tea,) = person.do(RecordMemory, content="Ada likes tea")
    person.do(ConfigureUser, memory=False)
    with pytest.raises(MemoryPaused):
        person.do(ReviseMemories, record=(NewMemory(content="Ada reads Borges"),))
    (forgotten,) = person.do(ReviseMemories, forget=(tea.memory_id,))
    assert isinstance(forgotten, MemoryForgotten)
