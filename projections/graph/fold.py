"""The projection folded in memory: the graph GraphProjector would leave in Neo4j, without Neo4j.

`lore rebuild --bulk` writes this graph as CSV for neo4j-admin's offline import (bulk_csv.py).
It is the second implementation of the Cypher in cypher.py, kept parallel to it on purpose:
`Fold.apply` follows GraphProjector._apply (shards, once-per-command, waves, prerequisites,
WRITERS order, applied commands, checkpoints) and each function below follows one statement,
clause by clause, under the statement's name. Both must leave the same graph; the fingerprints
say whether they do (tests/integration/test_bulk_rebuild.py). A change to a statement in
cypher.py needs the same change here.

Values: rows carry times as ISO strings (rows.iso); the fold keeps them as `Datetime` (a str)
so that no time is parsed per event, and vectors as `Vector` (float32, as
db.create.setNodeVectorProperty stores them). None never stays in a property: Cypher removes a
property set to null.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from domain.model import command_key
from domain.stored import StoredEvent
from projections.graph import cypher
from projections.graph.rows import WRITERS, applied_commands, wave_writes
from projections.graph.waves import waves


class Datetime(str):
    """An ISO-8601 instant, stored as a Neo4j datetime."""

    __slots__ = ()


class Vector(list):  # type: ignore[type-arg]
    """A float32 vector (db.create.setNodeVectorProperty's storage)."""

    __slots__ = ()


def dt(value: str | None) -> Datetime | None:
    """Cypher's datetime(): null stays null."""
    return None if value is None else Datetime(value)


def later(a: Datetime | None, b: Datetime | None) -> bool:
    """`a < b` between two datetimes as Cypher compares them (null compares as unknown: False)."""
    if a is None or b is None:
        return False
    return datetime.fromisoformat(a) < datetime.fromisoformat(b)


NodeKey = tuple[str, str]  # (id space = first label, id): ("Memory", memory_id)
# (type, start, end, the properties its MERGE matches on, as (name, value) pairs)
RelKey = tuple[str, NodeKey, NodeKey, tuple[tuple[str, Any], ...]]


@dataclass(slots=True)
class Node:
    labels: dict[str, None]  # ordered; the first is the node's id space
    props: dict[str, Any]


# The property that names a node of each id space (what its MERGE matches on).
ID_PROPERTY = {
    "User": "user_id", "Entity": "entity_id", "Episode": "key", "Message": "message_id",
    "Memory": "memory_id", "Session": "key", "Extraction": "extraction_id", "Summary": "summary_id",
    "Profile": "key", "MaintenanceRun": "run_id", "AppliedCommand": "key", "Checkpoint": "key",
}
# What USER_ERASED deletes: every node of these labels that carries the person's user_id.
ERASED_LABELS = ("Memory", "Entity", "Episode", "Message", "Session", "Extraction", "Summary", "Profile",
                 "User")
_STATUS_LABELS = ("Active", "Superseded", "Forgotten", "Merged", "Compressed")


@dataclass
class Graph:
    nodes: dict[NodeKey, Node] = field(default_factory=dict)
    rels: dict[RelKey, dict[str, Any]] = field(default_factory=dict)
    _incident: dict[NodeKey, set[RelKey]] = field(default_factory=lambda: defaultdict(set))
    # Per person, the nodes an erasure deletes, and their AppliedCommand keys (which it keeps).
    _owned: dict[str, set[NodeKey]] = field(default_factory=lambda: defaultdict(set))
    _commands: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))

    def get(self, space: str, key: str | None) -> Node | None:
        return None if key is None else self.nodes.get((space, key))

    def get_of(self, space: str, key: str, user_id: str) -> Node | None:
        """MATCH (n:Space {id: key, user_id: user_id})."""
        node = self.nodes.get((space, key))
        return node if node is not None and node.props.get("user_id") == user_id else None

    def merge(self, space: str, key: str, user_id: str | None = None) -> tuple[Node, bool]:
        """MERGE (n:Space {id: key}); `user_id`: the person whose erasure deletes it."""
        found = self.nodes.get((space, key))
        if found is not None:
            return found, False
        node = Node({space: None}, {ID_PROPERTY[space]: key})
        self.nodes[(space, key)] = node
        if user_id is not None and space in ERASED_LABELS:
            self._owned[user_id].add((space, key))
        if space == "AppliedCommand" and user_id is not None:
            self._commands[user_id].add(key)
        return node, True

    def relate(self, type_: str, start: NodeKey, end: NodeKey, **matched: Any) -> dict[str, Any]:
        """MERGE (start)-[r:TYPE {matched}]->(end); the relationship's properties, to SET on."""
        key = (type_, start, end, tuple(matched.items()))
        props = self.rels.get(key)
        if props is None:
            props = self.rels[key] = dict(matched)
            self._incident[start].add(key)
            self._incident[end].add(key)
        return props

    def incoming(self, type_: str, end: NodeKey) -> list[RelKey]:
        return [k for k in self._incident.get(end, ()) if k[0] == type_ and k[2] == end]

    def outgoing(self, type_: str, start: NodeKey) -> list[RelKey]:
        return [k for k in self._incident.get(start, ()) if k[0] == type_ and k[1] == start]

    def detach_delete(self, key: NodeKey) -> None:
        self.nodes.pop(key, None)
        for rel in self._incident.pop(key, ()):
            self.rels.pop(rel, None)
            other = rel[2] if rel[1] == key else rel[1]
            if other != key and other in self._incident:
                self._incident[other].discard(rel)


