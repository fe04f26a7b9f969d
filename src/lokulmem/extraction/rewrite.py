"""Turn a first-person sentence into a fact about the user.

"I live in Berlin" → "User lives in Berlin."; "my sister is Maya" → "User's
sister is Maya."  Rules only: pronoun replacement and third-person verb
agreement for the verb that follows "I".  The source sentence is kept on the
memory as provenance, so nothing the user said is lost by rewriting.
"""

from __future__ import annotations

import re

from .lexicon import IRREGULAR_PAST, SHARED_SUBJECT_VERBS

__all__ = ["plural_to_user", "strip_fillers", "to_first_person", "to_user_fact"]

#: "No" only as an answer ("No, I …") or a set phrase ("No worries, …"): "No
#: caffeine for me anymore" keeps it.
_FILLERS = re.compile(
    r"^(?:(?:well|so|oh|ah|um|uh|hmm|actually|honestly|anyway|anyways|also|btw|by the way|"
    r"hey|hi|hello|yeah|yes|yep|nah|ok|okay|lol|haha|wow|and|but|plus|fyi|just so you know|"
    r"fun fact|no\s+(?:worries|problem|probs?|doubts?|way|kidding|wonder))\b[,!.:;\-—]*\s*"
    r"|no\s*[,!.:;—]+\s*)+",
    re.IGNORECASE,
)
_IRREGULAR = {"have": "has", "do": "does", "go": "goes", "be": "is", "am": "is"}
_INVARIANT = IRREGULAR_PAST | frozenset(
    """
    can could will would shall should may might must used was ought dare are were
    quit put read set shut hit cut let hurt split
    """.split()
)
#: Present-tense verbs that end in "ed" like a past tense ("I need" → "User needs").
_PRESENT_ED = frozenset("need feed bleed breed exceed proceed succeed speed heed".split())
_ADVERBS = frozenset(
    """
    really also just never always still usually often sometimes recently actually
    currently now already finally mostly totally definitely absolutely even only barely
    rarely seldom generally typically normally probably kinda honestly truly
    eventually basically literally seriously personally mainly simply occasionally
    constantly frequently regularly certainly genuinely secretly desperately slowly
    quickly happily obviously clearly hardly nearly mostly once first
    """.split()
)
#: Adverbs between the subject and its verb: "I no longer work" → "User no longer works".
_ADVERB_GROUP = r"(?:(?:no longer|no more|" + "|".join(sorted(_ADVERBS)) + r")\s+)*"
_CONTRACTIONS: tuple[tuple[str, str], ...] = (
    (r"\bI'm\b|\bIm\b|\bI am\b", "{U} is"),
    (r"\bI've\b|\bIve\b", "{U} has"),
    (r"\bI'd\b", "{U} would"),
    (r"\bI'll\b", "{U} will"),
    (r"\bI was\b", "{U} was"),
    (r"\bI don't\b|\bI dont\b|\bI do not\b", "{U} doesn't"),
    (r"\bI\s+doesn't\b", "{U} doesn't"),
    # "My name's Priyanka" → "User's name is Priyanka" (not "User's name's").
    (r"\b(my|our) name's\b", "\\1 name is"),
)


#: A label announcing news: "Big news: …", "Quick update: …", "Bad news, …",
#: "Update on the flat: …" (an adjective lets a comma end it; "News, weather and
#: sport …" keeps its first word).
_NEWS_LABEL = re.compile(
    r"^(?:(?:big|good|great|bad|sad|quick|exciting|happy|small|some|huge)\s+(?:news|update|day)\s*[:,\-—]"
    r"|(?:news|update)(?:\s+on\s+(?:the\s+|my\s+)?[\w'-]+)?\s*[:\-—])\s*",
    re.IGNORECASE,
)


def strip_fillers(sentence: str) -> str:
    """Remove leading discourse fillers ("Well, ", "Oh and btw, ") and a label
    announcing news ("Big news: ", "Quick update: ")."""
    out = _FILLERS.sub("", sentence).strip()
    out = _NEWS_LABEL.sub("", out).strip()
    return out or sentence.strip()


