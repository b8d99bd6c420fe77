"""Events -> the parameter rows of the projection's Cypher. Pure."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime
from functools import lru_cache
from typing import Any

from domain.commands import MessageRef, message_text
from domain.events import (
    CommandRejected,
    EmbeddingsReplaced,
    EpisodeExpired,
    EpisodeRecorded,
    Event,
    ExtractionDue,
    FeedbackGiven,
    MaintenanceApplied,
    MemoriesExtracted,
    MemoriesUsed,
    MemoryCompressed,
    MemoryCorrected,
    MemoryDecayed,
    MemoryForgotten,
    MemoryMerged,
    MemoryPurged,
    MemoryRecorded,
    MemoryReinforced,
    MemoryRestored,
    MemorySuperseded,
    ProfileDue,
    ProfileRevised,
    SessionAdvanced,
    SessionSummarized,
    SummaryDue,
    TodoCompleted,
    TodoReopened,
    TopicForgotten,
    UserConfigured,
    UserErased,
)
from domain.model import command_key, derived_id, episode_key, message_id, normalized, session_key
from domain.retrieval.turn_context import said_on_zh, turn_contexts
from domain.state import slot_key
from domain.stored import StoredEvent
from projections.graph import cypher
from projections.keys import has_cjk, user_key, words_zh

_CAPTION = 60


def iso(moment: datetime | None) -> str | None:
    """Times travel as ISO strings and become datetimes in Cypher: the driver's own temporal
    packing costs ~100 µs a value, which would bound the projection at a few thousand rows/s."""
    return moment.isoformat() if moment else None


def _base(event: Event) -> dict[str, Any]:
    return {"user_id": event.user_id, "command_id": event.command_id,
            "recorded_at": iso(event.recorded_at)}


def memory_recorded(event: MemoryRecorded, position: int) -> dict[str, Any]:
    return {
        **_base(event),
        "memory_id": event.memory_id,
        "label": event.kind.label,
        "valid_from": iso(event.valid_from),
        "valid_until": iso(event.valid_until),
        "occurred_at": iso(event.occurred_at),
        "props": {
            "user_id": event.user_id,
            "content": event.content,
            "name": event.content[:_CAPTION],
            "kind": event.kind.value,
            "category": event.category,
            "attribute": event.attribute,
            "slot": slot_key(event.attribute),
            "value": event.value,
            "status": "active",
            "importance": event.importance,
            "confidence": event.confidence,
            "source": event.source,
            "access_count": 0,
            "cited_count": 0,
            "log_position": position,
            "embedding_model": event.embedding.model if event.embedding else None,
            "decided_by": event.decided_by,
            "asserted": event.asserted,
            "messages": refs(event.messages),
            "merged_from": list(event.merged_from) or None,
            **text_props(event.content, event.user_id),
        },
        "due_at": iso(event.due_at),
        "remind_at": iso(event.remind_at),
        "profile_change": profile_change(event),
        "message_ids": message_ids(event.user_id, event.messages),
        "entity_ids": [e["entity_id"] for e in entities(event)],
        "relations": relations(event),
        "episodes": [episode_key(event.user_id, event.episode_id)] if event.episode_id else [],
        "embedding": event.embedding.vector() if event.embedding else None,
    }


def profile_change(event: MemoryRecorded) -> bool:
    """Whether it counts as a change the profile should follow (domain/state.py says the same)."""
    return bool(event.attribute) and event.asserted


def refs(messages: tuple[MessageRef, ...]) -> list[str] | None:
    """Message references as the graph keeps them: `episode_id#position`."""
    return [f"{m.episode_id}#{m.position}" for m in messages] or None


def message_ids(user_id: str, messages: tuple[MessageRef, ...]) -> list[str]:
    return [message_id(user_id, m.episode_id, m.position) for m in messages]


@lru_cache(maxsize=100_000)  # a person names the same things again and again
def entity_id(user_id: str, name: str) -> str:
    return derived_id("entity", user_id, normalized(name))


def entities(event: MemoryRecorded) -> list[dict[str, str]]:
    types = dict(event.entity_types)
    return [
        {"entity_id": entity_id(event.user_id, name), "name": name, "type": types.get(name, "thing"),
         "user_id": event.user_id, "user_key": user_key(event.user_id)}
        for name in dict.fromkeys(event.entities)
    ]


def relations(event: MemoryRecorded) -> list[dict[str, str | None]]:
    """Between the memory's entities; a relation without a subject starts at the person (:User)."""
    return [{"subject": entity_id(event.user_id, r.subject) if r.subject else None,
             "object": entity_id(event.user_id, r.object), "predicate": r.predicate}
            for r in event.relations]