def put(node: Node, name: str, value: Any) -> None:
    """SET n.name = value (null removes)."""
    if value is None:
        node.props.pop(name, None)
    else:
        node.props[name] = value


def put_all(node: Node, values: dict[str, Any]) -> None:
    """SET n += values (put, for each; written out: the fold calls it for nearly every row)."""
    props = node.props
    for name, value in values.items():
        if value is None:
            props.pop(name, None)
        else:
            props[name] = value


def status_label(node: Node) -> None:
    """REMOVE n:Active:Superseded:Forgotten:Merged:Compressed SET n:$(Status)."""
    for label in _STATUS_LABELS:
        node.labels.pop(label, None)
    status = node.props["status"]
    node.labels[status[:1].upper() + status[1:]] = None


def _key(space: str, node: Node) -> NodeKey:
    return (space, node.props[ID_PROPERTY[space]])


# ---- prerequisites (cypher.USERS, ENTITIES, EPISODES) ----

def users(g: Graph, keys: list[str]) -> None:
    """cypher.USERS"""
    for user_id in keys:
        u, created = g.merge("User", user_id, user_id)
        if created:
            u.props["name"] = user_id


def entities(g: Graph, keys: list[dict[str, str]]) -> None:
    """cypher.ENTITIES"""
    for e in keys:
        en, created = g.merge("Entity", e["entity_id"], e["user_id"])
        if created:
            put_all(en, {"user_id": e["user_id"], "name": e["name"], "type": e["type"],
                         "user_key": e["user_key"]})
        elif en.props.get("type") == "thing":
            put(en, "type", e["type"])


def episodes(g: Graph, keys: list[dict[str, str]]) -> None:
    """cypher.EPISODES"""
    for e in keys:
        ep, created = g.merge("Episode", e["key"], e["user_id"])
        if created:
            put_all(ep, {"user_id": e["user_id"], "episode_id": e["episode_id"]})


def applied(g: Graph, keys: list[dict[str, Any]]) -> None:
    """cypher.APPLIED_COMMANDS"""
    for c in keys:
        a, created = g.merge("AppliedCommand", c["key"], c["user_id"])
        if created:
            put_all(a, {"user_id": c["user_id"], "command_id": c["command_id"], "outcome": c["outcome"],
                        "code": c["code"], "reason": c["reason"], "memory_id": c["memory_id"]})


# ---- one function per statement of WRITERS ----

