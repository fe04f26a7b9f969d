import copy
from collections.abc import Callable

import numpy as np
import pytest

from lokulmem import AugmentResult, Config, LokulMem, ManualClock, MiniLMEmbedder, ValidationError
from lokulmem.records import SCORE_PARTS, StageTrace
from lokulmem.retrieval import BLOCK_END, BLOCK_START


def _seed(mem: LokulMem) -> None:
    for text in [
        "I live in Berlin.",
        "I work at Acme Corp as a product manager.",
        "My sister Maya is a doctor in Hamburg.",
        "I prefer concise answers with bullet points.",
        "I am allergic to peanuts.",
        "I'm training for the Berlin marathon in October.",
    ]:
        assert mem.learn(text, "").extracted


def test_breakdown_sums_to_score_and_debug_is_complete(mem: LokulMem) -> None:
    _seed(mem)
    history = [
        {"role": "system", "content": "Be helpful."},
        {"role": "user", "content": "I need running tips."},
        {"role": "assistant", "content": "Sure."},
    ]
    original = copy.deepcopy(history)
    r = mem.augment("How should I prepare for my race?", history, debug=True)
    assert history == original  # caller's list untouched
    d = r.debug
    assert d is not None and d.injected
    assert "marathon" in d.injected[0].memory.content
    for inj in d.injected:
        b = inj.score_breakdown
        assert inj.score == pytest.approx(sum(getattr(b, part) for part in SCORE_PARTS))
        assert inj.reason
    assert [i.injection_rank for i in d.injected] == list(range(1, len(d.injected) + 1))
    assert len(d.candidates) <= 20
    assert all(c.injected == (c.excluded_reason is None) for c in d.candidates)
    assert d.retrieval_strategy == "brute-force" and d.search_mode == "exact"
    assert d.embedding_latency_ms >= 0 and d.retrieval_latency_ms >= 0
    system = r.messages[0]
    assert system["role"] == "system" and system["content"].startswith(BLOCK_START)
    assert system["content"].endswith("Be helpful.") and BLOCK_END in system["content"]
    assert r.messages[-1] == {"role": "user", "content": "How should I prepare for my race?"}
    assert len(r.messages) == len(history) + 1


def test_injection_reinforces(mem: LokulMem) -> None:
    _seed(mem)
    r = mem.augment("What am I allergic to?", [], debug=True)
    assert r.debug is not None
    top = r.debug.injected[0].memory
    assert "peanut" in top.content
    after = mem.manage().get(top.id)
    assert after.mention_count == top.mention_count + 1
    assert after.base_strength == pytest.approx(top.base_strength + 0.3)


def test_token_budget_with_custom_counter(make_mem: Callable[..., LokulMem]) -> None:
    calls: list[str] = []

    def words(text: str) -> int:
        calls.append(text)
        return len(text.split())

    mem = make_mem(token_counter=words, context_window_size=575, response_buffer=500)
    _seed(mem)
    history = [{"role": "user", "content": "word " * 40}]
    # Ranked only (no relevance test), so every memory competes for the budget.
    r = mem.augment(
        "Tell me about my family and my work and my health", history, debug=True, require_evidence=False
    )
    d = r.debug
    assert d is not None and calls
    expected = 575 - 500 - 40 - len("Tell me about my family and my work and my health".split())
    assert d.tokens_available == expected
    assert 0 < d.tokens_used <= d.tokens_available
    assert d.tokens_used == words(r.context)
    assert any(c.excluded_reason == "token budget exhausted" for c in d.candidates)


