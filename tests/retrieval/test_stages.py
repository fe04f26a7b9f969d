"""The recall stages (``lokulmem.retrieval.stages``) on hand-built records: no store, no model."""

from __future__ import annotations

import numpy as np
import pytest

from lokulmem import Config, Memory
from lokulmem.retrieval import selection as sel
from lokulmem.retrieval import stages as st
from lokulmem.retrieval.scoring import explain

NOW = 1_767_225_600_000
CFG = Config()


def vec(*xs: float) -> np.ndarray:
    v = np.array(xs, dtype=np.float32)
    return v / np.linalg.norm(v)


def mem(mid: str, v: np.ndarray, **kw: object) -> Memory:
    fields: dict[str, object] = {"content": f"User fact {mid}.", "types": ("preference",), "created_at": NOW}
    fields.update(kw)
    return Memory(id=mid, embedding=v, **fields)  # type: ignore[arg-type]


QUERY = vec(1, 0, 0, 0)


def scored(
    *memories: Memory, lexical: dict[str, float] | None = None, topic: str | None = None
) -> list[st.Scored]:
    pool = st.Pool(
        memories=memories,
        similarities={m.id: float(m.embedding @ QUERY) for m in memories if m.embedding is not None},
        lexical=lexical or {},
    )
    return st.score(pool, query=QUERY, turn_vectors=[], topic=topic, now_ms=NOW, config=CFG)


def test_score_sums_its_components_best_first_and_skips_inactive() -> None:
    near, far = mem("near", vec(1, 3, 0, 0)), mem("far", vec(0, 0, 1, 0))
    gone = mem("gone", vec(1, 0, 0, 0), status="archived")
    out = scored(far, gone, near, lexical={"far": 1.0})
    assert [s.memory.id for s in out] == ["far", "near"]  # a full lexical match outweighs a weak cosine
    w = CFG.retrieval_weights
    assert out[0].breakdown.lexical == pytest.approx(w.lexical)
    assert out[1].breakdown.semantic == pytest.approx(w.semantic * float(near.embedding @ QUERY))  # type: ignore[operator]
    for s in out:
        b = s.breakdown
        assert b.total == pytest.approx(
            b.semantic + b.recency + b.strength + b.continuity + b.lexical + b.cluster
        )
    # A superseded fact in the pool came as history: it is scored (selection never
    # injects it; its replacement stands where it stands).
    old = mem("old", vec(1, 0, 0, 0), status="superseded")
    assert "old" in [s.memory.id for s in scored(far, old, near)]


def test_a_fact_of_the_asked_attribute_gets_its_bonus_in_the_breakdown() -> None:
    slot = mem("slot", vec(0, 1, 0, 0), attribute="user.residence", attribute_value="lisbon")
    other = mem("other", vec(0, 1, 0, 0), attribute="user.job", attribute_value="nurse")
    typed = mem("typed", vec(0, 1, 0, 0), types=("location",))
    remark = mem("remark", vec(1, 0.2, 0, 0))

    def ranked(config: Config) -> list[st.Scored]:
        pool = st.Pool(
            memories=(remark, typed, other, slot),
            similarities={m.id: float(m.embedding @ QUERY) for m in (remark, typed, other, slot)},  # type: ignore[operator]
            lexical={"remark": 1.0},
            asked=frozenset({"user.residence"}),
            asked_types=frozenset({"location"}),
        )
        return st.score(pool, query=QUERY, turn_vectors=[], topic=None, now_ms=NOW, config=config)

    out = ranked(CFG)
    bonus = {s.memory.id: s.breakdown.attribute for s in out}
    # Only the fact that sets the asked attribute: not another attribute, not a type.
    assert bonus == {"slot": CFG.asked_attribute_bonus, "other": 0.0, "typed": 0.0, "remark": 0.0}
    assert out[0].memory.id == "remark"  # the cosine and the key word still count
    top = {s.memory.id: s.breakdown.total for s in out}
    assert top["slot"] == pytest.approx(top["other"] + CFG.asked_attribute_bonus)
    (mine,) = [s for s in out if s.memory.id == "slot"]
    assert "sets what the question asks about" in explain(slot, mine.breakdown, 0.0, CFG)
    off = ranked(Config(asked_attribute_bonus=0))
    assert all(s.breakdown.attribute == 0 for s in off)


