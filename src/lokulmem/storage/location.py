"""Where a store file lives: the checks on ``path=`` and ``store_name=``."""

from __future__ import annotations

import os
import re
from pathlib import Path

from ..errors import ConfigError
from ..hygiene import is_clean

__all__ = ["default_store_path", "store_location"]

#: A store name: a file name under the user data dir, never a path (no separators,
#: no leading dot, so "../x" cannot leave the directory).
_STORE_NAME = re.compile(r"\w[\w .-]{0,127}")


def _store_name(name: object) -> str:
    if not isinstance(name, str) or not _STORE_NAME.fullmatch(name) or not is_clean(name):
        raise ConfigError(
            "store_name",
            f"must be 1-128 letters, digits, spaces, '_', '.' or '-' (not first), got {name!r}",
        )
    return name


def _checked_path(path: object) -> Path:
    try:
        where = os.fspath(path)  # type: ignore[call-overload]  # anything else is refused below
    except TypeError:
        raise ConfigError("path", f"must be a str or os.PathLike, got {type(path).__name__}") from None
    if isinstance(where, bytes):
        raise ConfigError("path", "must be text, not bytes")
    if "\x00" in where:
        raise ConfigError("path", "contains a NUL character")
    try:
        where.encode("utf-8")
    except UnicodeEncodeError:
        raise ConfigError("path", "must be encodable as UTF-8 (SQLite opens paths as UTF-8)") from None
    return Path(where)


def default_store_path(store_name: str) -> Path:
    """``<user data dir>/lokulmem/<store_name>.sqlite`` (via platformdirs)."""
    import platformdirs

    return Path(platformdirs.user_data_dir("lokulmem", appauthor=False)) / f"{store_name}.sqlite"


def store_location(path: object, store_name: object) -> Path:
    """The store file: ``path`` when given, else ``store_name`` under the user data dir.
    ``ConfigError`` naming the option when either cannot be a file name."""
    return _checked_path(path) if path is not None else default_store_path(_store_name(store_name))
