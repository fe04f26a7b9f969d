"""Which typed attribute a question asks about.  Pure.

"Where do I live?" asks for ``user.residence``; "What does my sister do?" for
``sister.job``; "Tell me about my family" asks for the ``relational`` memories
(:func:`asked_types`).  Facts that set the asked attribute ("User moved to Munich."
sets ``user.residence``) answer the question even when their words and
vector are far from it, so recall counts the match as evidence of relevance
(``Config.relevance_attribute_weight``).  The attribute names are those of
:mod:`lokulmem.extraction.attribute_rules`; the cues are a table, as data.
"""

from __future__ import annotations

import re

from ..extraction.lexicon import DIETS, PET_KINDS, RELATIONS

__all__ = ["ASKED", "ASKED_TYPES", "asked_attributes", "asked_types"]

_REL = "|".join(sorted((r for r in RELATIONS if "-" not in r), key=len, reverse=True))
#: The subject of the question: "I" or "we" (the user: the rules read "We live in
#: Leeds" and "We bank with Monzo" as the user's slots) or "my / our <relation>".
_SUBJ = rf"(?:(?P<i>i|we)|(?:my|our)\s+(?P<rel>{_REL}))"
#: A possessive subject: "my" or "our" (the user's) or "my / our <relation>'s".
_POSS = rf"(?:(?:my|our)\s+(?P<prel>{_REL})'s|(?P<my>my|our))"

