"""Export and import documents.  Pure functions over records (no store, no model).

**The export document** (``manage().export()``), version ``"1"``::

    {
      "format": "lokulmem-export",
      "version": "1",
      "exported_at": 1764676800000,          # Unix ms
      "store_name": "lokulmem_default",
      "embedding_model": "sentence-transformers/all-MiniLM-L6-v2@int8-onnx",
      "embedding_dimension": 384,
      "memories": [ {<every Memory field>}, ... ],
      "episodes": [ ... ], "clusters": [ ... ], "edges": [ ... ]
    }

Field names are the records' own (snake_case).  Times are Unix ms; tuples are
lists; ``quality`` is ``{"form", "filter", "substance", "factuality"}``; a
vector (``embedding``, ``centroid``) is the base64 of its little-endian
float32 bytes, or ``null`` (exported without embeddings, or none stored).
Reading a document back gives records equal, field by field, to the ones
written.  Unknown top-level keys are ignored (forward compatibility); a
missing optional field takes the record's default; a field of the wrong type
is an :class:`~lokulmem.errors.ImportFormatError` naming its path.

**HOM memory packs** are documents without ``"format"``::

    {"name": "team-notes", "origin": "https://…",
     "memories": [{"key": "imported:memory", "value": "Memory content",
                   "memory_type": "declarative", "source": "external-data",
                   "session_id": …, "project_id": …, "track": …,
                   "quality_score": 0.9, "created_at_s": …, "updated_at_s": …,
                   "metadata": {…}, "memory_id": …}]}

Only ``value`` is required.  ``memory_type`` is the HOM kind (stored as
``Memory.kind``); the PRD types are inferred from the text on import.
"""

from .reading import ExportDocument, PackEntry, ParsedPack, memory_from_json, parse_document
from .writing import (
    EXPORT_FORMAT,
    EXPORT_VERSION,
    cluster_to_json,
    edge_to_json,
    episode_to_json,
    export_document,
    memory_to_json,
    to_markdown,
)

__all__ = [
    "EXPORT_FORMAT",
    "EXPORT_VERSION",
    "ExportDocument",
    "PackEntry",
    "ParsedPack",
    "cluster_to_json",
    "edge_to_json",
    "episode_to_json",
    "export_document",
    "memory_from_json",
    "memory_to_json",
    "parse_document",
    "to_markdown",
]
