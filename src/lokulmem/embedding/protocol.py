"""What lokulmem needs from an embedding model."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

__all__ = ["Embedder"]


@runtime_checkable
class Embedder(Protocol):
    """A sentence embedder.

    ``embed`` returns a ``(len(texts), dimension)`` float32 array of
    L2-normalised rows.  ``model_id`` is recorded in the store: vectors of
    different model ids are never mixed.
    """

    @property
    def model_id(self) -> str: ...

    @property
    def dimension(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]: ...
