"""The rest of a change's message comes with it (a ranking rule).

A change is often told in one message that the extraction splits in two:
"I've stopped teaching piano and I'm temping in an office." stores "User has
stopped teaching piano." and "User is temping in an office.".  The first names
the old value, so newer first (:mod:`lokulmem.retrieval.newer`) moves it above
"User teaches piano from home." and lends it that fact's standing; the second
holds the new value but shares no word with the question ("What do I do for
work?") or the old fact (cosine 0.20), and was left out: the user was told what
stopped, not what holds now.

With ``newer_first_carry_limit`` above 0, each memory of the message of a newer
memory that stands where an older fact stands (it inherits that fact's
standing by newer first: :func:`lokulmem.retrieval.newer.inheriting`, or it
replaced the closed fact: :func:`lokulmem.retrieval.stages.current_first`)
moves to just below it and stands there too, when that memory says in the
older fact's words that its value ended (``extraction.lexicon.ENDED_MARKERS``:
"stopped", "gone off", "no longer", "… days are over") and the message left at
most that many other memories.  The narrowness is the point: a remark merely
ranked above an older one carries nothing; a memory that holds the new value
itself ("User prefers dark mode now.") carries nothing (its message's other
sentences were the reason, "User's eyes hurt at night."); a long message (a
chat turn of five sentences) carries nothing, which keeps conversation from
following its best sentence in; and the engine carries only for a question
about now (:func:`lokulmem.retrieval.parse.asks_now`), as newer first moves
only then (docs/tuning.md entry 86).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..config import Config
from ..extraction.lexicon import ENDED_MARKERS
from .echo import share_a_content_word
from .stages import message_of, replaced

if TYPE_CHECKING:
    from .stages import Scored

__all__ = ["CARRY_REASON", "carry_message"]

#: Appended to the debug reason of a memory carried in with its message.
CARRY_REASON = " + said in the message of a change above it"


def _ends(older: Scored, newer: Scored, label: str) -> bool:
    """Whether ``newer`` tells that ``older``'s value ended, in ``older``'s own words
    (``ENDED_MARKERS``: "User has stopped teaching piano." for "User teaches piano
    from home."): then the new value, if the message gave one, is in its other
    memories.  "User prefers dark mode now." holds the new value itself."""
    return bool(ENDED_MARKERS.search(newer.memory.content)) and share_a_content_word(older, newer, label)


def carry_message(
    ranked: Sequence[Scored], follows: Sequence[tuple[str, str]], config: Config
) -> tuple[list[Scored], list[tuple[str, str]]]:
    """``ranked`` with the memories of each following memory's message moved just
    below it, and (older id, carried id) for each memory carried: it stands where
    the older memory stands, as the one it came with does (module doc).
    ``follows``: (older id, newer id) pairs, newer first's inheritances and the
    replacements of closed facts.  A message that left more than
    ``newer_first_carry_limit`` other memories in the ranking carries none."""
    if config.newer_first_carry_limit <= 0 or not follows:
        return list(ranked), []
    order = list(ranked)
    by_id = {s.memory.id: s for s in ranked}
    carried: list[tuple[str, str]] = []
    taken = {n for _, n in follows} | {o for o, _ in follows}
    for older, newer in follows:
        at = next((k for k, s in enumerate(order) if s.memory.id == newer), None)
        if at is None or older not in by_id or (message := message_of(order[at].memory)) is None:
            continue
        if not _ends(by_id[older], order[at], config.user_label):
            continue
        siblings = [
            s
            for s in order[at + 1 :]
            if message_of(s.memory) == message and s.memory.id not in taken and not replaced(s.memory)
        ]
        if len(siblings) > config.newer_first_carry_limit:
            continue  # a long message's other sentences are not the change's new value
        for k, s in enumerate(siblings, start=1):
            order.remove(s)
            order.insert(at + k, s)
            taken.add(s.memory.id)
            carried.append((older, s.memory.id))
    return order, carried
