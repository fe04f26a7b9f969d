"""The parts of :class:`~lokulmem.config.Config`: default tables, weight records, custom
types, and the validators that sit beside each field."""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from ..errors import ConfigError

__all__ = [
    "DECAY_SLOWDOWN",
    "DEFAULT_ENDING_PHRASES",
    "DEFAULT_ENDING_ROLES",
    "DEFAULT_ROLE_ENDING_PHRASES",
    "DEFAULT_TEMPORAL_MARKERS",
    "DEFAULT_TYPES",
    "DEFAULT_WEAK_TEMPORAL_MARKERS",
    "INJECTION_MODES",
    "MAX_MINILM_TOKENS",
    "MIN_PBKDF2_ITERATIONS",
    "PRD_FALLBACK_LAMBDA",
    "TUNED_TYPES",
    "TYPE_NAME",
    "CustomType",
    "DecayModel",
    "ExtractionWeights",
    "InjectionMode",
    "MultiTypeLambda",
    "RetrievalWeights",
    "SpecificityWeights",
    "check_count",
    "check_nonneg",
    "check_unit",
    "count",
    "nonneg",
    "posint",
    "unit",
]

#: Longest input the built-in MiniLM model can take (its position table).
MAX_MINILM_TOKENS = 512
#: Fewest PBKDF2 iterations an encrypted store may use (PRD §9).
MIN_PBKDF2_ITERATIONS = 100_000

#: The PRD's default memory types and their Ebbinghaus λ (per hour), PRD §6/§7.
DEFAULT_TYPES: Mapping[str, float] = {
    "identity": 0.0001,
    "location": 0.0005,
    "profession": 0.0003,
    "preference": 0.001,
    "project": 0.005,
    "temporal": 0.02,
    "relational": 0.0004,
    "emotional": 0.01,
}

#: How many times longer than the PRD's each default type's half-life is by default
#: (docs/tuning.md entry 63): the PRD's λ faded a tenth of the facts of long
#: conversations before they were asked about.
DECAY_SLOWDOWN = 8.0
#: The default types' λ per hour: the PRD's (:data:`DEFAULT_TYPES`) divided by
#: :data:`DECAY_SLOWDOWN` (an unreinforced preference fades after about two years,
#: an emotional memory after eleven weeks, a temporal one after five and a half).
TUNED_TYPES: Mapping[str, float] = {name: lam / DECAY_SLOWDOWN for name, lam in DEFAULT_TYPES.items()}
#: λ per hour for a memory whose types are all unknown under ``Config.prd()``
#: (the PRD's general rate); the default is this divided by :data:`DECAY_SLOWDOWN`.
PRD_FALLBACK_LAMBDA = 0.001

#: PRD §6 stage 2 temporal markers (matched case-insensitively on word boundaries).
DEFAULT_TEMPORAL_MARKERS: tuple[str, ...] = (
    "used to",
    "previously",
    "before",
    "anymore",
    "no longer",
    "not anymore",
    "now i",
    "these days",
    "switched to",
    "moved to",
    "changed to",
    "lately",
    "recently started",
    "stopped",
    "quit",
    "gave up",
)

#: Markers of a *state* rather than a change ("lately I've been busy", "now I
#: want to help"): they mark a change only of the same typed attribute
#: (docs/tuning.md entry 20).
DEFAULT_WEAK_TEMPORAL_MARKERS: tuple[str, ...] = ("before", "now i", "these days", "lately")

#: Stage 1e (``lokulmem.endings``): how a sentence says a named thing ended, ``{}``
#: where the name stands.  Starting with ``{}``: the named one ended; otherwise the
#: user ended it (the user must be the subject).  Written in stored content's form
#: (the user's "my" is "User's").
DEFAULT_ENDING_PHRASES: tuple[str, ...] = (
    "cancelled {}",
    "canceled {}",
    "deleted {}",
    "sold {}",
    "rehomed {}",
    "ditched {}",
    "dumped {}",
    "got rid of {}",
    "say goodbye to {}",
    "said goodbye to {}",
    "broke up with {}",
    "split up with {}",
    "left {} for",
    "switched from {}",
    "stopped using {}",
    "pulled out of {}",
    "withdrew from {}",
    "dropped out of {}",
    "unsubscribed from {}",
    "{} and I broke up",
    "{} and I split up",
    "{} and I called it quits",
    "{} passed away",
    "{} died",
    "{} was put down",
    "{} was put to sleep",
    "{} closed down",
    "{} shut down",
    "{} went bust",
    "{} went under",
)

#: Stage 1e phrases that close only a fact naming the one ended in a role
#: (``DEFAULT_ENDING_ROLES``): "Anita retired" closes "User's boss is Anita.", not
#: "User's sister Anita lives in Leeds."
DEFAULT_ROLE_ENDING_PHRASES: tuple[str, ...] = (
    "{} retired",
    "{} resigned",
    "{} left",
    "{} quit",
    "{} moved away",
    "{} moved on",
    "{} stepped down",
    "{} sold up",
)

#: The roles of ``DEFAULT_ROLE_ENDING_PHRASES``: people one has through work or a service.
DEFAULT_ENDING_ROLES: tuple[str, ...] = tuple(
    """
    boss manager supervisor colleague coworker co-worker mentor teacher tutor therapist
    counsellor counselor doctor gp dentist vet coach trainer instructor landlord landlady
    cleaner nanny childminder babysitter hairdresser barber physio neighbour neighbor
    """.split()
)

TYPE_NAME = re.compile(r"^[a-z][a-z0-9_\-]{0,39}$")