def prerequisites(wave: list[Event]) -> list[tuple[str, list[Any]]]:
    """The shared nodes a wave's rows attach to, each merged once: (statement, distinct keys)."""
    users: dict[str, None] = {}
    found_entities: dict[str, dict[str, str]] = {}
    episodes: dict[str, dict[str, str]] = {}
    for event in wave:
        if isinstance(event, MemoryRecorded | EpisodeRecorded | SessionAdvanced | SummaryDue
                      | SessionSummarized | ProfileDue | ProfileRevised):
            users[event.user_id] = None
        if isinstance(event, MemoryRecorded):
            for entity in entities(event):
                # The first type said of a thing stands, as live writes keep it (replays batch more).
                known = found_entities.get(entity["entity_id"])
                if known is None or known["type"] == "thing":
                    found_entities[entity["entity_id"]] = entity
            if event.episode_id:
                key = episode_key(event.user_id, event.episode_id)
                episodes[key] = {"key": key, "episode_id": event.episode_id, "user_id": event.user_id}
    return [(statement, keys) for statement, keys in (
        (cypher.USERS, list(users)),
        (cypher.ENTITIES, list(found_entities.values())),
        (cypher.EPISODES, list(episodes.values())),
    ) if keys]


def applied_commands(events: list[Event]) -> list[dict[str, Any]]:
    """One row per command: its outcome, and the memory it recorded or changed, if any."""
    rows: dict[str, dict[str, Any]] = {}
    # Each person's rows, so that an erasure visits only theirs (a batch may hold many erasures).
    by_person: dict[str, list[dict[str, Any]]] = {}
    for event in events:
        if isinstance(event, UserErased):
            # An erasure keeps the person's commands answering, with nothing of what they said
            # (as a replay that can no longer read their entries records them from the erasure).
            for row in by_person.get(event.user_id, ()):
                row.update(outcome="erased", command_id=None, code=None, reason=None, memory_id=None)
        key = command_key(event.user_id, event.command_id)
        row = rows.get(key)
        if row is None:
            row = rows[key] = {
                "key": key, "command_id": event.command_id, "user_id": event.user_id, "outcome": "applied",
                "code": None, "reason": None, "memory_id": None,
            }
            by_person.setdefault(event.user_id, []).append(row)
        if isinstance(event, CommandRejected):
            row.update(outcome="rejected", code=event.code, reason=event.reason)
        elif row["memory_id"] is None:
            row["memory_id"] = getattr(event, "memory_id", None)
    return list(rows.values())


def memory_superseded(event: MemorySuperseded | MemoryCorrected, position: int) -> dict[str, Any]:
    return {**_base(event), "memory_id": event.memory_id, "by_memory_id": event.by_memory_id,
            "valid_until": iso(event.valid_until), "decided_by": event.decided_by, "reason": event.reason}


def memory_reinforced(event: MemoryReinforced, position: int) -> dict[str, Any]:
    return {**_base(event), "memory_id": event.memory_id, "confidence": event.confidence,
            "source": event.source, "importance": event.importance, "messages": refs(event.messages) or [],
            "message_ids": message_ids(event.user_id, event.messages)}


def memory_merged(event: MemoryMerged, position: int) -> dict[str, Any]:
    return {**_base(event), "memory_id": event.memory_id, "merged_from": list(event.merged_from),
            "decided_by": event.decided_by, "reason": event.reason}


def session_advanced(event: SessionAdvanced, position: int) -> dict[str, Any]:
    return {**_base(event), "key": session_key(event.user_id, event.session_id), "props": {
        "user_id": event.user_id, "session_id": event.session_id, "name": event.session_id,
        "messages": event.messages, "pending_turns": event.pending_turns,
        "pending": refs(event.pending) or [], "recent": refs(event.recent) or [], "ended": event.ended}}


def extraction_due(event: ExtractionDue, position: int) -> dict[str, Any]:
    return {**_base(event), "extraction_id": event.extraction_id,
            "session": session_key(event.user_id, event.session_id),
            "props": {"user_id": event.user_id, "session_id": event.session_id, "trigger": event.trigger,
                      "window": refs(event.window) or [], "status": "due", "model": event.model,
                      "name": f"extraction ({event.trigger})", "log_position": position}}