def test_the_semantic_term_blends_the_message_vector_and_the_topic_gets_its_bonus() -> None:
    m = mem("m", vec(0, 1, 0, 0), context_embedding=vec(1, 0, 0, 0), cluster_id="c1")
    (s,) = scored(m, topic="c1")
    w = CFG.context_vector_weight
    assert s.breakdown.semantic == pytest.approx(CFG.retrieval_weights.semantic * w)
    assert s.breakdown.cluster == CFG.cluster_bonus and s.similarity == pytest.approx(0.0, abs=1e-6)


def test_context_once_keeps_a_messages_words_for_its_best_memory() -> None:
    a = mem("a", vec(1, 0, 0, 0), source_context="I moved to Porto and bought a bike.", source_session="s")
    b = mem("b", vec(1, 1, 0, 0), source_context="I moved to Porto and bought a bike.", source_session="s")
    ranked = scored(a, b, lexical={"a": 1.0, "b": 1.0})
    once = st.context_once(ranked, {"a": 0.0, "b": 0.2}, CFG)
    assert [s.memory.id for s in once] == ["a", "b"]
    assert once[0].breakdown.lexical == ranked[0].breakdown.lexical
    assert once[1].breakdown.lexical == pytest.approx(CFG.retrieval_weights.lexical * 0.2)


def test_repeats_message_tells_when_context_once_needs_the_content_scores() -> None:
    msg = "I moved to Porto and bought a bike."
    a = mem("a", vec(1, 0, 0, 0), source_context=msg, source_session="s")
    b = mem("b", vec(1, 1, 0, 0), source_context=msg, source_session="s")
    other = mem("o", vec(1, 1, 1, 0), source_context=msg, source_session="t")  # another session
    bare = mem("x", vec(0, 1, 0, 0), source_context="", source_session="s")
    bare2 = mem("y", vec(0, 0, 1, 0), source_context="", source_session="s")
    assert st.repeats_message(scored(a, b))
    assert not st.repeats_message(scored(a, other, bare, bare2))
    # Without a repeat, context-once reads no content score: leaving them out changes nothing.
    ranked = scored(a, other, lexical={"a": 1.0, "o": 1.0})
    assert st.context_once(ranked, {}, CFG) == st.context_once(ranked, {"a": 0.1, "o": 0.1}, CFG)


def test_rank_puts_pinned_memories_above_the_floor_first() -> None:
    top, pinned = mem("top", vec(1, 0, 0, 0)), mem("pin", vec(1, 1, 1, 0), pinned=True)
    ranked = st.rank(scored(top, pinned), floor=0.07)
    assert [s.memory.id for s in ranked] == ["pin", "top"]
    assert [s.memory.id for s in st.rank(scored(top, pinned), floor=0.99)] == ["top", "pin"]


def test_a_messages_second_fact_yields_to_another_messages_best_of_nearly_the_same_r() -> None:
    msg = "I moved to Porto and bought a bike."
    a = mem("a", vec(1, 0.1, 0, 0), source_context=msg, source_session="s")
    b = mem("b", vec(1, 0.2, 0, 0), source_context=msg, source_session="s")
    c = mem("c", vec(1, 0.3, 0, 0), source_context="My sister lives in Lyon.", source_session="s")
    d = mem("d", vec(0, 1, 0, 0), source_context="Something else.", source_session="s")
    plain = st.rank(scored(a, b, c, d), floor=0.0)
    assert [s.memory.id for s in plain] == ["a", "b", "c", "d"]
    assert st.repeats(plain) == {"b": 1}
    lowered = st.rank(scored(a, b, c, d), floor=0.0, repeat_penalty=0.1)
    assert [s.memory.id for s in lowered] == ["a", "c", "b", "d"]  # b: R − 0.1 is below c, above d
    # R itself is unchanged: the order is a ranking rule, not a score.
    totals = {s.memory.id: s.breakdown.total for s in plain}
    assert {s.memory.id: s.breakdown.total for s in lowered} == totals
    # A pinned memory above the floor still leads, whatever its message.
    pinned = mem("p", vec(0, 0, 1, 0), source_context=msg, source_session="s", pinned=True)
    first = st.rank(scored(a, b, c, pinned), floor=0.0, repeat_penalty=0.1)
    assert first[0].memory.id == "p"


