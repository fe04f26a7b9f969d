"""The ``lokulmem`` commands on real stores (real model, real SQLite files)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from lokulmem import LokulMem
from lokulmem.cli import main
from lokulmem.cli.conversation import read_transcript

TRANSCRIPT = [
    {"role": "system", "content": "You are helpful."},
    {"role": "user", "content": "Hi! My name is Alex and I live in Berlin."},
    {"role": "assistant", "content": "Nice to meet you, Alex!"},
    {"role": "user", "content": [{"type": "text", "text": "I work at Acme Corp as a product manager."}]},
    {"role": "assistant", "content": "Sounds like a busy role."},
    {"role": "user", "content": "I used to live in Berlin, but now I live in Lisbon."},
]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> Any:
    code, out, err = run(capsys, *args, "--json")
    assert code == 0, err
    return json.loads(out)


@pytest.fixture
def db(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A store learned from TRANSCRIPT through ``lokulmem learn``."""
    path = tmp_path / "cli.sqlite"
    source = tmp_path / "chat.json"
    source.write_text(json.dumps(TRANSCRIPT))
    code, out, err = run(capsys, "learn", str(source), "--path", str(path), "--session", "s1")
    assert code == 0, err
    assert "User lives in Berlin." in out and "temporal-coexistence" in out
    return path


def contents(capsys: pytest.CaptureFixture[str], db: Path, *extra: str) -> list[str]:
    return [m["content"] for m in run_json(capsys, "list", "--path", str(db), *extra)]


def ids_by_content(capsys: pytest.CaptureFixture[str], db: Path) -> dict[str, str]:
    return {m["content"]: m["id"] for m in run_json(capsys, "list", "--path", str(db))}


def test_learn_stores_the_user_turns_and_ends_the_session(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert sorted(contents(capsys, db)) == [
        "User lives in Berlin.",
        "User used to live in Berlin, but now User lives in Lisbon.",
        "User works at Acme Corp as a product manager.",
        "User's name is Alex.",
    ]
    with LokulMem(path=db) as mem:  # --session ended it: an episode was written
        assert len(mem.storage.all_episodes()) == 1


def test_learn_reads_json_lines_from_stdin(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = "\n".join(json.dumps(m) for m in TRANSCRIPT[:3])
    monkeypatch.setattr("sys.stdin", io.StringIO(lines))
    rows = run_json(capsys, "learn", "-", "--path", str(tmp_path / "s.sqlite"))
    assert [d["content"] for d in rows[0]["decisions"] if d["outcome"] == "stored"] == [
        "User's name is Alex.",
        "User lives in Berlin.",
    ]


def test_a_transcript_pairs_each_user_turn_with_the_reply_it_answers() -> None:
    assert read_transcript(json.dumps({"messages": TRANSCRIPT})) == [
        ("Hi! My name is Alex and I live in Berlin.", ""),
        ("I work at Acme Corp as a product manager.", "Nice to meet you, Alex!"),
        ("I used to live in Berlin, but now I live in Lisbon.", "Sounds like a busy role."),
    ]


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ('[{"role": "user", "content": "hi"}, {"role": "robot", "content": "x"}]', "messages[1]"),
        ('[{"role": "user", "content": [1]}]', "messages[0].content[0]"),
        ('{"role": "user"}\n{"role": "user", "content": "hi"}\nnot json', "line 3"),
        ('{"conversation": []}', "list of messages"),
    ],
)
def test_a_bad_transcript_is_exit_2_naming_the_item_and_creates_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, named: str
) -> None:
    source = tmp_path / "bad.json"
    source.write_text(text)
    code, _, err = run(capsys, "learn", str(source), "--path", str(tmp_path / "new.sqlite"))
    assert code == 2 and named in err
    assert not (tmp_path / "new.sqlite").exists()


def test_commands_on_a_missing_store_say_so_and_create_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "missing.sqlite"
    for args in (["list"], ["search", "x"], ["recall", "x"], ["stats"], ["pin", "some-id"], ["export", "-"]):
        code, _, err = run(capsys, *args, "--path", str(missing))
        assert code == 2 and "no store at" in err, args
    assert list(tmp_path.iterdir()) == []


