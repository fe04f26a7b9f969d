"""Injection modes (``lokulmem.retrieval.injection``, PRD §10.5) on hand-built messages."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from lokulmem import ConfigError, LokulMem, split_system
from lokulmem.config import INJECTION_MODES
from lokulmem.retrieval import inject

BLOCK = (
    "[Memory Context — what you know about this user]\n"
    "• User lives in Porto. (confidence: medium)\n[End Memory Context]"
)
HISTORY = [
    {"role": "system", "content": "You are a helpful assistant."},
    {"role": "user", "content": "Hi"},
    {"role": "assistant", "content": "Hello!"},
]
#: The roles each client's chat API accepts in ``messages``.
ACCEPTED_ROLES = {
    "openai": {"system", "developer", "user", "assistant", "tool"},
    "ollama": {"system", "user", "assistant", "tool"},
    "anthropic": {"user", "assistant"},  # after split_system: the system text goes to system=
}


def roles(messages: list[dict[str, Any]]) -> list[str]:
    return [m["role"] for m in messages]


def test_each_mode_places_the_block_where_it_says() -> None:
    before = copy.deepcopy(HISTORY)
    prepend = inject(HISTORY, "Where do I live?", BLOCK, "prepend-system")
    assert roles(prepend) == ["system", "user", "assistant", "user"]
    assert prepend[0]["content"] == BLOCK + "\n\nYou are a helpful assistant."
    own = inject(HISTORY, "Where do I live?", BLOCK, "new-system-message")
    assert roles(own) == ["system", "system", "user", "assistant", "user"] and own[1]["content"] == BLOCK
    developer = inject(HISTORY, "Where do I live?", BLOCK, "developer-message")
    assert roles(developer) == ["system", "developer", "user", "assistant", "user"]
    prefix = inject(HISTORY, "Where do I live?", BLOCK, "user-turn-prefix")
    assert roles(prefix) == ["system", "user", "assistant", "user"]
    assert prefix[-1]["content"] == BLOCK + "\n\nWhere do I live?" and prefix[0] == HISTORY[0]
    assert before == HISTORY  # the caller's list and dicts are untouched


@pytest.mark.parametrize("mode", INJECTION_MODES)
def test_no_block_leaves_the_messages_alone_and_every_client_accepts_the_result(mode: str) -> None:
    assert inject(HISTORY, "Hi again", "", mode) == [*HISTORY, {"role": "user", "content": "Hi again"}]  # type: ignore[arg-type]
    messages = inject(HISTORY, "Where do I live?", BLOCK, mode)  # type: ignore[arg-type]
    system, rest = split_system(messages)
    assert BLOCK in system or BLOCK in rest[-1]["content"]
    assert "You are a helpful assistant." in system
    assert set(roles(rest)) <= ACCEPTED_ROLES["anthropic"]
    assert set(roles(messages)) <= ACCEPTED_ROLES["openai"]
    if mode != "developer-message":
        assert set(roles(messages)) <= ACCEPTED_ROLES["ollama"]


def test_without_a_system_message_and_with_content_blocks() -> None:
    bare = [{"role": "user", "content": "Hi"}]
    assert roles(inject(bare, "Q", BLOCK, "prepend-system")) == ["system", "user", "user"]
    assert roles(inject(bare, "Q", BLOCK, "new-system-message")) == ["system", "user", "user"]
    blocks = [{"role": "system", "content": [{"type": "text", "text": "Be brief."}]}]
    out = inject(blocks, "Q", BLOCK, "prepend-system")
    assert out[0]["content"][0] == {"type": "text", "text": BLOCK}
    system, rest = split_system(out)
    assert system == BLOCK + "\nBe brief." and rest == [{"role": "user", "content": "Q"}]


def test_the_mode_is_an_option_of_the_client(make_mem: Callable[..., LokulMem]) -> None:
    mem = make_mem(injection_mode="user-turn-prefix")
    mem.learn("I live in Porto.")
    result = mem.augment("Where do I live?", HISTORY)
    assert "User lives in Porto." in result.messages[-1]["content"]
    assert result.messages[0] == HISTORY[0]
    with pytest.raises(ConfigError, match="injection_mode"):
        LokulMem(storage="memory", injection_mode="system-suffix")
