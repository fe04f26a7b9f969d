"""Our evaluation sets and fixtures are written by us, not copied from the shared data.

Every text value in ``eval/data`` (the team sets) and in the smoke tests' tiny
inputs (``tests/eval_inputs.py``, in each harness's format) is compared with
the text of ``../shared/eval``: no run of
``RUN`` words may occur in both.  JSON keys and numbers are left out (a fixture
shares the dataset's format, not its sentences).  Skipped where the shared data
is absent (CI); it runs on the machines that hold it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import eval_inputs

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "eval"
OURS = ROOT / "eval" / "data"
#: Words in a run that counts as copied text.
RUN = 8
_WORD = re.compile(r"[a-z']+")


def _strings(value: Any) -> Iterator[str]:
    """The text of a JSON value: its strings (a list of words, as a tokenised
    sentence is stored, as one text), never its keys or numbers."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        if value and all(isinstance(v, str) and " " not in v for v in value):
            yield " ".join(value)
        else:
            for v in value:
                yield from _strings(v)


def _documents(path: Path) -> Iterator[Any]:
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".json":
        yield json.loads(text)
    else:
        for line in text.splitlines():
            if line.strip():
                yield json.loads(line)


def _runs(path: Path) -> set[str]:
    runs: set[str] = set()
    for doc in _documents(path):
        for s in _strings(doc):
            words = _WORD.findall(s.lower())
            runs.update(" ".join(words[i : i + RUN]) for i in range(len(words) - RUN + 1))
    return runs


@pytest.mark.skipif(not SHARED.is_dir(), reason="the shared evaluation data is not on this machine")
def test_no_run_of_words_from_the_shared_evaluation_data(tmp_path: Path) -> None:
    shared: set[str] = set()
    for path in sorted(SHARED.rglob("*.json*")):
        shared |= _runs(path)
    assert shared  # the data was read
    ours = [*sorted(OURS.rglob("*.json*")), *eval_inputs.write(tmp_path).values()]
    copied = {p.name: sorted(_runs(p) & shared)[:3] for p in ours if _runs(p) & shared}
    assert not copied, copied
