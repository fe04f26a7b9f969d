"""Input hygiene: the pure rules (lokulmem.hygiene) and what they do at the public entry points."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from lokulmem import ConfigError, ImportFormatError, LokulMem, ValidationError
from lokulmem.embedding.minilm import CHARS_PER_TOKEN_BOUND
from lokulmem.hygiene import REPLACEMENT, check_finite, check_id, check_text, clean_text, is_clean
from lokulmem.transfer import EXPORT_FORMAT, EXPORT_VERSION

# -- the pure rules ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("I like tea.", "I like tea."),
        ("tab\tnew\nline\r", "tab\tnew\nline\r"),
        ("lone \ud800 surrogate", f"lone {REPLACEMENT} surrogate"),
        ("NUL\x00 and bell\x07 and DEL\x7f and C1\x85", "NUL and bell and DEL and C1"),
        ("bidi \u202eevil\u202c \u2066iso\u2069", "bidi evil iso"),
        ("emoji 👨‍👩‍👧 and é", "emoji 👨‍👩‍👧 and é"),  # ZWJ sequences and accents are kept
    ],
)
def test_clean_text(raw: str, clean: str) -> None:
    assert clean_text(raw) == clean
    assert is_clean(clean)
    assert is_clean(raw) == (raw == clean)


def test_clean_text_cuts_before_cleaning() -> None:
    assert clean_text("abc\x00def", 4) == "abc"
    assert clean_text("x" * 10, None) == "x" * 10


def test_check_text_names_the_argument() -> None:
    with pytest.raises(ValidationError) as err:
        check_text("query", b"bytes")
    assert err.value.item == "query"


@pytest.mark.parametrize("bad", ["", "   ", "a\x00b", "\ud800", "x" * 257, None, 3, ["a"]])
def test_check_id_refuses(bad: object) -> None:
    with pytest.raises(ValidationError) as err:
        check_id("memory_id", bad, 256)
    assert err.value.item == "memory_id"


def test_check_id_keeps_a_good_id() -> None:
    assert check_id("memory_id", "m-123_ü", 256) == "m-123_ü"


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_check_finite(bad: float) -> None:
    with pytest.raises(ValidationError):
        check_finite("x", bad)
    assert check_finite("x", 1.5) == 1.5


# -- at the entry points ----------------------------------------------------------


def test_text_with_a_surrogate_is_learned_and_recalled(mem: LokulMem) -> None:
    mem.learn("I live in Berlin\ud800 and I love \u202estrong coffee.")
    stored = [m.content for m in mem.manage().list()]
    assert stored and all(is_clean(c) for c in stored)
    assert any(REPLACEMENT in c for c in stored)
    assert not any("\u202e" in c for c in stored)
    result = mem.augment("Where do I live\udfff?", [{"role": "user", "content": "hi \ud800"}])
    assert "Berlin" in result.context
    assert mem.manage().semantic_search("\ud800 Berlin")


def test_a_bad_session_id_is_refused_and_does_not_stick(mem: LokulMem) -> None:
    with pytest.raises(ValidationError) as err:
        mem.learn("I like tea.", session_id="s\x00")
    assert err.value.item == "session_id"
    mem.learn("I like green tea.", session_id="s-1")  # the refused id was not kept
    assert mem.manage().get_by_conversation("s-1")


@pytest.mark.parametrize(
    "call",
    [
        lambda m: m.manage().get("\ud800"),
        lambda m: m.manage().pin("x" * 1000),
        lambda m: m.manage().delete_many(["ok", "bad\x00"]),
        lambda m: m.end_session("\ud800"),
        lambda m: m.manage().get_upcoming(within_days=math.nan),
        lambda m: m.manage().get_upcoming(within_days=10**18),
        lambda m: m.manage().list(since=math.inf),
        lambda m: m.manage().list(min_strength=math.nan),
        lambda m: m.manage().list(types=[f"t{i}" for i in range(1000)]),
    ],
)
def test_bad_ids_and_numbers_are_validation_errors(mem: LokulMem, call: Callable[[LokulMem], Any]) -> None:
    with pytest.raises(ValidationError):
        call(mem)


def _nested(depth: int) -> Any:
    node: Any = "deep"
    for _ in range(depth):
        node = [{"type": "text", "text": node}]
    return node


def _loop() -> list[Any]:
    blocks: list[Any] = [{"type": "text", "text": "hi"}]
    blocks.append(blocks)
    return blocks


@pytest.mark.parametrize(
    ("history", "item"),
    [
        ([{"role": "user", "content": _nested(100)}], "history[0].content"),
        ([{"role": "user", "content": "ok"}, {"role": "user", "content": _loop()}], "history[1].content"),
        ([{"role": "assistant", "content": None, "tool_calls": _nested(50)}], "history[0].tool_calls"),
        ([{"role": "user", "content": "hi"}] * 10_001, "history"),
    ],
)
def test_histories_are_bounded(mem: LokulMem, history: list[Any], item: str) -> None:
    for call in (
        lambda: mem.augment("Where do I live?", history),
        lambda: mem.compact(history, session_id="s"),
        lambda: mem.manage().get_injection_preview("Where?", history=history),
    ):
        with pytest.raises(ValidationError) as err:
            call()
        assert err.value.item == item


def test_a_shallow_tool_history_passes(mem: LokulMem) -> None:
    history = [
        {"role": "user", "content": [{"type": "text", "text": "Weather?"}]},
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "t1", "content": [{"type": "text", "text": "sun"}]}
            ],
        },
    ]
    assert mem.augment("Thanks!", history).messages[-1]["content"] == "Thanks!"


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"store_name": "../../etc/x"}, "store_name"),
        ({"store_name": "a/b"}, "store_name"),
        ({"store_name": ".hidden"}, "store_name"),
        ({"store_name": "a\x00b"}, "store_name"),
        ({"store_name": ""}, "store_name"),
        ({"path": "/tmp/a\x00b.sqlite"}, "path"),
        ({"path": "/tmp/\ud800.sqlite"}, "path"),
        ({"path": 12}, "path"),
    ],
)
def test_store_location_is_checked(options: dict[str, Any], field: str) -> None:
    with pytest.raises(ConfigError) as err:
        LokulMem(**options)
    assert err.value.field == field


def test_import_is_cleaned_and_bounded(mem: LokulMem, tmp_path: Path) -> None:
    doc = {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "memories": [{"id": "m1", "content": "I like tea\ud800\x00.", "types": ["preference"]}],
    }
    mem.manage().import_data(json.dumps(doc), merge=True)  # JSON's "\ud800" escape
    assert mem.manage().get("m1").content == f"I like tea{REPLACEMENT}."
    before = mem.manage().export(include_embeddings=False)["memories"]
    too_long = {**doc, "memories": [{**doc["memories"][0], "id": "m2", "content": "a " * 20_000}]}
    bad = ("[" * 100_000 + "]" * 100_000, Path("/nonexistent/\ud800.json"), tmp_path / "a\x00", too_long)
    for data in bad:
        with pytest.raises(ImportFormatError):
            mem.manage().import_data(data, merge=True)
    assert mem.manage().export(include_embeddings=False)["memories"] == before


def test_the_embedder_reads_only_what_the_model_reads(mem: LokulMem) -> None:
    embedder = mem.engine.embedder
    long = "Berlin is lovely in spring. " * 20_000
    cut = long[: 256 * CHARS_PER_TOKEN_BOUND]
    a, b = embedder.embed([long, cut])
    assert float(a @ b) > 0.9999
