"""What both event logs do at their boundary when encryption is on: seal each entry with its
person's key as it is appended, open it as it is read, and destroy the person's keys once their
erasure is in the log.

The erasure goes in first and the keys go after: a crash between the two leaves the person
readable in the log, and a second DELETE erases them again (it is a new command); the other
order could leave keys destroyed with no erasure in the log to tell a replay why.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

from domain import codec
from domain.errors import PurgeUnavailable
from domain.events import Event, UserErased
from domain.sealing import Keyring, Sealer
from domain.stored import Decided


def _erases(decided: Decided) -> bool:
    return any(isinstance(event, UserErased) for event in decided.events)


class EntrySealing:
    def __init__(self, keys: Keyring | None) -> None:
        self.sealer = None if keys is None else Sealer(keys)

    def stored(self, decided: Decided) -> bytes:
        """The bytes the log keeps for `decided`."""
        return codec.seal_entry(decided.user_id, decided.events, decided.entry, self.sealer)

    def events(self, raw: bytes) -> list[Event]:
        """The events of stored bytes: none when their person's key is destroyed."""
        return codec.open_entry(raw, self.sealer)

    def events_of(self, raws: Sequence[bytes]) -> list[list[Event]]:
        """The events of many stored entries at once (a rebuild's read)."""
        return codec.open_entries(raws, self.sealer)

    def shred(self, user_id: str, purged: Collection[str], live: Collection[str]) -> None:
        """Make the words of the person's `purged` items unreadable for good (domain/shredding.py)."""
        if self.sealer is None:
            raise PurgeUnavailable()
        self.sealer.shred(user_id, purged, live)

    @staticmethod
    def segments(batch: Sequence[Decided]) -> list[Sequence[Decided]]:
        """The batch cut after each erasure: an entry of the person's after it in the same batch
        must be sealed with a new key, made once the old ones are destroyed."""
        cuts = [i + 1 for i, decided in enumerate(batch) if _erases(decided)]
        bounds = [0, *(c for c in cuts if c < len(batch)), len(batch)]
        return [batch[a:b] for a, b in zip(bounds, bounds[1:], strict=False) if b > a]

    def prepare(self, batch: Sequence[Decided]) -> None:
        """Make the keys of the batch's new people at once, not one write each."""
        if self.sealer is not None:
            self.sealer.keyring.prepare({d.user_id for d in batch})

    def appended(self, entries: Iterable[Decided]) -> None:
        """Entries now durably in the log: destroy the keys of the people they erase."""
        if self.sealer is None:
            return
        for decided in entries:
            if _erases(decided):
                self.sealer.destroy(decided.user_id)