def test_filters_limits_pinned_and_format(mem: LokulMem) -> None:
    _seed(mem)
    sister = next(m for m in mem.manage().list() if "Maya" in m.content)
    mem.manage().pin(sister.id)
    r = mem.augment("What do I do for a living?", [], debug=True, types=["profession"], max_memories=5)
    d = r.debug
    assert d is not None
    assert all("profession" in i.memory.types for i in d.injected)
    assert any(c.excluded_reason == "type filtered" for c in d.candidates)
    r2 = mem.augment("Tell me about Maya", [], debug=True, max_memories=1)
    assert r2.debug is not None and len(r2.debug.injected) == 1
    assert r2.debug.injected[0].memory.id == sister.id
    assert "• 📌 " in r2.context and "(pinned)" in r2.context
    r3 = mem.augment("Tell me about Maya", [], min_relevance=1.0)
    assert r3.context == "" and r3.messages == [{"role": "user", "content": "Tell me about Maya"}]


def test_content_blocks_and_bad_history(mem: LokulMem) -> None:
    _seed(mem)
    history = [{"role": "system", "content": [{"type": "text", "text": "Be brief."}]}]
    r = mem.augment("Where do I live?", history)
    assert r.messages[0]["content"][0]["text"].startswith(BLOCK_START)
    assert history[0]["content"] == [{"type": "text", "text": "Be brief."}]
    with pytest.raises(ValidationError, match=r"history\[1\]"):
        mem.augment("hi", [{"role": "user", "content": "a"}, {"content": "no role"}])
    with pytest.raises(ValidationError, match="message"):
        mem.augment(42, [])  # type: ignore[arg-type]
    with pytest.raises(ValidationError, match="max_memories"):
        mem.augment("hi", [], max_memories=-1)


def test_recency_decays_with_time(mem: LokulMem, clock: ManualClock) -> None:
    _seed(mem)
    a = mem.augment("Where do I live?", [], debug=True)
    clock.advance(days=30)
    b = mem.augment("Where do I live?", [], debug=True)
    assert a.debug and b.debug
    assert b.debug.candidates[0].breakdown.recency < a.debug.candidates[0].breakdown.recency


def test_the_semantic_term_blends_the_message_vector(
    make_mem: Callable[..., LokulMem], embedder: MiniLMEmbedder
) -> None:
    mem = make_mem()
    m = mem.learn("Seven years now, and I still love it.", in_reply_to="How long have you been painting?")
    memory = mem.manage().get(m.extracted[0].id)  # the context vector lands after learn()
    assert memory.context_embedding is not None
    (want,) = embedder.embed(["How long have you been painting? Seven years now, and I still love it."])
    # Stored as float16 (vector_storage): the same vector to float16 precision.
    assert np.allclose(memory.context_embedding, want, atol=1e-3)
    q = "How long has the user been painting?"
    r = mem.augment(q, debug=True)
    assert r.debug is not None
    top = next(c for c in r.debug.candidates if c.memory.id == memory.id)
    (qv,) = embedder.embed([q])
    qv = qv.astype(np.float16).astype(np.float32)  # as the engine's query vector is rounded
    assert memory.embedding is not None
    w, cfg = mem.config.context_vector_weight, mem.config
    cosine = float(memory.embedding @ qv)
    blended = (1 - w) * cosine + w * float(memory.context_embedding @ qv)
    assert top.breakdown.semantic == pytest.approx(cfg.retrieval_weights.semantic * blended, abs=1e-5)
    assert top.similarity == pytest.approx(cosine, abs=1e-5)  # the debug record keeps the raw cosine
    # Turned off, nothing is embedded for the context.
    off = make_mem(context_vector_weight=0.0)
    learned = off.learn("I paint every weekend.").extracted[0]
    assert off.manage().get(learned.id).context_embedding is None


def test_a_message_context_counts_once(make_mem: Callable[..., LokulMem]) -> None:
    def lexical(mem: LokulMem) -> dict[str, float]:
        mem.learn("We went camping by the lake last June. The kids loved it and I took photos.")
        r = mem.augment("camping trip", debug=True)
        assert r.debug is not None
        return {c.memory.content: c.breakdown.lexical for c in r.debug.candidates}

    once = lexical(make_mem())
    camping = next(v for k, v in once.items() if "camping" in k)
    others = [v for k, v in once.items() if "camping" not in k]
    assert camping > 0 and others and all(v == 0 for v in others)  # no "camping" in their own words
    shared = lexical(make_mem(context_once=False))
    assert all(v > 0 for v in shared.values())  # every sentence of the message matched via its context


