"""Events: what Lore decided. Past-tense names, immutable, versioned, one envelope for all."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from domain.commands import Message, MessageRef, ProposedVerdict, UseCount
from domain.extraction.candidate import Candidate, Relation
from domain.layers.model import BasicInfo, SessionSummary
from domain.model import MemoryKind, UtcDatetime
from domain.vectors import Embedding as Embedding  # re-exported: where events are, so are their vectors
from domain.vectors import ItemVector


class _Event(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    schema_version: int = Field(default=1, description="Bumped when the shape changes; see codec.")
    event_id: str
    user_id: str
    command_id: str = Field(description="The command this event was decided from.")
    occurred_at: UtcDatetime = Field(description="When it happened, as the client said.")
    recorded_at: UtcDatetime = Field(description="When Lore decided it (transaction time).")

    current_version: ClassVar[int] = 1


class MemoryRecorded(_Event):
    type: Literal["MemoryRecorded"] = "MemoryRecorded"
    memory_id: str
    kind: MemoryKind
    category: str | None = Field(default=None, description="The deployment's category, if it names them.")
    content: str
    attribute: str | None = None
    value: str | None = None
    valid_from: UtcDatetime
    valid_until: UtcDatetime | None = None
    importance: float = 0.5
    confidence: float = 1.0
    source: str | None = None
    entities: tuple[str, ...] = ()
    episode_id: str | None = None
    embedding: Embedding | None = None
    # Memory formation: what decided it (None: the client, as sent), when a to-do is due, whether
    # the person said it (or a model inferred it), the messages it was taken from, what it merged.
    decided_by: str | None = None
    due_at: UtcDatetime | None = None
    remind_at: UtcDatetime | None = None
    asserted: bool = True
    messages: tuple[MessageRef, ...] = ()
    merged_from: tuple[str, ...] = ()
    entity_types: tuple[tuple[str, str], ...] = ()
    relations: tuple[Relation, ...] = ()


class MemorySuperseded(_Event):
    """`memory_id` stopped being true at `valid_until`, replaced by `by_memory_id`."""

    type: Literal["MemorySuperseded"] = "MemorySuperseded"
    memory_id: str
    by_memory_id: str
    valid_until: UtcDatetime
    decided_by: str | None = None
    reason: str | None = None


class MemoryCorrected(_Event):
    """The person corrected the words of `memory_id`: `by_memory_id` holds them now, over the same
    window, and the old wording holds no time any more (`valid_until` = its own `valid_from`). As
    known before the correction, the old wording stands; its history keeps it."""

    type: Literal["MemoryCorrected"] = "MemoryCorrected"
    memory_id: str
    by_memory_id: str
    valid_until: UtcDatetime
    decided_by: str | None = None
    reason: str | None = None


class MemoryReinforced(_Event):
    """The same value was stated again: no new memory, more confidence, another source."""

    type: Literal["MemoryReinforced"] = "MemoryReinforced"
    memory_id: str
    confidence: float
    source: str | None = None
    importance: float | None = Field(default=None, description="Raised by a consolidation; None: unchanged.")
    decided_by: str | None = None
    messages: tuple[MessageRef, ...] = Field(default=(), description="The messages that said it again.")


class EpisodeRecorded(_Event):
    """v2: `embeddings`, one per message (or none), so that each turn is searchable on its own."""

    type: Literal["EpisodeRecorded"] = "EpisodeRecorded"
    schema_version: int = 2
    episode_id: str
    session_id: str
    messages: tuple[Message, ...]
    embeddings: tuple[Embedding | None, ...] = Field(default=(), description="None: purged (its words too).")
    expires_at: UtcDatetime | None = Field(default=None, description="When its words leave the graph "
                                           "(None: kept).")

    current_version: ClassVar[int] = 2


class MemoryForgotten(_Event):
    """`reason`: the person's, or `decayed` by a maintenance run (`run_id`, with the usage it
    decided on, so that a replay needs no usage statistics)."""

    type: Literal["MemoryForgotten"] = "MemoryForgotten"
    memory_id: str
    reason: str | None = None
    run_id: str | None = None
    relevance: float | None = None
    access_count: int | None = None
    last_used_at: UtcDatetime | None = None


class MemoryDecayed(_Event):
    """A maintenance run found the memory fading: its importance is lowered."""

    type: Literal["MemoryDecayed"] = "MemoryDecayed"
    memory_id: str
    run_id: str
    relevance: float
    access_count: int
    last_used_at: UtcDatetime
    importance: float
    previous_importance: float


class MemoryCompressed(_Event):
    """`memory_id` (recorded just before) keeps what the old low-use `compressed_from` said;
    they are kept, with status compressed, and can be restored."""

    type: Literal["MemoryCompressed"] = "MemoryCompressed"
    memory_id: str
    compressed_from: tuple[str, ...]
    run_id: str
    compressor: str


class EpisodeExpired(_Event):
    """The words and vectors of a conversation leave the graph; what was taken from it stays."""

    type: Literal["EpisodeExpired"] = "EpisodeExpired"
    episode_id: str
    run_id: str | None = None


class MaintenanceApplied(_Event):
    """One person's part of a maintenance run, counted for its report."""

    type: Literal["MaintenanceApplied"] = "MaintenanceApplied"
    run_id: str
    as_of: UtcDatetime
    started_at: UtcDatetime
    evaluated: int
    forgotten: int = 0
    demoted: int = 0
    compressed: int = 0
    contradictions: int = 0
    expired: int = 0