def memory_recorded(g: Graph, rows: list[dict[str, Any]]) -> None:
    """cypher.MEMORY_RECORDED"""
    for r in rows:
        u = g.get("User", r["user_id"])
        if u is None:
            continue
        m, _ = g.merge("Memory", r["memory_id"], r["user_id"])
        put_all(m, r["props"])
        m.labels[r["label"]] = None
        put_all(m, {"valid_from": dt(r["valid_from"]), "valid_until": dt(r["valid_until"]),
                    "stated_valid_until": dt(r["valid_until"]), "occurred_at": dt(r["occurred_at"]),
                    "recorded_at": dt(r["recorded_at"]), "due_at": dt(r["due_at"]),
                    "remind_at": dt(r["remind_at"])})
        status_label(m)
        mk, uk = _key("Memory", m), _key("User", u)
        g.relate("REMEMBERS", uk, mk)
        if r["profile_change"]:
            u.props["profile_changes"] = u.props.get("profile_changes", 0) + 1
        for entity_id in r["entity_ids"]:
            if g.get("Entity", entity_id) is not None:
                g.relate("ABOUT", mk, ("Entity", entity_id))
        for episode_key in r["episodes"]:
            if g.get("Episode", episode_key) is not None:
                g.relate("EXTRACTED_FROM", mk, ("Episode", episode_key))
        for message_id in r["message_ids"]:
            if g.get("Message", message_id) is not None:
                g.relate("FROM_MESSAGE", mk, ("Message", message_id))
        for rel in r["relations"]:
            if g.get("Entity", rel["object"]) is None:
                continue
            # coalesce(named, u): a subject that names no entity starts at the person.
            start = ("Entity", rel["subject"]) if g.get("Entity", rel["subject"]) is not None else uk
            g.relate("RELATES", start, ("Entity", rel["object"]), predicate=rel["predicate"],
                     memory_id=m.props["memory_id"])
        if r["embedding"] is not None:
            m.props["embedding"] = Vector(r["embedding"])


def memory_superseded(g: Graph, rows: list[dict[str, Any]]) -> None:
    """cypher.MEMORY_SUPERSEDED"""
    for r in rows:
        old = g.get_of("Memory", r["memory_id"], r["user_id"])
        new = g.get_of("Memory", r["by_memory_id"], r["user_id"])
        if old is None or new is None:
            continue
        until, at = dt(r["valid_until"]), dt(r["recorded_at"])
        put_all(old, {"valid_until": until, "superseded_by": r["by_memory_id"], "superseded_at": at,
                      "status": "forgotten" if old.props.get("status") == "forgotten" else "superseded"})
        status_label(old)
        ok, nk = _key("Memory", old), _key("Memory", new)
        for earlier in g.incoming("SUPERSEDES", ok):
            props = g.rels[earlier]
            if props.get("replaced_at") is None and earlier[1] != nk:
                put_rel(props, "replaced_at", at)
        s = g.relate("SUPERSEDES", nk, ok)
        for name, value in (("at", at), ("valid_until", until), ("replaced_at", None),
                            ("decided_by", r["decided_by"]), ("reason", r["reason"])):
            put_rel(s, name, value)


def put_rel(props: dict[str, Any], name: str, value: Any) -> None:
    if value is None:
        props.pop(name, None)
    else:
        props[name] = value


def memory_reinforced(g: Graph, rows: list[dict[str, Any]]) -> None:
    """cypher.MEMORY_REINFORCED"""
    for r in rows:
        m = g.get_of("Memory", r["memory_id"], r["user_id"])
        if m is None:
            continue
        p = m.props
        put(m, "confidence", r["confidence"])
        put(m, "importance", r["importance"] if r["importance"] is not None else p.get("importance"))
        p["reinforced_count"] = p.get("reinforced_count", 0) + 1
        if r["source"] is not None:
            p["sources"] = [*p.get("sources", []), r["source"]]
        if r["messages"]:
            p["messages"] = [*p.get("messages", []), *r["messages"]]
        mk = _key("Memory", m)
        for message_id in r["message_ids"]:
            if g.get("Message", message_id) is not None:
                g.relate("FROM_MESSAGE", mk, ("Message", message_id))


def _absorb(g: Graph, new: Node, r: dict[str, Any], originals: list[str], status: str, rel: str,
            rel_props: dict[str, Any]) -> None:
    """The originals a merge or a compression folds into `new` (the MERGED / COMPRESSED halves of
    their statements): status `status` unless forgotten, `<status>_into` / `<status>_at`, and an
    edge `rel` from `new` with `at` and `rel_props`."""
    for original in originals:
        old = g.get_of("Memory", original, r["user_id"])
        if old is None:
            continue
        at = dt(r["recorded_at"])
        put_all(old, {"status": "forgotten" if old.props.get("status") == "forgotten" else status,
                      f"{status}_into": r["memory_id"], f"{status}_at": at})
        status_label(old)
        e = g.relate(rel, _key("Memory", new), _key("Memory", old))
        for name, value in {"at": at, **rel_props}.items():
            put_rel(e, name, value)


def memory_merged(g: Graph, rows: list[dict[str, Any]]) -> None:
    """cypher.MEMORY_MERGED"""
    for r in rows:
        new = g.get_of("Memory", r["memory_id"], r["user_id"])
        if new is None:
            continue
        _absorb(g, new, r, r["merged_from"], "merged", "MERGED_FROM",
                {"decided_by": r["decided_by"], "reason": r["reason"]})


