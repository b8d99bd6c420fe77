"""The maintenance rules on memories of my own: what fades, what is forgotten, what is compressed,
what is never touched; and the decider carrying a run out only on what is still as it was seen."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest

from domain.commands import (
    Compression,
    ConfigureUser,
    DecayDecision,
    MaintainMemory,
    RecordEpisode,
    RecordMemory,
)
from domain.decide import decide
from domain.events import (
    EpisodeExpired,
    EpisodeRecorded,
    MaintenanceApplied,
    MemoryCompressed,
    MemoryDecayed,
    MemoryForgotten,
    MemoryRecorded,
)
from domain.lifecycle.maintenance import Group, MemoryUse, compress_offline, plan, relevance
from domain.model import MemoryKind, MemoryStatus
from domain.state import UserState, evolve

AS_OF = datetime(2026, 6, 1, tzinfo=UTC)


def use(memory_id: str, *, days: float, importance: float = 0.5, accesses: int = 0,
        accessed_days: float | None = None, kind: MemoryKind = MemoryKind.FACT, confidence: float = 1.0,
        slot: str | None = None, value: str | None = None, completed: bool = False) -> MemoryUse:
    said = AS_OF - timedelta(days=days)
    return MemoryUse(memory_id, kind, f"memory {memory_id}", importance, confidence, said, accesses,
                     AS_OF - timedelta(days=accessed_days) if accessed_days is not None else None,
                     slot, value, said, None, completed)


def test_relevance_is_the_seed_formula() -> None:
    m = use("a", days=100, importance=0.8, accesses=3, accessed_days=20)
    assert relevance(m, AS_OF) == pytest.approx(math.exp(-0.01 * 20) * (1 + math.log(4)) * 0.8)
    # Never used: counted from when it was said.
    assert relevance(use("b", days=50, importance=0.5), AS_OF) == pytest.approx(math.exp(-0.5) * 0.5)


# (memory, what the run does to it): forgotten below 0.1, demoted below 0.3, else kept.
CASES = [
    (use("fresh", days=1, importance=0.5), "kept"),                        # 0.495
    (use("fading", days=60, importance=0.5), "demoted"),                   # 0.274
    (use("gone", days=200, importance=0.5), "forgotten"),                  # 0.068
    (use("used", days=200, importance=0.5, accesses=9, accessed_days=2), "kept"),   # 1.6
    (use("core", days=2000, importance=0.95), "kept"),                     # core: never touched
    (use("pinned", days=2000, importance=0.5, kind=MemoryKind.LESSON), "kept"),
    (use("open todo", days=2000, importance=0.5, kind=MemoryKind.TODO), "kept"),
    (use("done todo", days=2000, importance=0.5, kind=MemoryKind.TODO, completed=True), "forgotten"),
    (use("edge", days=math.log(0.3 / 0.31) / -0.01 - 0.01, importance=0.31), "kept"),  # just above 0.3
]


@pytest.mark.parametrize(("memory", "expected"), CASES, ids=[c[0].memory_id for c in CASES])
def test_each_memory_is_forgotten_demoted_or_kept_as_the_rules_say(memory: MemoryUse, expected: str) -> None:
    found = plan([memory], AS_OF, pinned=[MemoryKind.LESSON])
    outcome = ("forgotten" if found.forget else "demoted" if found.demote else "kept")
    assert outcome == expected
    if found.demote:
        assert found.demote[0].importance == pytest.approx(memory.importance * 0.8)


def test_old_low_use_memories_of_one_kind_are_compressed_in_groups_of_three_or_more() -> None:
    events = [use(f"e{i}", days=40 + i, importance=0.45, kind=MemoryKind.EVENT) for i in range(4)]
    two_facts = [use(f"f{i}", days=40, importance=0.45) for i in range(2)]        # too few of a kind
    young = [use(f"y{i}", days=2, importance=0.2, kind=MemoryKind.GOAL) for i in range(3)]  # too young
    slotted = [use(f"s{i}", days=40, importance=0.45, slot="city", value=f"c{i}") for i in range(3)]
    found = plan(events + two_facts + young + slotted, AS_OF)
    assert [g.memory_ids for g in found.compress] == [("e3", "e2", "e1", "e0")]
    assert found.evaluated == 12


def test_large_groups_become_at_most_three_memories_and_the_rest_waits() -> None:
    many = [use(f"e{i:02}", days=40 + i, importance=0.45, kind=MemoryKind.EVENT) for i in range(45)]
    groups = plan(many, AS_OF).compress
    assert len(groups) == 3 and sum(len(g.memory_ids) for g in groups) == 30
    assert all(len(g.memory_ids) == 10 for g in groups)


def test_offline_compression_keeps_every_sentence_once() -> None:
    group = Group(MemoryKind.EVENT, ("a", "b", "c"), ("Went to the dentist on May 2", "Bought a red lamp.",
                                                        "went to the dentist on May 2."))
    assert compress_offline(group) == ["Went to the dentist on May 2. Bought a red lamp."]


def test_two_values_of_a_slot_in_force_together_are_a_contradiction_the_later_one_wins() -> None:
    older = use("old", days=30, slot="city", value="Berlin")
    newer = use("new", days=10, slot="city", value="Lisbon")
    same = use("again", days=5, slot="editor", value="vim")
    again = use("again2", days=3, slot="editor", value="Vim")
    found = plan([older, newer, same, again], AS_OF)
    assert [(c.memory_id, c.by_memory_id) for c in found.contradictions] == [("old", "new")]


def _state() -> tuple[UserState, list[str]]:
    state = UserState("u")
    ids = []
    for i, (kind, importance) in enumerate([("fact", 0.5), ("fact", 0.95), ("event", 0.4), ("event", 0.4),
                                            ("event", 0.4)]):
        command = RecordMemory(command_id=f"c{i}", user_id="u", occurred_at=AS_OF, content=f"thing {i}",
                               kind=kind, importance=importance)
        (recorded,) = decide(state, command, AS_OF)
        evolve(state, [recorded])
        ids.append(recorded.memory_id)
    return state, ids


def _decision(memory_id: str, importance: float = 0.4) -> DecayDecision:
    return DecayDecision(memory_id=memory_id, relevance=0.05, access_count=2, last_used_at=AS_OF,
                         importance=importance)


def test_the_decider_carries_a_run_out_and_leaves_core_memories_alone() -> None:
    state, ids = _state()
    command = MaintainMemory(
        command_id="m1", user_id="u", occurred_at=AS_OF, run_id="r1", as_of=AS_OF, started_at=AS_OF,
        evaluated=5, forget=(_decision(ids[0]), _decision(ids[1])), demote=(),
        compress=(Compression(memory_ids=tuple(ids[2:]), contents=("thing 2. thing 3. thing 4.",),
                              compressor="compress/offline-1"),))
    events = decide(state, command, AS_OF)
    forgotten = [e for e in events if isinstance(e, MemoryForgotten)]
    assert [(e.memory_id, e.reason, e.run_id, e.access_count) for e in forgotten] == [
        (ids[0], "decayed", "r1", 2)]
    (compressed,) = [e for e in events if isinstance(e, MemoryCompressed)]
    (made,) = [e for e in events if isinstance(e, MemoryRecorded)]
    assert compressed.compressed_from == tuple(ids[2:]) and made.kind is MemoryKind.EVENT
    (report,) = [e for e in events if isinstance(e, MaintenanceApplied)]
    assert (report.forgotten, report.compressed, report.demoted) == (1, 3, 0)
    evolve(state, events)
    assert state.memories[ids[2]].status is MemoryStatus.COMPRESSED
    # The same decisions again find nothing left to do.
    again = decide(state, command.model_copy(update={"command_id": "m2"}), AS_OF)
    assert [type(e) for e in again] == [MaintenanceApplied]


def test_a_demotion_only_lowers_and_a_pinned_kind_is_never_touched() -> None:
    state, ids = _state()
    evolve(state, decide(state, ConfigureUser(command_id="s", user_id="u", occurred_at=AS_OF,
                                              pinned_kinds=("event",)), AS_OF))
    command = MaintainMemory(command_id="m", user_id="u", occurred_at=AS_OF, run_id="r", as_of=AS_OF,
                             started_at=AS_OF, evaluated=5,
                             demote=(_decision(ids[0], 0.4), _decision(ids[2], 0.3), _decision(ids[3], 0.9)))
    events = decide(state, command, AS_OF)
    assert [(e.memory_id, e.importance) for e in events if isinstance(e, MemoryDecayed)] == [(ids[0], 0.4)]


def test_episodes_carry_their_expiry_and_a_run_expires_them_once() -> None:
    state = UserState("u")
    record = RecordEpisode(command_id="e", user_id="u", occurred_at=AS_OF, session_id="s",
                           messages=[{"role": "user", "content": "hello"}])
    (episode, *_) = decide(state, record, AS_OF)
    assert isinstance(episode, EpisodeRecorded) and episode.expires_at == AS_OF + timedelta(days=30)
    evolve(state, decide(state, ConfigureUser(command_id="k", user_id="u", occurred_at=AS_OF,
                                              episode_retention_days=0), AS_OF))
    (kept, *_) = decide(state, record.model_copy(update={"command_id": "e2", "episode_id": "other"}), AS_OF)
    assert isinstance(kept, EpisodeRecorded) and kept.expires_at is None
    evolve(state, [episode])
    command = MaintainMemory(command_id="m", user_id="u", occurred_at=AS_OF, run_id="r", as_of=AS_OF,
                             started_at=AS_OF, evaluated=0, expire_episodes=(episode.episode_id, "unknown"))
    events = decide(state, command, AS_OF)
    assert [e.episode_id for e in events if isinstance(e, EpisodeExpired)] == [episode.episode_id]
    evolve(state, events)
    again = decide(state, command.model_copy(update={"command_id": "m2"}), AS_OF)
    assert not [e for e in again if isinstance(e, EpisodeExpired)]


class _Answering:
    """A stand-in model: answers what it is given."""

    model = "stand-in"

    def __init__(self, memories: list[str] | Exception) -> None:
        self.memories = memories

    def structured(self, system: str, user: str, schema: type, name: str) -> object:
        from infra.llm.port import Structured

        if isinstance(self.memories, Exception):
            raise self.memories
        return Structured(schema(memories=self.memories), raw="{}", model=self.model, mode="json_schema",
                          prompt_tokens=10, completion_tokens=5)


GROUP = Group(MemoryKind.EVENT, ("a", "b", "c"),
              ("Met Priya in Porto on 12 May", "Paid 40 euros for the museum", "Took the 8:15 train back"))


def test_a_model_compression_is_taken_only_when_it_keeps_every_name_and_number() -> None:
    from services.lifecycle.compress import LLMCompressor

    kept = LLMCompressor(_Answering(["Met Priya in Porto on 12 May, paid 40 euros for the museum and took "
                                     "the 8:15 train back."])).compress(GROUP)  # type: ignore[arg-type]
    assert kept.compressor == "stand-in compress/1" and len(kept.contents) == 1
    lossy = LLMCompressor(_Answering(["Had a trip to Porto."])).compress(GROUP)  # type: ignore[arg-type]
    assert lossy.compressor.startswith("compress/offline-1") and "Priya" in lossy.contents[0]
    failed = LLMCompressor(_Answering(RuntimeError("down"))).compress(GROUP)  # type: ignore[arg-type]
    assert failed.compressor == "compress/offline-1" and "8:15" in failed.contents[0]
