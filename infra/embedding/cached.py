"""An embedder that remembers its latest vectors: the same text asked twice in a short while
(a candidate embedded to find the memories close to it, then again as the memory's vector) is
computed once."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence

from infra.embedding.port import Embedder, embed_queries, keeps_text_here


class CachedEmbedder:
    def __init__(self, inner: Embedder, size: int = 4096) -> None:
        self.inner = inner
        self.model = inner.model
        self.dimensions = inner.dimensions
        self.local = keeps_text_here(inner)
        self.size = size
        # (how the text is read: passage or query, the text) -> its vector
        self._vectors: OrderedDict[tuple[str, str], list[float]] = OrderedDict()
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return self._cached(texts, "passage", self.inner.embed)

    def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        # A query's vector may differ from the same words' as a passage: kept apart.
        return self._cached(texts, "query", lambda asked: embed_queries(self.inner, asked))

    def _cached(self, texts: Sequence[str], read_as: str,
                compute: Callable[[Sequence[str]], list[list[float]]]) -> list[list[float]]:
        keys = [(read_as, t) for t in texts]
        with self._lock:
            known = {k: self._vectors[k] for k in keys if k in self._vectors}
            for key in known:
                self._vectors.move_to_end(key)
        missing = list(dict.fromkeys(k for k in keys if k not in known))
        if missing:
            computed = dict(zip(missing, compute([text for _, text in missing]), strict=True))
            with self._lock:
                for key, vector in computed.items():
                    self._vectors[key] = vector
                while len(self._vectors) > self.size:
                    self._vectors.popitem(last=False)
            known.update(computed)
        return [known[k] for k in keys]
