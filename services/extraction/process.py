"""The extraction process: turns extractions that are due into memories, in the background.

Its queue is the projection of the log: every ExtractionDue is an `(:Extraction {status: 'due'})`
until the MemoriesExtracted that answers it is applied. So a crash loses no pending extraction (it
is still due when the process starts again), and none is done twice: the answer to an extraction
is one RecordExtraction whose command id comes from the extraction's, so a second answer is a
duplicate that the log refuses. The extractor runs outside the writer lock; its result goes
through the same command handler as every write, on the partition of the person's commands.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Protocol

from domain.commands import Message, RecordExtraction, Similar
from domain.extraction.candidate import Candidate
from domain.extraction.deciders import extraction_command_id
from domain.extraction.policy import ExtractionPolicy
from infra.embedding import Embedder
from projections.extraction import DueExtraction, MemoryShown
from services.background import BackgroundProcess
from services.commands import CommandHandler, system_clock
from services.extraction.extractors import Extraction, Extractor, only_small_talk
from services.extraction.llm_consolidator import Proposals
from services.ports import ExtractionReads

log = logging.getLogger(__name__)

Partitions = Callable[[], Collection[int] | None]


class Consolidator(Protocol):
    """What judges candidates against the person's close memories, beside the rules (a model)."""

    def propose(self, candidates: Sequence[Candidate], similar: Sequence[Sequence[Similar]],
                shown: Mapping[str, MemoryShown]) -> Proposals: ...


