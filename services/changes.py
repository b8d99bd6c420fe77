"""The change stream: what changed in people's memory, read from the log, one change per event a
front end cares about (memory recorded, superseded, corrected, forgotten, restored, purged; a
summary; the profile; a to-do; ...), in log order.

The log is read for the people the stream is for alone (infra's PeopleReader passes over anyone
else's entries unopened), and each person's entries are opened with their own keys: what a purge
made unreadable reads as its placeholder ([purged]).

Each change carries where it is in the log as its id: for every partition the stream reads, the
last position handled, and for the change's own partition the entry and the index of the event in
it. Sent back (`Last-Event-ID`), the stream goes on after that event, across restarts of the
server: no change is lost, none is sent twice.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from domain.access import split_person
from domain.events import (
    EpisodeRecorded,
    Event,
    FeedbackGiven,
    MemoryCompressed,
    MemoryCorrected,
    MemoryForgotten,
    MemoryMerged,
    MemoryPurged,
    MemoryRecorded,
    MemoryReinforced,
    MemoryRestored,
    MemorySuperseded,
    ProfileRevised,
    SessionSummarized,
    TodoCompleted,
    TodoReopened,
    TopicForgotten,
    UserConfigured,
    UserErased,
)
from domain.stored import StoredEvent
from infra.eventlog.port import PeopleReader
from lore.schemas import Change


def _fields(event: Event) -> tuple[str, dict[str, Any]] | None:
    """The change an event is for a front end, as (type, fields); None: not one (bookkeeping)."""
    if isinstance(event, MemoryRecorded):
        return "memory.recorded", {"memory_id": event.memory_id, "kind": event.kind.value,
                                   "content": event.content, "attribute": event.attribute,
                                   "value": event.value, "valid_from": event.valid_from,
                                   "valid_until": event.valid_until, "due_at": event.due_at,
                                   "episode_id": event.episode_id}
    if isinstance(event, MemoryCorrected):
        return "memory.corrected", {"memory_id": event.memory_id, "by_memory_id": event.by_memory_id}
    if isinstance(event, MemorySuperseded):
        return "memory.superseded", {"memory_id": event.memory_id, "by_memory_id": event.by_memory_id,
                                     "valid_until": event.valid_until}
    if isinstance(event, MemoryForgotten):
        return "memory.forgotten", {"memory_id": event.memory_id, "reason": event.reason}
    if isinstance(event, MemoryRestored):
        return "memory.restored", {"memory_id": event.memory_id}
    if isinstance(event, MemoryPurged):
        return "memory.purged", {"memory_ids": list(event.memory_ids)}
    if isinstance(event, MemoryMerged):
        return "memory.merged", {"memory_id": event.memory_id, "memory_ids": list(event.merged_from)}
    if isinstance(event, MemoryCompressed):
        return "memory.merged", {"memory_id": event.memory_id, "memory_ids": list(event.compressed_from),
                                 "reason": "compressed by maintenance"}
    if isinstance(event, MemoryReinforced):
        return "memory.reinforced", {"memory_id": event.memory_id, "confidence": event.confidence}
    if isinstance(event, FeedbackGiven):
        return "memory.feedback", {"memory_id": event.memory_id, "verdict": event.verdict,
                                   "confidence": event.confidence}
    if isinstance(event, TopicForgotten):
        return "topic.forgotten", {"topic": event.topic, "memory_ids": list(event.memory_ids),
                                   "purged": event.purged}
    if isinstance(event, TodoCompleted):
        return "todo.completed", {"memory_id": event.memory_id}
    if isinstance(event, TodoReopened):
        return "todo.reopened", {"memory_id": event.memory_id}
    if isinstance(event, SessionSummarized) and event.summary is not None:
        return "summary.written", {"summary_id": event.summary_id, "session_id": event.session_id,
                                   "content": event.summary.summary}
    if isinstance(event, ProfileRevised):
        return "profile.revised", {"version": event.version, "content": event.narrative}
    if isinstance(event, EpisodeRecorded):
        return "episode.recorded", {"episode_id": event.episode_id, "session_id": event.session_id,
                                    "turns": len(event.messages)}
    if isinstance(event, UserConfigured):
        return "settings.changed", {}
    if isinstance(event, UserErased):
        return "person.erased", {}
    return None


# The form of a stream's id, as the OpenAPI document states it: "partition:position[:index]" per
# partition, comma-separated.
CURSOR = r"^\s*\d{1,6}:(-1|\d{1,19}(:\d{1,6})?)\s*(,\s*\d{1,6}:(-1|\d{1,19}(:\d{1,6})?)\s*)*$"
_PAIR = re.compile(r"^(\d{1,6}):(-1|\d{1,19})(?::(\d{1,6}))?$")


class BadCursor(ValueError):
    pass


@dataclass
class Cursor:
    """Where a stream is: `done[p]` is the last position of partition p handled whole; `within[p]`
    (position, index), the entry after it, handled up to that event."""

    done: dict[int, int] = field(default_factory=dict)
    within: dict[int, tuple[int, int]] = field(default_factory=dict)

    @classmethod
    def parse(cls, text: str) -> Cursor:
        cursor = cls()
        for part in text.split(","):
            found = _PAIR.match(part.strip())
            partition = int(found.group(1)) if found else None
            if found is None:
                raise BadCursor(f"{text!r} is not an id this stream sent")
            position = int(found.group(2))
            cursor.within.pop(partition, None)  # a partition named twice: the last one holds
            if found.group(3) is None:
                cursor.done[partition] = position
            elif position < 0:
                raise BadCursor(f"{text!r} is not an id this stream sent")
            else:
                cursor.done[partition] = position - 1
                cursor.within[partition] = (position, int(found.group(3)))
        return cursor

    def text(self) -> str:
        return ",".join(f"{p}:{self.within[p][0]}:{self.within[p][1]}" if p in self.within else f"{p}:{q}"
                        for p, q in sorted(self.done.items()))

    def start(self) -> dict[int, int]:
        """What to read after: an entry handled in part is read again (its rest is still to send)."""
        return dict(self.done)

    def sent(self, partition: int, position: int, index: int) -> bool:
        handled = self.within.get(partition)
        return handled is not None and handled[0] == position and index <= handled[1]

    def took(self, partition: int, position: int, index: int) -> None:
        self.done[partition] = position - 1
        self.within[partition] = (position, index)

    def reached(self, partition: int, position: int) -> None:
        """Everything of the partition up to `position` is handled (what was read of it is sent)."""
        partial = self.within.get(partition)
        if partial is not None and position >= partial[0]:
            del self.within[partition]
        if partition not in self.within:
            self.done[partition] = max(self.done.get(partition, -1), position)


def changes(read: Iterable[StoredEvent], cursor: Cursor, reached: dict[int, int],
            ) -> Iterable[Change]:
    """The changes of what a reader read after `cursor`, each with the id to resume after it;
    `cursor` moves along as they are taken, and to `reached` once they all are."""
    by_partition: dict[int, list[StoredEvent]] = {}
    for stored in read:
        by_partition.setdefault(stored.partition, []).append(stored)
    for partition in sorted(by_partition):
        index, last_position = 0, None
        for stored in by_partition[partition]:
            index = index + 1 if stored.position == last_position else 0
            last_position = stored.position
            made = _fields(stored.event)
            if made is None or cursor.sent(partition, stored.position, index):
                continue
            kind, fields = made
            cursor.took(partition, stored.position, index)
            event = stored.event
            yield Change(id=cursor.text(), type=kind, user_id=split_person(event.user_id)[1],
                         at=event.recorded_at, command_id=event.command_id, **fields)
        cursor.reached(partition, reached.get(partition, -1))
    for partition, position in reached.items():
        cursor.reached(partition, position)


async def follow(reader: PeopleReader, cursor: Cursor, poll_s: float, *,
                 gone: Callable[[], Any], keepalive_s: float = 15.0,
                 max_s: float = float("inf")) -> AsyncIterator[Change | None]:
    """The changes from `cursor` on, as they come; None now and then while nothing does (a keepalive).
    Stops when `gone()` (awaited) says the client left, or once `max_s` has passed (after the changes
    read by then: the client goes on from its last id)."""
    quiet = 0.0
    clock = asyncio.get_running_loop()
    ends = clock.time() + max_s
    while not await gone() and clock.time() < ends:
        read = await asyncio.to_thread(reader.read, cursor.start())
        sent = False
        for change in changes(read.events, cursor, read.reached):
            sent = True
            yield change
        if sent:
            quiet = 0.0
            continue
        await asyncio.sleep(poll_s)
        quiet += poll_s
        if quiet >= keepalive_s:
            quiet = 0.0
            yield None
