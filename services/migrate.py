"""`lore migrate-log`: a log written before encryption, copied entry by entry into a new log that
seals them (a new SQLite file, or a new Kafka topic). The old log holds people's words in the clear
and is deleted once Lore runs on the new one (README: Erasure and encryption).

Entries keep their order (per partition), their partition and their command ids; positions are the
new log's, so the graph is rebuilt from it. An erasure in the old log destroys the key its person's
earlier entries were just sealed with: in the new log they open to nothing, as if sealed from the
start.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import groupby

from domain.sealing import Keyring
from domain.stored import Decided, StoredEvent
from infra.eventlog import EventLog


def entries(events: Iterator[list[StoredEvent]]) -> Iterator[list[Decided]]:
    """The log's batches of events as batches of entries, each with its partition."""
    for batch in events:
        yield [Decided(first.event.command_id, first.event.user_id, [s.event for s in group],
                       partition=first.partition)
               for (_, _), items in groupby(batch, key=lambda s: (s.partition, s.position))
               for group in [list(items)] for first in [group[0]]]


def migrate(source: EventLog, target: EventLog, keys: Keyring,
            on_progress: Callable[[int], None] = lambda _: None) -> int:
    """Copy `source` (plain: read with no keys, so a sealed entry is refused) into `target`,
    which seals with `keys`; how many entries were copied."""
    if target.count():
        raise ValueError(f"the target log ({target.name}) is not empty: migrate into a new one")
    copied = 0
    for batch in entries(source.read({})):
        target.append(batch)
        copied += len(batch)
        on_progress(len(batch))
    return copied
