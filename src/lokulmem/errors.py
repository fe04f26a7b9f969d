"""The exception tree of lokulmem.

Every error the library raises on purpose is a :class:`LokulMemError`::

    LokulMemError
    ├── ConfigError                  a constant or option is invalid (names the field)
    ├── ValidationError              an argument of a public call is invalid (names the item)
    │   └── ImportFormatError        an import document is malformed (names the first problem)
    ├── MemoryNotFoundError          no memory has the given id
    ├── StoreClosedError             the client was closed
    ├── CompactionError              compaction's continuity check failed (nothing kept)
    ├── StorageError                 the store cannot be opened, read or written
    │   ├── SchemaVersionError       the file was written by a newer lokulmem
    │   ├── EmbeddingModelMismatchError
    │   │                            the store's vectors come from another embedding model
    │   └── EncryptionError          the store's encryption cannot be used as asked
    │       ├── WrongPassphraseError the passphrase (or kept key) does not open the store
    │       └── PassphraseRequiredError
    │                                the store is encrypted and no passphrase was given
    └── EmbeddingError               the embedding model cannot be loaded or run
        └── ModelIntegrityError      a shipped model file (the embedder's, or the
                                     contradiction head's) is missing or failed
                                     its sha256 check

``ConfigError`` and ``ValidationError`` are also ``ValueError`` (and
``ValidationError`` a ``TypeError``) so that code written against the builtin
exceptions keeps working.  A failed write never leaves a partial change behind:
every multi-row change is one SQLite transaction.
"""

from __future__ import annotations

__all__ = [
    "CompactionError",
    "ConfigError",
    "EmbeddingError",
    "EmbeddingModelMismatchError",
    "EncryptionError",
    "ImportFormatError",
    "LokulMemError",
    "MemoryNotFoundError",
    "ModelIntegrityError",
    "PassphraseRequiredError",
    "SchemaVersionError",
    "StorageError",
    "StoreClosedError",
    "ValidationError",
    "WrongPassphraseError",
]


class LokulMemError(Exception):
    """Base class of every error raised by lokulmem."""


class ConfigError(LokulMemError, ValueError):
    """A configuration value is invalid; ``field`` names it."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


class ValidationError(LokulMemError, ValueError, TypeError):
    """An argument of a public call is invalid; ``item`` names the offending item."""

    def __init__(self, item: str, message: str) -> None:
        super().__init__(f"{item}: {message}")
        self.item = item


class ImportFormatError(ValidationError):
    """An import document is malformed; ``item`` is the path of the first problem
    (``"memories[3].content"``).  Nothing was written."""


class MemoryNotFoundError(LokulMemError, KeyError):
    """No memory with ``memory_id`` exists in the store.

    For bulk operations ``memory_ids`` lists every unknown id (``memory_id``
    is the first) and nothing was changed.
    """

    def __init__(self, memory_id: str, *more: str) -> None:
        super().__init__(memory_id)
        self.memory_id = memory_id
        self.memory_ids: tuple[str, ...] = (memory_id, *more)

    def __str__(self) -> str:
        if len(self.memory_ids) > 1:
            shown = ", ".join(repr(i) for i in self.memory_ids[:5])
            more = f" and {len(self.memory_ids) - 5} more" if len(self.memory_ids) > 5 else ""
            return f"no memories with ids {shown}{more}"
        return f"no memory with id {self.memory_id!r}"


class StoreClosedError(LokulMemError):
    """The client (and its store) has been closed."""


class CompactionError(LokulMemError):
    """After ``compact()`` wrote its artifacts, a compacted fact or artifact was not
    retrievable by a targeted query; the artifacts are removed and nothing is replaced."""


class StorageError(LokulMemError):
    """The store cannot be opened, read or written."""


class SchemaVersionError(StorageError):
    """The store was written by a newer schema version than this lokulmem knows."""


class EmbeddingModelMismatchError(StorageError):
    """The store holds vectors of another embedding model than the one configured."""


class EncryptionError(StorageError):
    """The store's encryption cannot be used as asked (for example a passphrase for
    a store that holds plaintext memories: ``change_passphrase()`` encrypts it)."""


class WrongPassphraseError(EncryptionError):
    """The passphrase, or the key kept by ``key_storage``, does not open this store.
    Raised before anything is read or written."""


class PassphraseRequiredError(EncryptionError):
    """The store is encrypted and no passphrase (or kept key) was given.  Nothing
    was read or written: an encrypted store never opens as an empty one."""


class EmbeddingError(LokulMemError):
    """The embedding model cannot be loaded or run."""


class ModelIntegrityError(EmbeddingError):
    """A model file is missing or does not match its expected sha256 (the message names it).

    Raised for the embedding model and for the contradiction head
    (``contradiction_classifier=True``); it stays an :class:`EmbeddingError`
    so code written against earlier releases keeps catching it."""
