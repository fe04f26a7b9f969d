"""Smoke runs of the evaluation harness (issue 5), so it cannot rot.

Always on tiny inputs written by us in each harness's format and built at test
time (``tests/eval_inputs.py``); also on the
shared development data when it is present (``../shared/eval``), with small
limits.  The full runs are by hand (see the README).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from eval import contradiction, extraction, knowledge_update, locomo, retrieval
from eval.common import model

import eval_inputs
from lokulmem import LokulMem

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "eval"


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The team-written tiny inputs, written to a temporary folder."""
    return eval_inputs.write(tmp_path_factory.mktemp("eval-inputs"))


def _last_json(capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    out = capsys.readouterr().out.strip().splitlines()
    figures: dict[str, Any] = json.loads(out[-1])
    return figures


def test_locomo_on_fixture(capsys: pytest.CaptureFixture[str], inputs: dict[str, Path]) -> None:
    locomo.main([str(inputs["chat"])])
    f = _last_json(capsys)
    assert f["eval"] == "locomo" and f["questions"] == 4 and f["turns"] == 6
    for r in ("augment", "semantic", "raw-turns"):
        assert 0.0 <= f["recall"][r]["overall"]["5"] <= 1.0
    # Six turns, four questions: every retriever finds the evidence within 5.
    assert f["recall"]["raw-turns"]["overall"]["5"] == 1.0
    assert f["recall"]["semantic"]["overall"]["5"] >= 0.75
    assert 0 < f["memories_per_turn"] <= 1.5


def test_contradiction_on_fixture(capsys: pytest.CaptureFixture[str], inputs: dict[str, Path]) -> None:
    contradiction.main([str(inputs["pairs"]), "--start", "0"])
    f = _last_json(capsys)
    assert f["decode_product"]["n"] == 4 and f["team_product"]["n"] >= 200
    assert f["team_product"]["false_positive_rate"] < 0.05


def test_extraction_on_fixture(capsys: pytest.CaptureFixture[str], inputs: dict[str, Path]) -> None:
    extraction.main(["--locomo", str(inputs["chat"]), "--personaext", str(inputs["persona"])])
    f = _last_json(capsys)
    assert f["locomo"]["n"] == 6 and f["personaext"]["n"] == 3 and f["team"]["n"] == 120


def test_retrieval_on_the_team_set(capsys: pytest.CaptureFixture[str]) -> None:
    retrieval.main([])
    f = _last_json(capsys)["sets"]["retrieval_cases.json"]
    assert f["questions"] == 50 and f["turns"] == 30 and 0 < f["memories"] <= 60
    # The PRD's "top-3 rated relevant" target is 80%; a drop below 75% is a regression.
    assert f["hit@3"] >= 0.75 and 0 < f["precision@3"] <= 1 and 0 < f["mrr"] <= 1


def test_knowledge_update_on_the_team_set(capsys: pytest.CaptureFixture[str]) -> None:
    knowledge_update.main(["--limit", "12"])
    f = _last_json(capsys)
    assert f["cases"] == 12 and f["changes"] == 12 and 0 <= f["current_first"] <= 1
    # Case 1 (Leeds → "I moved to York last month") is a plain move: York must come first.
    assert 1 not in f["misses"]


@pytest.fixture
def small_crowd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Two of the written conversations as the crowd (the full crowd takes ~15 s to learn)."""
    crowd = tmp_path / "crowd.jsonl"
    crowd.write_text("\n".join(knowledge_update.CROWD.read_text().splitlines()[:2]) + "\n")
    monkeypatch.setattr(knowledge_update, "CROWD", crowd)
    return crowd


def test_knowledge_update_in_a_crowd(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, small_crowd: Path
) -> None:
    path, end_ms = knowledge_update.build_crowd(tmp_path, {})
    with LokulMem(path=path, embedder=model()) as mem:
        assert mem.manage().stats().total >= 30  # the crowd is in the store
    assert end_ms > 0
    knowledge_update.main(["--limit", "3", "--crowd"])
    f = _last_json(capsys)
    assert f["crowd"] is True and f["cases"] == 3 and 1 not in f["misses"]


def test_knowledge_update_in_a_crowd_with_later_words(
    capsys: pytest.CaptureFixture[str], small_crowd: Path
) -> None:
    later = knowledge_update.later_turns(2)
    # The last two messages of each of the two people, held back from the crowd.
    assert len(later) == 4 and len({s for s, _ in later}) == 4
    people = [json.loads(line) for line in small_crowd.read_text().splitlines()]
    assert {t for _, t in later} == {t for p in people for t in p["turns"][-2:]}
    knowledge_update.main(["--limit", "2", "--crowd", "--later"])
    f = _last_json(capsys)
    assert f["later"] is True and f["cases"] == 2 and 1 not in f["misses"]
    with pytest.raises(SystemExit):
        knowledge_update.main(["--later"])


def test_knowledge_update_matches_a_phrase_in_the_third_person_rewrite() -> None:
    injected = ["User loves olives now.", "User hates olives."]
    assert knowledge_update._first(injected, "love olives") == 0
    assert knowledge_update._first(injected, "hate") == 1
    assert knowledge_update._first(injected, "olives", without="love") == 1
    assert knowledge_update._first(injected, "green olives") is None


@pytest.mark.skipif(not SHARED.exists(), reason="shared evaluation data not on this machine")
def test_smoke_on_shared_data(capsys: pytest.CaptureFixture[str]) -> None:
    locomo.main([str(SHARED / "locomo" / "locomo7.json"), "--limit", "1", "--questions", "40"])
    assert 30 <= _last_json(capsys)["questions"] <= 40
    contradiction.main([str(SHARED / "decode" / "pairs_train.jsonl"), "--limit", "100"])
    assert _last_json(capsys)["decode_forced"]["n"] == 100
    extraction.main(["--personaext", str(SHARED / "personaext" / "dev.jsonl"), "--limit", "100"])
    assert _last_json(capsys)["personaext"]["n"] == 100


def test_knowledge_update_counts_as_the_old_fact_only_what_the_first_message_stored() -> None:
    case = {"new": "saxophone", "old": "trumpet"}
    old = ("User plays the trumpet in a brass band.", "before")
    news = ("User gave up the trumpet.", "after")  # names the old value: news, not the old fact
    new = ("User plays the saxophone now.", "after")
    assert knowledge_update.judge([news, new, old], case) == (True, True)
    assert knowledge_update.judge([old, new], case) == (False, True)
    assert knowledge_update.judge([news, new], case) == (True, False)
    assert knowledge_update.judge([news, old], case) == (False, True)
