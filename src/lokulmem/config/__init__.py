"""Every tunable constant of lokulmem (see :mod:`lokulmem.config.options`)."""

from .options import Config, from_options
from .parts import (
    DECAY_SLOWDOWN,
    DEFAULT_ENDING_PHRASES,
    DEFAULT_ENDING_ROLES,
    DEFAULT_ROLE_ENDING_PHRASES,
    DEFAULT_TEMPORAL_MARKERS,
    DEFAULT_TYPES,
    DEFAULT_WEAK_TEMPORAL_MARKERS,
    INJECTION_MODES,
    MAX_MINILM_TOKENS,
    PRD_FALLBACK_LAMBDA,
    TUNED_TYPES,
    CustomType,
    ExtractionWeights,
    InjectionMode,
    RetrievalWeights,
    SpecificityWeights,
)

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
    "PRD_FALLBACK_LAMBDA",
    "TUNED_TYPES",
    "Config",
    "CustomType",
    "ExtractionWeights",
    "InjectionMode",
    "RetrievalWeights",
    "SpecificityWeights",
    "from_options",
]
