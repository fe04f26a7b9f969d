"""Move a store to another embedding model: every stored vector recomputed.

    from lokulmem import SQLiteStorage
    from lokulmem.reembed import reembed_store

    reembed_store(SQLiteStorage("store.sqlite"), my_embedder)

The path out of :class:`~lokulmem.EmbeddingModelMismatchError`.  The storage
reads the texts and writes the vectors (one transaction: an interrupted run
leaves the old vectors); this module only embeds.  A message context shared by
several memories is embedded once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from .embedding import Embedder
from .storage import EmbeddingVectors, SQLiteStorage

__all__ = ["reembed_store"]

Vector = npt.NDArray[np.float32]


#: ``on_progress(done, total)``: texts embedded so far, of all there are to embed.
Progress = Callable[[int, int], None]


class _Counter:
    """Counts embedded texts across the three kinds and reports them."""

    def __init__(self, total: int, report: Progress | None) -> None:
        self.done, self.total, self.report = 0, total, report

    def add(self, count: int) -> None:
        self.done += count
        if self.report is not None:
            self.report(self.done, self.total)


def _embed(embedder: Embedder, texts: Sequence[str], batch_size: int, counter: _Counter) -> list[Vector]:
    out: list[Vector] = []
    for start in range(0, len(texts), batch_size):
        batch = list(texts[start : start + batch_size])
        out.extend(embedder.embed(batch))
        counter.add(len(batch))
    return out


def _embed_pairs(
    embedder: Embedder, pairs: Sequence[tuple[str, str]], batch_size: int, counter: _Counter
) -> list[tuple[str, Vector]]:
    vecs = _embed(embedder, [t for _, t in pairs], batch_size, counter)
    return [(i, v) for (i, _), v in zip(pairs, vecs, strict=True)]


def reembed_store(
    storage: SQLiteStorage, embedder: Embedder, *, batch_size: int = 64, on_progress: Progress | None = None
) -> int:
    """Re-embed every memory, message context and episode of ``storage`` (opened here if
    it is not) with ``embedder`` and record its model id.  Returns the memories re-embedded.
    ``on_progress(done, total)`` is called after each batch (texts embedded so far)."""
    storage.open_unchecked()
    texts = storage.texts_to_embed()
    distinct = list(dict.fromkeys(t for _, t in texts.contexts))
    counter = _Counter(len(texts.memories) + len(distinct) + len(texts.episodes), on_progress)
    by_text = dict(zip(distinct, _embed(embedder, distinct, batch_size, counter), strict=True))
    storage.replace_vectors(
        EmbeddingVectors(
            memories=_embed_pairs(embedder, texts.memories, batch_size, counter),
            contexts=[(i, by_text[t]) for i, t in texts.contexts],
            episodes=_embed_pairs(embedder, texts.episodes, batch_size, counter),
        ),
        model_id=embedder.model_id,
        dimension=embedder.dimension,
    )
    return len(texts.memories)