def session_advanced(g: Graph, rows: list[dict[str, Any]]) -> None:
    """cypher.SESSION_ADVANCED"""
    for r in rows:
        if g.get("User", r["user_id"]) is None:
            continue
        s, _ = g.merge("Session", r["key"], r["user_id"])
        put_all(s, r["props"])
        put(s, "updated_at", dt(r["recorded_at"]))
        g.relate("HAD_SESSION", ("User", r["user_id"]), ("Session", r["key"]))


def _due(g: Graph, rows: list[dict[str, Any]], space: str, id_name: str, rel: str) -> None:
    """EXTRACTION_DUE and SUMMARY_DUE: the same shape."""
    for r in rows:
        x, _ = g.merge(space, r[id_name], r["props"].get("user_id"))
        put_all(x, r["props"])
        put(x, "due_since", dt(r["recorded_at"]))
        if g.get("Session", r["session"]) is not None:
            g.relate(rel, ("Session", r["session"]), (space, r[id_name]))


def extraction_due(g: Graph, rows: list[dict[str, Any]]) -> None:
    """cypher.EXTRACTION_DUE"""
    _due(g, rows, "Extraction", "extraction_id", "EXTRACTION")


def memories_extracted(g: Graph, rows: list[dict[str, Any]]) -> None:
    """cypher.MEMORIES_EXTRACTED"""
    for r in rows:
        x, _ = g.merge("Extraction", r["extraction_id"], r["props"].get("user_id"))
        put_all(x, r["props"])
        put(x, "done_at", dt(r["recorded_at"]))


_WITHHELD_SUMMARY = ("summary", "topics", "user_intent", "emotional_tone", "key_facts", "unresolved",
                     "content", "content_cjk", "user_key_cjk", "words_zh", "embedding_model", "embedding")


def summary_due(g: Graph, rows: list[dict[str, Any]]) -> None:
    """cypher.SUMMARY_DUE"""
    _due(g, rows, "Summary", "summary_id", "SUMMARY")
    for r in rows:
        if r["props"].get("trigger") == "revised":
            s = g.get("Summary", r["summary_id"])
            assert s is not None
            put_all(s, dict.fromkeys(_WITHHELD_SUMMARY))
            put(s, "name", "summary (being revised)")


def session_summarized(g: Graph, rows: list[dict[str, Any]]) -> None:
    """cypher.SESSION_SUMMARIZED"""
    for r in rows:
        s = g.get_of("Summary", r["summary_id"], r["user_id"])
        u = g.get("User", r["user_id"])
        if s is None or u is None:
            continue
        counts = 1 if r["counted"] and s.props.get("status") == "due" else 0
        u.props["profile_summaries_since"] = u.props.get("profile_summaries_since", 0) + counts
        u.props["profile_changes"] = u.props.get("profile_changes", 0) + counts
        put_all(s, r["props"])
        put(s, "status", r["status"])
        s.props["attempts"] = s.props.get("attempts", 0) + 1
        put(s, "summarized_at", dt(r["recorded_at"]))
        put(s, "said_until", dt(r["said_until"]) or s.props.get("said_until") or dt(r["recorded_at"]))
        if r["made"] is not None:
            put_all(s, r["made"])
            if r["embedding"] is not None:
                s.props["embedding"] = Vector(r["embedding"])
            for key in r["episodes"]:
                if g.get("Episode", key) is not None:
                    g.relate("SUMMARIZES", ("Summary", r["summary_id"]), ("Episode", key))


def profile_due(g: Graph, rows: list[dict[str, Any]]) -> None:
    """cypher.PROFILE_DUE"""
    for r in rows:
        u = g.get("User", r["user_id"])
        if u is not None:
            put_all(u, {"profile_due": True, "profile_due_reason": r["reason"],
                        "profile_due_since": dt(r["recorded_at"]),
                        "profile_partition": r["props"].get("partition")})
            if r["withhold"]:
                put(u, "profile_withheld", True)