#: (attributes, cue patterns): the question forms that ask for the attributes.
#: A job and an employer answer each other ("I work at Acme as a designer" sets
#: only one of them).
ASKED: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (
        ("residence",),
        (
            rf"\bwhere\s+(?:do|does|did)\s+{_SUBJ}\s+(?:\w+\s+)?(?:live|stay|reside)\b",
            rf"\bwhere\s+{_SUBJ}\s+(?:live|lives)\b",
            rf"\bwhere\s+(?:am|is|are)\s+{_SUBJ}\s+(?:living|based|staying)\b",
            rf"\b(?:which|what)\s+(?:city|town|country|place)\s+(?:do|does|am|is)\s+{_SUBJ}\s+"
            r"(?:live|living|based|staying)\b",
            rf"\b{_POSS}\s+(?:home\s*town|home\s+city|home|address|city|town)\b",
            r"\bwhere(?:'s|\s+is)\s+home(?:\s+for\s+me)?\s*(?:[?.!]|$)",
        ),
    ),
    (
        ("employer", "job"),
        (
            rf"\bwhere\s+(?:do|does)\s+{_SUBJ}\s+(?:\w+\s+)?work\b(?!\s+(?:out|from)\b)",
            rf"\bwho\s+(?:do|does)\s+{_SUBJ}\s+work\s+for\b",
            rf"\b(?:which|what)\s+(?:company|firm|employer)\s+(?:do|does)\s+{_SUBJ}\s+work\b",
            rf"\b{_POSS}\s+(?:employer|company|workplace)\b",
        ),
    ),
    (
        ("job", "employer"),
        (
            # "What does my sister do?", "… for a living": not "What do I do on Sundays?".
            rf"\bwhat\s+(?:do|does)\s+{_SUBJ}\s+do(?:\s+for\s+(?:a\s+)?(?:living|work))?\s*(?:[?.!]|$)",
            # ... and what one did, once retired: "What did I do for a living?"
            rf"\bwhat\s+did\s+{_SUBJ}\s+do\s+for\s+(?:a\s+)?(?:living|work)\b",
            rf"\b{_POSS}\s+(?:job|profession|occupation|career|role|position)\b",
            # ... and how senior: "What level am I at work?"
            rf"\bwhat\s+(?:level|grade|seniority|position|job\s+title|title)\s+(?:am|is)\s+{_SUBJ}\b",
        ),
    ),
    (
        ("household",),
        (
            rf"\bwho\s+(?:do|does)\s+{_SUBJ}\s+live\s+with\b",
            rf"\b(?:do|does)\s+{_SUBJ}\s+live\s+(?:alone|by\s+(?:myself|himself|herself)|on\s+(?:my|his|her)\s+own)\b",
        ),
    ),
    (
        # The hours and the shift pattern answer each other ("What are my working
        # hours?" and "User is on day shifts now.").
        ("work_hours", "shift", "work_days"),
        (
            rf"\bhow\s+(?:many|much)\s+(?:hours\s+)?(?:do|does)\s+{_SUBJ}\s+work\b",
            rf"\b(?:do|does)\s+{_SUBJ}\s+work\s+(?:full|part)[- ]time\b",
            rf"\b{_POSS}\s+(?:working|work)\s+hours\b",
        ),
    ),
    (
        # "What hours do I work?", "When do I work?": the shift and the hours.
        ("shift", "work_hours", "work_days"),
        (
            rf"\bwhat\s+(?:hours|times|days)\s+(?:do|does)\s+{_SUBJ}\s+work\b",
            rf"\bwhen\s+(?:do|does)\s+{_SUBJ}\s+work\b(?!\s+best)",
        ),
    ),
    (
        ("work_days", "work_hours"),
        (rf"\bhow\s+many\s+days\s+(?:a|per)\s+week\s+(?:do|does)\s+{_SUBJ}\s+work\b",),
    ),
    (
        ("work_mode",),
        (
            rf"\bwhere\s+(?:do|does)\s+{_SUBJ}\s+work\s+from\b",
            rf"\b(?:do|does)\s+{_SUBJ}\s+work\s+(?:from\s+home|remotely|in\s+(?:the|an)\s+office)\b",
        ),
    ),
    (
        ("work_leave",),
        (
            rf"\b(?:am|is)\s+{_SUBJ}\s+(?:still\s+)?(?:off\s+(?:work|sick)|signed\s+off|on\s+furlough|"
            r"on\s+(?:[a-z]+\s+)?leave|back\s+(?:at|to)\s+work)\b",
        ),
    ),
    (("sleep",), (rf"\bhow\s+(?:long|much|many\s+hours)\s+(?:do|does)\s+{_SUBJ}\s+sleep\b",)),
    (
        ("commute",),
        (
            rf"\bhow\s+(?:do|does)\s+{_SUBJ}\s+(?:get|go|travel)\s+to\s+(?:work|the\s+office)\b",
            rf"\bhow\s+(?:do|does)\s+{_SUBJ}\s+commute\b",
            rf"\bhow\s+(?:do|does)\s+{_SUBJ}\s+get\s+around\b",
            rf"\b{_POSS}\s+commute\b",
        ),
    ),
    (("name",), (rf"\b{_POSS}\s+name\b", rf"\bwhat\s+(?:am|is)\s+{_SUBJ}\s+called\b")),
    (("age",), (rf"\bhow\s+old\s+(?:am|is)\s+{_SUBJ}\b", rf"\b{_POSS}\s+age\b")),
    (
        ("car",),
        (
            rf"\bwhat\s+(?:car\s+)?(?:do|does)\s+{_SUBJ}\s+drive\b",
            rf"\bwhat\s+car\s+(?:have|has)\s+{_SUBJ}\s+got\b",
            rf"\bwhat\s+car\s+(?:do|does)\s+{_SUBJ}\s+(?:have|own)\b",
            rf"\b{_POSS}\s+car\b(?!\s+(?:insurance|loan|finance|tax|park|parking|keys?|wash|seat|boot)\b)",
        ),
    ),
    (
        ("diet",),
        (
            rf"\bwhat\s+(?:diet|kind of diet)\s+(?:do|does)\s+{_SUBJ}\b",
            rf"\b{_POSS}\s+diet\b",
            rf"\b(?:am|is)\s+{_SUBJ}\s+(?:still\s+)?on\s+a\s+diet\b",
            r"\b(?:dietary|food)\s+(?:needs|requirements|restrictions)\b",
            rf"\b(?:am|is)\s+{_SUBJ}\s+(?:still\s+)?(?:an?\s+)?(?:{'|'.join(sorted(DIETS))})\b",
            rf"\b(?:do|does)\s+{_SUBJ}\s+(?:still\s+)?eat\s+(?:meat|fish|dairy|eggs|animal\s+products)\b",
        ),
    ),
    (
        ("work_team",),
        (
            rf"\b(?:which|what)\s+team\s+(?:am|is)\s+{_SUBJ}\s+(?:on|in)\b",
            rf"\b{_POSS}\s+team\s+at\s+work\b",
        ),
    ),
    (
        ("streaming",),
        (
            r"\b(?:which|what)\s+streaming\s+(?:service|services|app|platform|subscription)s?\b",
            rf"\b{_POSS}\s+streaming\s+(?:service|app|platform|subscription)\b",
        ),
    ),
    (
        ("editor",),
        (
            rf"\b(?:which|what)\s+(?:code\s+|text\s+)?(?:editor|ide)\s+(?:do|does|am|is)\s+{_SUBJ}\b",
            rf"\b{_POSS}\s+(?:code\s+|text\s+)?(?:editor|ide)\b",
        ),
    ),
    (
        ("gp",),
        (
            r"\bwho(?:'s|\s+is)\s+my\s+(?:gp|family\s+doctor|doctor)\b",
            r"\b(?:which|what)\s+(?:gp|doctor'?s?|surgery|practice)\s+(?:am\s+i|do\s+i\s+go\s+to)\b",
        ),
    ),
    (
        ("chronotype",),
        (
            rf"\bwhen\s+(?:do|does)\s+{_SUBJ}\s+work\s+best\b",
            rf"\b(?:am|is)\s+{_SUBJ}\s+(?:a|an)\s+(?:morning|evening|night)\s+(?:person|owl)\b",
            rf"\b(?:am|is)\s+{_SUBJ}\s+an?\s+(?:early\s+bird|night\s+owl)\b",
        ),
    ),
    (("provider:mortgage",), (r"\b(?:my|our)\s+mortgage\b",)),
    (("provider:car-insurance",), (r"\b(?:my|our)\s+car\s+insurance\b",)),
    (("provider:home-insurance",), (r"\b(?:my|our)\s+(?:home|house|contents)\s+insurance\b",)),
    (
        ("school",),
        (
            rf"\b(?:which|what)\s+(?:university|college|school)\s+(?:do|does|am|is)\s+{_SUBJ}\b",
            rf"\bwhere\s+(?:do|does|am|is)\s+{_SUBJ}\s+"
            r"(?:study|studying|go to (?:university|college|school))\b",
            rf"\b{_POSS}\s+(?:university|college)\b",
        ),
    ),
    (
        ("study",),
        (
            rf"\bwhat\s+(?:am|is|are)\s+{_SUBJ}\s+studying\b",
            rf"\bwhat\s+(?:do|does)\s+{_SUBJ}\s+study\b",
            rf"\b(?:am|is)\s+{_SUBJ}\s+(?:still\s+)?(?:studying|doing\s+(?:a|any)\s+(?:course|degree))\b",
            rf"\b{_POSS}\s+(?:degree|major|course\s+of\s+study|field\s+of\s+study)\b",
        ),
    ),
    (
        ("rent",),
        (rf"\b{_POSS}\s+rent\b", rf"\bhow\s+much\s+rent\s+(?:do|does)\s+{_SUBJ}\s+pay\b"),
    ),
    (("weight",), (rf"\bhow\s+much\s+(?:do|does)\s+{_SUBJ}\s+weigh\b", rf"\b{_POSS}\s+weight\b")),
    (
        ("bedtime",),
        (
            rf"\b(?:what\s+time|when)\s+(?:do|does)\s+{_SUBJ}\s+(?:usually\s+)?(?:go\s+to\s+bed|go\s+to\s+sleep)\b",
            rf"\b{_POSS}\s+bedtime\b",
        ),
    ),
    (("birthday",), (rf"\b{_POSS}\s+birthday\b", rf"\bwhen\s+(?:was|were)\s+{_SUBJ}\s+born\b")),
    (("birthplace",), (rf"\bwhere\s+(?:was|were)\s+{_SUBJ}\s+born\b",)),
    (("origin",), (rf"\bwhere\s+(?:do|does|am|is)\s+{_SUBJ}\s+(?:come\s+)?from\b",)),
    (
        ("reading",),
        (
            rf"\bwhat\s+(?:book\s+|novel\s+)?(?:am|is)\s+{_SUBJ}\s+(?:currently\s+|still\s+|now\s+)?reading\b",
            rf"\bwhat(?:'s|\s+is)\s+{_POSS}\s+(?:current\s+)?(?:book|read)\b",
        ),
    ),
    (
        ("watching",),
        (
            rf"\bwhat\s+(?:show|series|tv\s+show|programme|program|box\s+set)\s+(?:am|is)\s+{_SUBJ}\s+"
            r"(?:currently\s+|still\s+|now\s+)?watching\b",
            rf"\bwhat\s+(?:am|is)\s+{_SUBJ}\s+(?:currently\s+|still\s+|now\s+)?watching\b",
        ),
    ),
    (
        ("team",),
        (
            rf"\b(?:which|what)\s+(?:football\s+|rugby\s+|baseball\s+)?team\s+(?:do|does)\s+{_SUBJ}\s+support\b",
            rf"\bwho\s+(?:do|does)\s+{_SUBJ}\s+support\b",
        ),
    ),
    (
        ("bank",),
        (
            rf"\b(?:which|what)\s+bank\s+(?:do|does|am|is)\s+{_SUBJ}\b",
            rf"\bwho\s+(?:do|does)\s+{_SUBJ}\s+bank\s+with\b",
            rf"\b{_POSS}\s+bank\b(?!\s+(?:holiday|balance|card|details|account\s+number)\b)",
        ),
    ),
    (
        ("shift",),
        (
            rf"\b(?:which|what)\s+shifts?\s+(?:do|does|am|is)\s+{_SUBJ}\b",
            rf"\b(?:do|does)\s+{_SUBJ}\s+(?:still\s+)?work\s+(?:nights|days|lates|earlies|night\s+shifts?)\b",
            rf"\b{_POSS}\s+shifts?\b",
        ),
    ),
    (
        ("home_language",),
        (rf"\bwhat\s+languages?\s+(?:do|does)\s+{_SUBJ}\s+speak\s+at\s+home\b",),
    ),
    (
        ("code_language",),
        (
            rf"\bwhat\s+(?:programming\s+|coding\s+)language\s+(?:do|does)\s+{_SUBJ}\b",
            rf"\bwhat\s+language\s+(?:do|does)\s+{_SUBJ}\s+(?:code|program)\s+in\b",
        ),
    ),
    (
        ("relationship_status",),
        (
            rf"\b{_POSS}\s+relationship\b",
            rf"\b(?:am|is)\s+{_SUBJ}\s+(?:seeing|dating)\s+(?:anyone|someone|somebody)\b",
            rf"\b(?:am|is)\s+{_SUBJ}\s+(?:single|married|divorced|engaged)\b",
            rf"\b(?:am|is)\s+{_SUBJ}\s+in\s+a\s+relationship\b",
            rf"\b(?:am|is)\s+{_SUBJ}\s+still\s+(?:married\s+to|together\s+with|with\s+(?:my|his|her)\s+"
            r"(?:husband|wife|partner|boyfriend|girlfriend|fianc[ée]e?|spouse))\b",
        ),
    ),
    (
        ("platform:phone",),
        (
            rf"\b(?:what|which)\s+(?:kind\s+of\s+|type\s+of\s+)?(?:phone|mobile)\s+(?:do|does|have|has)\s+{_SUBJ}\b",
            rf"\b(?:what|which)\s+(?:phone|mobile)\s+(?:am|is)\s+{_SUBJ}\s+(?:on|using)\b",
        ),
    ),
    (
        ("platform:computer",),
        (
            rf"\b(?:what|which)\s+(?:operating\s+system|os|computer|laptop)\s+(?:do|does|am|is|have|has)\s+{_SUBJ}\b",
        ),
    ),
    (
        ("provider:mobile",),
        (
            rf"\b(?:which|what)\s+(?:mobile\s+|phone\s+|cell\s+)?(?:network|carrier)\s+(?:am|is)\s+{_SUBJ}\s+on\b",
            rf"\b{_POSS}\s+(?:mobile|phone|cell)\s+(?:network|provider|carrier|plan|contract)\b",
        ),
    ),
    (
        ("provider:internet",),
        (
            rf"\b{_POSS}\s+(?:internet|broadband|wi-?fi)\s+(?:provider|company|plan|contract|supplier)\b",
            rf"\b(?:which|what)\s+(?:broadband|internet|wi-?fi)(?:\s+provider)?\s+(?:do|does|am|is)\s+{_SUBJ}\b",
        ),
    ),
    (
        ("provider:energy",),
        (rf"\b{_POSS}\s+(?:energy|electricity|gas)\s+(?:provider|company|supplier|plan|tariff)\b",),
    ),
    # "What pets do I have?" asks for every ``pet_name`` slot: the rules qualify a
    # pet's name by its kind (``user.pet_name:cat``).
    (
        tuple(f"pet_name:{kind}" for kind in PET_KINDS),
        (
            rf"\b(?:what|which)\s+(?:pets?|animals?)\s+(?:do|does)\s+{_SUBJ}\s+(?:have|own)\b",
            rf"\b(?:do|does)\s+{_SUBJ}\s+(?:have|own)\s+(?:a|an|any)\s+pets?\b",
            rf"\b{_POSS}\s+pets?(?:'s|'|\s+names?)?(?!\w)",
        ),
    ),
)
#: "What's my dog called?" asks for ``user.pet_name:dog``.
_PETS = "|".join(PET_KINDS)
_ONE_PET = re.compile(
    rf"\b(?:what(?:'s|\s+is)|who(?:'s|\s+is))\s+(?:my|our)\s+(?P<pet>{_PETS})(?:'s\s+name|\s+called)\b"
    rf"|\b(?:what|which)\s+(?:kind\s+of\s+|breed\s+of\s+)?(?P<kind>{_PETS})\s+(?:do|have)\s+(?:i|we)\s+(?:have|own|got)\b",
    re.IGNORECASE,
)

