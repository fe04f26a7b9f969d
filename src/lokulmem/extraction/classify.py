"""Memory type classification: rules first, embedding prototypes as fallback.

A memory may carry several types ("My sister Maya lives in Paris" is
relational and location).  Rules are keyword/regex tests per default type;
custom types match on their ``keywords``.  When no rule fires, the fact takes
the type whose prototype sentences (the built-in examples below, plus each
custom type's ``examples``) are nearest in embedding space.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import numpy as np
import numpy.typing as npt

from ..config import CustomType
from .attributes import Attribute
from .features import Features
from .lexicon import FEELING_FILLERS, FIRST_NAMES, JOB_WORDS, LATIN_LETTERS, QUERY_STOPWORDS, RELATIONS

__all__ = ["PROTOTYPES", "classify_by_prototype", "classify_by_rules", "substance"]

_RULES: Mapping[str, re.Pattern[str]] = {
    "identity": re.compile(
        r"\bmy name\b|\bcall me\b|\bi go by\b|\bi'?m \d{1,3}\b|\byears old\b|\bborn (?:in|on)\b|"
        r"\bmy birthday\b|\bmy pronouns\b|\b(?:she/her|he/him|they/them)\b|\bmy (?:gender|"
        r"religion|nationality|ethnicity)\b|\bi'?m (?:a )?(?:man|woman|non-binary|trans|"
        r"christian|muslim|jewish|hindu|buddhist|atheist)\b|\bi identify as\b"
        # Lasting health conditions are part of who the user is (PersonaExt health_status).
        r"|\b(?:diabetes|diabetic|asthma|asthmatic|epilepsy|deaf|blind|hearing|eyesight|disability|"
        r"disabled|wheelchair|chronic|arthritis|migraines?|allergy|allergies|adhd|autism|autistic|"
        r"dyslexia|dyslexic|celiac|coeliac|cancer|surgery|injury|injured|condition|illness|disease|allergic|"
        r"insomnia|depression|anxiety disorder|bipolar|ptsd|glasses|paralyzed|amputee|pregnant)\b"
        r"|\bsuffer(?:s|ing)? from\b|\bocd\b|\bfibromyalgia\b|\boverweight\b|\bhypochondriac\b|"
        r"\b(?:disorder|syndrome|diagnosed)\b|"
        r"\bbro(?:ke|ken) (?:my |his |her )?(?:arm|leg|wrist|ankle|back)\b"
        # What the user owns and drives is part of who they are (not a job).
        r"|\bi (?:drive|own|ride)\b",
        re.I,
    ),
    "location": re.compile(
        r"\b(?:live|lives|living|reside|based|moved|relocat\w*|hometown|neighbou?rhood|"
        r"timezone|time zone|grew up|i'?m from|come from|my (?:city|town|country|home|house|"
        r"apartment|flat|address))\b",
        re.I,
    ),
    "profession": re.compile(
        # "work out" is exercise, not a job.
        r"\b(?:work|works|working)\b(?!\s+out\b)|"
        r"\b(?:job|career|employer|employed|company|office|colleague|"
        r"coworker|co-worker|boss|salary|promot\w+|hired|intern\w*|profession|occupation|"
        r"client|clients|team lead|my team|startup|business)\b|\bi'?m an? (?:"
        + "|".join(sorted(JOB_WORDS))
        + r")\b",
        re.I,
    ),
    "preference": re.compile(
        r"\b(?:prefer|prefers|favou?rite|like|likes|love|loves|hate|hates|enjoy|enjoys|"
        r"dislike|dislikes|can'?t stand|rather|fan of|into|allergic|vegetarian|vegan|"
        r"always|never|please|"
        # What one watches is a taste: "just watching the office", "a huge GoT fan", "my fave".
        r"watch|watches|watching|binge\w*|fan|fave|fav|favs|go-to show|tv show|my show|"
        # A pastime is a taste too: "I knit", "I go hiking", "I work out".
        r"hobby|hobbies|pastime|for fun|(?:free|spare) time|work(?:s|ing)? out|workout|"
        r"singing|dancing|knitting|crocheting|hiking|swimming|surfing|skiing|snowboarding|fishing|"
        r"hunting|camping|baking|gardening|jogging|cycling|biking|climbing|gaming|sewing|skating|"
        r"bowling|golfing|yoga|pilates|photography|karaoke|cosplay|woodworking|scrapbooking|"
        r"shopping|reading|traveling|travelling|nature walks?|long walks?|my garden|beadwork|"
        r"play(?:s|ing)? (?:\w+ ){0,3}(?:games?|chess|piano|guitar|violin|drums|cards|soccer|football|"
        r"basketball|tennis|golf|baseball|hockey)|"
        r"go (?:fishing|hiking|camping|swimming|surfing|skiing|running|jogging|bowling|dancing|"
        r"biking|cycling|climbing|sailing|kayaking|skating|shopping)|"
        r"i\s+(?:\w+ly\s+|also\s+|still\s+)?(?:play|knit|paint|draw|sing|dance|hike|swim|surf|ski|"
        r"skate|bake|cook|garden|fish|hunt|camp|jog|bike|cycle|climb|golf|bowl|sew|crochet|"
        r"collect|volunteer|meditate|journal|skateboard|snowboard))\b",
        re.I,
    ),
    "project": re.compile(
        r"\b(?:working on|building|build|project|launch\w*|deadline|goal|goals|plan to|"
        r"planning|trying to|learning|studying|writing (?:a|my)|thesis|dissertation|"
        r"preparing|presentation|pitch|side project|app|prototype|course|training for)\b",
        re.I,
    ),
    "temporal": re.compile(
        r"\b(?:this week|this weekend|today|tonight|tomorrow|next (?:week|month|year|weekend)|"
        r"deadline|due|upcoming|soon|right now|at the moment|currently|these days)\b",
        re.I,
    ),
    "emotional": re.compile(
        r"\b(?:feel|feeling|felt|stressed|stress|anxious|anxiety|happy|sad|excited|worried|"
        r"tired|exhausted|overwhelmed|frustrated|nervous|lonely|depressed|angry|upset|proud|"
        r"grateful|scared|afraid|thrilled|burned out|burnt out|heartbroken|miserable|"
        r"content|relieved|hopeful|bored)\b",
        re.I,
    ),
}
# Events that are time-sensitive while ahead ("I have an interview on Friday")
# but history once told in the past ("Last week I had an interview"): the
# latter is not temporal context (PRD §7: "this week", deadlines).
_EVENT_NOUNS = re.compile(r"\b(?:appointment|meeting|trip|exam|interview|flight)s?\b", re.I)
PAST_CUES = re.compile(
    r"\b(?:yesterday|ago|last (?:night|week|weekend|month|year|monday|tuesday|wednesday|thursday|"
    r"friday|saturday|sunday|time)|went|took|had|attended|visited|did|was|were|came back|got back)\b",
    re.I,
)
_FUTURE_CUES = re.compile(r"\b(?:will|going to|gonna|plan|planning|have an?|got an?|upcoming|next)\b", re.I)
#: A word, in the letters of Latin-script languages ("Zürich" is one word).
_WORD = re.compile(rf"[{LATIN_LETTERS}][{LATIN_LETTERS}'\-]*", re.IGNORECASE)

# A relation word counts when it is someone's ("my manager", "our kids"), not
# a job title ("I work as a product manager").
_RELATION_WORDS = re.compile(
    r"\b(?:my|our|his|her|their|user's|have|has|got)\s+(?:\w+\s+)?(?:"
    + "|".join(sorted(map(re.escape, RELATIONS)))
    + r")\b",
    re.I,
)

#: Prototype facts per default type (fallback classifier).
PROTOTYPES: Mapping[str, tuple[str, ...]] = {
    "identity": ("User's name is Alex.", "User is 34 years old.", "User's pronouns are they/them."),
    "location": ("User lives in Berlin.", "User moved to a new city.", "User is from Canada."),
    "profession": (
        "User works as a product manager.",
        "User is a software engineer.",
        "User works at a startup.",
    ),
    "preference": (
        "User prefers concise answers.",
        "User loves Italian food.",
        "User enjoys hiking on weekends.",
        "User plays the guitar for fun.",
    ),
    "project": (
        "User is building a mobile app.",
        "User is preparing a board presentation.",
        "User is learning Spanish.",
    ),
    "temporal": (
        "User has a deadline this Friday.",
        "User has a doctor's appointment tomorrow.",
        "User is travelling next week.",
    ),
    "relational": ("User's sister is Maya.", "User's co-founder is Sam.", "User has two kids."),
    "emotional": (
        "User is feeling stressed.",
        "User is excited about the trip.",
        "User feels lonely lately.",
    ),
}


def classify_by_rules(
    sentence: str,
    features: Features,
    attribute: Attribute | None,
    custom_types: Sequence[CustomType] = (),
) -> list[str]:
    """Types whose rules fire, in the PRD's order, then custom types."""
    found: list[str] = []
    for name, rule in _RULES.items():
        if rule.search(sentence):
            found.append(name)
    if (
        "temporal" not in found
        and _EVENT_NOUNS.search(sentence)
        and (_FUTURE_CUES.search(sentence) or not PAST_CUES.search(sentence))
    ):
        found.append("temporal")
    if features.preference or features.negated_preference:
        found.append("preference")
    if (
        features.date_time
        and "temporal" not in found
        and re.search(r"\b(?:next|this|tomorrow|tonight|in \d|upcoming|coming)\b", sentence, re.I)
    ):
        found.append("temporal")
    own_name = attribute is not None and attribute.key == "user.name"
    if _RELATION_WORDS.search(sentence) or (features.person_names and not own_name):
        found.append("relational")
    if attribute is not None:
        attr = attribute.key.split(".", 1)[1]
        entity = attribute.key.split(".", 1)[0]
        if attr in ("name", "age"):
            found.append("identity")
        elif attr in ("residence", "household"):
            found.append("location")
        elif attr in ("employer", "job"):
            found.append("profession")
        elif attr.startswith(("prefers", "favorite")) or attr == "diet":
            found.append("preference")
        if entity != "user" or attr.startswith("relation"):
            found.append("relational")
    for ct in custom_types:
        for kw in ct.keywords:
            if re.search(r"\b" + re.escape(kw) + r"\b", sentence, re.I):
                found.append(ct.name)
                break
    order = [*_RULES, "relational"]
    ranked = sorted(dict.fromkeys(found), key=lambda t: order.index(t) if t in order else len(order))
    return ranked


