"""One call that augments before and learns after, for the OpenAI, Anthropic and
Ollama Python clients (sync and async).

    chat = OpenAIChat(openai.OpenAI(), memory)
    response = chat.create(model="gpt-4o-mini", messages=[*history, {"role": "user", "content": text}])

``create`` takes the client's own arguments and returns the client's own
response.  The last message must be the user's new one: it goes through
``augment()`` with the messages before it as history, the client is called
with the augmented messages, and the reply's text and the user's message go
through ``learn()``.  ``chat.last`` is the :class:`~lokulmem.AugmentResult`
of the last call (its ``debug`` record with ``debug=True``).  The clients are
duck-typed: lokulmem imports none of them.  Streaming is not wrapped
(``stream=True`` is a :class:`~lokulmem.ValidationError`): call ``augment`` and
``learn`` around your own stream.

Each API's shape:

* OpenAI ``client.chat.completions.create(messages=..., ...)``: every
  injection mode works (``developer-message`` is OpenAI's own role);
* Anthropic ``client.messages.create(messages=..., system=..., ...)``: the
  memory block and any ``system`` go to ``system=`` (:func:`~lokulmem.split_system`),
  only user and assistant turns to ``messages``;
* Ollama ``client.chat(model=..., messages=...)``: a ``developer`` message is
  sent as ``system`` (Ollama knows no developer role).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..client import AsyncLokulMem, LokulMem
from ..errors import ValidationError
from ..records import AugmentResult
from ..retrieval import split_system
from ..retrieval.budget import message_text

__all__ = [
    "AnthropicChat",
    "AsyncAnthropicChat",
    "AsyncOllamaChat",
    "AsyncOpenAIChat",
    "OllamaChat",
    "OpenAIChat",
]


def _turn(messages: object, system: object = None) -> tuple[str, list[dict[str, Any]]]:
    """The user's new message and the history before it (``system`` first, if given)."""
    if not isinstance(messages, Sequence) or isinstance(messages, (str, bytes)) or not messages:
        raise ValidationError("messages", "must be a non-empty list of messages")
    last = messages[-1]
    if not isinstance(last, Mapping) or last.get("role") != "user":
        raise ValidationError("messages[-1]", "must be the user's new message (role 'user')")
    history = [dict(m) if isinstance(m, Mapping) else m for m in messages[:-1]]
    if system is not None:
        history.insert(0, {"role": "system", "content": system})
    return message_text(last), history


def _no_stream(kwargs: Mapping[str, Any]) -> None:
    if kwargs.get("stream"):
        raise ValidationError(
            "stream", "streaming is not wrapped: call augment() and learn() around the stream"
        )


def _openai_reply(response: Any) -> str:
    choices = getattr(response, "choices", None) or []
    return str(getattr(choices[0].message, "content", None) or "") if choices else ""


def _anthropic_reply(response: Any) -> str:
    blocks = getattr(response, "content", None) or []
    return "\n".join(str(b.text) for b in blocks if getattr(b, "type", None) == "text")


def _ollama_reply(response: Any) -> str:
    message = response["message"] if isinstance(response, Mapping) else response.message
    content = message.get("content") if isinstance(message, Mapping) else getattr(message, "content", None)
    return str(content or "")


def _anthropic_call(result: AugmentResult, kwargs: dict[str, Any]) -> dict[str, Any]:
    system, rest = split_system(result.messages)
    call = {**kwargs, "messages": rest}
    if system:
        call["system"] = system
    return call


def _ollama_messages(result: AugmentResult) -> list[dict[str, Any]]:
    return [{**m, "role": "system"} if m.get("role") == "developer" else m for m in result.messages]


@dataclass
class _Wrapper:
    client: Any
    memory: LokulMem
    #: Session the turns are learned under (default: the store's).
    session_id: str | None = None
    #: Keyword arguments for every ``augment()`` (``debug=True``, ``max_memories=``, ...).
    augment_options: Mapping[str, Any] = field(default_factory=dict)
    #: The last call's augment result.
    last: AugmentResult | None = None

    def _augment(self, text: str, history: list[dict[str, Any]]) -> AugmentResult:
        self.last = self.memory.augment(text, history, **self.augment_options)
        return self.last


@dataclass
class _AsyncWrapper:
    client: Any
    memory: AsyncLokulMem
    session_id: str | None = None
    augment_options: Mapping[str, Any] = field(default_factory=dict)
    last: AugmentResult | None = None

    async def _augment(self, text: str, history: list[dict[str, Any]]) -> AugmentResult:
        self.last = await self.memory.augment(text, history, **self.augment_options)
        return self.last


class OpenAIChat(_Wrapper):
    """``openai.OpenAI`` chat completions with memory."""

    def create(self, *, messages: Sequence[Mapping[str, Any]], **kwargs: Any) -> Any:
        _no_stream(kwargs)
        text, history = _turn(messages)
        result = self._augment(text, history)
        response = self.client.chat.completions.create(messages=result.messages, **kwargs)
        self.memory.learn(text, _openai_reply(response), session_id=self.session_id)
        return response


class AsyncOpenAIChat(_AsyncWrapper):
    """``openai.AsyncOpenAI`` chat completions with memory (an :class:`AsyncLokulMem`)."""

    async def create(self, *, messages: Sequence[Mapping[str, Any]], **kwargs: Any) -> Any:
        _no_stream(kwargs)
        text, history = _turn(messages)
        result = await self._augment(text, history)
        response = await self.client.chat.completions.create(messages=result.messages, **kwargs)
        await self.memory.learn(text, _openai_reply(response), session_id=self.session_id)
        return response


class AnthropicChat(_Wrapper):
    """``anthropic.Anthropic`` messages with memory (the block goes to ``system=``)."""

    def create(self, *, messages: Sequence[Mapping[str, Any]], system: Any = None, **kwargs: Any) -> Any:
        _no_stream(kwargs)
        text, history = _turn(messages, system)
        result = self._augment(text, history)
        response = self.client.messages.create(**_anthropic_call(result, kwargs))
        self.memory.learn(text, _anthropic_reply(response), session_id=self.session_id)
        return response


class AsyncAnthropicChat(_AsyncWrapper):
    """``anthropic.AsyncAnthropic`` messages with memory."""

    async def create(
        self, *, messages: Sequence[Mapping[str, Any]], system: Any = None, **kwargs: Any
    ) -> Any:
        _no_stream(kwargs)
        text, history = _turn(messages, system)
        result = await self._augment(text, history)
        response = await self.client.messages.create(**_anthropic_call(result, kwargs))
        await self.memory.learn(text, _anthropic_reply(response), session_id=self.session_id)
        return response


class OllamaChat(_Wrapper):
    """``ollama.Client`` chat with memory."""

    def chat(self, *, model: str, messages: Sequence[Mapping[str, Any]], **kwargs: Any) -> Any:
        _no_stream(kwargs)
        text, history = _turn(messages)
        result = self._augment(text, history)
        response = self.client.chat(model=model, messages=_ollama_messages(result), **kwargs)
        self.memory.learn(text, _ollama_reply(response), session_id=self.session_id)
        return response


class AsyncOllamaChat(_AsyncWrapper):
    """``ollama.AsyncClient`` chat with memory."""

    async def chat(self, *, model: str, messages: Sequence[Mapping[str, Any]], **kwargs: Any) -> Any:
        _no_stream(kwargs)
        text, history = _turn(messages)
        result = await self._augment(text, history)
        response = await self.client.chat(model=model, messages=_ollama_messages(result), **kwargs)
        await self.memory.learn(text, _ollama_reply(response), session_id=self.session_id)
        return response
