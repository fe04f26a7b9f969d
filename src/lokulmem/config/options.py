"""Every tunable constant of lokulmem, named, documented and validated.

The PRD is explicit that its numbers are "informed starting points, not laws":
each one lives here with its PRD default, can be overridden at construction
(``LokulMem(extraction_threshold=0.5)`` or ``LokulMem(config=Config(...))``)
and is validated: a negative weight or a threshold outside [0, 1] raises
:class:`~lokulmem.errors.ConfigError` naming the field.  Changes to defaults
are recorded in ``docs/tuning.md`` with the evaluation numbers behind them.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import ConfigError
from .parts import (
    DECAY_SLOWDOWN,
    DEFAULT_ENDING_PHRASES,
    DEFAULT_ENDING_ROLES,
    DEFAULT_ROLE_ENDING_PHRASES,
    DEFAULT_TEMPORAL_MARKERS,
    DEFAULT_TYPES,
    DEFAULT_WEAK_TEMPORAL_MARKERS,
    INJECTION_MODES,
    MAX_MINILM_TOKENS,
    MIN_PBKDF2_ITERATIONS,
    PRD_FALLBACK_LAMBDA,
    TUNED_TYPES,
    TYPE_NAME,
    CustomType,
    DecayModel,
    ExtractionWeights,
    InjectionMode,
    MultiTypeLambda,
    RetrievalWeights,
    SpecificityWeights,
    check_nonneg,
    check_unit,
    count,
    nonneg,
    posint,
    unit,
)

__all__ = ["Config", "from_options"]


#: Options that hold phrases: each must be a sequence of strings.
_PHRASE_LISTS = (
    "temporal_markers",
    "weak_temporal_markers",
    "ending_phrases",
    "role_ending_phrases",
    "ending_roles",
    "transient_types",
    "backed_types",
)


@dataclass(frozen=True, kw_only=True)
class Config:
    """All constants.  Defaults are the PRD's unless ``docs/tuning.md`` says otherwise."""

    # --- extraction (PRD §6 layer 1) ---
    #: Minimum ``E(s)`` for a sentence to become a memory.  PRD: 0.45; 0.30 once
    #: chit-chat and listener remarks are filtered first (docs/tuning.md).
    extraction_threshold: float = unit(0.30)
    #: α, β, γ of E(s) = α·novelty + β·specificity + γ·recurrence (PRD §6).
    extraction_weights: ExtractionWeights = field(default_factory=ExtractionWeights)
    #: Weights of the rule-based NER features in the specificity signal (PRD §6, signal 2).
    specificity_weights: SpecificityWeights = field(default_factory=SpecificityWeights)
    #: Novelty = clamp((ceiling - top1) / (ceiling - floor), 0, 1).  The PRD's
    #: ``1 - top1`` is floor 0, ceiling 1; MiniLM puts any two "User likes X"
    #: facts ~0.6 apart, so the floor is raised to 0.5 (docs/tuning.md).
    novelty_floor: float = unit(0.5)
    #: Top-1 cosine at which novelty reaches 0 (see ``novelty_floor``).
    novelty_ceiling: float = unit(1.0)
    #: Novelty is measured against the nearest stored fact the sentence restates
    #: (adds no number or name to); a near copy with a new value is news
    #: (docs/tuning.md entry 39).  Off: against the nearest stored fact (PRD).
    novelty_restated_only: bool = True
    #: ... and a sentence that says a state changed or holds now ("now", "these
    #: days": ``lexicon.CHANGE_MARKERS``), that a value was replaced ("instead",
    #: "no longer": ``lexicon.REPLACEMENT_MARKERS``) or tells a new value ("cut
    #: right down", "went up to": ``lexicon.STATE_CHANGES``) restates only a fact
    #: holding all its content words: a change to a new value is news ("Pepper
    #: goes outside now, we fitted a cat flap." after "Our cat Pepper is an indoor
    #: cat."; docs/tuning.md entries 47, 75 and 84).
    novelty_change_words: bool = True
    #: Cosine above which an earlier sentence of the session counts as an occurrence.
    recurrence_similarity: float = unit(0.85)
    #: recurrence(s) = min(1, base + step × occurrences).
    recurrence_base: float = unit(0.2)
    #: Added to the recurrence signal per earlier occurrence in the session.
    recurrence_step: float = unit(0.25)
    #: Sentences remembered per session for recurrence (bounded memory).
    session_sentence_window: int = posint(500)
    #: Sessions whose recurrence state is kept (least recently used dropped first).
    session_cache_size: int = posint(64)
    #: Questions and requests to the assistant ("Tell me a joke.") are not facts:
    #: skip them unless ``force_extract``.
    skip_questions: bool = True
    #: Greetings, thanks and reactions ("Thanks, Mel!") are not facts (docs/tuning.md).
    skip_chitchat: bool = True
    #: Remarks about the listener only ("You'd make a great teacher!") are not
    #: facts about the user: in an assistant chat "you" is the assistant.
    skip_listener_remarks: bool = True
    #: A sentence with no first-person word and no person named ("Water boils at
    #: 100 degrees") needs E at least extraction_threshold + this (docs/tuning.md).
    impersonal_margin: float = unit(0.10)
    #: ... or this when its message answers a question the user was just asked
    #: (the message it replied to asks one: "What do they eat?" → "They eat
    #: hay and greens."): an answer is about the user's world even when it
    #: names no one (docs/tuning.md entry 57).
    answer_margin: float = unit(0.0)
    #: A message with no first-person word, answering nothing, whose sentence names
    #: no date, person, possession or relation is a general statement ("Water boils
    #: at 100 degrees"), not stored (outcome "general-statement"; ``force_extract``
    #: stores it).
    skip_general_statements: bool = True
    #: A sentence that opens a hypothetical ("If I won…", "Imagine…") is not stored
    #: (outcome "hypothetical"; ``force_extract`` stores it).
    skip_hypotheticals: bool = True
    #: Types the embedding-prototype fallback never assigns: their fast decay
    #: needs an explicit cue ("tomorrow", "I feel"), not a vague resemblance.
    transient_types: tuple[str, ...] = ("temporal", "emotional")
    #: Transient types that are backed by a durable one (from the prototype
    #: fallback) when the sentence has at least ``backing_min_terms`` content
    #: words besides the type's cue: "I felt so proud giving my talk at the
    #: conference" is an event worth keeping, "I'm so excited too" is not
    #: (docs/tuning.md).  Empty, or ``backing_min_terms`` 0, turns it off.
    backed_types: tuple[str, ...] = ("emotional",)
    #: Content words besides the cue that make a transient type backed (0: never).
    backing_min_terms: int = count(4)
    #: Cosine at or above which a new fact restates an existing one: the existing
    #: memory is reinforced instead of storing a duplicate.
    duplicate_similarity: float = unit(0.92)
    #: A sentence that restates a stored fact this closely (no new number or name)
    #: and falls below ``extraction_threshold`` only for want of novelty reinforces
    #: that fact instead of leaving no trace (0: dropped; docs/tuning.md entry 46).
    restated_reinforce_similarity: float = unit(0.75)
    #: A sentence restates a stored fact (for novelty and for being reinforced as
    #: said again) only if the fact holds at least this share of its content
    #: words, the user's label left out: two facts about one person read alike
    #: by cosine alone (0: any fact; docs/tuning.md entry 48).
    restated_topic_share: float = unit(0.3)
    #: Label used when first-person sentences are rewritten as facts.
    user_label: str = "User"
    #: Keep each relative time of a stored fact with the date it names, from
    #: the moment it was said ("next month" → "next month (April 2026)").
    anchor_relative_times: bool = True
    #: Store a fact said in the first person plural as one about the user and
    #: others ("We bought our first home." → "User and others bought their first
    #: home."), in the stored text only: the vector stays that of the fact as
    #: analysed, before the plural is rewritten (docs/tuning.md entry 50).
    rewrite_plural_first_person: bool = True
    #: Read a sentence that opens with a verb form only a dropped "I" explains
    #: ("Went to the market with my niece.", "Just booked a salsa class.",
    #: "Nervous about the interview.") as if the "I" were there (``lokulmem.extraction.elided``;
    #: docs/tuning.md entry 45); off, such a sentence names no one and is read
    #: as a general statement.
    restore_elided_subject: bool = True

    # --- contradiction (PRD §6, three stages) ---
    #: Stage 1: cosine above which an existing memory is a contradiction candidate.
    contradiction_similarity: float = unit(0.80)
    #: Candidates sharing the new fact's typed attribute (e.g. residence) are also
    #: checked when their cosine is at least this (stage 1b, see contradiction.py).
    #: A change of one slot is often told in words far from the old fact's ("We got
    #: the keys to our new flat in Lisbon." after "I live in Berlin."): 0.35 → 0.2
    #: recognised 3–9% more of the knowledge-update changes with no team-set false
    #: positive and no LoCoMo event more (docs/tuning.md entry 76).
    attribute_candidate_similarity: float = unit(0.2)
    #: Stage 1c: a marker plus a shared topic word, or a negation, makes a fact a
    #: candidate from this cosine up (docs/tuning.md).
    related_candidate_similarity: float = unit(0.50)
    #: Stage 1d: a change marker alone ("I switched to Android" after "I use an
    #: iPhone": no shared word) makes a fact a candidate from this cosine up;
    #: 1.0 turns it off (docs/tuning.md).
    marker_candidate_similarity: float = unit(0.50)
    #: Stage 2 markers: present → temporal coexistence instead of conflict.
    temporal_markers: tuple[str, ...] = DEFAULT_TEMPORAL_MARKERS
    #: Those of ``temporal_markers`` that count only with the same typed
    #: attribute (not for stage 1c/1d candidates, nor near-copies).
    weak_temporal_markers: tuple[str, ...] = DEFAULT_WEAK_TEMPORAL_MARKERS
    #: How many nearest memories stage 1 inspects.
    contradiction_candidates: int = posint(5)
    #: Stage 1e (``lokulmem.endings``): a sentence that ends a named thing ("Left
    #: Vodafone for giffgaff", "{} passed away") closes the user's current facts
    #: naming it; ``{}`` stands for the name.  Empty turns the stage off.
    ending_phrases: tuple[str, ...] = DEFAULT_ENDING_PHRASES
    #: Stage 1e phrases that close only a fact naming the one ended in one of
    #: ``ending_roles`` ("{} retired": "User's boss … Anita").
    role_ending_phrases: tuple[str, ...] = DEFAULT_ROLE_ENDING_PHRASES
    #: The roles ``role_ending_phrases`` read (boss, landlord, dentist ...).
    ending_roles: tuple[str, ...] = DEFAULT_ENDING_ROLES
    #: Stage 1e closes a fact naming the thing ended from this cosine up (the name
    #: is the evidence; the floor keeps apart two things of one name).
    ending_candidate_similarity: float = unit(0.2)
    #: Stage 3b: the learned pair head (``lokulmem/pairhead.py``; model card
    #: ``lokulmem/models/contradiction_head.md``) judges what the rules leave open.
    contradiction_classifier: bool = False
    #: The head's probability from which a pair is a contradiction (docs/tuning.md).
    classifier_threshold: float = unit(0.60)
    #: Only current facts at least this similar to the new one go to the head.
    classifier_candidate_similarity: float = unit(0.50)
    #: Stage 3b's verdict stands only where the pair shows an opposition the rules
    #: can see: one side negated and the other not, other numbers, or other values
    #: of one kind of typed attribute (``contradiction.opposed``; docs/tuning.md entry 78).
    classifier_needs_opposition: bool = True
    #: A head of your own (an ``.npz`` as ``scripts/train_contradiction.py``
    #: writes it); None: the one shipped with the package.
    contradiction_model_path: str | None = None
    #: The sha256 of ``contradiction_model_path``, checked at ``init()`` (required with it).
    contradiction_model_sha256: str | None = None

    # --- decay and reinforcement (PRD §6 layer 2, §14) ---
    #: ``ebbinghaus`` (PRD: e^(-λ·hours)), ``linear`` or ``none`` (no decay).
    decay_model: DecayModel = "ebbinghaus"
    #: λ per hour for each default type: the PRD's table (``DEFAULT_TYPES``) with every
    #: half-life made ``DECAY_SLOWDOWN`` (8) times longer (``TUNED_TYPES``; docs/tuning.md entry 63).
    type_lambdas: Mapping[str, float] = field(default_factory=lambda: dict(TUNED_TYPES))
    #: Developer-defined types (PRD §7 ``customTypes``): name, λ, keywords, examples.
    custom_types: tuple[CustomType, ...] = ()
    #: Which λ applies to a memory with several types: the slowest (``min``,
    #: default: a fact is kept as long as its most durable facet), fastest or mean.
    multi_type_lambda: MultiTypeLambda = "min"
    #: λ for a memory whose types are all unknown (e.g. a type later removed):
    #: ``PRD_FALLBACK_LAMBDA`` ÷ ``DECAY_SLOWDOWN``, as the default types' (entry 63).
    fallback_lambda: float = nonneg(PRD_FALLBACK_LAMBDA / DECAY_SLOWDOWN)
    #: Strength of a new memory before any reinforcement.
    base_strength: float = nonneg(1.0)
    #: Added to base strength each time a memory is restated or injected.
    reinforcement_step: float = nonneg(0.3)
    #: Cap of base strength under reinforcement.
    max_strength: float = nonneg(3.0)
    #: Valence boost: |valence| > threshold → base = 1 + boost × min(1, |valence|).
    valence_threshold: float = unit(0.6)
    #: See ``valence_threshold``.
    valence_boost: float = nonneg(0.2)
    #: strength < fade_threshold → status "faded" (maintenance sweep).
    fade_threshold: float = unit(0.1)
    #: Faded memories are deleted this many days after fading.
    purge_after_days: float = nonneg(30.0)
    #: Confidence "high" needs base_strength at least this (and explicit statement).
    high_confidence_strength: float = nonneg(1.5)

    # --- retrieval (PRD §6 layer 3, §14) ---
    #: w1..w4 of the composite relevance R (PRD §6 layer 3), plus the lexical weight.
    retrieval_weights: RetrievalWeights = field(default_factory=RetrievalWeights)
    #: Floor: candidates with R at or below this are not injected.
    min_relevance: float = unit(0.07)
    #: Inject only memories with evidence of relevance (lokulmem.retrieval.relevance):
    #: off, ``augment()`` fills ``max_memories`` from the ranking, as PRD §6 does.
    require_evidence: bool = True
    #: Evidence of relevance = semantic match (blended cosine) +
    #: ``relevance_coverage_weight`` × key-term coverage; a memory is relevant
    #: at this or above (docs/tuning.md entries 26 and 39).
    relevance_threshold: float = unit(0.40)
    #: Weight of the key-term coverage (the IDF-weighted share of the query's key
    #: terms found in the memory or its source message) in the evidence.
    relevance_coverage_weight: float = nonneg(0.3)
    #: Evidence added to a fact that sets the attribute the query asks about
    #: ("Where do I live?" → ``user.residence``).  As much as the threshold: the
    #: fact that answers the question is relevant however it is worded
    #: (docs/tuning.md entry 92).
    relevance_attribute_weight: float = nonneg(0.4)
    #: Added to R of a fact that sets the attribute the query asks about ("Where
    #: do I live?" and "User is in Vancouver now."), whose words and vector may be
    #: far from the question: in a store of many remarks that share its words
    #: ("User loves living close to the city centre.") it would rank below them,
    #: and fall under ``relevance_margin`` (0: off; docs/tuning.md entry 49).
    asked_attribute_bonus: float = nonneg(0.5)
    #: The active facts of the asked attribute that join the candidate pool at
    #: most (nearest the query first), whether or not the vector search found them.
    asked_attribute_pool: int = posint(10)
    #: A question about the user that no cue reads ("Who's my boss these days?")
    #: asks for the attributes of its nearest example question
    #: (lokulmem.retrieval.routing; docs/tuning.md entry 90).
    asked_routing: bool = True
    #: The cosine with the nearest example question at which routing takes its
    #: attributes.
    asked_route_similarity: float = unit(0.65)
    #: An unrelated route whose nearest example comes within this of the best's
    #: is as likely: one such, and the question asks for both routes'
    #: attributes; two or more, and it asks for none (docs/tuning.md entry 92).
    asked_route_margin: float = unit(0.03)
    #: A candidate with no attribute speaks of the attribute a question asks for
    #: when its content vector is this near that attribute's nearest example
    #: statement (lokulmem.retrieval.topics; 0: no topic hints; docs/tuning.md
    #: entry 93).  It then counts as setting the attribute for the bonus and the
    #: evidence, and a newer one stands above an older fact of the slot.
    asked_topic_similarity: float = unit(0.6)
    #: As ``asked_route_margin``, for a memory's nearest example statements.
    asked_topic_margin: float = unit(0.03)
    #: The memories nearest the asked attributes' example statements that are
    #: read for hints besides the question's candidates (one index search, only
    #: when a candidate sets an asked attribute; 0: none; entry 94).
    asked_topic_pool: int = count(20)
    #: Added to R of a fact that sets an attribute routing named (in place of
    #: ``asked_attribute_bonus``; the fact also counts as relevant by
    #: ``relevance_attribute_weight``).  As much as a cue's: at 0 a crowd's remarks
    #: outrank the fact (docs/tuning.md entry 90).
    asked_route_bonus: float = nonneg(0.5)
    #: Added to R, and to the evidence of relevance, of a memory learned in the
    #: time the query names ("last May", "three weeks ago"; 0: no time stage).
    time_range_bonus: float = nonneg(0.15)
    #: Added to the evidence of relevance of such a memory (unless that time is
    #: all the query asks about: then the time alone is enough).  Lower than the
    #: bonus to R: the time a question names ranks what was said then, but it
    #: does not make a memory of another topic relevant (docs/tuning.md entry 55).
    time_range_evidence: float = nonneg(0.1)
    #: Memories learned in that time that join the candidate pool at most.
    time_range_pool: int = posint(50)
    #: Said nearby (lokulmem.retrieval.nearby; no PRD figure, docs/tuning.md entry
    #: 56): a candidate learned in the same session as one of the best
    #: ``nearby_seeds`` results, within ``nearby_seconds`` of it and from another
    #: message, gets this × that result's R / the best R (0: off).  It reorders;
    #: the evidence of relevance stays the memory's own.
    nearby_bonus: float = nonneg(0.05)
    #: See ``nearby_bonus``: how many of the best results lend it.
    nearby_seeds: int = count(2)
    #: See ``nearby_bonus``: how far apart in time two messages are still nearby.
    nearby_seconds: float = nonneg(120.0)
    #: A candidate ranks as if its R were this much lower for each memory of its
    #: message scoring above it, so one message's facts do not fill the first
    #: places (a reorder: R, the evidence and what is injected are the memory's
    #: own; 0: off; no PRD figure, docs/tuning.md entry 59).
    message_repeat_penalty: float = nonneg(0.1)
    #: An ordinary word the store has never seen weighs this share of its IDF in
    #: the coverage (a name never seen weighs all of it).
    unknown_term_weight: float = unit(0.2)
    #: A memory with evidence is injected only if its R is at least this share of
    #: the best candidate's R (0 turns the margin off; docs/tuning.md entries 26, 48).
    relevance_margin: float = unit(0.62)
    #: recency = e^(-rate × hours since created).
    recency_rate: float = nonneg(0.005)
    #: Turns of history used for the continuity component.
    continuity_turns: int = posint(3)
    #: Memories scored per query (nearest by cosine, plus every pinned memory).
    candidate_pool: int = posint(50)
    #: Superseded facts nearest the question that join the candidates as history
    #: (never injected): the fact that replaced each stands where it stands, as for a
    #: fact closed with ``valid_to`` (0: off; docs/tuning.md entry 47) ...
    history_candidates: int = count(3)
    #: ... from this cosine with the question up ...
    history_similarity: float = unit(0.3)
    #: ... among the most recently superseded facts, at most this many (their
    #: vectors are kept in memory: 384 floats each).
    history_pool: int = count(5000)
    #: Candidates listed in the debug record.
    debug_candidates: int = posint(20)
    #: Upper bound on injected memories (``augment(max_memories=)`` overrides).
    max_memories: int = posint(10)
    #: Tokens of the LLM's context window: the memory block fits what history leaves.
    context_window_size: int = posint(4096)
    #: Tokens kept free for the LLM's reply when sizing the memory block.
    response_buffer: int = count(512)
    #: Where ``augment()`` puts the memory block (PRD §10.5): ``prepend-system``
    #: (front of the first system message), ``new-system-message``,
    #: ``developer-message`` (OpenAI's developer role) or ``user-turn-prefix``
    #: (front of the user's message; see ``lokulmem.split_system`` for Anthropic).
    injection_mode: InjectionMode = "prepend-system"
    #: Above this many vectors an HNSW graph is built (``lokulmem[ann]``; PRD §11: 3,000)
    #: and, once calibrated, search takes its candidates and reranks them exactly
    #: (``lokulmem.index.routed``).  Below it, or without usearch, search is exact:
    #: exact search is faster up to about 20k vectors (docs/tuning.md entry 28).
    hnsw_threshold: int = posint(20_000)
    #: HNSW links per node, ``M`` (PRD §11: 16).
    hnsw_connectivity: int = posint(16)
    #: HNSW candidate list while inserting, ``ef_construction`` (PRD §11: 200).
    hnsw_ef_construction: int = posint(200)
    #: HNSW candidate list while searching, ``ef_search`` (PRD §11: 50).
    hnsw_ef_search: int = posint(50)
    #: How the graph stores vectors: ``f32``, ``f16`` (half the memory) or ``i8``;
    #: the exact float32 rerank restores the order either way.
    ann_dtype: str = "f16"
    #: Candidates taken from the graph and reranked with the exact vectors (at least k).
    ann_candidate_pool: int = posint(100)
    #: Recall@10 against exact search, measured on stored vectors, that the approximate
    #: path must show before it serves (HOM ``blocked_threshold_missing`` until then).
    ann_min_recall: float = unit(0.98)
    #: Stored vectors searched both ways to measure that recall.
    ann_calibration_samples: int = posint(200)
    #: Share of the index added or removed since the last calibration that triggers another.
    ann_recalibrate_share: float = unit(0.2)

    #: How vectors are written to the store: ``float16`` (half the bytes; vectors are
    #: rounded to float16 precision as they are made, so every process sees the same
    #: numbers) or ``float32``.  Either reads both (docs/tuning.md entry 29).
    vector_storage: str = "float16"

    # --- session compaction (HOM) ---
    #: Share of the history budget the recent turns keep verbatim.
    compaction_recent_share: float = unit(0.5)
    #: Share of the history budget the summary message may take at most (the rest
    #: is headroom, so the next compaction is some turns away).
    compaction_summary_share: float = unit(0.25)
    #: Characters per artifact chunk (each chunk is one embedded memory).
    compaction_chunk_chars: int = posint(800)
    #: Facts the summary message lists (most central first, then unlike the others).
    compaction_summary_items: int = posint(8)
    #: Tokens ``auto_compact`` leaves for the memory block when it sizes the history.
    compaction_memory_reserve: int = count(600)
    #: A compacted fact or artifact must be in the top this-many of a targeted query.
    compaction_check_k: int = posint(10)

    # --- lifecycle: maintenance sweep and clustering (PRD §6 layer 2, §14) ---
    #: learn() runs a sweep when the last one (by any process) is older than this.
    sweep_interval_hours: float = nonneg(1.0)
    #: Seconds a maintenance lease lasts; a crashed holder blocks others at most this long.
    lease_ttl_seconds: float = nonneg(60.0)
    #: Days after a memory's event (``event_at``: "in May", "next week") before
    #: it may fade: a plan is kept until it has happened, then decays as usual.
    event_hold_days: float = nonneg(7.0)
    #: Retrieval bonus for memories in the query's nearest cluster (PRD 0.05; a
    #: tie-breaker since the lexical and reply-context terms, docs/tuning.md).
    cluster_bonus: float = nonneg(0.01)
    #: Clustering re-runs at session start when more memories than
    #: ``max(cluster_min_new, cluster_renew_share × memories clustered last time)``
    #: were added since (a share, so a 1M store does not re-cluster every 11 facts).
    cluster_min_new: int = count(10)
    #: See ``cluster_min_new``.
    cluster_renew_share: float = unit(0.01)
    #: k-means fits its centroids on a seeded sample of at most this many active
    #: vectors, then assigns every vector (bounded time and memory at 1M; a store
    #: this small or smaller is clustered on all of them, as before).
    cluster_sample_size: int = posint(20_000)
    #: K = max(cluster_min_k, floor(sqrt(active / cluster_k_divisor))).
    cluster_min_k: int = posint(3)
    #: See ``cluster_min_k``.
    cluster_k_divisor: float = 2.0
    #: Lloyd iterations at most (stops earlier when assignments are stable).
    cluster_max_iterations: int = posint(50)
    #: Seed of the k-means++ initialisation (same store + seed → same clusters).
    cluster_seed: int = 0
    #: Words in a cluster's label (key terms of its most central memory).
    cluster_label_terms: int = posint(3)

    # --- proactive memory (PRD §10.3, §14; lokulmem.proactive) ---
    #: Steepness of temporal urgency σ(−steepness × (days_to_event − lead)) (PRD: 2.0).
    proactive_steepness: float = nonneg(2.0)
    #: Days before the event where urgency is 0.5 (PRD: 0, see lokulmem.proactive).
    proactive_lead_days: float = nonneg(1.5)
    #: Memories scoring above this are pushed on a conversation's first turn (PRD: 0.7).
    proactive_threshold: float = unit(0.7)
    #: Proactive memories injected at most.
    max_proactive: int = count(3)
    #: Events this many days ahead at most are considered (``get_upcoming`` default).
    proactive_window_days: float = nonneg(30.0)
    #: A memory pushed proactively is not pushed again for this many hours (no nagging).
    proactive_repeat_hours: float = nonneg(12.0)

    # --- episodic memory (PRD §10.1; lokulmem.episodes) ---
    #: Memories in an episode's extractive summary at most (PRD: 2-3 sentences).
    episode_summary_sentences: int = posint(3)
    #: A session idle this long is ended (made an episode) at the next learn() (0: never).
    episode_idle_minutes: float = nonneg(30.0)
    #: An episode is injected when its cosine with the message reaches this (PRD: 0.75,
    #: which a question about the very topic of an episode did not reach with this
    #: model: docs/tuning.md entry 26).
    episode_similarity: float = unit(0.5)

    # --- knowledge graph (PRD §10.4; lokulmem.graph) ---
    #: Link a new memory to its neighbours when it is learned (False: no new edges).
    build_edges: bool = True
    #: Two memories are linked above this cosine (PRD: 0.70) ...
    edge_similarity: float = unit(0.70)
    #: ... or when they name the same entity; such an edge weighs at least this.
    edge_entity_weight: float = unit(0.75)
    #: Nearest memories examined for links when a memory is learned.
    edge_candidates: int = posint(20)
    #: Links made per new memory at most (strongest first).
    max_edges_per_memory: int = posint(8)
    #: Second-pass recall bonus for first-degree neighbours of the best results, added
    #: to their score (PRD: 0.08; 0 skips the second pass).  Off: at 0.08 and 0.04 it
    #: cost LoCoMo ranked and default-path recall (docs/tuning.md entry 41).
    graph_bonus: float = nonneg(0.0)
    #: The best relevant results whose neighbours get ``graph_bonus``.
    graph_seeds: int = posint(3)
    #: A neighbour's evidence and standing are at least its seed's × the edge weight
    #: × this (0: the PRD's re-ranking only, a neighbour needs evidence of its own;
    #: 1 cost LoCoMo 0.8 more memories per question for 0.4 recall, docs/tuning.md 26).
    graph_evidence_share: float = unit(0.0)

    #: Memories taken from the lexical (FTS5) search per query, besides the vector pool.
    lexical_pool: int = posint(50)
    #: A key term found in more memories than this, and than ``lexical_common_share`` of
    #: the store, is left out of the lexical search's ranking: its BM25 weight is small,
    #: and ranking every memory that holds it made recall slow on large stores
    #: (docs/tuning.md entry 31).  Term coverage still counts it.  Stores smaller
    #: than this are never affected.
    lexical_common_floor: int = posint(1000)
    #: See ``lexical_common_floor``.
    lexical_common_share: float = unit(0.02)
    #: Weight of a key-term match in a memory's source message (its context)
    #: relative to one in its content, in the lexical score (docs/tuning.md).
    lexical_context_weight: float = nonneg(0.6)
    #: Characters of the source message kept on each memory as its context.
    max_context_chars: int = posint(1000)
    #: Weight of a key-term match in the message the user was answering (the
    #: memory's ``reply_context``) relative to one in its content (docs/tuning.md).
    lexical_reply_weight: float = nonneg(0.6)
    #: Characters kept from the end of the message the user was answering (the
    #: question being answered is usually at its end).
    max_reply_context_chars: int = posint(300)
    #: A message's context and reply words count once per query: for the best
    #: scoring of the memories that message left; the others keep only their
    #: own content's lexical match, so one message does not fill every slot.
    context_once: bool = True
    #: Share of the semantic term taken from the memory's context vector (its
    #: source message and what it answered) instead of its own sentence; 0 stops
    #: embedding contexts (docs/tuning.md).
    context_vector_weight: float = unit(0.6)
    #: BM25 → [0, 1]: ``s / (s + saturation)``; 0 divides by the query's best score instead.
    lexical_saturation: float = nonneg(0.0)
    #: Newer first (lokulmem.retrieval.newer; no PRD figure, docs/tuning.md entry
    #: 36): a ranked memory moves just above an older one whose vector's cosine
    #: with its own reaches this (0: off) ...
    newer_first_similarity: float = unit(0.5)
    #: ... that was learned at least this many hours before it ...
    newer_first_min_hours: float = nonneg(1.0)
    #: ... and scores at most this much above it.
    newer_first_margin: float = nonneg(0.3)
    #: Places at the top of the ranking the rule looks at (docs/tuning.md entry 49:
    #: 12 reordered LoCoMo's top places for no knowledge-update gain).
    newer_first_window: int = posint(5)
    #: Only a memory that says a state changed or holds now ("now", "switched", "no
    #: longer": ``lexicon.CHANGE_MARKERS``), in its content or its message, moves.
    newer_first_needs_marker: bool = True
    #: ... or, without a marker, when the contradiction pair head scores the older
    #: and the newer memory at least this (0: never, and the head is not read unless
    #: ``contradiction_classifier``; here it only reorders, it closes nothing).
    newer_first_pair_threshold: float = unit(0.5)
    #: Only for a question about how things stand now (asked in the present, no
    #: past or time words: ``QueryAnalysis.asks_now``).
    newer_first_needs_now: bool = True
    #: A newer memory whose own words say a state changed (a marker, not the head's
    #: word) and that follows a relevant older fact of a typed attribute (a slot:
    #: "User's girlfriend is Priya.") moves above it wherever it ranked, and stands
    #: where it stands for the relevance test (its evidence and score), like the
    #: replacement of a closed fact; it closes nothing (docs/tuning.md entry 44).
    newer_first_inherits: bool = True
    #: ... and so does a newer memory after a relevant older one that states a
    #: present state ("User banks with Barclays.", "User's salary is 40k.",
    #: "User is training for a half marathon."; not a feeling, an opinion or an
    #: event: ``retrieval.states.states_now``), not only after a typed attribute
    #: (docs/tuning.md entry 47).
    newer_first_states_lend: bool = True
    #: Cosine the older and the newer memory need for an inheritance (the bar of
    #: the other moves is ``newer_first_similarity``).  A change of value makes the
    #: pair read less alike, but lower bars let unrelated changes inherit in a store
    #: of many states (docs/tuning.md entry 47: at 0.25 the team set's questions got
    #: 2.40 memories instead of 1.54, for no recall).  Two facts of one typed
    #: slot need none (docs/tuning.md entry 61).
    newer_first_inherit_similarity: float = unit(0.5)
    #: The lower bar for an inheritance from an older fact that sets the attribute
    #: the question asks for, by a newer memory that sets none: the cue or the
    #: route lifted the old fact by its slot, and the change, told in words the
    #: rules do not type ("User started eating chicken again." after "User is
    #: pescatarian."), reads less alike still (docs/tuning.md entry 91).
    newer_first_asked_inherit_similarity: float = unit(0.4)
    #: The older memory of any other move must state a typed attribute or
    #: something a change replaces (``retrieval.states.replaceable``: a present
    #: state, what the user is or has, the user's opinion of something), not a
    #: remark such as "User is glad the evening went well." (docs/tuning.md entry 58).
    newer_first_needs_state: bool = True
    #: The later word on the best result: a newer memory from a later conversation
    #: whose cosine with one of the best ``newer_first_echo_top`` results (if it is
    #: relevant) reaches this moves above it and stands where it stands for the
    #: relevance test, whatever its words ("User dropped the violin and picked up
    #: the cello." after "User plays the violin …"; 0: off; no PRD figure,
    #: docs/tuning.md entry 64).  It reorders and lends; it closes nothing.
    newer_first_echo_similarity: float = unit(0.5)
    #: See ``newer_first_echo_similarity``: how many of the first ranking's best
    #: results may lend by echo (2 or more moved the later remarks of long
    #: conversations above their evidence: entry 64).
    newer_first_echo_top: int = posint(1)
    #: See ``newer_first_echo_similarity``: the cosine from which a newer memory
    #: whose own words tell a change ("switched", "instead", "these days", "moved")
    #: echoes the best result (a change moves a fact away from its old wording:
    #: "User accepted an offer from Bosch and started Monday." after "User works
    #: for Siemens as an engineer.", cosine 0.40); at or above
    #: ``newer_first_echo_similarity`` it changes nothing; no PRD figure,
    #: docs/tuning.md entry 66.
    newer_first_echo_told_similarity: float = unit(0.4)
    #: See ``newer_first_echo_told_similarity``: the cosine from which such a newer
    #: memory echoes the best result when the two also share a content word ("The
    #: school run is by car now …" after "User walks the kids to school every
    #: morning.", cosine 0.40; "User opened User's own practice …" shares none with
    #: "User swims on Sundays …"); at or above ``newer_first_echo_told_similarity``
    #: it changes nothing; no PRD figure, docs/tuning.md entry 84.
    newer_first_echo_shared_similarity: float = unit(0.3)
    #: See ``newer_first_echo_similarity``: below the told bars, a later memory
    #: whose own words tell a change echoes the relevant best result from this
    #: cosine when the two are each other's nearest among the ranked memories
    #: ("User finally got the keys to their place …" after "User is house hunting
    #: …", 0.21); 0: off; no PRD figure, docs/tuning.md entry 87.
    newer_first_echo_mutual_similarity: float = unit(0.2)
    #: See ``newer_first_echo_similarity``: the places of the ranking read for a
    #: newer memory that echoes a relevant best result (the window's places are
    #: read in any case; a crowd of older memories on the same topic can push the
    #: later word just below the window).
    newer_first_echo_reach: int = posint(10)
    #: See ``newer_first_echo_similarity``: results whose R is within this of the
    #: best result's lend by echo as the best does (0: the best alone).
    newer_first_echo_tie: float = nonneg(0.01)
    #: See ``newer_first_echo_similarity``: for a question about now, the best
    #: current result (if relevant) is searched full-text by its own words (those
    #: found in at most this many memories), and up to this many matches are read
    #: for a later memory, from another conversation, that shares a content word
    #: with it and says a value was replaced or ended
    #: (``extraction.lexicon.tells_replacement``: "User let the PureGym membership
    #: lapse … instead" after "User's gym is the PureGym …"): in a store of many
    #: memories on the topic the later word is often no candidate of the question
    #: at all.  Those found face the echo's tests like any other memory; those
    #: that do not move are dropped.  0: off; :mod:`lokulmem.retrieval.echo`; no
    #: PRD figure, docs/tuning.md entry 89.
    newer_first_echo_search: int = count(50)
    #: See ``newer_first_echo_search``: the best current result's own vector is
    #: searched too, and of its this many nearest memories those learned after it
    #: in another conversation, not replaced, whose cosine with it reaches
    #: ``newer_first_echo_told_similarity`` and whose words tell a change
    #: (``extraction.lexicon.tells_change``) are read the same way: the later word
    #: that shares no word with the old fact ("User left the council … and joined
    #: a housing charity." after "User is employed by the council.").  0: off;
    #: no PRD figure, docs/tuning.md entry 96.
    newer_first_echo_neighbours: int = count(20)
    #: A newer memory that stands where an older fact stands (it inherits its
    #: standing, or replaced it) and says in that fact's words that its value
    #: ended (``extraction.lexicon.ENDED_MARKERS``) brings the other memories of its
    #: message along, just below it, with the same standing ("User is temping in an
    #: office." with "User has stopped teaching piano."), for a question about now,
    #: when the message left at most this many others in the ranking (a chat turn
    #: of five sentences carries none; 0: off); :mod:`lokulmem.retrieval.carry`; no
    #: PRD figure, docs/tuning.md entry 86.
    newer_first_carry_limit: int = count(2)

    # --- embedding ---
    #: Texts whose vectors are kept (LRU, keyed by normalised text; PRD: 1,000).
    embedding_cache_size: int = posint(1000)
    #: Texts embedded per model call on bulk paths (import, re-embed).
    embedding_batch_size: int = posint(32)
    #: Tokens per text given to the built-in MiniLM model (it was trained at 256;
    #: its position table ends at 512).  A custom ``embedder=`` truncates as it likes.
    max_embedding_tokens: int = posint(256)

    #: Parsed memory records kept in memory (speeds up augment's candidate reads).
    record_cache_size: int = posint(5000)

    # --- input limits (bad input is bounded, never a crash) ---
    #: learn() reads at most this many characters of a user message.
    max_message_chars: int = posint(20_000)
    #: learn() considers at most this many sentences of a message.
    max_sentences_per_message: int = posint(64)
    #: A sentence longer than this (characters) is cut before scoring.
    max_sentence_chars: int = posint(1_000)
    #: Characters of an identifier (memory, session, conversation or reply id);
    #: a longer one, or one with a control character, is a ``ValidationError``.
    max_id_chars: int = posint(256)
    #: Messages a ``history`` may hold (augment, compact, the injection preview);
    #: a longer one is a ``ValidationError`` (keeps those calls' time bounded).
    max_history_items: int = posint(10_000)
    #: Nesting depth of a message's content blocks (chat APIs use at most 3:
    #: a tool result holding blocks); deeper, or a block list that contains
    #: itself, is a ``ValidationError`` naming the message.
    max_content_depth: int = posint(16)
    #: Content blocks and list items in one message, at most (see ``max_content_depth``).
    max_content_blocks: int = posint(10_000)

    #: Distinct words of a query that search and the lexical stage of recall use (the
    #: first ones): keeps both linear in the query's length (a 20,000-word query took
    #: minutes when every word was a term).
    max_query_terms: int = posint(16)
    #: Memories read per key term to count its document frequency at most (a word in
    #: more memories than this has an IDF near 0 anyway; keeps recall bounded).
    term_frequency_cap: int = posint(20_000)
    #: Clauses of a compound query ("…, and could my sister come?") whose key-term
    #: coverage is tested on its own (lokulmem.retrieval.relevance).
    max_query_clauses: int = posint(4)

    #: Threads numpy's BLAS may use during ``learn()`` and ``augment()`` (restored
    #: afterwards); 0 leaves numpy's setting alone.  One thread keeps OpenBLAS's
    #: spinning workers off the cores the embedding model needs next
    #: (``python bench/bench_threads.py``).
    blas_threads: int = count(1)
    #: ``augment()`` runs its lexical, time and pinned reads on a helper thread while
    #: the message is embedded (they need no vector; the result is the same either
    #: way).  Off: they run first, on the caller's thread (docs/tuning.md entry 35).
    overlap_text_search: bool = True
    #: ``learn()`` embeds only its sentences; the message context (for
    #: ``context_vector_weight``) is embedded on a helper thread beside the rest of
    #: the plan and written before anything reads it (lokulmem._engine.context;
    #: docs/tuning.md entry 38).  Off: embedded with the sentences, in one model call.
    defer_context_vector: bool = True
    #: After a clustering pass, give the heap it freed back to the operating system
    #: (glibc's ``malloc_trim``; nothing elsewhere): the process stays its working
    #: size (lokulmem.heap, docs/tuning.md entry 37).
    release_heap: bool = True

    # --- storage ---
    #: Milliseconds a writer waits for another process's lock before failing.
    busy_timeout_ms: int = posint(30_000)
    #: PBKDF2-HMAC-SHA256 iterations that turn an ``encryption_passphrase`` into a key,
    #: for a store created (or re-keyed) from now on; an existing store keeps its own
    #: count.  Default: OWASP's 2023 advice for PBKDF2-HMAC-SHA256; at least the PRD's 100,000.
    pbkdf2_iterations: int = posint(600_000)
    #: PostgreSQL (``storage="postgres"``): the schema holding lokulmem's tables.
    postgres_schema: str = "lokulmem"
    #: PostgreSQL: seconds to wait for a connection before a ``StorageError``.
    postgres_connect_timeout_s: float = nonneg(10.0)
    #: PostgreSQL: milliseconds any one statement may run before the server cancels it.
    postgres_statement_timeout_ms: int = posint(60_000)
    #: PostgreSQL: keep pgvector's HNSW index on the memory vectors (created at open if
    #: missing), for ``PostgresStorage.nearest()``.  Off by default: recall searches the
    #: client's in-process index, and every write would maintain the database's graph
    #: too (docs/postgres.md has the cost measured).
    postgres_vector_index: bool = False

    # --- manage(): analytics and import ---
    #: Strength bands of ``stats().strength_distribution``: strong at or above
    #: ``strong_strength`` (a fresh memory is 1.0), weak below ``weak_strength``.
    strong_strength: float = nonneg(1.0)
    #: See ``strong_strength``.
    weak_strength: float = nonneg(0.5)
    #: Numeric value of each confidence label, for ``stats().average_confidence``.
    confidence_scores: Mapping[str, float] = field(
        default_factory=lambda: {"high": 1.0, "medium": 0.6, "low": 0.3}
    )
    #: Length of the ``most_mentioned`` / ``recently_updated`` / ``recently_faded`` lists.
    stats_top_n: int = posint(5)
    #: Memories in ``get_grouped().recent``.
    grouped_recent: int = posint(10)
    #: Memory-pack entries whose quality score (product of the four walls) is
    #: below this are rejected by the import quality gate.
    import_quality_threshold: float = unit(0.35)
    #: Largest import document accepted (bytes of JSON).
    max_import_bytes: int = posint(64 * 1024 * 1024)

    def __post_init__(self) -> None:
        # Accept plain mappings for nested options (``retrieval_weights={...}``).
        for name, cls in (
            ("extraction_weights", ExtractionWeights),
            ("specificity_weights", SpecificityWeights),
            ("retrieval_weights", RetrievalWeights),
        ):
            value = getattr(self, name)
            if isinstance(value, Mapping):
                try:
                    object.__setattr__(self, name, cls(**dict(value)))
                except TypeError as exc:
                    raise ConfigError(name, str(exc)) from None
            elif not isinstance(value, cls):
                raise ConfigError(name, f"must be a {cls.__name__} or a mapping")
        customs = self.custom_types
        if isinstance(customs, (str, bytes)) or not isinstance(customs, Sequence):
            raise ConfigError("custom_types", "must be a sequence")
        object.__setattr__(
            self,
            "custom_types",
            tuple(CustomType.from_value(c, i) for i, c in enumerate(customs)),
        )
        object.__setattr__(self, "type_lambdas", dict(self.type_lambdas))
        if not isinstance(self.confidence_scores, Mapping):
            raise ConfigError("confidence_scores", "must be a mapping")
        object.__setattr__(self, "confidence_scores", dict(self.confidence_scores))
        for name in _PHRASE_LISTS:
            if isinstance(getattr(self, name), str):  # tuple("used to") would be its letters
                raise ConfigError(name, "must be a sequence of strings, not one string")
        object.__setattr__(self, "temporal_markers", tuple(self.temporal_markers))
        object.__setattr__(self, "weak_temporal_markers", tuple(self.weak_temporal_markers))
        for name in ("ending_phrases", "role_ending_phrases", "ending_roles"):
            object.__setattr__(self, name, tuple(getattr(self, name)))
        object.__setattr__(self, "transient_types", tuple(self.transient_types))
        object.__setattr__(self, "backed_types", tuple(self.backed_types))
        self.validate()

    # -- validation -----------------------------------------------------
    def validate(self) -> None:
        """Raise :class:`ConfigError` on the first invalid field.

        Each field's own rule sits beside it (``unit``, ``nonneg``, ``posint``,
        ``count`` in its definition); this checks them all, then the rules
        that relate fields to each other.
        """
        for f in dataclasses.fields(self):
            check = f.metadata.get("check")
            if check is not None:
                check(f.name, getattr(self, f.name))
            if f.type in ("bool", bool) and not isinstance(getattr(self, f.name), bool):
                raise ConfigError(f.name, f"must be True or False, got {getattr(self, f.name)!r}")
        self._validate_relations()
        self._validate_collections()

    def _validate_relations(self) -> None:
        """Rules between fields, and bounds a field's kind does not say."""
        if self.base_strength <= 0:
            raise ConfigError("base_strength", "must be > 0")
        if self.max_strength < self.base_strength:
            raise ConfigError("max_strength", "must be >= base_strength")
        if self.pbkdf2_iterations < MIN_PBKDF2_ITERATIONS:
            raise ConfigError("pbkdf2_iterations", f"must be at least {MIN_PBKDF2_ITERATIONS:,} (PRD §9)")
        if self.max_embedding_tokens > MAX_MINILM_TOKENS:
            raise ConfigError(
                "max_embedding_tokens", f"must be at most {MAX_MINILM_TOKENS} (MiniLM's position table)"
            )
        if not isinstance(self.cluster_seed, int):
            raise ConfigError("cluster_seed", "must be an integer")
        check_nonneg("cluster_k_divisor", self.cluster_k_divisor)
        if self.cluster_k_divisor <= 0:
            raise ConfigError("cluster_k_divisor", "must be > 0")
        if self.lease_ttl_seconds <= 0:
            raise ConfigError("lease_ttl_seconds", "must be > 0")
        if self.weak_strength > self.strong_strength:
            raise ConfigError("weak_strength", "must not exceed strong_strength")
        if self.novelty_floor >= self.novelty_ceiling:
            raise ConfigError("novelty_floor", "must be below novelty_ceiling")
        if self.response_buffer >= self.context_window_size:
            raise ConfigError("response_buffer", "must be smaller than context_window_size")
        if self.decay_model not in ("ebbinghaus", "linear", "none"):
            raise ConfigError("decay_model", f"unknown model {self.decay_model!r}")
        if self.injection_mode not in INJECTION_MODES:
            raise ConfigError(
                "injection_mode", f"unknown mode {self.injection_mode!r} (use one of {list(INJECTION_MODES)})"
            )
        if self.vector_storage not in ("float16", "float32"):
            raise ConfigError(
                "vector_storage", f"unknown format {self.vector_storage!r} (use 'float16' or 'float32')"
            )
        if not isinstance(self.postgres_schema, str) or not re.fullmatch(
            r"[a-z_][a-z0-9_]{0,62}", self.postgres_schema
        ):
            raise ConfigError("postgres_schema", "must be a lower-case identifier ([a-z_][a-z0-9_]*)")
        if self.ann_dtype not in ("f32", "f16", "i8"):
            raise ConfigError("ann_dtype", f"unknown dtype {self.ann_dtype!r} (use 'f32', 'f16' or 'i8')")
        if self.multi_type_lambda not in ("min", "max", "mean"):
            raise ConfigError("multi_type_lambda", f"unknown rule {self.multi_type_lambda!r}")
        if not isinstance(self.user_label, str) or not self.user_label.strip():
            raise ConfigError("user_label", "must be a non-empty string")
        if (self.contradiction_model_path is None) != (self.contradiction_model_sha256 is None):
            raise ConfigError(
                "contradiction_model_sha256", "give contradiction_model_path and its sha256 together"
            )

    def _validate_collections(self) -> None:
        """Weights, type tables, markers and score maps, item by item."""
        for name in ("transient_types", "backed_types"):
            if not all(isinstance(t, str) for t in getattr(self, name)):
                raise ConfigError(name, "must be a list of type names")
        if set(self.confidence_scores) != {"high", "medium", "low"}:
            raise ConfigError("confidence_scores", "must map exactly 'high', 'medium' and 'low'")
        for label, value in self.confidence_scores.items():
            check_unit(f"confidence_scores.{label}", value)
        self.extraction_weights.validate("extraction_weights")
        self.specificity_weights.validate("specificity_weights")
        self.retrieval_weights.validate("retrieval_weights")
        for name, lam in self.type_lambdas.items():
            if not isinstance(name, str) or not TYPE_NAME.match(name):
                raise ConfigError("type_lambdas", f"invalid type name {name!r}")
            check_nonneg(f"type_lambdas.{name}", lam)
        seen = set(self.type_lambdas)
        for i, ct in enumerate(self.custom_types):
            if not isinstance(ct.name, str) or not TYPE_NAME.match(ct.name):
                raise ConfigError(f"custom_types[{i}].name", f"invalid type name {ct.name!r}")
            if ct.name in seen:
                raise ConfigError(f"custom_types[{i}].name", f"duplicate type {ct.name!r}")
            seen.add(ct.name)
            check_nonneg(f"custom_types[{i}].decay_lambda", ct.decay_lambda)
        for i, marker in enumerate(self.temporal_markers):
            if not isinstance(marker, str) or not marker.strip():
                raise ConfigError(f"temporal_markers[{i}]", "must be a non-empty string")
        for name in ("ending_phrases", "role_ending_phrases"):
            for i, phrase in enumerate(getattr(self, name)):
                ok = isinstance(phrase, str) and phrase.count("{}") == 1 and phrase.replace("{}", "").strip()
                if not ok:
                    raise ConfigError(f"{name}[{i}]", "must be a phrase with one {} where the name stands")
        for i, role in enumerate(self.ending_roles):
            if not isinstance(role, str) or not role.strip():
                raise ConfigError(f"ending_roles[{i}]", "must be a non-empty string")

    # -- derived --------------------------------------------------------
    @property
    def lambdas(self) -> dict[str, float]:
        """λ per type name, default and custom types together."""
        out = dict(self.type_lambdas)
        out.update({ct.name: ct.decay_lambda for ct in self.custom_types})
        return out

    @property
    def type_names(self) -> tuple[str, ...]:
        return tuple(self.lambdas)

    def replace(self, **changes: Any) -> Config:
        """A copy with ``changes`` applied (validated)."""
        return from_options(self, changes)

    @classmethod
    def prd(cls, **changes: Any) -> Config:
        """The PRD's own starting values for every constant tuned since (docs/tuning.md).

        ``Config()`` holds the tuned defaults; ``Config.prd()`` reproduces the
        PRD, for comparison runs (``python -m eval.locomo ... --prd``).
        """
        base = cls(
            extraction_threshold=0.45,
            type_lambdas=dict(DEFAULT_TYPES),
            fallback_lambda=PRD_FALLBACK_LAMBDA,
            novelty_floor=0.0,
            specificity_weights=SpecificityWeights(self_statement=0.0),
            retrieval_weights=RetrievalWeights(
                semantic=0.40, recency=0.20, strength=0.25, continuity=0.15, lexical=0.0
            ),
            min_relevance=0.30,
            skip_chitchat=False,
            skip_listener_remarks=False,
            impersonal_margin=0.0,
            skip_general_statements=False,
            skip_hypotheticals=False,
            transient_types=(),
            backed_types=(),
            cluster_bonus=0.05,
            lexical_reply_weight=0.0,
            marker_candidate_similarity=1.0,
            weak_temporal_markers=(),
            context_once=False,
            context_vector_weight=0.0,
            contradiction_classifier=False,
            hnsw_threshold=3000,
            vector_storage="float32",
            newer_first_similarity=0.0,
            newer_first_pair_threshold=0.0,
            novelty_restated_only=False,
            novelty_change_words=False,
            history_candidates=0,
            graph_bonus=0.08,
            nearby_bonus=0.0,
            message_repeat_penalty=0.0,
            newer_first_inherits=False,
            newer_first_states_lend=False,
            newer_first_needs_state=False,
            newer_first_echo_similarity=0.0,
            restore_elided_subject=False,
            restated_reinforce_similarity=0.0,
            restated_topic_share=0.0,
            asked_attribute_bonus=0.0,
            asked_routing=False,
            asked_topic_similarity=0.0,
            rewrite_plural_first_person=False,
        )
        return from_options(base, changes)


def from_options(base: Config | None, options: Mapping[str, Any]) -> Config:
    """Build a config from ``base`` and keyword options, naming unknown options."""
    base = base if base is not None else Config()
    if not isinstance(base, Config):
        raise ConfigError("config", "must be a lokulmem.Config")
    names = {f.name for f in dataclasses.fields(Config)}
    for key in options:
        if key not in names:
            raise ConfigError(key, "unknown option")
    if not options:
        return base
    try:
        return dataclasses.replace(base, **dict(options))
    except TypeError as exc:  # pragma: no cover - guarded by the name check above
        raise ConfigError("config", str(exc)) from None
