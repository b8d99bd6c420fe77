"""Crypto-shredding: a person's entries are sealed with their key, and open to nothing once it is gone."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from domain import codec
from domain.events import MemoryRecorded, UserErased
from domain.sealing import PersonKey, Sealer, UnreadableEntry, is_sealed, owner
from domain.stored import Decided
from infra.eventlog.sealed import EntrySealing
from infra.eventlog.sqlite import SqliteEventLog
from infra.keys.sqlite import SqliteKeyStore
from services.migrate import migrate

AT = datetime(2026, 3, 1, tzinfo=UTC)
MARKER = "zanzibarquokka"


def memory(user: str, command_id: str, content: str = f"likes {MARKER}") -> MemoryRecorded:
    return MemoryRecorded(event_id=f"e-{command_id}", user_id=user, command_id=command_id, occurred_at=AT,
                          recorded_at=AT, memory_id=f"m-{command_id}", kind="fact", content=content,
                          valid_from=AT)


def erased(user: str, command_id: str) -> UserErased:
    return UserErased(event_id=f"e-{command_id}", user_id=user, command_id=command_id, occurred_at=AT,
                      recorded_at=AT)


class MemoryKeyring:
    def __init__(self) -> None:
        self.keys: dict[str, list[PersonKey]] = {}
        # user -> key id -> (item tag, or None for a root; secret)
        self.items: dict[str, dict[bytes, tuple[bytes | None, bytes]]] = {}

    def item_root(self, user_id: str) -> PersonKey:
        mine = self.items.setdefault(user_id, {})
        roots = [(k, s) for k, (tag, s) in mine.items() if tag is None]
        if roots:
            return PersonKey(*roots[-1])
        root = PersonKey.new()
        mine[root.key_id] = (None, root.secret)
        return root

    def find_item_key(self, user_id: str, key_id: bytes) -> bytes | None:
        found = self.items.get(user_id, {}).get(key_id)
        return None if found is None else found[1]

    def shred_items(self, user_id: str, root_id: bytes, keep: dict[bytes, tuple[bytes, bytes]],
                    forget: object) -> None:
        mine = self.items.setdefault(user_id, {})
        mine.update({k: (tag, secret) for k, (tag, secret) in keep.items()})
        for key_id, (tag, _) in list(mine.items()):
            if tag is not None and tag in forget:  # type: ignore[operator]
                del mine[key_id]
        mine.pop(root_id, None)

    def find(self, user_id: str, key_id: bytes) -> bytes | None:
        return next((k.secret for k in self.keys.get(user_id, []) if k.key_id == key_id), None)

    def current(self, user_id: str) -> PersonKey:
        mine = self.keys.setdefault(user_id, [])
        if not mine:
            mine.append(PersonKey.new())
        return mine[-1]

    def destroy(self, user_id: str) -> None:
        self.keys.pop(user_id, None)
        self.items.pop(user_id, None)

    def prepare(self, user_ids: object) -> None:
        pass


def test_a_sealed_entry_round_trips_and_shows_nothing_in_the_clear() -> None:
    sealer = Sealer(MemoryKeyring())
    events = [memory("ada", "c1")]
    raw = codec.seal_entry("ada", events, codec.encode_entry(events), sealer)
    assert is_sealed(raw) and owner(raw) == "ada"
    assert MARKER.encode() not in raw and b'"c1"' not in raw
    assert codec.open_entry(raw, sealer) == events


def test_a_destroyed_key_opens_to_nothing_and_a_new_key_is_made_after() -> None:
    keyring = MemoryKeyring()
    sealer = Sealer(keyring)
    old = sealer.seal("ada", codec.encode_entry([memory("ada", "c1")]))
    sealer.destroy("ada")
    assert codec.open_entry(old, sealer) == []
    assert codec.open_entry(old, Sealer(keyring)) == []  # nor in a process that never saw the key
    new = sealer.seal("ada", codec.encode_entry([memory("ada", "c2")]))
    assert [e.command_id for e in codec.open_entry(new, sealer)] == ["c2"]
    assert codec.open_entry(old, sealer) == []


def test_an_erasure_stays_readable_without_any_key() -> None:
    events = [erased("ada", "c9")]
    raw = codec.seal_entry("ada", events, codec.encode_entry(events), Sealer(MemoryKeyring()))
    assert not is_sealed(raw)
    assert codec.open_entry(raw, None) == events


def test_the_header_binds_the_entry_to_its_person_and_a_damaged_entry_is_refused() -> None:
    keyring = MemoryKeyring()
    sealer = Sealer(keyring)
    raw = sealer.seal("ada", codec.encode_entry([memory("ada", "c1")]))
    # Bob's key under Ada's entry: the same key_id for both would still fail the associated data.
    keyring.keys["bob"] = [PersonKey(keyring.keys["ada"][0].key_id, keyring.keys["ada"][0].secret)]
    forged = raw.replace(b"ada", b"bob", 1)
    with pytest.raises(UnreadableEntry):
        Sealer(keyring).open(forged)
    damaged = raw[:-1] + bytes([raw[-1] ^ 1])
    with pytest.raises(UnreadableEntry):
        Sealer(keyring).open(damaged)


def test_a_plain_entry_of_an_older_log_is_still_read() -> None:
    events = [memory("ada", "c1")]
    assert codec.open_entry(codec.encode_entry(events), Sealer(MemoryKeyring())) == events


def test_a_batch_is_cut_after_each_erasure() -> None:
    batch = [Decided("c1", "ada", [memory("ada", "c1")]), Decided("c2", "ada", [erased("ada", "c2")]),
             Decided("c3", "ada", [memory("ada", "c3")])]
    assert [[d.command_id for d in s] for s in EntrySealing.segments(batch)] == [["c1", "c2"], ["c3"]]
    assert [[d.command_id for d in s] for s in EntrySealing.segments(batch[:2])] == [["c1", "c2"]]


def test_the_sqlite_key_store_keeps_keys_across_opens_and_forgets_them_in_its_file(tmp_path: Path) -> None:
    path = tmp_path / "keys.sqlite3"
    store = SqliteKeyStore(path)
    key = store.current("ada")
    assert store.current("ada") == key and store.current("bob") != key
    store.close()
    store = SqliteKeyStore(path)
    assert store.current("ada") == key
    assert store.find("ada", key.key_id) == key.secret
    store.destroy("ada")
    assert store.find("ada", key.key_id) is None
    assert store.current("ada").key_id != key.key_id
    store.close()
    on_disk = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    assert key.secret not in on_disk and key.key_id not in on_disk


def test_the_sqlite_log_seals_entries_and_an_erasure_shreds_them(tmp_path: Path) -> None:
    keys = SqliteKeyStore(tmp_path / "keys.sqlite3")
    log = SqliteEventLog(tmp_path / "events.sqlite3", keys=keys)
    log.append([Decided("c1", "ada", [memory("ada", "c1")]), Decided("b1", "bob", [memory("bob", "b1")])])
    assert [s.event.command_id for b in log.read({}) for s in b] == ["c1", "b1"]
    log.append([Decided("c2", "ada", [erased("ada", "c2")]),
                Decided("c3", "ada", [memory("ada", "c3", "a new start")])])
    assert [(s.position, s.event.command_id) for b in log.read({}) for s in b] == \
        [(1, "b1"), (2, "c2"), (3, "c3")]
    log.close()
    keys.close()
    payloads = sqlite3.connect(tmp_path / "events.sqlite3").execute("SELECT payload FROM entries").fetchall()
    assert all(MARKER.encode() not in bytes(p) for (p,) in payloads)
    assert not any(MARKER.encode() in p.read_bytes() for p in tmp_path.iterdir())


def test_a_plain_log_migrates_into_a_sealed_one_and_its_erasures_shred(tmp_path: Path) -> None:
    old = SqliteEventLog(tmp_path / "old.sqlite3")  # written before encryption
    old.append([Decided("c1", "ada", [memory("ada", "c1")]), Decided("b1", "bob", [memory("bob", "b1")]),
                Decided("c2", "ada", [erased("ada", "c2")])])
    assert MARKER.encode() in (tmp_path / "old.sqlite3").read_bytes() + \
        (tmp_path / "old.sqlite3-wal").read_bytes()
    keys = SqliteKeyStore(tmp_path / "keys.sqlite3")
    new = SqliteEventLog(tmp_path / "new.sqlite3", keys=keys)
    assert migrate(old, new, keys) == 3
    assert [(s.position, s.event.command_id) for b in new.read({}) for s in b] == [(1, "b1"), (2, "c2")]
    with pytest.raises(codec.UnreadableEvent):  # a sealed log is not migrated again
        migrate(SqliteEventLog(tmp_path / "new.sqlite3"), SqliteEventLog(tmp_path / "again.sqlite3"), keys)
    old.close()
    new.close()
    keys.close()
    assert MARKER.encode() not in (tmp_path / "new.sqlite3").read_bytes()


def _said(user: str, texts: list[str], episode_id: str = "ep") -> list:
    from domain.commands import Message, MessageRef
    from domain.events import Embedding, EpisodeRecorded, MemoryRecorded, SessionSummarized
    from domain.layers.model import SessionSummary

    episode = EpisodeRecorded(event_id="e1", user_id=user, command_id="c1", occurred_at=AT, recorded_at=AT,
                              episode_id=episode_id, session_id="s1",
                              messages=tuple(Message(role="user", content=t) for t in texts),
                              embeddings=tuple(Embedding.of("m", [float(i), 1.0]) for i in range(len(texts))))
    memory = MemoryRecorded(event_id="e2", user_id=user, command_id="c2", occurred_at=AT, recorded_at=AT,
                            memory_id="m1", kind="fact", content=f"Has a cat named {MARKER}", valid_from=AT,
                            entities=(MARKER,), messages=(MessageRef(episode_id="ep", position=1),),
                            embedding=Embedding.of("m", [1.0, 0.0]))
    summary = SessionSummarized(event_id="e3", user_id=user, command_id="c3", occurred_at=AT, recorded_at=AT,
                                summary_id="sum1", due_id="d1", session_id="s1", summarizer="extractive/1",
                                summary=SessionSummary(summary=f"Talked about {MARKER}", topics=("cats",)))
    return [episode, memory, summary]


@pytest.mark.parametrize("store", ["memory", "sqlite"])
def test_a_purge_shreds_the_words_of_its_items_and_leaves_the_rest_readable(tmp_path: Path,
                                                                            store: str) -> None:
    from domain.shredding import PURGED, items_of, memory_item, message_item, summary_item
    from domain.state import UserState, evolve

    keyring = MemoryKeyring() if store == "memory" else SqliteKeyStore(tmp_path / "keys.sqlite3")
    sealer = Sealer(keyring)  # type: ignore[arg-type]
    events = _said("ada", ["I live in Oslo", f"My cat {MARKER} is three", "I like tea"])
    raw = codec.seal_entry("ada", events, codec.encode_entry(events), sealer)
    assert MARKER.encode() not in raw and b"Oslo" not in raw
    assert codec.open_entry(raw, sealer) == events  # every word back while no key is destroyed

    state = evolve(UserState("ada"), events)
    purged = {memory_item("m1"), message_item("ada", "ep", 1), summary_item("sum1")}
    sealer.shred("ada", purged, items_of(state) - purged)
    episode, memory, summary = codec.open_entry(raw, sealer)
    assert [m.content for m in episode.messages] == ["I live in Oslo", PURGED, "I like tea"]
    assert episode.embeddings[1] is None and episode.embeddings[2] == events[0].embeddings[2]
    assert (memory.content, memory.entities, memory.embedding) == (PURGED, (), None)
    assert memory.messages == events[1].messages and memory.memory_id == "m1"  # ids and times stay
    assert summary.summary.summary == PURGED and summary.summary.topics == ()

    # What is sealed after the purge takes a new root; a second purge finds the kept keys of the first.
    later = _said("ada", ["I moved to Bergen", "We got a dog"], episode_id="ep2")[:1]
    again = codec.seal_entry("ada", later, codec.encode_entry(later), sealer)
    assert codec.open_entry(again, sealer) == later
    evolve(state, later)
    second = {message_item("ada", "ep", 0), message_item("ada", "ep2", 1)}
    sealer.shred("ada", second, items_of(state) - purged - second)
    assert [m.content for m in codec.open_entry(raw, sealer)[0].messages] == [PURGED, PURGED, "I like tea"]
    assert [m.content for m in codec.open_entry(again, sealer)[0].messages] == ["I moved to Bergen", PURGED]
    # Another person's words are untouched.
    bob = _said("bob", ["I live in Oslo", "Hi", "Bye"])
    assert codec.open_entry(codec.seal_entry("bob", bob, codec.encode_entry(bob), sealer), sealer) == bob


def test_a_sealed_entry_stays_within_the_bound_the_kafka_topic_is_made_for() -> None:
    from domain.sealing import sealed_bound

    sealer = Sealer(MemoryKeyring())
    for count, size in ((1000, 1000), (10, 50_000), (1, 1)):
        events = _said("ada", ["é" * size] * count)[:1]  # non-ASCII words take 2 bytes each in the clear
        plain = codec.encode_entry(events)
        assert len(codec.seal_entry("ada", events, plain, sealer)) <= sealed_bound(len(plain))