def classify_by_prototype(
    vector: npt.NDArray[np.float32],
    prototypes: Mapping[str, npt.NDArray[np.float32]],
) -> str | None:
    """The type whose prototype rows are nearest to ``vector`` (max cosine)."""
    best, best_sim = None, -2.0
    for name, mat in prototypes.items():
        if mat.size == 0:
            continue
        sim = float(np.max(mat @ vector))
        if sim > best_sim:
            best, best_sim = name, sim
    return best


def substance(sentence: str, transient: Sequence[str]) -> int:
    """Content words of ``sentence`` besides the cues of its ``transient`` types.

    "I'm so excited too" has none: it is a passing state.  "I felt great
    presenting my design to the board" has several (presenting, design, board): it also
    tells of something that lasts, so the caller backs its fast-decaying
    type with a durable one.  Function words, fillers and capitalised words
    (names) are not counted.
    """
    cues = [_RULES[t] for t in transient if t in _RULES]
    count = 0
    for i, word in enumerate(_WORD.findall(sentence)):
        low = word.lower().removesuffix("'s")
        if (
            len(low) < 3
            or "'" in low  # contractions: I'm, don't, it'll
            or low in QUERY_STOPWORDS
            or low in FEELING_FILLERS
            or low in FIRST_NAMES
            or (i and word[0].isupper())
        ):
            continue
        if any(rule.search(low) for rule in cues):
            continue
        count += 1
    return count
