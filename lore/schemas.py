"""Request and response bodies of the v1 API. Separate from commands and events on purpose:
what a client sends and sees may grow without a stored event changing shape."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StrictBool, field_validator

from domain.commands import (
    IDENTIFIER_PATTERN,
    MAX_ENTITIES,
    MAX_EPISODE_MESSAGES,
    MAX_MEMORY_CHARS,
    MAX_MESSAGE_CHARS,
    EntityName,
    Identifier,
    Message,
)
from domain.model import MemoryKind

# A context request carries what the person just said; a pasted page may be long.
MAX_CONTEXT_MESSAGE_CHARS = 200_000

# What a client sends is taken as its type says, not coerced: `0` is not false, `"5"` is not 5, and
# a number is not a moment (pydantic's lax mode takes all three). Integers may be written 5.0, as
# JSON Schema allows.
_NUMBER = re.compile(r"\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*")


def _moment(value: Any) -> Any:
    if isinstance(value, bool | int | float) or (isinstance(value, str) and _NUMBER.fullmatch(value)):
        raise ValueError("a moment is a date and time in ISO 8601 (2026-03-01T09:00:00Z), not a number")
    return value


def _number(value: Any) -> Any:
    if isinstance(value, bool | str):
        raise ValueError(f"a number, not {type(value).__name__}")
    return value


Instant = Annotated[datetime, BeforeValidator(_moment)]
Number = Annotated[float, BeforeValidator(_number)]
Count = Annotated[int, BeforeValidator(_number)]
# At least one letter or digit: what search looks for (a query of punctuation is refused).
HAS_A_WORD = r"[\p{L}\p{N}]"



class MemoryView(BaseModel):
    memory_id: str
    user_id: str
    kind: str
    category: str | None = Field(default=None, description="The deployment's category (LORE_TAXONOMY).")
    content: str
    attribute: str | None = None
    value: str | None = None
    status: str
    valid_from: datetime
    valid_until: datetime | None = Field(description="As known at the asked time; null = still true.")
    recorded_at: datetime
    retired_at: datetime | None = None
    superseded_by: str | None = None
    importance: float
    confidence: float
    source: str | None = None
    access_count: int = Field(default=0, description="Times used: listed in a search answer, cited in a "
                              "context block, or said to be helpful.")
    cited_count: int = Field(default=0, description="Times cited in a context block or said to be helpful.")
    decided_by: str | None = Field(default=None,
                                   description="What decided it: an extractor, or null (sent as is).")
    asserted: bool | None = Field(default=None,
                                  description="Said by the person (false: inferred by a model).")
    due_at: datetime | None = Field(default=None, description="For a to-do: when it is due.")
    remind_at: datetime | None = Field(default=None, description="For a to-do: when to remind.")
    completed_at: datetime | None = Field(default=None,
                                          description="For a to-do: when it was done (null: open).")
    merged_into: str | None = None
    merged_from: list[str] | None = None
    compressed_into: str | None = None
    episode_id: str | None = Field(default=None, description="The conversation it was taken from.")
    last_used_at: datetime | None = Field(default=None, description="When a caller last received it "
                                          "(a search answer, a context block, a helpful verdict).")
    last_cited_at: datetime | None = Field(default=None, description="When a context block last cited "
                                           "it (or it was said to be helpful).")
    helpful_count: int | None = Field(default=None, description="Times it was said to be helpful.")
    wrong_count: int | None = Field(default=None, description="Times it was said to be wrong.")
    last_feedback: str | None = Field(default=None, description="The latest verdict: helpful or wrong.")
    last_feedback_at: datetime | None = None


class MemoryCreate(BaseModel):
    """A memory. `due_at` and `remind_at` are for a to-do (kind todo) only; `valid_until`, when
    given, is not before `valid_from` (which defaults to `occurred_at`, then to now)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{
        "content": "Prefers the dark editor theme", "kind": "preference",
        "attribute": "editor_theme", "value": "dark", "valid_from": "2026-03-01T00:00:00Z",
        "importance": 0.7, "source": "chat", "entities": ["VS Code"], "command_id": "chat-42-1",
    }], "allOf": [{
        # A to-do's times on another kind are refused: said here as JSON Schema can say it.
        "if": {"not": {"required": ["kind"], "properties": {"kind": {"const": "todo"}}}},
        "then": {"properties": {"due_at": {"type": "null"}, "remind_at": {"type": "null"}}},
    }]})

    content: str = Field(min_length=1, max_length=MAX_MEMORY_CHARS, description="The memory in plain words.")
    kind: MemoryKind = Field(default=MemoryKind.FACT, description="What sort of memory it is.")
    attribute: str | None = Field(
        default=None, min_length=1, max_length=200,
        description="A slot holding one value at a time (favorite_color, employer, home_city...): "
        "a new value closes the one in force.",
    )
    value: str | None = Field(default=None, max_length=1_000, description="The slot's value.")
    valid_from: Instant | None = Field(default=None, description="When it became true; default: now.")
    valid_until: Instant | None = Field(default=None, description="When it stopped being true, if it has.")
    importance: Number = Field(default=0.5, ge=0.0, le=1.0)
    confidence: Number = Field(default=1.0, ge=0.0, le=1.0)
    source: str | None = Field(default=None, max_length=500, description="Where it came from.")
    entities: list[EntityName] = Field(default_factory=list, max_length=MAX_ENTITIES,
                                       description="What it is about.")
    episode_id: Identifier | None = Field(default=None, description="The conversation it came from.")
    command_id: Identifier | None = Field(
        default=None, description="Idempotency key: the same id takes effect once. Default: a new id."
    )
    occurred_at: Instant | None = Field(default=None, description="When it was said; default: now.")
    due_at: Instant | None = Field(default=None, description="For a to-do (kind todo): when it is due.")
    remind_at: Instant | None = Field(default=None, description="For a to-do: when to remind; default: an "
                                       "hour before due_at.")