@pytest.mark.parametrize(
    "question",
    ['"', '" OR * NEAR(a b) AND -x', "the and of what is it", "*", "NEAR OR AND NOT", 'berlin" OR "x'],
)
def test_fts_syntax_and_stop_words_are_plain_text(mem: LokulMem, question: str) -> None:
    mem.learn("I live in Berlin.")
    result = mem.augment(question, debug=True)
    assert result.debug is not None and result.messages[-1]["content"] == question
    assert isinstance(mem.manage().search(question), list)


def test_the_current_fact_is_injected_before_the_one_it_replaced(mem: LokulMem, clock: ManualClock) -> None:
    mem.learn("I live in Berlin.", session_id="a")
    clock.advance(days=20)
    mem.learn("I used to live in Berlin, but now I live in Lisbon.", session_id="b")
    clock.advance(days=20)
    lines = mem.augment("Where do I live?").context.splitlines()
    lisbon = next(i for i, line in enumerate(lines) if "Lisbon" in line)
    berlin = next(i for i, line in enumerate(lines) if line.startswith("• User lives in Berlin."))
    assert lisbon < berlin and "no longer current" in lines[berlin]


#: Remarks that share the words of "What city am I based in?" but answer nothing.
_CITY_REMARKS = (
    "I love how green the city gets in spring.",
    "The city centre is packed with tourists every weekend.",
    "I'm more of a city person than a countryside one.",
    "Our city finally opened the new tram line.",
    "I spent the afternoon in the city library.",
)


@pytest.mark.parametrize("pool", [50, 2])
def test_a_fact_that_sets_the_asked_attribute_is_injected_among_remarks_with_its_words(
    make_mem: Callable[..., LokulMem], clock: ManualClock, pool: int
) -> None:
    """The current fact shares no word with the question and reads far from it;
    the remarks do both.  It sets the attribute the question asks about, so it
    joins the candidates (even when the vector search keeps only ``pool``) and
    its bonus carries it over the margin; without the bonus it is left out."""
    injected: dict[float, list[str]] = {}
    for bonus in (0.0, Config().asked_attribute_bonus):
        mem = make_mem(asked_attribute_bonus=bonus, candidate_pool=pool)
        mem.learn("I'm based in Porto.", session_id="a")
        clock.advance(days=10)
        fired = mem.learn("I'm in Valencia now, the move went fine.", session_id="b").contradictions
        assert fired and fired[0].existing.content == "User is based in Porto."
        for remark in _CITY_REMARKS:
            clock.advance(hours=5)
            assert mem.learn(remark, session_id="c").extracted, remark
        clock.advance(days=10)
        r = mem.augment("What city am I based in?", debug=True)
        assert r.debug is not None
        injected[bonus] = [i.memory.content for i in r.debug.injected]
        if bonus:
            counts = next(s.counts for s in r.debug.stages if s.name == "candidates")
            assert counts["asked"] == (1 if pool == 2 else 0)
            top = next(c for c in r.debug.candidates if "Valencia" in c.memory.content)
            assert top.breakdown.attribute == bonus
    assert not any("Valencia" in c for c in injected[0.0])
    assert any("Valencia" in c for c in injected[Config().asked_attribute_bonus])


def _asked_after_a_change(
    mem: LokulMem, clock: ManualClock, fact: str, change: str, question: str
) -> AugmentResult:
    """``fact`` learned, ``change`` 20 days later (it must supersede the fact), then
    ``question`` with debug 20 days after that."""
    mem.learn(fact, session_id="a")
    clock.advance(days=20)
    fired = mem.learn(change, session_id="b").contradictions
    assert fired and fired[0].existing.status == "superseded"
    clock.advance(days=20)
    return mem.augment(question, debug=True)


