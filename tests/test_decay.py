import math
from collections.abc import Callable

import pytest

from lokulmem import Config, LokulMem, ManualClock
from lokulmem.clock import MS_PER_HOUR
from lokulmem.config import DECAY_SLOWDOWN, DEFAULT_TYPES, TUNED_TYPES
from lokulmem.decay import memory_lambda, reinforce, strength, strength_at


def test_formulas() -> None:
    assert strength_at(1.0, 0.001, 0.0, "ebbinghaus") == 1.0
    assert strength_at(1.0, 0.001, math.log(2) / 0.001, "ebbinghaus") == pytest.approx(0.5)
    assert strength_at(1.0, 0.001, math.log(2) / 0.001, "linear") == pytest.approx(0.5)
    assert strength_at(1.0, 0.001, 2 * math.log(2) / 0.001, "linear") == pytest.approx(0.0)
    assert strength_at(1.3, 0.5, 1e6, "none") == 1.3
    c = Config.prd()  # the PRD's table of λ
    assert memory_lambda(("relational", "location"), c) == 0.0004  # slowest facet
    assert memory_lambda(("relational", "location"), c.replace(multi_type_lambda="max")) == 0.0005
    assert memory_lambda(("identity",), c, pinned=True) == 0.0
    assert memory_lambda(("unknown",), c) == c.fallback_lambda
    # The defaults make every half-life DECAY_SLOWDOWN times the PRD's (tuning entry 63).
    tuned = Config()
    assert DECAY_SLOWDOWN == 8.0
    assert tuned.type_lambdas == {name: lam / 8 for name, lam in DEFAULT_TYPES.items()} == TUNED_TYPES
    assert memory_lambda(("relational", "location"), tuned) == 0.00005


def test_pinned_survives_while_a_preference_fades_on_time(
    make_mem: Callable[..., LokulMem], clock: ManualClock
) -> None:
    mem = make_mem()
    pinned = mem.learn("I prefer window seats on planes.", "").extracted[0]
    mem.manage().pin(pinned.id)
    pref = mem.learn("I love spicy Thai food.", "").extracted[0]
    assert "preference" in pref.types
    lam = memory_lambda(pref.types, mem.config)
    assert lam == 0.001 / DECAY_SLOWDOWN
    c = mem.config
    t0 = clock.now_ms()
    predicted_hours = math.log(pref.base_strength / c.fade_threshold) / lam  # ≈ 18,420 h ≈ 768 days
    clock.set(t0 + int((predicted_hours - 24) * MS_PER_HOUR))
    assert strength(mem.manage().get(pref.id), clock.now_ms(), c) > c.fade_threshold
    clock.set(t0 + int((predicted_hours + 24) * MS_PER_HOUR))
    assert strength(mem.manage().get(pref.id), clock.now_ms(), c) < c.fade_threshold
    clock.set(t0 + 4 * 365 * 24 * MS_PER_HOUR)
    p = mem.manage().get(pinned.id)
    assert p.pinned and strength(p, clock.now_ms(), c) == p.base_strength == pinned.base_strength


def test_reinforcement_caps_and_counts() -> None:
    from lokulmem import Memory

    c = Config()
    m = Memory(id="x", content="User likes tea.", types=("preference",), base_strength=2.9)
    r = reinforce(m, 1000, c)
    assert r.base_strength == 3.0 and r.mention_count == 1 and r.last_accessed_at == 1000
    assert r.confidence == "high"
    assert reinforce(r, 2000, c).base_strength == 3.0


def test_valence_boost_at_creation(make_mem: Callable[..., LokulMem]) -> None:
    mem = make_mem()
    calm = mem.learn("I work at a bakery in Lyon.", "").extracted[0]
    thrilled = mem.learn("I am so happy and thrilled about my new puppy Rex!", "").extracted[0]
    assert calm.base_strength == 1.0
    assert abs(thrilled.emotional_valence) > 0.6
    assert thrilled.base_strength == pytest.approx(1.0 + 0.2 * min(1.0, abs(thrilled.emotional_valence)))
