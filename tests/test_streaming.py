"""Streamed export (export_to) and import (import_data of such a file): lossless, bounded, atomic."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from lokulmem import ImportFormatError, LokulMem, Memory, ValidationError
from lokulmem.manage.streaming import STREAM_BATCH


def _fill(mem: LokulMem) -> None:
    mem.learn("I live in Berlin and my sister Maya is a pianist.", "Where do you live?", session_id="s1")
    mem.learn("Maya loves the cello too.", session_id="s1")
    mem.learn("I love strong black coffee.", session_id="s1")
    mem.end_session("s1")
    mem.maintenance(sweep=True, cluster=True)


def _canonical(doc: dict[str, Any]) -> dict[str, list[str]]:
    return {
        k: sorted(json.dumps(x, sort_keys=True) for x in doc[k])
        for k in ("memories", "episodes", "clusters", "edges")
    }


def _fingerprint(mem: LokulMem) -> str:
    return json.dumps(_canonical(mem.manage().export()), sort_keys=True)


def test_a_streamed_export_reads_back_losslessly(make_mem: Callable[..., LokulMem], tmp_path: Path) -> None:
    source = make_mem()
    _fill(source)
    whole = source.manage().export()
    assert whole["edges"], "the fixture should have a knowledge-graph edge"
    path = tmp_path / "export.json"
    assert source.manage().export_to(path) == len(whole["memories"])
    assert _canonical(json.loads(path.read_text())) == _canonical(whole)  # valid JSON, same document
    lines = path.read_text().splitlines()
    assert lines[1] == '"memories": [' and len(lines) > len(whole["memories"]) + 8  # one record per line

    added: list[Memory] = []
    target = make_mem()
    target.manage().on_memory_added(added.append)
    result = target.manage().import_data(path)
    assert result.imported == len(whole["memories"]) and len(added) == result.imported
    assert _canonical(target.manage().export()) == _canonical(whole)
    assert target.manage().search("pianist") and "Berlin" in target.augment("Where do I live?", []).context
    event = target.manage().get_bridge_events()[0]
    assert event.format == "lokulmem-export" and event.origin == str(path)


def test_merge_and_conflicts_follow_the_strategy(make_mem: Callable[..., LokulMem], tmp_path: Path) -> None:
    source = make_mem()
    _fill(source)
    path = tmp_path / "export.json"
    source.manage().export_to(path)
    target = make_mem()
    target.manage().import_data(path)
    target.learn("I have a dog called Rex.")
    again = target.manage().import_data(path, merge=True)  # keep-existing: every id conflicts, skipped
    assert again.imported == 0 and again.conflicts == again.skipped > 0
    assert target.manage().search("Rex")
    replaced = target.manage().import_data(path)  # an export replaces by default
    assert replaced.imported > 0 and not target.manage().search("Rex")


@pytest.mark.parametrize(
    ("damage", "item"),
    [
        (lambda lines: lines[: len(lines) // 2], "line"),  # cut short (a crash while copying)
        (lambda lines: [*lines[:3], lines[2], *lines[3:]], "memories[1].id"),  # a duplicate id
        (lambda lines: [lines[0], lines[1], '{"id": "x", "content": 3}', *lines[2:]], "memories[0]"),
        (lambda lines: [lines[0], lines[1], "{" * 100_000, *lines[2:]], "memories[0]"),
        (lambda lines: [lines[0], '"secrets": [', *lines[2:]], "line 2"),
    ],
)
def test_a_damaged_file_changes_nothing(
    make_mem: Callable[..., LokulMem], tmp_path: Path, damage: Callable[[list[str]], list[str]], item: str
) -> None:
    source = make_mem()
    _fill(source)
    path = tmp_path / "export.json"
    source.manage().export_to(path)
    path.write_text("\n".join(damage(path.read_text().splitlines())) + "\n")
    target = make_mem()
    target.learn("I have a dog called Rex.")
    before = _fingerprint(target)
    with pytest.raises(ImportFormatError) as err:
        target.manage().import_data(path)
    assert err.value.item.startswith(item)
    assert _fingerprint(target) == before


def test_a_record_longer_than_the_line_limit_is_refused(
    make_mem: Callable[..., LokulMem], tmp_path: Path
) -> None:
    mem = make_mem()
    limit = 16 * mem.config.max_message_chars + 65_536
    path = tmp_path / "long.json"
    head = '{"format": "lokulmem-export", "version": "1", "layout": "lines",\n"memories": [\n'
    path.write_text(head + '{"id": "a", "content": "' + "x" * limit + '"}\n]}\n')
    with pytest.raises(ImportFormatError, match="longer than"):
        mem.manage().import_data(path)


def test_many_pages_and_arguments(make_mem: Callable[..., LokulMem], tmp_path: Path) -> None:
    source = make_mem()
    n = STREAM_BATCH + 40  # more than one page each way
    source.manage().import_data(
        {
            "memories": [
                {"key": f"k{i}", "value": f"User owns a {i}-year-old bicycle number {i}."} for i in range(n)
            ]
        }
    )
    path = tmp_path / "export.json"
    assert source.manage().export_to(path, include_embeddings=False) == n
    assert json.loads(path.read_text())["memories"][0]["embedding"] is None
    target = make_mem()
    assert target.manage().import_data(path).imported == n  # vectors recomputed
    assert target.manage().semantic_search("bicycle number 7")
    with pytest.raises(ValidationError, match="path"):
        source.manage().export_to(3)  # type: ignore[arg-type]
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    with pytest.raises(ValidationError, match="include_embeddings"):
        source.manage().export_to(path, include_embeddings="yes")  # type: ignore[arg-type]
    assert hashlib.sha256(path.read_bytes()).hexdigest() == digest