def test_path_and_store_together_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "list", "--path", str(tmp_path / "a.sqlite"), "--store", "b")
    assert code == 2 and "not both" in err


def test_search_by_words_and_by_meaning(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    found = run_json(capsys, "search", "Lisbon", "--path", str(db))
    assert [m["content"] for m in found] == ["User used to live in Berlin, but now User lives in Lisbon."]
    scored = run_json(capsys, "search", "what is my job", "--semantic", "--limit", "1", "--path", str(db))
    assert scored[0]["memory"]["content"].startswith("User works at Acme")
    assert 0 < scored[0]["similarity"] <= 1


def test_recall_shows_cards_current_fact_first_and_changes_nothing(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = run_json(capsys, "export", "-", "--path", str(db))
    cards = run_json(capsys, "recall", "Where do I live?", "--path", str(db))
    assert cards[0]["content"].endswith("now User lives in Lisbon.") and cards[0]["current"]
    assert any(c["content"] == "User lives in Berlin." and not c["current"] for c in cards)
    assert run_json(capsys, "recall", "How do volcanoes form?", "--path", str(db)) == []
    after = run_json(capsys, "export", "-", "--path", str(db))
    assert [m["mention_count"] for m in after["memories"]] == [m["mention_count"] for m in before["memories"]]


def test_preview_prints_the_block_and_each_score_part(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "preview", "Where do I live now?", "--path", str(db))
    assert code == 0
    assert "semantic" in out and "lexical" in out and "█" in out
    assert "[Memory Context — what you know about this user]" in out
    preview = run_json(capsys, "preview", "Where do I live now?", "--path", str(db))
    assert preview["estimated_tokens"] > 0 and preview["would_inject"][0]["score_breakdown"]["semantic"] > 0
    code, out, _ = run(capsys, "preview", "How do volcanoes form?", "--path", str(db))
    assert code == 0 and "nothing would be injected" in out


def test_pin_archive_edit_and_delete(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ids = ids_by_content(capsys, db)
    job, name = ids["User works at Acme Corp as a product manager."], ids["User's name is Alex."]
    assert run_json(capsys, "pin", job, "--path", str(db)) == {"changed": 1}
    assert contents(capsys, db, "--pinned") == ["User works at Acme Corp as a product manager."]
    assert run_json(capsys, "unpin", job, "--path", str(db)) == {"changed": 1}
    assert run_json(capsys, "archive", job, "--path", str(db)) == {"changed": 1}
    assert contents(capsys, db, "--status", "archived") == ["User works at Acme Corp as a product manager."]
    assert run_json(capsys, "unarchive", job, "--path", str(db)) == {"changed": 1}
    edited = run_json(capsys, "edit", name, "User's name is Alexandra.", "--path", str(db))
    assert edited["content"] == "User's name is Alexandra."
    lineage = run_json(capsys, "show", name, "--path", str(db))
    assert lineage["corrections"] == ["User's name is Alex."]
    assert run_json(capsys, "delete", job, "--yes", "--path", str(db)) == {"deleted": 1}
    assert "User works at Acme Corp as a product manager." not in contents(capsys, db)


def test_an_unknown_id_is_exit_1_and_changes_nothing(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ids = list(ids_by_content(capsys, db).values())
    code, _, err = run(capsys, "archive", ids[0], "no-such-id", "--path", str(db))
    assert code == 1 and "MemoryNotFoundError" in err and "no-such-id" in err
    assert contents(capsys, db, "--status", "archived") == []
    code, _, err = run(capsys, "show", "no-such-id", "--path", str(db))
    assert code == 1 and "MemoryNotFoundError" in err


def test_delete_asks_first(
    db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    some = next(iter(ids_by_content(capsys, db).values()))
    monkeypatch.setattr("sys.stdin", io.StringIO("n\n"))
    code, _, err = run(capsys, "delete", some, "--path", str(db))
    assert code == 1 and "aborted" in err.lower()
    assert len(contents(capsys, db)) == 4


def test_show_gives_the_lineage_of_a_replaced_fact(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    berlin = ids_by_content(capsys, db)["User lives in Berlin."]
    lineage = run_json(capsys, "show", berlin, "--path", str(db))
    assert lineage["superseded_by"]["content"].endswith("now User lives in Lisbon.")
    code, out, _ = run(capsys, "show", berlin, "--path", str(db))
    assert code == 0 and "replaced by" in out


def test_export_import_round_trip_and_a_bad_import_changes_nothing(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dump = tmp_path / "dump.json"
    assert run_json(capsys, "export", str(dump), "--path", str(db)) == {"exported": 4, "file": str(dump)}
    copy = tmp_path / "copy.sqlite"
    result = run_json(capsys, "import", str(dump), "--path", str(copy))
    assert result["imported"] == 4
    assert sorted(contents(capsys, copy)) == sorted(contents(capsys, db))
    broken = tmp_path / "broken.json"
    broken.write_text(dump.read_text()[:-200])
    code, _, err = run(capsys, "import", str(broken), "--path", str(copy))
    assert code == 1 and "ImportFormatError" in err
    assert sorted(contents(capsys, copy)) == sorted(contents(capsys, db))
    code, out, _ = run(capsys, "export", "-", "--markdown", "--path", str(db))
    assert code == 0 and out.startswith("# LokulMem Export")


def test_backup_and_restore(db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    saved = tmp_path / "backup.sqlite"
    assert run_json(capsys, "backup", str(saved), "--path", str(db))["backup"] == str(saved)
    code, _, err = run(capsys, "backup", str(saved), "--path", str(db))
    assert code == 1 and "exists" in err  # no --overwrite
    restored = tmp_path / "restored.sqlite"
    run_json(capsys, "restore", str(saved), "--path", str(restored))
    assert sorted(contents(capsys, restored)) == sorted(contents(capsys, db))


def test_stats_and_maintenance(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    stats = run_json(capsys, "stats", "--path", str(db))
    assert stats["total"] == 4 and stats["by_type"]["location"] == 2
    code, out, _ = run(capsys, "stats", "--path", str(db))
    assert code == 0 and "location" in out and "█" in out
    assert "search: exact over 4 vectors (below hnsw_threshold (20000))" in out
    assert stats["search_index"]["mode"] == "exact"
    report = run_json(capsys, "maintenance", "--path", str(db))
    assert report["ran"] is True and report["faded"] == []


def test_an_encrypted_store_reads_its_passphrase_from_the_environment(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "sealed.sqlite"
    with LokulMem(path=path, encryption_passphrase="correct horse", pbkdf2_iterations=100_000) as mem:
        mem.learn("I live in Porto.")
    code, _, err = run(capsys, "list", "--path", str(path))
    assert code == 1 and "PassphraseRequiredError" in err
    monkeypatch.setenv("LOKULMEM_PASSPHRASE", "wrong")
    code, _, err = run(capsys, "list", "--path", str(path))
    assert code == 1 and "WrongPassphraseError" in err
    monkeypatch.setenv("LOKULMEM_PASSPHRASE", "correct horse")
    assert contents(capsys, path) == ["User lives in Porto."]


def test_the_installed_command_exits_with_the_documented_codes(tmp_path: Path) -> None:
    import subprocess
    import sys

    def status(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "lokulmem.cli", *args], capture_output=True, text=True, timeout=120
        )

    missing = status("list", "--path", str(tmp_path / "missing.sqlite"))
    assert missing.returncode == 2 and "no store at" in missing.stderr
    assert status("no-such-command").returncode == 2
    helped = status("--help")
    assert helped.returncode == 0 and "doctor" in helped.stdout


def test_reembed_brings_back_a_store_made_with_another_embedder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from test_storage import HashEmbedder

    path = tmp_path / "other.sqlite"
    with LokulMem(path=path, embedder=HashEmbedder(), executor="inline") as mem:
        mem.learn("I live in Porto and I work as a nurse.")
    code, _, err = run(capsys, "list", "--path", str(path))
    assert code == 1 and "EmbeddingModelMismatchError" in err
    assert run_json(capsys, "reembed", "--yes", "--path", str(path)) == {"reembedded": 2}
    found = run_json(capsys, "search", "my job", "--semantic", "--limit", "1", "--path", str(path))
    assert found[0]["memory"]["content"] == "User works as a nurse."