class TodoCreate(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{
        "content": "Renew the passport", "due_at": "2026-03-20T09:00:00Z"}]})

    content: str = Field(min_length=1, max_length=MAX_MEMORY_CHARS, description="What is to be done.")
    due_at: Instant | None = Field(default=None, description="When it is due.")
    remind_at: Instant | None = Field(default=None, description="When to remind; default: an hour before.")
    importance: Number = Field(default=0.6, ge=0.0, le=1.0)
    entities: list[EntityName] = Field(default_factory=list, max_length=MAX_ENTITIES)
    command_id: Identifier | None = Field(default=None, description="Idempotency key (default: a new id).")


class FeedbackCreate(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{
        "memory_id": "m-3f2a", "verdict": "wrong", "note": "she moved to Porto last year"}]})

    memory_id: Identifier = Field(description="A memory a search or context block cited.")
    verdict: Literal["helpful", "wrong"] = Field(description="wrong: its confidence is halved; helpful: "
                                                 "recorded, the confidence stays.")
    note: str | None = Field(default=None, max_length=500)
    command_id: Identifier | None = None


class TodoDone(BaseModel):
    model_config = ConfigDict(extra="forbid")

    completed_at: Instant | None = Field(default=None, description="When it was done; default: now.")
    command_id: Identifier | None = None


class TodoPage(BaseModel):
    items: list[MemoryView] = Field(description="Soonest due first; those without a due time last.")
    next_offset: int | None = Field(default=None, description="Pass as `offset` for the next page; null: "
                                    "no more.")


class EpisodeMessage(BaseModel):
    model_config = ConfigDict(extra="forbid")

    role: Literal["user", "assistant", "system", "tool"]
    content: str = Field(min_length=1, max_length=MAX_MESSAGE_CHARS)
    timestamp: Instant | None = None

    def as_message(self) -> Message:
        return Message(role=self.role, content=self.content, timestamp=self.timestamp)


class EpisodeCreate(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{
        "session_id": "2026-03-01-morning",
        "messages": [
            {"role": "user", "content": "I moved to Lisbon last week.", "timestamp": "2026-03-01T09:00:00Z"},
            {"role": "assistant", "content": "Welcome to Lisbon!", "timestamp": "2026-03-01T09:00:05Z"},
        ],
    }]})

    session_id: Identifier
    messages: list[EpisodeMessage] = Field(min_length=1, max_length=MAX_EPISODE_MESSAGES,
                                           description=f"At most {MAX_EPISODE_MESSAGES:,} messages of "
                                           f"{MAX_MESSAGE_CHARS:,} characters, and 1,000,000 in all.")
    episode_id: Identifier | None = None
    command_id: Identifier | None = None
    occurred_at: Instant | None = Field(
        default=None, description="When the conversation happened; default: its first message's time, or now."
    )


