"""The extraction process on in-memory stand-ins of its ports: each extraction due is answered
once, a stale view of the queue answers nothing twice, small talk asks no extractor, and a
person over their token budget waits without holding up anyone else."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import UTC, datetime, timedelta

import pytest

from domain.commands import ExtractEpisode, Message, MessageRef, RecordEpisode, Similar
from domain.events import EpisodeRecorded, ExtractionDue, MemoriesExtracted, MemoryRecorded
from domain.extraction.candidate import Candidate
from domain.extraction.policy import ExtractionPolicy
from domain.model import MemoryKind
from projections.extraction import DueExtraction, MemoryShown
from services.commands import CommandHandler
from services.extraction.extractors import Extraction, RulesExtractor
from services.extraction.process import ExtractionProcess
from tests.support.memory_ports import MemoryGraph, MemoryLog, Reads

T = datetime(2026, 3, 15, 10, tzinfo=UTC)


class LogQueue:
    """The extraction reads, answered from the log itself (the graph's Extraction nodes, folded)."""

    def __init__(self, log: MemoryLog) -> None:
        self.log = log
        self.frozen: list[DueExtraction] | None = None  # a stale view of the queue, when set

    def due(self, partitions: Collection[int] | None, limit: int = 20,
            waiting: Collection[str] = (), later: Collection[str] = ()) -> list[DueExtraction]:
        if self.frozen is not None:
            return self.frozen
        done = {e.extraction_id for e in self.log.events() if isinstance(e, MemoriesExtracted)}
        return [DueExtraction(e.extraction_id, e.user_id, e.session_id, e.window, None, e.recorded_at,
                              e.model)
                for e in self.log.events() if isinstance(e, ExtractionDue)
                and e.extraction_id not in done and e.user_id not in waiting
                and e.extraction_id not in later][:limit]

    def messages(self, user_id: str, refs: Sequence[MessageRef]) -> list[Message | None]:
        episodes = {e.episode_id: e for e in self.log.events()
                    if isinstance(e, EpisodeRecorded) and e.user_id == user_id}
        return [episodes[r.episode_id].messages[r.position] if r.episode_id in episodes else None
                for r in refs]

    def similar(self, user_id: str, vectors: Sequence[Sequence[float]], threshold: float,
                limit: int = 5) -> list[tuple[Similar, ...]]:
        return [() for _ in vectors]

    def shown(self, user_id: str, ids: Collection[str]) -> dict[str, MemoryShown]:
        return {e.memory_id: MemoryShown(e.memory_id, e.kind.value, e.content, e.attribute,
                                         e.valid_from.date().isoformat())
                for e in self.log.events() if isinstance(e, MemoryRecorded) and e.memory_id in ids}

    def tokens_since(self, user_id: str | None, since: datetime) -> int:
        return sum(e.prompt_tokens + e.completion_tokens for e in self.log.events()
                   if isinstance(e, MemoriesExtracted) and user_id in (None, e.user_id)
                   and e.recorded_at >= since)


class PaidExtractor:
    """A model stand-in: one memory per extraction, 100 tokens each; counts what it is asked."""

    name = "paid-model"
    uses_model = True

    def __init__(self) -> None:
        self.asked = 0

    def extract(self, messages: Sequence[Message], at: datetime) -> Extraction:
        self.asked += 1
        candidate = Candidate(kind=MemoryKind.FACT, content=f"fact {self.asked}", valid_from=at,
                              confidence=0.9, positions=(0,), extractor=self.name)
        return Extraction([candidate], self.name, "p/1", raw_output="{}", prompt_tokens=80,
                          completion_tokens=20)


Setup = tuple[CommandHandler, MemoryLog, LogQueue, ExtractionProcess]


def setup(extractor: object, budget: int = 0, everyones: int = 0) -> Setup:
    graph, log = MemoryGraph(), MemoryLog()
    handler = CommandHandler(Reads(graph), log, graph, None, clock=lambda: T)  # type: ignore[arg-type]
    queue = LogQueue(log)
    process = ExtractionProcess(queue, handler, extractor, None, ExtractionPolicy(),  # type: ignore[arg-type]
                                tokens_per_person_per_day=budget, tokens_per_day=everyones, clock=lambda: T)
    return handler, log, queue, process


def talk(handler: CommandHandler, user: str, command_id: str, *said: str, episode: str | None = None) -> None:
    messages = []
    for text in said:
        messages += [Message(role="user", content=text, timestamp=T), Message(role="assistant", content="ok")]
    (outcome,) = handler.handle([RecordEpisode(command_id=command_id, user_id=user, occurred_at=T,
                                               session_id="s", messages=tuple(messages),
                                               episode_id=episode)])
    assert outcome.status == "applied"


def extracted(log: MemoryLog) -> list[MemoriesExtracted]:
    return [e for e in log.events() if isinstance(e, MemoriesExtracted)]


def test_each_extraction_due_is_answered_once_even_from_a_stale_queue() -> None:
    handler, log, queue, process = setup(RulesExtractor())
    talk(handler, "ada", "c1", "I moved to Lisbon last month.", "I switched to Neovim.", "one", "two",
         "three")
    stale = queue.due(None)
    assert len(stale) == 1
    assert process.run_once() == 1 and process.run_once() == 0
    queue.frozen = stale  # a process that extracted, then crashed before it saw its answer applied
    process.run_once()
    (only,) = extracted(log)
    assert [v.verdict for v in only.verdicts] == ["new", "new"]
    assert {c.attribute for c in only.candidates} == {"home_city", "editor"}


def test_small_talk_asks_no_extractor_and_is_answered_as_skipped() -> None:
    extractor = PaidExtractor()
    handler, log, _, process = setup(extractor)
    talk(handler, "ada", "c1", "hi", "thanks so much", "ok", "cool", "bye")
    assert process.run_once() == 1
    (answer,) = extracted(log)
    assert answer.skipped == "only small talk" and extractor.asked == 0


def test_a_person_over_budget_waits_and_holds_up_no_one() -> None:
    extractor = PaidExtractor()
    handler, log, _, process = setup(extractor, budget=150)
    for n in range(3):
        talk(handler, "ada", f"a{n}", *(f"ada says {n}.{i}" for i in range(5)))
    talk(handler, "bob", "b0", *(f"bob says {i}" for i in range(5)))
    while process.run_once():
        pass
    by_person = [e.user_id for e in extracted(log)]
    assert by_person.count("ada") == 2  # 100 tokens, then 200: the third waits
    assert by_person.count("bob") == 1
    assert process.waiting_for_budget == {"ada"}


class FlakyExtractor(PaidExtractor):
    """A model stand-in whose endpoint is down for one person's conversations."""

    def __init__(self, down_for: str) -> None:
        super().__init__()
        self.down_for = down_for
        self.up = False

    def extract(self, messages: Sequence[Message], at: datetime) -> Extraction:
        if not self.up and any(self.down_for in m.content for m in messages):
            raise ConnectionError("the endpoint is down")
        return super().extract(messages, at)


def test_an_extraction_that_fails_holds_up_no_other_and_is_tried_again_after_a_pause() -> None:
    now = [T]
    extractor = FlakyExtractor(down_for="ada")
    handler, log, queue, process = setup(extractor)
    process.clock = lambda: now[0]
    talk(handler, "ada", "a0", *(f"ada says {i}" for i in range(5)))   # due first
    talk(handler, "bob", "b0", *(f"bob says {i}" for i in range(5)))
    assert process.run_once() == 1                                      # bob's, past ada's
    assert [e.user_id for e in extracted(log)] == ["bob"] and process.failing
    (waiting,) = queue.due(None)
    assert waiting.user_id == "ada" and waiting.extraction_id in process.retry
    extractor.up = True
    assert process.run_once() == 0                                      # not yet: it pauses
    now[0] = T + timedelta(seconds=5)
    assert process.run_once() == 1
    assert [e.user_id for e in extracted(log)] == ["bob", "ada"] and not process.retry


def test_a_round_where_everything_fails_raises_so_that_the_process_pauses() -> None:
    handler, _, _, process = setup(FlakyExtractor(down_for="ada"))
    talk(handler, "ada", "a0", *(f"ada says {i}" for i in range(5)))
    with pytest.raises(ConnectionError):
        process.run_once()


def test_over_the_deployments_budget_every_model_extraction_waits_and_says_so() -> None:
    extractor = PaidExtractor()
    handler, log, _, process = setup(extractor, everyones=200)
    for person in ("ada", "bob", "cy"):
        talk(handler, person, f"{person}0", *(f"{person} says {i}" for i in range(5)))
    while process.run_once():
        pass
    assert len(extracted(log)) == 2 and extractor.asked == 2  # 100 tokens each: the third waits
    assert process.all_waiting


def test_an_episode_extracted_again_with_another_model_asks_that_model() -> None:
    default, other = PaidExtractor(), PaidExtractor()
    other.name = "other-model"
    handler, log, _, process = setup(default)
    process.extractor_for = lambda model: other if model == "other-model" else None
    talk(handler, "ada", "a0", "I moved to Lisbon.", "ok", "bye", episode="a0")
    for n, model in enumerate(("other-model", "unknown-model")):
        (outcome,) = handler.handle([ExtractEpisode(command_id=f"again-{n}", user_id="ada", occurred_at=T,
                                                    episode_id="a0", model=model)])
        assert outcome.status == "applied"
    while process.run_once():
        pass
    answers = {e.extractor: e for e in extracted(log)}
    assert (default.asked, other.asked) == (0, 1)
    assert answers["other-model"].candidates[0].extractor == "other-model"
    assert "unknown-model was asked for" in (answers["unknown-model"].skipped or "")
