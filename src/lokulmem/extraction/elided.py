"""The "I" that chat leaves out.  Pure.

People drop the subject when they talk about themselves: "Went to the
farmers' market with my niece.", "Just booked a salsa class.", "Been
swamped with the house move.", "Heading to the coast next weekend.", "Love
baking sourdough on Sundays.", "Nervous about the interview tomorrow."  Read as
written, such a sentence names no one, so extraction takes it for a general
statement about the world and drops it, or stores "Went to the farmers' market
with User's niece."  :func:`restore_subject` puts the "I"
back when the sentence opens with a verb form that only a dropped "I" explains
(capitalised or not: chat written in lower case drops it too, "started swimming
instead"; a fragment that opens with "and" or "then" is left as it is):

* a past tense (an irregular one or a regular "-ed" verb): "I went …";
* "been": "I've been …";
* a present participle: "I'm planning …";
* a verb of liking or wanting in the present: "I love …";
* an adjective of how one feels, followed by what it is about: "I'm excited to …";
* a first or last day (week, shift …) somewhere, with no verb of its own: "First
  week back at work after maternity leave.", "Last day at Deloitte today!" → "My …";
* "still" before where one is, with no verb of its own: "Still at Stripe, busy as
  ever." → "I'm still at Stripe, …";
* the kind of day (week, shift …) one had somewhere: "Long day at Canonical, but the
  release went out." → "I had a long day at Canonical, …".

:func:`own_kin` puts back the "my" that a relative called by what one calls
them goes without: "Mum moved to Spain.", "Gran is in a care home now." →
"My mum …", "My gran …" (capitalised, with no determiner before it; "Thanks,
Mum!" stays chit-chat either way).

It leaves alone what may be something else, or nothing to remember: short
reactions that end on what the listener said ("Loved it!", "Enjoyed reading
that."), an "-ing" phrase whose clause has a verb of its own ("Watching that
film made me cry."), a word followed within
``_SUBJECT_WINDOW`` words by a verb of its own ("Swimming is fun.", "Love is
blind."), imperatives ("Enjoy your trip!" is not in the lists), "-ing" nouns
and adjectives ("Morning!", "Amazing view!"), "like" before a pronoun ("Like I
said, …") and an adjective followed by a noun ("Happy birthday!").
"""

from __future__ import annotations

import re

from .lexicon import IRREGULAR_PAST, LATIN_LETTERS

__all__ = ["is_past_tense", "own_kin", "restore_subject"]

#: What one calls one's own relatives, used as a name ("Mum", "Gran", "Grandad").
_KIN_NAMES = re.compile(
    r"(?<![\w'])(?<!\b[Mm]y )(?<!\b[Oo]ur )(?<!\b[Yy]our )(?<!\b[Hh]is )(?<!\b[Hh]er )(?<!\b[Tt]he )"
    r"(?<!\b[Tt]heir )(?<!\b[Aa] )"
    r"(Mum|Mom|Mummy|Mommy|Dad|Daddy|Gran|Granny|Grandma|Nan|Nana|Nanna|Grandad|Granddad|Grandpa)\b(?![-'’]\w{2,})"
)

#: A relative spoken to ("Thanks, Mum!"): after a comma or a greeting, before the end.
_ADDRESS_END = re.compile(r"\s*(?:[!?.,]|$)")
_ADDRESS_BEFORE = re.compile(
    r"(?:,|\b(?:thanks|thank you|hi|hey|hello|bye|night|morning|love you|sorry))\s*$", re.IGNORECASE
)


def own_kin(sentence: str) -> str:
    """``sentence`` with "my" before each relative called by name ("Mum moved to
    Spain." → "My mum moved to Spain."), or as it was."""

    def mine(m: re.Match[str]) -> str:
        before, after = sentence[: m.start()], sentence[m.end() :]
        if _ADDRESS_END.match(after) and (not before.strip() or _ADDRESS_BEFORE.search(before)):
            return m.group(0)  # "Thanks, Mum!", "Mum, Dad and I …": said to them, or a list
        return ("My " if m.start() == 0 else "my ") + m.group(1).lower()

    return _KIN_NAMES.sub(mine, sentence)


