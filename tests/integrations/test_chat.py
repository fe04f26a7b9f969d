"""The client wrappers with the real openai, anthropic and ollama libraries,
against a local server speaking their wire formats (tests/integrations/wire.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import anyio
import pytest
from wire import Wire, serve

from lokulmem import AsyncLokulMem, LokulMem, ValidationError
from lokulmem.config.parts import INJECTION_MODES
from lokulmem.integrations import (
    AnthropicChat,
    AsyncAnthropicChat,
    AsyncOllamaChat,
    AsyncOpenAIChat,
    OllamaChat,
    OpenAIChat,
)

openai = pytest.importorskip("openai")
anthropic = pytest.importorskip("anthropic")
ollama = pytest.importorskip("ollama")

BLOCK = "[Memory Context — what you know about this user]"


@pytest.fixture
def wire() -> Iterator[Wire]:
    with serve() as w:
        yield w


def openai_chat(wire: Wire, mem: LokulMem) -> Callable[[list[dict[str, Any]]], Any]:
    chat = OpenAIChat(openai.OpenAI(base_url=f"{wire.url}/v1", api_key="test", max_retries=0), mem)
    return lambda messages: chat.create(model="gpt-test", messages=messages)


def anthropic_chat(wire: Wire, mem: LokulMem) -> Callable[[list[dict[str, Any]]], Any]:
    chat = AnthropicChat(anthropic.Anthropic(base_url=wire.url, api_key="test", max_retries=0), mem)
    return lambda messages: chat.create(
        model="claude-test", max_tokens=64, system="You are kind.", messages=messages
    )


def ollama_chat(wire: Wire, mem: LokulMem) -> Callable[[list[dict[str, Any]]], Any]:
    chat = OllamaChat(ollama.Client(host=wire.url), mem)
    return lambda messages: chat.chat(model="llama-test", messages=messages)


CLIENTS = {"openai": openai_chat, "anthropic": anthropic_chat, "ollama": ollama_chat}


def sent_text(path: str, body: dict[str, Any]) -> str:
    """Everything the request gave the model to read, system parameter included."""
    parts = [str(body.get("system", ""))]
    for m in body["messages"]:
        content = m["content"]
        parts.append(content if isinstance(content, str) else " ".join(b.get("text", "") for b in content))
    return "\n".join(parts)


@pytest.mark.parametrize("client", sorted(CLIENTS))
def test_one_call_learns_after_and_augments_before(
    client: str, wire: Wire, make_mem: Callable[..., LokulMem]
) -> None:
    mem = make_mem()
    call = CLIENTS[client](wire, mem)
    call([{"role": "user", "content": "I live in Porto and I work as a nurse."}])
    assert {m.content for m in mem.manage().list()} == {"User lives in Porto.", "User works as a nurse."}
    history = [
        {"role": "user", "content": "I live in Porto and I work as a nurse."},
        {"role": "assistant", "content": "Noted."},
    ]
    response = call([*history, {"role": "user", "content": "Where do I live?"}])
    path, body = wire.requests[-1]
    assert BLOCK in sent_text(path, body) and "User lives in Porto." in sent_text(path, body)
    if client == "anthropic":  # the block and the caller's system go to system=, not to messages
        assert BLOCK in body["system"] and "You are kind." in body["system"]
        assert {m["role"] for m in body["messages"]} <= {"user", "assistant"}
        assert response.content[0].text == "Noted."
    assert body["messages"][-1]["content"].endswith("Where do I live?")


@pytest.mark.parametrize("mode", INJECTION_MODES)
@pytest.mark.parametrize("client", sorted(CLIENTS))
def test_every_injection_mode_is_accepted_by_every_api(
    client: str, mode: str, wire: Wire, make_mem: Callable[..., LokulMem]
) -> None:
    mem = make_mem(injection_mode=mode)
    mem.learn("I live in Porto.")
    CLIENTS[client](wire, mem)(
        [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Where do I live?"}]
    )
    path, body = wire.requests[-1]  # the server answered 200: it would have raised otherwise
    assert "User lives in Porto." in sent_text(path, body)


def test_a_refused_request_raises_the_clients_error_and_learns_nothing(
    wire: Wire, make_mem: Callable[..., LokulMem]
) -> None:
    mem = make_mem()
    chat = OpenAIChat(openai.OpenAI(base_url=f"{wire.url}/v1", api_key="test", max_retries=0), mem)
    with pytest.raises(openai.BadRequestError):
        chat.create(
            model="m",
            messages=[{"role": "narrator", "content": "x"}, {"role": "user", "content": "I live in Porto."}],
        )
    assert mem.manage().list() == []


@pytest.mark.parametrize(
    ("messages", "extra", "item"),
    [
        ([], {}, "messages"),
        ([{"role": "assistant", "content": "hi"}], {}, "messages[-1]"),
        ([{"role": "user", "content": "hi"}], {"stream": True}, "stream"),
    ],
)
def test_bad_calls_are_validation_errors_and_send_nothing(
    wire: Wire,
    make_mem: Callable[..., LokulMem],
    messages: list[dict[str, Any]],
    extra: dict[str, Any],
    item: str,
) -> None:
    chat = OpenAIChat(openai.OpenAI(base_url=f"{wire.url}/v1", api_key="test", max_retries=0), make_mem())
    with pytest.raises(ValidationError) as info:
        chat.create(model="m", messages=messages, **extra)
    assert info.value.item == item and wire.requests == []


def test_the_async_wrappers(wire: Wire, tmp_path: Any, embedder: Any) -> None:
    async def run() -> list[str]:
        async with AsyncLokulMem(path=tmp_path / "a.sqlite", embedder=embedder) as mem:
            chats = [
                (
                    AsyncOpenAIChat(
                        openai.AsyncOpenAI(base_url=f"{wire.url}/v1", api_key="t", max_retries=0), mem
                    ),
                    {"model": "m"},
                ),
                (
                    AsyncAnthropicChat(
                        anthropic.AsyncAnthropic(base_url=wire.url, api_key="t", max_retries=0), mem
                    ),
                    {"model": "m", "max_tokens": 16},
                ),
            ]
            await chats[0][0].create(
                messages=[{"role": "user", "content": "I live in Porto."}], **chats[0][1]
            )
            await chats[1][0].create(
                messages=[{"role": "user", "content": "Where do I live?"}], **chats[1][1]
            )
            ollama_chat = AsyncOllamaChat(ollama.AsyncClient(host=wire.url), mem)
            await ollama_chat.chat(
                model="m", messages=[{"role": "user", "content": "Where do I live again?"}]
            )
            return [m.content for m in await mem.manage().list()]

    assert anyio.run(run) == ["User lives in Porto."]
    assert [p for p, _ in wire.requests] == ["/v1/chat/completions", "/v1/messages", "/api/chat"]
    for path, body in wire.requests[1:]:
        assert "User lives in Porto." in sent_text(path, body)
