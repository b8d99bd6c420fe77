"""Commands: what a client asks Lore to do. Imperative names; validated on arrival."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationInfo, field_validator

from domain.extraction.candidate import Candidate
from domain.layers.model import BasicInfo, SessionSummary
from domain.model import MemoryKind, UtcDatetime
from domain.vectors import ItemVector

IDENTIFIER_PATTERN = r"^[A-Za-z0-9_.:@\-]+$"
Identifier = Annotated[str, Field(min_length=1, max_length=200, pattern=IDENTIFIER_PATTERN)]
# A person as Lore keeps them: the tenant's id, behind the tenant's name unless it is the default
# tenant's (domain/access.py). Clients send the bare id; the tenant comes from their key.
PERSON_PATTERN = r"^([a-z0-9][a-z0-9_\-]{0,62}/)?[A-Za-z0-9_.:@\-]+$"
PersonId = Annotated[str, Field(min_length=1, max_length=264, pattern=PERSON_PATTERN)]
EntityName = Annotated[str, Field(min_length=1, max_length=200)]

# Bounds of what one command may hold (README, "Bounds"): a larger input is refused by name.
MAX_MEMORY_CHARS = 10_000
MAX_ENTITIES = 50
MAX_MESSAGE_CHARS = 50_000
MAX_EPISODE_MESSAGES = 1_000
MAX_EPISODE_CHARS = 1_000_000


class _Command(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    command_id: Identifier = Field(description="Client-chosen id; the same id takes effect once.")
    user_id: PersonId = Field(description="The person whose memory this is (`tenant/id` outside the "
                              "default tenant).")
    occurred_at: UtcDatetime = Field(description="When the client saw it happen.")


class RecordMemory(_Command):
    type: Literal["RecordMemory"] = "RecordMemory"
    content: str = Field(min_length=1, max_length=MAX_MEMORY_CHARS, description="The memory in plain words.")
    kind: MemoryKind = MemoryKind.FACT
    attribute: str | None = Field(
        default=None, min_length=1, max_length=200,
        description="A slot that holds one value at a time (e.g. favorite_color); "
        "a new value supersedes the one in force.",
    )
    value: str | None = Field(default=None, max_length=1_000, description="The slot's value.")
    valid_from: UtcDatetime | None = Field(
        default=None, description="When it became true; defaults to occurred_at."
    )
    valid_until: UtcDatetime | None = Field(default=None, description="When it stopped being true.")
    importance: float = Field(default=0.5, ge=0.0, le=1.0)
    confidence: float = Field(default=1.0, ge=0.0, le=1.0)
    source: str | None = Field(default=None, max_length=500, description="Where it came from.")
    entities: tuple[EntityName, ...] = Field(default=(), max_length=MAX_ENTITIES,
                                             description="Names of what it is about.")
    episode_id: Identifier | None = Field(default=None, description="The conversation it was taken from.")
    due_at: UtcDatetime | None = Field(default=None, description="For a to-do: when it is due.")
    remind_at: UtcDatetime | None = Field(default=None, description="For a to-do: when to remind "
                                          "(default: an hour before it is due).")

    @field_validator("due_at", "remind_at")
    @classmethod
    def _for_todos(cls, moment: datetime | None, info: ValidationInfo) -> datetime | None:
        if moment is not None and info.data.get("kind") is not MemoryKind.TODO:
            raise ValueError(f"{info.field_name} is for to-dos (kind: todo)")
        return moment


class CompleteTodo(_Command):
    """The person did it: the to-do stays, done, until reopened."""

    type: Literal["CompleteTodo"] = "CompleteTodo"
    memory_id: Identifier
    completed_at: UtcDatetime | None = Field(default=None,
                                             description="When it was done (default: occurred_at).")


class ReopenTodo(_Command):
    type: Literal["ReopenTodo"] = "ReopenTodo"
    memory_id: Identifier


class GiveFeedback(_Command):
    """The person (or their assistant) says a memory Lore cited was helpful, or wrong."""

    type: Literal["GiveFeedback"] = "GiveFeedback"
    memory_id: Identifier
    verdict: Literal["helpful", "wrong"]
    note: str | None = Field(default=None, max_length=500, description="Why, in a few words.")


class UseCount(BaseModel):
    """How often one memory was used in a batch of use."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    memory_id: Identifier
    count: int = Field(default=1, ge=1, le=1_000_000)