def test_a_question_phrased_like_a_superseded_fact_gets_its_replacement(
    make_mem: Callable[..., LokulMem], clock: ManualClock
) -> None:
    """The old fact left the index when it was superseded; it is found as history,
    never injected, and the fact that replaced it stands where it stands.  (The
    question also asks for the ``work_hours`` slot, which would find the new fact
    on its own: the slot's bonus and evidence are off here, to test the history
    alone.)"""
    for history in (3, 0):
        mem = make_mem(history_candidates=history, asked_attribute_bonus=0, relevance_attribute_weight=0)
        r = _asked_after_a_change(
            mem,
            clock,
            "I work full-time.",
            "I work part-time now to look after my son.",
            "How many hours do I work?",
        )
        assert r.debug is not None
        injected = [i.memory.content for i in r.debug.injected]
        counts = next(s.counts for s in r.debug.stages if s.name == "candidates")
        if history:
            assert counts["history"] == 1
            assert injected == ["User works part-time now to look after User's son."]
            old = next(c for c in r.debug.candidates if c.memory.status == "superseded")
            assert old.excluded_reason == "superseded (its replacement stands in)"
        else:
            assert counts["history"] == 0 and injected == []


def test_a_question_about_a_slot_finds_the_replacement_of_its_superseded_fact(
    make_mem: Callable[..., LokulMem], clock: ManualClock
) -> None:
    """ "Am I in a relationship?" is far from "User is dating a guy named Marco."
    (cosine 0.17, under ``history_similarity``), and from the break-up that
    superseded it; the question asks for the slot both set, so the superseded
    fact joins as history and its replacement stands where it stands."""
    for history in (3, 0):
        mem = make_mem(history_candidates=history)
        r = _asked_after_a_change(
            mem,
            clock,
            "I'm dating a guy named Marco.",
            "Marco and I split up in March.",
            "Am I in a relationship?",
        )
        assert r.debug is not None
        injected = [i.memory.content for i in r.debug.injected]
        if history:
            assert injected == ["User and Marco split up in March."]
        else:
            assert injected == []


def test_the_pipeline_in_debug_is_what_ran(mem: LokulMem) -> None:
    _seed(mem)
    r = mem.augment("Where do I live, and what does my sister do?", debug=True)
    d = r.debug
    assert d is not None and d.injected
    names = [s.name for s in d.stages]
    assert d.pipeline == tuple(names)
    # No "graph" stage: the second pass is off by default (test_graph.py).
    assert names == [
        "parse", "embed", "mode-selection", "candidates", "scoring", "ranking", "relevance",
        "proactive", "packaging", "reinforce", "audit",
    ]  # fmt: skip
    assert all(s.ms >= 0 for s in d.stages)
    stage = {s.name: s for s in d.stages}
    assert stage["mode-selection"].detail == (
        f"exact search over {d.searched} vectors: below hnsw_threshold (20000)"
    )
    assert stage["packaging"].counts["injected"] == len(d.injected)
    assert stage["audit"].counts["considered"] == stage["ranking"].counts["ranked"]
    assert sum(d.excluded.values()) == stage["audit"].counts["excluded"]
    # The parse.
    assert d.query is not None and d.query.intent == "question"
    assert d.query.asked_attributes == ("sister.employer", "sister.job", "user.residence")
    assert len(d.query.clauses) == 2
    # Evidence cards: one per injected memory, in order, telling what the memory is.
    assert [c.memory_id for c in d.evidence] == [i.memory.id for i in d.injected]
    for card, inj in zip(d.evidence, d.injected, strict=True):
        assert card.content == inj.memory.content and card.rank == inj.injection_rank
        assert card.current == (inj.memory.valid_to is None) and card.session == inj.memory.source_session
        assert card.confidence in ("high", "medium", "low") and card.evidence == inj.evidence
    # Nothing to reinforce in a preview: that stage does not run.
    preview = mem.manage().get_injection_preview("Where do I live?")
    assert preview.would_inject


