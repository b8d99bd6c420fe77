"""People's keys on a compacted Kafka topic (`lore.keys`), beside the event log but not in it.

One record per key: record key = `user_id` NUL `key_id` (hex), value = the secret; an item root is
`user_id` NUL `r` NUL `key_id`, an item key a purge kept `user_id` NUL `k` NUL `key_id` with the
item's tag before the secret (domain/sealing.py). Destroying a key writes a tombstone (a record with
no value): readers forget the key at
once, and the log cleaner removes the key's record, then the tombstone, from the topic's segments
(how soon: `segment.ms`, `min.compaction.lag.ms`, `delete.retention.ms` below; the README says).

Every process reads the whole topic at start and keeps it in memory (keys are small), and reads
on to the end when it meets a key it does not know, which another process may just have made.
A background thread follows the topic meanwhile, so that a key destroyed by another process (an
erasure applied by a worker) leaves this one's memory within a poll: a process that went on
sealing with it would write what no one can ever open.
"""

from __future__ import annotations

from collections.abc import Collection

from domain.sealing import PersonKey
from infra.compacted_topic import CompactedTopic
from infra.kafka_access import KafkaAccess

# Compacted, never deleted by age; segments roll hourly so that a destroyed key's record becomes
# cleanable within about an hour, and a tombstone itself is dropped a day after.
KEYS_TOPIC_CONFIG = {
    "cleanup.policy": "compact",
    "retention.ms": "-1",
    "segment.ms": str(60 * 60 * 1000),
    "min.compaction.lag.ms": "0",
    "max.compaction.lag.ms": str(2 * 60 * 60 * 1000),
    "delete.retention.ms": str(24 * 60 * 60 * 1000),
    "min.cleanable.dirty.ratio": "0.01",
}
_SEPARATOR = b"\x00"
# How often the background thread looks for keys made or destroyed elsewhere.
_FOLLOW_S = 0.1


_ROOT, _KEPT = b"r", b"k"
_TAG_BYTES = 16


def _record_key(user_id: str, key_id: bytes, kind: bytes = b"") -> bytes:
    prefix = kind + _SEPARATOR if kind else b""
    return user_id.encode() + _SEPARATOR + prefix + key_id.hex().encode()


