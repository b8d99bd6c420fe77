"""Which words of an event a purge can make unreadable, and under which items they are sealed.

Erasure shreds a whole person (their key). A purge shreds one memory: its words and the words of the
turns it came from must become unreadable in the log, the rest of the person staying readable. So
the words in an event are sealed again, inside the person's sealed entry, under *items*: a memory
(`m:`), a turn (`x:`, by its message id), a session's summary (`s:`), the profile (`p`). A purge
destroys the keys of its items (infra: domain/sealing.py); what they sealed then opens to a
placeholder, which is what a replay projects.

`sealed_parts(event)` says, for one event, which paths of its JSON hold words of which items, and
what stands in their place once they cannot be opened. A part whose words span several turns (a
model's raw answer to a window of the conversation) is sealed under all of them: any one purged,
it is gone. `items_of(state)` names every item a person's entries may seal, so that a purge can
keep all but its own.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from domain.commands import MessageRef
from domain.events import (
    EmbeddingsReplaced,
    EpisodeRecorded,
    Event,
    FeedbackGiven,
    MemoriesExtracted,
    MemoryCorrected,
    MemoryForgotten,
    MemoryMerged,
    MemoryPurged,
    MemoryRecorded,
    MemorySuperseded,
    ProfileRevised,
    SessionSummarized,
    TopicForgotten,
)
from domain.model import message_id
from domain.state import UserState

PURGED = "[purged]"
PROFILE_ITEM = "p"

Path = tuple[str | int, ...]


def memory_item(memory_id: str) -> str:
    return f"m:{memory_id}"


def message_item(user_id: str, episode_id: str, position: int) -> str:
    return f"x:{message_id(user_id, episode_id, position)}"


def summary_item(summary_id: str) -> str:
    return f"s:{summary_id}"


@dataclass(frozen=True)
class Part:
    """Paths of an event's JSON that hold words, the items that seal them (every one is needed to
    open them), and what each path holds once they cannot be opened."""

    items: tuple[str, ...]
    paths: tuple[Path, ...]
    placeholders: tuple[Any, ...]


def _part(items: Iterable[str], *fields: tuple[Path, Any]) -> Part:
    return Part(tuple(items), tuple(p for p, _ in fields), tuple(v for _, v in fields))


def _window(user_id: str, window: Sequence[MessageRef]) -> tuple[str, ...]:
    return tuple(sorted({message_item(user_id, r.episode_id, r.position) for r in window}))


def _memory_words(prefix: Path) -> tuple[tuple[Path, Any], ...]:
    return ((*prefix, "content"), PURGED), ((*prefix, "value"), None), ((*prefix, "entities"), []), \
        ((*prefix, "entity_types"), []), ((*prefix, "relations"), [])


def sealed_parts(event: Event) -> list[Part]:
    """The parts of `event` sealed under items (none: nothing in it is a person's words by item)."""
    if isinstance(event, MemoryRecorded):
        return [_part([memory_item(event.memory_id)], *_memory_words(()), (("embedding",), None))]
    if isinstance(event, EpisodeRecorded):
        vectors = bool(event.embeddings)
        return [_part([message_item(event.user_id, event.episode_id, i)],
                      (("messages", i, "content"), PURGED), *([(("embeddings", i), None)] if vectors else []))
                for i in range(len(event.messages))]
    if isinstance(event, MemoriesExtracted):
        return _extraction_parts(event)
    if isinstance(event, SessionSummarized):
        return [_part([summary_item(event.summary_id)], (("summary",), {"summary": PURGED}),
                      (("raw_output",), None), (("embedding",), None))]
    if isinstance(event, ProfileRevised):
        return [_part([PROFILE_ITEM], (("narrative",), PURGED), (("basic_info",), []),
                      (("raw_output",), None))]
    if isinstance(event, MemorySuperseded | MemoryCorrected | MemoryForgotten):
        return [_part([memory_item(event.memory_id)], (("reason",), None))]
    if isinstance(event, MemoryMerged):
        return [_part([memory_item(event.memory_id)], (("reason",), PURGED))]
    if isinstance(event, FeedbackGiven):
        return [_part([memory_item(event.memory_id)], (("note",), None))]
    if isinstance(event, TopicForgotten):  # the topic's words go with the first of what it names
        named = {memory_item(m) for m in event.memory_ids} | {summary_item(s) for s in event.summaries} \
            | {message_item(event.user_id, r.episode_id, r.position) for r in event.messages}
        return [_part(sorted(named), (("topic",), PURGED))] if named else []
    if isinstance(event, EmbeddingsReplaced):
        return [_part([_vector_item(event.user_id, v.item, v.item_id)], (("vectors", i, "embedding"), None))
                for i, v in enumerate(event.vectors)]
    return []


def _vector_item(user_id: str, kind: str, item_id: str) -> str:
    if kind == "memory":
        return memory_item(item_id)
    if kind == "summary":
        return summary_item(item_id)
    return f"x:{item_id}"  # a message's vector is named by its message id


def _extraction_parts(event: MemoriesExtracted) -> list[Part]:
    """Each candidate under the memory it became (or, kept out, under the turns it was read from);
    the model's raw answer under every turn of the window."""
    window = _window(event.user_id, event.window)
    made = {v.candidate: v.memory_id for v in event.verdicts if v.memory_id}
    parts = [_part([memory_item(made[i])] if i in made else window, *_memory_words(("candidates", i)))
             for i in range(len(event.candidates))]
    parts += [_part([memory_item(made[i])] if i in made else window, (("proposed", i, "content"), None),
                    (("proposed", i, "reason"), ""))
              for i, p in enumerate(event.proposed) if p is not None]
    parts += [_part([memory_item(made[v.candidate])] if v.candidate in made else window,
                    (("verdicts", n, "reason"), PURGED)) for n, v in enumerate(event.verdicts)]
    if event.raw_output is not None and window:
        parts.append(_part(window, (("raw_output",), None)))
    return parts


def purged_items(event: MemoryPurged) -> set[str]:
    """The items a purge destroys: its memories, their turns, those sessions' summaries, the profile."""
    return {memory_item(m) for m in event.memory_ids} | {summary_item(s) for s in event.summaries} \
        | {message_item(event.user_id, r.episode_id, r.position) for r in event.messages} | {PROFILE_ITEM}


def items_of(state: UserState) -> set[str]:
    """Every item the person's entries may hold words of: their memories, turns, summaries, profile."""
    items = {memory_item(m) for m in state.memories}
    items |= {message_item(state.user_id, episode, i) for episode, (_, size) in state.episodes.items()
              for i in range(size)}
    items |= {summary_item(s) for s in state.summaries}
    items.add(PROFILE_ITEM)
    return items
