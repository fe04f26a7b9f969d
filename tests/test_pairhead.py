"""The learned contradiction head: integrity checks, features, and its verdicts in learn()."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from lokulmem import ConfigError, LokulMem, ModelIntegrityError
from lokulmem.pairhead import (
    DEFAULT_HEAD_PATH,
    DEFAULT_HEAD_SHA256,
    HASH_BUCKETS,
    LEXICAL_FEATURES,
    load_head,
    pair_features,
)


def _unit(seed: int) -> np.ndarray:
    v = np.random.default_rng(seed).normal(size=384).astype(np.float32)
    return v / np.linalg.norm(v)


def test_features_have_the_documented_layout() -> None:
    u, v = _unit(1), _unit(2)
    x = pair_features(u, v, "User likes cats.", "User doesn't like cats.")
    assert x.shape == (2 * 384 + len(LEXICAL_FEATURES) + 2 * HASH_BUCKETS,)
    lexical = dict(zip(LEXICAL_FEATURES, x[768 : 768 + len(LEXICAL_FEATURES)], strict=True))
    assert lexical["cosine"] == pytest.approx(float(u @ v))
    assert lexical["negated_old"] == 0.0 and lexical["negated_new"] == 1.0
    assert lexical["negation_differs"] == 1.0
    # Deterministic across calls (crc32 buckets, not the salted hash()).
    assert np.array_equal(x, pair_features(u, v, "User likes cats.", "User doesn't like cats."))


def test_shipped_head_loads_and_scores_probabilities() -> None:
    head = load_head()
    assert head.sha256 == DEFAULT_HEAD_SHA256
    rows = np.stack([pair_features(_unit(i), _unit(i + 1), "User a.", "User b.") for i in range(4)])
    scores = head.scores(rows)
    assert scores.shape == (4,) and np.all((scores >= 0) & (scores <= 1))


def test_altered_or_missing_head_is_an_error_naming_the_file(tmp_path: Path) -> None:
    copy = tmp_path / "head.npz"
    shutil.copy(DEFAULT_HEAD_PATH, copy)
    with copy.open("ab") as fh:
        fh.write(b"\0")
    with pytest.raises(ModelIntegrityError, match=str(copy)):
        load_head(copy, DEFAULT_HEAD_SHA256)
    with pytest.raises(ModelIntegrityError, match="missing"):
        load_head(tmp_path / "nope.npz", DEFAULT_HEAD_SHA256)


def test_init_refuses_a_bad_head(make_mem: Callable[..., LokulMem], tmp_path: Path) -> None:
    missing = tmp_path / "gone.npz"
    mem = LokulMem(
        storage="memory",
        contradiction_classifier=True,
        contradiction_model_path=str(missing),
        contradiction_model_sha256=DEFAULT_HEAD_SHA256,
    )
    with pytest.raises(ModelIntegrityError, match=str(missing)):
        mem.init()
    mem.close()
    with pytest.raises(ConfigError) as err:
        LokulMem(storage="memory", contradiction_model_path=str(missing))
    assert err.value.field == "contradiction_model_sha256"


def test_the_head_decides_what_the_rules_leave_open(make_mem: Callable[..., LokulMem]) -> None:
    earlier, later = "I have never been to France.", "I went to Paris last summer and loved France."
    off = make_mem()  # the default: rules only
    off.learn(earlier, session_id="a")
    assert off.learn(later, session_id="b").contradictions == ()
    on = make_mem(contradiction_classifier=True)
    on.learn(earlier, session_id="a")
    (event,) = on.learn(later, session_id="b").contradictions
    assert event.signal == "classifier" and event.resolution == "conflict"
    assert event.classifier_score is not None and event.classifier_score >= on.config.classifier_threshold
    assert event.existing.status == "superseded"  # closed, not deleted


def test_a_head_read_for_newer_first_alone_closes_nothing(make_mem: Callable[..., LokulMem]) -> None:
    earlier, later = "I have never been to France.", "I went to Paris last summer and loved France."
    reorder = make_mem(newer_first_pair_threshold=0.5)  # the head is read, stage 3b stays off
    reorder.learn(earlier, session_id="a")
    assert reorder.learn(later, session_id="b").contradictions == ()
    # The bad-file check applies to a head read for newer-first too.
    with pytest.raises(ModelIntegrityError):
        make_mem(
            newer_first_pair_threshold=0.5,
            contradiction_model_path=str(DEFAULT_HEAD_PATH),
            contradiction_model_sha256="0" * 64,
        )


def test_rule_verdicts_name_their_signal(mem: LokulMem) -> None:
    mem.learn("I live in Berlin.", session_id="a")
    (event,) = mem.learn("I live in Lisbon now.", session_id="b").contradictions
    assert event.signal == "attribute" and event.classifier_score is None


@pytest.mark.parametrize(
    ("earlier", "later"),
    [
        ("I have played basketball since I was a kid.", "I am grateful for my basketball career."),
    ],
)
def test_the_head_alone_does_not_close_a_related_compatible_fact(
    make_mem: Callable[..., LokulMem], earlier: str, later: str
) -> None:
    """The head scores these elaborations as contradictions; with
    ``classifier_needs_opposition`` (the default) its verdict needs an opposition the
    rules see (a negation on one side, other numbers, another value of one slot)."""
    loose = make_mem(contradiction_classifier=True, classifier_needs_opposition=False)
    loose.learn(earlier, session_id="a")
    assert loose.learn(later, session_id="b").contradictions  # the head alone fires
    gated = make_mem(contradiction_classifier=True)
    gated.learn(earlier, session_id="a")
    assert gated.learn(later, session_id="b").contradictions == ()
