"""The in-memory fold of the projection (bulk rebuild) on small logs, and its CSV, without a server."""

from __future__ import annotations

import csv
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from domain.commands import Message
from domain.events import (
    EpisodeRecorded,
    Event,
    MemoryForgotten,
    MemoryRecorded,
    MemoryRestored,
    MemorySuperseded,
    UserConfigured,
    UserErased,
)
from domain.model import MemoryKind, command_key
from domain.stored import StoredEvent
from projections.graph.bulk_csv import choose_array_delimiter, write_csv
from projections.graph.fold import FOLDS, Datetime, Folder, Graph
from projections.graph.projector import SHARDS, VERSION, shard_of
from projections.graph.rows import WRITERS

T0 = datetime(2026, 1, 1, 9, tzinfo=UTC)
TRICKY = 'She said "hi, there";\nthen — 你好 \\ left,\r\n"done"'


def at(n: int) -> datetime:
    return T0 + timedelta(minutes=n)


def common(n: int, user: str = "ada", command: str | None = None) -> dict[str, Any]:
    return {"event_id": f"e{n}", "user_id": user, "command_id": command or f"c{n}", "occurred_at": at(n),
            "recorded_at": at(n)}


def memory(n: int, memory_id: str, value: str, user: str = "ada", **extra: Any) -> MemoryRecorded:
    return MemoryRecorded(**common(n, user), memory_id=memory_id, kind=MemoryKind.PREFERENCE,
                          content=f"home city is {value}", attribute="home_city", value=value,
                          valid_from=at(n), **extra)


def fold(*events: Event, batch: int = 1000) -> Graph:
    folder = Folder("graph", SHARDS, shard_of, "log-1", VERSION)
    # A command's events, one after the other, are one log entry: they share its position.
    stored: list[StoredEvent] = []
    for e in events:
        same = stored and (stored[-1].event.user_id, stored[-1].event.command_id) == (e.user_id, e.command_id)
        stored.append(StoredEvent(0, stored[-1].position + (0 if same else 1) if stored else 0, e))
    for start in range(0, len(stored), batch):
        folder.apply(stored[start:start + batch])
    return folder.graph


def test_every_statement_the_projector_runs_has_its_fold() -> None:
    assert {statement for _, statement in WRITERS.values()} <= set(FOLDS)


def test_a_supersession_then_a_forgetting_and_a_restoring_leave_what_the_cypher_leaves() -> None:
    graph = fold(
        memory(0, "m1", "Berlin"), memory(1, "m2", "Lisbon"),
        MemorySuperseded(**common(1), memory_id="m1", by_memory_id="m2", valid_until=at(1)),
        MemoryForgotten(**common(2), memory_id="m1", reason="asked"),
        MemoryRestored(**common(3), memory_id="m1"),
    )
    old = graph.nodes[("Memory", "m1")]
    assert set(old.labels) == {"Memory", "Preference", "Superseded"}
    assert old.props["status"] == "superseded" and old.props["superseded_by"] == "m2"
    assert old.props["valid_until"] == Datetime(at(1).isoformat())
    assert old.props["forgotten_at"] == [at(2).isoformat()]
    assert old.props["restored_at"] == [at(3).isoformat()]
    assert "retired_at" not in old.props and "forgotten_reason" not in old.props  # null: no property
    (supersedes,) = [props for key, props in graph.rels.items() if key[0] == "SUPERSEDES"]
    assert supersedes == {"at": at(1).isoformat(), "valid_until": at(1).isoformat()}
    # Each person's User, and one AppliedCommand per command with the memory it recorded.
    assert graph.nodes[("AppliedCommand", command_key("ada", "c0"))].props["memory_id"] == "m1"
    checkpoints = [n for k, n in graph.nodes.items() if k[0] == "Checkpoint"]
    assert {c.props["position"] for c in checkpoints} == {3} and len(checkpoints) == SHARDS


def test_a_command_logged_twice_takes_effect_once_across_batches() -> None:
    first = memory(0, "m1", "Berlin")
    again = MemoryRecorded(**{**first.model_dump(), "content": "home city is Paris", "event_id": "e9"})
    graph = fold(first, memory(1, "m9", "Oslo"), again, batch=1)
    assert graph.nodes[("Memory", "m1")].props["content"] == "home city is Berlin"


def test_an_erasure_leaves_only_the_commands_answering_erased() -> None:
    graph = fold(
        memory(0, "m1", "Berlin", user="bob"), memory(1, "m2", "Oslo"),
        EpisodeRecorded(**common(2, "bob"), episode_id="ep", session_id="s",
                        messages=(Message(role="user", content="hi"),
                                  Message(role="assistant", content="yo"))),
        UserConfigured(**common(3, "bob")),
        UserErased(**common(4, "bob"), command_keys=(command_key("bob", "c0"),)),
    )
    assert not [n for n in graph.nodes.values() if n.props.get("user_id") == "bob"
                and "AppliedCommand" not in n.labels]
    assert all(key[1][0] == "User" or key[1][1] == "m2" for key in graph.rels)
    bob = [n.props for n in graph.nodes.values()
           if "AppliedCommand" in n.labels and n.props["user_id"] == "bob"]
    assert {p["outcome"] for p in bob} == {"erased", "applied"}  # the erasure's own command: applied
    assert not [p for p in bob if p["outcome"] == "erased" and "command_id" in p]


def read_back(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def test_csv_quotes_text_leaves_nulls_empty_and_splits_arrays_on_a_free_delimiter(tmp_path: Path) -> None:
    graph = fold(
        MemoryRecorded(**common(0), memory_id="m1", kind=MemoryKind.FACT, content=TRICKY, valid_from=at(0)),
        EpisodeRecorded(**common(1), episode_id="ep", session_id="s",
                        messages=(Message(role="user", content="a\x1fb"),
                                  Message(role="assistant", content="c"))),
        MemoryForgotten(**common(2), memory_id="m1"), MemoryRestored(**common(3), memory_id="m1"),
        MemoryForgotten(**common(4), memory_id="m1"),
        UserConfigured(**common(5), pinned_kinds=()),
    )
    graph.nodes[("Memory", "m1")].props["sources"] = ["x\x1fy", "z"]  # an array holding \x1f
    delimiter = choose_array_delimiter(graph)
    assert delimiter not in "x\x1fy" and delimiter not in ",\""
    files = write_csv(graph, tmp_path)
    (memories,) = [p for p in files.nodes if p.name.startswith("nodes-Memory")]
    (row,) = read_back(memories)
    assert row["content:string"] == TRICKY
    assert row[":LABEL"] == delimiter.join(["Memory", "Fact", "Forgotten"])
    assert row["sources:string[]"].split(delimiter) == ["x\x1fy", "z"]
    assert row["forgotten_at:datetime[]"].split(delimiter) == [at(2).isoformat(), at(4).isoformat()]
    assert row["importance:double"] == "0.5" and row["access_count:long"] == "0"
    assert "valid_until:datetime" not in row  # null: no property, so no column
    # The empty list is named for Cypher to set (CSV would write no property).
    assert ("User", "ada", {"pinned_kinds": []}) in files.empty_lists
    assert files.node_count == len(graph.nodes) and files.relationship_count == len(graph.rels)
