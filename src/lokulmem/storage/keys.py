"""Where an encrypted store's derived key is kept between opens (``key_storage``).

* ``"none"`` (default): nowhere.  Every open needs the passphrase (and pays
  PBKDF2's cost, about 0.1 s at 600,000 iterations on a laptop core).
* ``"session"``: in this process's memory, until it exits or
  :func:`forget_key` (the PRD's browser ``sessionStorage``): reopening the
  same store in the same process needs no passphrase.
* ``"keyring"``: in the operating system's keychain through the ``keyring``
  package (``pip install lokulmem[keyring]``): macOS Keychain, Windows
  Credential Locker, the Secret Service on Linux.  Anyone who can read that
  keychain entry can read the store; that is the trade the option makes.

Keys are filed under the store's resolved path and its salt, so a
re-encrypted store (new salt) never meets an old key.
"""

from __future__ import annotations

import base64
import contextlib
import os
import threading
from dataclasses import dataclass, field
from typing import Any, Literal

from ..errors import ConfigError, EncryptionError

__all__ = ["KEY_STORAGES", "KeyStorage", "Unlock", "forget_key", "load_key", "save_key"]

KeyStorage = Literal["none", "session", "keyring"]
KEY_STORAGES: tuple[KeyStorage, ...] = ("none", "session", "keyring")
#: The keychain service name of ``key_storage="keyring"``.
KEYRING_SERVICE = "lokulmem"

_session: dict[str, bytes] = {}
_session_lock = threading.Lock()


@dataclass(frozen=True)
class Unlock:
    """How to open (or create) an encrypted store.  The passphrase is never shown in a repr."""

    passphrase: str | None = field(default=None, repr=False)
    key_storage: KeyStorage = "none"
    iterations: int = 600_000

    def __post_init__(self) -> None:
        if self.passphrase is not None and (not isinstance(self.passphrase, str) or not self.passphrase):
            raise ConfigError("encryption_passphrase", "must be a non-empty string or None")
        if self.key_storage not in KEY_STORAGES:
            raise ConfigError("key_storage", f"must be one of {list(KEY_STORAGES)}, got {self.key_storage!r}")
        if self.key_storage == "keyring":
            _keyring()  # fail now, naming the option, if the package is missing


def _keyring() -> Any:  # the keyring module ships no type information
    try:
        import keyring
    except ImportError:
        raise ConfigError(
            "key_storage", "'keyring' needs the keyring package: pip install 'lokulmem[keyring]'"
        ) from None
    return keyring


def key_id(location: str, salt: bytes) -> str:
    """The name a store's key is filed under."""
    where = location if location == ":memory:" else os.path.realpath(location)
    return f"{where}|{base64.b64encode(salt).decode('ascii')}"


def load_key(storage: KeyStorage, ident: str) -> bytes | None:
    if storage == "session":
        with _session_lock:
            return _session.get(ident)
    if storage == "keyring":
        try:
            text = _keyring().get_password(KEYRING_SERVICE, ident)
        except Exception as exc:  # keyring backends raise their own types
            raise EncryptionError(f"cannot read the key from the OS keychain: {exc}") from exc
        return None if text is None else base64.b64decode(text)
    return None


def save_key(storage: KeyStorage, ident: str, key: bytes) -> None:
    if storage == "session":
        with _session_lock:
            _session[ident] = key
    elif storage == "keyring":
        try:
            _keyring().set_password(KEYRING_SERVICE, ident, base64.b64encode(key).decode("ascii"))
        except Exception as exc:  # keyring backends raise their own types
            raise EncryptionError(f"cannot store the key in the OS keychain: {exc}") from exc


def forget_key(storage: KeyStorage, ident: str) -> None:
    """Drop a kept key (after a passphrase change, or on request)."""
    if storage == "session":
        with _session_lock:
            _session.pop(ident, None)
    elif storage == "keyring":
        # Any failure (nothing was kept, no backend) leaves what we wanted: no key.
        with contextlib.suppress(Exception):
            _keyring().delete_password(KEYRING_SERVICE, ident)
