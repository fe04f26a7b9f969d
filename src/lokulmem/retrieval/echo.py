"""The later word on the best result: echoes (a ranking rule of newer first).

Most changes are told in words no lexicon lists ("I dropped the violin and
picked up the cello."); the older fact, phrased like the question, is then
injected alone.  When the first ranking's best result is relevant, a newer
memory from a later conversation whose cosine with it reaches
``newer_first_echo_similarity`` echoes it: :func:`lokulmem.retrieval.newer.newer_first`
moves it just above, and :func:`echo_pairs` says which of those moves inherit
the best result's standing for the relevance test.  The bars, the lenders and
their reading are documented in :mod:`lokulmem.retrieval.newer` and
docs/tuning.md entries 64, 66, 80, 83, 84 and 86.

In a store of many memories on the topic, the later word is often no
candidate of the question at all ("User let the PureGym membership lapse and
joined the climbing wall instead." for "Which gym do I go to?").  Recall then
searches the best current result's own words full-text
(``newer_first_echo_search``) and offers :func:`later_words` of what it finds
to the same tests (entry 89), and the nearest memories to its own vector
(``newer_first_echo_neighbours``): :func:`later_neighbours` finds the change
that shares no word with the old fact (entry 96).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from ..config import Config
from ..contradiction import topic_stems
from ..extraction.lexicon import tells_change, tells_replacement
from ..records import Memory
from .stages import message_of, replaced

if TYPE_CHECKING:
    from .stages import Scored

__all__ = [
    "echo_bar",
    "echo_pairs",
    "echoes",
    "later_words",
    "may_echo",
    "mutual",
    "nearest",
    "share_a_content_word",
]


def echo_pairs(
    ranked: Sequence[Scored],
    moved: Mapping[str, str],
    config: Config,
    relevant: Set[str],
    later: Set[str] = frozenset(),
) -> list[tuple[str, str]]:
    """(older id, newer id) of the moves that are echoes (:func:`echoes`) of a
    memory that stands among the first 2 × ``newer_first_echo_top`` places of the
    final order.  Narrower than :func:`lokulmem.retrieval.newer.newer_first`'s test (the best results of
    the order before the moves): when other memories also moved above the best
    result, it falls below those places and its echo moves without inheriting.
    That narrower reading is the one measured (docs/tuning.md entry 64); reading
    the lenders from the order before the moves lent more and cost LoCoMo's
    default path 72.0 @ 5.82 → 69.1 @ 6.01 on stored replays.  One exception: the
    other memories of ``newer``'s own message do not count among those that pushed
    it down, when ``newer`` echoes it from ``newer_first_echo_told_similarity`` and
    shares a content word with it in its own words (a change told in two memories
    of one message; "User no longer works at the sports clinic …", said with "User's
    calf is fully healed.", does not lend from "User strained User's left calf …",
    cosine 0.49: entry 86)."""
    if config.newer_first_echo_similarity <= 0:
        return []
    by_id = {s.memory.id: s for s in ranked}
    places = 2 * config.newer_first_echo_top
    top = {s.memory.id for s in ranked[:places]}
    out: list[tuple[str, str]] = []
    for n, o in moved.items():
        older, newer = by_id.get(o), by_id.get(n)
        if older is None or newer is None or older.memory.embedding is None or newer.memory.embedding is None:
            continue
        cosine = float(older.memory.embedding @ newer.memory.embedding)
        # Pushed down by its own message's other memories, the best result still lends
        # to one that echoes it from the told bar and names a word of it itself.
        sibling = (
            cosine >= config.newer_first_echo_told_similarity
            and share_a_content_word(older, newer, config.user_label)
            and _among_top(ranked, moved, older, newer, places)
        )
        if (o in top or sibling) and echoes(older, newer, cosine, relevant, config, ranked, later):
            out.append((o, n))
    return out


def _among_top(
    ranked: Sequence[Scored], moved: Mapping[str, str], older: Scored, newer: Scored, places: int
) -> bool:
    """Whether ``older`` stands among the first ``places`` of ``ranked`` once the
    memories of ``newer``'s message moved above it are left out: a change told in
    two memories of one message ("User has gone off parkrun." and "User does a
    swim at the lido on Saturdays instead.") moves both above the fact they
    replace, which must not push it out of the lenders.  Echoes from other
    messages still count: read past them, LoCoMo's default path injected more
    for less (entry 64)."""
    # ``newer`` itself and, when its message is known, the others of that message.
    message = message_of(newer.memory)
    siblings = [s.memory for s in ranked if message is not None and moved.get(s.memory.id) == older.memory.id]
    own = {newer.memory.id} | {m.id for m in siblings if message_of(m) == message}
    kept = [s.memory.id for s in ranked if s.memory.id not in own]
    return older.memory.id in kept[:places]


def may_echo(newer: Scored, config: Config) -> bool:
    """Whether ``newer`` may be an echo at all (the rule is on and it has a vector):
    then it is read below the window too."""
    return config.newer_first_echo_similarity > 0 and newer.memory.embedding is not None


def echoes(
    older: Scored,
    newer: Scored,
    cosine: float,
    relevant: Set[str],
    config: Config,
    ranked: Sequence[Scored] = (),
    later: Set[str] = frozenset(),
) -> bool:
    """Whether ``newer`` tells of the same thing as the relevant ``older`` (cosine at
    least ``newer_first_echo_similarity``) from a later conversation: the later
    word on it stands where the older stands, whatever its words.  Below the told
    bars (:func:`echo_bar`), from ``newer_first_echo_mutual_similarity``, a told
    change echoes only when the two are each other's nearest among ``ranked``
    (:func:`mutual`), or when recall found it by ``older``'s own words (its id is
    in ``later``: :func:`later_words`, which shares a word with it and says a
    value was replaced or ended; in a crowd of memories on the topic neither is
    the other's nearest)."""
    if config.newer_first_echo_similarity <= 0 or older.memory.id not in relevant:
        return False
    if older.memory.source_session and older.memory.source_session == newer.memory.source_session:
        return False
    if cosine >= echo_bar(older, newer, config):
        return True
    low = config.newer_first_echo_mutual_similarity
    if not (0 < low <= cosine and tells_change(newer.memory.content)):
        return False
    return newer.memory.id in later or mutual(ranked, older, newer)


def mutual(ranked: Sequence[Scored], older: Scored, newer: Scored) -> bool:
    """Whether ``older`` is the memory of ``ranked`` nearest to ``newer`` and ``newer``
    the nearest to ``older`` of those learned after it: in a store of many
    memories on the topic, a later remark that tells some other change is nearer
    to something else ("User strained User's left calf …" is no later word on
    "User is vegetarian.")."""
    a, b = older.memory.embedding, newer.memory.embedding
    others = [
        (s.memory, v)
        for s in ranked
        if (v := s.memory.embedding) is not None and s.memory.id != older.memory.id
    ]
    if a is None or b is None or not others:
        return False
    rest = [(m, v) for m, v in others if m.id != newer.memory.id]
    if not rest:
        return True
    vectors = np.stack([v for _, v in rest])
    bar = float(a @ b)
    if float((vectors @ b).max()) > bar:
        return False  # something else is nearer to the newer memory
    later = np.array([m.created_at > older.memory.created_at for m, _ in rest])
    # No later memory nearer to the older one.
    return not (later.any() and float((vectors[later] @ a).max()) > bar)


def nearest(row: npt.NDArray[np.float32], i: int, *, skip: int) -> bool:
    """Whether place ``i`` holds the highest cosine of ``row`` (a memory's cosines
    with the window's memories), ``skip`` (the memory itself) left out."""
    others = np.delete(row, skip) if skip < len(row) else row
    return bool(row[i] >= others.max())


def echo_bar(older: Scored, newer: Scored, config: Config) -> float:
    """The cosine from which ``newer`` echoes ``older``: ``newer_first_echo_told_similarity``
    when its own words tell a change (:func:`lokulmem.extraction.lexicon.tells_change`), and
    ``newer_first_echo_shared_similarity`` when they also share a content word with
    ``older`` (:func:`_share_a_word`), else ``newer_first_echo_similarity``.  Below
    the latter, :func:`lokulmem.retrieval.newer.newer_first` also asks that the best result be the window's
    memory nearest to ``newer`` (:func:`nearest`); :func:`echo_pairs` needs not: a
    move it reads there was an echo, or the change of a slot that lends anyway
    (:func:`inheriting`)."""
    bar = config.newer_first_echo_similarity
    if not tells_change(newer.memory.content):
        return bar
    told = min(bar, config.newer_first_echo_told_similarity)
    shared = config.newer_first_echo_shared_similarity
    if shared < told and _share_a_word(older, newer, config.user_label):
        return shared
    return told


def _share_a_word(older: Scored, newer: Scored, label: str) -> bool:
    """Whether the two memories, or the messages they came from, share a content word
    (crude stems, the user's label left out): "The school run is by car now …" and
    "User walks the kids to school …" do, and so does "User does the phone
    befriending service now." said in a message about giving up "the community bus";
    "User opened User's own practice …" and "User swims on Sundays …" do not."""
    a, b = older.memory, newer.memory
    return not topic_stems(f"{a.content} {a.source_context}", label).isdisjoint(
        topic_stems(f"{b.content} {b.source_context}", label)
    )


def share_a_content_word(older: Scored, newer: Scored, label: str) -> bool:
    """Whether the two memories' own words share a content word (crude stems, the
    user's label left out; their messages left out, unlike :func:`_share_a_word`)."""
    return not topic_stems(older.memory.content, label).isdisjoint(topic_stems(newer.memory.content, label))


def later_neighbours(lender: Memory, found: Sequence[tuple[Memory, float]], bar: float) -> list[Memory]:
    """Those of ``found`` (``lender``'s nearest memories by vector, with their cosine
    with it) that may be a later word on ``lender``: learned after it in another
    conversation, not replaced themselves, at least ``bar`` alike and saying
    that something changed (:func:`lokulmem.extraction.lexicon.tells_change`);
    the full-text search (:func:`later_words`) misses a change that shares no
    word with the old fact.  Whether one echoes is still :func:`echoes`' to say."""
    return [m for m, cosine in found if cosine >= bar and _later(lender, m) and tells_change(m.content)]


def later_words(lender: Memory, found: Sequence[Memory], label: str) -> list[Memory]:
    """Those of ``found`` (full-text matches of ``lender``'s words) that may be a later
    word on ``lender``: learned after it in another conversation, not replaced
    themselves, their own words sharing a content word with it (crude stems, the
    user's label left out) and saying that a value was replaced or ended, or
    telling a new one (:func:`lokulmem.extraction.lexicon.tells_replacement`; not
    "now", "new" or "started", which chat says of everything: read so, LoCoMo's
    default path injected a less relevant memory first for some questions).
    Whether one echoes is still :func:`echoes`' to say."""
    mine = topic_stems(lender.content, label)
    return [
        m
        for m in found
        if _later(lender, m)
        and tells_replacement(m.content)
        and not mine.isdisjoint(topic_stems(m.content, label))
    ]


def _later(lender: Memory, m: Memory) -> bool:
    """Whether ``m`` may follow ``lender`` as its later word at all: another memory,
    learned after it in another conversation, not replaced itself."""
    session = lender.source_session
    return (
        m.id != lender.id
        and m.created_at > lender.created_at
        and not (session and m.source_session == session)
        and not replaced(m)
    )