MAX_USES = 10_000


class RecordUse(_Command):
    """What callers received of the person's memories since the last batch: the memories a search
    answer listed (`found`) and those a context block cited (`cited`). Lore's API sends it, batched;
    maintenance keeps what is used, and the rerank favours, a little, what is cited."""

    type: Literal["RecordUse"] = "RecordUse"
    found: tuple[UseCount, ...] = Field(default=(), max_length=MAX_USES)
    cited: tuple[UseCount, ...] = Field(default=(), max_length=MAX_USES)


MAX_VECTORS = 500


class ReplaceEmbeddings(_Command):
    """Vectors of another model for items of the person's, made by `lore reembed`: recorded, so
    that a replay puts them back without the model."""

    type: Literal["ReplaceEmbeddings"] = "ReplaceEmbeddings"
    model: str = Field(min_length=1, max_length=200)
    vectors: tuple[ItemVector, ...] = Field(min_length=1, max_length=MAX_VECTORS)

    @field_validator("vectors")
    @classmethod
    def _one_model(cls, vectors: tuple[ItemVector, ...], info: ValidationInfo) -> tuple[ItemVector, ...]:
        if any(v.embedding is None for v in vectors):
            raise ValueError("every vector must have its embedding")
        others = {v.embedding.model for v in vectors if v.embedding is not None} - {info.data.get("model")}
        if others:
            raise ValueError(f"every vector must be of the command's model, not {', '.join(sorted(others))}")
        return vectors


