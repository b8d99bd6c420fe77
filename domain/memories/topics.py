"""Forgetting a topic: everything Lore's search found about it, forgotten (or purged) as one decision.

The API chooses what is about the topic (its own search, with a relevance floor, shown first as a
dry run); the decider keeps what is still the person's and carries it out the way forgetting and
purging one memory do, once for the whole topic."""

from __future__ import annotations

from collections.abc import Sequence

from domain.commands import ForgetTopic, MessageRef
from domain.conversations.deciders import summary_id_for
from domain.envelope import Envelope
from domain.errors import NothingAboutTopic
from domain.events import Embedding, Event, MemoryForgotten, MemoryPurged, TopicForgotten
from domain.memories.deciders import merged_with, revisions, sources
from domain.model import derived_id
from domain.state import UserState


def decide_forget_topic(command: ForgetTopic, state: UserState, envelope: Envelope,
                        embeddings: Sequence[Embedding]) -> list[Event]:
    memory_ids = [m for m in dict.fromkeys(command.memory_ids) if m in state.memories]
    turns = sorted({(r.episode_id, r.position) for r in command.messages
                    if r.episode_id in state.episodes and r.position < state.episodes[r.episode_id][1]})
    sessions = {s for s in command.sessions if summary_id_for(command.user_id, s) in state.summaries}
    if not (memory_ids or turns or sessions):
        raise NothingAboutTopic(command.topic)
    if command.purge:
        memory_ids = sorted(set().union(*(merged_with(state, m) for m in memory_ids)))
        turns = sorted(set(turns) | sources(state, memory_ids))
    sessions |= {state.episodes[e][0] for e, _ in turns}
    summaries = tuple(sorted(summary_id_for(command.user_id, s) for s in sessions
                             if summary_id_for(command.user_id, s) in state.summaries))
    refs = tuple(MessageRef(episode_id=e, position=p) for e, p in turns)
    topic = TopicForgotten(**envelope(), topic_id=derived_id("topic", command.user_id, command.command_id),
                           topic=command.topic, memory_ids=tuple(memory_ids), messages=refs,
                           summaries=summaries, purged=command.purge)
    if command.purge:
        done: list[Event] = [MemoryPurged(**envelope(), memory_ids=tuple(memory_ids), messages=refs,
                                          summaries=summaries), topic]
    else:
        done = [topic, *(MemoryForgotten(**envelope(), memory_id=m, reason="a topic was forgotten")
                         for m in memory_ids if not state.memories[m].forgotten)]
    why = "a topic was purged" if command.purge else "a topic was forgotten"
    return [*done, *revisions(state, memory_ids, command, envelope, why, withhold=True, sessions=sessions)]
