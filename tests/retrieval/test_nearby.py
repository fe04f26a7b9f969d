"""Said nearby (``lokulmem.retrieval.nearby``): hand-built records, then the real pipeline."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from lokulmem import Config, LokulMem, ManualClock, Memory, ScoreBreakdown
from lokulmem.retrieval import stages as st
from lokulmem.retrieval.nearby import said_nearby

NOW = 1_767_225_600_000
CFG = Config()


def scored(mid: str, total: float, *, session: str = "s1", turn: int = 0, at: int = NOW) -> st.Scored:
    memory = Memory(
        id=mid,
        content=f"User fact {mid}.",
        types=("preference",),
        created_at=at,
        source_session=session,
        source_turn=turn,
        embedding=np.ones(4, dtype=np.float32) / 2,
    )
    breakdown = ScoreBreakdown(semantic=total, recency=0.0, strength=0.0, continuity=0.0)
    return st.Scored(memory, total, breakdown, total)


def test_a_memory_said_next_to_the_best_result_gets_the_bonus_scaled_by_that_result() -> None:
    best = scored("best", 0.8, turn=3)
    second = scored("second", 0.4, session="s2", turn=1)
    after = scored("after", 0.3, turn=4, at=NOW + 30_000)
    out = {s.memory.id: s.breakdown for s in said_nearby([best, second, after], CFG)}
    assert out["after"].nearby == pytest.approx(CFG.nearby_bonus)  # the best result lends it all
    assert out["best"].nearby == 0.0  # a seed does not lift itself
    assert out["second"].nearby == 0.0  # another session: nothing near it among the seeds
    # The second seed lends its share of the best R.
    near_second = scored("near-second", 0.1, session="s2", turn=2, at=NOW + 60_000)
    lifted = said_nearby([best, second, near_second], CFG)[2]
    assert lifted.breakdown.nearby == pytest.approx(CFG.nearby_bonus * 0.4 / 0.8)
    assert lifted.breakdown.total == pytest.approx(0.1 + CFG.nearby_bonus * 0.5)


@pytest.mark.parametrize(
    ("session", "turn", "offset_s"),
    [("s2", 4, 30), ("s1", 3, 30), ("s1", 4, 121)],
    ids=["another session", "the seed's own message", "too long after"],
)
def test_no_bonus_outside_the_session_the_message_or_the_window(
    session: str, turn: int, offset_s: int
) -> None:
    best = scored("best", 0.8, turn=3)
    other = scored("other", 0.3, session=session, turn=turn, at=NOW + offset_s * 1000)
    assert said_nearby([best, other], CFG)[1].breakdown.nearby == 0.0


def test_the_share_is_of_the_best_r_even_when_a_pinned_memory_ranks_first() -> None:
    pinned = scored("pinned", 0.2, turn=1, at=NOW - 3_600_000)
    pinned = st.Scored(pinned.memory.replace(pinned=True), 0.2, pinned.breakdown, 0.2)
    best = scored("best", 0.8, turn=3)
    after = scored("after", 0.1, turn=4, at=NOW + 30_000)
    lifted = said_nearby([pinned, best, after], CFG)[2]
    assert lifted.breakdown.nearby == pytest.approx(CFG.nearby_bonus)  # 0.8 / 0.8, not 0.8 / 0.2


def test_off_and_beyond_the_seeds_nothing_changes() -> None:
    hour = 3_600_000
    best, second = scored("a", 0.8, turn=1), scored("b", 0.7, turn=9, at=NOW + hour)
    third = scored("c", 0.6, turn=20, at=NOW + 2 * hour)
    late = scored("late", 0.2, turn=21, at=NOW + 2 * hour + 10_000)  # near only the third result
    assert said_nearby([best, second, third, late], CFG)[3].breakdown.nearby == 0.0
    off = CFG.replace(nearby_bonus=0.0)
    near = scored("near", 0.2, turn=2, at=NOW + 10_000)
    assert said_nearby([best, near], off)[1].breakdown.nearby == 0.0
    assert Config.prd().nearby_bonus == 0.0


def _podcast_store(make_mem: Callable[..., LokulMem], clock: ManualClock, **options: object) -> LokulMem:
    mem = make_mem(**options)
    mem.learn("I started a new podcast on my commute last week.", session_id="evening")
    clock.advance(seconds=40)
    mem.learn("It's called Tidewater Notes and every episode runs an hour.", session_id="evening")
    clock.advance(days=3)
    mem.learn("I started a pottery class on Tuesdays.", session_id="monday")
    clock.advance(days=1)
    for text in (
        "I play chess online most evenings.",
        "My cousins are visiting again next month.",
        "I bought a second-hand games console.",
    ):
        mem.learn(text, session_id=f"day-{clock.now_ms()}")  # each alone in its session
        clock.advance(days=1)
    clock.advance(days=1)
    return mem


def _injected(mem: LokulMem, needle: str) -> tuple[float, str]:
    """The score and reason of the memory holding ``needle`` in what ``augment()``
    would inject with no evidence test (the PRD's fill-the-limit mode)."""
    preview = mem.manage().get_injection_preview(
        "Which podcast did I start?", max_memories=5, require_evidence=False, include_proactive=False
    )
    return next((i.score, i.reason) for i in preview.would_inject if needle in i.memory.content)


def test_the_next_message_of_a_top_result_is_lifted_and_says_why(
    make_mem: Callable[..., LokulMem], clock: ManualClock
) -> None:
    on = _podcast_store(make_mem, clock)
    score_on, reason = _injected(on, "Tidewater Notes")
    assert "said next to a top result" in reason
    debug = on.augment("Which podcast did I start?", debug=True).debug
    assert debug is not None
    # The pottery class, said alone in its session, is not lifted.
    assert all(c.breakdown.nearby == 0 for c in debug.candidates if "pottery" in c.memory.content)
    off = _podcast_store(make_mem, clock, nearby_bonus=0.0)
    score_off, reason_off = _injected(off, "Tidewater Notes")
    # The best result lends the whole bonus to the message said after it.
    assert score_on == pytest.approx(score_off + CFG.nearby_bonus, abs=1e-3)
    assert "said next to" not in reason_off


def test_with_the_bonus_off_the_breakdown_has_none(
    make_mem: Callable[..., LokulMem], clock: ManualClock
) -> None:
    mem = _podcast_store(make_mem, clock, nearby_bonus=0.0)
    debug = mem.augment("Which podcast did I start?", debug=True).debug
    assert debug is not None
    assert all(c.breakdown.nearby == 0 for c in debug.candidates)
