"""The layers process: one summary that cannot be written waits and holds up no other."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import UTC, datetime
from typing import Any

from domain.commands import Message, MessageRef, RecordSummary
from domain.layers.profile import ProfileInputs
from projections.layers import DueProfile, DueSummary
from services.commands import Outcome
from services.layers.process import LayersProcess
from services.layers.writers import OfflineProfileWriter, OfflineSummarizer

NOW = datetime(2026, 6, 1, tzinfo=UTC)


class Reads:
    def __init__(self) -> None:
        self.dues = [DueSummary(f"s{n}", f"d{n}", "ada", f"chat-{n}", None, "due", 0, NOW) for n in range(3)]

    def due_summaries(
        self,
        partitions: Collection[int] | None,
        limit: int = 20,
        *,
        retry: bool = False,
        attempts: int = 5,
        later: Collection[str] = (),
    ) -> list[DueSummary]:
        return [d for d in self.dues if d.summary_id not in later]

    def session_messages(
        self, user_id: str, session_id: str, limit: int = 1000
    ) -> list[tuple[MessageRef, Message]]:
        if session_id == "chat-1":
            raise RuntimeError("this session cannot be read")
        said = ["I moved to Lisbon in May.", "Nice.", "The new job at the hospital starts in June."]
        return [
            (
                MessageRef(episode_id=session_id, position=i),
                Message(role="user" if i != 1 else "assistant", content=text, timestamp=NOW),
            )
            for i, text in enumerate(said)
        ]

    def due_profiles(
        self, partitions: Collection[int] | None, limit: int = 20, later: Collection[str] = ()
    ) -> list[DueProfile]:
        return []

    def profile_inputs(self, user_id: str, summaries: int = 12) -> tuple[ProfileInputs, tuple[str, ...]]:
        return ProfileInputs(), ()


class Handler:
    def __init__(self) -> None:
        self.handled: list[Any] = []

    def handle(self, commands: Sequence[Any], partitions: Any = None) -> list[Outcome]:
        self.handled += commands
        return [Outcome(c.command_id, "applied", 1) for c in commands]


def test_a_summary_that_fails_waits_and_the_others_are_written() -> None:
    reads, handler = Reads(), Handler()
    process = LayersProcess(
        reads,
        handler,
        OfflineSummarizer(),
        OfflineProfileWriter(),  # type: ignore[arg-type]
        clock=lambda: NOW,
    )
    assert process.run_once() == 2
    assert [c.session_id for c in handler.handled if isinstance(c, RecordSummary)] == ["chat-0", "chat-2"]
    assert "s1" in process.retry and "cannot be read" in (process.failing or "")
    # Tried again only after its pause: not in the next round at the same moment.
    reads.dues = [reads.dues[1]]
    assert process.run_once() == 0 and len(handler.handled) == 2