def _third_person(verb: str) -> str:
    low = verb.lower()
    if low in _IRREGULAR:
        return _IRREGULAR[low]
    if low in _INVARIANT or (low.endswith("ed") and low not in _PRESENT_ED) or low.endswith("n't"):
        return verb
    if re.search(r"(?:s|sh|ch|x|z|o)$", low):
        return verb + "es"
    if re.search(r"[^aeiou]y$", low):
        return verb[:-1] + "ies"
    return verb + "s"


#: The pronoun "I", also typed lower-case in chat ("i work out"): a lone "i"
#: followed by a space (so "i.e." and "part i." stay).
_I = r"(?:\bI\b|(?<![\w.'])i(?=\s))"
#: The verb after "I": a hyphen only inside it ("re-enter"); a word cut off in chat
#: ("Yup, I do- Biscuit, my rabbit") is conjugated without its dash ("does-", not "do-s").
_AFTER_I = re.compile(
    _I + r"\s+(?P<adv>" + _ADVERB_GROUP + r")(?P<verb>[A-Za-z](?:[A-Za-z']|-(?=[A-Za-z]))*)"
)
#: A stammered "I" ("I-I think so"): one user, not "User-User".
_STAMMER = re.compile(r"\b(I)(?:\s*-\s*I)+\b")


def _conjugate_after_i(text: str, label: str) -> str:
    """Replace "I [adverbs] verb" with "<label> [adverbs] verbs", then any other "I"."""

    def repl(m: re.Match[str]) -> str:
        verb = m.group("verb")
        conj = _third_person(verb) if verb.islower() else verb
        return f"{label} {m.group('adv')}{conj}"

    return re.sub(_I, label, _AFTER_I.sub(repl, text))


#: "Maya and I go climbing", "My wife and I are moving": a compound subject at
#: the start; the user goes first and the verb stays plural.
_COMPOUND_SUBJECT = re.compile(
    r"^(?P<np>(?:[Mm]y|[Oo]ur) [\w'-]+(?: [\w'-]+)?|[A-Z][\w'-]+(?: [A-Z][\w'-]+)?) and I\b(?!')"
)
_AND_VERB = re.compile(r"\b(and|but|or)\s+(" + SHARED_SUBJECT_VERBS + r")\b(?!s\b)")
#: "Call me Alex" / "You can call me Alex": the name the user goes by.
_CALL_ME = re.compile(r"^(?:(?:you can|please|just)\s+)?call me\s+(?P<name>.+)$", re.IGNORECASE)


def to_user_fact(sentence: str, label: str = "User") -> str:
    """Rewrite ``sentence`` in the third person about ``label``, ending with a period."""
    text = strip_fillers(sentence.strip())
    text = re.sub(r"\s+", " ", text)
    text = _STAMMER.sub("I", text)
    text = _CALL_ME.sub(lambda m: f"{label} goes by {m.group('name')}", text)
    text = _COMPOUND_SUBJECT.sub(lambda m: f"{label} and {m.group('np')}", text)
    for pattern, repl in _CONTRACTIONS:
        text = re.sub(pattern, repl.format(U=label), text, flags=re.IGNORECASE)
    text = re.sub(r"\bmyself\b", "themself", text, flags=re.IGNORECASE)
    text = re.sub(r"\b(?:my|mine)\b", f"{label}'s", text, flags=re.IGNORECASE)
    text = re.sub(r"(?<=\s)me\b", label, text)
    text = _conjugate_after_i(text, label)
    if text.startswith(f"{label} "):  # "User cancelled Spotify and use…" → "and uses"
        text = _AND_VERB.sub(
            lambda m: m.group(0) if m.group(2).endswith("s") else f"{m.group(1)} {_third_person(m.group(2))}",
            text,
        )
    text = re.sub(rf"\b{re.escape(label)} is is\b", f"{label} is", text)
    # "It tells me I'm on track", "For me I just …": the object, then the subject.
    text = re.sub(rf"\b{re.escape(label)} (?={re.escape(label)}\b)", f"{label}, ", text)
    text = text.strip()
    if text and text[0].islower():
        text = text[0].upper() + text[1:]
    text = re.sub(r"[\s,;:\-—]+$", "", text)
    if text and text[-1] not in ".!?":
        text += "."
    elif text.endswith("!"):
        text = text[:-1].rstrip("!") + "."
    return text