#: Adverbs a dropped-subject sentence may open with ("Just got back", "Finally finished").
_LEAD_ADVERBS = frozenset(
    "just finally recently also still really totally actually already currently literally "
    "officially honestly seriously".split()
)
#: Past tenses spelt like their present, read as past only before the words that
#: make them so ("Quit my job.", "Cut right down.", "Hurt my back.", "Split up with
#: Sam."; not "Cut the intro." or "Split this into two."): an empty set, before any word.
_BASE_FORM_PAST: dict[str, frozenset[str]] = {
    "quit": frozenset(),
    "cut": frozenset("down back out right my our off".split()),
    "hurt": frozenset("my".split()),
    "split": frozenset("up".split()),
}
#: Verbs of liking or wanting, in the present, that open a dropped-"I" sentence
#: ("Love baking sourdough on Sundays."); not imperatives people also open with,
#: nor the well-wishing verbs ("Hope you're well.") that are about the listener.
_LIKING = frozenset("love like hate adore prefer miss need want".split())
#: Adjectives of how one feels or is, said without "I'm" ("Nervous about the interview.").
_FEELINGS = frozenset(
    """
    excited thrilled stoked pumped psyched happy glad sad tired exhausted bored busy
    stressed worried nervous scared anxious proud grateful thankful sore sick ready
    hooked obsessed interested amazed relieved overwhelmed disappointed pleased blessed
    determined surprised shocked touched inspired motivated annoyed frustrated confused
    impressed delighted satisfied prepared engaged married divorced stuck swamped keen
    """.split()
)
#: What may follow such an adjective when it describes the speaker (else "Happy birthday!").
_FEELING_NEXT = frozenset(
    """
    to about with for that because of at after from and but so today tonight lately now
    right this these all as or by in
    """.split()
)
#: Words ending in "-ing" that are not participles, and "-ing" adjectives.
_NOT_VERBS = frozenset(
    """
    thing nothing something anything everything morning evening king ring spring string
    wing sing bring sting swing cling fling ding ping during ceiling darling sibling
    pudding wedding icing boring amazing interesting exciting annoying stunning relaxing
    inspiring confusing frustrating charming refreshing exhausting tiring disappointing
    surprising shocking terrifying satisfying amusing encouraging overwhelming rewarding
    fascinating touching heartwarming outstanding thrilling pleasing promising
    challenging breathtaking according including regarding
    """.split()
)
#: Words ending in "-ed" that are not past tenses.
_NOT_PAST = frozenset("bed red seed need speed shed indeed united limited sacred wicked naked ragged".split())
#: A verb of the sentence's own within this many words after the first: the first
#: word is then its subject ("Swimming is fun."), not a verb with a dropped "I".
_SUBJECT_WINDOW = 3
_OWN_VERBS = frozenset(
    "is are was were has have will would can could does do makes helps "
    "sounds looks seems feels gets goes takes means".split()
)
_PRONOUNS = frozenset("i you you're you've you'll he she we they it this that".split())
#: Pronouns that can be the object of a liking verb ("Love that you came").
_OBJECTS = frozenset("it this that".split())
#: A sentence of at most this many words that ends on one of ``_BACK_REFERENCES``
#: reacts to what the listener said ("Enjoyed reading that."): nothing to hold.
_SHORT_REACTION = 4
_BACK_REFERENCES = frozenset("it that this them you those these".split())
#: A word, in the letters of Latin-script languages ("Zürich" is one word).
_WORD = re.compile(rf"[{LATIN_LETTERS}][{LATIN_LETTERS}'\-]*", re.IGNORECASE)
#: Where one still is, after an opening "Still" ("Still at Stripe", "Still in Leipzig").
_STILL_WHERE = frozenset("at in with on".split())
#: The kind of day (week, shift …) one had somewhere ("Long day at Canonical",
#: "Another long week on the ambulance"): "I had a …".
_KIND_OF_DAY = re.compile(
    r"^(?:another\s+)?(?:long|busy|hard|good|great|rough|tough|quiet|lovely|productive|crazy|hectic|slow|"
    r"brutal|mad|fun)\s+(?:day|week|shift|night|morning|month)\s+(?:at|on|in|with)\b",
    re.IGNORECASE,
)
#: A first or last stretch of something the speaker does, said as a noun phrase
#: ("First week back at work …", "Last day at Deloitte today!").  "Last" only with
#: "day": "last week at work" is the week before, not the speaker's last.
_OWN_STRETCH = re.compile(
    r"^(?:first|second|third|final)\s+(?:day|week|month|shift|night|term|semester)\s+"
    r"(?:back\s+)?(?:at|in|on|as|with)\b|^last\s+day\s+(?:at|in|on|as|with)\b",
    re.IGNORECASE,
)


