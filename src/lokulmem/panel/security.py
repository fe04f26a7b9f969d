"""Who may talk to the panel: the per-run token, the host it answers to, same-origin writes.

* Every request needs the token: ``?token=`` in the URL the panel prints (a
  page visit then sets an HttpOnly, SameSite=Strict cookie), the cookie, or
  the ``X-Lokulmem-Token`` header.  Otherwise 401.
* The ``Host`` header must name the address the panel listens on (or
  ``localhost`` for a loopback one): a page elsewhere cannot reach it through
  DNS rebinding.  Otherwise 403.
* A write (any method but GET and HEAD) needs the token in the
  ``X-Lokulmem-Token`` header, which a cross-site form cannot send, and an
  ``Origin``, when the browser sends one, equal to the panel's own.  So a
  page on another origin cannot make the panel change the store even with
  the cookie.  Otherwise 403.
"""

from __future__ import annotations

import hmac
from collections.abc import Awaitable, Callable, MutableMapping
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qs

__all__ = ["COOKIE", "HEADER", "TokenGuard"]

COOKIE = "lokulmem_token"
HEADER = "x-lokulmem-token"
SAFE_METHODS = frozenset({"GET", "HEAD"})

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def _same(a: str | None, b: str) -> bool:
    return a is not None and hmac.compare_digest(a.encode(), b.encode())


class TokenGuard:
    """ASGI middleware enforcing the rules above for ``token`` on ``host:port``."""

    def __init__(self, app: ASGIApp, *, token: str, host: str, port: int) -> None:
        self.app, self.token = app, token
        names = {host}
        if host in ("127.0.0.1", "::1", "localhost"):
            names |= {"127.0.0.1", "localhost", "[::1]"}
        self.hosts = {f"{n}:{port}" for n in names}
        self.origins = {f"http://{h}" for h in self.hosts}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        cookie = SimpleCookie(headers.get("cookie", ""))
        from_query = (query.get("token") or [None])[0]
        presented = from_query or headers.get(HEADER) or (cookie[COOKIE].value if COOKIE in cookie else None)
        problem = self._problem(scope["method"], headers, presented)
        if problem is not None:
            await _plain(send, *problem)
            return
        if _same(from_query, self.token):
            await self.app(scope, receive, _with_cookie(send, self.token))
        else:
            await self.app(scope, receive, send)

    def _problem(self, method: str, headers: dict[str, str], presented: str | None) -> tuple[int, str] | None:
        if headers.get("host") not in self.hosts:
            return 403, "unknown host"
        if not _same(presented, self.token):
            return 401, "a valid token is required (use the URL lokulmem panel printed)"
        if method not in SAFE_METHODS:
            if not _same(headers.get(HEADER), self.token):
                return 403, "writes need the X-Lokulmem-Token header"
            origin = headers.get("origin")
            if origin is not None and origin not in self.origins:
                return 403, "cross-origin write refused"
        return None


async def _plain(send: Send, status: int, text: str) -> None:
    body = text.encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def _with_cookie(send: Send, token: str) -> Send:
    cookie = f"{COOKIE}={token}; HttpOnly; SameSite=Strict; Path=/".encode()

    async def wrapped(message: MutableMapping[str, Any]) -> None:
        if message["type"] == "http.response.start":
            message = {**message, "headers": [*message.get("headers", []), (b"set-cookie", cookie)]}
        await send(message)

    return wrapped