def profile_revised(g: Graph, rows: list[dict[str, Any]]) -> None:
    """cypher.PROFILE_REVISED"""
    for r in rows:
        u = g.get("User", r["user_id"])
        if u is None:
            continue
        p, _ = g.merge("Profile", r["key"], r["props"].get("user_id"))
        put_all(p, r["props"])
        put(p, "revised_at", dt(r["recorded_at"]))
        put_all(u, {"profile_version": r["version"], "profile_due": False, "profile_due_reason": None,
                    "profile_due_since": None, "profile_revised_at": dt(r["recorded_at"]),
                    "profile_summaries_since": 0, "profile_withheld": None})
        g.relate("HAS_PROFILE", ("User", r["user_id"]), ("Profile", r["key"]))
        if r["previous"] is not None and g.get("Profile", r["previous"]) is not None:
            g.relate("REVISES", ("Profile", r["key"]), ("Profile", r["previous"]))


def _memories(g: Graph, rows: list[dict[str, Any]]) -> Iterable[tuple[Node, dict[str, Any]]]:
    """UNWIND $rows AS r MATCH (m:Memory {memory_id: r.memory_id, user_id: r.user_id})."""
    for r in rows:
        m = g.get_of("Memory", r["memory_id"], r["user_id"])
        if m is not None:
            yield m, r


def todo_completed(g: Graph, rows: list[dict[str, Any]]) -> None:
    """cypher.TODO_COMPLETED"""
    for m, r in _memories(g, rows):
        put(m, "completed_at", dt(r["completed_at"]))


def _later_of(current: Datetime | None, at: Datetime | None) -> Datetime | None:
    """CASE WHEN current IS NULL OR current < at THEN at ELSE current END."""
    return at if current is None or later(current, at) else current


def _used(m: Node, at: Datetime | None, count: int, cited: int) -> None:
    p = m.props
    p["access_count"] = p.get("access_count", 0) + count
    p["cited_count"] = p.get("cited_count", 0) + cited
    if count > 0:
        put(m, "last_used_at", _later_of(p.get("last_used_at"), at))
    if cited > 0:
        put(m, "last_cited_at", _later_of(p.get("last_cited_at"), at))


def feedback_given(g: Graph, rows: list[dict[str, Any]]) -> None:
    """cypher.FEEDBACK_GIVEN"""
    for m, r in _memories(g, rows):
        p = m.props
        used = r["verdict"] == "helpful"
        _used(m, dt(r["used_at"]), int(used), int(used))
        put(m, "confidence", r["confidence"])
        p["helpful_count"] = p.get("helpful_count", 0) + (1 if r["verdict"] == "helpful" else 0)
        p["wrong_count"] = p.get("wrong_count", 0) + (1 if r["verdict"] == "wrong" else 0)
        put_all(m, {"last_feedback": r["verdict"], "last_feedback_note": r["note"],
                    "last_feedback_at": dt(r["recorded_at"])})


def todo_reopened(g: Graph, rows: list[dict[str, Any]]) -> None:
    """cypher.TODO_REOPENED"""
    for m, r in _memories(g, rows):
        put_all(m, {"completed_at": None, "reopened_at": dt(r["recorded_at"])})


def source_turns(g: Graph, memory: Node) -> list[Node]:
    """(m)-[:MERGED_FROM|COMPRESSED_FROM*0..]->(:Memory)-[:FROM_MESSAGE]->(x:Message), each x once."""
    seen, todo, turns = set(), [_key("Memory", memory)], {}
    while todo:
        at = todo.pop()
        if at in seen:
            continue
        seen.add(at)
        todo += [rel[2] for kind in ("MERGED_FROM", "COMPRESSED_FROM") for rel in g.outgoing(kind, at)]
        for rel in g.outgoing("FROM_MESSAGE", at):
            turns[rel[2]] = g.nodes[rel[2]]
    return list(turns.values())


def memory_forgotten(g: Graph, rows: list[dict[str, Any]]) -> None:
    """cypher.MEMORY_FORGOTTEN"""
    for m, r in _memories(g, rows):
        at = dt(r["recorded_at"])
        put_all(m, {"status": "forgotten", "retired_at": at, "forgotten_reason": r["reason"],
                    "forgotten_at": [*m.props.get("forgotten_at", []), at], "forgotten_run": r["run_id"],
                    "relevance": r["relevance"] if r["relevance"] is not None else m.props.get("relevance")})
        status_label(m)
        if r["run_id"] is None:
            for x in source_turns(g, m):
                hidden = x.props.get("hidden_by", [])
                if m.props["memory_id"] not in hidden:
                    x.props["hidden_by"] = [*hidden, m.props["memory_id"]]