class WriteAccepted(BaseModel):
    command_id: str
    status: Literal["accepted", "applied", "duplicate"] = Field(
        description="accepted: durable, not applied yet (Kafka mode without wait); applied: in the "
        "graph; duplicate: this command_id took effect before."
    )
    memory_id: str | None = Field(default=None, description="The memory recorded or changed, once applied.")
    run: str | None = Field(default=None, description="Where to follow a write that runs in the background "
                            "(erasing a person, purging a memory, without wait): GET it for its state.")


class SessionEnd(BaseModel):
    model_config = ConfigDict(extra="forbid")

    command_id: Identifier | None = Field(default=None, description="Client-chosen; the same id takes "
                                          "effect once.")
    occurred_at: Instant | None = None


class ExtractionRequest(SessionEnd):
    episode_id: Identifier = Field(description="The episode to extract.")
    model: str | None = Field(default=None, min_length=1, max_length=200,
                              description="Extract with this model of the configured endpoint.")


class ExtractionState(BaseModel):
    extraction_id: str
    status: Literal["due", "done"] = Field(description="due: waiting for the extractor; done: in the graph.")
    trigger: str | None = None
    extractor: str | None = None
    skipped: str | None = Field(default=None, description="Why nothing was extracted, if so.")
    candidates: int = 0
    verdicts: list[str] = Field(default_factory=list, description="What became of each candidate, and why.")
    prompt_tokens: int = 0
    completion_tokens: int = 0


class ExtractionAccepted(WriteAccepted):
    extraction: ExtractionState | None = Field(
        default=None, description="The extraction the command made due (null: none was, e.g. a session "
        "too short, or the command is not applied yet).")


class Problem(BaseModel):
    detail: str
    code: str | None = None
    command_id: str | None = None


class MemoryPage(BaseModel):
    items: list[MemoryView]
    offset: int
    limit: int
    next_offset: int | None = Field(description="Pass as offset for the next page; null on the last.")


class Stats(BaseModel):
    user_id: str
    total: int
    by_kind: dict[str, int]
    by_status: dict[str, int]
    by_kind_and_status: dict[str, dict[str, int]]
    extractions: dict[str, dict[str, int]] = Field(
        default_factory=dict, description="Extractions by status (due, done): how many, and the model "
        "tokens they took (prompt_tokens, completion_tokens).")


def names_a_word(text: str) -> str:
    """A text to look for must hold a word (not only spaces or signs)."""
    if not any(c.isalnum() for c in text):
        raise ValueError("holds no word to look for")
    return text


class SearchRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [
        {"query": "which editor theme do I like?", "limit": 5},
        {"query": "where did I live?", "valid_at": "2025-06-01T00:00:00Z", "include_history": False},
    ]})

    query: str = Field(min_length=1, max_length=2_000, description="What to look for, in words: at least "
                       "one letter or digit.", json_schema_extra={"pattern": HAS_A_WORD})
    limit: Count = Field(default=10, ge=1, le=100)
    valid_at: Instant | None = Field(default=None, description="True at this time (default: now).")
    known_at: Instant | None = Field(default=None, description="As Lore knew it then (default: now).")
    kinds: list[MemoryKind] = Field(default_factory=list, max_length=len(MemoryKind),
                                    description="Only these kinds of memory.")
    include_history: StrictBool = Field(default=False,
                                        description="Also memories no longer true (superseded).")
    include_messages: StrictBool = Field(default=True, description="Also turns of recorded conversations.")
    types: list[Literal["memory", "message", "summary"]] | None = Field(
        default=None, min_length=1, max_length=3,
        description="What to search: memory, message (turns), summary (of sessions). Default: memories, "
        "and turns unless include_messages is false.")
    synthesize_questions: StrictBool = Field(
        default=False, description="Also search the questions the memory should answer about the query "
        "(a model's, or an offline expansion: LORE_QUESTIONS), fused by reciprocal rank.")
    recent_messages: list[str] = Field(default_factory=list, max_length=50,
                                       description="The turns before the query: context for its questions.")
    # (the bounds before the validator: after it, pydantic writes them as `ge`/`le`, not JSON Schema's)
    mmr_lambda: Annotated[float, Field(ge=0, le=1), BeforeValidator(_number)] | None = Field(
        default=None,
        description="Diversify by maximal marginal relevance: 1 = plain relevance, 0.5-0.7 keeps "
        "near-duplicates apart. Default: off.")
    context_rules: StrictBool = Field(
        default=False, description="Apply the context block's rules: leave out turns that say little "
        "(an acknowledgement, a greeting) unless they name what was asked, anything that repeats a hit "
        "before it (a memory takes the place of a turn that says the same), and hits below min_relevance.")
    min_relevance: Annotated[float, Field(ge=-1, le=1), BeforeValidator(_number)] | None = Field(
        default=None,
        description="Leave out hits whose own vector's cosine to the query is below this (each hit's "
        "scores then hold its `cosine`). With context_rules and no value: the context block's default.")

    _has_a_word = field_validator("query")(classmethod(lambda cls, text: names_a_word(text)))


