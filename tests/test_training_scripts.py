"""The scripts that make the contradiction head's training data (``scripts/``): run for real."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

import lokulmem.contradiction as pipeline
from lokulmem.pairhead import HASH_BUCKETS, LEXICAL_FEATURES

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"

CONVERSATION = {
    "id": "t1",
    "turns": [
        "I started learning the guitar a few months ago.",
        "I practise the guitar for thirty minutes every evening.",
        "My neighbour plays the piano and sometimes we jam together.",
        "I bought an acoustic guitar second hand, it sounds great.",
        "Learning barre chords on the guitar is really frustrating.",
    ],
}


def _script(name: str) -> ModuleType:
    sys.path.insert(0, str(SCRIPTS))  # train_contradiction imports its sibling lazily
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_harvest_records_the_pairs_stage_3b_would_score_and_decides_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    harvest = _script("harvest_pairs")
    original = pipeline._by_classifier
    source = tmp_path / "conversations.jsonl"
    source.write_text(json.dumps(CONVERSATION) + "\n")
    out = tmp_path / "pairs.npz"
    monkeypatch.setattr(sys, "argv", ["harvest_pairs.py", str(source), str(out), "--floor", "0.3"])
    harvest.main()
    assert pipeline._by_classifier is original  # the pipeline is itself again
    with np.load(out) as z:
        data = {k: z[k] for k in z.files}
    assert len(data["old"]) > 0
    assert set(data["sample"]) == {"t1"}
    assert (data["sim"] >= 0.3).all()
    # Stored facts and new facts as learn() wrote them, with their unit vectors.
    pairs = {(str(a), str(b)) for a, b in zip(data["old"], data["new"], strict=True)}
    assert (
        "User started learning the guitar a few months ago.",
        "User practises the guitar for thirty minutes every evening.",
    ) in pairs
    assert np.allclose(np.linalg.norm(data["uo"], axis=1), 1.0, atol=1e-2)
    assert np.allclose(np.einsum("ij,ij->i", data["uo"], data["un"]), data["sim"], atol=2e-2)

    train = _script("train_contradiction")
    rows = train.harvested(str(out))
    assert len(rows) == len(data["old"])
    assert rows[0].shape == (2 * 384 + len(LEXICAL_FEATURES) + 2 * HASH_BUCKETS,)
