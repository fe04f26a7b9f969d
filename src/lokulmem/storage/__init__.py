"""Persistence: the :class:`Storage` protocol and its SQLite implementation."""

from .location import default_store_path, store_location
from .protocol import EmbeddingTexts, EmbeddingVectors, MemoryQuery, Storage, TermMatches
from .sqlite import SQLiteStorage

__all__ = [
    "EmbeddingTexts",
    "EmbeddingVectors",
    "MemoryQuery",
    "SQLiteStorage",
    "Storage",
    "TermMatches",
    "default_store_path",
    "store_location",
]
