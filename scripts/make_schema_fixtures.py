"""Write a store of every earlier schema version, for tests/test_schema_history.py.

    python scripts/make_schema_fixtures.py

For each schema version v below the latest: a fresh file migrated with the
first v migrations only (exactly the schema a lokulmem of that version
wrote), then filled through plain SQL with what a user of that version had:
three memories (real MiniLM vectors, their types), a superseded one, an
edge, an episode, a cluster and, from version 2, an import audit row; only
the columns that version has.  Written gzipped to
``tests/data/schemas/v<v>.sqlite.gz``.  Re-run after adding a migration.
"""

from __future__ import annotations

import gzip
import json
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

from lokulmem.client import shared_minilm
from lokulmem.storage.migrations import LATEST_VERSION, MIGRATIONS
from lokulmem.storage.sqlite_rows import vec_to_blob

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "schemas"
T0 = 1_700_000_000_000
DAY = 86_400_000
MEMORIES = [
    ("m-berlin", "User lived in Berlin.", ["location"], "superseded", "m-lisbon"),
    ("m-lisbon", "User lives in Lisbon.", ["location"], "active", None),
    ("m-maya", "User's sister Maya is a pianist.", ["relational"], "active", None),
    ("m-coffee", "User loves strong black coffee.", ["preference"], "active", None),
]


def _columns(conn: sqlite3.Connection, table: str) -> list[str]:
    return [r[1] for r in conn.execute(f"PRAGMA table_info({table})")]


def _insert(conn: sqlite3.Connection, table: str, values: dict[str, Any]) -> None:
    cols = [c for c in _columns(conn, table) if c in values]
    marks = ", ".join("?" * len(cols))
    conn.execute(f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({marks})", [values[c] for c in cols])


def _memory(
    i: int, mid: str, content: str, types: list[str], status: str, by: str | None, vec: Any
) -> dict[str, Any]:
    t = T0 + i * DAY
    return {
        "id": mid,
        "content": content,
        "types": json.dumps(types),
        "embedding": vec_to_blob(vec),
        "cluster_id": "c-1",
        "base_strength": 1.0,
        "confidence": "high",
        "extraction_score": 0.8,
        "emotional_valence": 0.1,
        "mention_count": 1,
        "pinned": int(mid == "m-maya"),
        "valid_from": t,
        "valid_to": T0 + 3 * DAY if status == "superseded" else None,
        "created_at": t,
        "updated_at": t,
        "last_accessed_at": t,
        "last_reinforced": t,
        "status": status,
        "superseded_by": by,
        "superseded_at": T0 + 3 * DAY if by else None,
        "supersession_type": "temporal" if by else None,
        "temporal_supersedes": None,
        "source_session": "s-old",
        "source_turn": i,
        "source_conversation_ids": json.dumps(["s-old"]),
        "entities": json.dumps(["Maya"] if "Maya" in content else []),
        "source_text": content.replace("User", "I"),
        "source": "direct",
        "project_id": None,
        "track": None,
        "key": None,
        "kind": "declarative",
        "quality_form": 1.0,
        "quality_filter": 1.0,
        "quality_substance": 0.8,
        "quality_factuality": 1.0,
        "quality_score": 0.8,
        "attribute": "residence" if "live" in content else None,
        "attribute_value": content.split()[-1].rstrip(".") if "live" in content else None,
        "metadata": json.dumps({}),
        "faded_at": None,
        "source_context": content.replace("User", "I"),
        "reply_context": "Where do you live?" if "live" in content else "",
        "context_embedding": None,
        "event_at": None,
    }


def build(version: int, vectors: dict[str, Any], path: Path) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN")
    for _, step in MIGRATIONS[:version]:
        step(conn)
    conn.execute(f"PRAGMA user_version = {version}")
    model = shared_minilm()
    for key, value in (("embedding_model", model.model_id), ("embedding_dimension", str(model.dimension))):
        conn.execute("INSERT INTO meta(key, value) VALUES (?, ?)", (key, value))
    for i, (mid, content, types, status, by) in enumerate(MEMORIES):
        _insert(conn, "memories", _memory(i, mid, content, types, status, by, vectors[content]))
        for t in types:
            conn.execute("INSERT INTO memory_types(memory_id, type) VALUES (?, ?)", (mid, t))
    _insert(
        conn,
        "edges",
        {
            "id": "m-maya__m-lisbon",
            "from_id": "m-maya",
            "to_id": "m-lisbon",
            "weight": 0.8,
            "shared_entities": "[]",
            "created_at": T0,
            "last_updated": T0,
        },
    )
    _insert(
        conn,
        "episodes",
        {
            "id": "e-1",
            "summary": "User lives in Lisbon.",
            "embedding": vec_to_blob(vectors[MEMORIES[1][1]]),
            "memories_extracted": json.dumps([m[0] for m in MEMORIES]),
            "started_at": T0,
            "ended_at": T0 + DAY,
            "turn_count": 4,
            "emotional_valence": 0.1,
            "topics": json.dumps(["lisbon"]),
        },
    )
    _insert(
        conn,
        "clusters",
        {
            "id": "c-1",
            "centroid": vec_to_blob(vectors[MEMORIES[1][1]]),
            "member_ids": json.dumps([m[0] for m in MEMORIES]),
            "label": "home",
            "last_recomputed": T0,
        },
    )
    if "bridge_events" in {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}:
        _insert(
            conn,
            "bridge_events",
            {
                "id": "b-1",
                "created_at": T0,
                "format": "memory-pack",
                "name": "old pack",
                "origin": None,
                "imported": 0,
                "skipped": 0,
                "conflicts": 0,
                "rejected": "[]",
                "memory_ids": "[]",
            },
        )
    conn.execute("COMMIT")
    conn.execute("VACUUM")
    conn.close()


def main() -> None:
    model = shared_minilm()
    texts = [m[1] for m in MEMORIES]
    vectors = dict(zip(texts, model.embed(texts), strict=True))
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for version in range(1, LATEST_VERSION):
            path = Path(tmp) / f"v{version}.sqlite"
            build(version, vectors, path)
            target = OUT / f"v{version}.sqlite.gz"
            target.write_bytes(gzip.compress(path.read_bytes(), mtime=0))
            print(f"{target.relative_to(OUT.parents[2])}: schema {version}, {target.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