def test_a_time_range_brings_what_was_learned_then(mem: LokulMem, clock: ManualClock) -> None:
    clock.set(1_746_000_000_000)  # 2025-04-30
    clock.advance(days=10)  # into May
    mem.learn("I went to a pottery class with Ana.")
    for day in range(60):
        clock.advance(days=3)
        mem.learn(f"I read chapter {day} of my novel on the train.")
    r = mem.augment("What did I do last May?", debug=True)
    d = r.debug
    assert d is not None and d.query is not None and d.query.time_range is not None
    assert d.query.time_range.phrase == "last May"
    cand = {s.name: s for s in d.stages}["candidates"]
    assert cand.counts["time"] + cand.counts["vector"] > 0
    top = d.injected[0]
    assert "pottery" in top.memory.content
    assert top.score_breakdown.time == mem.engine.config.time_range_bonus
    assert "learned in the time asked about" in top.reason


def test_the_content_only_ranking_is_asked_only_when_two_candidates_share_a_message(
    mem: LokulMem, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[float] = []
    real = mem.storage.lexical_search

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(float(kwargs.get("context_weight", 0.0)))  # type: ignore[arg-type]
        return real(*args, **kwargs)  # type: ignore[arg-type]

    mem.learn("I adopted a beagle named Biscuit.", "")
    mem.learn("My sister plays the cello in Lyon.", "")
    monkeypatch.setattr(mem.storage, "lexical_search", counted)
    first = mem.augment("Tell me about Biscuit the beagle and the cello.", debug=True)
    assert first.debug is not None and len(calls) == 1  # one memory per message: one ranking
    monkeypatch.setattr(mem.storage, "lexical_search", real)
    mem.learn("I moved to Porto and I bought a bike there.", "")
    monkeypatch.setattr(mem.storage, "lexical_search", counted)
    calls.clear()
    mem.augment("Did I buy a bike after moving to Porto?")
    assert len(calls) == 2 and calls[1] == 0.0  # two facts of one message: the content alone too


def test_overlapping_the_text_reads_changes_no_result(make_mem: Callable[..., LokulMem]) -> None:
    """``overlap_text_search`` moves the lexical, time and pinned reads beside the
    embedding; what augment() injects, and why, stays exactly the same."""
    import lokulmem

    stores = [make_mem(config=lokulmem.Config(overlap_text_search=on)) for on in (True, False)]
    for m in stores:
        _seed(m)
        pinned = m.manage().search("peanuts")[0]
        m.manage().pin(pinned.id)
    questions = ["What am I allergic to?", "What did I tell you today about Berlin?", "Where does Maya work?"]
    for question in questions:
        on, off = (m.augment(question, [], debug=True) for m in stores)
        assert on.messages == off.messages
        assert on.debug is not None and off.debug is not None
        assert [(i.memory.content, i.score, i.reason) for i in on.debug.injected] == [
            (i.memory.content, i.score, i.reason) for i in off.debug.injected
        ]
        stage = {s.name: s for s in on.debug.stages}["candidates"]
        stage_off = {s.name: s for s in off.debug.stages}["candidates"]
        assert stage.counts == stage_off.counts
        assert stage.detail.endswith("beside the embedding")
        assert stage_off.detail.endswith("in this stage")


def _changed_then_asked(
    mem: LokulMem, clock: ManualClock, fact: str, change: str, question: str
) -> AugmentResult:
    """``fact``, its change 20 days later (which no contradiction rule recognises:
    the premise of the newer-first tests), then ``question`` 20 days after that."""
    mem.learn(fact, session_id="before")
    clock.advance(days=20)
    assert not mem.learn(change, session_id="after").contradictions
    clock.advance(days=20)
    return mem.augment(question, [], debug=True)


def _injected_after(
    mem: LokulMem, clock: ManualClock, fact: str, change: str, question: str
) -> tuple[list[str], tuple[StageTrace, ...]]:
    """What :func:`_changed_then_asked` injects, in order, and its debug stages."""
    result = _changed_then_asked(mem, clock, fact, change, question)
    assert result.debug is not None
    return [i.memory.content for i in result.debug.injected], tuple(result.debug.stages)


@pytest.mark.parametrize("inherits", [True, False])
def test_a_newer_fact_that_tells_the_change_stands_where_the_older_stands(
    make_mem: Callable[..., LokulMem], clock: ManualClock, inherits: bool
) -> None:
    """The new fact shares too little with the question to be relevant on its own;
    it says what changed about a relevant older fact, so (``newer_first_inherits``)
    it is injected, first, with the older one's evidence.  (The question also asks
    for the relationship status the new fact sets, which alone would inject it:
    that cue is set aside here, so only the inheritance is measured.)"""
    mem = make_mem(newer_first_inherits=inherits, asked_attribute_bonus=0.0, relevance_attribute_weight=0.0)
    fact, change = "My girlfriend is Priya.", "Things ended with Priya, I'm single now."
    now = _changed_then_asked(mem, clock, fact, change, "Do I have a girlfriend?")
    assert now.debug is not None
    injected = [i.memory.content for i in now.debug.injected]
    single = next(c for c in now.debug.candidates if "single" in c.memory.content)
    if inherits:
        assert injected == ["Things ended with Priya, User is single now.", "User's girlfriend is Priya."]
        older = next(c for c in now.debug.candidates if "girlfriend" in c.memory.content)
        assert single.evidence == older.evidence
    else:
        assert injected == ["User's girlfriend is Priya."]
        assert single.excluded_reason == "no semantic or key-word evidence"


def test_a_newer_fact_on_the_same_subject_is_injected_first(
    make_mem: Callable[..., LokulMem], clock: ManualClock
) -> None:
    """A change no contradiction rule names leaves both facts active; for a question
    about now, the newer one (it says "now") comes first, and the debug reason says why.
    ("My new manager is Oscar." would be read by the relation rule, and "Helen left" by
    stage 1e, and close Helen.)"""
    mem = make_mem()
    now = _changed_then_asked(
        mem,
        clock,
        "My manager is Helen.",
        "Helen is on a long sabbatical, Oscar runs the team now.",
        "Who is my manager?",
    )
    assert now.debug is not None
    first, second = now.debug.injected[:2]
    assert "Oscar" in first.memory.content and "Helen" in second.memory.content
    assert first.reason.endswith("newer than a similar memory below it")
    ranking = {s.name: s for s in now.debug.stages}["ranking"]
    assert ranking.counts["newer_first"] == 1
    before = mem.augment("Who was my manager before?", [], debug=True)
    assert before.debug is not None and before.debug.query.asks_now is False
    assert {s.name: s for s in before.debug.stages}["ranking"].counts["newer_first"] == 0


def test_a_yes_no_question_asks_for_the_slot_the_change_sets(
    make_mem: Callable[..., LokulMem], clock: ManualClock
) -> None:
    """ "Do I have a girlfriend?" asks for the relationship status: the fact that sets
    it now is injected first by default."""
    mem = make_mem()
    fact, change = "My girlfriend is Priya.", "Things ended with Priya, I'm single now."
    now = _changed_then_asked(mem, clock, fact, change, "Do I have a girlfriend?")
    assert now.debug is not None
    assert now.debug.injected[0].memory.content == "Things ended with Priya, User is single now."


def test_the_new_value_told_beside_the_end_of_the_old_is_injected_first(
    make_mem: Callable[..., LokulMem], clock: ManualClock
) -> None:
    """ "I've stopped teaching piano and I'm temping in an office." stores two
    memories; the one naming the old value takes the old fact's place, and the new
    value, which shares no word with "What do I do for work?", comes with it
    (``newer_first_carry_limit``; off, it is left out)."""
    for limit in (2, 0):
        mem = make_mem(newer_first_carry_limit=limit)
        mem.learn("I teach piano from home.", session_id="a")
        clock.advance(days=20)
        mem.learn("I've stopped teaching piano and I'm temping in an office.", session_id="b")
        clock.advance(days=20)
        result = mem.augment("What do I do for work?", debug=True)
        assert result.debug is not None
        lines = [i.memory.content for i in result.debug.injected]
        old = lines.index("User teaches piano from home.")
        if limit:
            temping = lines.index("User is temping in an office.")
            assert temping < old and "message of a change" in result.debug.injected[temping].reason
        else:
            assert "User is temping in an office." not in lines
        mem.close()


def test_a_told_change_in_other_words_is_injected_first_when_nothing_else_is_nearer(
    make_mem: Callable[..., LokulMem], clock: ManualClock
) -> None:
    """ "Finally got the keys to our place …" shares no word with "User is house
    hunting …" and is far from it (cosine under the told bars), but it tells a
    change and the two are each other's nearest: it is the later word
    (``newer_first_echo_mutual_similarity``; off, the old fact is injected alone)."""
    for mutual in (0.2, 0.0):
        mem = make_mem(newer_first_echo_mutual_similarity=mutual)
        fact = "I'm house hunting in the north of the city."
        change = "Finally got the keys to our place yesterday, we're in now."
        got, _ = _injected_after(mem, clock, fact, change, "Am I still house hunting?")
        assert got[-1] == "User is house hunting in the north of the city."
        assert (len(got) == 2 and "keys" in got[0]) if mutual else len(got) == 1
        mem.close()


# (option on, fact, its stored form, change, question, the change's own words).  Words: the gym
# change shares "PureGym" with the old fact, and the best result's own words find
# it (``newer_first_echo_search``).  Vector: the dentist change shares no word
# with it (the full-text search would not find it), and the nearest memories to
# the best result's own vector do (``newer_first_echo_neighbours``); it tells a
# change ("these days").
LATER_WORD_SEARCHES = {
    "words": (
        "newer_first_echo_search",
        "My gym is the PureGym on the high street.",
        "User's gym is the PureGym on the high street.",
        "I let the PureGym membership lapse and joined the climbing wall instead.",
        "Which gym do I go to?",
        "climbing wall",
    ),
    "vector": (
        "newer_first_echo_neighbours",
        "My dentist is Dr Patel in town.",
        "User's dentist is Dr Patel in town.",
        "These days I go to a new dental practice near the office.",
        "Who is my dentist?",
        "dental practice",
    ),
}


@pytest.mark.parametrize("how", sorted(LATER_WORD_SEARCHES))
def test_a_later_word_that_is_no_candidate_is_found_by_the_best_result(
    make_mem: Callable[..., LokulMem], clock: ManualClock, how: str
) -> None:
    """In a store of many memories on the topic the later word may be no candidate
    of the question (here the vector pool holds one memory, and the question
    names no word of the change): one search from the best result finds it, and
    it echoes it; with that search off (the other always off), the old fact is
    injected alone."""
    option, fact, stored, change, question, said = LATER_WORD_SEARCHES[how]
    off = {"newer_first_echo_search": 0, "newer_first_echo_neighbours": 0}
    for on in (True, False):
        options = {**off, option: 20} if on else off
        mem = make_mem(candidate_pool=1, **options)
        mem.learn("I'm saving up for a new bike.", session_id="x")
        got, stages = _injected_after(mem, clock, fact, change, question)
        assert got[-1] == stored
        assert (len(got) == 2 and said in got[0]) if on else len(got) == 1
        ranking = {s.name: s for s in stages}["ranking"]
        assert ranking.counts["later_words"] == (1 if on else 0)
        mem.close()
