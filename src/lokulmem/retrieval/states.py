"""Whether a stored fact states how things stand (a ranking rule's test).

Newer first lets a newer memory that tells a change take the place of an
older, relevant fact (:mod:`lokulmem.retrieval.newer`, inheritance).  The
older fact must be the kind of thing a change replaces: a typed attribute (a
slot such as ``user.residence``), or, read here, a sentence that states a
present state of the user or of a person close to them:

* the present simple of a verb that is not an attitude or a saying:
  "User banks with Barclays.", "User works nights at the hospital.",
  "User's son goes to nursery.";
* a possession of the user's that *is* something: "User's internet provider
  is BT.", "User's salary is 40k.";
* "User is" with an ongoing activity (not a frame of mind: "is thinking
  of", "is planning"), a place or a standing: "User is training for a half
  marathon.", "User is in a choir.", "User is a nurse.".

Feelings, opinions and events are not states a change replaces ("User loves
painting.", "User is excited about the trip.", "User went to Paris."): a
newer remark on the same topic is an addition, not a replacement.  Only the
rewritten content (third person, ``Config.user_label``) is read.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..extraction.lexicon import RELATIONS

__all__ = ["states_now"]

#: Verbs of attitude, thought and speech: what they say is an opinion, not a state.
_ATTITUDE = (
    "loves|likes|enjoys|adores|hates|dislikes|thinks|feels|hopes|wants|wishes|says|"
    "believes|knows|finds|misses|needs|appreciates|remembers|plans|means|guesses|"
    "wonders|agrees|prefers|seems|looks|sounds"
)
#: Ongoing activities that are a frame of mind, not a state ("User is thinking of …").
_MINDING = "thinking|hoping|planning|wondering|feeling|considering|looking|trying|going|getting"
#: Words after "is" that make a standing rather than a feeling ("User is single").
_STANDING = "in|at|on|with|from|a|an|allergic|single|married|engaged|divorced|retired|vegan|vegetarian"


@lru_cache(maxsize=8)
def _pattern(user_label: str) -> re.Pattern[str]:
    user = re.escape(user_label)
    relation = "|".join(sorted(RELATIONS, key=len, reverse=True))
    present = rf" (?!(?:is|was|does|has been)\b)(?!(?:{_ATTITUDE})\b)[a-z]+(?<!ss)s\b"
    return re.compile(
        rf"^(?:(?:These days|Nowadays),? )?(?:{user}(?:"
        + present
        + r"|'s (?:[a-z-]+ ){0,3}?[a-z-]+ (?:is|are)\b"
        + rf"| is (?:(?!(?:{_MINDING})\b)[a-z]+ing|{_STANDING})\b"
        + rf")|{user}'s (?:{relation})(?:{present}))"
    )


def states_now(content: str, user_label: str = "User") -> bool:
    """Whether ``content`` (a stored fact, rewritten about ``user_label``) states a
    present state of the user or of someone close to them (module doc)."""
    return _pattern(user_label).search(content) is not None