class UserConfigured(_Event):
    """The person's settings after the change (None: the deployment's default)."""

    type: Literal["UserConfigured"] = "UserConfigured"
    episode_retention_days: int | None = None
    pinned_kinds: tuple[MemoryKind, ...] = ()
    memory: bool = True
    extraction: bool = True
    citations: bool = True
    temporary: bool = False


class EmbeddingsReplaced(_Event):
    """Items of the person's got vectors of another model (`lore reembed`)."""

    type: Literal["EmbeddingsReplaced"] = "EmbeddingsReplaced"
    model: str
    vectors: tuple[ItemVector, ...]


class MemoryPurged(_Event):
    """Memories deleted for good at the person's request, and the turns their words came from: the
    keys of their words were destroyed before this was logged, so the log reads them no more."""

    type: Literal["MemoryPurged"] = "MemoryPurged"
    memory_ids: tuple[str, ...] = Field(description="The memory asked for, and the memories merged or "
                                        "compressed with it (they hold the same words).")
    messages: tuple[MessageRef, ...] = Field(default=(), description="The turns their words came from.")
    summaries: tuple[str, ...] = Field(default=(), description="The summaries of those turns' sessions.")


class TopicForgotten(_Event):
    """The person forgot a topic: these turns are hidden (`topic_id` hides them), and the memories
    forgotten (or purged) and summaries written anew by the events beside it."""

    type: Literal["TopicForgotten"] = "TopicForgotten"
    topic_id: str
    topic: str
    memory_ids: tuple[str, ...] = ()
    messages: tuple[MessageRef, ...] = ()
    summaries: tuple[str, ...] = ()
    purged: bool = False


class MemoryRestored(_Event):
    type: Literal["MemoryRestored"] = "MemoryRestored"
    memory_id: str


class TodoCompleted(_Event):
    type: Literal["TodoCompleted"] = "TodoCompleted"
    memory_id: str
    completed_at: UtcDatetime


class TodoReopened(_Event):
    type: Literal["TodoReopened"] = "TodoReopened"
    memory_id: str


class FeedbackGiven(_Event):
    """A verdict on a cited memory, and the confidence it leaves the memory with."""

    type: Literal["FeedbackGiven"] = "FeedbackGiven"
    memory_id: str
    verdict: Literal["helpful", "wrong"]
    note: str | None = None
    confidence: float = Field(description="The memory's confidence after the verdict.")


class MemoriesUsed(_Event):
    """Memories a caller received: listed in search answers (`found`), cited in context blocks
    (`cited`), counted since the batch before; `occurred_at` is the latest use."""

    type: Literal["MemoriesUsed"] = "MemoriesUsed"
    found: tuple[UseCount, ...] = ()
    cited: tuple[UseCount, ...] = ()


class MemoryMerged(_Event):
    """`memory_id` now holds what `merged_from` said (recorded just before, with every detail of
    them); the originals are kept, with status merged."""

    type: Literal["MemoryMerged"] = "MemoryMerged"
    memory_id: str
    merged_from: tuple[str, ...]
    decided_by: str
    reason: str


class SessionAdvanced(_Event):
    """Where a session stands for extraction after this command: its size, the messages not
    extracted yet (`pending`, `pending_turns` of them the person's) and the latest ones."""

    type: Literal["SessionAdvanced"] = "SessionAdvanced"
    session_id: str
    messages: int
    pending_turns: int
    pending: tuple[MessageRef, ...]
    recent: tuple[MessageRef, ...]
    ended: bool = False