class HitSource(BaseModel):
    episode_id: str | None = None
    session_id: str | None = None
    role: str | None = None
    occurred_at: datetime | None = None
    position: int | None = None


class SearchHit(BaseModel):
    type: Literal["memory", "message", "summary"]
    id: str
    content: str
    score: float = Field(description="Final score: fused rank, reranked by recency, importance, use.")
    scores: dict[str, float] = Field(description="Per source: vector (cosine), text (BM25), graph, rrf; "
                                     "cosine: the hit's own vector against the query, where measured.")
    ranks: dict[str, int] = Field(description="Rank in each source that found it, from 1.")
    kind: str | None = None
    attribute: str | None = None
    value: str | None = None
    status: str | None = None
    valid_from: datetime | None = None
    valid_until: datetime | None = None
    superseded_by: str | None = None
    recorded_at: datetime | None = None
    importance: float | None = None
    source: HitSource | None = None


class Degraded(BaseModel):
    """A source the answer could not run, or ran on part of the store: the answer holds what the
    others found. A search that cannot run at all is refused instead (503)."""

    source: Literal["vector", "questions"] = Field(
        description="vector: the vector index; questions: the questions a model synthesizes "
        "(LORE_QUESTIONS).")
    code: str = Field(description="embedder_changed (the store's vectors are another model's), "
                      "reembed_in_progress (a move between models is half done), embedder_off (no "
                      "embedder, a store with vectors), embedder_failed (the model or its endpoint failed or "
                      "was slow), "
                      "questions_failed.")
    detail: str = Field(description="What happened, and what the answer holds instead.")
    fix: str | None = Field(default=None, description="The command or setting that mends it, for the "
                            "operator.")


class SearchResponse(BaseModel):
    query: str
    hits: list[SearchHit]
    took_ms: float
    questions: list[str] = Field(default_factory=list, description="The questions searched beside the query.")
    questions_ms: float | None = Field(default=None, description="What synthesizing them took.")
    note: str | None = Field(default=None, description="Why nothing was recalled, when the person's "
                             "memory is off or a temporary session is on.")
    degraded: list[Degraded] = Field(
        default_factory=list, description="Each source the search left out, and why; empty when every "
        "source ran over the whole store. Non-empty: the hits are what the other sources found.")


class ContextMessage(BaseModel):
    role: Literal["user", "assistant", "system", "tool"]
    content: str = Field(min_length=1, max_length=MAX_MESSAGE_CHARS)


class ContextRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{
        "message": "Can you suggest a setup for my new laptop?",
        "recent_messages": [{"role": "user", "content": "I just got a new laptop"}],
        "token_budget": 800,
    }]})

    message: str = Field(min_length=1, max_length=MAX_CONTEXT_MESSAGE_CHARS,
                         description="What the person just said (a long one is searched by its most "
                         "telling words).")
    recent_messages: list[ContextMessage] = Field(default_factory=list, max_length=50)
    token_budget: Count = Field(default=1000, ge=50, le=32_000)
    format: Literal["text", "markdown", "json"] = Field(
        default="text", description="text or markdown to paste into a prompt; json: the sections as data.")
    synthesize_questions: StrictBool = Field(default=True, description="Search the questions the memory "
                                             "should answer about the message too (LORE_QUESTIONS).")
    min_relevance: Annotated[float, Field(ge=-1, le=1), BeforeValidator(_number)] | None = Field(
        default=None, description="The relevance floor: a memory or turn is relevant when its "
        "own vector's cosine to the message (or a question synthesized from it) is at least this. Default: "
        "the measured default (see the response's min_relevance).")
    relevant_limit: Count = Field(default=10, ge=1, le=50,
                                description="At most this many relevant memories and turns.")


