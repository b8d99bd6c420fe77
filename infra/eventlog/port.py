"""The event-log port: append-only, ordered per user, idempotent per command, readable from the start.

An entry of the log holds the events of one command; its events share the entry's position.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from domain.access import People
from domain.stored import Decided, StoredEvent


@dataclass(frozen=True)
class PeopleRead:
    """Some events of some people, in log order per partition, and how far each partition was looked
    through (further than the last event when what followed was someone else's)."""

    events: list[StoredEvent]
    reached: dict[int, int]


class PeopleReader(Protocol):
    """Reads the entries of some people only, with a connection of its own; another person's entry
    is passed over unopened."""

    def read(self, after: dict[int, int], most: int = 500) -> PeopleRead:
        """Their events after `after` (partition -> last position seen, -1 for none), at most `most`
        entries, up to the log's end when the read began."""

    def end(self) -> dict[int, int]:
        """The last position of each partition their entries can be in (-1 when empty)."""

    def close(self) -> None: ...


class EventLog(Protocol):
    name: str
    log_id: str  # which log this is: a graph projected from one never follows another

    def append(self, batch: Sequence[Decided]) -> list[StoredEvent]:
        """Append each command's events as one entry, in order. The SQLite log refuses a command_id
        it holds; the Kafka log cannot, and the projection applies a command once."""

    def read(self, start: dict[int, int], batch_size: int = 10_000,
             partitions: Collection[int] | None = None) -> Iterator[list[StoredEvent]]:
        """Events after `start` (partition -> last position seen, -1 for none), up to today's end,
        in batches of whole entries; only `partitions` when given."""

    def read_entries(self, until: dict[int, int], people: Callable[[str], bool] | None = None,
                     partitions: Collection[int] | None = None,
                     batch_size: int = 10_000) -> Iterator[list[StoredEvent]]:
        """A rebuild's read: every event from the start up to `until` (partition -> last position,
        as `end` said it), in batches of whole entries; only `partitions` when given, and only the
        people `people` accepts (the others' entries are not opened)."""

    def end(self) -> dict[int, int]:
        """The last position of every partition (-1 when empty)."""

    def history(self, user_id: str, partition: int, before: int) -> list[StoredEvent]:
        """The person's events in `partition` before position `before`, in order (a purge re-reads
        them, its words now unreadable)."""

    def shred(self, user_id: str, purged: Collection[str], live: Collection[str]) -> None:
        """Destroy the keys of the person's `purged` items, keeping the `live` ones readable; refused
        (PurgeUnavailable) when entries are written plain."""

    def people_reader(self, people: People) -> PeopleReader:
        """A reader of `people`'s entries alone (a change stream's)."""

    def count(self) -> int:
        """How many entries (commands) the log holds."""

    def ping(self) -> None:
        """Raise if the log cannot be reached."""

    def close(self) -> None: ...
