"""The vectors of this library's example texts (routing's questions, the topic
hints' statements), embedded once per model and shared by every store that uses
it, outside any store's LRU cache."""

from __future__ import annotations

import contextlib
import threading
import weakref
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from ..embedding import Embedder

__all__ = ["example_vectors_of"]

_VECTORS: weakref.WeakKeyDictionary[object, dict[str, npt.NDArray[np.float32]]] = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()


def _base(embedder: Embedder) -> Embedder:
    """The model behind any caching wrappers (their ``inner``)."""
    inner = getattr(embedder, "inner", None)
    while inner is not None:
        embedder, inner = inner, getattr(inner, "inner", None)
    return embedder


def example_vectors_of(
    embedder: Embedder, kind: str, texts: Callable[[], Sequence[str]]
) -> npt.NDArray[np.float32]:
    """The unit vectors of ``texts()`` (one row each, in order), embedded by the
    model behind ``embedder`` on first use and cached under ``kind`` while the
    model lives (an embedder that cannot be weakly referenced embeds per call)."""
    base = _base(embedder)
    with _LOCK:
        try:
            cached = _VECTORS.get(base, {}).get(kind)
        except TypeError:  # an embedder that cannot be weakly referenced: not cached
            cached = None
        if cached is not None:
            return cached
        vectors = np.array(base.embed(list(texts())), dtype=np.float32)
        vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
        with contextlib.suppress(TypeError):  # not weakly referable: embedded per call
            _VECTORS.setdefault(base, {})[kind] = vectors
        return vectors
