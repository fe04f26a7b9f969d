"""The golden trace (``tests/golden_trace.py``) is unchanged: every decision,
string and count exactly, floats within ``FLOAT_TOLERANCE``.

A refactor that changes no decision leaves it the same.  A deliberate change
of behaviour regenerates it (``python tests/golden_trace.py --update``) in its
own commit, with the evaluation numbers that justify it.
"""

from __future__ import annotations

from golden_trace import GOLDEN, differences, record
from lokulmem import MiniLMEmbedder


def test_golden_trace_is_unchanged(embedder: MiniLMEmbedder) -> None:
    expected = GOLDEN.read_text()
    actual = record(embedder)
    found = differences(expected, actual)
    if found:
        shown = "\n".join(line[:300] for line in found)
        raise AssertionError(f"the golden trace changed (python tests/golden_trace.py --diff):\n{shown}")


def test_the_comparison_tolerates_float_noise_only() -> None:
    line = '{"step": "s", "value": {"outcome": "stored", "score": 0.5, "ids": [1, 2]}}\n'
    assert differences(line, line.replace("0.5", "0.500001")) == []
    assert differences(line, line.replace("0.5", "0.51")) == ["line 1: .value.score: 0.5 -> 0.51"]
    assert differences(line, line.replace("stored", "skipped")) == [
        "line 1: .value.outcome: 'stored' -> 'skipped'"
    ]
    assert differences(line, line.replace("[1, 2]", "[1]"))
    assert differences(line, line + line) == ["1 lines in the file, 2 now"]