def restore_subject(sentence: str) -> str:
    """``sentence`` with the dropped first-person subject put back, or as it was."""
    words = _WORD.findall(sentence)
    if not words:
        return sentence
    lead = 0
    while lead < len(words) - 1 and words[lead].lower() in _LEAD_ADVERBS:
        lead += 1
    first = words[lead]
    low = first.lower()
    if len(words) <= _SHORT_REACTION and words[-1].lower() in _BACK_REFERENCES:
        return sentence  # "Loved it!", "Enjoyed reading that.": about what the listener said
    following = [w.lower() for w in words[lead + 1 : lead + 1 + _SUBJECT_WINDOW]]
    at = sentence.find(first)
    if low.endswith("ing") and _has_own_verb(sentence, start=at + len(first)):
        return sentence  # "Watching that film made me cry.": the "-ing" phrase is the subject
    subject = _subject_for(low, following)
    if subject is None and not _has_own_verb(sentence, start=at):
        still = lead > 0 and words[lead - 1].lower() == "still"
        subject = _noun_phrase_subject(sentence[at:], low, still=still)
    if subject is None:
        return sentence
    start = sentence.find(words[0])
    opening = sentence[start:]
    # "Just started …" → "I just started …": the adverbs stay, lower-cased.
    opening = opening[0].lower() + opening[1:] if opening[:1].isupper() else opening
    return f"{sentence[:start]}{subject} {opening}"


def _noun_phrase_subject(phrase: str, word: str, *, still: bool) -> str | None:
    """The subject a noun phrase of chat drops ("First week back at work …" → "My",
    "Still at Stripe" → "I'm", "Long day at the depot" → "I had a"), for ``phrase``
    opening with ``word`` (after a "Still" when ``still``) and no verb of its own."""
    if _OWN_STRETCH.match(phrase):
        return "My"
    if still and word in _STILL_WHERE:
        return "I'm"
    if _KIND_OF_DAY.match(phrase):
        return "I had" if word == "another" else "I had a"
    return None


def _subject_for(word: str, following: list[str]) -> str | None:
    """ "I", "I'm" or "I've" when ``word`` opens a sentence whose "I" was dropped."""
    if word in _NOT_VERBS or any(w in _OWN_VERBS for w in following):
        return None
    nxt = following[0] if following else ""
    if word == "been":
        return "I've"
    if word in _FEELINGS:
        return "I'm" if nxt in _FEELING_NEXT or not following else None
    if word in _LIKING:
        # "Love it!" says nothing that a memory could hold; "Like I said" is no liking.
        bare = len(following) < 2 and nxt in _PRONOUNS
        return "I" if following and not bare and nxt not in _PRONOUNS - _OBJECTS else None
    if _is_past(word):
        return "I" if following else None
    if word in _BASE_FORM_PAST:
        after = _BASE_FORM_PAST[word]
        return "I" if following and (not after or nxt in after) else None
    if word.endswith("ing") and len(word) >= 6:
        return "I'm" if following else None
    return None


def _has_own_verb(sentence: str, *, start: int) -> bool:
    """Whether the clause that begins at ``start`` (up to a comma, semicolon or dash)
    holds a finite verb of its own: a form of "be", "have" or "do", another
    auxiliary, or a past tense."""
    clause = re.split(r"[,;:\u2014]| - ", sentence[start:], maxsplit=1)[0]
    for w in (w.lower() for w in _WORD.findall(clause)):
        if w in _OWN_VERBS or (_is_past(w) and w not in _FEELINGS):
            return True
    return False


def _is_past(word: str) -> bool:
    """Whether ``word`` (lower-case) is a past tense: an irregular one, or a regular
    "-ed" form of five letters or more that is not a word like "speed"."""
    return word in IRREGULAR_PAST or (word.endswith("ed") and len(word) >= 5 and word not in _NOT_PAST)


def is_past_tense(text: str) -> bool:
    """Whether ``text`` holds a past tense (:func:`_is_past`): "User shipped the
    redesign.", "User got the job."."""
    return any(_is_past(w.lower()) for w in _WORD.findall(text))