def memories_extracted(event: MemoriesExtracted, position: int) -> dict[str, Any]:
    verdicts: dict[str, int] = {}
    for verdict in event.verdicts:
        verdicts[verdict.verdict] = verdicts.get(verdict.verdict, 0) + 1
    return {**_base(event), "extraction_id": event.extraction_id,
            "session": session_key(event.user_id, event.session_id),
            "memory_ids": [v.memory_id for v in event.verdicts if v.memory_id],
            "props": {"user_id": event.user_id, "session_id": event.session_id, "status": "done",
                      "extractor": event.extractor, "prompt_version": event.prompt_version,
                      "prompt_tokens": event.prompt_tokens, "completion_tokens": event.completion_tokens,
                      "skipped": event.skipped, "candidates": len(event.candidates),
                      "verdicts": [f"{v.candidate}: {v.verdict} — {v.reason}" for v in event.verdicts],
                      **{f"verdicts_{name}": count for name, count in verdicts.items()}}}


def memory_forgotten(event: MemoryForgotten, position: int) -> dict[str, Any]:
    return {**_base(event), "memory_id": event.memory_id, "reason": event.reason, "run_id": event.run_id,
            "relevance": event.relevance}


def memory_decayed(event: MemoryDecayed, position: int) -> dict[str, Any]:
    return {**_base(event), "memory_id": event.memory_id, "importance": event.importance,
            "relevance": event.relevance, "run_id": event.run_id, "last_used_at": iso(event.last_used_at)}


def memories_used(event: MemoriesUsed, position: int) -> dict[str, Any]:
    cited = {u.memory_id: u.count for u in event.cited}
    counts = dict(cited)
    for use in event.found:
        counts[use.memory_id] = counts.get(use.memory_id, 0) + use.count
    return {**_base(event), "used_at": iso(event.occurred_at),
            "uses": [{"memory_id": m, "count": n, "cited": cited.get(m, 0)}
                     for m, n in sorted(counts.items())]}


def memory_compressed(event: MemoryCompressed, position: int) -> dict[str, Any]:
    return {**_base(event), "memory_id": event.memory_id, "compressed_from": list(event.compressed_from),
            "run_id": event.run_id, "compressor": event.compressor}


def episode_expired(event: EpisodeExpired, position: int) -> dict[str, Any]:
    return {**_base(event), "key": episode_key(event.user_id, event.episode_id), "run_id": event.run_id}


def maintenance_applied(event: MaintenanceApplied, position: int) -> dict[str, Any]:
    return {**_base(event), "run_id": event.run_id, "as_of": iso(event.as_of),
            "started_at": iso(event.started_at), "evaluated": event.evaluated, "forgotten": event.forgotten,
            "demoted": event.demoted, "compressed": event.compressed,
            "contradictions": event.contradictions, "expired": event.expired}


def user_configured(event: UserConfigured, position: int) -> dict[str, Any]:
    return {**_base(event), "episode_retention_days": event.episode_retention_days,
            "pinned_kinds": [k.value for k in event.pinned_kinds], "memory": event.memory,
            "extraction": event.extraction, "citations": event.citations, "temporary": event.temporary}


def embeddings_replaced(event: EmbeddingsReplaced, position: int) -> dict[str, Any]:
    return {**_base(event), "model": event.model,
            "vectors": [{"item": v.item, "id": v.item_id, "vector": v.embedding.vector()}
                        for v in event.vectors if v.embedding is not None]}


def memory_purged(event: MemoryPurged, position: int) -> dict[str, Any]:
    return {**_base(event), "memory_ids": list(event.memory_ids),
            "message_ids": message_ids(event.user_id, event.messages)}


def topic_forgotten(event: TopicForgotten, position: int) -> dict[str, Any]:
    return {**_base(event), "topic_id": event.topic_id,
            "message_ids": [] if event.purged else message_ids(event.user_id, event.messages)}


def memory_restored(event: MemoryRestored, position: int) -> dict[str, Any]:
    return {**_base(event), "memory_id": event.memory_id}


def text_props(text: str, user_id: str, context: str | None = None) -> dict[str, Any]:
    """The properties the fulltext indexes read: CJK text also goes to the CJK-bigram index, and
    its words (of the turn in its `context`, for a turn) to the Chinese word index."""
    cjk = has_cjk(text)
    return {"user_key": user_key(user_id), "content_cjk": text if cjk else None,
            "user_key_cjk": user_key(user_id) if cjk else None,
            "words_zh": words_zh(context or text) if cjk else None}