#: "we" as a subject, with its contractions: the verb that follows stays plural.
_WE = (
    (r"\b[Ww]e're\b|\b[Ww]e are\b", "{U} and others are"),
    (r"\b[Ww]e've\b", "{U} and others have"),
    (r"\b[Ww]e'll\b", "{U} and others will"),
    (r"\b[Ww]e'd\b", "{U} and others would"),
    (r"\b[Ww]e\b", "{U} and others"),
)
_PLURAL = re.compile(r"\b(?:[Ww]e|[Oo]urs?|us|ourselves)\b")
#: "Let us know": an idiom, not a fact about anyone.
_LET_US = re.compile(r"\blets?\s+us\b", re.IGNORECASE)


def plural_to_user(text: str, label: str = "User") -> str:
    """A fact said in the first person plural, about the user and others.

    "We bought our first home." → "User and others bought their first home.";
    with no "we", "our" is the user's: "Our office moved to Leith." → "User's
    office moved to Leith."; "us" (always lower-case: "the US" stays) is "User
    and others".  Applied to the stored text only (see
    ``Config.rewrite_plural_first_person``): the memory's vector is that of the
    fact as analysed, before this rewrite, where "we" does not carry the user's
    label into every cosine.
    """
    if not _PLURAL.search(text) or _LET_US.search(text):
        return text
    subject = re.search(r"\b[Ww]e\b", text) is not None
    for pattern, repl in _WE:
        text = re.sub(pattern, repl.format(U=label), text)
    owner = "their" if subject else f"{label}'s"
    text = re.sub(r"\b[Oo]urs\b", "theirs" if subject else f"{label}'s", text)
    text = re.sub(r"\b[Oo]ur\b", owner, text)
    text = re.sub(r"\bourselves\b", "themselves", text)
    text = re.sub(r"\bus\b", f"{label} and others", text)
    return text[0].upper() + text[1:] if text else text


_BACK_IRREGULAR = {"has": "have", "does": "do", "goes": "go", "is": "am", "doesn't": "don't"}


def _first_person_verb(verb: str) -> str:
    low = verb.lower()
    if low in _BACK_IRREGULAR:
        return _BACK_IRREGULAR[low]
    if low in _INVARIANT or low.endswith("ed") or low.endswith("n't") or not low.endswith("s"):
        return verb
    if low.endswith("ies") and len(low) > 4:
        return verb[:-3] + "y"
    if re.search(r"(?:ss|sh|ch|x|z|o)es$", low):
        return verb[:-2]
    return verb[:-1]


def to_first_person(fact: str, label: str = "User") -> str:
    """Inverse of :func:`to_user_fact`, for analysing a fact someone typed.

    "User's sister lives in Rome." → "my sister lives in Rome."; "User lives
    in Paris." → "I live in Paris."  Used when a memory's content is edited,
    so the attribute rules (written for first-person speech) still apply.
    """
    name = re.escape(label)
    text = re.sub(rf"\b{name}'s\b", "my", fact)
    pattern = re.compile(rf"\b{name}\s+(?P<adv>{_ADVERB_GROUP})(?P<verb>[A-Za-z][A-Za-z'\-]*)")
    text = pattern.sub(lambda m: f"I {m.group('adv')}{_first_person_verb(m.group('verb'))}", text)
    return re.sub(rf"\b{name}\b", "me", text)
