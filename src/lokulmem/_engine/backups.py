"""The engine side of whole-store operations (``backup()``, ``restore()``,
``change_passphrase()``): argument checks, then the storage under the engine lock."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import EncryptionError, StorageError, ValidationError
from ..hygiene import check_path

if TYPE_CHECKING:
    from .engine import Engine

__all__ = ["run_backup", "run_change_passphrase", "run_restore"]


def run_backup(engine: Engine, path: object, *, overwrite: object = False) -> Path:
    """See ``LokulMem.backup``."""
    target = check_path("path", path)
    if not isinstance(overwrite, bool):
        raise ValidationError("overwrite", "must be True or False")
    backup = getattr(engine.storage, "backup_to", None)
    if backup is None:
        raise StorageError("this storage backend has no backup")
    engine.ensure()
    result: Path = backup(target, overwrite=overwrite)
    return result


def run_restore(engine: Engine, path: object, *, passphrase: object = None) -> None:
    """See ``LokulMem.restore``."""
    source = check_path("path", path)
    _passphrase("passphrase", passphrase)
    restore = _capability(engine, "restore_from", StorageError("this storage backend has no restore"))
    with engine.lock:
        engine.ensure()
        restore(
            source,
            passphrase=passphrase,
            model=engine.embedder.model_id,
            dimension=engine.embedder.dimension,
        )
        engine.reload()


def run_change_passphrase(engine: Engine, new_passphrase: object) -> None:
    """See ``LokulMem.change_passphrase``."""
    _passphrase("new_passphrase", new_passphrase)
    rekey = _capability(
        engine, "change_passphrase", EncryptionError("this storage backend has no encryption")
    )
    with engine.lock:
        engine.ensure()
        rekey(new_passphrase, iterations=engine.config.pbkdf2_iterations)
        engine.reload()


def _passphrase(name: str, value: object) -> None:
    if value is not None and (not isinstance(value, str) or not value):
        raise ValidationError(name, "must be a non-empty string, or None")


def _capability(engine: Engine, method: str, missing: Exception) -> Any:
    """The storage's ``method`` (SQLite has it; another backend may not)."""
    found = getattr(engine.storage, method, None)
    if found is None:
        raise missing
    return found
