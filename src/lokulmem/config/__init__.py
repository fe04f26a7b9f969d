"""Every tunable constant of lokulmem (see :mod:`lokulmem.config.options`)."""

from .options import Config, from_options
from .parts import (
    DEFAULT_TEMPORAL_MARKERS,
    DEFAULT_TYPES,
    DEFAULT_WEAK_TEMPORAL_MARKERS,
    MAX_MINILM_TOKENS,
    CustomType,
    ExtractionWeights,
    RetrievalWeights,
    SpecificityWeights,
)

__all__ = [
    "DEFAULT_TEMPORAL_MARKERS",
    "DEFAULT_TYPES",
    "DEFAULT_WEAK_TEMPORAL_MARKERS",
    "MAX_MINILM_TOKENS",
    "Config",
    "CustomType",
    "ExtractionWeights",
    "RetrievalWeights",
    "SpecificityWeights",
    "from_options",
]
