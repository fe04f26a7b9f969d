"""lokulmem — long-term memory of the user for any LLM app, fully local.

Three verbs: ``augment()`` before the LLM call, ``learn()`` after it, and
``manage()`` for the memory panel.  See the README for a tour.
"""

from .client import AsyncLokulMem, LokulMem
from .clock import Clock, ManualClock, SystemClock
from .config import Config, CustomType, ExtractionWeights, InjectionMode, RetrievalWeights, SpecificityWeights
from .embedding import CachedEmbedder, Embedder, MiniLMEmbedder
from .errors import (
    ConfigError,
    EmbeddingError,
    EmbeddingModelMismatchError,
    ImportFormatError,
    LokulMemError,
    MemoryNotFoundError,
    ModelIntegrityError,
    SchemaVersionError,
    StorageError,
    StoreClosedError,
    ValidationError,
)
from .manage import AsyncManager, Manager
from .records import (
    AugmentResult,
    BridgeEvent,
    Cluster,
    ContradictionEvent,
    Edge,
    Episode,
    GroupedMemories,
    ImportResult,
    InjectedMemory,
    InjectionPreview,
    LearnResult,
    Lineage,
    LokulMemDebug,
    MaintenanceReport,
    Memory,
    MemoryStats,
    ProgressEvent,
    QualityWalls,
    RejectedItem,
    ScoreBreakdown,
    ScoredMemory,
    SentenceDecision,
    TimelineDay,
)
from .retrieval import split_system
from .storage import MemoryQuery, SQLiteStorage, Storage

__version__ = "0.1.0"

__all__ = [  # noqa: RUF022  # plain sort, dunders last (tests/test_public_api.py), not isort-style
    "AsyncLokulMem",
    "AsyncManager",
    "AugmentResult",
    "BridgeEvent",
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
    "GroupedMemories",
    "ImportFormatError",
    "ImportResult",
    "InjectedMemory",
    "InjectionMode",
    "InjectionPreview",
    "LearnResult",
    "Lineage",
    "LokulMem",
    "LokulMemDebug",
    "LokulMemError",
    "MaintenanceReport",
    "Manager",
    "ManualClock",
    "Memory",
    "MemoryNotFoundError",
    "MemoryQuery",
    "MemoryStats",
    "MiniLMEmbedder",
    "ModelIntegrityError",
    "ProgressEvent",
    "QualityWalls",
    "RejectedItem",
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
    "TimelineDay",
    "ValidationError",
    "split_system",
    "__version__",
]
