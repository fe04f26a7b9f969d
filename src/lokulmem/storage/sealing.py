"""Encryption at rest: how the text fields of a store are sealed (PRD §9 "Encryption Note").

A store opened with ``encryption_passphrase=`` keeps every free-text field
that reveals what the user said as AES-256-GCM ciphertext: a memory's
content, source text, source message, reply context, entities, key,
attribute value and metadata; an episode's summary and topics; a cluster's
label; an edge's shared entities; an import audit's name, origin and
rejections.  The full-text index of such a store lives only in memory
(:mod:`lokulmem.storage.sqlite_fts`).  Embeddings, ids, types, timestamps,
strengths and statuses stay in the clear: cosine search needs the vectors,
and the rest is what the panel sorts and filters on.

Keys: PBKDF2-HMAC-SHA256 over the passphrase with a random 16-byte salt
(``Config.pbkdf2_iterations``, default 600,000 as OWASP advises in 2023 for
PBKDF2-HMAC-SHA256; never under the PRD's 100,000) gives a 32-byte master
key; HKDF-SHA256 splits it into the field key (AES-256-GCM, a random
12-byte nonce per write, the table, column and row id as associated data so
a ciphertext cannot be moved to another row or column) and the lookup key
(AES-SIV, deterministic, for the ``key`` column only, which imports look up
by equality: it reveals which memories share a key, nothing more).

A sealed value is text: ``"lm1:" + base64(nonce ‖ ciphertext ‖ tag)``.
"""

from __future__ import annotations

import base64
import json
import os
from dataclasses import dataclass
from typing import Any, Protocol

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM, AESSIV
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives.kdf.pbkdf2 import PBKDF2HMAC

from ..errors import StorageError, WrongPassphraseError

__all__ = [
    "PLAIN",
    "SCHEME",
    "SEALED_FIELDS",
    "AESSealer",
    "EncryptionHeader",
    "PlainSealer",
    "Sealer",
    "derive_key",
]

#: Names the cipher suite in the store's ``meta`` ("encryption" row).
SCHEME = "aes-256-gcm/aes-siv/pbkdf2-sha256/v1"
_PREFIX = "lm1:"
_SALT_BYTES = 16
_NONCE_BYTES = 12
#: What the verifier seals: opening it proves the passphrase before anything is read or written.
_VERIFIER_TEXT = "lokulmem passphrase check"
_VERIFIER_WHERE = "meta.encryption"


#: The sealed columns of each table (AES-GCM, associated data ``"<table>.<column>:<id>"``);
#: ``memories.key`` is sealed for lookups (AES-SIV) besides these.
SEALED_FIELDS: dict[str, tuple[str, ...]] = {
    "memories": (
        "content",
        "entities",
        "source_text",
        "attribute_value",
        "metadata",
        "source_context",
        "reply_context",
    ),
    "episodes": ("summary", "topics"),
    "clusters": ("label",),
    "edges": ("shared_entities",),
    "bridge_events": ("name", "origin", "rejected"),
}


class Sealer(Protocol):
    """Seals and opens the text fields of a store (identity for a plain store)."""

    @property
    def encrypted(self) -> bool: ...

    def seal(self, text: str, where: str) -> str:
        """``text`` sealed for the field ``where`` (``"memories.content:<id>"``)."""
        ...

    def open(self, token: str, where: str) -> str:
        """The text sealed by :meth:`seal` for the same ``where``."""
        ...

    def seal_lookup(self, text: str | None) -> str | None:
        """``text`` sealed deterministically (equal texts, equal tokens), for lookups."""
        ...

    def open_lookup(self, token: str | None) -> str | None: ...


class PlainSealer:
    """The sealer of an unencrypted store: every method returns its input."""

    encrypted = False

    def seal(self, text: str, where: str) -> str:
        return text

    def open(self, token: str, where: str) -> str:
        return token

    def seal_lookup(self, text: str | None) -> str | None:
        return text

    def open_lookup(self, token: str | None) -> str | None:
        return token


PLAIN = PlainSealer()


def derive_key(passphrase: str, salt: bytes, iterations: int) -> bytes:
    """The 32-byte master key: PBKDF2-HMAC-SHA256(passphrase, salt, iterations)."""
    kdf = PBKDF2HMAC(algorithm=hashes.SHA256(), length=32, salt=salt, iterations=iterations)
    return kdf.derive(passphrase.encode("utf-8", "surrogatepass"))


