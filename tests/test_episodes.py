"""Episodic memory: the pure summary and wording, then sessions ending into
episodes through the public API and an injectable clock."""

import datetime as dt

import numpy as np
import pytest

from lokulmem import Config, LokulMem, ManualClock, ValidationError
from lokulmem.episodes import EPISODE_START, episode_block, plan_episode, relative_time, summary_of
from lokulmem.records import Memory

DAY = 86_400_000
START = int(dt.datetime(2026, 11, 2, 9, 0, tzinfo=dt.UTC).timestamp() * 1000)


def _m(mid: str, vec: list[float], at: int) -> Memory:
    v = np.array(vec, dtype=np.float32)
    return Memory(
        id=mid, content=f"{mid}.", types=("project",), embedding=v / np.linalg.norm(v), created_at=at
    )


def test_the_summary_covers_the_session_in_time_order() -> None:
    cfg = Config(episode_summary_sentences=2)
    ms = [_m("a", [1, 0, 0], 3), _m("a2", [1, 0.05, 0], 1), _m("b", [0, 1, 0], 2)]
    # Two topics: the most central sentence, then the other topic rather than a
    # near-duplicate of the first; in the order they were said.
    assert [m.id for m in summary_of(ms, cfg)] == ["a2", "b"]


def test_plan_episode_and_its_block() -> None:
    cfg = Config()
    ms = [_m("x", [1, 0], 10), _m("y", [0.9, 0.1], 20)]
    planned = plan_episode("s1", ms, 5, 99, cfg)
    assert planned is not None
    ep, text = planned
    assert ep.id == "episode:s1" and ep.summary == text == "x. y."
    assert (ep.started_at, ep.ended_at, ep.turn_count, ep.memories_extracted) == (10, 99, 5, ("x", "y"))
    assert plan_episode("s2", [], 3, 99, cfg) is None
    block = episode_block(ep, 99 + 21 * DAY)
    assert (
        block.startswith(EPISODE_START) and "About 3 weeks ago, in a conversation of 5 turns: x. y." in block
    )


@pytest.mark.parametrize(
    ("days", "words"),
    [(0.2, "Earlier today"), (1.5, "Yesterday"), (4, "About 4 days ago"), (7, "About a week ago"),
     (21, "About 3 weeks ago"), (45, "About a month ago"), (100, "About 3 months ago"),
     (400, "About a year ago"), (800, "About 2 years ago")],
)  # fmt: skip
def test_relative_time(days: float, words: str) -> None:
    assert relative_time(int(days * DAY)) == words


PITCH = [
    "I'm preparing our Series A pitch deck for investors.",
    "The financial projections assume 3x revenue growth next year.",
    "I'm worried about how to frame our burn rate.",
    "Our burn rate is about 200k a month.",
]


def _pitch(make_mem) -> tuple[LokulMem, ManualClock]:  # type: ignore[no-untyped-def]
    clock = ManualClock()
    clock.set(START)
    mem = make_mem(clock=clock)
    for text in PITCH:
        mem.learn(text, session_id="pitch")
        clock.advance(seconds=120)
    return mem, clock


def test_end_session_makes_a_stored_episode(make_mem) -> None:  # type: ignore[no-untyped-def]
    mem, _ = _pitch(make_mem)
    ep = mem.end_session("pitch")
    assert ep is not None and ep.turn_count == 4 and len(ep.memories_extracted) == 4
    assert "pitch deck" in ep.summary and "burn rate" in ep.summary
    assert mem.storage.all_episodes()[0].id == ep.id and ep.embedding is not None
    assert mem.end_session("nobody-said-anything") is None
    with pytest.raises(ValidationError):
        mem.end_session("")
    with pytest.raises(ValidationError):
        mem.end_session(3)  # type: ignore[arg-type]


def test_a_new_session_or_an_idle_gap_ends_the_last_one(make_mem) -> None:  # type: ignore[no-untyped-def]
    mem, clock = _pitch(make_mem)
    assert mem.storage.all_episodes() == []
    mem.learn("I adopted a puppy called Rex.", session_id="dog")
    assert [e.id for e in mem.storage.all_episodes()] == ["episode:pitch"]
    clock.advance(seconds=int(mem.config.episode_idle_minutes * 60) + 1)
    mem.learn("Rex loves the park.", session_id="dog")  # the same session after a long pause
    assert [e.id for e in mem.storage.all_episodes()] == ["episode:pitch", "episode:dog"]


def test_an_episode_from_three_weeks_ago_is_recalled_for_a_related_question(make_mem) -> None:  # type: ignore[no-untyped-def]
    mem, clock = _pitch(make_mem)
    mem.end_session("pitch")
    clock.advance(days=21)
    r = mem.augment("How should I present our burn rate to investors?", debug=True)
    assert r.debug is not None and r.debug.episode_injected is not None
    assert "[Episode Context — relevant past conversation]" in r.context
    assert (
        "About 3 weeks ago, in a conversation of 4 turns: User is preparing User's Series A pitch deck"
        in r.context
    )
    assert r.context.endswith("[End Episode Context]")
    assert r.debug.tokens_used >= len(r.context.split()) // 2
    assert "episodes" in r.debug.pipeline
    unrelated = mem.augment("What should I feed my puppy?", debug=True)
    assert unrelated.debug is not None and unrelated.debug.episode_injected is None
    assert "Episode Context" not in unrelated.context
    off = mem.augment("How should I present our burn rate to investors?", include_episodes=False, debug=True)
    assert off.debug is not None and off.debug.episode_injected is None and "Episode" not in off.context
    with pytest.raises(ValidationError, match="include_episodes"):
        mem.augment("hi", include_episodes=None)  # type: ignore[arg-type]


def test_episodes_survive_export_and_import(make_mem) -> None:  # type: ignore[no-untyped-def]
    mem, _ = _pitch(make_mem)
    ep = mem.end_session("pitch")
    doc = mem.manage().export()
    other = make_mem()
    other.manage().import_data(doc)
    restored = other.storage.all_episodes()
    assert ep is not None and [e.summary for e in restored] == [ep.summary]