def memory_purged(g: Graph, rows: list[dict[str, Any]]) -> None:
    """cypher.MEMORY_PURGED (a fold runs from nothing: the person's part is the log as it reads now,
    so there is nothing to re-project first)"""
    for r in rows:
        for memory_id in r["memory_ids"]:
            if g.get_of("Memory", memory_id, r["user_id"]) is not None:
                g.detach_delete(("Memory", memory_id))
        for message_id in r["message_ids"]:
            x = g.get_of("Message", message_id, r["user_id"])
            if x is not None:
                put_all(x, {"content": None, "context": None, "content_cjk": None, "words_zh": None,
                            "user_key_cjk": None, "name": "(purged)", "purged": True, "hidden_by": None,
                            "embedding_model": None, "embedding": None})


def topic_forgotten(g: Graph, rows: list[dict[str, Any]]) -> None:
    """cypher.TOPIC_FORGOTTEN"""
    for r in rows:
        for message_id in r["message_ids"]:
            x = g.get_of("Message", message_id, r["user_id"])
            if x is not None and r["topic_id"] not in x.props.get("hidden_by", []):
                x.props["hidden_by"] = [*x.props.get("hidden_by", []), r["topic_id"]]


def memory_restored(g: Graph, rows: list[dict[str, Any]]) -> None:
    """cypher.MEMORY_RESTORED"""
    for m, r in _memories(g, rows):
        p = m.props
        if p.get("status") == "compressed":
            put_all(m, {"compressed_into": None, "compressed_at": None})
        status = ("merged" if p.get("merged_into") is not None
                  else "compressed" if p.get("compressed_into") is not None
                  else "active" if p.get("superseded_by") is None else "superseded")
        put_all(m, {"status": status, "retired_at": None, "forgotten_reason": None, "forgotten_run": None,
                    "restored_at": [*p.get("restored_at", []), dt(r["recorded_at"])]})
        status_label(m)
        for x in source_turns(g, m):
            hidden = x.props.get("hidden_by", [])
            if p["memory_id"] in hidden:
                put(x, "hidden_by", [i for i in hidden if i != p["memory_id"]] or None)


_VECTOR_ITEMS = {"memory": "Memory", "message": "Message", "summary": "Summary"}


def embeddings_replaced(g: Graph, rows: list[dict[str, Any]]) -> None:
    """cypher.EMBEDDINGS_REPLACED"""
    for r in rows:
        for v in r["vectors"]:
            n = g.get_of(_VECTOR_ITEMS[v["item"]], v["id"], r["user_id"])
            if n is not None and n.props.get("content") is not None:
                put_all(n, {"embedding": Vector(v["vector"]), "embedding_model": r["model"]})


def memory_decayed(g: Graph, rows: list[dict[str, Any]]) -> None:
    """cypher.MEMORY_DECAYED"""
    for m, r in _memories(g, rows):
        put_all(m, {"importance": r["importance"], "relevance": r["relevance"],
                    "decayed_at": dt(r["recorded_at"]), "decayed_run": r["run_id"],
                    "decayed_for": dt(r["last_used_at"])})


def memories_used(g: Graph, rows: list[dict[str, Any]]) -> None:
    """cypher.MEMORIES_USED"""
    for r in rows:
        for u in r["uses"]:
            m = g.get_of("Memory", u["memory_id"], r["user_id"])
            if m is not None:
                _used(m, dt(r["used_at"]), u["count"], u["cited"])


def memory_compressed(g: Graph, rows: list[dict[str, Any]]) -> None:
    """cypher.MEMORY_COMPRESSED"""
    for new, r in _memories(g, rows):
        put(new, "compressed_run", r["run_id"])
        _absorb(g, new, r, r["compressed_from"], "compressed", "COMPRESSED_FROM",
                {"run_id": r["run_id"], "compressor": r["compressor"]})


def episode_expired(g: Graph, rows: list[dict[str, Any]]) -> None:
    """cypher.EPISODE_EXPIRED"""
    for r in rows:
        ep = g.get_of("Episode", r["key"], r["user_id"])
        if ep is None:
            continue
        put_all(ep, {"text": None, "expired_at": dt(r["recorded_at"]), "expired_run": r["run_id"],
                     "status": "expired"})
        for rel in g.outgoing("HAS_MESSAGE", ("Episode", r["key"])):
            x = g.nodes.get(rel[2])
            if x is None or "Message" not in x.labels:
                continue
            put_all(x, {"content": None, "context": None, "content_cjk": None, "words_zh": None,
                        "name": "(expired)", "expired": True, "embedding": None})


