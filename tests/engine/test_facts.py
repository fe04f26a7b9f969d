"""Closing a contradicted fact and correcting one (``lokulmem._engine.facts``): pure, hand-built."""

from __future__ import annotations

import numpy as np

from lokulmem import Config, Memory
from lokulmem._engine.facts import Correction, close_fact, correct
from lokulmem.contradiction import Candidate, Verdict
from lokulmem.extraction import analyze_text

NOW = 1_767_225_600_000
CFG = Config()


def memory(mid: str, content: str, **kw: object) -> Memory:
    return Memory(id=mid, content=content, types=("location",), **kw)  # type: ignore[arg-type]


def test_a_conflict_supersedes_and_a_temporal_change_keeps_history() -> None:
    old, new = memory("old", "User lives in Berlin."), memory("new", "User lives in Lisbon.")
    conflict = close_fact(old, new, Verdict(kind="conflict", existing=old, similarity=0.8), NOW)
    assert conflict.closed.status == "superseded" and conflict.closed.valid_to == NOW
    assert conflict.incoming.metadata["supersedes"] == "old" and conflict.event.resolution == "conflict"
    change = Verdict(kind="temporal-coexistence", existing=old, similarity=0.8, marker="used to")
    temporal = close_fact(old, new, change, NOW)
    assert temporal.closed.status == "active" and temporal.closed.supersession_type == "temporal"
    assert temporal.incoming.temporal_supersedes == "old"
    assert temporal.event.temporal_marker_detected == "used to" and temporal.event.existing == temporal.closed


def test_a_correction_keeps_the_old_text_and_closes_what_it_contradicts() -> None:
    mine = memory("mine", "User works at Siemens.", metadata={"attribute_negated": False})
    other = memory("other", "User lives in Berlin.", attribute="user.residence", attribute_value="berlin")
    text = "User lives in Lisbon."
    analysis = analyze_text("I live in Lisbon.", CFG)
    vec = np.array([1, 0, 0, 0], dtype=np.float32)
    updated, closure = correct(
        mine,
        Correction(content=text, confidence="high"),
        analysis=analysis,
        vec=vec,
        candidates=[Candidate(other, 0.7)],
        now=NOW,
        config=CFG,
    )
    assert updated.content == text and updated.confidence == "high" and updated.attribute == "user.residence"
    assert updated.metadata["corrections"] == [{"content": "User works at Siemens.", "at": NOW}]
    assert closure is not None and closure.closed.id == "other" and closure.closed.status == "superseded"
    retyped, none = correct(
        mine, Correction(types=("profession",)), analysis=None, vec=None, candidates=[], now=NOW, config=CFG
    )
    assert none is None and retyped.types == ("profession",) and retyped.content == mine.content