def messages(event: EpisodeRecorded) -> list[dict[str, Any]]:
    """Each message of an episode as a node of its own: searchable turn by turn."""
    vectors = [e.vector() if e else None for e in event.embeddings] or [None] * len(event.messages)
    texts = [message_text(m) for m in event.messages]
    days = [m.timestamp or event.occurred_at for m in event.messages]
    contexts = turn_contexts(texts, days)
    contexts_zh = turn_contexts(texts, days, said=said_on_zh) if any(has_cjk(t) for t in texts) else contexts
    return [
        {
            "message_id": message_id(event.user_id, event.episode_id, i),
            "occurred_at": iso(message.timestamp or event.occurred_at),
            "embedding": vector,
            "props": {
                "user_id": event.user_id, "episode_id": event.episode_id, "session_id": event.session_id,
                "position": i, "role": message.role, "content": message_text(message),
                "name": message.content[:_CAPTION],
                "embedding_model": (e.model if (e := event.embeddings[i]) else None) if event.embeddings
                else None,
                "context": contexts[i],
                **text_props(message_text(message), event.user_id, contexts_zh[i]),
            },
        }
        for i, (message, vector) in enumerate(zip(event.messages, vectors, strict=True))
    ]


def episode_recorded(event: EpisodeRecorded, position: int) -> dict[str, Any]:
    text = "\n".join(f"{m.role}: {m.content}" for m in event.messages)
    return {
        **_base(event),
        "key": episode_key(event.user_id, event.episode_id),
        "occurred_at": iso(event.occurred_at),
        "expires_at": iso(event.expires_at),
        "messages": messages(event),
        "props": {
            "user_id": event.user_id,
            "episode_id": event.episode_id,
            "session_id": event.session_id,
            "text": text,
            "name": f"{event.session_id} @ {event.occurred_at:%Y-%m-%d}",
            "message_count": len(event.messages),
        },
    }


def summary_due(event: SummaryDue, position: int) -> dict[str, Any]:
    return {**_base(event), "summary_id": event.summary_id,
            "session": session_key(event.user_id, event.session_id),
            "props": {"user_id": event.user_id, "session_id": event.session_id, "due_id": event.due_id,
                      "trigger": event.trigger, "status": "due", "log_position": position}}


def session_summarized(event: SessionSummarized, position: int) -> dict[str, Any]:
    made = event.summary
    status = "skipped" if event.skipped else "fallback" if event.fallback else "done"
    text = made.text() if made else None
    return {**_base(event), "summary_id": event.summary_id, "status": status, "counted": made is not None,
            "episodes": sorted({episode_key(event.user_id, r.episode_id) for r in event.window}),
            "embedding": event.embedding.vector() if event.embedding else None,
            "props": {"summarizer": event.summarizer, "prompt_version": event.prompt_version,
                      "prompt_tokens": event.prompt_tokens, "completion_tokens": event.completion_tokens,
                      "skipped": event.skipped, "fallback": event.fallback, "failure": event.failure,
                      "window": refs(event.window) or [], "log_position": position},
            "said_until": iso(event.said_until),
            "made": None if made is None else {
                "summary": made.summary, "topics": list(made.topics), "user_intent": made.user_intent,
                "emotional_tone": made.emotional_tone, "key_facts": list(made.key_facts),
                "unresolved": made.unresolved, "content": text, "name": made.summary[:_CAPTION],
                "embedding_model": event.embedding.model if event.embedding else None,
                **text_props(text or "", event.user_id)}}


def profile_due(event: ProfileDue, position: int) -> dict[str, Any]:
    return {**_base(event), "reason": event.reason, "withhold": event.withhold, "props": {}}


def profile_key(user_id: str, version: int) -> str:
    return derived_id("profile", user_id, str(version))


def profile_revised(event: ProfileRevised, position: int) -> dict[str, Any]:
    return {**_base(event), "key": profile_key(event.user_id, event.version),
            "previous": profile_key(event.user_id, event.version - 1) if event.version > 1 else None,
            "version": event.version,
            "props": {"user_id": event.user_id, "version": event.version, "narrative": event.narrative,
                      "basic_keys": [b.key for b in event.basic_info],
                      "basic_values": [b.value for b in event.basic_info],
                      "writer": event.writer, "prompt_version": event.prompt_version,
                      "prompt_tokens": event.prompt_tokens, "completion_tokens": event.completion_tokens,
                      "reason": event.reason, "summaries": list(event.summaries), "failure": event.failure,
                      "name": f"profile v{event.version}", "log_position": position}}


