"""backup() through SQLite's online backup API while writers run, and restore()."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from lokulmem import (
    LokulMem,
    PassphraseRequiredError,
    SchemaVersionError,
    StorageError,
    ValidationError,
    WrongPassphraseError,
)

WRITER = """
import sys
from lokulmem import LokulMem
with LokulMem(path=sys.argv[1], executor="inline") as mem:
    print("ready", flush=True)
    for i in range(int(sys.argv[2])):
        mem.learn(f"My neighbour Backuptest{i} grows tomatoes number {i}.", force_extract=True)
"""


def _count(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # one self-contained file
        return int(conn.execute("SELECT count(*) FROM memories").fetchone()[0])
    finally:
        conn.close()


@pytest.mark.slow
def test_backups_while_another_process_writes(make_mem: Callable[..., LokulMem], tmp_path: Path) -> None:
    mem = make_mem()
    mem.learn("I live in Berlin.")
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, mem.location, "120"], stdout=subprocess.PIPE, text=True
    )
    assert writer.stdout is not None and writer.stdout.readline().strip() == "ready"
    counts = []
    for i in range(4):
        time.sleep(0.4)
        mem.learn(f"I also like dish number {i}.", force_extract=True)  # this process writes too
        counts.append(_count(mem.backup(tmp_path / f"backup{i}.sqlite")))
    writer.wait(timeout=300)
    assert writer.returncode == 0
    assert counts == sorted(counts) and counts[-1] > counts[0]  # each a consistent, later snapshot
    final = _count(mem.backup(tmp_path / "final.sqlite"))
    assert final == mem.storage.count_memories()
    with LokulMem(path=tmp_path / "final.sqlite", executor="inline") as copy:
        assert copy.manage().search("Backuptest119")


def test_backup_refuses_to_overwrite_and_never_leaves_half_a_file(
    make_mem: Callable[..., LokulMem], tmp_path: Path
) -> None:
    mem = make_mem()
    mem.learn("I live in Berlin.")
    target = mem.backup(tmp_path / "b.sqlite")
    with pytest.raises(ValidationError, match="exists"):
        mem.backup(target)
    mem.learn("My sister Maya is a pianist.")
    mem.backup(target, overwrite=True)
    assert _count(target) == 2
    with pytest.raises(ValidationError, match="not a directory"):
        mem.backup(tmp_path / "missing" / "b.sqlite")
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".partial")] == []


def test_restore_brings_the_backup_back(make_mem: Callable[..., LokulMem], tmp_path: Path) -> None:
    mem = make_mem()
    mem.learn("I live in Berlin.")
    saved = mem.backup(tmp_path / "b.sqlite")
    mem.learn("My sister Maya is a pianist.")
    mem.manage().delete_many([m.id for m in mem.manage().search("Berlin")])
    other = make_mem(path=mem.location)  # a second client on the same store
    mem.restore(saved)
    assert [m.content for m in mem.manage().list()] == ["User lives in Berlin."]
    assert mem.manage().search("Berlin") and "Berlin" in mem.augment("Where do I live?", []).context
    assert [m.content for m in other.manage().list()] == ["User lives in Berlin."]  # it reloads


def test_restore_checks_before_writing(make_mem: Callable[..., LokulMem], tmp_path: Path) -> None:
    mem = make_mem()
    mem.learn("I live in Berlin.")
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database" * 100)
    newer = mem.backup(tmp_path / "newer.sqlite")
    conn = sqlite3.connect(newer)
    conn.execute("PRAGMA user_version = 999")
    conn.close()
    cases = ((junk, StorageError), (newer, SchemaVersionError), (tmp_path / "none", ValidationError))
    for bad, error in cases:
        with pytest.raises(error):
            mem.restore(bad)
    assert [m.content for m in mem.manage().list()] == ["User lives in Berlin."]


def test_encrypted_backups_stay_encrypted(make_mem: Callable[..., LokulMem], tmp_path: Path) -> None:
    mem = make_mem(encryption_passphrase="pass one", pbkdf2_iterations=100_000)
    mem.learn("My sister Maya is a pianist.")
    saved = mem.backup(tmp_path / "b.sqlite")
    assert b"pianist" not in saved.read_bytes()
    mem.learn("I live in Berlin.")
    mem.restore(saved)  # same key: no passphrase needed
    assert len(mem.manage().list()) == 1 and mem.manage().search("pianist")
    mem.change_passphrase("pass two")
    with pytest.raises(PassphraseRequiredError):
        mem.restore(saved)
    with pytest.raises(WrongPassphraseError):
        mem.restore(saved, passphrase="pass two")
    mem.restore(saved, passphrase="pass one")
    assert mem.manage().search("pianist")
    mem.close()
    # The store now holds the backup's encryption: its passphrase opens it.
    with LokulMem(path=mem.location, encryption_passphrase="pass one", executor="inline") as again:
        assert again.manage().search("pianist")