def _subkey(master: bytes, info: bytes, length: int) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=None, info=info).derive(master)


class AESSealer:
    """AES-256-GCM for fields, AES-SIV for lookups; both keys from one master key."""

    encrypted = True

    def __init__(self, master_key: bytes) -> None:
        if len(master_key) != 32:
            raise ValueError("the master key has 32 bytes")
        self.master_key = master_key
        self._gcm = AESGCM(_subkey(master_key, b"lokulmem fields v1", 32))
        self._siv = AESSIV(_subkey(master_key, b"lokulmem lookups v1", 64))

    def seal(self, text: str, where: str) -> str:
        nonce = os.urandom(_NONCE_BYTES)
        sealed = self._gcm.encrypt(nonce, text.encode("utf-8"), where.encode("utf-8"))
        return _PREFIX + base64.b64encode(nonce + sealed).decode("ascii")

    def open(self, token: str, where: str) -> str:
        raw = _unwrap(token, where)
        try:
            plain = self._gcm.decrypt(raw[:_NONCE_BYTES], raw[_NONCE_BYTES:], where.encode("utf-8"))
        except InvalidTag:
            raise StorageError(f"{where}: the ciphertext does not authenticate (altered or moved)") from None
        return plain.decode("utf-8")

    def seal_lookup(self, text: str | None) -> str | None:
        if text is None:
            return None
        return _PREFIX + base64.b64encode(self._siv.encrypt(text.encode("utf-8"), [b"lookup"])).decode(
            "ascii"
        )

    def open_lookup(self, token: str | None) -> str | None:
        if token is None:
            return None
        try:
            return self._siv.decrypt(_unwrap(token, "lookup"), [b"lookup"]).decode("utf-8")
        except InvalidTag:
            raise StorageError("a sealed lookup value does not authenticate (altered)") from None


def _unwrap(token: str, where: str) -> bytes:
    if not isinstance(token, str) or not token.startswith(_PREFIX):
        raise StorageError(f"{where}: expected a sealed value in an encrypted store")
    try:
        return base64.b64decode(token[len(_PREFIX) :], validate=True)
    except ValueError:
        raise StorageError(f"{where}: a sealed value is not valid base64") from None


@dataclass(frozen=True)
class EncryptionHeader:
    """The ``meta`` row "encryption" of an encrypted store: never secret."""

    salt: bytes
    iterations: int
    verifier: str
    scheme: str = SCHEME

    @classmethod
    def create(cls, passphrase: str, iterations: int) -> tuple[EncryptionHeader, AESSealer]:
        """A new salt, the key it gives, and the verifier sealed with it."""
        salt = os.urandom(_SALT_BYTES)
        sealer = AESSealer(derive_key(passphrase, salt, iterations))
        return cls(salt, iterations, sealer.seal(_VERIFIER_TEXT, _VERIFIER_WHERE)), sealer

    def unlock(self, passphrase: str) -> AESSealer:
        """The sealer of this store, or ``WrongPassphraseError`` (nothing is written)."""
        return self.unlock_key(derive_key(passphrase, self.salt, self.iterations))

    def unlock_key(self, master_key: bytes) -> AESSealer:
        """The sealer for a master key kept earlier (``key_storage``), checked."""
        sealer = AESSealer(master_key)
        try:
            ok = sealer.open(self.verifier, _VERIFIER_WHERE) == _VERIFIER_TEXT
        except StorageError:
            ok = False
        if not ok:
            raise WrongPassphraseError("the passphrase (or stored key) does not open this store")
        return sealer

    def to_json(self) -> str:
        return json.dumps(
            {
                "scheme": self.scheme,
                "salt": base64.b64encode(self.salt).decode("ascii"),
                "iterations": self.iterations,
                "verifier": self.verifier,
            }
        )

    @classmethod
    def from_json(cls, text: str) -> EncryptionHeader:
        try:
            d: dict[str, Any] = json.loads(text)
            header = cls(
                base64.b64decode(d["salt"]), int(d["iterations"]), str(d["verifier"]), str(d["scheme"])
            )
        except (ValueError, KeyError, TypeError) as exc:
            raise StorageError(f"the store's encryption header is damaged: {exc}") from None
        if header.scheme != SCHEME:
            raise StorageError(
                f"unknown encryption scheme {header.scheme!r} (this lokulmem reads {SCHEME!r})"
            )
        return header