def test_select_records_why_each_candidate_was_left_out() -> None:
    memories = [mem(f"m{i}", vec(1, i * 0.3, 0, 0)) for i in range(4)]
    memories.append(mem("emo", vec(1, 0, 0, 0.1), types=("emotional",)))
    memories.append(mem("weak", vec(0, 0, 1, 0), created_at=NOW - 10**10))
    ranked = st.rank(scored(*memories), floor=0.2)
    chosen, reasons = sel.select(
        ranked,
        floor=0.2,
        limit=2,
        budget=1000,
        type_filter=frozenset({"preference"}),
        config=CFG,
        counter=None,
    )
    assert [s.memory.id for s, _ in chosen] == ["m0", "m1"]
    assert reasons["emo"] == st.TYPE_FILTERED and reasons["weak"] == st.BELOW_FLOOR
    assert reasons["m2"] == reasons["m3"] == st.LIMIT_REACHED
    assert reasons["m0"] is None


def test_the_margin_bar_leaves_out_the_attribute_bonus() -> None:
    """The bonus lifts the slot fact over the bar; it does not raise the bar for
    the other relevant memories."""
    slot = mem("slot", vec(1, 0, 0, 0), attribute="user.residence", attribute_value="porto")
    news = mem("news", vec(1, 1.2, 0, 0))
    pool = st.Pool(
        memories=(slot, news),
        similarities={m.id: float(m.embedding @ QUERY) for m in (slot, news)},  # type: ignore[operator]
        lexical={},
        asked=frozenset({"user.residence"}),
    )
    ranked = st.rank(st.score(pool, query=QUERY, turn_vectors=[], topic=None, now_ms=NOW, config=CFG), 0.0)
    totals = {s.memory.id: s.breakdown.total for s in ranked}
    bonus = CFG.asked_attribute_bonus
    # With the bonus in the best R, "news" would fall under the bar; without it, it passes.
    assert totals["news"] < CFG.relevance_margin * totals["slot"]
    assert totals["news"] >= CFG.relevance_margin * (totals["slot"] - bonus)
    chosen, reasons = sel.select(
        ranked,
        floor=0.0,
        limit=10,
        budget=1000,
        type_filter=None,
        config=CFG,
        counter=None,
        proof={"slot": 1.0, "news": 1.0},
    )
    assert [s.memory.id for s, _ in chosen] == ["slot", "news"] and reasons["news"] is None


def test_select_and_fit_keep_the_block_within_the_tokens_available() -> None:
    ranked = st.rank(scored(*[mem(f"m{i}", vec(1, i * 0.1, 0, 0)) for i in range(5)]), floor=0.0)
    line_tokens = len("- User fact m0.") // 4 + 8
    chosen, reasons = sel.select(
        ranked, floor=0.0, limit=10, budget=2 * line_tokens, type_filter=None, config=CFG, counter=None
    )
    assert 1 <= len(chosen) <= 2 and st.BUDGET_EXHAUSTED in reasons.values()
    selection = sel.fit_block(chosen, reasons, available=5, counter=None)  # too small for any block
    assert selection.chosen == () and selection.block == "" and selection.tokens_used == 0
    assert all(selection.reasons[s.memory.id] == st.BUDGET_EXHAUSTED for s, _ in chosen)