def todo_completed(event: TodoCompleted, position: int) -> dict[str, Any]:
    return {**_base(event), "memory_id": event.memory_id, "completed_at": iso(event.completed_at)}


def feedback_given(event: FeedbackGiven, position: int) -> dict[str, Any]:
    return {**_base(event), "memory_id": event.memory_id, "verdict": event.verdict, "note": event.note,
            "confidence": event.confidence, "used_at": iso(event.occurred_at)}


def todo_reopened(event: TodoReopened, position: int) -> dict[str, Any]:
    return {**_base(event), "memory_id": event.memory_id}


def user_erased(event: UserErased, position: int) -> dict[str, Any]:
    return {**_base(event), "command_key": command_key(event.user_id, event.command_id),
            "command_keys": list(event.command_keys)}


# event type -> (row builder, statement); the order in which one wave's groups run.
WRITERS: dict[type, tuple[Any, str]] = {
    EpisodeRecorded: (episode_recorded, cypher.EPISODE_RECORDED),
    MemoryRecorded: (memory_recorded, cypher.MEMORY_RECORDED),
    MemorySuperseded: (memory_superseded, cypher.MEMORY_SUPERSEDED),
    # A correction closes the old wording's window as a supersession does (to where it opened).
    MemoryCorrected: (memory_superseded, cypher.MEMORY_SUPERSEDED),
    MemoryReinforced: (memory_reinforced, cypher.MEMORY_REINFORCED),
    MemoryMerged: (memory_merged, cypher.MEMORY_MERGED),
    SessionAdvanced: (session_advanced, cypher.SESSION_ADVANCED),
    ExtractionDue: (extraction_due, cypher.EXTRACTION_DUE),
    MemoriesExtracted: (memories_extracted, cypher.MEMORIES_EXTRACTED),
    SummaryDue: (summary_due, cypher.SUMMARY_DUE),
    SessionSummarized: (session_summarized, cypher.SESSION_SUMMARIZED),
    ProfileDue: (profile_due, cypher.PROFILE_DUE),
    ProfileRevised: (profile_revised, cypher.PROFILE_REVISED),
    TodoCompleted: (todo_completed, cypher.TODO_COMPLETED),
    TodoReopened: (todo_reopened, cypher.TODO_REOPENED),
    FeedbackGiven: (feedback_given, cypher.FEEDBACK_GIVEN),
    MemoryForgotten: (memory_forgotten, cypher.MEMORY_FORGOTTEN),
    MemoryRestored: (memory_restored, cypher.MEMORY_RESTORED),
    MemoryDecayed: (memory_decayed, cypher.MEMORY_DECAYED),
    MemoriesUsed: (memories_used, cypher.MEMORIES_USED),
    MemoryCompressed: (memory_compressed, cypher.MEMORY_COMPRESSED),
    EpisodeExpired: (episode_expired, cypher.EPISODE_EXPIRED),
    MaintenanceApplied: (maintenance_applied, cypher.MAINTENANCE_APPLIED),
    UserConfigured: (user_configured, cypher.USER_CONFIGURED),
    EmbeddingsReplaced: (embeddings_replaced, cypher.EMBEDDINGS_REPLACED),
    UserErased: (user_erased, cypher.USER_ERASED),
    MemoryPurged: (memory_purged, cypher.MEMORY_PURGED),
    TopicForgotten: (topic_forgotten, cypher.TOPIC_FORGOTTEN),
}


def wave_writes(wave: Sequence[StoredEvent]) -> list[tuple[str, str, list[Any]]]:
    """What one wave writes, in order, as (statement, parameter name, values): the shared nodes it
    attaches to (`$keys`), then each event type's rows (`$rows`) in WRITERS' order. The projector
    runs them in a transaction; the bulk fold (fold.py) applies the same list in memory."""
    out = [(statement, "keys", keys) for statement, keys in prerequisites([s.event for s in wave])]
    by_type: dict[type, list[StoredEvent]] = defaultdict(list)
    for stored in wave:
        by_type[type(stored.event)].append(stored)
    for event_type, (to_row, statement) in WRITERS.items():
        if event_type in by_type:
            rows = [to_row(s.event, s.position) for s in by_type[event_type]]
            if event_type in (ExtractionDue, SummaryDue, ProfileDue):
                # Which writer owns the work: the partition its person's commands are on.
                for row, stored in zip(rows, by_type[event_type], strict=True):
                    row.setdefault("props", {})["partition"] = stored.partition
            out.append((statement, "rows", rows))
    return out