class ContextItem(BaseModel):
    type: Literal["profile", "summary", "memory", "message"]
    id: str = Field(description="The memory, summary or message id; v<N> for the profile's version.")
    text: str


class ContextSection(BaseModel):
    name: Literal["profile", "recent_sessions", "always", "todos", "relevant"]
    title: str
    items: list[ContextItem]


class Citations(BaseModel):
    memories: list[str]
    summaries: list[str]
    messages: list[str]
    profile_version: int | None = Field(description="The profile version it holds; null: none.")
    labels: dict[str, str] = Field(default_factory=dict, description="A short label of each cited item, "
                                   "by id (to show a person what was used; feedback: POST .../feedback).")


class ContextResponse(BaseModel):
    text: str = Field(description="Paste into the system prompt (format json: the sections as JSON). "
                      "Its first lines: a title and the instruction.")
    instruction: str = Field(description="The one line the block opens with: how the model is to use it.")
    relevant_count: int = Field(description="How many memories and turns passed the relevance rules (floor, "
                                "no filler, nothing twice), before the token budget.")
    min_relevance: float | None = Field(description="The relevance floor applied (null: none).")
    tokens: int = Field(description="Tokens of `text`, counted by `tokenizer`: at most token_budget.")
    tokenizer: str = Field(description="cl100k_base (GPT-4's): a real count, not characters / 4.")
    sections: list[ContextSection] = Field(description="The layers it holds, in order; empty ones left out.")
    cited: Citations = Field(description="Every memory, summary and turn it holds, by id.")
    questions: list[str] = Field(description="The questions searched beside the message.")
    timings_ms: dict[str, float] = Field(description="layers, questions, search: where the time went.")
    memories: list[SearchHit] = Field(description="The memories and turns it holds (always-loaded, to-dos, "
                                      "relevant), in its order.")
    note: str | None = Field(default=None, description="Why it holds nothing, when the person's memory is "
                             "off or a temporary session is on.")
    degraded: list[Degraded] = Field(
        default_factory=list, description="Each source its search left out, and why (as /search says); "
        "the text then ends with a line saying that recall was partial.")


class SummaryOut(BaseModel):
    summary_id: str
    session_id: str
    summary: str = Field(description="2–3 sentences, from the person's side.")
    topics: list[str]
    user_intent: str | None
    emotional_tone: str | None
    key_facts: list[str]
    unresolved: str | None
    summarized_by: str = Field(description="The model, or narrative/1 (the offline summary).")
    fallback: bool = Field(description="The offline summary, standing in for a model that failed: "
                           "it is tried again.")
    failure: str | None = None
    pending: bool = Field(description="The session went on: a newer summary is being made.")
    summarized_at: datetime
    said_until: datetime = Field(description="When the session's last message was said (the list's order).")
    episode_ids: list[str] = Field(description="The conversations it summarizes.")


class SummaryPage(BaseModel):
    items: list[SummaryOut] = Field(description="Newest first.")
    next_offset: int | None = Field(description="Pass as `offset` for the next page; null: no more.")
    summaries: list[SummaryOut] = Field(default_factory=list, deprecated="the same as `items`, which every "
                                        "list answers with; `summaries` goes in the next release",
                                        description="Deprecated: read `items`.")


class BasicInfoOut(BaseModel):
    key: str
    value: str


class ProfileOut(BaseModel):
    user_id: str
    version: int = Field(description="0: no profile yet.")
    narrative: str = Field(description="A few paragraphs on who the person is; empty when there is none yet.")
    basic_info: list[BasicInfoOut]
    written_by: str | None = Field(description="The model, or profile/1 (composed offline).")
    reason: str | None = Field(description="Why this version was written.")
    revised_at: datetime | None
    summaries: list[str] = Field(description="The session summaries it read (ids).")
    note: str | None = Field(default=None, description="Said plainly when there is no profile yet.")


