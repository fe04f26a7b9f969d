"""Input hygiene: what every public entry point does to text, ids and numbers it is given.

Pure functions; the argument checks of the client, the panel and the import
call them, so one rule holds everywhere:

* **Free text** (messages, replies, queries, corrected content, imported
  content) is *cleaned*, never refused for its characters: a lone surrogate
  (``"\\ud800"``, which cannot be encoded as UTF-8, so neither the tokenizer
  nor SQLite accepts it) becomes U+FFFD; NUL, the other C0 and C1 control
  characters (tab, newline and carriage return are kept) and the bidi
  embedding, override and isolate controls (U+202A–U+202E, U+2066–U+2069,
  the "Trojan Source" characters that make a memory read differently in the
  panel than it is stored) are removed.
* **Identifiers** (memory ids, session ids, conversation ids, reply ids) are
  *checked*: a non-empty string of at most ``Config.max_id_chars`` characters
  with none of those characters, else :class:`~lokulmem.ValidationError`
  naming the argument.  An id that could never have been issued is a caller's
  bug, not a lookup that finds nothing.
* **Numbers** must be finite (``nan`` and ``inf`` are refused).
* **Paths** (backups, streamed exports) are text the OS and SQLite can open:
  no NUL, encodable as UTF-8.
"""

from __future__ import annotations

import math
import os
import re
from pathlib import Path

from .errors import ValidationError

__all__ = ["check_finite", "check_id", "check_path", "check_text", "clean_text", "is_clean"]

#: Characters removed from free text (see the module docstring).
_REMOVED = "\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069"
_SURROGATES = "\ud800-\udfff"
_UNSAFE = re.compile(f"[{_REMOVED}{_SURROGATES}]")
_SURROGATE = re.compile(f"[{_SURROGATES}]")
_REMOVE = re.compile(f"[{_REMOVED}]")
#: Replaces a lone surrogate (Unicode's replacement character).
REPLACEMENT = "\ufffd"


def is_clean(text: str) -> bool:
    """True when ``text`` has nothing :func:`clean_text` would change."""
    return _UNSAFE.search(text) is None


def clean_text(text: str, limit: int | None = None) -> str:
    """``text`` cut at ``limit`` characters (before cleaning, so the time is bounded
    by the limit), lone surrogates replaced and unsafe controls removed."""
    if limit is not None and len(text) > limit:
        text = text[:limit]
    if _UNSAFE.search(text) is None:
        return text
    return _REMOVE.sub("", _SURROGATE.sub(REPLACEMENT, text))


def check_text(name: str, value: object, limit: int | None = None) -> str:
    """``value`` as clean text (see :func:`clean_text`); ``ValidationError`` naming
    ``name`` when it is not a string."""
    if not isinstance(value, str):
        raise ValidationError(name, f"must be a string, got {type(value).__name__}")
    return clean_text(value, limit)


def check_id(name: str, value: object, max_chars: int) -> str:
    """``value`` unchanged when it is a usable identifier, else ``ValidationError``."""
    if not isinstance(value, str):
        raise ValidationError(name, f"must be a non-empty string id, got {type(value).__name__}")
    if not value.strip():
        raise ValidationError(name, "must be a non-empty string id")
    if len(value) > max_chars:
        raise ValidationError(name, f"is {len(value):,} characters; ids have at most {max_chars:,}")
    if not is_clean(value):
        raise ValidationError(name, "contains a lone surrogate or a control character")
    return value


def check_finite(name: str, value: float) -> float:
    """``value`` when it is a finite number, else ``ValidationError``."""
    if not math.isfinite(value):
        raise ValidationError(name, f"must be a finite number, got {value!r}")
    return value


def check_path(name: str, value: object) -> Path:
    """``value`` as a file path: ``str`` or ``os.PathLike`` text, not empty, no NUL,
    encodable as UTF-8 (what SQLite and the OS accept), else ``ValidationError``."""
    if isinstance(value, bytes) or not isinstance(value, (str, os.PathLike)):
        raise ValidationError(name, f"must be a str or os.PathLike, got {type(value).__name__}")
    text = os.fspath(value)
    if not isinstance(text, str) or "\x00" in text or not text.strip():
        raise ValidationError(name, "must be a non-empty path without NUL")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValidationError(name, "must be encodable as UTF-8") from None
    path = Path(text)
    if not path.name:
        raise ValidationError(name, f"must name a file, got {text!r}")
    return path