class Message(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    role: Literal["user", "assistant", "system", "tool"]
    content: str = Field(min_length=1, max_length=MAX_MESSAGE_CHARS)
    timestamp: UtcDatetime | None = None


def message_text(message: Message) -> str:
    """What a message says, as it is embedded and indexed."""
    return message.content


class RecordEpisode(_Command):
    type: Literal["RecordEpisode"] = "RecordEpisode"
    session_id: Identifier
    messages: tuple[Message, ...] = Field(min_length=1, max_length=MAX_EPISODE_MESSAGES)
    episode_id: Identifier | None = None

    @field_validator("messages")
    @classmethod
    def _bounded(cls, messages: tuple[Message, ...]) -> tuple[Message, ...]:
        total = sum(len(m.content) for m in messages)
        if total > MAX_EPISODE_CHARS:
            raise ValueError(f"an episode holds at most {MAX_EPISODE_CHARS:,} characters in all, "
                             f"this one {total:,}")
        return messages


class ForgetMemory(_Command):
    type: Literal["ForgetMemory"] = "ForgetMemory"
    memory_id: Identifier
    reason: str | None = Field(default=None, max_length=500)


class PurgeMemory(_Command):
    """Delete a memory for good: it, the memories merged or compressed with it, and the words of
    the turns they came from become unreadable in the log and leave the graph."""

    type: Literal["PurgeMemory"] = "PurgeMemory"
    memory_id: Identifier


MAX_TOPIC_ITEMS = 10_000


class ForgetTopic(_Command):
    """Forget (or purge) everything about a topic, as one decision: the memories, turns and session
    summaries Lore's search found about `topic` (the API chose them; this records which)."""

    type: Literal["ForgetTopic"] = "ForgetTopic"
    topic: str = Field(min_length=1, max_length=2_000, description="What the person asked to forget.")
    memory_ids: tuple[Identifier, ...] = Field(default=(), max_length=MAX_TOPIC_ITEMS)
    messages: tuple[MessageRef, ...] = Field(default=(), max_length=MAX_TOPIC_ITEMS)
    sessions: tuple[Identifier, ...] = Field(default=(), max_length=MAX_TOPIC_ITEMS,
                                             description="Sessions whose summary is about it.")
    purge: bool = Field(default=False, description="Delete for good (as a purge does), not restorably.")


MAX_REVISION_ITEMS = 10_000


class NewMemory(BaseModel):
    """A memory the person wrote themselves (a new line of their Markdown file)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    content: str = Field(min_length=1, max_length=MAX_MEMORY_CHARS)
    kind: MemoryKind = MemoryKind.FACT


class Correction(BaseModel):
    """New words for a memory in force. What the memory held besides its words (its slot, category,
    entities, to-do times, conversation) comes along, as the API read it; the decider holds the slot
    to the memory's own."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    memory_id: Identifier
    content: str = Field(min_length=1, max_length=MAX_MEMORY_CHARS, description="The corrected words.")
    attribute: str | None = Field(default=None, min_length=1, max_length=200)
    value: str | None = Field(default=None, max_length=1_000, description="The slot's value, as corrected.")
    category: str | None = Field(default=None, max_length=40)
    entities: tuple[EntityName, ...] = Field(default=(), max_length=MAX_ENTITIES)
    episode_id: Identifier | None = None
    due_at: UtcDatetime | None = None
    remind_at: UtcDatetime | None = None


class ReviseMemories(_Command):
    """The person's own edits as one decision, all of them or none: new memories, corrected wording
    (each recorded anew over the old one's window, the old kept in history), memories forgotten,
    to-dos completed or reopened."""

    type: Literal["ReviseMemories"] = "ReviseMemories"
    record: tuple[NewMemory, ...] = Field(default=(), max_length=MAX_REVISION_ITEMS)
    correct: tuple[Correction, ...] = Field(default=(), max_length=MAX_REVISION_ITEMS)
    forget: tuple[Identifier, ...] = Field(default=(), max_length=MAX_REVISION_ITEMS)
    complete: tuple[Identifier, ...] = Field(default=(), max_length=MAX_REVISION_ITEMS,
                                             description="To-dos done.")
    reopen: tuple[Identifier, ...] = Field(default=(), max_length=MAX_REVISION_ITEMS,
                                           description="To-dos not done after all.")
    source: str | None = Field(default=None, max_length=500, description="Where the edits came from.")


class RestoreMemory(_Command):
    type: Literal["RestoreMemory"] = "RestoreMemory"
    memory_id: Identifier


class EraseUser(_Command):
    type: Literal["EraseUser"] = "EraseUser"


class EndSession(_Command):
    """The conversation is over: what it said and was not extracted yet is extracted now."""

    type: Literal["EndSession"] = "EndSession"
    session_id: Identifier


class ExtractEpisode(_Command):
    """Extract the memories of a whole episode, now (whatever was extracted from it before)."""

    type: Literal["ExtractEpisode"] = "ExtractEpisode"
    episode_id: Identifier
    model: str | None = Field(default=None, min_length=1, max_length=200,
                              description="Extract with this model of the configured endpoint.")


class MessageRef(BaseModel):
    """One message of a person's conversation: the episode it came in, and its place there."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    episode_id: Identifier
    position: int = Field(ge=0, lt=MAX_EPISODE_MESSAGES)


class Similar(BaseModel):
    """A memory of the person's that is close to a candidate, and how close (cosine)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    memory_id: Identifier
    cosine: float = Field(ge=-1.0, le=1.0)


class ProposedVerdict(BaseModel):
    """A model's judgement of a candidate against the person's memories shown to it: proposed,
    and taken by the decider only where it is allowed (consolidate.py says where)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    verdict: Literal["same", "merge", "update", "distinct"]
    memory_id: Identifier | None = Field(default=None, description="The memory it is the same as, "
                                         "merges with or updates.")
    content: str | None = Field(default=None, max_length=2000,
                                description="For a merge: one sentence keeping every detail of both.")
    reason: str = Field(default="", max_length=500)
    by: str = Field(min_length=1, max_length=200, description="The model and prompt version.")


MAX_CANDIDATES = 200
MAX_RAW_OUTPUT_CHARS = 200_000


class RecordExtraction(_Command):
    """What an extractor found in a window of a conversation: consolidated into the person's memory
    by the decider. Lore's extraction process sends it, in answer to an ExtractionDue; the
    model's raw answer and its cost travel with it, so that a replay needs no model."""

    type: Literal["RecordExtraction"] = "RecordExtraction"
    extraction_id: Identifier = Field(description="The ExtractionDue this answers.")
    session_id: Identifier
    window: tuple[MessageRef, ...] = Field(max_length=MAX_EPISODE_MESSAGES)
    extractor: str = Field(min_length=1, max_length=200, description="rules/2, or the model's name.")
    prompt_version: str | None = Field(default=None, max_length=100)
    raw_output: str | None = Field(default=None, max_length=MAX_RAW_OUTPUT_CHARS)
    prompt_tokens: int = Field(default=0, ge=0)
    completion_tokens: int = Field(default=0, ge=0)
    skipped: str | None = Field(default=None, max_length=200,
                                description="Why nothing was asked of the extractor (small talk, ...).")
    candidates: tuple[Candidate, ...] = Field(default=(), max_length=MAX_CANDIDATES)
    similar: tuple[tuple[Similar, ...], ...] = Field(
        default=(), description="Per candidate: the person's memories close to it, closest first.")
    proposed: tuple[ProposedVerdict | None, ...] = Field(
        default=(), description="Per candidate: a model's verdict against its similar memories, if asked.")

    @field_validator("similar", "proposed")
    @classmethod
    def _one_per_candidate(cls, per: tuple[object, ...], info: ValidationInfo) -> tuple[object, ...]:
        candidates = info.data.get("candidates", ())
        if per and len(per) != len(candidates):
            raise ValueError(f"one entry of {info.field_name} per candidate: {len(candidates)} "
                             f"candidates, {len(per)} entries")
        return per


class RecordSummary(_Command):
    """A session's summary, in answer to a SummaryDue: Lore's layers process sends it, with the
    model's raw answer and cost, or the offline fallback (`fallback`, and why: `failure`)."""

    type: Literal["RecordSummary"] = "RecordSummary"
    summary_id: Identifier
    due_id: Identifier = Field(description="The SummaryDue this answers.")
    session_id: Identifier
    window: tuple[MessageRef, ...] = Field(default=(), max_length=MAX_EPISODE_MESSAGES,
                                           description="The messages summarized.")
    summarizer: str = Field(min_length=1, max_length=200)
    prompt_version: str | None = Field(default=None, max_length=100)
    raw_output: str | None = Field(default=None, max_length=MAX_RAW_OUTPUT_CHARS)
    prompt_tokens: int = Field(default=0, ge=0)
    completion_tokens: int = Field(default=0, ge=0)
    skipped: str | None = Field(default=None, max_length=200, description="Why there is no summary.")
    fallback: bool = Field(default=False, description="The offline summary, standing in for a model "
                           "that failed: tried again later.")
    failure: str | None = Field(default=None, max_length=500)
    summary: SessionSummary | None = None
    said_until: UtcDatetime | None = Field(default=None, description="When its last message was said.")


class RecordProfile(_Command):
    """A new version of the person's profile, in answer to a ProfileDue."""

    type: Literal["RecordProfile"] = "RecordProfile"
    version: int = Field(ge=1, description="The version before plus one.")
    narrative: str = Field(max_length=20_000)
    basic_info: tuple[BasicInfo, ...] = Field(default=(), max_length=100)
    writer: str = Field(min_length=1, max_length=200, description="profile/1 (offline), or a model.")
    prompt_version: str | None = Field(default=None, max_length=100)
    raw_output: str | None = Field(default=None, max_length=MAX_RAW_OUTPUT_CHARS)
    prompt_tokens: int = Field(default=0, ge=0)
    completion_tokens: int = Field(default=0, ge=0)
    reason: str = Field(default="", max_length=500, description="Why it was revised.")
    summaries: tuple[Identifier, ...] = Field(default=(), max_length=100,
                                              description="The session summaries it read.")
    failure: str | None = Field(default=None, max_length=500, description="Why the model's was not taken.")
    changes: int = Field(default=0, ge=0, description="The changes of the person it was written after "
                         "(slots said, sessions summarized): fewer than there are now, and another is due.")


class ConfigureUser(_Command):
    """A person's own settings for how their memory ages; a field left out keeps its value."""

    type: Literal["ConfigureUser"] = "ConfigureUser"
    episode_retention_days: int | None = Field(
        default=None, ge=0, le=36_500,
        description="How long the words of a conversation are kept (0: for good; default: the deployment's).")
    pinned_kinds: tuple[MemoryKind, ...] | None = Field(
        default=None, max_length=len(MemoryKind), description="Kinds of memory that never fade.")
    memory: bool | None = Field(default=None, description="off: nothing new is remembered and nothing "
                                "is recalled; what is kept stays (and shows on the page).")
    extraction: bool | None = Field(default=None, description="off: conversations are kept, but no "
                                    "memory is taken from them unless asked (POST .../extract).")
    citations: bool | None = Field(default=None, description="off: context blocks do not list the "
                                   "memories they used.")
    temporary: bool | None = Field(default=None, description="on: a temporary, no-memory session: "
                                   "nothing is recorded or extracted, nothing recalled, until off.")


class DecayDecision(BaseModel):
    """What a maintenance run decided of one memory, with the usage it decided on."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    memory_id: Identifier
    relevance: float = Field(ge=0.0)
    access_count: int = Field(ge=0)
    last_used_at: UtcDatetime
    importance: float = Field(ge=0.0, le=1.0, description="The importance after the decision.")


class Compression(BaseModel):
    """Old low-use memories of one kind, and the 1-3 memories that keep what they said."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    memory_ids: tuple[Identifier, ...] = Field(min_length=2, max_length=100)
    contents: tuple[Annotated[str, Field(min_length=1, max_length=MAX_MEMORY_CHARS)], ...] = Field(
        min_length=1, max_length=3)
    compressor: str = Field(min_length=1, max_length=200, description="compress/offline-1, or the model.")
    prompt_tokens: int = Field(default=0, ge=0)
    completion_tokens: int = Field(default=0, ge=0)


class ContradictionDecision(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    memory_id: Identifier
    by_memory_id: Identifier
    valid_until: UtcDatetime


MAX_DECISIONS = 100_000


class MaintainMemory(_Command):
    """One person's part of a maintenance run: what the rules decided at `as_of` (domain/lifecycle)."""

    type: Literal["MaintainMemory"] = "MaintainMemory"
    run_id: Identifier
    as_of: UtcDatetime
    started_at: UtcDatetime = Field(description="When the run began.")
    evaluated: int = Field(ge=0, description="How many memories the run looked at.")
    forget: tuple[DecayDecision, ...] = Field(default=(), max_length=MAX_DECISIONS)
    demote: tuple[DecayDecision, ...] = Field(default=(), max_length=MAX_DECISIONS)
    compress: tuple[Compression, ...] = Field(default=(), max_length=1_000)
    contradictions: tuple[ContradictionDecision, ...] = Field(default=(), max_length=MAX_DECISIONS)
    expire_episodes: tuple[Identifier, ...] = Field(default=(), max_length=MAX_DECISIONS)


Command = Annotated[
    RecordMemory | RecordEpisode | ForgetMemory | RestoreMemory | EraseUser
    | EndSession | ExtractEpisode | RecordExtraction | RecordSummary | RecordProfile
    | CompleteTodo | ReopenTodo | ConfigureUser | MaintainMemory | GiveFeedback | ReplaceEmbeddings
    | RecordUse | PurgeMemory | ForgetTopic | ReviseMemories,
    Field(discriminator="type"),
]
command_adapter: TypeAdapter[Command] = TypeAdapter(Command)


def merged_sentences(command: RecordExtraction) -> list[str]:
    """The sentences of the merges a model proposed, in the order of their candidates."""
    return [p.content for p in command.proposed if p is not None and p.verdict == "merge" and p.content]
