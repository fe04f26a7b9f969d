"""Persistence: the :class:`Storage` protocol and its SQLite implementation."""

from .protocol import EmbeddingTexts, EmbeddingVectors, MemoryQuery, Storage, TermMatches
from .sqlite import SQLiteStorage, default_store_path

__all__ = [
    "EmbeddingTexts",
    "EmbeddingVectors",
    "MemoryQuery",
    "SQLiteStorage",
    "Storage",
    "TermMatches",
    "default_store_path",
]
