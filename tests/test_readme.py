"""The README's runnable examples run as written (those on an in-memory store)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
BLOCKS = [b for b in re.findall(r"```python\n(.*?)```", README.read_text(), re.S) if 'storage="memory"' in b]


@pytest.mark.parametrize("block", BLOCKS)
def test_readme_example_runs(block: str, capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(block, str(README), "exec"), {})  # our own README text
    out = capsys.readouterr().out
    assert "ImportResult(imported=3" in out and "# LokulMem Export" in out


def test_readme_has_a_runnable_example() -> None:
    assert BLOCKS
