"""Whether a stored fact states how things stand (a ranking rule's test).

Newer first lets a newer memory that tells a change take the place of an
older, relevant fact (:mod:`lokulmem.retrieval.newer`, inheritance).  The
older fact must be the kind of thing a change replaces: a typed attribute (a
slot such as ``user.residence``), or, read here, a sentence that states a
present state of the user or of a person close to them:

* the present simple of a verb that is not an attitude or a saying:
  "User banks with Barclays.", "User works nights at the hospital.",
  "User's son goes to nursery.", "User's grandson Alfie stays with User on
  Wednesdays." (a relation may be named);
* a possession of the user's that *is* something: "User's internet provider
  is BT.", "User's salary is 40k.";
* "User is" with an ongoing activity (not a frame of mind: "is thinking
  of", "is planning"), a place or a standing: "User is training for a half
  marathon.", "User is in a choir.", "User is a nurse.".

Feelings, opinions and events are not states a change replaces ("User loves
painting.", "User is excited about the trip.", "User went to Paris."): a
newer remark on the same topic is an addition, not a replacement.  Only the
rewritten content (third person, ``Config.user_label``) is read.

:func:`replaceable` is wider, for the moves of newer first that stay near the
top of the ranking: beside a present state, anything the user "is" that is
not a feeling or a mood ("User is 34.", "User is the team lead."), what is
the user's ("Pizza is User's favourite food."), a state said in the negative or
as lasting ("User doesn't eat meat.", "User has been vegan for years."), the
user's standing opinion of something ("User hates olives." → "User loves
olives now.") and a present property of something of theirs ("User's phone
number ends in 441.") can be changed by a newer fact.  What it leaves out are
the remarks of a conversation: events, feelings about an occasion, thanks,
other people's doings ("Baking makes … calm", "User entered a chess match on
Sunday.", "User is glad the evening went well."), which a newer remark on the
same topic adds to and never makes out of date (docs/tuning.md entry 58).
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..extraction.lexicon import RELATIONS

__all__ = ["replaceable", "states_now"]

#: Verbs of attitude, thought and speech: what they say is an opinion, not a state.
_ATTITUDE = (
    "loves|likes|enjoys|adores|hates|dislikes|thinks|feels|hopes|wants|wishes|says|"
    "believes|knows|finds|misses|needs|appreciates|remembers|plans|means|guesses|"
    "wonders|agrees|prefers|seems|looks|sounds"
)
#: Verbs of a standing opinion of something, which a change of mind replaces.
_OPINION = "loves|likes|hates|dislikes|prefers|enjoys|adores"
#: A state said in the negative or as lasting: "User doesn't eat meat.", "User
#: has been vegan for years." (a change replaces these too).
_NEGATED = "doesn't|does not|isn't|is not|never|no longer|can't stand|cannot stand|has been|has had"
#: What follows "User is" in a feeling or a mood, not a standing: "User is glad
#: the evening went well.", "User is so excited." (a participle, "User is
#: thrilled", is one too).
_FEELING = (
    "glad|happy|sad|excited|sure|proud|grateful|thankful|sorry|worried|nervous|"
    "stoked|pumped|afraid|scared|upset|angry|tired|bored|lucky|curious|eager|keen|"
    "ready|so|really|too|super|very|quite|pretty|totally|always|also|just|not|"
    "loving|enjoying|having|doing|about|up|off|out|here|there|able|unable|like"
)
#: Adverbs that may stand between the user and an opinion verb.
_DEGREE = "really|absolutely|just|still|actually|totally"
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
        # "User's internet provider is BT.", "User's flight to Rome is on the 12th."
        + r"|'s (?:[A-Za-z-]+ ){0,3}?[A-Za-z-]+ (?:is|are)\b"
        + rf"| is (?:(?!(?:{_MINDING})\b)[a-z]+ing|{_STANDING})\b"
        # "User's son goes to nursery.", "User's grandson Alfie stays with User on Wednesdays."
        + rf")|{user}'s (?:{relation})(?: [A-Z][\w'-]*)?(?:{present}))"
    )


def states_now(content: str, user_label: str = "User") -> bool:
    """Whether ``content`` (a stored fact, rewritten about ``user_label``) states a
    present state of the user or of someone close to them (module doc)."""
    return _pattern(user_label).search(content) is not None


@lru_cache(maxsize=8)
def _wider(user_label: str) -> re.Pattern[str]:
    user = re.escape(user_label)
    return re.compile(
        # "Pizza is User's favourite food."
        rf"^(?:[A-Z][\w'-]*(?: [\w'-]+){{0,4}} (?:is|are) {user}'s\b"
        # "User is 34.", "User is the team lead." (not "User is glad", "is thrilled")
        rf"|{user} is (?!(?:{_FEELING}|{_MINDING}|[a-z]+ed)\b)[\w-]"
        # "User hates olives.", "User doesn't eat meat.", "User has been vegan …"
        rf"|{user} (?:(?:(?:{_DEGREE}) )?(?:{_OPINION})|{_NEGATED})\b"
        # "User's phone number ends in 441." (not "User's boss says hi.")
        rf"|{user}'s (?:[a-z-]+ ){{0,3}}?[a-z-]+ (?!(?:is|was|has|does|{_ATTITUDE})\b)[a-z]+(?<!ss)s\b)"
    )


def replaceable(content: str, user_label: str = "User") -> bool:
    """Whether ``content`` states something a newer fact can make out of date: a
    present state (:func:`states_now`), what the user is (not a feeling), what is
    the user's, a state said in the negative or as lasting, the user's opinion of
    something, or a property of something of the user's (module doc)."""
    return states_now(content, user_label) or _wider(user_label).search(content) is not None
