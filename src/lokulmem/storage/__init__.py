"""Persistence: the :class:`Storage` protocol and its SQLite implementation."""

from .protocol import MemoryQuery, Storage
from .sqlite import SQLiteStorage, default_store_path

__all__ = ["MemoryQuery", "SQLiteStorage", "Storage", "default_store_path"]