def test_debug_records_show_the_injected_and_the_excluded() -> None:
    ranked = st.rank(scored(mem("a", vec(1, 0, 0, 0)), mem("b", vec(0, 1, 0, 0))), floor=0.3)
    chosen, reasons = sel.select(
        ranked, floor=0.3, limit=10, budget=1000, type_filter=None, config=CFG, counter=None
    )
    selection = sel.fit_block(chosen, reasons, available=1000, counter=None)
    (injected,) = sel.injected_debug(selection, CFG, None)
    assert injected.memory.id == "a" and injected.injection_rank == 1 and injected.reason
    candidates = sel.candidate_debug(ranked, selection.reasons, CFG)
    assert [(c.memory.id, c.injected, c.excluded_reason) for c in candidates] == [
        ("a", True, None),
        ("b", False, st.BELOW_FLOOR),
    ]


def test_available_tokens_and_pool_merging() -> None:
    history = [{"role": "system", "content": "x" * 400}, {"role": "user", "content": "y" * 400}]
    assert (
        st.available_tokens(history, "z" * 40, CFG, None)
        == CFG.context_window_size - 100 - 100 - 10 - CFG.response_buffer
    )
    extra = st.merge_ids(
        ["a"], first=["a", "p", "p"], lexical=["l", "a", "gone"], indexed=lambda i: i != "gone"
    )
    assert extra == ["p", "l"]
    assert st.topic_of(None, [], QUERY) is None
    centroids = np.stack([vec(0, 1, 0, 0), vec(1, 0, 0, 0)])
    assert st.topic_of(centroids, ["c0", "c1"], QUERY) == "c1"


def test_a_closed_fact_never_ranks_above_the_fact_that_replaced_it() -> None:
    old = mem("old", vec(1, 0, 0, 0), valid_to=NOW, superseded_by="mid")
    mid = mem("mid", vec(1, 0.2, 0, 0), valid_to=NOW, superseded_by="new")
    new = mem("new", vec(0.3, 1, 0, 0), temporal_supersedes="mid")
    other = mem("other", vec(1, 0.5, 0, 0))
    ranked = st.rank(scored(old, mid, other, new), floor=0.0)
    order = [s.memory.id for s in ranked]
    # The current fact takes the place of the best-ranked fact it replaced, the
    # chain follows it newest first, and "other" keeps its order after them.
    assert order == ["new", "mid", "old", "other"]
    assert [s.memory.id for s in scored(old, mid, other, new)] == ["old", "mid", "other", "new"]
    alone = st.rank(scored(old, other), floor=0.0)  # its replacement is not a candidate
    assert alone[0].memory.id == "old"
    assert st.successors([old, mid, other], known=["old", "mid", "other"]) == ["new"]
    assert st.successors([old, mid, other, new], known=["old", "mid", "other", "new"]) == []


def test_a_superseded_fact_found_as_history_lends_its_standing_and_is_never_injected() -> None:
    old = mem("old", vec(1, 0, 0, 0), status="superseded", superseded_by="new")
    new = mem("new", vec(0.2, 1, 0, 0))
    assert st.successors([old], known=["old"]) == ["new"]
    ranked = st.rank(scored(old, new), floor=0.0)
    assert [s.memory.id for s in ranked] == ["new", "old"]  # history after its replacement
    floor = ranked[1].breakdown.total - 0.01  # the replacement alone would fall under it
    chosen, reasons = sel.select(
        ranked, floor=floor, limit=10, budget=1000, type_filter=None, config=CFG, counter=None
    )
    assert [s.memory.id for s, _ in chosen] == ["new"]
    assert reasons["old"] == st.SUPERSEDED and reasons["new"] is None


def test_common_doc_freq_only_on_stores_above_the_floor() -> None:
    from lokulmem._engine.pool import common_doc_freq

    assert common_doc_freq(900, 1000, 0.05) is None
    assert common_doc_freq(10_000, 1000, 0.05) == 1000
    assert common_doc_freq(100_000, 1000, 0.02) == 2000
