"""A local HTTP server on 127.0.0.1 that speaks the OpenAI chat completions,
Anthropic messages and Ollama chat wire formats, and checks requests as those
APIs do on the points lokulmem touches (roles, where the system text goes).
Nothing leaves the machine; the real client libraries talk to it."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

OPENAI_ROLES = {"system", "developer", "user", "assistant", "tool"}
ANTHROPIC_ROLES = {"user", "assistant"}
OLLAMA_ROLES = {"system", "user", "assistant", "tool"}


@dataclass
class Wire:
    """What the server received, and what it answers."""

    url: str
    reply: str = "Noted."
    requests: list[tuple[str, dict[str, Any]]] = field(default_factory=list)


def _problem(path: str, body: dict[str, Any]) -> str | None:
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        return "messages: required"
    roles = {"/v1/chat/completions": OPENAI_ROLES, "/v1/messages": ANTHROPIC_ROLES, "/api/chat": OLLAMA_ROLES}
    allowed = roles[path]
    for i, m in enumerate(messages):
        if m.get("role") not in allowed:
            return f"messages.{i}.role: {m.get('role')!r} is not one of {sorted(allowed)}"
    if path == "/v1/messages":
        if messages[0]["role"] != "user":
            return "messages.0: the first message must use the user role"
        if "max_tokens" not in body:
            return "max_tokens: required"
        if "system" in body and not isinstance(body["system"], (str, list)):
            return "system: must be text or blocks"
    if path == "/api/chat" and body.get("stream") is not False:
        return "stream: this test server only answers stream=false"
    return None


def _answer(path: str, body: dict[str, Any], reply: str) -> dict[str, Any]:
    if path == "/v1/chat/completions":
        return {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 0,
            "model": body.get("model", "m"),
            "choices": [
                {"index": 0, "message": {"role": "assistant", "content": reply}, "finish_reason": "stop"}
            ],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        }
    if path == "/v1/messages":
        return {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": body.get("model", "m"),
            "content": [{"type": "text", "text": reply}],
            "stop_reason": "end_turn",
            "stop_sequence": None,
            "usage": {"input_tokens": 1, "output_tokens": 1},
        }
    return {
        "model": body.get("model", "m"),
        "created_at": "2026-01-01T00:00:00Z",
        "message": {"role": "assistant", "content": reply},
        "done": True,
        "done_reason": "stop",
    }


@contextmanager
def serve() -> Iterator[Wire]:
    """A running server; its ``url`` is ``http://127.0.0.1:PORT``."""
    wire = Wire(url="")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # http.server's name
            length = int(self.headers.get("Content-Length", 0))
            body = json.loads(self.rfile.read(length) or b"{}")
            wire.requests.append((self.path, body))
            problem = (
                _problem(self.path, body)
                if self.path in {"/v1/chat/completions", "/v1/messages", "/api/chat"}
                else f"unknown path {self.path}"
            )
            status, payload = (
                (400, {"error": {"message": problem}})
                if problem
                else (200, _answer(self.path, body, wire.reply))
            )
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:  # quiet
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    wire.url = f"http://127.0.0.1:{httpd.server_address[1]}"
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield wire
    finally:
        httpd.shutdown()
        httpd.server_close()