def check_unit(name: str, value: float) -> None:
    if not isinstance(value, (int, float)) or isinstance(value, bool) or math.isnan(value):
        raise ConfigError(name, f"must be a number, got {value!r}")
    if not 0.0 <= value <= 1.0:
        raise ConfigError(name, f"must be in [0, 1], got {value!r}")


def check_nonneg(name: str, value: float) -> None:
    if not isinstance(value, (int, float)) or isinstance(value, bool) or math.isnan(value):
        raise ConfigError(name, f"must be a number, got {value!r}")
    if value < 0 or math.isinf(value):
        raise ConfigError(name, f"must be a finite number >= 0, got {value!r}")


def _posint(name: str, value: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ConfigError(name, f"must be a positive integer, got {value!r}")


def check_count(name: str, value: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ConfigError(name, "must be an integer >= 0")


def _checked(default: Any, check: Callable[[str, Any], None]) -> Any:
    return field(default=default, metadata={"check": check})


def unit(default: float) -> Any:
    """A field in [0, 1] (thresholds, similarities, shares)."""
    return _checked(default, check_unit)


def nonneg(default: float) -> Any:
    """A finite field >= 0 (rates, boosts, durations)."""
    return _checked(default, check_nonneg)


def posint(default: int) -> Any:
    """An integer field >= 1 (sizes, limits, counts of things kept)."""
    return _checked(default, _posint)


def count(default: int) -> Any:
    """An integer field >= 0 (0 turns the feature off)."""
    return _checked(default, check_count)


class _Weights:
    """Shared validation: every field is a finite weight >= 0."""

    def validate(self, prefix: str) -> None:
        # The mixin is not itself a dataclass; every subclass is.
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            check_nonneg(f"{prefix}.{f.name}", getattr(self, f.name))


@dataclass(frozen=True, kw_only=True)
class ExtractionWeights(_Weights):
    """α, β, γ of ``E(s) = α·novelty + β·specificity + γ·recurrence`` (PRD §6)."""

    novelty: float = 0.35
    specificity: float = 0.45
    recurrence: float = 0.20


@dataclass(frozen=True, kw_only=True)
class SpecificityWeights(_Weights):
    """Weights of the rule-based NER features (PRD §6, signal 2)."""

    person_name: float = 0.30
    place_or_org: float = 0.25
    number: float = 0.20
    preference: float = 0.25
    date_time: float = 0.20
    negated_preference: float = 0.20
    possession: float = 0.10
    #: Not in the PRD table: a first-person statement of fact ("I work at...",
    #: "I'm a nurse").  Without it, once the store is not empty, a plain fact with
    #: one named entity scores ~0.40 < 0.45 and is dropped (docs/tuning.md).
    self_statement: float = 0.15


@dataclass(frozen=True, kw_only=True)
class RetrievalWeights(_Weights):
    """w1..w4 of the composite relevance ``R(m, q)`` (PRD §6 layer 3)."""

    #: PRD: semantic 0.40, recency 0.20, strength 0.25, continuity 0.15, and no
    #: lexical term.  Tuned on LoCoMo (docs/tuning.md): names and keywords carry
    #: many questions, so the lexical match weighs half as much as the vectors
    #: (which already blend in the message's vector: entry 55), and recency
    #: stays a light tie-breaker.  Strength is 0 in ranking: injecting
    #: reinforces, so a strength term favours what was injected often (generic
    #: memories) over what matches; strength still decides fading and pinned
    #: memories still come first (docs/tuning.md entry 16).
    semantic: float = 0.50
    recency: float = 0.025
    strength: float = 0.0
    continuity: float = 0.15
    #: Weight of the lexical (FTS5 BM25) match of the query's key terms.
    lexical: float = 0.25


@dataclass(frozen=True, kw_only=True)
class CustomType:
    """A developer-defined memory type (PRD §7 ``customTypes``).

    ``keywords`` (whole words or phrases) and ``examples`` (sentences whose
    embeddings act as prototypes) let the classifier assign the type; a type
    with neither can still be set by hand.
    """

    name: str
    decay_lambda: float
    keywords: tuple[str, ...] = ()
    examples: tuple[str, ...] = ()

    @classmethod
    def from_value(cls, value: CustomType | Mapping[str, Any], index: int) -> CustomType:
        if isinstance(value, CustomType):
            return value
        if not isinstance(value, Mapping):
            raise ConfigError(f"custom_types[{index}]", "must be a CustomType or a mapping")
        known = {"name", "decay_lambda", "decayLambda", "keywords", "examples"}
        unknown = set(value) - known
        if unknown:
            raise ConfigError(f"custom_types[{index}]", f"unknown keys {sorted(unknown)}")
        if "name" not in value:
            raise ConfigError(f"custom_types[{index}].name", "is required")
        lam = value.get("decay_lambda", value.get("decayLambda"))
        if lam is None:
            raise ConfigError(f"custom_types[{index}].decay_lambda", "is required")
        return cls(
            name=value["name"],
            decay_lambda=lam,
            keywords=tuple(value.get("keywords", ())),
            examples=tuple(value.get("examples", ())),
        )


DecayModel = Literal["ebbinghaus", "linear", "none"]
MultiTypeLambda = Literal["min", "max", "mean"]
InjectionMode = Literal["prepend-system", "new-system-message", "developer-message", "user-turn-prefix"]
#: Every injection mode (PRD §10.5), the default first.
INJECTION_MODES: tuple[InjectionMode, ...] = (
    "prepend-system",
    "new-system-message",
    "developer-message",
    "user-turn-prefix",
)
