"""Whether a candidate is relevant at all: the evidence decision that lets
``augment()`` inject nothing.  Pure.

The composite ``R`` ranks; it cannot say "nothing", because recency and
continuity alone lift every memory above any fixed floor, and the lexical
term is normalised to the query's best match (so the best match of a
question about a stranger scores as high as the best match of a real one).
So relevance is decided on the *evidence itself*, in absolute terms::

    evidence = semantic match + relevance_coverage_weight × key-term coverage
               [+ relevance_attribute_weight if it sets the asked attribute]
               [+ time_range_evidence if it was learned in the time asked about,
                  or relevance_threshold if that time is all the query asks]

* the **semantic match** is the blended cosine of the memory's sentence and
  message vectors with the query (the one the score uses), in [0, 1];
* the **key-term coverage** is the share of the query's key terms that the
  memory (its content or the message it came from) contains, each term
  weighted by its inverse document frequency in the store.  A name the store
  has never seen weighs the most, so a question about someone the user never
  mentioned covers little of any memory; an ordinary word the store has never
  seen says little about which memory is meant and weighs
  ``Config.unknown_term_weight`` of that.

The replacement of a closed fact is as relevant as the fact it replaced (a
question that finds "User lives in Berlin (until …)" is answered by "User
lives in Lisbon"), so a successor's evidence is at least its predecessor's.

A fact that sets the typed attribute the question asks about
(:mod:`.asked`: "Where do I live?" and "User moved to Munich."), or a memory
of the type a request asks about as a whole ("Tell me about my family" and
the relational memories), adds ``Config.relevance_attribute_weight``.

A memory is relevant when its evidence reaches ``Config.relevance_threshold``;
and, among the candidates with evidence, a memory must score at least
``Config.relevance_margin`` times the best candidate's ``R``, so the count
injected follows the shape of the question's score distribution instead of
always filling ``max_memories``.  docs/tuning.md (entry 26) has the numbers.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence, Set

from ..config import Config

__all__ = ["BELOW_MARGIN", "NO_EVIDENCE", "coverage", "evidence", "idf", "inherit"]

#: Exclusion reasons (``ScoredMemory.excluded_reason``).
NO_EVIDENCE = "no semantic or key-word evidence"
BELOW_MARGIN = "far below the best candidate"


def idf(doc_freq: int, total: int) -> float:
    """BM25's inverse document frequency: ``ln(1 + (N − df + ½) / (df + ½))``."""
    return math.log(1.0 + (max(0, total - doc_freq) + 0.5) / (doc_freq + 0.5))


def coverage(
    terms: Sequence[str],
    doc_freq: Mapping[str, int],
    matched: Mapping[str, frozenset[str]],
    total: int,
    *,
    names: Set[str] = frozenset(),
    unknown_weight: float = 1.0,
) -> dict[str, float]:
    """memory id → the IDF-weighted share of ``terms`` it contains, in [0, 1].

    A term absent from ``doc_freq`` or of frequency 0 is unknown to the store:
    it weighs the full IDF if it is one of ``names``, else ``unknown_weight``
    times it."""
    weights: dict[str, float] = {}
    for t in dict.fromkeys(terms):
        df = doc_freq.get(t, 0)
        weights[t] = idf(df, total) * (1.0 if df > 0 or t in names else unknown_weight)
    whole = sum(weights.values())
    out: dict[str, float] = {}
    if whole <= 0:
        return out
    for term, ids in matched.items():
        share = weights.get(term, 0.0) / whole
        for i in ids:
            out[i] = min(1.0, out.get(i, 0.0) + share)
    return out


def evidence(
    semantic_match: float,
    term_coverage: float,
    config: Config,
    *,
    asked_attribute: bool = False,
    in_time_range: bool = False,
    time_only: bool = False,
) -> float:
    """The evidence of relevance of one memory (compare with ``relevance_threshold``);
    ``asked_attribute``: it sets the attribute the query asks about;
    ``in_time_range``: it was learned in the time the query names, and
    ``time_only``: that time is all the query asks about (then it is enough)."""
    bonus = config.relevance_attribute_weight if asked_attribute else 0.0
    if in_time_range:
        bonus += config.relevance_threshold if time_only else config.time_range_evidence
    return semantic_match + config.relevance_coverage_weight * term_coverage + bonus


def inherit(evidence_of: Mapping[str, float], replaced_by: Iterable[tuple[str, str]]) -> dict[str, float]:
    """``evidence_of`` with each successor raised to its predecessor's evidence;
    ``replaced_by`` holds (closed fact id, successor id) pairs."""
    out = dict(evidence_of)
    for old, new in replaced_by:
        if new in out and old in out:
            out[new] = max(out[new], out[old])
    return out
