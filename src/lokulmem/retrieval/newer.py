"""Newer first among memories about the same thing (a ranking rule).

Contradiction detection closes an old fact only when a rule or the classifier
recognises the change; many changes are told in ways no rule names ("Helen
left, my new manager is Oscar").  Both facts then stay active, and the older
one, reinforced longer and phrased like the question, often ranks first.
When two ranked memories say nearly the same kind of thing (their vectors'
cosine reaches ``newer_first_similarity``), were learned at least
``newer_first_min_hours`` apart, and score within ``newer_first_margin`` of
each other, and the newer one (or its message) says that something changed or
holds now (``newer_first_needs_marker``: "now", "switched", "no longer", ...),
the newer one is moved just above the older: if they conflict the newer is the
likelier current fact; if they do not, the order costs little.  The older fact
is not closed or hidden, and its standing for the relevance test is unchanged.

Without a marker, the contradiction pair head (:mod:`lokulmem.pairhead`) can
stand in for it (``newer_first_pair_threshold``): a pair it scores from that
threshold up is a change told without a marker word ("The landlord raised
my rent to 1,050 a month." after "My rent is 900 a month.").  Only the order changes: the head's word
alone closes nothing here, which is why it can be trusted lower than stage 3b
of contradiction detection.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from ..clock import MS_PER_HOUR
from ..config import Config
from ..extraction.lexicon import CHANGE_MARKERS
from ..pairhead import PairHead, pair_features

if TYPE_CHECKING:
    from .stages import Scored

__all__ = ["NEWER_REASON", "newer_first"]

#: Appended to the debug reason of a memory the rule moved up.
NEWER_REASON = " + newer than a similar memory below it"


def newer_first(
    ranked: Sequence[Scored], config: Config, *, asks_now: bool = True, head: PairHead | None = None
) -> tuple[list[Scored], set[str]]:
    """``ranked`` with each newer memory moved above the older ones it follows (module
    doc), within the first ``newer_first_window`` places; and the ids moved.  Nothing
    moves for a message that is not a question about now (``asks_now`` False; see
    :func:`lokulmem.retrieval.parse.asks_now`) when ``newer_first_needs_now``.
    ``head``: the pair head that may vouch for a change without a marker (used only
    when ``newer_first_pair_threshold`` is above 0)."""
    if config.newer_first_similarity <= 0 or (config.newer_first_needs_now and not asks_now):
        return list(ranked), set()
    pairs = [(s, v) for s in ranked[: config.newer_first_window] if (v := s.memory.embedding) is not None]
    if len(pairs) < 2:
        return list(ranked), set()
    window = [s for s, _ in pairs]
    vectors = np.stack([v for _, v in pairs])
    cosines = vectors @ vectors.T
    gap_ms = config.newer_first_min_hours * MS_PER_HOUR
    order = list(range(len(window)))
    moved: set[str] = set()
    use_head = head is not None and config.newer_first_pair_threshold > 0
    for j in range(1, len(window)):
        newer = window[j]
        marked = not config.newer_first_needs_marker or _tells_change(newer)
        if not marked and not use_head:
            continue
        for at, i in enumerate(order[: order.index(j)]):
            older = window[i]
            if (
                not older.memory.pinned
                and newer.memory.created_at - older.memory.created_at >= gap_ms
                and cosines[i, j] >= config.newer_first_similarity
                and older.breakdown.total - newer.breakdown.total <= config.newer_first_margin
                and (marked or _head_vouches(head, older, newer, vectors[i], vectors[j], config))
            ):
                order.remove(j)
                order.insert(at, j)
                moved.add(newer.memory.id)
                break
    kept = {id(s) for s in window}
    rest = [s for s in ranked if id(s) not in kept]
    return [window[i] for i in order] + rest, moved


def _head_vouches(
    head: PairHead | None,
    older: Scored,
    newer: Scored,
    u: npt.NDArray[np.float32],
    v: npt.NDArray[np.float32],
    config: Config,
) -> bool:
    """The pair head scores (older, newer) as a contradiction from ``newer_first_pair_threshold`` up."""
    if head is None:
        return False
    features = pair_features(u, v, older.memory.content, newer.memory.content)
    return head.score(features) >= config.newer_first_pair_threshold


def _tells_change(s: Scored) -> bool:
    """Whether the memory, or the message it came from, says a state changed or holds now."""
    return any(CHANGE_MARKERS.search(text) for text in (s.memory.content, s.memory.source_context))
