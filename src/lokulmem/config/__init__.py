"""Every tunable constant of lokulmem (see :mod:`lokulmem.config.options`)."""

from .options import Config, from_options
from .parts import (
    DEFAULT_TEMPORAL_MARKERS,
    DEFAULT_TYPES,
    DEFAULT_WEAK_TEMPORAL_MARKERS,
    INJECTION_MODES,
    MAX_MINILM_TOKENS,
    CustomType,
    ExtractionWeights,
    InjectionMode,
    RetrievalWeights,
    SpecificityWeights,
)

__all__ = [
    "DEFAULT_TEMPORAL_MARKERS",
    "DEFAULT_TYPES",
    "DEFAULT_WEAK_TEMPORAL_MARKERS",
    "INJECTION_MODES",
    "MAX_MINILM_TOKENS",
    "Config",
    "CustomType",
    "ExtractionWeights",
    "InjectionMode",
    "RetrievalWeights",
    "SpecificityWeights",
    "from_options",
]
