import shutil
from pathlib import Path

import numpy as np
import pytest

from lokulmem import CachedEmbedder, MiniLMEmbedder, ModelIntegrityError
from lokulmem.embedding.minilm import default_tokenizer_path


def test_vectors_are_normalised_and_meaningful(embedder: MiniLMEmbedder) -> None:
    v = embedder.embed(["I live in Berlin.", "My home is in Berlin.", "I love pizza."])
    assert v.shape == (3, 384) and v.dtype == np.float32
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    assert v[0] @ v[1] > v[0] @ v[2] + 0.2


def test_truncation_at_256_tokens(embedder: MiniLMEmbedder) -> None:
    base = " ".join(f"word{i}" for i in range(400))
    a, b = embedder.embed([base, base + " completely different ending about pizza"])
    assert float(a @ b) > 0.9999  # both cut at 256 tokens
    c, d = embedder.embed(
        [" ".join(f"word{i}" for i in range(100)), " ".join(f"word{i}" for i in range(150))]
    )
    assert float(c @ d) < 0.9999  # under the limit the extra words count


def test_batch_matches_single(embedder: MiniLMEmbedder) -> None:
    texts = ["short", "a much longer sentence about my sister who lives in Paris"]
    batch = embedder.embed(texts)
    single = np.stack([embedder.embed([t])[0] for t in texts])
    assert np.allclose(batch, single, atol=1e-4)


def test_cache_hits(embedder: MiniLMEmbedder) -> None:
    cache = CachedEmbedder(embedder, size=2)
    cache.embed(["a b", "c d"])
    cache.embed(["a  b "])  # same key after whitespace normalisation
    assert cache.hits == 1 and cache.misses == 2
    cache.embed(["e f"])  # evicts "c d"
    cache.embed(["c d"])
    assert cache.misses == 4


def test_corrupted_tokenizer_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "tokenizer.json"
    shutil.copy(default_tokenizer_path(), bad)
    with bad.open("a") as fh:
        fh.write(" ")
    with pytest.raises(ModelIntegrityError):
        MiniLMEmbedder(tokenizer_path=bad).load()