#: "How many cats do I have?" asks for ``user.count:cats``.
_HOW_MANY = re.compile(
    r"\bhow\s+many\s+(?P<noun>kids|children|sons|daughters|brothers|sisters|siblings|grandchildren|cats|dogs)"
    r"\s+(?:do|have)\s+(?:i|we)\b",
    re.IGNORECASE,
)

#: "Do I have a dog?" asks for the dog's name and the count of dogs.
_HAVE_PET = re.compile(
    rf"\b(?:do|does)\s+(?:i|we)\s+(?:still\s+)?(?:have|own)\s+(?:a|an|any)\s+(?P<kind>{_PETS})s?\b",
    re.IGNORECASE,
)
#: "Do I have children?" asks for the counts of kids and of children.
_HAVE_KIDS = re.compile(r"\b(?:do|does)\s+(?:i|we)\s+have\s+(?:any\s+)?(?:kids|children)\b", re.IGNORECASE)
#: "Do I have a girlfriend?" asks for that relation and the relationship status.
_HAVE_PARTNER = re.compile(
    r"\b(?:do|does)\s+i\s+(?:still\s+)?have\s+an?\s+"
    r"(?P<who>girlfriend|boyfriend|partner|husband|wife|fianc[ée]e?)\b",
    re.IGNORECASE,
)
#: "Which gym do I go to?", "Where is my office?" ask for ``user.place:gym`` / ``:office``.
_PLACE = re.compile(
    r"\b(?:which|what)\s+(?P<place>gym|office|studio)\s+(?:do|does|am|is)\s+i\b"
    r"|\bwhere(?:'s|\s+is)\s+my\s+(?P<at>office|gym|studio|workplace)\b",
    re.IGNORECASE,
)
#: "What's my favourite band?" asks for ``user.favorite:band`` (the rules' key).
_FAVORITE = re.compile(
    r"\bmy\s+(?:absolute\s+)?(?:current\s+)?favou?rite\s+(?P<fav>[a-z]+(?:\s+[a-z]+)?)"
    r"(?=\s*(?:[?.!,]|$)|\s+(?:at\s+the\s+moment|now|these\s+days|right\s+now|of\s+all\s+time)\b)",
    re.IGNORECASE,
)

