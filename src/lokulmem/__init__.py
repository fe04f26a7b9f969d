"""lokulmem — long-term memory of the user for any LLM app, fully local.

Three verbs: ``augment()`` before the LLM call, ``learn()`` after it, and
``manage()`` for the memory panel.  See the README for a tour.
"""

from .client import AsyncLokulMem, AsyncManager, LokulMem, Manager
from .clock import Clock, ManualClock, SystemClock
from .config import Config, CustomType, ExtractionWeights, RetrievalWeights, SpecificityWeights
from .embedding import CachedEmbedder, Embedder, MiniLMEmbedder
from .errors import (
    ConfigError,
    EmbeddingError,
    EmbeddingModelMismatchError,
    LokulMemError,
    MemoryNotFoundError,
    ModelIntegrityError,
    SchemaVersionError,
    StorageError,
    StoreClosedError,
    ValidationError,
)
from .records import (
    AugmentResult,
    Cluster,
    ContradictionEvent,
    Edge,
    Episode,
    InjectedMemory,
    LearnResult,
    LokulMemDebug,
    Memory,
    ProgressEvent,
    QualityWalls,
    ScoreBreakdown,
    ScoredMemory,
    SentenceDecision,
)
from .storage import SQLiteStorage, Storage

__version__ = "0.1.0"

__all__ = [
    "AsyncLokulMem",
    "AsyncManager",
    "AugmentResult",
    "CachedEmbedder",
    "Clock",
    "Cluster",
    "Config",
    "ConfigError",
    "ContradictionEvent",
    "CustomType",
    "Edge",
    "Embedder",
    "EmbeddingError",
    "EmbeddingModelMismatchError",
    "Episode",
    "ExtractionWeights",
    "InjectedMemory",
    "LearnResult",
    "LokulMem",
    "LokulMemDebug",
    "LokulMemError",
    "Manager",
    "ManualClock",
    "Memory",
    "MemoryNotFoundError",
    "MiniLMEmbedder",
    "ModelIntegrityError",
    "ProgressEvent",
    "QualityWalls",
    "RetrievalWeights",
    "SQLiteStorage",
    "SchemaVersionError",
    "ScoreBreakdown",
    "ScoredMemory",
    "SentenceDecision",
    "SpecificityWeights",
    "Storage",
    "StorageError",
    "StoreClosedError",
    "SystemClock",
    "ValidationError",
    "__version__",
]
