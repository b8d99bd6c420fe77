"""The command handler on in-memory ports: identity per person, Lore's own transaction time,
entries that fit the log, a bounded state cache, the model outside the writer lock, and a
partition assignment that never waits for a batch."""

from __future__ import annotations

import asyncio
import threading
from datetime import UTC, datetime, timedelta

import pytest
from aiokafka import TopicPartition

from domain.commands import ForgetMemory, RecordEpisode, RecordMemory, RecordUse, UseCount
from domain.events import CommandRejected, MemoriesUsed, MemoryRecorded, MemorySuperseded
from services.commands import CommandHandler
from services.worker import _Rebalance
from tests.support.memory_ports import MemoryGraph, MemoryLog, Reads, StubEmbedder

T = datetime(2026, 3, 1, tzinfo=UTC)
HANG_GUARD_S = 60  # a deadlock shows as a hang: fail instead of waiting forever


class Clock:
    def __init__(self, now: datetime = T) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


class HeldBatch:
    """A batch held inside the writer lock (in the projection) until `finish`. If what the test
    does meanwhile waits for the lock, the hold runs out first: `waited_out` says so."""

    def __init__(self, graph: MemoryGraph, lore: CommandHandler) -> None:
        self.inside, self.release = threading.Event(), threading.Event()
        self.waited_out = False

        def hold() -> None:
            self.inside.set()
            self.waited_out = not self.release.wait(HANG_GUARD_S)

        graph.before_apply = hold
        self.thread = threading.Thread(target=lore.handle, args=([memory("ada", "held", "held")],))
        self.thread.start()
        assert self.inside.wait(HANG_GUARD_S)
        self.graph = graph

    def finish(self) -> None:
        self.release.set()
        self.thread.join(HANG_GUARD_S)
        self.graph.before_apply = None


def handler(graph: MemoryGraph | None = None, log: MemoryLog | None = None,
            **options: object) -> CommandHandler:
    graph = graph or MemoryGraph()
    return CommandHandler(Reads(graph), log or MemoryLog(), graph, options.pop("embedder", None),
                          **options)  # type: ignore[arg-type]


def memory(user: str, command_id: str, content: str = "likes tea", **fields: object) -> RecordMemory:
    return RecordMemory(command_id=command_id, user_id=user, occurred_at=T, content=content, **fields)


def test_two_people_may_use_the_same_command_id() -> None:
    lore = handler()
    first = lore.handle([memory("ada", "chat-1", "Ada likes tea")])
    second = lore.handle([memory("bob", "chat-1", "Bob likes coffee")])
    assert [o.status for o in first + second] == ["applied", "applied"]
    assert first[0].memory_id != second[0].memory_id


def test_a_command_id_sent_again_answers_what_it_came_to() -> None:
    lore = handler()
    (applied,) = lore.handle([memory("ada", "c1")])
    (again,) = lore.handle([memory("ada", "c1", "something else")])
    assert again.status == "duplicate" and again.memory_id == applied.memory_id
    assert again.prior is not None and again.prior.outcome == "applied"

    refused = ForgetMemory(command_id="f1", user_id="ada", occurred_at=T, memory_id="nothing")
    first, twice = lore.handle([refused, refused])
    assert first.status == "rejected" and twice.status == "duplicate"
    assert twice.prior is not None and twice.prior.outcome == "rejected"
    assert twice.prior.code == "memory_not_found"


def test_transaction_time_is_lores_clock_and_never_goes_back() -> None:
    log, clock = MemoryLog(), Clock()
    lore = handler(log=log, clock=clock)
    lore.handle([memory("ada", "c1", "one")])
    clock.now = T - timedelta(days=30)  # the machine's clock is set back
    lore.handle([memory("ada", "c2", "two")])
    clock.now = T + timedelta(hours=1)
    lore.handle([memory("ada", "c3", "three")])
    assert [e.recorded_at for e in log.events()] == [T, T, T + timedelta(hours=1)]


def test_a_new_writer_records_no_earlier_than_what_the_log_holds() -> None:
    graph, log = MemoryGraph(), MemoryLog()
    handler(graph, log, clock=Clock(T + timedelta(days=1))).handle([memory("ada", "c1", "one")])
    late = handler(graph, log, clock=Clock(T))  # another process, whose clock is behind
    late.handle([memory("ada", "c2", "two")])
    assert [e.recorded_at for e in log.events()] == [T + timedelta(days=1)] * 2


def test_events_larger_than_an_entry_of_the_log_are_refused_and_the_rest_applies() -> None:
    log = MemoryLog()
    lore = handler(log=log, embedder=StubEmbedder(), max_entry_bytes=64 * 1024)
    long = RecordEpisode(command_id="e1", user_id="ada", occurred_at=T, session_id="s",
                         messages=tuple({"role": "user", "content": "word " * 200} for _ in range(200)))
    small = memory("ada", "c1")
    outcomes = lore.handle([long, small])
    assert [o.status for o in outcomes] == ["rejected", "applied"]
    assert outcomes[0].error is not None and outcomes[0].error.code == "events_too_large"
    assert "65,536" in str(outcomes[0].error) and "LORE_MAX_ENTRY_BYTES" in str(outcomes[0].error)
    assert [type(e) for e in log.events()] == [CommandRejected, MemoryRecorded]
    (again,) = lore.handle([long.model_copy(update={"command_id": "e2", "messages": long.messages[:10]})])
    assert again.status == "applied"  # the person's state was not changed by the refused episode


