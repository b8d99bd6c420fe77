"""An embedder that knows whether it works: each call's outcome is kept, so that `/v1/health` can
say the model or its endpoint fails (and since when), and a failure reaches callers as one kind of
error, `EmbedderUnavailable`, that a write answers with 503 and a worker retries."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Sequence

from infra.embedding.port import Embedder, embed_queries, keeps_text_here


class EmbedderUnavailable(ConnectionError):
    """The embedding model, or the endpoint that serves it, did not give vectors."""

    code = "embedder_unavailable"


class WatchedEmbedder:
    def __init__(self, inner: Embedder, probe_every_s: float = 5.0) -> None:
        self.inner = inner
        self.model = inner.model
        self.dimensions = inner.dimensions
        self.local = keeps_text_here(inner)
        self.probe_every_s = probe_every_s
        self._failing: tuple[float, str] | None = None  # (monotonic since, why)
        self._probed = 0.0
        self._lock = threading.Lock()

    @property
    def failing(self) -> tuple[float, str] | None:
        """(since when, in time.monotonic(), and why) while the last call failed; None once one works."""
        return self._failing

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return self._watched(lambda: self.inner.embed(texts))

    def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        return self._watched(lambda: embed_queries(self.inner, texts))

    def probe(self) -> tuple[float, str] | None:
        """While failing, try the model again (at most every `probe_every_s`): the state it is in."""
        now = time.monotonic()
        if self._failing is not None and now - self._probed >= self.probe_every_s:
            self._probed = now
            with contextlib.suppress(EmbedderUnavailable):
                self.embed(["health check"])
        return self._failing

    def _watched(self, work: Callable[[], list[list[float]]]) -> list[list[float]]:
        try:
            vectors = work()
        except Exception as error:
            why = f"{type(error).__name__}: {error}"
            with self._lock:
                self._failing = (self._failing or (time.monotonic(), ""))[0], why
            raise EmbedderUnavailable(f"the embedder {self.model} gives no vectors ({why})") from error
        self._failing = None
        return vectors
