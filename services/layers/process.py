"""The layers process: writes the session summaries and profile versions that are due.

Like the extraction process, its queue is the projection of the log (`(:Summary {status: 'due'})`,
`(:User {profile_due: true})`), so a crash loses nothing due; its answers are commands whose ids
come from what they answer, so nothing is written twice. A summary the model failed is stored as
the offline one, marked, and tried again after a pause that doubles, up to `attempts` tries.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from domain.commands import Message, MessageRef, RecordProfile, RecordSummary
from domain.layers.model import BasicInfo, SessionSummary
from domain.layers.profile import ProfileInputs
from domain.layers.summary import has_substance
from domain.model import derived_id
from projections.layers import DueProfile, DueSummary
from services.background import BackgroundProcess
from services.commands import CommandHandler, system_clock
from services.extraction.extractors import only_small_talk
from services.layers.writers import Written

log = logging.getLogger(__name__)

Partitions = Callable[[], Collection[int] | None]


class LayerReads(Protocol):
    def due_summaries(
        self,
        partitions: Collection[int] | None,
        limit: int = ...,
        *,
        retry: bool = ...,
        attempts: int = ...,
        later: Collection[str] = ...,
    ) -> list[DueSummary]: ...

    def session_messages(
        self, user_id: str, session_id: str, limit: int = ...
    ) -> list[tuple[MessageRef, Message]]: ...

    def due_profiles(
        self, partitions: Collection[int] | None, limit: int = ..., later: Collection[str] = ...
    ) -> list[DueProfile]: ...

    def profile_inputs(self, user_id: str, summaries: int = ...) -> tuple[ProfileInputs, tuple[str, ...]]: ...


class Summarizer(Protocol):
    name: str
    uses_model: bool

    def summarize(self, messages: Sequence[Message], at: datetime) -> Written: ...


class ProfileWriter(Protocol):
    name: str
    uses_model: bool

    def write(self, inputs: ProfileInputs) -> Written: ...


@dataclass
class _Retry:
    at: datetime
    pause_s: float


class LayersProcess(BackgroundProcess):
    name = "layers"

    def __init__(
        self,
        reads: LayerReads,
        handler: CommandHandler,
        summarizer: Summarizer,
        writer: ProfileWriter,
        *,
        retry_s: float = 60.0,
        attempts: int = 5,
        poll_s: float = 0.5,
        partitions: Partitions = lambda: None,
        clock: Callable[[], datetime] = system_clock,
    ) -> None:
        super().__init__(handler, poll_s)
        self.reads = reads
        self.summarizer = summarizer
        self.writer = writer
        self.retry_s = retry_s
        self.attempts = attempts
        self.partitions = partitions
        self.clock = clock
        self.retry: dict[str, _Retry] = {}  # summary id or person -> when it is tried again

    def run_once(self, limit: int = 20) -> int:
        """Write the summaries and profiles due now (up to `limit` of each); how many were written."""
        partitions = self.partitions()
        now = self.clock()
        later = {k for k, r in self.retry.items() if r.at > now}
        written = 0
        for due in self.reads.due_summaries(
            partitions, limit, retry=self.summarizer.uses_model, attempts=self.attempts, later=later
        ):
            if self._stop.is_set():
                return written
            written += self._one(due.summary_id, lambda d=due: self._summarize(d, partitions is not None))
        for profile in self.reads.due_profiles(partitions, limit, later=later):
            if self._stop.is_set():
                break
            written += self._one(profile.user_id, lambda p=profile: self._profile(p, partitions is not None))
        return written

    def _one(self, key: str, work: Callable[[], int]) -> int:
        """Do one piece of work; one that fails waits (doubling, to an hour) and holds up no other."""
        try:
            return work()
        except Exception as error:  # noqa: BLE001 - it stays due, and is tried again later
            self.failing = f"{type(error).__name__}: {error}"
            pause = min(self.retry[key].pause_s * 2 if key in self.retry else self.poll_s * 2, 3600.0)
            self.retry[key] = _Retry(self.clock() + timedelta(seconds=pause), pause)
            log.warning("%s failed, tried again in %.0f s: %s", key, pause, self.failing)
            return 0

    def _summarize(self, due: DueSummary, partitioned: bool) -> int:
        said = self.reads.session_messages(due.user_id, due.session_id)
        messages = [m for _, m in said]
        if not has_substance(messages) or only_small_talk(messages):
            written = Written(None, self.summarizer.name)
            skipped: str | None = "too short" if len(messages) < 3 else "only small talk"
        else:
            written, skipped = self.summarizer.summarize(messages, due.due_since), None
        summary = written.value if isinstance(written.value, SessionSummary) else None
        command = RecordSummary(
            command_id=f"summary-{due.due_id}-{due.attempts}",
            user_id=due.user_id,
            occurred_at=due.due_since,
            summary_id=due.summary_id,
            due_id=due.due_id,
            session_id=due.session_id,
            window=tuple(ref for ref, _ in said) if summary else (),
            summarizer=written.by,
            prompt_version=written.prompt_version,
            raw_output=written.raw_output,
            prompt_tokens=written.prompt_tokens,
            completion_tokens=written.completion_tokens,
            skipped=skipped,
            fallback=written.fallback,
            failure=written.failure,
            summary=summary,
            said_until=max((m.timestamp for m in messages if m.timestamp), default=None),
        )
        (outcome,) = self.handler.handle([command], partitions=[due.partition] if partitioned else None)
        if outcome.error is not None:
            log.warning("summary %s of %s was refused: %s", due.summary_id, due.user_id, outcome.error)
            return 0
        if written.fallback:
            pause = min(
                self.retry[due.summary_id].pause_s * 2 if due.summary_id in self.retry else self.retry_s,
                3600.0,
            )
            self.retry[due.summary_id] = _Retry(self.clock() + timedelta(seconds=pause), pause)
            self.failing = written.failure
            log.warning(
                "summary of %s's session %s: the offline one stands in (%s); the model is asked "
                "again in %.0f s",
                due.user_id,
                due.session_id,
                written.failure,
                pause,
            )
        else:
            self.retry.pop(due.summary_id, None)
            log.info("summary of %s's session %s by %s", due.user_id, due.session_id, written.by)
        return 1

    def _profile(self, due: DueProfile, partitioned: bool) -> int:
        inputs, summaries = self.reads.profile_inputs(due.user_id)
        written = self.writer.write(inputs)
        narrative, basic = written.value  # type: ignore[misc]
        version = due.version + 1
        command = RecordProfile(
            command_id=f"profile-{derived_id(due.user_id, str(version), due.since)}",
            user_id=due.user_id,
            occurred_at=self.clock(),
            version=version,
            narrative=narrative,
            basic_info=tuple(b for b in basic if isinstance(b, BasicInfo)),
            writer=written.by,
            prompt_version=written.prompt_version,
            raw_output=written.raw_output,
            prompt_tokens=written.prompt_tokens,
            completion_tokens=written.completion_tokens,
            reason=due.reason[:500],
            summaries=summaries,
            failure=written.failure,
            changes=due.changes,
        )
        (outcome,) = self.handler.handle([command], partitions=[due.partition] if partitioned else None)
        if outcome.error is not None:
            log.warning("profile of %s was refused: %s", due.user_id, outcome.error)
            return 0
        log.info("profile of %s: version %d by %s (%s)", due.user_id, version, written.by, due.reason)
        self.retry.pop(due.user_id, None)
        return 1