def test_the_state_cache_is_bounded_and_decisions_stay_right() -> None:
    graph = MemoryGraph()
    reads = Reads(graph)
    lore = CommandHandler(reads, MemoryLog(), graph, None, cached_people=2)
    people = [f"p{n}" for n in range(5)]
    for n, person in enumerate(people):
        lore.handle([memory(person, f"a{n}", "colour is blue", attribute="colour", value="blue")])
    assert len(lore._states) <= 2
    # Everyone's slot still supersedes correctly, cached or read back.
    for n, person in enumerate(people):
        (outcome,) = lore.handle([memory(person, f"b{n}", "colour is red", attribute="colour", value="red",
                                         valid_from=T + timedelta(days=1))])
        assert outcome.events == 2, person  # recorded + superseded the blue one
    assert any("p0" in batch for batch in reads.loaded[1:]), "an evicted person is read again"


def test_use_reads_only_the_memories_it_names_and_such_a_part_is_never_cached() -> None:
    graph, log = MemoryGraph(), MemoryLog()
    reads = Reads(graph)
    CommandHandler(reads, log, graph, None).handle([
        memory("ada", "m1", "likes tea"),
        memory("ada", "m2", "colour is blue", attribute="colour", value="blue")])
    ids = [e.memory_id for e in log.events() if isinstance(e, MemoryRecorded)]
    lore = CommandHandler(reads, log, graph, None)  # a fresh process: nothing cached
    (used,) = lore.handle([RecordUse(command_id="u1", user_id="ada", occurred_at=T,
                                     found=(UseCount(memory_id=ids[0], count=2),
                                            UseCount(memory_id="gone", count=1)))])
    assert used.status == "applied" and reads.loaded[-1] == {"ada:part"}
    event = log.events()[-1]
    assert isinstance(event, MemoriesUsed) and [u.memory_id for u in event.found] == [ids[0]]
    assert "ada" not in lore._states
    (changed,) = lore.handle([memory("ada", "m3", "colour is red", attribute="colour", value="red",
                                     valid_from=T + timedelta(days=1))])
    assert changed.events == 2 and reads.loaded[-1] == {"ada"}  # the whole state, for a decision


def test_many_people_in_one_batch_keep_their_states_whatever_the_cache_evicts() -> None:
    lore = handler(cached_people=1)
    first = [memory(f"p{n}", f"a{n}", "colour is blue", attribute="colour", value="blue") for n in range(4)]
    second = [memory(f"p{n}", f"b{n}", "colour is red", attribute="colour", value="red",
                     valid_from=T + timedelta(days=1)) for n in range(4)]
    outcomes = lore.handle(first + second)
    assert [o.events for o in outcomes] == [1] * 4 + [2] * 4


def test_the_model_runs_outside_the_writer_lock() -> None:
    held: list[bool] = []
    embedder = StubEmbedder(during=lambda: held.append(lore._lock.locked()))
    lore = handler(embedder=embedder)
    lore.handle([memory("ada", "c1")])
    assert held == [False]


def test_an_assignment_of_partitions_never_waits_for_the_batch_in_hand() -> None:
    graph, log = MemoryGraph(), MemoryLog()
    lore = handler(graph, log)
    lore.handle([memory("ada", "c0")])
    batch = HeldBatch(graph, lore)
    assigned = threading.Thread(target=lore.serve_partitions, args=([0, 1],))
    assigned.start()
    assigned.join(HANG_GUARD_S)  # returns while the batch still holds the writer lock
    batch.finish()
    assert not batch.waited_out, "serve_partitions waited for the batch"

    catch_ups = graph.catch_ups
    lore.handle([memory("ada", "c2", "again")])
    assert graph.catch_ups == catch_ups + 1, "the next batch catches up on its new partitions"


@pytest.mark.parametrize("partitions", [None, [3]])
def test_each_entry_goes_to_the_partition_its_command_came_from(partitions: list[int] | None) -> None:
    log = MemoryLog()
    handler(log=log).handle([memory("ada", "c1")], partitions)
    assert [p for p, _, _ in log.entries] == [0 if partitions is None else 3]


def test_a_late_value_supersedes_through_the_handler_as_in_the_domain() -> None:
    log = MemoryLog()
    lore = handler(log=log)
    lore.handle([memory("ada", "c1", "lives in Berlin", attribute="home_city", value="Berlin")])
    lore.handle([memory("ada", "c2", "lives in Lisbon", attribute="home_city", value="Lisbon",
                        valid_from=T + timedelta(days=10))])
    assert any(isinstance(e, MemorySuperseded) for e in log.events())


def test_the_rebalance_listener_returns_on_the_event_loop_while_a_batch_is_in_hand() -> None:
    graph = MemoryGraph()
    lore = handler(graph)
    batch = HeldBatch(graph, lore)
    asyncio.run(_Rebalance(lore).on_partitions_assigned([TopicPartition("lore.commands", 2)]))
    batch.finish()
    assert not batch.waited_out, "the listener waited for the batch, on the event loop"


def test_a_command_the_sqlite_log_refuses_is_a_duplicate_and_its_state_is_read_again(tmp_path) -> None:
    # The projection forgets an erased person's commands; the SQLite log still holds their ids.
    from domain.stored import Decided
    from infra.eventlog.sqlite import SqliteEventLog

    log = SqliteEventLog(tmp_path / "events.sqlite3")
    lore = handler(log=log)
    assert [o.status for o in lore.handle([memory("bob", "b1", "hello")])] == ["applied"]
    earlier = MemoryRecorded(event_id="e", user_id="ada", command_id="c1", occurred_at=T, recorded_at=T,
                             memory_id="m", kind="fact", content="said before", valid_from=T)
    log.append([Decided("c1", "ada", [earlier])])  # behind the projection's back
    (outcome,) = lore.handle([memory("ada", "c1", "likes tea")])
    assert outcome.status == "duplicate" and "ada" not in lore._states
    assert log.count() == 2
    log.close()
