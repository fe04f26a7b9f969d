"""The echo's later words (``lokulmem.retrieval.echo.later_words``) and their reading
by newer first, on hand-built records: no store, no model."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from lokulmem import Config, Memory
from lokulmem.records import ScoreBreakdown
from lokulmem.retrieval.echo import later_neighbours, later_words
from lokulmem.retrieval.newer import inheriting, newer_first
from lokulmem.retrieval.stages import Scored

DAY = 86_400_000
T0 = 1_767_225_600_000
OLD = "User's gym is the PureGym on the high street."
NEW = "User let the PureGym membership lapse and joined the climbing wall instead."


def memory(mid: str, content: str, *, day: float = 0, session: str = "s2", **fields: object) -> Memory:
    return Memory(
        id=mid,
        content=content,
        types=("preference",),
        created_at=T0 + int(day * DAY),
        source_session=session,
        **fields,  # type: ignore[arg-type]
    )


def test_a_later_word_is_later_from_another_conversation_tells_a_replacement_and_shares_a_word() -> None:
    lender = memory("old", OLD, session="s1")
    found = [
        memory("new", NEW, day=20),
        memory("earlier", NEW, day=-20),
        memory("same conversation", NEW, day=1, session="s1"),
        memory("closed", NEW, day=20, valid_to=T0 + 30 * DAY, superseded_by="x"),
        memory("no change told", "User loves the PureGym sauna.", day=20),
        memory("only chat's change words", "User got a new PureGym towel now.", day=20),
        memory("no shared word", "User joined the climbing wall instead.", day=20),
        memory("only the label shared", "User moved to Leeds instead.", day=20),
        lender,
    ]
    assert [m.id for m in later_words(lender, found, "User")] == ["new"]


def test_a_later_neighbour_is_later_from_another_conversation_alike_enough_and_tells_a_change() -> None:
    lender = memory("old", "User's dentist is Dr Patel in town.", session="s1")
    told = "User switched to a new dental practice near the office."
    found = [
        (memory("new", told, day=20), 0.55),
        (memory("too far", told, day=20), 0.39),
        (memory("earlier", told, day=-20), 0.55),
        (memory("same conversation", told, day=1, session="s1"), 0.55),
        (memory("closed", told, day=20, valid_to=T0 + 30 * DAY, superseded_by="x"), 0.55),
        (memory("no change told", "User likes the dental practice near the office.", day=20), 0.6),
        (lender, 1.0),
    ]
    # No shared word is needed: the vector found it, and "switched" tells the change.
    assert [m.id for m in later_neighbours(lender, found, 0.4)] == ["new"]
    assert later_neighbours(lender, found, 0.6) == []


def vec(*xs: float) -> np.ndarray:
    v = np.array(xs, dtype=np.float32)
    return v / np.linalg.norm(v)


def scored(m: Memory, v: np.ndarray, score: float) -> Scored:
    m = replace(m, embedding=v)
    return Scored(m, 0.5, ScoreBreakdown(semantic=score, recency=0.0, strength=0.0, continuity=0.0), 0.5)


def test_newer_first_reads_a_later_word_wherever_it_ranks() -> None:
    """Below the echo's reach a later memory is not read, unless recall found it as
    a later word on the best result (``later``): then it echoes it, moves above
    it and inherits its standing."""
    # A fact stating how things stand would have the whole ranking read (an inheritance).
    config = Config(newer_first_echo_reach=2, newer_first_window=2, newer_first_states_lend=False)
    old = scored(memory("old", OLD, session="s1"), vec(1, 0, 0, 0), 0.60)
    remarks = [memory(f"o{n}", f"User did {n}.", day=-n, session="s0") for n in (1, 2)]
    others = [scored(m, vec(0, 1, n, 0), 0.5) for n, m in enumerate(remarks, 1)]
    new = scored(memory("new", NEW, day=20), vec(0.6, 0, 0, 0.8), 0.05)  # cosine 0.6
    ranked = [old, *others, new]
    out, moved = newer_first(ranked, config, relevant={"old"})
    assert moved == {} and [s.memory.id for s in out] == ["old", "o1", "o2", "new"]
    out, moved = newer_first(ranked, config, relevant={"old"}, later={"new"})
    assert moved == {"new": "old"} and [s.memory.id for s in out][:2] == ["new", "old"]
    assert inheriting(out, moved, config, {"old"}) == [("old", "new")]


def test_a_later_word_found_by_the_best_results_words_echoes_from_the_mutual_bar() -> None:
    """Below the told bars a told change echoes when the two are each other's
    nearest among the ranked memories; one recall found by the best result's own
    words (it shares a word and tells a change) needs not be: in a crowd of
    memories on the topic it seldom is.  (The window's memory nearest to it must
    still be the best result: here the window is the best result alone.)"""
    config = Config(
        newer_first_echo_mutual_similarity=0.2,
        newer_first_states_lend=False,
        newer_first_window=1,
        newer_first_echo_reach=1,
    )
    old = scored(memory("old", OLD, session="s1"), vec(1, 0, 0, 0), 0.60)
    near = scored(memory("near", "User did 1.", day=-1, session="s0"), vec(0.2, 1, 0, 0), 0.5)
    new = scored(memory("new", NEW, day=20), vec(0.25, 0.97, 0, 0), 0.05)  # cosine 0.25, nearer to "near"
    ranked = [old, near, new]
    assert newer_first(ranked, config, relevant={"old"})[1] == {}
    out, moved = newer_first(ranked, config, relevant={"old"}, later={"new"})
    assert moved == {"new": "old"} and inheriting(out, moved, config, {"old"}, {"new"}) == [("old", "new")]
    # Below the mutual bar nothing echoes, found or not.
    low = config.replace(newer_first_echo_mutual_similarity=0.3)
    assert newer_first(ranked, low, relevant={"old"}, later={"new"})[1] == {}
