"""Layer 1 — what is worth remembering (PRD §6).

Pure functions over a sentence, its vector, the search results and the config:
``analyze`` gives everything ``learn()`` needs to decide about one sentence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..config import Config
from .attributes import Attribute, extract_attribute, polarity_conflict
from .classify import PROTOTYPES, classify_by_prototype, classify_by_rules, substance
from .elided import own_kin, restore_subject
from .features import Features, detect, specificity
from .quality import HEDGES, quality_walls
from .rewrite import strip_fillers, to_first_person, to_user_fact
from .sentences import split_sentences
from .valence import valence

__all__ = [
    "PROTOTYPES",
    "Analysis",
    "Attribute",
    "Features",
    "about_listener",
    "analyze_text",
    "classify_by_prototype",
    "classify_by_rules",
    "detect",
    "extract_attribute",
    "extraction_score",
    "is_chitchat",
    "is_impersonal",
    "is_question",
    "is_request",
    "novelty",
    "polarity_conflict",
    "quality_walls",
    "recurrence",
    "specificity",
    "split_sentences",
    "strip_fillers",
    "substance",
    "to_first_person",
    "to_user_fact",
    "valence",
]

_QUESTION_START = re.compile(
    r"^(?:what|who|whom|whose|where|when|why|how|which|can|could|would|will|should|shall|do|"
    r"does|did|is|are|am|was|were|have|has|had|may|might)\b",
    re.I,
)


def is_question(sentence: str) -> bool:
    s = strip_fillers(sentence).strip()
    return s.endswith("?") or bool(_QUESTION_START.match(s) and not s.endswith("."))


_CHIT_WORDS = frozenset(
    """
    thanks thank thx ty hey hi hello hiya yo wow woah whoa oh ah aw aww congrats congratulations
    cool nice great awesome amazing sweet lovely wonderful fantastic perfect sure okay ok yeah yes
    yep nope no lol haha hahaha omg bye goodbye cheers welcome sorry agreed totally absolutely
    indeed exactly definitely really so very too good glad happy sounds sound true right
    see sense makes make interesting point funny helpful meant mean agree hmm alright fine
    """.split()
)
_REQUEST = re.compile(
    r"^(?:please\s+|pls\s+|kindly\s+)?(?:tell|show|give|write|translate|explain|summari[sz]e|list|"
    r"make|help|continue|try|rewrite|check|find|draft|describe|suggest|recommend|generate|create|"
    r"compare|define|calculate|convert|fix|add|remove|send|remind|let's|lets|let\s+me|please)\b",
    re.I,
)
_PERSONAL = re.compile(
    r"\b(?:i|i'm|i've|i'd|i'll|im|ive|me|my|mine|myself|we|we're|we've|our|ours|us)\b", re.I
)


def is_request(sentence: str) -> bool:
    """An instruction to the assistant ("Tell me a joke.", "Please continue."), not a fact."""
    return bool(_REQUEST.match(strip_fillers(sentence).strip()))


def is_impersonal(sentence: str, features: Features) -> bool:
    """No first-person word, no person named: a statement about the world, not the speaker."""
    return not _PERSONAL.search(sentence) and not features.person_names


_CONTENT = re.compile(r"[A-Za-zÀ-ÿ][A-Za-zÀ-ÿ'\-]{2,}")
_FIRST_PERSON = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|im|ive|me|my|mine|myself|we|we're|our|ours|us)\b", re.I)
_SECOND_PERSON = re.compile(r"\b(?:you|you're|youre|you've|you'd|you'll|your|yours|yourself|u|ur)\b", re.I)


_FUNCTION = frozenset(
    """
    the a an and but or so if then of in on at to for from by with about as into over under is am
    are was were be been being has have had do does did will would can could shall should may
    might must not it its it's this that these those there here what when where why how who
    i i'm i've i'd i'll me my you you're your we our us he she they them his her their all some
    any just still also even much many more most one ones get got let lets fun thing things
    """.split()
)
_VOCATIVE_START = re.compile(r"^\W*(?:[A-Za-z]+[\s,!.]+){0,3}?[A-Z][a-z]+[,!.]+\s*")
_VOCATIVE_END = re.compile(r",\s*[A-Z][a-z]+[.!?]*\s*$")


def is_chitchat(sentence: str) -> bool:
    """Greetings, thanks and reactions ("Thanks, Dana!", "Wow, that's great!").

    True when, once fillers, the name being addressed ("Hey Dana, ...",
    "..., Dana!") and reaction words are set aside, no content word remains in
    a first-person sentence, or fewer than two in any other.
    """
    text = strip_fillers(sentence)
    text = _VOCATIVE_END.sub("", text)
    m = _VOCATIVE_START.match(text)
    if m and all(w.lower() in _CHIT_WORDS for w in re.findall(r"[A-Za-z]+", m.group(0))[:-1]):
        text = text[m.end() :]
    words = _CONTENT.findall(text)
    content = [w for w in words if w.lower() not in _CHIT_WORDS and w.lower() not in _FUNCTION]
    # "I am vegan." is a fact with a single content word; "Great job!" is not.
    return len(content) < (1 if _FIRST_PERSON.search(text) else 2)


def about_listener(sentence: str) -> bool:
    """A remark about the person spoken to ("You'd make a great teacher!"), not the speaker."""
    return bool(_SECOND_PERSON.search(sentence)) and not _FIRST_PERSON.search(sentence)


def recurrence(occurrences: int, config: Config) -> float:
    """``min(1, base + step × occurrences)`` (PRD: 0.2 + 0.25 × occurrences)."""
    return min(1.0, config.recurrence_base + config.recurrence_step * occurrences)


def novelty(top1_similarity: float | None, config: Config) -> float:
    """1.0 for an empty store; else ``clamp((ceiling - top1) / (ceiling - floor), 0, 1)``."""
    if top1_similarity is None:
        return 1.0
    span = config.novelty_ceiling - config.novelty_floor
    return max(0.0, min(1.0, (config.novelty_ceiling - top1_similarity) / span))


def extraction_score(novelty: float, spec: float, rec: float, config: Config) -> float:
    """``E(s) = α·novelty + β·specificity + γ·recurrence``."""
    w = config.extraction_weights
    return w.novelty * novelty + w.specificity * spec + w.recurrence * rec


@dataclass(frozen=True, slots=True)
class Analysis:
    """The text-only part of one sentence's analysis (no vectors, no store)."""

    sentence: str
    content: str
    features: Features
    specificity: float
    attribute: Attribute | None
    rule_types: tuple[str, ...]
    valence: float
    question: bool
    hedged: bool
    #: A greeting, thanks or reaction with no fact in it.
    chitchat: bool = False
    #: About the listener ("you ..."), with nothing about the speaker.
    listener: bool = False
    #: An instruction to the assistant.
    request: bool = False
    #: Neither first person nor a named person: about the world.
    impersonal: bool = False