class ProfileHistory(BaseModel):
    user_id: str
    items: list[ProfileOut] = Field(description="Newest first.")
    next_offset: int | None = Field(default=None, description="Pass as `offset` for the next page; null: "
                                    "no more.")
    versions: list[ProfileOut] = Field(default_factory=list, deprecated="the same as `items`, which every "
                                       "list answers with; `versions` goes in the next release",
                                       description="Deprecated: read `items`.")


class UserSettingsUpdate(BaseModel):
    """A person's own settings; a field left out keeps its value."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{
        "episode_retention_days": 90, "pinned_kinds": ["lesson"]}]})

    episode_retention_days: Annotated[int, Field(ge=0, le=36_500), BeforeValidator(_number)] | None = Field(
        default=None, description="How long the words of a conversation are kept (0: for good); what was "
        "taken from them stays.")
    pinned_kinds: list[MemoryKind] | None = Field(default=None, max_length=len(MemoryKind),
                                                  description="Kinds that never fade.")
    memory: StrictBool | None = Field(default=None, description="off: nothing new is remembered, nothing "
                                      "recalled.")
    extraction: StrictBool | None = Field(default=None, description="off: no memory is taken from "
                                          "conversations unless asked.")
    citations: StrictBool | None = Field(default=None, description="off: context blocks do not list what "
                                         "they used.")
    temporary: StrictBool | None = Field(default=None, description="on: a no-memory session until turned "
                                         "off.")
    command_id: Identifier | None = None


class PersonSettings(BaseModel):
    """A person's settings as they stand (null: the deployment's default)."""

    episode_retention_days: int | None = None
    pinned_kinds: list[str] = Field(default_factory=list)
    memory: bool = True
    extraction: bool = True
    citations: bool = True
    temporary: bool = False


class MaintenanceRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    as_of: Instant | None = Field(default=None, description="The moment the rules apply at (default: now).")
    user_id: Identifier | None = Field(default=None, description="Only this person.")
    dry_run: StrictBool = Field(default=False, description="Say what would change, change nothing.")
    # Each person's command of the run is named maintain-{run_id}: a command id holds 200.
    run_id: str | None = Field(default=None, min_length=1, max_length=150, pattern=IDENTIFIER_PATTERN,
                               description="Names the run: a run of the same id again changes no one "
                               "twice (default: a new id).")


class MaintenanceRunView(BaseModel):
    """A run's report: people processed, memories evaluated, and what became of them."""

    run_id: str
    as_of: datetime
    dry_run: bool = False
    started_at: datetime | None = None
    finished_at: datetime | None = None
    users: int = 0
    evaluated: int = 0
    forgotten: int = 0
    demoted: int = 0
    compressed: int = 0
    contradictions: int = 0
    expired: int = 0
    duration_s: float | None = None


class MaintenanceRunPage(BaseModel):
    items: list[MaintenanceRunView]
    next_offset: int | None = Field(default=None, description="Pass as `offset` for the next page; null: "
                                    "no more.")


RunState = Literal["running", "done", "failed", "interrupted"]
RUN_STATES = ("running: its work goes on (progress says how far); done: `report` holds what it came to; "
              "failed: `error` says why; interrupted: the process running it stopped before it ended "
              "(`note` says what to do)")


class RunProgress(BaseModel):
    done: int = Field(description="People (or items) done so far.")
    total: int | None = Field(default=None, description="How many there are in all (null: not counted yet).")


class PersonRunStatus(BaseModel):
    """A person's write that ran in the background (an erasure, a purge), as it stands."""

    run_id: str = Field(description="The command's id.")
    kind: Literal["erasure", "purge"]
    state: RunState = Field(description=RUN_STATES)
    command_id: str
    progress: RunProgress
    outcome: Literal["applied", "duplicate", "rejected"] | None = Field(
        default=None, description="What became of the command, once done: applied, duplicate (it took "
        "effect before), rejected (`code` and `detail` say why).")
    code: str | None = None
    detail: str | None = None
    error: str | None = None
    note: str | None = Field(default=None, description="What happens to an interrupted run.")
    started_at: datetime | None = None
    updated_at: datetime | None = None
    finished_at: datetime | None = None


