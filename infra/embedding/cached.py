"""An embedder that remembers its latest vectors: the same text asked twice in a short while
(a candidate embedded to find the memories close to it, then again as the memory's vector) is
computed once."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence

from infra.embedding.port import Embedder


class CachedEmbedder:
    def __init__(self, inner: Embedder, size: int = 4096) -> None:
        self.inner = inner
        self.model = inner.model
        self.dimensions = inner.dimensions
        self.size = size
        self._vectors: OrderedDict[str, list[float]] = OrderedDict()
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        with self._lock:
            known = {t: self._vectors[t] for t in texts if t in self._vectors}
            for text in known:
                self._vectors.move_to_end(text)
        missing = list(dict.fromkeys(t for t in texts if t not in known))
        if missing:
            computed = dict(zip(missing, self.inner.embed(missing), strict=True))
            with self._lock:
                for text, vector in computed.items():
                    self._vectors[text] = vector
                while len(self._vectors) > self.size:
                    self._vectors.popitem(last=False)
            known.update(computed)
        return [known[t] for t in texts]
