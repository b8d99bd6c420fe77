"""The bulk rebuild's fold in shares (services/bulk_fold.py): the shares' graphs, their shared
nodes added up, are the whole log's fold; and the ids it derives are uuid5's."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from domain.events import Event, MaintenanceApplied, MemoryRecorded, UserConfigured, UserErased
from domain.model import MemoryKind, command_key, derived_id
from domain.stored import StoredEvent
from projections.graph.bulk_csv import IdSpace
from projections.graph.fold import Folder, Graph
from projections.graph.projector import SHARDS, VERSION, shard_of
from services.bulk_fold import SHARED, Share, plan, shared_graph

T0 = datetime(2026, 1, 1, 9, tzinfo=UTC)
PEOPLE = ("ada", "bob", "cy", "dee", "eve")


def at(n: int) -> datetime:
    return T0 + timedelta(minutes=n)


def common(n: int, user: str) -> dict[str, Any]:
    return {"event_id": f"e{n}", "user_id": user, "command_id": f"c{n}", "occurred_at": at(n),
            "recorded_at": at(n)}


def a_log() -> list[StoredEvent]:
    """Each person's memories and settings, a maintenance run over all of them, and one erased."""
    events: list[Event] = []
    for n in range(40):
        user = PEOPLE[n % len(PEOPLE)]
        events.append(MemoryRecorded(**common(n, user), memory_id=f"m{n}", kind=MemoryKind.FACT,
                                     content=f"{user} keeps note {n}", valid_from=at(n)))
    for n, user in enumerate(PEOPLE, start=40):
        events.append(UserConfigured(**common(n, user)))
        events.append(MaintenanceApplied(**common(n + 10, user), run_id="run-1", as_of=at(40),
                                         started_at=at(40), evaluated=n, forgotten=1))
    events.append(UserErased(**common(60, "bob"), command_keys=(command_key("bob", "c1"),)))
    return [StoredEvent(0, position, event) for position, event in enumerate(events)]


def fold(stored: list[StoredEvent]) -> Graph:
    folder = Folder("graph", SHARDS, shard_of, "log-1", VERSION)
    for start in range(0, len(stored), 7):
        folder.apply(stored[start:start + 7])
    return folder.graph


def test_the_shares_folds_with_their_shared_nodes_added_up_are_the_whole_fold() -> None:
    stored = a_log()
    whole = fold(stored)
    shares = plan(3, {0: len(stored) - 1})  # one partition, three shares: people by a hash
    assert not any(share.by_partition for share in shares)
    graphs = []
    for share in shares:
        takes = share.people()
        assert takes is not None
        graphs.append(fold([s for s in stored if takes(s.event.user_id)]))
    # Every person is in exactly one share.
    for user in PEOPLE:
        assert sum(bool((takes := share.people()) and takes(user)) for share in shares) == 1
    together: dict[tuple[str, str], dict[str, Any]] = {}
    rels: dict[Any, dict[str, Any]] = {}
    for graph in graphs:
        together.update({k: n.props for k, n in graph.nodes.items() if k[0] not in SHARED})
        rels.update(graph.rels)
    shared = shared_graph([{space: [n.props for k, n in g.nodes.items() if k[0] == space] for space in SHARED}
                           for g in graphs])
    together.update({k: n.props for k, n in shared.nodes.items()})
    assert together == {k: n.props for k, n in whole.nodes.items()}
    assert rels == whole.rels
    run = whole.nodes[("MaintenanceRun", "run-1")].props
    assert run["users"] == len(PEOPLE) and run["forgotten"] == len(PEOPLE)


def test_partitions_go_whole_to_a_share_when_there_are_enough() -> None:
    shares = plan(2, {0: 9, 1: 9, 2: 9})
    assert [share.partitions({0: 9, 1: 9, 2: 9}) for share in shares] == [[0, 2], [1]]
    assert all(share.people() is None for share in shares)
    assert Share(0, 1, False).people() is None  # one share takes everyone


def test_interleaved_id_spaces_never_meet() -> None:
    spaces = [IdSpace(i, 4) for i in range(4)]
    ids = [space.id(n) for space in spaces for n in range(50)]
    assert len(set(ids)) == len(ids)


def test_derived_ids_are_uuid5_of_their_parts() -> None:
    namespace = uuid.UUID("6f0a4c1e-7d1b-4f7e-9a51-3c2d8e0b5a10")
    for parts in (("entity", "ada", "berlin"), ("command-key", "bob", "c1"), ("x",), ("ünï", "你好", "")):
        assert derived_id(*parts) == str(uuid.uuid5(namespace, "\x1f".join(parts)))
