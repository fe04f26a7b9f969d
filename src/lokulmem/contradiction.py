"""The three-stage contradiction pipeline (PRD §6).  Pure functions.

1. **Candidate match.**  Existing current facts (active, no ``valid_to``) whose
   cosine with the new fact exceeds ``contradiction_similarity`` (0.80).  Stage
   1b: a fact that sets the same typed attribute (``user.residence``) is also a
   candidate from ``attribute_candidate_similarity`` (0.45) up: "I live in
   London" and "I live in Berlin" are only 0.73 apart for MiniLM, yet the
   PRD's table calls them a conflict.
2. **Temporal marker.**  A marker ("used to", "no longer", ...) in the new
   sentence → *temporal coexistence*: the old fact gets ``valid_to``, the new
   one ``valid_from`` and a ``temporal_supersedes`` reference.  Both stay.
3. **Typed attribute conflict.**  Same entity and attribute, different value
   (or opposite polarity), no marker → *conflict*: the old fact is
   ``superseded``.  A pair with the same value, or nearly identical text, is
   a restatement: the old fact is reinforced instead.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from .config import Config
from .extraction.attributes import Attribute, polarity_conflict
from .records import Memory

__all__ = ["Candidate", "Verdict", "find_temporal_marker", "judge"]


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


@lru_cache(maxsize=32)
def _marker_regex(markers: tuple[str, ...]) -> re.Pattern[str]:
    alts = sorted((re.escape(m.lower()) for m in markers), key=len, reverse=True)
    return re.compile(r"\b(?:" + "|".join(alts) + r")\b")


def find_temporal_marker(sentence: str, markers: tuple[str, ...]) -> str | None:
    """The first temporal marker in ``sentence`` (case-insensitive), if any."""
    if not markers:
        return None
    m = _marker_regex(tuple(markers)).search(sentence.lower().replace("’", "'"))
    return m.group(0) if m else None


_KEY_TOKEN = re.compile(r"\b(?:\d+(?:[.,:]\d+)*|[A-Z][A-Za-z'\-]+)\b")


def key_tokens(text: str, label: str = "User") -> frozenset[str]:
    """Numbers and capitalised words after the first: what makes two similar facts different."""
    tokens = _KEY_TOKEN.findall(text)
    words = text.split()
    first = words[0] if words else ""
    return frozenset(t.lower() for t in tokens if t not in (label, f"{label}'s") and t != first)


def _restates(content: str, existing: Memory) -> bool:
    """A restatement adds no number or name the existing fact lacks ("owns 3 harps" ≠ "owns 2")."""
    return key_tokens(content) <= key_tokens(existing.content)


def judge(
    *,
    sentence: str,
    content: str,
    attribute: Attribute | None,
    candidates: Sequence[Candidate],
    config: Config,
) -> Verdict | None:
    """Decide how a new fact relates to its nearest existing facts (None: unrelated)."""
    current = [c for c in candidates if c.memory.status == "active" and c.memory.valid_to is None]
    eligible: list[tuple[bool, Candidate]] = []
    for c in current:
        same_attr = attribute is not None and c.memory.attribute == attribute.key
        if c.similarity > config.contradiction_similarity or (
            same_attr and c.similarity >= config.attribute_candidate_similarity
        ):
            eligible.append((same_attr, c))
    if not eligible:
        return None
    # Same-attribute candidates first, then by similarity.
    eligible.sort(key=lambda item: (not item[0], -item[1].similarity))
    marker = find_temporal_marker(sentence, config.temporal_markers)
    if marker is not None:
        same_attr, best = eligible[0]
        return Verdict(
            kind="temporal-coexistence",
            existing=best.memory,
            similarity=best.similarity,
            marker=marker,
            attribute=attribute.key if same_attr and attribute else None,
        )
    for same_attr, c in eligible:
        if same_attr and attribute is not None:
            old_negated = bool(c.memory.metadata.get("attribute_negated", False))
            if c.memory.attribute_value != attribute.value or old_negated != attribute.negated:
                return Verdict(
                    kind="conflict", existing=c.memory, similarity=c.similarity, attribute=attribute.key
                )
            if c.similarity >= config.duplicate_similarity and _restates(content, c.memory):
                return Verdict(
                    kind="duplicate", existing=c.memory, similarity=c.similarity, attribute=attribute.key
                )
            continue  # same value, more detail ("... with my wife"): a compatible new fact
        if c.similarity > config.contradiction_similarity and polarity_conflict(content, c.memory.content):
            return Verdict(kind="conflict", existing=c.memory, similarity=c.similarity, attribute="polarity")
        if c.similarity >= config.duplicate_similarity:
            kind: Literal["duplicate", "variant"] = "duplicate" if _restates(content, c.memory) else "variant"
            return Verdict(kind=kind, existing=c.memory, similarity=c.similarity)
    return None
