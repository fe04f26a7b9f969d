"""examples/*.py run as written, against the local wire server (no network)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from wire import serve

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize(
    ("script", "endpoint"),
    [
        ("openai_chat.py", "--base-url={url}/v1"),
        ("anthropic_chat.py", "--base-url={url}"),
        ("ollama_chat.py", "--host={url}"),
    ],
)
def test_the_example_chats_remember(script: str, endpoint: str, tmp_path: Path) -> None:
    pytest.importorskip(script.split("_")[0])
    with serve() as wire:
        done = subprocess.run(
            [
                sys.executable,
                str(EXAMPLES / script),
                endpoint.format(url=wire.url),
                "--path",
                str(tmp_path / "chat.sqlite"),
                "I live in Porto and I work as a nurse.",
                "Where do I live?",
            ],
            capture_output=True,
            text=True,
            timeout=180,
            env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
        )
    assert done.returncode == 0, done.stderr
    assert "memory: User lives in Porto." in done.stdout and "assistant: Noted." in done.stdout