class ExtractionDue(_Event):
    """These messages are to be extracted (`trigger`: turns | session_end | asked). Lore's
    extraction process answers each with one RecordExtraction."""

    type: Literal["ExtractionDue"] = "ExtractionDue"
    extraction_id: str
    session_id: str
    trigger: Literal["turns", "session_end", "asked"]
    window: tuple[MessageRef, ...]
    model: str | None = Field(default=None, description="A model asked for (else the deployment's).")


class Verdict(BaseModel):
    """What consolidation made of one candidate, and why."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    candidate: int
    verdict: Literal["new", "same", "merge", "update", "distinct", "kept_out"]
    memory_id: str | None = Field(default=None, description="The memory it became or reinforced.")
    other: tuple[str, ...] = Field(default=(), description="The memories it was judged against.")
    reason: str
    decided_by: str | None = Field(default=None, description="A model that judged it (else the rules).")


class MemoriesExtracted(_Event):
    """An extraction as it happened: its input, what answered, what it cost, what it found, and
    each verdict of consolidation. The memory events that follow carry them out."""

    type: Literal["MemoriesExtracted"] = "MemoriesExtracted"
    extraction_id: str
    session_id: str
    window: tuple[MessageRef, ...]
    extractor: str
    prompt_version: str | None = None
    raw_output: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    skipped: str | None = None
    candidates: tuple[Candidate, ...] = ()
    proposed: tuple[ProposedVerdict | None, ...] = ()
    verdicts: tuple[Verdict, ...] = ()


class UserErased(_Event):
    """Everything about the person goes. `command_keys`: their commands until now (keys, not the
    ids they chose), which keep answering "done" after the erasure — a command sent again, or
    consumed again after a crash, must not bring any of it back — also in a replay that can no
    longer read the commands' own entries (their key destroyed)."""

    type: Literal["UserErased"] = "UserErased"
    command_keys: tuple[str, ...] = ()


class CommandRejected(_Event):
    """The domain refused the command: recorded, so that its id answers the same way again."""

    type: Literal["CommandRejected"] = "CommandRejected"
    command_type: str
    code: str = Field(description="Machine-readable reason, e.g. memory_not_found.")
    reason: str = Field(description="What was wrong, in words.")


class SummaryDue(_Event):
    """A session is to be summarized (it ended, or was extracted on request, or what the person
    forgot or restored changed what it may say: `revised`); one summary per session, which a later
    SummaryDue of the same session replaces. A revised one is withheld until it is written anew."""

    type: Literal["SummaryDue"] = "SummaryDue"
    summary_id: str
    due_id: str
    session_id: str
    trigger: Literal["session_end", "asked", "revised"]


class SessionSummarized(_Event):
    """A session's summary as it was made: by what, from which messages, at what cost; or why
    there is none (`skipped`). `fallback`: the offline summary stands in for a model that failed."""

    type: Literal["SessionSummarized"] = "SessionSummarized"
    summary_id: str
    due_id: str
    session_id: str
    window: tuple[MessageRef, ...] = ()
    summarizer: str
    prompt_version: str | None = None
    raw_output: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    skipped: str | None = None
    fallback: bool = False
    failure: str | None = None
    summary: SessionSummary | None = None
    said_until: UtcDatetime | None = None
    embedding: Embedding | None = None


class ProfileDue(_Event):
    """The person's profile is to be written anew, and why."""

    type: Literal["ProfileDue"] = "ProfileDue"
    reason: str
    withhold: bool = Field(default=False, description="The current version may say what the person "
                           "forgot: it is not shown until the next is written.")


class ProfileRevised(_Event):
    """A version of the person's profile, as it was written."""

    type: Literal["ProfileRevised"] = "ProfileRevised"
    version: int
    narrative: str
    basic_info: tuple[BasicInfo, ...] = ()
    writer: str
    prompt_version: str | None = None
    raw_output: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    reason: str = ""
    summaries: tuple[str, ...] = ()
    failure: str | None = None


Event = Annotated[
    MemoryRecorded | MemorySuperseded | MemoryCorrected | MemoryReinforced | EpisodeRecorded
    | MemoryForgotten | MemoryRestored | UserErased | CommandRejected
    | MemoryMerged | SessionAdvanced | ExtractionDue | MemoriesExtracted
    | SummaryDue | SessionSummarized | ProfileDue | ProfileRevised | TodoCompleted | TodoReopened
    | MemoryDecayed | MemoryCompressed | EpisodeExpired | MaintenanceApplied | UserConfigured
    | FeedbackGiven | EmbeddingsReplaced | MemoriesUsed | MemoryPurged | TopicForgotten,
    Field(discriminator="type"),
]
