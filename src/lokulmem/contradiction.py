"""The three-stage contradiction pipeline (PRD §6).  Pure functions.

1. **Candidate match.**  Existing current facts (active, no ``valid_to``) whose
   cosine with the new fact exceeds ``contradiction_similarity`` (0.80).  Stage
   1b: a fact that sets the same typed attribute (``user.residence``) is also a
   candidate from ``attribute_candidate_similarity`` (0.2) up: "I live in
   London" and "I live in Berlin" are only 0.73 apart for MiniLM, yet the
   PRD's table calls them a conflict, and a move told by the keys of a new
   flat is further still.
   Stage 1c: from ``related_candidate_similarity`` (0.50) up, a fact is also
   a candidate when the new sentence carries a temporal marker and both share
   a topic word ("I stopped smoking" / "I smoke a pack a day"), or when the
   new sentence negates it ("I don't smoke" / "I smoke").
   Stage 1d: from ``marker_candidate_similarity`` (0.50) up, a change marker
   alone suffices ("I switched to Android" / "I use an iPhone").
   Stage 1e: a named thing the new sentence says ended ("Cancelled Riverford",
   "Anita retired": :mod:`lokulmem.endings`) closes the user's current fact
   naming it, from ``ending_candidate_similarity`` (0.2) up, when the rules
   find nothing else: temporal coexistence, its marker the ending phrase.
2. **Temporal marker.**  A marker ("used to", "no longer", ...) in the new
   sentence → *temporal coexistence*: the old fact gets ``valid_to``, the new
   one ``valid_from`` and a ``temporal_supersedes`` reference.  Both stay.
   A *weak* marker (``weak_temporal_markers``: "lately", "now I"...) tells of
   a state, and counts only for a fact of the same typed attribute or beside
   a contrast ("instead", "only", "not"); a denied change verb ("I won't
   quit") is no marker.
3. **Typed attribute conflict.**  Same entity and attribute, different value
   (or opposite polarity), no marker → *conflict*: the old fact is
   ``superseded``.  A pair with the same value, or nearly identical text, is
   a restatement: the old fact is reinforced instead.
3b. **Learned pair head.**  When the rules find nothing, the current facts at
   least ``classifier_candidate_similarity`` similar go to the head
   (:mod:`lokulmem.pairhead`); the most probable one from
   ``classifier_threshold`` up is contradicted: *conflict*, or *temporal
   coexistence* when the new sentence carries a (strong) marker.  Facts the
   rules judged compatible (same attribute, same value) are not asked again.

Every verdict names its ``signal``: ``attribute``, ``polarity``, ``marker``,
``similarity`` (a near-copy) or ``classifier`` (with its ``score``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import numpy as np
import numpy.typing as npt

from .config import Config
from .endings import closed_by_ending
from .extraction.attributes import Attribute, polarity_conflict, same_slot
from .extraction.lexicon import (
    NEGATED_BEFORE,
    NEGATION,
    SHORT_STOPWORDS,
    SMALL_NUMBERS,
    TOPIC_STOPWORDS,
    normalise_quotes,
)
from .pairhead import PairHead, pair_features
from .records import Memory

__all__ = [
    "Candidate",
    "Signal",
    "Verdict",
    "classifier_pool",
    "find_temporal_marker",
    "judge",
    "opposed",
    "restates",
    "topic_stems",
]

Vector = npt.NDArray[np.float32]

#: What decided a verdict (see the module docstring).
Signal = Literal["attribute", "polarity", "marker", "similarity", "classifier"]


@dataclass(frozen=True, slots=True)
class Candidate:
    memory: Memory
    similarity: float


@dataclass(frozen=True, slots=True)
class Verdict:
    #: "variant": nearly the same text with a new number or name ("owns 3 kayaks"
    #: after "owns 2 kayaks"): new information, stored beside the old fact.
    kind: Literal["conflict", "temporal-coexistence", "duplicate", "variant"]
    existing: Memory
    similarity: float
    marker: str | None = None
    attribute: str | None = None
    signal: Signal = "similarity"
    #: The pair head's probability, when it decided.
    score: float | None = None


@lru_cache(maxsize=32)
def _marker_regex(markers: tuple[str, ...]) -> re.Pattern[str]:
    alts = sorted((re.escape(m.lower()) for m in markers), key=len, reverse=True)
    return re.compile(r"\b(?:" + "|".join(alts) + r")\b")


_CONTRAST = re.compile(r"\b(?:instead|rather than|only|anymore|no more|no longer|not)\b|n't\b", re.IGNORECASE)

#: Markers that are verbs of change, and so lose their sense when denied.
_CHANGE_VERBS = frozenset(
    {"quit", "stopped", "gave up", "switched to", "moved to", "changed to", "recently started"}
)


def find_temporal_marker(sentence: str, markers: tuple[str, ...]) -> str | None:
    """The first temporal marker in ``sentence`` (case-insensitive) that is not
    itself denied ("I won't quit", "never gave up": persistence, not change)."""
    if not markers:
        return None
    text = normalise_quotes(sentence.lower())
    for m in _marker_regex(tuple(markers)).finditer(text):
        if m.group(0) not in _CHANGE_VERBS or not NEGATED_BEFORE.search(text[: m.start()]):
            return m.group(0)
    return None


#: Numbers with their unit or suffix ("9pm", "48k", "3rd") and capitalised words.
_KEY_TOKEN = re.compile(r"\b(?:\d+(?:[.,:]\d+)*[A-Za-z]*|[A-Z][A-Za-z'\-]+)\b")


def key_tokens(text: str, label: str = "User") -> frozenset[str]:
    """Numbers and capitalised words after the first: what makes two similar facts different."""
    tokens = _KEY_TOKEN.findall(text)
    words = text.split()
    first = words[0] if words else ""
    return frozenset(t.lower() for t in tokens if t not in (label, f"{label}'s") and t != first)


_TOPIC_WORD = re.compile(r"[a-z][a-z'\-]{2,}")


def topic_stems(text: str, label: str | None = None) -> frozenset[str]:
    """Crude stems (first 3 letters) of the content words of ``text``: "smoking" and
    "smoke" → "smo", "eating" and "eat" → "eat".  Loose on purpose: it only
    widens the candidate gate for sentences that carry a change marker.  With
    ``label`` (the user's), the label and its possessive are taken out first, so a
    word that merely begins like it still counts."""
    if label is not None:
        text = re.sub(rf"\b{re.escape(label)}(?:'s)?(?!\w)", " ", text)
    words = [
        w for w in _TOPIC_WORD.findall(text.lower()) if w not in TOPIC_STOPWORDS and w not in SHORT_STOPWORDS
    ]
    return frozenset(w[:3] for w in words)


def _refines(sentence: str, value: str, old_value: str) -> bool:
    """The new value is a part of the old one: "Toronto, Canada" (or "Toronto in
    Canada") after "Canada" adds detail, it does not contradict."""
    if not old_value or not value:
        return False
    text = normalise_quotes(sentence.lower())
    pattern = re.escape(value) + r"\s*(?:,|\bin\b)\s*(?:the\s+)?" + re.escape(old_value) + r"\b"
    return re.search(pattern, text) is not None


def _same_job(attribute: Attribute, old_value: str) -> bool:
    """One job said with more or less detail: "third grade teacher" (from "I teach
    third grade") after "teacher", or "teacher" after "chemistry teacher"."""
    value = attribute.value
    return attribute.key.endswith(".job") and (
        value.endswith(f" {old_value}") or old_value.endswith(f" {value}")
    )


def restates(content: str, existing: Memory) -> bool:
    """A restatement adds no number or name the existing fact lacks ("owns 3 harps" ≠ "owns 2")."""
    return key_tokens(content) <= key_tokens(existing.content)


def judge(
    *,
    sentence: str,
    content: str,
    attribute: Attribute | None,
    candidates: Sequence[Candidate],
    config: Config,
    vector: Vector | None = None,
    head: PairHead | None = None,
) -> Verdict | None:
    """Decide how a new fact relates to its nearest existing facts (None: unrelated).

    ``vector`` (the new fact's embedding) and ``head`` enable stage 3b.
    """
    current = [c for c in candidates if c.memory.status == "active" and c.memory.valid_to is None]
    marker = find_temporal_marker(sentence, config.temporal_markers)
    # A weak marker ("lately", "now I") tells of a state; it marks a change only
    # of the same typed attribute, or beside a contrast ("instead", "only", "not").
    strong = marker is not None and (
        marker not in config.weak_temporal_markers or bool(_CONTRAST.search(sentence))
    )
    verdict = _by_rules(current, sentence, content, attribute, marker, strong, config)
    if verdict is None:
        verdict = _by_ending(current, content, config)
    if verdict is None and head is not None and vector is not None:
        change = marker if strong else None
        verdict = _by_classifier(current, content, attribute, vector, head, change, config)
    return verdict


def _by_rules(
    current: Sequence[Candidate],
    sentence: str,
    content: str,
    attribute: Attribute | None,
    marker: str | None,
    strong: bool,
    config: Config,
) -> Verdict | None:
    """Stages 1–3: the gates, the temporal marker, the typed attribute and polarity rules."""
    eligible = _eligible(current, content, attribute, strong, config)
    if not eligible:
        return None
    if marker is not None and not strong and not eligible[0][0]:
        marker = None  # a weak marker without the same attribute: judged as if absent
    if marker is not None:  # stage 2
        same_attr, best = eligible[0]
        return Verdict(
            kind="temporal-coexistence",
            existing=best.memory,
            similarity=best.similarity,
            marker=marker,
            attribute=attribute.key if same_attr and attribute else None,
            signal="attribute" if same_attr and attribute else "marker",
        )
    return _settle(eligible, sentence, content, attribute, config)


def _by_ending(current: Sequence[Candidate], content: str, config: Config) -> Verdict | None:
    """Stage 1e: a named thing the new fact says ended closes the user's fact naming it."""
    found = closed_by_ending(((c.memory, c.similarity) for c in current), content, config)
    if found is None:
        return None
    memory, similarity, ending = found
    kind: Literal["temporal-coexistence"] = "temporal-coexistence"
    return Verdict(kind=kind, existing=memory, similarity=similarity, marker=ending.phrase, signal="marker")


def _by_classifier(
    current: Sequence[Candidate],
    content: str,
    attribute: Attribute | None,
    vector: Vector,
    head: PairHead,
    marker: str | None,
    config: Config,
) -> Verdict | None:
    """Stage 3b: the most probable contradiction among the similar current facts."""
    pool = classifier_pool(current, attribute, config)
    if config.classifier_needs_opposition:
        pool = [c for c in pool if opposed(content, attribute, c.memory)]
    if not pool:
        return None
    rows = np.stack([pair_features(_vector(c.memory), vector, c.memory.content, content) for c in pool])
    scores = head.scores(rows)
    best = int(np.argmax(scores))
    if float(scores[best]) < config.classifier_threshold:
        return None
    c = pool[best]
    return Verdict(
        kind="temporal-coexistence" if marker is not None else "conflict",
        existing=c.memory,
        similarity=c.similarity,
        marker=marker,
        signal="classifier",
        score=float(scores[best]),
    )


#: Numbers, in figures or words, that two facts may disagree on ("2 kids" / "three kids").
_NUMBER = re.compile(r"\b(?:\d+(?:[.,]\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|twelve)\b", re.I)


def _numbers(text: str) -> frozenset[str]:
    return frozenset(SMALL_NUMBERS.get(n.lower(), n) for n in _NUMBER.findall(text))


def opposed(content: str, attribute: Attribute | None, existing: Memory) -> bool:
    """Whether a new fact and an existing one show an opposition the rules can see,
    whatever their words: one negated and the other not ("User has got a spaniel."
    / "User hasn't got any pets."), other numbers ("User has 2 kids at school." /
    "… 3 kids at school."), or other values of one kind of typed attribute (``user.pet_name:dog``
    / ``user.pet_name:cat``).  What stage 3b needs beside the head's score when
    ``classifier_needs_opposition`` is on: real dialogue is full of related,
    compatible facts the head scores high (docs/tuning.md entries 34, 40, 78)."""
    old = existing.content
    if bool(NEGATION.search(content)) != bool(NEGATION.search(old)):
        return True
    # As many numbers on each side, not the same ones ("two kids" / "kids of 5 and 8"
    # count other things).
    new_numbers, old_numbers = _numbers(content), _numbers(old)
    if new_numbers and len(new_numbers) == len(old_numbers) and new_numbers != old_numbers:
        return True
    if attribute is None or existing.attribute is None or existing.attribute_value is None:
        return False
    same_kind = attribute.key.split(":")[0] == existing.attribute.split(":")[0]
    # One value inside the other, or said inside it, is more detail ("Toronto,
    # Canada" after "Canada").
    new_value, old_value = attribute.value, existing.attribute_value
    inside = new_value in old_value or old_value in new_value or _refines(content, new_value, old_value)
    return same_kind and not inside


def classifier_pool(
    current: Sequence[Candidate], attribute: Attribute | None, config: Config
) -> list[Candidate]:
    """The current facts stage 3b asks the head about: at least
    ``classifier_candidate_similarity`` similar, embedded, and not judged
    compatible by the rules (the same attribute value)."""
    return [
        c
        for c in current
        if c.similarity >= config.classifier_candidate_similarity
        and c.memory.embedding is not None
        and not _same_value(attribute, c.memory)
    ]


def _vector(memory: Memory) -> Vector:
    if memory.embedding is None:  # pragma: no cover - the pool keeps embedded facts only
        raise ValueError(f"memory {memory.id} has no embedding")
    return memory.embedding


def _same_value(attribute: Attribute | None, memory: Memory) -> bool:
    """The stored fact sets the new fact's attribute to the same value (compatible by rule)."""
    return (
        attribute is not None
        and same_slot(attribute, memory.attribute, memory.attribute_value)
        and memory.attribute_value == attribute.value
    )


def _eligible(
    current: Sequence[Candidate], content: str, attribute: Attribute | None, strong: bool, config: Config
) -> list[tuple[bool, Candidate]]:
    """Stage 1: the candidates that pass a gate, each with whether it is in the same
    attribute slot; same-slot ones first, then by similarity."""
    topic = topic_stems(content)
    eligible: list[tuple[bool, Candidate]] = []
    for c in current:
        same_attr = attribute is not None and same_slot(
            attribute, c.memory.attribute, c.memory.attribute_value
        )
        # Stage 1c: a change marker plus a shared topic word ("I stopped smoking" after
        # "I smoke a pack a day"), or the same statement negated, lowers the gate.
        related = c.similarity >= config.related_candidate_similarity and (
            (strong and bool(topic & topic_stems(c.memory.content)))
            or polarity_conflict(content, c.memory.content)
        )
        # Stage 1d: a change marker alone, on a fact about the same thing.
        related = related or (strong and c.similarity >= config.marker_candidate_similarity)
        if (
            c.similarity > config.contradiction_similarity
            or (same_attr and c.similarity >= config.attribute_candidate_similarity)
            or related
        ):
            eligible.append((same_attr, c))
    eligible.sort(key=lambda item: (not item[0], -item[1].similarity))
    return eligible


def _settle(
    eligible: Sequence[tuple[bool, Candidate]],
    sentence: str,
    content: str,
    attribute: Attribute | None,
    config: Config,
) -> Verdict | None:
    """Stage 3, without a marker: a typed-attribute or polarity conflict, a
    restatement (duplicate), a near-copy with new details (variant), or nothing."""
    for same_attr, c in eligible:
        if same_attr and attribute is not None:
            old_negated = bool(c.memory.metadata.get("attribute_negated", False))
            old_value = c.memory.attribute_value or ""
            if old_value != attribute.value and (
                _refines(sentence, attribute.value, old_value) or _same_job(attribute, old_value)
            ):
                continue  # "I live in Toronto, Canada" after "I live in Canada": more detail
            if old_value != attribute.value or old_negated != attribute.negated:
                return Verdict(
                    kind="conflict",
                    existing=c.memory,
                    similarity=c.similarity,
                    attribute=attribute.key,
                    signal="attribute",
                )
            if c.similarity >= config.duplicate_similarity and restates(content, c.memory):
                return Verdict(
                    kind="duplicate",
                    existing=c.memory,
                    similarity=c.similarity,
                    attribute=attribute.key,
                    signal="attribute",
                )
            continue  # same value, more detail ("... with my wife"): a compatible new fact
        if polarity_conflict(content, c.memory.content):
            return Verdict(
                kind="conflict",
                existing=c.memory,
                similarity=c.similarity,
                attribute="polarity",
                signal="polarity",
            )
        if c.similarity >= config.duplicate_similarity:
            kind: Literal["duplicate", "variant"] = "duplicate" if restates(content, c.memory) else "variant"
            return Verdict(kind=kind, existing=c.memory, similarity=c.similarity)
    return None
