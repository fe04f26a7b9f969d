"""The sentence plan of ``learn()``: gates → candidates → novelty, recurrence, E(s) → types → verdict.

Pure: every input is computed beforehand by the engine (the sentence's
analysis and vector, its stage-1 contradiction candidates, the session's
recent sentence vectors, the type prototypes, the clock's time), and the only
thing changed is the :class:`LearnPlan` passed in, which collects what the
message will write.  No store, no model, no index.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from ..config import Config
from ..contradiction import Candidate, Verdict, judge, restates, topic_stems
from ..decay import reinforce
from ..extraction import (
    Analysis,
    extraction_score,
    recurrence,
)
from ..extraction import (
    novelty as novelty_of,
)
from ..extraction.attributes import polarity_conflict
from ..extraction.elided import is_past_tense
from ..extraction.lexicon import NEGATION, UNDONE, tells_change
from ..pairhead import PairHead
from ..records import ContradictionEvent, Memory, SentenceDecision
from .facts import Provenance, close_fact, learned_types, memory_from_sentence
from .world import answers_a_question, general_statement, names_known, with_known_people

__all__ = ["LearnPlan", "MessageFacts", "gate", "plan_message", "plan_sentence", "with_context_vector"]

Vector = npt.NDArray[np.float32]


@dataclass
class LearnPlan:
    """What one ``learn()`` call will write, collected sentence by sentence."""

    new: list[Memory] = field(default_factory=list)
    updates: dict[str, Memory] = field(default_factory=dict)
    reinforced: list[str] = field(default_factory=list)
    contradictions: list[ContradictionEvent] = field(default_factory=list)
    decisions: list[SentenceDecision] = field(default_factory=list)
    removed_from_index: set[str] = field(default_factory=set)
    #: Every sentence vector of the message, in order (for recurrence).
    vectors: list[Vector] = field(default_factory=list)

    def current(self, memory: Memory) -> Memory:
        """The planned version of ``memory`` (reinforced or closed earlier in this message)."""
        return self.updates.get(memory.id, memory)


@dataclass(frozen=True)
class MessageFacts:
    """What every sentence of one message shares."""

    source: Provenance
    force: bool = False
    skip: frozenset[str] = frozenset()
    #: Whether any sentence of the message speaks in the first person.
    personal: bool = False
    #: The session's recent sentence vectors (before this message).
    session_vectors: Sequence[Vector] = ()
    #: Durable type prototypes for the fallback classification.
    prototypes: Mapping[str, Vector] = field(default_factory=dict)
    #: The learned contradiction head (stage 3b), or None when it is off.
    head: PairHead | None = None


#: "If I won the lottery, I'd…", "Imagine I lived in Rome": not a fact about the user.
_HYPOTHETICAL = re.compile(
    r"^\W*(?:(?:imagine|suppose|supposing|what if|hypothetically)\b"
    # "If I won…, I'd…" (counterfactual); "If it rains I stay home" is a habit, kept.
    r"|if\b(?=.*\b(?:would|could|might)\b|.*\w'd\b))",
    re.IGNORECASE,
)


def gate(a: Analysis, force: bool, config: Config) -> str | None:
    """The outcome for a sentence that is not a fact (question, chit-chat, remark about
    the listener, request), or None; forced extraction passes every gate."""
    if force:
        return None
    for flagged, enabled, outcome in (
        (bool(_HYPOTHETICAL.match(a.sentence)), config.skip_hypotheticals, "hypothetical"),
        (a.question, config.skip_questions, "question"),
        (a.chitchat, config.skip_chitchat, "chit-chat"),
        (a.listener, config.skip_listener_remarks, "about-listener"),
        (a.request, config.skip_questions, "request"),
    ):
        if flagged and enabled:
            return outcome
    return None


def _decision(
    a: Analysis,
    outcome: str,
    score: float = 0.0,
    novelty: float = 0.0,
    rec: float = 0.0,
    types: Sequence[str] = (),
    memory_id: str | None = None,
) -> SentenceDecision:
    return SentenceDecision(
        sentence=a.sentence,
        content=a.content,
        score=score,
        novelty=novelty,
        specificity=a.specificity,
        recurrence=rec,
        features=a.features.names,
        types=tuple(types),
        outcome=outcome,
        memory_id=memory_id,
    )


def _candidates(
    plan: LearnPlan, vec: Vector, stored: Mapping[str, Memory], sims: Mapping[str, float]
) -> list[Candidate]:
    """Stage-1 candidates plus the facts planned earlier in this message, as planned."""
    mems = dict(stored)
    similarity = dict(sims)
    for m in plan.new:
        if m.embedding is not None:
            mems[m.id] = m
            similarity[m.id] = float(m.embedding @ vec)
    return [Candidate(plan.current(mems[i]), similarity[i]) for i in mems if i not in plan.removed_from_index]


def _reinforce_existing(plan: LearnPlan, existing: Memory, session_id: str, now: int, config: Config) -> str:
    """Plan the reinforcement of a restated fact; returns its id."""
    existing = plan.current(existing)
    if existing.id in {m.id for m in plan.new}:
        return existing.id
    updated = reinforce(existing, now, config)
    if session_id not in updated.source_conversation_ids:
        updated = updated.replace(source_conversation_ids=(*updated.source_conversation_ids, session_id))
    plan.updates[updated.id] = updated
    if updated.id not in plan.reinforced:
        plan.reinforced.append(updated.id)
    return updated.id


def _close(plan: LearnPlan, verdict: Verdict, memory: Memory, now: int) -> Memory:
    """Plan the closing of the fact ``verdict`` names; returns the incoming memory."""
    closure = close_fact(plan.current(verdict.existing), memory, verdict, now)
    if verdict.kind != "temporal-coexistence":  # superseded: out of search
        plan.removed_from_index.add(closure.closed.id)
    if closure.closed.id in {m.id for m in plan.new}:
        plan.new = [closure.closed if m.id == closure.closed.id else m for m in plan.new]
    else:
        plan.updates[closure.closed.id] = closure.closed
    plan.contradictions.append(closure.event)
    return closure.incoming


def plan_sentence(
    plan: LearnPlan,
    a: Analysis,
    vec: Vector,
    stored: Mapping[str, Memory],
    sims: Mapping[str, float],
    facts: MessageFacts,
    config: Config,
) -> None:
    """Decide about one sentence that passed :func:`gate` and add the result to ``plan``.

    ``stored``/``sims``: its stage-1 candidates (nearest stored facts and the
    nearest facts in the same attribute slot) with their cosines.
    """
    cfg = config
    source = facts.source
    candidates = _candidates(plan, vec, stored, sims)
    a = with_known_people(a, candidates, cfg)
    top1 = max((c.similarity for c in candidates if c.memory.status == "active"), default=None)
    novelty = novelty_of(_nearest_restated(a, candidates, cfg), cfg)
    occurrences = sum(1 for v in facts.session_vectors if float(v @ vec) > cfg.recurrence_similarity)
    occurrences += sum(1 for v in plan.vectors[:-1] if float(v @ vec) > cfg.recurrence_similarity)
    rec = recurrence(occurrences, cfg)
    score = extraction_score(novelty, a.specificity, rec, cfg)
    types = learned_types(a, vec, facts.prototypes, cfg)
    if facts.skip and types:
        kept = [t for t in types if t not in facts.skip]
        if not kept:
            plan.decisions.append(_decision(a, "skipped-type", score, novelty, rec, types))
            return
        types = kept
    verdict = judge(
        sentence=a.sentence,
        content=a.content,
        attribute=a.attribute,
        candidates=candidates,
        config=cfg,
        vector=vec,
        head=facts.head,
    )
    force = facts.force
    if verdict is not None and verdict.kind == "duplicate":
        mid = _reinforce_existing(plan, verdict.existing, source.session_id, source.now, cfg)
        plan.decisions.append(_decision(a, "reinforced", score, novelty, rec, types, mid))
        return
    if verdict is not None and verdict.kind == "variant":
        verdict = None
        force = True  # a near-copy carrying a new number or name is new information
    # A thing of the user's named with "the" ("… so the greenhouse is all chillies
    # now.") is their world: no impersonal margin, as for a person they named.
    impersonal = a.impersonal and not facts.personal and not names_known(a.sentence, candidates)
    if not force and general_statement(
        a, personal=facts.personal, reply=source.reply, config=cfg, candidates=candidates
    ):
        plan.decisions.append(_decision(a, "general-statement", score, novelty, rec, types))
        return
    threshold = cfg.extraction_threshold
    if impersonal:  # an answer's question is read only for a sentence the margin concerns
        answer = answers_a_question(source.reply, a.sentence)
        threshold += cfg.answer_margin if answer else cfg.impersonal_margin
    if verdict is None and score < threshold and not force:
        said_again = _said_again(a, candidates, rec, threshold, cfg)
        if said_again is not None:
            mid = _reinforce_existing(plan, said_again, source.session_id, source.now, cfg)
            plan.decisions.append(_decision(a, "reinforced", score, novelty, rec, types, mid))
            return
        plan.decisions.append(_decision(a, "below-threshold", score, novelty, rec, types))
        return
    memory = memory_from_sentence(a, vec, types=types, score=score, top1=top1, source=source, config=cfg)
    outcome = "stored"
    if verdict is not None:
        memory = _close(plan, verdict, memory, source.now)
        outcome = "contradiction"
    decision = _decision(a, outcome, score, novelty, rec, types, memory.id)
    # The content as stored (with its anchored dates), not as first read.
    plan.decisions.append(dataclasses.replace(decision, content=memory.content))
    plan.new.append(memory)


def _said_again(
    a: Analysis, candidates: Sequence[Candidate], rec: float, threshold: float, config: Config
) -> Memory | None:
    """The stored fact a sentence says again in other words, when that is all that
    kept it out: it restates the fact at ``restated_reinforce_similarity`` or more
    (without a change or replacement marker or the opposite polarity), and it would have been
    stored were it new.  Reinforced, not dropped."""
    bar = config.restated_reinforce_similarity
    if bar <= 0 or extraction_score(1.0, a.specificity, rec, config) < threshold:
        return None
    if tells_change(a.sentence):
        # "… now instead of …", "Turns out … was a misdiagnosis", "Cut right down":
        # a change or a correction must not back the old value.
        return None
    near = [
        c
        for c in candidates
        if c.memory.status == "active"
        and c.similarity >= bar
        and _restated_by(a.content, c.memory, config)
        and not polarity_conflict(a.content, c.memory.content)
    ]
    return max(near, key=lambda c: c.similarity).memory if near else None


def shares_topic(content: str, fact: str, config: Config) -> bool:
    """Whether ``content`` says what ``fact`` says in part at least: the fact holds
    ``restated_topic_share`` of its content words (crude stems, the user's label
    left out).  The label in both raises their cosine, so two unrelated facts
    about one person ("Sam's family keeps Sam going", "Sam will plan a big
    trip") read alike (docs/tuning.md entry 48)."""
    if config.restated_topic_share <= 0:
        return True
    words = topic_stems(content, config.user_label)
    if not words:
        return True
    held = len(words & topic_stems(fact, config.user_label))
    return held >= config.restated_topic_share * len(words)


def _restated_by(content: str, fact: Memory, config: Config) -> bool:
    """``content`` restates ``fact``: no number or name the fact lacks, a share of
    the same content words, and the same polarity: a sentence that denies what the
    fact says, or says what it denies ("Allergy test says User is not actually
    allergic to cats." / "User is allergic to cats."), is news however alike the
    two read, even where the extra words keep the polarity rule from firing; and
    so is one that says, in the past tense, done what the fact has still to do
    (``UNDONE``)."""
    if (NEGATION.search(content) is None) != (NEGATION.search(fact.content) is None):
        return False
    if UNDONE.search(fact.content) and not UNDONE.search(content) and is_past_tense(content):
        return False  # "User shipped the redesign." after "User needs to finish the redesign."
    if _left(content, fact.content):
        return False  # "User's dad's home from hospital." after "User's dad has been in hospital."
    return restates(content, fact) and shares_topic(content, fact.content, config)


#: Back from a place one was in: "home from hospital", "out of prison", "back from Spain".
_LEFT_PLACE = re.compile(
    r"\b(?:home|back|out|discharged|released)\s+(?:from|of)\s+(?:the\s+)?([a-z]{3,})\b", re.IGNORECASE
)


def _left(content: str, fact: str) -> bool:
    """``content`` says its subject is back from the place ``fact`` has them in."""
    places = [re.escape(m.group(1)) for m in _LEFT_PLACE.finditer(content)]
    return any(re.search(rf"\bin\s+(?:the\s+)?{p}\b", fact, re.IGNORECASE) for p in places)


def _nearest_restated(a: Analysis, candidates: Sequence[Candidate], config: Config) -> float | None:
    """The cosine novelty is measured against: the nearest active fact, or with
    ``novelty_restated_only`` the nearest one the sentence restates (it adds no
    number or name that fact lacks, and the fact holds ``restated_topic_share``
    of its content words): "I go to bed at 9pm these days" is news
    after "User goes to bed at 11pm", however alike the two read.  With
    ``novelty_change_words``, a sentence that tells a change (``tells_change``: a
    state that changed or holds now, a value replaced, a new value) restates only
    a fact that holds all its content words: "I help at the animal shelter now
    instead of the food bank" is news after "User helps at the food bank", "Cut
    right down, one coffee a day max now" after "User drinks about four coffees a
    day", and "Pepper goes outside now, we fitted a cat flap." after "User's cat
    Pepper is an indoor cat." (docs/tuning.md entry 84)."""
    active = [c for c in candidates if c.memory.status == "active"]
    if config.novelty_restated_only:
        active = [c for c in active if _restated_by(a.content, c.memory, config)]
    said = a.sentence
    if config.novelty_change_words and active and tells_change(said):
        words = topic_stems(a.content)
        active = [c for c in active if words <= topic_stems(c.memory.content)]
    return max((c.similarity for c in active), default=None)


def plan_message(
    analyses: Sequence[Analysis],
    vectors: Sequence[Vector],
    stage1: Sequence[tuple[Mapping[str, Memory], Mapping[str, float]] | None],
    facts: MessageFacts,
    config: Config,
) -> LearnPlan:
    """The plan of a whole message: each sentence through :func:`gate`, then
    :func:`plan_sentence` with its stage-1 candidates (``None`` for a gated one)."""
    plan = LearnPlan()
    for a, vec, found in zip(analyses, vectors, stage1, strict=True):
        plan.vectors.append(vec)
        outcome = gate(a, facts.force, config)
        if outcome is not None:
            plan.decisions.append(_decision(a, outcome))
            continue
        if found is None:
            raise ValueError("a sentence that passes the gate needs its stage-1 candidates")
        plan_sentence(plan, a, vec, found[0], found[1], facts, config)
    return plan


def with_context_vector(plan: LearnPlan, vector: Vector) -> LearnPlan:
    """``plan`` with the message vector set on every memory the message creates
    (also where the events show them)."""
    new_ids = {m.id for m in plan.new}

    def fill(m: Memory) -> Memory:
        return m.replace(context_embedding=vector) if m.id in new_ids else m

    plan.new = [fill(m) for m in plan.new]
    plan.contradictions = [
        dataclasses.replace(ev, existing=fill(ev.existing), incoming=fill(ev.incoming))
        for ev in plan.contradictions
    ]
    return plan
