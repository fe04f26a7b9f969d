"""A store of every earlier schema version upgrades cleanly; a newer one is refused untouched.

The fixtures are written by ``scripts/make_schema_fixtures.py`` (each version's own
migrations, then that version's columns filled through plain SQL)."""

from __future__ import annotations

import gzip
import hashlib
import sqlite3
from pathlib import Path

import pytest

from lokulmem import LokulMem, ManualClock, MiniLMEmbedder, SchemaVersionError
from lokulmem.storage.migrations import LATEST_VERSION

FIXTURES = Path(__file__).parent / "data" / "schemas"


def _unpack(version: int, tmp_path: Path) -> Path:
    path = tmp_path / f"v{version}.sqlite"
    path.write_bytes(gzip.decompress((FIXTURES / f"v{version}.sqlite.gz").read_bytes()))
    return path


def test_there_is_a_fixture_for_every_earlier_version() -> None:
    assert sorted(p.name for p in FIXTURES.glob("*.gz")) == sorted(
        f"v{v}.sqlite.gz" for v in range(1, LATEST_VERSION)
    ), "run python scripts/make_schema_fixtures.py"


@pytest.mark.parametrize("version", range(1, LATEST_VERSION))
def test_an_old_store_upgrades_and_reads_back(version: int, tmp_path: Path, embedder: MiniLMEmbedder) -> None:
    path = _unpack(version, tmp_path)
    clock = ManualClock(1_700_000_000_000 + 5 * 86_400_000)  # five days after the fixture's first memory
    with LokulMem(path=path, embedder=embedder, executor="inline", clock=clock) as mem:
        m = mem.manage()
        by_id = {x.id: x for x in m.list()}
        assert set(by_id) == {"m-berlin", "m-lisbon", "m-maya", "m-coffee"}
        assert by_id["m-berlin"].status == "superseded" and by_id["m-lisbon"].status == "active"
        assert by_id["m-maya"].pinned and by_id["m-maya"].entities == ("Maya",)
        replaced = m.get_lineage("m-berlin").superseded_by
        assert replaced is not None and replaced.id == "m-lisbon"
        assert [x.id for x in m.search("pianist")] == ["m-maya"]  # the full-text index was (re)built
        assert "Lisbon" in mem.augment("Where do I live?", []).context
        assert [e.id for e in mem.storage.all_episodes()] == ["e-1"]
        assert [x.id for x in m.get_related("m-maya")] == ["m-lisbon"]
        mem.learn("I have a dog called Rex.")  # and it takes new writes
        assert m.search("Rex")
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == LATEST_VERSION
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.execute("INSERT INTO memories_fts(memories_fts) VALUES ('integrity-check')")
    conn.close()


def test_a_newer_schema_is_refused_untouched(tmp_path: Path, embedder: MiniLMEmbedder) -> None:
    path = _unpack(LATEST_VERSION - 1, tmp_path)
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {LATEST_VERSION + 1}")
    conn.close()
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    with pytest.raises(SchemaVersionError, match="newer"):
        LokulMem(path=path, embedder=embedder, executor="inline").init()
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]  # no -wal or -shm left behind
