"""Approximate nearest neighbours: an HNSW graph (``usearch``) keyed by memory id.

Only candidates come from here: :class:`~lokulmem.index.routed.RoutedIndex`
reranks them with the exact float32 vectors, and decides whether this index
may be used at all (its calibration).  The graph stores vectors quantised to
``dtype`` (``f16`` by default: half the memory of float32, and the exact
rerank restores the order).  Needs the ``ann`` extra (``pip install
'lokulmem[ann]'``); :func:`available` says whether it is installed.  Import
``onnxruntime`` before ``usearch`` in your own code too: the other order makes
onnxruntime crash when it loads the embedding model (usearch 2.26,
onnxruntime 1.32), so this module always does.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["HnswIndex", "available", "row_digests"]

#: Version of the graph file and its sidecar; another version is rebuilt.
FILE_FORMAT = 1


def row_digests(ids: Sequence[str], matrix: Matrix) -> dict[str, str]:
    """A short digest of each id's vector: what a saved graph is checked against."""
    return {
        i: hashlib.blake2b(row.tobytes(), digest_size=8).hexdigest()
        for i, row in zip(ids, np.ascontiguousarray(matrix, dtype=np.float32), strict=True)
    }


Vector = npt.NDArray[np.float32]
Matrix = npt.NDArray[np.float32]


def _import_usearch() -> Any:
    # onnxruntime first: with usearch 2.26 loaded before it, creating the embedding
    # model's InferenceSession segfaults (onnxruntime 1.32; the other order is fine).
    import onnxruntime  # noqa: F401  # load order, see above
    import usearch.index

    return usearch.index


def available() -> bool:
    """Whether ``usearch`` can be imported."""
    try:
        _import_usearch()
    except ImportError:
        return False
    return True


#: Serialises graph saves within the process (their temporary files share a name).
_SAVING = threading.Lock()


class HnswIndex:
    """HNSW over cosine similarity; ids are memory ids (mapped to integer keys)."""

    def __init__(
        self, dimension: int, *, connectivity: int, expansion_add: int, expansion_search: int, dtype: str
    ) -> None:
        self.dimension, self.dtype, self.connectivity = dimension, dtype, connectivity
        self._index: Any = _import_usearch().Index(
            ndim=dimension,
            metric="cos",
            dtype=dtype,
            connectivity=connectivity,
            expansion_add=expansion_add,
            expansion_search=expansion_search,
        )
        self._key: dict[str, int] = {}
        self._id: dict[int, str] = {}
        self._next = 0
        self._lock = threading.RLock()

    def __len__(self) -> int:
        return len(self._key)

    def __contains__(self, memory_id: object) -> bool:
        return memory_id in self._key

    def add_many(self, ids: Sequence[str], vectors: Matrix) -> None:
        """Add (or replace) ``ids`` with the rows of ``vectors``."""
        if not ids:
            return
        with self._lock:
            for memory_id in ids:
                self._drop(memory_id)
            keys = np.arange(self._next, self._next + len(ids), dtype=np.uint64)
            self._next += len(ids)
            self._index.add(keys, np.ascontiguousarray(vectors, dtype=np.float32))
            for memory_id, key in zip(ids, keys.tolist(), strict=True):
                self._key[memory_id] = key
                self._id[key] = memory_id

    def add(self, memory_id: str, vector: Vector) -> None:
        self.add_many([memory_id], np.asarray(vector, dtype=np.float32).reshape(1, -1))

    def remove(self, memory_id: str) -> None:
        with self._lock:
            self._drop(memory_id)

    def _drop(self, memory_id: str) -> None:
        key = self._key.pop(memory_id, None)
        if key is not None:
            del self._id[key]
            self._index.remove(key)

    def candidates(self, query: Vector, count: int) -> list[str]:
        """Up to ``count`` ids near ``query`` (approximate, best first)."""
        with self._lock:
            if not self._key or count <= 0:
                return []
            found = self._index.search(np.asarray(query, dtype=np.float32), min(count, len(self._key)))
            return [self._id[k] for k in np.asarray(found.keys).tolist() if k in self._id]

    def memory_bytes(self) -> int:
        """What the graph and its vectors take in memory."""
        return int(self._index.memory_usage)

    @staticmethod
    def file_settings(dimension: int, dtype: str, connectivity: int) -> dict[str, Any]:
        """What a saved graph must match to be reused."""
        return {"format": FILE_FORMAT, "dimension": dimension, "dtype": dtype, "connectivity": connectivity}

    def settings(self) -> dict[str, Any]:
        """This graph's :meth:`file_settings`."""
        return self.file_settings(self.dimension, self.dtype, self.connectivity)

    def save(self, path: Path, digests: dict[str, str]) -> None:
        """Write the graph to ``path`` and its ids and vector digests to ``path.json``,
        each through a temporary file renamed into place (another process may read them).
        Saves in one process are serialised (a background build and ``close()`` may
        both save): the graph and the sidecar that land together are one moment's."""
        path.parent.mkdir(parents=True, exist_ok=True)  # a cache directory may not exist yet
        with _SAVING, self._lock:
            graph_tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
            self._index.save(str(graph_tmp))
            side = {
                **self.settings(),
                "graph_bytes": graph_tmp.stat().st_size,
                "keys": {i: k for i, k in self._key.items()},
                "digests": {i: digests[i] for i in self._key if i in digests},
                "next": self._next,
            }
            side_tmp = path.with_name(path.name + f".json.{os.getpid()}.tmp")
            side_tmp.write_text(json.dumps(side))
            os.replace(graph_tmp, path)
            os.replace(side_tmp, path.with_name(path.name + ".json"))

    @classmethod
    def load(cls, path: Path, expected: dict[str, Any], **options: Any) -> tuple[HnswIndex, dict[str, str]]:
        """A saved graph and the vector digests it was saved with.  ``ValueError`` when
        the files are missing, damaged, of other settings, or not a pair."""
        side_path = path.with_name(path.name + ".json")
        try:
            side = json.loads(side_path.read_text())
            size = path.stat().st_size
        except (OSError, ValueError) as exc:
            raise ValueError(f"no readable saved graph: {exc}") from None
        if not isinstance(side, dict) or any(side.get(k) != v for k, v in expected.items()):
            raise ValueError("the saved graph has other settings")
        if side.get("graph_bytes") != size:
            raise ValueError("the graph file and its sidecar do not match")
        index = cls(
            expected["dimension"], dtype=expected["dtype"], connectivity=expected["connectivity"], **options
        )
        try:
            index._index.load(str(path))
        except Exception as exc:  # usearch raises plain RuntimeError/ValueError on a damaged file
            raise ValueError(f"the graph file is damaged: {exc}") from None
        keys = {str(i): int(k) for i, k in side["keys"].items()}
        if len(keys) != len(index._index):
            raise ValueError("the graph holds another number of vectors than its sidecar")
        index._key = keys
        index._id = {k: i for i, k in keys.items()}
        index._next = int(side["next"])
        return index, {str(i): str(d) for i, d in side["digests"].items()}
