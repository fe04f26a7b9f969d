"""Vector search behind one interface (exact now; an ANN index can sit behind it later)."""

from .brute import BruteForceIndex, SearchHit, VectorIndex

__all__ = ["BruteForceIndex", "SearchHit", "VectorIndex"]