class MaintenanceRunStatus(BaseModel):
    """A maintenance run as it stands: while it runs, its progress; once done, its report."""

    run_id: str
    state: RunState = Field(description=RUN_STATES)
    dry_run: bool
    progress: RunProgress
    report: MaintenanceRunView | None = Field(default=None, description="What the run came to, once done "
                                              "(a dry run: what it would change).")
    error: str | None = None
    note: str | None = Field(default=None, description="What to do about an interrupted run.")
    started_at: datetime | None = None
    updated_at: datetime | None = Field(default=None, description="Its last sign of life.")
    finished_at: datetime | None = None


class KeyView(BaseModel):
    """What the key a request carries may do."""

    tenant: str = Field(description="The tenant whose people the key reaches.")
    scope: Literal["read", "write", "admin"]
    key_id: str | None = Field(description="The key's id (`lore keys list`); none when keys are off, or "
                               "for a page link.")
    user_id: str | None = Field(default=None, description="A page link's person: the one it opens.")


class TopicForget(BaseModel):
    """Forget everything about a topic: shown first (`dry_run`, the default), then done."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [
        {"topic": "my old job at Acme"},
        {"topic": "my ex Tom", "purge": True, "dry_run": False},
    ]})

    topic: str = Field(min_length=1, max_length=2_000, description="What to forget, in words: at least one "
                       "letter or digit, and one word that is more than a function word ('what', 'my').",
                       json_schema_extra={"pattern": HAS_A_WORD})
    since: Instant | None = Field(default=None, description="Only what was said (or became true) from then.")
    until: Instant | None = Field(default=None, description="Only what was said before then.")
    min_relevance: Number = Field(default=0.45, ge=0.0, le=1.0, description=(  # services/topics.py
        "How much of the topic a thing must name to be taken: the share of its words it holds, each "
        "weighed by how rare it is in the language (1: all of them)."))
    purge: StrictBool = Field(default=False,
                              description="Delete for good (as ?purge=true does for one memory).")
    dry_run: StrictBool = Field(default=True, description="Only show what would be forgotten (the default).")
    command_id: str | None = Field(default=None, min_length=1, max_length=200, pattern=IDENTIFIER_PATTERN)

    _has_a_word = field_validator("topic")(classmethod(lambda cls, text: names_a_word(text)))


class TopicItemOut(BaseModel):
    type: Literal["memory", "message", "summary"]
    id: str
    content: str
    relevance: float = Field(description="How much of the topic it names (0 to 1).")
    at: datetime | None = Field(default=None, description="When it was said (a memory: since when true).")
    session_id: str | None = None


class TopicForgetOut(BaseModel):
    topic: str
    dry_run: bool
    purge: bool
    items: list[TopicItemOut] = Field(description="What is (or would be) forgotten, most about it first.")
    memories: int
    messages: int
    summaries: int
    command_id: str | None = Field(default=None, description="The decision's command (not for a dry run).")
    status: Literal["accepted", "applied", "duplicate"] | None = None


class MemoryCorrection(BaseModel):
    """New words for a memory in force: recorded as a correction, the old wording kept in its history."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [
        {"content": "Ada's cat is called Miso"},
        {"content": "Ada lives in Porto", "value": "Porto"},
    ]})

    content: str = Field(min_length=1, max_length=MAX_MEMORY_CHARS, description="The corrected words.")
    value: str | None = Field(default=None, max_length=1_000, description="For a memory with a slot: its "
                              "corrected value (default: the value it has).")
    command_id: Identifier | None = Field(default=None, description="Idempotency key (default: a new id).")


class ImportChange(BaseModel):
    action: Literal["record", "correct", "forget", "complete", "reopen"] = Field(
        description="record: a new line; correct: a line whose words changed; forget: a memory whose "
        "line was removed; complete / reopen: a to-do's box ticked or cleared.")
    line: int | None = Field(description="The line of the file (null: the line was removed).")
    content: str
    kind: str
    memory_id: str | None = None
    was: str | None = Field(default=None, description="For a correction: the words it replaces.")


