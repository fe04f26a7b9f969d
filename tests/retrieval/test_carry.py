"""The rest of a change's message (``lokulmem.retrieval.carry``) on hand-built records."""

from __future__ import annotations

from lokulmem import Config, Memory
from lokulmem.records import ScoreBreakdown
from lokulmem.retrieval.carry import carry_message
from lokulmem.retrieval.stages import Scored

CFG = Config()
SAID = "I've stopped teaching piano and I'm temping in an office."


def item(mid: str, content: str, score: float, *, message: str | None = None, session: str = "s2") -> Scored:
    m = Memory(
        id=mid,
        content=content,
        types=("identity",),
        source_session=session if message else None,
        source_context=message,
    )
    return Scored(m, 0.5, ScoreBreakdown(semantic=score, recency=0.0, strength=0.0, continuity=0.0), 0.5)


def ids(ranked: list[Scored]) -> list[str]:
    return [s.memory.id for s in ranked]


OLD = item("old", "User teaches piano from home.", 0.6, message="I teach piano from home.", session="s1")
STOPPED = item("stopped", "User has stopped teaching piano.", 0.5, message=SAID)
TEMPING = item("temping", "User is temping in an office.", 0.1, message=SAID)
OTHER = item(
    "other", "User collects enamel pin badges.", 0.3, message="I collect enamel pin badges.", session="s0"
)


def test_the_new_value_comes_with_the_memory_that_ends_the_old_one() -> None:
    ranked, carried = carry_message([STOPPED, OLD, OTHER, TEMPING], [("old", "stopped")], CFG)
    assert ids(ranked) == ["stopped", "temping", "old", "other"]
    assert carried == [("old", "temping")]


def test_nothing_is_carried_without_a_follower_or_when_off() -> None:
    ranked = [STOPPED, OLD, OTHER, TEMPING]
    assert carry_message(ranked, [], CFG) == (ranked, [])
    off = CFG.replace(newer_first_carry_limit=0)
    assert carry_message(ranked, [("old", "stopped")], off) == (ranked, [])


def test_only_a_follower_that_ends_the_old_value_in_its_words_carries() -> None:
    """A follower with no word for the change, or one that shares no word with the
    old fact, is itself the news: its message's other sentences stay where they rank."""
    plain = item("stopped", "User is at the school on Mondays.", 0.5, message=SAID)
    elsewhere = item("stopped", "User has stopped going to the gym.", 0.5, message=SAID)
    for follower in (plain, elsewhere):
        ranked, carried = carry_message([follower, OLD, OTHER, TEMPING], [("old", "stopped")], CFG)
        assert ids(ranked) == ["stopped", "old", "other", "temping"] and carried == []


def test_a_long_message_carries_nothing() -> None:
    """A chat turn of five sentences: its other memories are not the change's new value."""
    rest = [item(f"s{i}", f"User said thing {i}.", 0.05, message=SAID) for i in range(3)]
    ranked, carried = carry_message([STOPPED, OLD, *rest], [("old", "stopped")], CFG)
    assert ids(ranked) == ["stopped", "old", "s0", "s1", "s2"] and carried == []
    wide = CFG.replace(newer_first_carry_limit=3)
    ranked, carried = carry_message([STOPPED, OLD, *rest], [("old", "stopped")], wide)
    assert ids(ranked) == ["stopped", "s0", "s1", "s2", "old"] and len(carried) == 3


def test_a_thing_that_is_gone_ends_the_old_value_too() -> None:
    """ "The Fiesta finally died so I bought a second-hand Toyota Yaris." stores two
    memories; the one saying the car died names the old value and ends it
    (``ENDED_MARKERS``), so the bought car comes with it."""
    said = "The Fiesta finally died so I bought a second-hand Toyota Yaris."
    old = item(
        "old", "User drives an old Ford Fiesta.", 0.6, message="I drive an old Ford Fiesta.", session="s1"
    )
    died = item("died", "The Fiesta finally died.", 0.5, message=said)
    bought = item("bought", "User bought a second-hand Toyota Yaris.", 0.1, message=said)
    ranked, carried = carry_message([died, old, OTHER, bought], [("old", "died")], CFG)
    assert ids(ranked) == ["died", "bought", "old", "other"]
    assert carried == [("old", "bought")]
