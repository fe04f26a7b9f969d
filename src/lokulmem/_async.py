"""Typed async twins of sync methods (starlette's ``run_in_threadpool`` shape).

``AsyncLokulMem`` and ``AsyncManager`` declare each method once as
``name = async_twin(SyncClass.name)``: the twin has the sync method's
parameters (``ParamSpec``), returns an awaitable of its result, and runs the
call on the owner's worker thread through the owner's ``_run``.  A test checks
that every public sync method has a twin with the same signature.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar

__all__ = ["Runner", "async_twin", "same_thread"]

P = ParamSpec("P")
T = TypeVar("T")


class Runner(Protocol):
    """An async facade: the sync object it wraps and a coroutine that runs calls on a thread."""

    _sync: Any

    def _run(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Awaitable[T]: ...


def async_twin(method: Callable[Concatenate[Any, P], T]) -> Callable[Concatenate[Runner, P], Awaitable[T]]:
    """The awaitable twin of ``method``, called on the facade's ``_sync`` object."""
    name = method.__name__

    @functools.wraps(method)
    async def twin(self: Runner, /, *args: P.args, **kwargs: P.kwargs) -> T:
        return await self._run(getattr(self._sync, name), *args, **kwargs)

    return twin


def same_thread(method: Callable[Concatenate[Any, P], T]) -> Callable[Concatenate[Runner, P], T]:
    """A plain (not awaitable) forward of ``method``, for calls that do no I/O
    (event subscriptions)."""
    name = method.__name__

    @functools.wraps(method)
    def forward(self: Runner, /, *args: P.args, **kwargs: P.kwargs) -> T:
        result: T = getattr(self._sync, name)(*args, **kwargs)
        return result

    return forward
