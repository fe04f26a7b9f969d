import dataclasses

import numpy as np
import pytest

from lokulmem.records import Memory, ScoreBreakdown


def _memory() -> Memory:
    return Memory(
        id="m1",
        content="User lives in Lisbon.",
        types=("identity",),
        embedding=np.ones(4, dtype=np.float32),
        created_at=1,
        updated_at=1,
        last_accessed_at=1,
        last_reinforced=1,
        valid_from=1,
        metadata={"k": 1},
    )


def test_replace_equals_dataclasses_replace() -> None:
    m = _memory()
    fast = m.replace(mention_count=3, content="User lives in Porto.")
    slow = dataclasses.replace(m, mention_count=3, content="User lives in Porto.")
    assert fast == slow and type(fast) is Memory
    assert (m.mention_count, m.content) == (0, "User lives in Lisbon.")  # the original is untouched
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.content = "x"  # type: ignore[misc]


def test_replace_refuses_an_unknown_field() -> None:
    with pytest.raises(TypeError, match="no field 'colour'"):
        _memory().replace(colour="red")


def test_from_fields_builds_what_the_constructor_builds() -> None:
    original = Memory(id="m1", content="User likes tea.", types=("preference",), entities=("tea",))
    fields = {f.name: getattr(original, f.name) for f in dataclasses.fields(Memory)}
    made = Memory.from_fields(dict(fields))
    assert made.same_as(original)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.content = "changed"  # type: ignore[misc]


def test_from_fields_refuses_missing_or_unknown_fields() -> None:
    fields = {f.name: None for f in dataclasses.fields(Memory)}
    with pytest.raises(TypeError, match="missing \\['types'\\]"):
        Memory.from_fields({k: v for k, v in fields.items() if k != "types"})
    with pytest.raises(TypeError, match="unknown \\['colour'\\]"):
        Memory.from_fields({**fields, "colour": "red"})


def test_matched_is_the_total_without_the_asked_attribute_bonus() -> None:
    b = ScoreBreakdown(semantic=0.3, recency=0.1, strength=0.0, continuity=0.05, lexical=0.2, attribute=0.5)
    assert b.total == pytest.approx(1.15) and b.matched == pytest.approx(0.65)
    plain = ScoreBreakdown(semantic=0.3, recency=0.1, strength=0.0, continuity=0.0)
    assert plain.matched == pytest.approx(plain.total)