class ExtractionProcess(BackgroundProcess):
    name = "extraction"

    def __init__(self, reads: ExtractionReads, handler: CommandHandler, extractor: Extractor,
                 embedder: Embedder | None, policy: ExtractionPolicy, *,
                 consolidator: Consolidator | None = None, tokens_per_person_per_day: int = 0,
                 tokens_per_day: int = 0, extractor_for: Callable[[str], Extractor | None] = lambda _: None,
                 poll_s: float = 0.5, partitions: Partitions = lambda: None,
                 clock: Callable[[], datetime] = system_clock) -> None:
        super().__init__(handler, poll_s)
        self.reads = reads
        self.extractor = extractor
        self.embedder = embedder
        self.policy = policy
        self.consolidator = consolidator
        self.extractor_for = extractor_for        # another model of the endpoint, asked for by name
        self._named: dict[str, Extractor | None] = {}
        self.budget = tokens_per_person_per_day
        self.everyones_budget = tokens_per_day
        self.all_waiting = False    # the deployment's budget is spent: every model extraction waits
        self.partitions = partitions
        self.clock = clock
        self.waiting_for_budget: set[str] = set()
        # Extractions that failed (the endpoint down, say), with when to try each again and the
        # pause after that: passed over until then, so that one holds up no other.
        self.retry: dict[str, tuple[datetime, float]] = {}

    # -- one round ----------------------------------------------------------------------------

    def run_once(self, limit: int = 20) -> int:
        """Answer the extractions due now (up to `limit`); returns how many were answered. One that
        fails is tried again after a pause that doubles (to an hour) and holds up no other; the
        round raises only when all it tried failed, so that the caller pauses too."""
        partitions = self.partitions()
        answered, failed = 0, None
        if self._all_over_budget():
            return 0
        # People over their budget are looked at again once a round, not at the head of the queue.
        for user_id in list(self.waiting_for_budget):
            self._over_budget(user_id)
        now = self.clock()
        later = {x for x, (at, _) in self.retry.items() if at > now}
        for due in self.reads.due(partitions, limit=limit, waiting=self.waiting_for_budget, later=later):
            if self._stop.is_set():
                break
            if self._over_budget(due.user_id):
                continue
            if answered and self._all_over_budget():
                break
            try:
                if self._answer(due, partitions is not None):
                    answered += 1
                    self.retry.pop(due.extraction_id, None)
            except Exception as error:  # noqa: BLE001 - the extraction stays due, tried again later
                failed = error
                self.failing = f"{type(error).__name__}: {error}"
                pause = min(self.retry.get(due.extraction_id, (now, self.poll_s))[1] * 2, 3600.0)
                self.retry[due.extraction_id] = (now + timedelta(seconds=pause), pause)
                log.warning("extraction %s of %s failed, tried again in %.0f s: %s: %s", due.extraction_id,
                            due.user_id, pause, type(error).__name__, error)
        if failed is not None and not answered:
            raise failed
        return answered

    def _answer(self, due: DueExtraction, partitioned: bool) -> bool:
        messages = self.reads.messages(due.user_id, due.window)
        if any(m is None for m in messages):
            log.debug("extraction %s: its messages are not all in the graph yet", due.extraction_id)
            return False
        extraction = self._extract([m for m in messages if m is not None], due)
        for note in extraction.notes:
            log.warning("extraction %s of %s: %s", due.extraction_id, due.user_id, note)
        self._record(due, extraction, partitioned)
        return True

    def _all_over_budget(self) -> bool:
        if not (self.everyones_budget and self.extractor.uses_model):
            return False
        spent = self.reads.tokens_since(None, self.clock() - timedelta(days=1))
        if spent >= self.everyones_budget and not self.all_waiting:
            log.warning("every extraction waits: %s tokens spent in 24 hours, the budget is %s "
                        "(LORE_LLM_TOKENS_PER_DAY)", f"{spent:,}", f"{self.everyones_budget:,}")
        self.all_waiting = spent >= self.everyones_budget
        return self.all_waiting

    def _over_budget(self, user_id: str) -> bool:
        if not (self.budget and self.extractor.uses_model):
            return False
        spent = self.reads.tokens_since(user_id, self.clock() - timedelta(days=1))
        if spent < self.budget:
            self.waiting_for_budget.discard(user_id)
            return False
        if user_id not in self.waiting_for_budget:
            log.warning("extractions of %s wait: %s tokens spent in 24 hours, the budget is %s "
                        "(LORE_LLM_TOKENS_PER_PERSON_PER_DAY)", user_id, f"{spent:,}", f"{self.budget:,}")
        self.waiting_for_budget.add(user_id)
        return True

    def _extract(self, messages: list[Message], due: DueExtraction) -> Extraction:
        extractor = self.extractor
        if due.model and due.model != extractor.name:
            if due.model not in self._named:
                self._named[due.model] = self.extractor_for(due.model)
            named = self._named[due.model]
            if named is None:
                return Extraction([], due.model, skipped=f"{due.model} was asked for, and no model endpoint "
                                                         "is configured (LORE_LLM)"[:200])
            extractor = named
        if only_small_talk(messages):
            return Extraction([], extractor.name, skipped="only small talk")
        return extractor.extract(messages, due.due_since)

    def _similar(self, user_id: str, extraction: Extraction) -> tuple[tuple[Similar, ...], ...]:
        if self.embedder is None or not extraction.candidates:
            return ()
        vectors = self.embedder.embed([c.content for c in extraction.candidates])
        return tuple(self.reads.similar(user_id, vectors, self.policy.similar_cosine))

    def _proposals(self, user_id: str, extraction: Extraction,
                   similar: tuple[tuple[Similar, ...], ...]) -> Proposals:
        if self.consolidator is None or not any(similar):
            return Proposals(())
        shown = self.reads.shown(user_id, {s.memory_id for close in similar for s in close})
        return self.consolidator.propose(extraction.candidates, similar, shown)

    def _record(self, due: DueExtraction, extraction: Extraction, partitioned: bool) -> None:
        similar = self._similar(due.user_id, extraction)
        proposals = self._proposals(due.user_id, extraction, similar)
        command = RecordExtraction(
            command_id=extraction_command_id(due.extraction_id), user_id=due.user_id,
            occurred_at=due.due_since, extraction_id=due.extraction_id, session_id=due.session_id,
            window=due.window, extractor=extraction.extractor, prompt_version=extraction.prompt_version,
            raw_output=extraction.raw_output,
            prompt_tokens=extraction.prompt_tokens + proposals.prompt_tokens,
            completion_tokens=extraction.completion_tokens + proposals.completion_tokens,
            skipped=extraction.skipped, candidates=tuple(extraction.candidates), similar=similar,
            proposed=proposals.proposed if any(proposals.proposed) else ())
        partitions = [due.partition] if partitioned else None
        (outcome,) = self.handler.handle([command], partitions=partitions)
        prior = outcome.prior
        refused = outcome.error or (prior.reason if prior and prior.outcome == "rejected" else None)
        if refused:
            # The extraction is answered all the same, empty and saying why: it is not due forever.
            log.warning("extraction %s of %s was refused (%s); recorded as skipped", due.extraction_id,
                        due.user_id, refused)
            self.handler.handle([command.model_copy(update={
                "command_id": f"{command.command_id}-refused", "candidates": (), "similar": (),
                "proposed": (),
                "raw_output": None, "skipped": f"refused: {refused}"[:200]})], partitions=partitions)
        else:
            log.info("extraction %s of %s: %d candidates by %s", due.extraction_id, due.user_id,
                     len(extraction.candidates), extraction.extractor)