def analyze_text(sentence: str, config: Config) -> Analysis:
    """Rewrite, NER, specificity, attribute, rule types and valence of ``sentence``
    (read with its dropped "I" put back, ``restore_elided_subject``; the analysis
    keeps the sentence as said)."""
    said = restore_subject(own_kin(sentence)) if config.restore_elided_subject else sentence
    feats = detect(said)
    attr = extract_attribute(said)
    # A slot of the speaker's own told without "I" ("Phoenix is home now.", "Home for
    # me is a flat in Porto."): a statement about the speaker, not about the world.
    own_slot = attr is not None and attr.key.startswith("user.")
    if own_slot and not feats.self_statement:
        feats = replace(feats, self_statement=True)
    types = classify_by_rules(said, feats, attr, config.custom_types)
    return Analysis(
        sentence=sentence,
        content=to_user_fact(said, config.user_label),
        features=feats,
        specificity=specificity(feats, config.specificity_weights),
        attribute=attr,
        rule_types=tuple(types),
        valence=valence(said),
        question=is_question(said),
        # "I'm 34." has no content word, but it sets the user's age: a fact, not chitchat.
        chitchat=is_chitchat(said) and not own_slot,
        listener=about_listener(said),
        request=is_request(said),
        impersonal=is_impersonal(said, feats) and not own_slot,
        hedged=bool(HEDGES.search(said)),
    )