class KafkaKeyStore:
    name = "kafka"

    def __init__(self, kafka: KafkaAccess | str, topic: str = "lore.keys") -> None:
        self.topic = topic
        # user -> key_id -> secret, in the order the keys were made (the last is the current one).
        self._keys: dict[str, dict[bytes, bytes]] = {}
        # user -> key_id -> (item tag, None for a root; secret), in the order made (the last root is current).
        self._items: dict[str, dict[bytes, tuple[bytes | None, bytes]]] = {}
        # Keys looked for and not on the topic when read to its end after the miss: destroyed (a
        # key is on the topic before anything is sealed with it). Remembered, so that a replay of
        # an erased person's entries reads the topic once per key, not once per entry.
        self._gone: set[tuple[str, bytes]] = set()
        self._table = CompactedTopic(kafka, topic, KEYS_TOPIC_CONFIG, self._take, follow_s=_FOLLOW_S)
        self._lock = self._table.lock

    def _take(self, key: bytes, value: bytes | None) -> None:
        raw_user, _, raw_id = key.partition(_SEPARATOR)
        kind, _, item_id = raw_id.partition(_SEPARATOR)
        if item_id:
            self._take_item(raw_user.decode(), kind, bytes.fromhex(item_id.decode()), value)
            return
        user, key_id = raw_user.decode(), bytes.fromhex(raw_id.decode())
        mine = self._keys.setdefault(user, {})
        if value is None:
            mine.pop(key_id, None)
        else:
            mine[key_id] = value
            self._gone.discard((user, key_id))

    def _take_item(self, user: str, kind: bytes, key_id: bytes, value: bytes | None) -> None:
        mine = self._items.setdefault(user, {})
        if value is None:
            mine.pop(key_id, None)
        elif kind == _ROOT:
            mine[key_id] = (None, value)
        else:
            mine[key_id] = (value[:_TAG_BYTES], value[_TAG_BYTES:])
        self._gone.discard((user, key_id))

    def _read_to_end(self) -> None:
        self._table.read_to_end()

    def item_root(self, user_id: str) -> PersonKey:
        with self._lock:
            root = self._newest_root(user_id)
            if root is None:
                self._read_to_end()
                root = self._newest_root(user_id)
            if root is None:
                root = PersonKey.new()
                self._table.write(_record_key(user_id, root.key_id, _ROOT), root.secret)
                self._items.setdefault(user_id, {})[root.key_id] = (None, root.secret)
            return root

    def _newest_root(self, user_id: str) -> PersonKey | None:
        roots = [(k, secret) for k, (tag, secret) in self._items.get(user_id, {}).items() if tag is None]
        return PersonKey(*roots[-1]) if roots else None

    def find_item_key(self, user_id: str, key_id: bytes) -> bytes | None:
        with self._lock:
            found = self._items.get(user_id, {}).get(key_id)
            if found is None and (user_id, key_id) not in self._gone:
                self._read_to_end()  # made by another process a moment ago, perhaps
                found = self._items.get(user_id, {}).get(key_id)
                if found is None:
                    self._gone.add((user_id, key_id))
            return None if found is None else found[1]

    def shred_items(self, user_id: str, root_id: bytes, keep: dict[bytes, tuple[bytes, bytes]],
                    forget: Collection[bytes]) -> None:
        with self._lock:
            self._read_to_end()
            mine = self._items.setdefault(user_id, {})
            # The kept keys are on the topic (acks=all) before anything is destroyed.
            for key_id, (tag, secret) in keep.items():
                self._table.produce(_record_key(user_id, key_id, _KEPT), tag + secret)
                mine[key_id] = (tag, secret)
            self._table.flush()
            for key_id, (tag, _) in list(mine.items()):
                if tag is not None and tag in forget:
                    self._table.produce(_record_key(user_id, key_id, _KEPT), None)
                    del mine[key_id]
            self._table.produce(_record_key(user_id, root_id, _ROOT), None)
            mine.pop(root_id, None)
            self._table.flush()

    def find(self, user_id: str, key_id: bytes) -> bytes | None:
        with self._lock:
            found = self._keys.get(user_id, {}).get(key_id)
            if found is None and (user_id, key_id) not in self._gone:
                # Made by another process a moment ago, perhaps: this one may not have read it yet.
                self._read_to_end()
                found = self._keys.get(user_id, {}).get(key_id)
                if found is None:
                    self._gone.add((user_id, key_id))
            return found

    def current(self, user_id: str) -> PersonKey:
        with self._lock:
            if not self._keys.get(user_id):
                self._read_to_end()
            mine = self._keys.get(user_id)
            if mine:
                key_id = next(reversed(mine))
                return PersonKey(key_id, mine[key_id])
            key = PersonKey.new()
            # On the topic (acks=all) before an entry sealed with it is.
            self._table.write(_record_key(user_id, key.key_id), key.secret)
            self._keys.setdefault(user_id, {})[key.key_id] = key.secret
            return key

    def prepare(self, user_ids: Collection[str]) -> None:
        with self._lock:
            if all(self._keys.get(u) for u in user_ids):
                return
            self._read_to_end()
            new = {u: PersonKey.new() for u in user_ids if not self._keys.get(u)}
            roots = {u: PersonKey.new() for u in new if self._newest_root(u) is None}
            for user_id, key in new.items():
                self._table.produce(_record_key(user_id, key.key_id), key.secret)
            for user_id, key in roots.items():
                self._table.produce(_record_key(user_id, key.key_id, _ROOT), key.secret)
            self._table.flush()
            for user_id, key in new.items():
                self._keys.setdefault(user_id, {})[key.key_id] = key.secret
            for user_id, key in roots.items():
                self._items.setdefault(user_id, {})[key.key_id] = (None, key.secret)

    def destroy(self, user_id: str) -> None:
        with self._lock:
            self._read_to_end()  # every key of theirs, also one another process made
            for key_id in list(self._keys.get(user_id, {})):
                self._table.write(_record_key(user_id, key_id), None)
            for key_id, (tag, _) in self._items.get(user_id, {}).items():
                self._table.produce(_record_key(user_id, key_id, _ROOT if tag is None else _KEPT), None)
            self._table.flush()
            self._keys.pop(user_id, None)
            self._items.pop(user_id, None)

    def close(self) -> None:
        self._table.close()
