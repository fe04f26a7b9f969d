"""Vector search behind one interface: exact, or HNSW candidates reranked exactly
once calibrated (:mod:`lokulmem.index.routed`)."""

from .brute import BruteForceIndex, SearchHit, VectorIndex
from .routed import AnnSettings, Calibration, RoutedIndex

__all__ = ["AnnSettings", "BruteForceIndex", "Calibration", "RoutedIndex", "SearchHit", "VectorIndex"]
