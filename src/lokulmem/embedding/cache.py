"""An LRU cache in front of any embedder (PRD: 1,000 entries)."""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from .protocol import Embedder

__all__ = ["CachedEmbedder", "normalise_text"]

_WS = re.compile(r"\s+")


def normalise_text(text: str) -> str:
    """The cache key: whitespace collapsed and stripped (case is kept: the model is uncased
    but other embedders may not be)."""
    return _WS.sub(" ", text).strip()


class CachedEmbedder:
    """Wraps an :class:`Embedder`; identical texts are embedded once.  Thread-safe.

    ``half=True`` rounds every vector to float16 precision (kept as float32): what a
    store with ``vector_storage="float16"`` writes, so the vectors in memory, in the
    index and read back from the file (by any process) are the same numbers."""

    def __init__(self, inner: Embedder, size: int = 1000, *, half: bool = False) -> None:
        self.inner = inner
        self.size = size
        self.half = half
        self._cache: OrderedDict[str, npt.NDArray[np.float32]] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    @property
    def model_id(self) -> str:
        return self.inner.model_id

    @property
    def dimension(self) -> int:
        return self.inner.dimension

    def load(self) -> None:
        """Load the wrapped model now, if it loads lazily."""
        load = getattr(self.inner, "load", None)
        if callable(load):
            load()

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        keys = [normalise_text(t) for t in texts]
        out: list[npt.NDArray[np.float32] | None] = [None] * len(keys)
        missing: dict[str, list[int]] = {}
        with self._lock:
            for i, key in enumerate(keys):
                vec = self._cache.get(key)
                if vec is not None:
                    self._cache.move_to_end(key)
                    out[i] = vec
                    self.hits += 1
                else:
                    missing.setdefault(key, []).append(i)
        if missing:
            todo = list(missing)
            vecs = self.inner.embed(todo)
            with self._lock:
                for key, vec in zip(todo, vecs, strict=True):
                    vec = np.array(np.asarray(vec, dtype=np.float16) if self.half else vec, dtype=np.float32)
                    vec.setflags(write=False)
                    for i in missing[key]:
                        out[i] = vec
                    self.misses += 1
                    self._cache[key] = vec
                    self._cache.move_to_end(key)
                while len(self._cache) > self.size:
                    self._cache.popitem(last=False)
        if not out:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return np.stack([v for v in out if v is not None]).astype(np.float32, copy=False)

    def clear(self) -> None:
        with self._lock:
            self._cache.clear()
