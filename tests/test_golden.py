"""The golden trace (``tests/golden_trace.py``) is unchanged, byte for byte.

A refactor that changes no decision leaves it identical.  A deliberate change
of behaviour regenerates it (``python tests/golden_trace.py --update``) in its
own commit, with the evaluation numbers that justify it.
"""

from __future__ import annotations

import difflib

from golden_trace import GOLDEN, record
from lokulmem import MiniLMEmbedder


def test_golden_trace_is_unchanged(embedder: MiniLMEmbedder) -> None:
    expected = GOLDEN.read_text()
    actual = record(embedder)
    if actual != expected:
        diff = difflib.unified_diff(
            expected.splitlines(), actual.splitlines(), "golden", "now", n=0, lineterm=""
        )
        shown = "\n".join(line[:300] for line in list(diff)[:30])
        raise AssertionError(f"the golden trace changed (python tests/golden_trace.py --diff):\n{shown}")