def maintenance_applied(g: Graph, rows: list[dict[str, Any]]) -> None:
    """cypher.MAINTENANCE_APPLIED"""
    counters = ("evaluated", "forgotten", "demoted", "compressed", "contradictions", "expired")
    for r in rows:
        run, created = g.merge("MaintenanceRun", r["run_id"])
        p = run.props
        if created:
            put_all(run, {"as_of": dt(r["as_of"]), "started_at": dt(r["started_at"]), "users": 0,
                          **dict.fromkeys(counters, 0), "name": "maintenance " + r["run_id"]})
        p["users"] = p["users"] + 1
        for name in counters:
            p[name] = p[name] + r[name]
        at = dt(r["recorded_at"])
        if p.get("finished_at") is None or later(p["finished_at"], at):
            put(run, "finished_at", at)


def user_configured(g: Graph, rows: list[dict[str, Any]]) -> None:
    """cypher.USER_CONFIGURED"""
    for r in rows:
        u = g.get("User", r["user_id"])
        if u is None:
            continue
        put_all(u, {"episode_retention_days": r["episode_retention_days"], "pinned_kinds": r["pinned_kinds"],
                    "memory": r["memory"], "extraction": r["extraction"], "citations": r["citations"],
                    "temporary": r["temporary"], "configured_at": dt(r["recorded_at"])})


def episode_recorded(g: Graph, rows: list[dict[str, Any]]) -> None:
    """cypher.EPISODE_RECORDED"""
    for r in rows:
        if g.get("User", r["user_id"]) is None:
            continue
        ep, _ = g.merge("Episode", r["key"], r["user_id"])
        put_all(ep, r["props"])
        at = dt(r["recorded_at"])
        put_all(ep, {"occurred_at": dt(r["occurred_at"]), "recorded_at": at,
                     "expires_at": dt(r["expires_at"])})
        ek = ("Episode", r["key"])
        g.relate("HAD", ("User", r["user_id"]), ek)
        for msg in r["messages"]:
            x, _ = g.merge("Message", msg["message_id"], r["user_id"])
            put_all(x, msg["props"])
            put_all(x, {"occurred_at": dt(msg["occurred_at"]), "recorded_at": at})
            g.relate("HAS_MESSAGE", ek, ("Message", msg["message_id"]))
            if msg["embedding"] is not None:
                x.props["embedding"] = Vector(msg["embedding"])
        for a, b in zip(r["messages"], r["messages"][1:], strict=False):
            g.relate("NEXT", ("Message", a["message_id"]), ("Message", b["message_id"]))


def user_erased(g: Graph, rows: list[dict[str, Any]]) -> None:
    """cypher.USER_ERASED"""
    for r in rows:
        user_id = r["user_id"]
        owned = g._owned.pop(user_id, set())
        # In the statement's order: memories, entities, ..., the user (the order changes nothing).
        for key in sorted(owned, key=lambda k: ERASED_LABELS.index(k[0])):
            node = g.nodes.get(key)
            if node is not None and node.props.get("user_id") == user_id:
                g.detach_delete(key)
        for key in g._commands.get(user_id, ()):
            a = g.nodes[("AppliedCommand", key)]
            if key != r["command_key"]:
                put_all(a, {"outcome": "erased", "command_id": None, "code": None, "reason": None,
                            "memory_id": None})
        for key in r["command_keys"]:
            a, created = g.merge("AppliedCommand", key, user_id)
            if created:
                put_all(a, {"user_id": user_id, "outcome": "erased"})


Fold = Callable[[Graph, list[Any]], None]

