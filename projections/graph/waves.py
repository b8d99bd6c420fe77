"""Order a batch of events into waves that can each be written with one UNWIND per event type.

Events that touch the same thing (a memory, an episode, a user being erased) keep their order
across waves; events in one wave touch nothing in common, so their order inside it is free.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from domain.events import (
    EpisodeExpired,
    EpisodeRecorded,
    Event,
    ExtractionDue,
    MemoriesExtracted,
    MemoriesUsed,
    MemoryCompressed,
    MemoryCorrected,
    MemoryMerged,
    MemoryPurged,
    MemoryRecorded,
    MemorySuperseded,
    ProfileDue,
    ProfileRevised,
    SessionAdvanced,
    SessionSummarized,
    SummaryDue,
    TopicForgotten,
    UserConfigured,
    UserErased,
)
from domain.stored import StoredEvent


def _touches(event: Event) -> list[str]:
    if isinstance(event, MemorySuperseded | MemoryCorrected):
        return [event.memory_id, event.by_memory_id]
    if isinstance(event, EpisodeRecorded):
        return [f"episode:{event.user_id}:{event.episode_id}"]
    if isinstance(event, MemoryMerged):
        return [event.memory_id, *event.merged_from]
    if isinstance(event, MemoryCompressed):
        return [event.memory_id, *event.compressed_from]
    if isinstance(event, TopicForgotten):
        return [f"episode:{event.user_id}:{e}" for e in sorted({r.episode_id for r in event.messages})]
    if isinstance(event, MemoriesUsed):
        return sorted({u.memory_id for u in (*event.found, *event.cited)})
    if isinstance(event, EpisodeExpired):
        return [f"episode:{event.user_id}:{event.episode_id}"]
    if isinstance(event, UserConfigured):
        return [f"settings:{event.user_id}"]
    if isinstance(event, SessionAdvanced):
        return [f"session:{event.user_id}:{event.session_id}"]
    if isinstance(event, ExtractionDue | MemoriesExtracted):
        return [f"session:{event.user_id}:{event.session_id}", f"extraction:{event.extraction_id}"]
    if isinstance(event, SummaryDue):
        return [f"session:{event.user_id}:{event.session_id}", f"summary:{event.user_id}:{event.summary_id}"]
    if isinstance(event, SessionSummarized):
        # It links the episodes it summarizes, and counts towards the person's next profile.
        return [f"summary:{event.user_id}:{event.summary_id}", f"profile:{event.user_id}",
                *{f"episode:{event.user_id}:{r.episode_id}" for r in event.window}]
    if isinstance(event, ProfileDue | ProfileRevised):
        return [f"profile:{event.user_id}"]
    if isinstance(event, MemoryRecorded):
        # Memories taken from one episode wait for it, so the link finds the episode's node.
        episode = [f"episode:{event.user_id}:{event.episode_id}"] if event.episode_id else []
        return [event.memory_id, *episode]
    memory_id = getattr(event, "memory_id", None)
    return [memory_id] if memory_id else []


def waves(batch: Sequence[StoredEvent]) -> list[list[StoredEvent]]:
    wave_of: dict[str, int] = {}
    user_floor: dict[str, int] = defaultdict(int)
    user_top: dict[str, int] = defaultdict(int)
    out: list[list[StoredEvent]] = []
    for stored in batch:
        event = stored.event
        user = event.user_id
        if isinstance(event, UserErased | MemoryPurged):
            wave = user_top[user] + 1
            user_floor[user] = wave
        else:
            wave = max([user_floor[user]] + [wave_of.get(k, 0) for k in _touches(event)]) + 1
            for key in _touches(event):
                wave_of[key] = wave
        user_top[user] = max(user_top[user], wave)
        while len(out) < wave:
            out.append([])
        out[wave - 1].append(stored)
    return out
