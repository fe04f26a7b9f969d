"""Persistence: the :class:`Storage` protocol and its SQLite implementation."""

from .protocol import Storage
from .sqlite import SQLiteStorage, default_store_path

__all__ = ["SQLiteStorage", "Storage", "default_store_path"]