# The statement -> its fold. Every statement GraphProjector runs has one (checked at import).
FOLDS: dict[str, Fold] = {
    cypher.USERS: users,
    cypher.ENTITIES: entities,
    cypher.EPISODES: episodes,
    cypher.EPISODE_RECORDED: episode_recorded,
    cypher.MEMORY_RECORDED: memory_recorded,
    cypher.MEMORY_SUPERSEDED: memory_superseded,
    cypher.MEMORY_REINFORCED: memory_reinforced,
    cypher.MEMORY_MERGED: memory_merged,
    cypher.SESSION_ADVANCED: session_advanced,
    cypher.EXTRACTION_DUE: extraction_due,
    cypher.MEMORIES_EXTRACTED: memories_extracted,
    cypher.SUMMARY_DUE: summary_due,
    cypher.SESSION_SUMMARIZED: session_summarized,
    cypher.PROFILE_DUE: profile_due,
    cypher.PROFILE_REVISED: profile_revised,
    cypher.TODO_COMPLETED: todo_completed,
    cypher.TODO_REOPENED: todo_reopened,
    cypher.FEEDBACK_GIVEN: feedback_given,
    cypher.MEMORY_FORGOTTEN: memory_forgotten,
    cypher.MEMORY_RESTORED: memory_restored,
    cypher.MEMORY_DECAYED: memory_decayed,
    cypher.MEMORIES_USED: memories_used,
    cypher.MEMORY_COMPRESSED: memory_compressed,
    cypher.EPISODE_EXPIRED: episode_expired,
    cypher.MAINTENANCE_APPLIED: maintenance_applied,
    cypher.USER_CONFIGURED: user_configured,
    cypher.EMBEDDINGS_REPLACED: embeddings_replaced,
    cypher.USER_ERASED: user_erased,
    cypher.MEMORY_PURGED: memory_purged,
    cypher.TOPIC_FORGOTTEN: topic_forgotten,
    cypher.APPLIED_COMMANDS: applied,
}
_missing = [t.__name__ for t, (_, statement) in WRITERS.items() if statement not in FOLDS]
if _missing:  # pragma: no cover - a writer added to rows.py without its fold
    raise ImportError(f"projections/graph/fold.py has no fold for {', '.join(_missing)}")


class Folder:
    """GraphProjector's batch loop over an in-memory Graph (projector.py: _apply_batch, _apply)."""

    def __init__(self, name: str, shards: int, shard_of: Callable[[str], int], log_id: str | None,
                 version: int) -> None:
        self.graph = Graph()
        self.name, self.shards, self.shard_of = name, shards, shard_of
        self.log_id, self.version = log_id, version

    def _checkpoint_key(self, partition: int, shard: int) -> str:
        return f"{self.name}:{partition}:{shard}"

    def apply(self, batch: Sequence[StoredEvent]) -> int:
        """GraphProjector._apply_batch(batch, read_from_checkpoints=True): a batch as the log read it."""
        if not batch:
            return 0
        reach: dict[int, int] = {}
        for stored in batch:
            reach[stored.partition] = max(reach.get(stored.partition, -1), stored.position)
        by_shard: dict[int, list[StoredEvent]] = {s: [] for s in range(self.shards)}
        for stored in batch:
            by_shard[self.shard_of(stored.event.user_id)].append(stored)
        return sum(self._apply(s, by_shard[s], reach) for s in range(self.shards))

    def _apply(self, shard: int, batch: list[StoredEvent], reach: dict[int, int]) -> int:
        """GraphProjector._apply, one shard's transaction."""
        g = self.graph
        keys = {p: self._checkpoint_key(p, shard) for p in reach}
        done = {}
        for p, k in keys.items():
            c = g.get("Checkpoint", k)
            done[p] = -1 if c is None else c.props["position"]
        fresh = self._once_per_command([s for s in batch if s.position > done[s.partition]])
        for wave in waves(fresh):
            for statement, _, values in wave_writes(wave):
                FOLDS[statement](g, values)
        if fresh:
            applied(g, applied_commands([s.event for s in fresh]))
        latest = dt(max(s.event.recorded_at for s in batch).isoformat()) if batch else None
        for p, pos in reach.items():
            if pos > done[p]:
                self._write_checkpoint(keys[p], p, shard, pos, latest)
        return len(fresh)

    def _write_checkpoint(self, key: str, partition: int, shard: int, position: int,
                          latest: Datetime | None) -> None:
        """cypher.WRITE_CHECKPOINTS"""
        c, _ = self.graph.merge("Checkpoint", key)
        before = c.props.get("recorded_at")
        put_all(c, {"projection": self.name, "partition": partition, "shard": shard, "position": position,
                    "log": self.log_id, "version": self.version})
        if before is None or later(before, latest):
            put(c, "recorded_at", latest)

    def _once_per_command(self, fresh: list[StoredEvent]) -> list[StoredEvent]:
        """GraphProjector._once_per_command against the AppliedCommand nodes folded so far."""
        if not fresh:
            return fresh
        keys = [command_key(s.event.user_id, s.event.command_id) for s in fresh]
        first: dict[str, tuple[int, int]] = {}
        return [
            s for s, key in zip(fresh, keys, strict=True)
            if ("AppliedCommand", key) not in self.graph.nodes
            and first.setdefault(key, (s.partition, s.position)) == (s.partition, s.position)
        ]
