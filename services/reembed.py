"""Moving a store to another embedding model: every memory, turn and summary gets a vector of the
new model, recorded as an event (ReplaceEmbeddings -> EmbeddingsReplaced), so that a rebuild
puts the same vectors back without the model.

Resumable: what already has the new model's vector is skipped, so a run stopped anywhere goes on
where it was when started again (and picks up what the old model wrote meanwhile). While it runs,
search compares each query only with vectors of its own model (projections/search.py). When the
new vectors are of another size, the vector indexes are dropped first and made again at the end.
"""

from __future__ import annotations

import hashlib
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal, Protocol, cast

from domain.commands import ReplaceEmbeddings
from domain.vectors import Embedding, ItemVector
from infra.embedding.port import Embedder
from projections.reembedding import Pending
from services.lifecycle.maintenance import Send

# A command's vectors as JSON stay well inside one Kafka message (1 MB by default).
COMMAND_BYTES = 250_000


class ReembedReads(Protocol):
    def remaining(self, model: str, user_id: str | None = None) -> int: ...

    def people(self, model: str, user_id: str | None = None) -> list[str]: ...

    def pending(self, user_id: str, model: str, limit: int) -> list[Pending]: ...

    def index_dimensions(self) -> int | None: ...

    def drop_vector_indexes(self) -> None: ...

    def make_vector_indexes(self, dimensions: int) -> None: ...


class ReembedStuck(RuntimeError):
    """Items that took no vector when sent (the same ones came back): nothing more can be done."""


@dataclass
class ReembedReport:
    model: str
    people: int = 0
    vectors: int = 0
    indexes_made_again: bool = False
    seconds: float = 0.0


class ReembedService:
    def __init__(self, reads: ReembedReads, embedder: Embedder, send: Send,
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self.reads = reads
        self.embedder = embedder
        self.send = send
        self.clock = clock
        self.per_command = max(1, COMMAND_BYTES // (4 * embedder.dimensions))

    def remaining(self, user_id: str | None = None) -> int:
        return self.reads.remaining(self.embedder.model, user_id)

    def run(self, user_id: str | None = None,
            on_progress: Callable[[int], None] = lambda n: None) -> ReembedReport:
        started = time.perf_counter()
        run = uuid.uuid4().hex[:12]
        model = self.embedder.model
        report = ReembedReport(model)
        if self.reads.index_dimensions() not in (None, self.embedder.dimensions):
            self.reads.drop_vector_indexes()
            report.indexes_made_again = True
        for person in self.reads.people(model, user_id):
            report.people += 1
            sent: set[str] = set()
            while batch := self.reads.pending(person, model, self.per_command):
                ids = {f"{p.item}:{p.item_id}" for p in batch}
                if ids & sent:
                    raise ReembedStuck(f"{person}: {len(ids & sent)} items took no vector when sent")
                sent |= ids
                vectors = self.embedder.embed([p.text for p in batch])
                self.send([ReplaceEmbeddings(
                    command_id=_command_id(run, ids), user_id=person, occurred_at=self.clock(),
                    model=model, vectors=tuple(
                        ItemVector(item=cast(Literal["memory", "message", "summary"], p.item),
                                   item_id=p.item_id, embedding=Embedding.of(model, v))
                        for p, v in zip(batch, vectors, strict=True)))])
                report.vectors += len(batch)
                on_progress(len(batch))
        self.reads.make_vector_indexes(self.embedder.dimensions)
        report.seconds = time.perf_counter() - started
        return report


def _command_id(run: str, ids: set[str]) -> str:
    """The same items in the same run are one command: sent twice, applied once."""
    digest = hashlib.sha256("\n".join(sorted(ids)).encode()).hexdigest()[:20]
    return f"reembed-{run}-{digest}"
