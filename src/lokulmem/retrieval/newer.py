"""Newer first among memories about the same thing (a ranking rule).

Contradiction detection closes an old fact only when a rule or the classifier
recognises the change; many changes are told in ways no rule names ("Helen
left, Ravi runs the team now").  Both facts then stay active, and the older
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

**Inheritance** (``newer_first_inherits``).  A change is often told in words the
question does not use ("Priya and I broke up, I'm single now." for "Do I have
a girlfriend?"): the newer memory then has no evidence of its own and ranks far
below, so the rule above cannot reach it, and the old value is injected alone.
When the older memory is relevant and states a typed attribute (a slot:
``user.relation:girlfriend``), and the newer memory's own words say that
something changed, the newer one moves just above it from anywhere in the
ranking, with no score margin, and stands where the older stands for the
relevance test (:func:`inheriting`; :func:`lokulmem.retrieval.selection.select`),
as the replacement of a closed fact does.  The slot is what keeps this calm in
real dialogue: chatty memories that say "now" or "started" next to a similar,
older remark are common, and without it they displaced the best matches
(docs/tuning.md entry 44).  With ``newer_first_states_lend`` an older fact that
states how things stand (:func:`lokulmem.retrieval.states.states_now`: "User
banks with …") lends as a slot does, and a newer memory whose words tell a new
value without a marker ("cut out", "went up to 48k": ``STATE_CHANGES``) counts
as telling a change; an inheritance needs the cosine
``newer_first_inherit_similarity``, and none below ``newer_first_similarity``
between typed attributes of different kinds (docs/tuning.md entry 47); between
two facts of one typed slot it needs no cosine at all ("User works from home."
/ "User and others are back in the office now.": docs/tuning.md entry 61).

**What never moves.**  A fact some other fact replaced (closed by a change or
superseded: :func:`lokulmem.retrieval.stages.replaced`) is history, however
new: moved above an older memory it would stand above its own replacement.

**What a newer memory may move above** (``newer_first_needs_state``).  Outside
an inheritance, the older memory must state a typed attribute or something a
change replaces (:func:`lokulmem.retrieval.states.replaceable`: a present
state, what the user is or has, the user's opinion of something).  A remark
("User entered a chess match on Sunday.", "User is glad the evening went well.") is
never out of date; moving a newer remark on the same topic above it only
pushed the best match down (docs/tuning.md entry 58).

**The asked-attribute bonus** (``ScoreBreakdown.attribute``) is left out of the
margin, and a newer memory that matched the question at least as well moves
above an older fact that only the bonus put above it, marker or not: the
bonus says which fact sets the slot asked about, not that a newer memory on
the same subject is out of date (docs/tuning.md entry 49).

**The later word on the best result** (``newer_first_echo_similarity``).  Most
changes are told in words no lexicon lists ("I dropped the violin and picked
up the cello.", "Traded in the Skoda for a Kia."), and the older fact, phrased
like the question, is then injected alone.  When the first ranking's best
result (``newer_first_echo_top``) is relevant, a newer memory from a *later
conversation* whose cosine with it reaches ``newer_first_echo_similarity``
moves just above it from anywhere in the ranking and inherits its standing,
whatever its words: the user's later word on the thing the question is most
about.  Only the best result lends, and only to another conversation's
memory, which is what keeps long conversations calm: lent by the best two
results, or within one conversation, later remarks displaced evidence
(docs/tuning.md entry 64).  A change moves a fact away from its old wording
("User switched User's dev machine to Windows." after "User does User's
coding on Linux.", cosine 0.42): a newer memory whose own words tell a change
echoes from ``newer_first_echo_told_similarity``, if the best result is the
window's memory nearest to it (entry 66).  The echo's tests live in
:mod:`lokulmem.retrieval.echo`; the memories a change's message brings along
with it, in :mod:`lokulmem.retrieval.carry`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from ..clock import MS_PER_HOUR
from ..config import Config
from ..extraction.lexicon import CHANGE_MARKERS, tells_change
from ..pairhead import PairHead, pair_features
from .echo import echo_pairs, echoes, may_echo, nearest
from .stages import replaced
from .states import replaceable, states_now

if TYPE_CHECKING:
    from .stages import Scored

__all__ = ["NEWER_REASON", "inheriting", "newer_first"]

#: Appended to the debug reason of a memory the rule moved up.
NEWER_REASON = " + newer than a similar memory below it"


def newer_first(
    ranked: Sequence[Scored],
    config: Config,
    *,
    asks_now: bool = True,
    head: PairHead | None = None,
    relevant: Set[str] = frozenset(),
    later: Set[str] = frozenset(),
) -> tuple[list[Scored], dict[str, str]]:
    """``ranked`` with each newer memory moved above the older ones it follows (module
    doc), and the moves: newer id → the id of the older memory it now stands above.
    Older memories are looked for within the first ``newer_first_window`` places;
    with ``newer_first_inherits``, a newer memory whose own words tell a change may
    come from anywhere in the ranking and needs no score margin to follow an older
    memory that is ``relevant`` and states a typed attribute or, with
    ``newer_first_states_lend``, a present state (it inherits that one's standing:
    see :func:`inheriting`).  Nothing moves for
    a message that is not a question about now (``asks_now`` False; see
    :func:`lokulmem.retrieval.parse.asks_now`) when ``newer_first_needs_now``.
    ``head``: the pair head that may vouch for a change without a marker (used only
    when ``newer_first_pair_threshold`` is above 0).  ``later``: ids of memories
    found as possible later words on the best result (:func:`.echo.later_words`):
    read wherever they rank, and echoing from ``newer_first_echo_mutual_similarity``
    without the nearest-neighbour test (:func:`.echo.echoes`)."""
    if config.newer_first_similarity <= 0 or (config.newer_first_needs_now and not asks_now):
        return list(ranked), {}
    window = config.newer_first_window
    # Below the window, only a memory that follows a relevant slot fact in it moves:
    # without one, the rest of the ranking is not read (0.3 against 1.4 ms at 10k).
    slots = config.newer_first_inherits and any(_lends(s, relevant, config) for s in ranked[:window])
    echo = config.newer_first_echo_similarity > 0 and bool(ranked) and ranked[0].memory.id in relevant
    reach = len(ranked) if slots else max(window, config.newer_first_echo_reach if echo else 0)
    read = (
        [*ranked[:reach], *(s for s in ranked[reach:] if s.memory.id in later)] if later else ranked[:reach]
    )
    pairs = [(s, v) for s in read if (v := s.memory.embedding) is not None]
    if len(pairs) < 2:
        return list(ranked), {}
    shown = [s for s, _ in pairs]
    vectors = np.stack([v for _, v in pairs])
    window = min(window, len(shown))
    cosines = vectors @ vectors[:window].T
    order = list(range(len(shown)))
    moved: dict[str, str] = {}
    use_head = head is not None and config.newer_first_pair_threshold > 0
    # Which of the window's memories a newer one may stand above without inheriting.
    changeable = [_changeable(s, config) for s in shown[:window]]
    # Results within ``newer_first_echo_tie`` of the best lend by echo too: which of
    # two near-equal results ranks first is noise (a crowd's cluster moved by 0.005).
    best = shown[0].breakdown.total
    tied = sum(1 for s in shown[:window] if s.breakdown.total >= best - config.newer_first_echo_tie)
    tied = tied if config.newer_first_echo_tie > 0 else 0
    for j in range(1, len(shown)):
        newer = shown[j]
        if replaced(newer.memory):
            continue  # a closed fact is history: it never moves above a current one
        if j >= window:  # from below the window: its own words must tell the change
            if not (_says_change(newer) or may_echo(newer, config)):
                continue
            marked, says = True, _says_change(newer)
        else:
            marked = not config.newer_first_needs_marker or _tells_change(newer)
            says = config.newer_first_inherits and _says_change(newer)
            # Without a bonus of its own it may stand where only the bonus put it.
            if not (marked or says or use_head or newer.breakdown.attribute == 0):
                continue
        for at, i in enumerate(order[: order.index(j)]):
            if i >= window:  # a newer memory moved up from below the window
                continue
            older = shown[i]
            cosine = float(cosines[j, i])
            lends = i < max(config.newer_first_echo_top, tied)
            echo = lends and echoes(older, newer, cosine, relevant, config, ranked, later)
            if echo and cosine < config.newer_first_echo_similarity:
                # Told in other words: only the window's memory nearest to it lends.
                echo = nearest(cosines[j], i, skip=j)
            inherits = echo or (says and _lends(older, relevant, config))
            # A new value of the older fact's slot is a change, however told.
            slot = (
                j < window
                and config.newer_first_inherits
                and (_new_value(older, newer) or _hinted(older, newer))
            )
            if not (inherits or slot) and (j >= window or not changeable[i]):
                continue
            # An inheritance needs no other word for the change: the newer's own tells it.
            if _follows(older, newer, cosine, config, margin=not (inherits or slot), echo=echo) and (
                marked
                or inherits
                or slot
                or _only_the_bonus(older, newer)
                or (use_head and _head_vouches(head, older, newer, vectors[i], vectors[j], config))
            ):
                order.remove(j)
                order.insert(at, j)
                moved[newer.memory.id] = older.memory.id
                break
    kept = {id(s) for s in shown}
    rest = [s for s in ranked if id(s) not in kept]
    return [shown[i] for i in order] + rest, moved


def inheriting(
    ranked: Sequence[Scored],
    moved: Mapping[str, str],
    config: Config,
    relevant: Set[str] = frozenset(),
    later: Set[str] = frozenset(),
) -> list[tuple[str, str]]:
    """(older id, newer id) of the moves whose newer memory inherits the older's
    standing for the relevance test: with ``newer_first_inherits``, a newer memory
    whose own words tell a change, following a ``relevant`` older fact of a typed
    attribute or a present state (:func:`_lends`).  ``later``: as in :func:`newer_first`."""
    if not config.newer_first_inherits or not moved:
        return []
    told = {s.memory.id for s in ranked if s.memory.id in moved and _says_change(s)}
    lenders = {s.memory.id for s in ranked if _lends(s, relevant, config)}
    out = [(o, n) for n, o in moved.items() if n in told and o in lenders]
    return out + [p for p in echo_pairs(ranked, moved, config, relevant, later) if p not in out]


def _lends(older: Scored, relevant: Set[str], config: Config) -> bool:
    """Whether ``older`` may lend its standing to a newer memory: it is relevant and
    states a typed attribute (a slot, not a remark) or, with
    ``newer_first_states_lend``, a present state (:func:`states_now`)."""
    if older.memory.id not in relevant:
        return False
    if older.memory.attribute is not None:
        return True
    return config.newer_first_states_lend and states_now(older.memory.content, config.user_label)


def _changeable(older: Scored, config: Config) -> bool:
    """Whether a newer memory may move above ``older`` (other than by inheriting its
    standing): with ``newer_first_needs_state``, ``older`` must state a typed
    attribute or something a change replaces (:func:`replaceable`), not a remark."""
    if not config.newer_first_needs_state or older.memory.attribute is not None:
        return True
    return replaceable(older.memory.content, config.user_label)


def _follows(
    older: Scored, newer: Scored, cosine: float, config: Config, *, margin: bool, echo: bool = False
) -> bool:
    """Whether ``newer`` may stand above ``older``: the same kind of thing (cosine),
    learned later, the older not pinned and (``margin``) not far above it.  A move
    without the margin is an inheritance (the newer tells a change of the older's
    slot or state), where a new value makes the pair less alike: it needs only
    ``newer_first_inherit_similarity`` (``newer_first_asked_inherit_similarity``
    after a fact of the slot the question asks for, by a memory of no slot),
    unless both state typed attributes of different kinds ("User is no longer at
    Acme Corp." does not follow "User lives in Berlin.": :func:`_other_kind`).  An
    ``echo`` (:func:`.echo.echoes`) has passed its own bar (:func:`.echo.echo_bar`),
    which stands in for both."""
    gap_ms = config.newer_first_min_hours * MS_PER_HOUR
    alike = config.newer_first_similarity if margin else config.newer_first_inherit_similarity
    if echo:
        alike = min(alike, cosine)  # the echo passed its own bar (echo_bar or mutual)
    if cosine < config.newer_first_similarity and _other_kind(older, newer):
        return False
    if not margin and older.breakdown.attribute > 0 and newer.breakdown.attribute == 0:
        # The older fact sets the slot asked about; the newer, a change no rule typed.
        alike = min(alike, config.newer_first_asked_inherit_similarity)
    if not margin and (_same_kind(older, newer) or _hinted(older, newer)):
        alike = 0.0  # one slot in both (by the rules, or by a hint): no cosine needed
    return (
        not older.memory.pinned
        and newer.memory.created_at - older.memory.created_at >= gap_ms
        and cosine >= alike
        and (not margin or older.breakdown.matched - newer.breakdown.matched <= config.newer_first_margin)
    )


def _only_the_bonus(older: Scored, newer: Scored) -> bool:
    """Whether only the asked-attribute bonus put ``older`` above ``newer``: the newer
    memory matched the question at least as well.  The bonus lifts the fact of the
    slot asked about over other memories, never over a newer one about the same
    thing (a change of that slot no rule recognised: "User is engaged to Sam." /
    "User and Sam got married in June.")."""
    old, new = older.breakdown, newer.breakdown
    return old.attribute > new.attribute and new.matched >= old.matched


def _kinds(older: Scored, newer: Scored) -> tuple[str, str] | None:
    """The kinds of both memories' typed attributes (the key up to its qualifier:
    ``user.pet_name:dog`` and ``user.pet_name:cat`` are one kind), or None unless
    both state one."""
    a, b = older.memory.attribute, newer.memory.attribute
    return None if a is None or b is None else (a.split(":")[0], b.split(":")[0])


def _same_kind(older: Scored, newer: Scored) -> bool:
    """Whether both memories state typed attributes of one kind."""
    kinds = _kinds(older, newer)
    return kinds is not None and kinds[0] == kinds[1]


def _new_value(older: Scored, newer: Scored) -> bool:
    """Whether ``newer`` sets the very slot ``older`` sets (the same attribute key) to
    another value: the attribute rules read only single-valued slots, so the newer
    value is the current one ("User and others bought their first home." after
    "User rents User's apartment.")."""
    a, b = older.memory, newer.memory
    return a.attribute is not None and a.attribute == b.attribute and a.attribute_value != b.attribute_value


def _hinted(older: Scored, newer: Scored) -> bool:
    """Whether both memories speak of the attribute the question asks for and at
    least one has no attribute of its own (a topic hint: :mod:`.topics`, which
    hints only at memories learned after the slot's newest fact): the newer is
    the later word on the slot, told in a form no rule types."""
    return (
        older.breakdown.attribute > 0
        and newer.breakdown.attribute > 0
        and (older.memory.attribute is None or newer.memory.attribute is None)
    )


def _other_kind(older: Scored, newer: Scored) -> bool:
    """Whether both memories state typed attributes of different kinds."""
    kinds = _kinds(older, newer)
    return kinds is not None and kinds[0] != kinds[1]


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


def _says_change(s: Scored) -> bool:
    """Whether the memory itself (not only its message) says a state changed or holds
    now, says a value was replaced (``REPLACEMENT_MARKERS``: "no more", "rather
    than"), or tells a change of value (``STATE_CHANGES``: "cut out", "went up to")."""
    return tells_change(s.memory.content)
