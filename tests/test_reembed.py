"""``lokulmem.reembed``: a store moved to another embedding model, every vector recomputed."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from lokulmem import Cluster, Episode, LokulMem, MiniLMEmbedder, SQLiteStorage
from lokulmem.records import context_text
from lokulmem.reembed import reembed_store
from test_storage import HashEmbedder


def test_reembed_store_recomputes_memories_contexts_and_episodes(
    store_path: Path, embedder: MiniLMEmbedder
) -> None:
    with LokulMem(path=store_path, embedder=embedder, executor="inline") as mem:
        learned = mem.learn("I live in Berlin. I work at Siemens.", "Where are you from?")
        vec = learned.extracted[0].embedding
        mem.storage.put_episode(Episode(id="e1", summary="moved to Berlin", embedding=vec))
        mem.storage.put_cluster(Cluster(id="c1", centroid=vec, member_ids=(learned.extracted[0].id,)))
    hashing = HashEmbedder()
    storage = SQLiteStorage(store_path)
    assert reembed_store(storage, hashing, batch_size=1) == 2
    (episode,) = storage.all_episodes()
    assert storage.all_clusters() == [] and storage.get_meta("embedding_model") == "hash-64"
    assert episode.embedding is not None and np.allclose(
        episode.embedding, hashing.embed(["moved to Berlin"])[0]
    )
    for m in storage.all_memories():
        assert m.embedding is not None and np.allclose(m.embedding, hashing.embed([m.content])[0])
        want = hashing.embed([context_text(m.reply_context, m.source_context)])[0]
        assert m.context_embedding is not None and np.allclose(m.context_embedding, want)
        assert m.cluster_id is None
    storage.close()