#: "Who is my manager?" asks for ``user.relation:manager``.
_WHO_IS = re.compile(rf"\bwho(?:'s|\s+is|\s+was)\s+my\s+(?P<who>{_REL})\b", re.IGNORECASE)
#: The relations whose question is answered by the relationship status too.
_PARTNER = re.compile(r"girlfriend|boyfriend|partner|husband|wife|spouse|fianc[ée]e?", re.IGNORECASE)
#: "Who is my best friend?" asks for ``user.relation:best-friend`` (the rules' one slot
#: for a best or closest friend).
_BEST_FRIEND = re.compile(r"\bwho(?:'s|\s+is|\s+was)\s+my\s+(?:best|closest)\s+friend\b", re.IGNORECASE)

_COMPILED = tuple(
    (attributes, tuple(re.compile(p, re.IGNORECASE) for p in patterns)) for attributes, patterns in ASKED
)


def _entity(m: re.Match[str]) -> str:
    groups = m.groupdict()
    rel = groups.get("rel") or groups.get("prel")
    return rel.lower() if rel else "user"


def asked_attributes(text: str) -> frozenset[str]:
    """The attribute keys (``"user.residence"``, ``"sister.job"``) ``text`` asks for."""
    found: set[str] = set()
    for attributes, patterns in _COMPILED:
        for pattern in patterns:
            for m in pattern.finditer(text):
                found.update(f"{_entity(m)}.{attribute}" for attribute in attributes)
    for m in _WHO_IS.finditer(text):
        who = m.group("who").lower()
        found.add(f"user.relation:{who}")
        if _PARTNER.fullmatch(who):  # "Who is my wife?": "User is married to Ngozi." answers it
            found.add("user.relationship_status")
    found.update(f"user.count:{m.group('noun').lower()}" for m in _HOW_MANY.finditer(text))
    if _BEST_FRIEND.search(text):
        found.add("user.relation:best-friend")
    found.update(
        f"user.pet_name:{(m.group('pet') or m.group('kind')).lower()}" for m in _ONE_PET.finditer(text)
    )
    found.update(_have(text))
    return frozenset(found)