class ImportOut(BaseModel):
    dry_run: bool
    changes: list[ImportChange] = Field(description="What the file changes, in its order; removed lines "
                                        "last.")
    recorded: int
    corrected: int
    forgotten: int
    completed: int
    reopened: int
    unchanged: int = Field(description="Lines that change nothing.")
    command_id: str | None = Field(default=None, description="The revision's command (not for a dry run).")
    status: Literal["accepted", "applied", "duplicate"] | None = None


class PageTokenRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"ttl_s": 3600}]})

    ttl_s: int = Field(default=3600, ge=1, le=86_400, description="How long the link opens the page, in "
                       "seconds: at most a day.")
    scope: Literal["read", "write"] = Field(default="write", description="read: the page shows; write: the "
                                            "person can also correct, forget and delete (never more than "
                                            "the key that asks).")


class PageTokenOut(BaseModel):
    user_id: str
    token: str = Field(description="Signed: opens this person's page, and their own routes of the API, "
                       "nothing else of the tenant.")
    url: str = Field(description="The page's link (path and query; put your Lore's address before it).")
    scope: Literal["read", "write"]
    expires_at: datetime


ChangeType = Literal[
    "memory.recorded", "memory.superseded", "memory.corrected", "memory.forgotten", "memory.restored",
    "memory.purged", "memory.merged", "memory.reinforced", "memory.feedback", "topic.forgotten",
    "todo.completed", "todo.reopened", "summary.written", "profile.revised", "episode.recorded",
    "settings.changed", "person.erased"]


class Change(BaseModel):
    """One change to a person's memory, as the change stream sends it (its SSE `data`)."""

    id: str = Field(description="Where it is in the log: send it back as `Last-Event-ID` to go on after it.")
    type: ChangeType
    user_id: str = Field(description="The person, as the tenant knows them.")
    at: datetime = Field(description="When Lore recorded it.")
    command_id: str
    memory_id: str | None = Field(default=None, description="The memory it is about.")
    memory_ids: list[str] = Field(default_factory=list, description="memory.purged, topic.forgotten, "
                                  "memory.merged: every memory it took.")
    by_memory_id: str | None = Field(default=None, description="superseded / corrected: what holds it now.")
    kind: str | None = None
    content: str | None = Field(default=None, description="The words (a purged memory's read [purged]).")
    attribute: str | None = None
    value: str | None = None
    valid_from: datetime | None = None
    valid_until: datetime | None = None
    due_at: datetime | None = None
    confidence: float | None = None
    verdict: str | None = None
    reason: str | None = None
    topic: str | None = None
    purged: bool | None = None
    summary_id: str | None = None
    session_id: str | None = None
    episode_id: str | None = None
    turns: int | None = None
    version: int | None = None


class ComponentHealth(BaseModel):
    ready: bool
    detail: str = Field(description="What was checked, or why it failed.")


class HealthReason(BaseModel):
    """Why Lore is degraded, and what mends it."""

    component: Literal["neo4j", "event_log", "worker", "embedder"]
    code: str = Field(description="graph_unavailable, projection_mismatch, projection_outdated, "
                      "event_log_unavailable, worker_retrying, embedder_changed, reembed_in_progress, "
                      "embedder_off, embedder_failed.")
    detail: str
    fix: str | None = Field(default=None, description="The command or setting that mends it.")
    blocking: bool = Field(description="true: the API cannot serve its main job while it lasts (503).")


class Health(BaseModel):
    status: Literal["ok", "degraded"]
    reasons: list[HealthReason] = Field(
        default_factory=list, description="Why it is degraded (empty when ok), each with its fix.")
    neo4j: ComponentHealth = Field(description="With LORE_NEO4J_SHARDS, every shard: ready when each is; "
                                   "while one is down the others still serve their people.")
    event_log: ComponentHealth
    worker: ComponentHealth | None = Field(
        default=None, description="The Kafka worker in this process, when there is one.")
    extraction: ComponentHealth | None = Field(
        default=None, description="The extraction process in this process, when it runs here. A failing "
        "one leaves its work due (answered once it recovers): it does not make Lore degraded.")
    layers: ComponentHealth | None = Field(
        default=None, description="The process that writes summaries and profiles, when it runs here; a "
        "model that fails leaves the offline summary in place, marked, and is asked again.")
    embedder: ComponentHealth | None = Field(
        default=None, description="The embedding model, and whether the store's vectors are its own "
        "(null: LORE_EMBEDDER=none over a store without vectors).")


