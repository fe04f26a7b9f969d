"""The engine side of ``backup()`` and ``restore()``: argument checks, then the storage."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import StorageError, ValidationError
from ..hygiene import check_path

if TYPE_CHECKING:
    from .engine import Engine

__all__ = ["run_backup", "run_restore"]


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
    if passphrase is not None and (not isinstance(passphrase, str) or not passphrase):
        raise ValidationError("passphrase", "must be a non-empty string or None")
    restore = getattr(engine.storage, "restore_from", None)
    if restore is None:
        raise StorageError("this storage backend has no restore")
    with engine.lock:
        engine.ensure()
        restore(
            source,
            passphrase=passphrase,
            model=engine.embedder.model_id,
            dimension=engine.embedder.dimension,
        )
        engine.reload()
