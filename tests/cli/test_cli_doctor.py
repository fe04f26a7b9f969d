"""``lokulmem doctor`` on sound, damaged, newer and missing stores."""

from __future__ import annotations

import gzip
import json
import sqlite3
from pathlib import Path

import pytest

from lokulmem import LokulMem
from lokulmem.cli import main
from lokulmem.storage.migrations import LATEST_VERSION


def doctor(capsys: pytest.CaptureFixture[str], path: Path) -> tuple[int, dict[str, dict[str, str]]]:
    code = main(["doctor", "--path", str(path), "--json"])
    checks = json.loads(capsys.readouterr().out)
    return code, {c["name"]: c for c in checks}


def test_a_sound_store_passes_every_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "ok.sqlite"
    with LokulMem(path=path) as mem:
        mem.learn("I live in Porto and I work as a nurse.")
    code, checks = doctor(capsys, path)
    assert code == 0
    assert {c["state"] for c in checks.values()} == {"ok"}
    assert checks["vector index"]["detail"] == "2 vectors for 2 active memories with vectors"
    assert checks["schema"]["detail"] == f"version {LATEST_VERSION} (current)"
    assert "sha256" in checks["embedding model"]["detail"]


def test_a_file_that_is_not_a_store_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "junk.sqlite"
    path.write_bytes(b"not a database at all" * 100)
    code, checks = doctor(capsys, path)
    assert code == 1 and checks["store file"]["state"] == "fail"


def test_a_newer_schema_fails_and_the_file_is_untouched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "newer.sqlite"
    with LokulMem(path=path) as mem:
        mem.learn("I live in Porto.")
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {LATEST_VERSION + 1}")
    conn.close()
    before = path.read_bytes()
    code, checks = doctor(capsys, path)
    assert code == 1 and "newer than this lokulmem" in checks["schema"]["detail"]
    assert path.read_bytes() == before and "vector index" not in checks


def test_an_old_schema_is_a_warning_and_is_not_upgraded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fixture = Path(__file__).resolve().parents[1] / "data" / "schemas" / "v7.sqlite.gz"
    path = tmp_path / "v7.sqlite"
    path.write_bytes(gzip.decompress(fixture.read_bytes()))
    before = path.read_bytes()
    code, checks = doctor(capsys, path)
    assert code == 0 and checks["schema"]["state"] == "warn"
    assert path.read_bytes() == before  # doctor only looks: no upgrade


def test_a_missing_store_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, checks = doctor(capsys, tmp_path / "missing.sqlite")
    assert code == 2 and checks["store"]["state"] == "fail"
    assert not (tmp_path / "missing.sqlite").exists()
