"""Deciders of how a person's memory ages and is kept: a maintenance run's part for the person, their
own settings, and vectors of another model (`lore reembed`)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from domain.commands import ConfigureUser, MaintainMemory, MessageRef, ReplaceEmbeddings
from domain.envelope import Envelope
from domain.events import (
    Embedding,
    EmbeddingsReplaced,
    EpisodeExpired,
    Event,
    MaintenanceApplied,
    MemoryCompressed,
    MemoryDecayed,
    MemoryForgotten,
    MemoryRecorded,
    MemorySuperseded,
    UserConfigured,
)
from domain.lifecycle import maintenance
from domain.model import derived_id
from domain.state import MemoryState, UserState


def maintenance_texts(command: MaintainMemory) -> list[str]:
    """What a MaintainMemory embeds: the text of each compressed memory, group by group."""
    return [text for group in command.compress for text in group.contents]


class _Run:
    """One person's part of a maintenance run, carried out on what is still as the run saw it."""

    def __init__(self, command: MaintainMemory, state: UserState, envelope: Envelope) -> None:
        self.command = command
        self.state = state
        self.envelope = envelope
        self.pinned = set(state.settings.pinned_kinds)
        self.forgotten: set[str] = set()

    def fading(self, memory_id: str) -> MemoryState | None:
        """The memory, if a run may still touch it: active, neither core nor of a pinned kind."""
        memory = self.state.memories.get(memory_id)
        if memory is None or not memory.active or memory.importance >= maintenance.RULES.core \
                or memory.kind in self.pinned:
            return None
        return memory

    def forget(self) -> list[Event]:
        events: list[Event] = []
        for d in self.command.forget:
            if self.fading(d.memory_id) is not None:
                self.forgotten.add(d.memory_id)
                events.append(MemoryForgotten(
                    **self.envelope(), memory_id=d.memory_id, reason="decayed", run_id=self.command.run_id,
                    relevance=d.relevance, access_count=d.access_count, last_used_at=d.last_used_at))
        return events

    def demote(self) -> list[Event]:
        events: list[Event] = []
        for d in self.command.demote:
            memory = self.fading(d.memory_id)
            if memory is not None and d.memory_id not in self.forgotten and d.importance < memory.importance:
                events.append(MemoryDecayed(
                    **self.envelope(), memory_id=d.memory_id, run_id=self.command.run_id,
                    relevance=d.relevance, access_count=d.access_count, last_used_at=d.last_used_at,
                    importance=d.importance, previous_importance=memory.importance))
        return events

    def compress(self, embeddings: Sequence[Embedding]) -> tuple[list[Event], int]:
        """The compressed memories and what they hold; how many originals they took."""
        events: list[Event] = []
        compressed = 0
        vectors: Iterator[Embedding] = iter(embeddings)
        for index, group in enumerate(self.command.compress):
            originals = [self.fading(m) for m in group.memory_ids]
            texts_vectors = [(text, next(vectors, None)) for text in group.contents]
            if any(m is None or m.memory_id in self.forgotten for m in originals) \
                    or len({m.kind for m in originals if m is not None}) != 1:
                continue
            kept = [m for m in originals if m is not None]
            compressed += len(kept)
            sources = sorted(set().union(*(m.messages for m in kept)))
            said = tuple(MessageRef(episode_id=e, position=p) for e, p in sources)
            for part, (text, vector) in enumerate(texts_vectors):
                memory_id = derived_id("compressed", self.command.user_id, self.command.run_id, str(index),
                                       str(part))
                events.append(MemoryRecorded(
                    **self.envelope(), memory_id=memory_id, kind=kept[0].kind, content=text,
                    valid_from=min(m.valid_from for m in kept), importance=max(m.importance for m in kept),
                    confidence=max(m.confidence for m in kept), source=f"maintenance:{self.command.run_id}",
                    decided_by=group.compressor, embedding=vector, messages=said))
                events.append(MemoryCompressed(**self.envelope(), memory_id=memory_id,
                                               compressed_from=tuple(m.memory_id for m in kept),
                                               run_id=self.command.run_id, compressor=group.compressor))
        return events, compressed

    def contradictions(self) -> list[Event]:
        events: list[Event] = []
        for c in self.command.contradictions:
            older, newer = self.state.memories.get(c.memory_id), self.state.memories.get(c.by_memory_id)
            if older is None or newer is None or not older.active or not newer.active \
                    or older.slot is None or older.slot != newer.slot:
                continue
            events.append(MemorySuperseded(
                **self.envelope(), memory_id=c.memory_id, by_memory_id=c.by_memory_id,
                valid_until=c.valid_until, decided_by="maintenance",
                reason=f"contradiction found by maintenance run {self.command.run_id}"))
        return events

    def expire(self) -> list[Event]:
        state = self.state
        expired = [e for e in self.command.expire_episodes if e in state.episodes and e not in state.expired]
        return [EpisodeExpired(**self.envelope(), episode_id=e, run_id=self.command.run_id) for e in expired]


def decide_maintain_memory(command: MaintainMemory, state: UserState, envelope: Envelope,
                           embeddings: Sequence[Embedding]) -> list[Event]:
    """Carries out a run's decisions on what is still as the run saw it: a memory that changed
    since (forgotten, superseded, compressed by the person's own hand) is left alone, and a core
    memory or a pinned kind is never touched whatever the command says."""
    run = _Run(command, state, envelope)
    forgotten = run.forget()
    demoted = run.demote()
    compressed, originals = run.compress(embeddings)
    contradicted = run.contradictions()
    expired = run.expire()
    applied = MaintenanceApplied(
        **envelope(), run_id=command.run_id, as_of=command.as_of, started_at=command.started_at,
        evaluated=command.evaluated, forgotten=len(forgotten), demoted=len(demoted), compressed=originals,
        contradictions=len(contradicted), expired=len(expired))
    return [*forgotten, *demoted, *compressed, *contradicted, *expired, applied]


def decide_configure_user(command: ConfigureUser, state: UserState, envelope: Envelope,
                          embeddings: Sequence[Embedding]) -> list[Event]:
    settings = state.settings
    retention = command.episode_retention_days
    pinned = command.pinned_kinds

    def keep(asked: bool | None, current: bool) -> bool:
        return current if asked is None else asked

    return [UserConfigured(
        **envelope(),
        episode_retention_days=settings.episode_retention_days if retention is None else retention,
        pinned_kinds=settings.pinned_kinds if pinned is None else tuple(sorted(set(pinned), key=str)),
        memory=keep(command.memory, settings.memory),
        extraction=keep(command.extraction, settings.extraction),
        citations=keep(command.citations, settings.citations),
        temporary=keep(command.temporary, settings.temporary))]


def decide_replace_embeddings(command: ReplaceEmbeddings, state: UserState, envelope: Envelope,
                              embeddings: Sequence[Embedding]) -> list[Event]:
    # Items gone meanwhile (erased, a turn whose words expired) take no vector: the projection
    # matches only what is still there to be read.
    return [EmbeddingsReplaced(**envelope(), model=command.model, vectors=command.vectors)]