def _have(text: str) -> set[str]:
    """The slots of the "Do I have …?", place and favourite questions."""
    found: set[str] = set()
    for m in _HAVE_PET.finditer(text):
        kind = m.group("kind").lower()
        found.update((f"user.pet_name:{kind}", f"user.count:{kind}s"))
    if _HAVE_KIDS.search(text):
        found.update(("user.count:kids", "user.count:children"))
    for m in _HAVE_PARTNER.finditer(text):
        found.update((f"user.relation:{m.group('who').lower()}", "user.relationship_status"))
    found.update(f"user.place:{(m.group('place') or m.group('at')).lower()}" for m in _PLACE.finditer(text))
    found.update(f"user.favorite:{m.group('fav').lower()}" for m in _FAVORITE.finditer(text))
    return found


#: (memory type, cue patterns): requests about a whole kind of memory.
ASKED_TYPES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("relational", (r"\bmy\s+(?:family|relatives|folks|loved ones|people)\b",)),
    ("profession", (r"\b(?:about|on|and)\s+my\s+(?:work|job|career)\b",)),
    ("identity", (r"\b(?:about|of)\s+(?:me|myself)\b", r"\bwho\s+am\s+i\b")),
    (
        "preference",
        (
            r"\bmy\s+(?:preferences|likes|tastes|hobbies|interests)\b",
            r"\bwhat\s+do\s+i\s+(?:like|prefer|enjoy)\b",
        ),
    ),
    ("project", (r"\bmy\s+projects\b",)),
    ("temporal", (r"\bmy\s+(?:plans|schedule|agenda)\b",)),
)
_COMPILED_TYPES = tuple(
    (kind, tuple(re.compile(p, re.IGNORECASE) for p in patterns)) for kind, patterns in ASKED_TYPES
)


def asked_types(text: str) -> frozenset[str]:
    """The memory types ``text`` asks about as a whole ("Tell me about my family")."""
    return frozenset(kind for kind, patterns in _COMPILED_TYPES if any(p.search(text) for p in patterns))
