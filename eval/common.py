"""Shared helpers of the evaluations: tables, the JSON line, a quiet model."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence
from typing import Any, TypeVar

from lokulmem import Config, MiniLMEmbedder
from lokulmem.client import shared_minilm

__all__ = [
    "add_config_args",
    "config_label",
    "config_options",
    "emit",
    "model",
    "overrides",
    "pct",
    "progress",
    "table",
]


T = TypeVar("T")


def overrides(items: Sequence[str] | None) -> dict[str, Any]:
    """``["extraction_threshold=0.4", 'retrieval_weights={"lexical": 0.3}']`` → Config options.

    Values are JSON when they parse as JSON, else plain strings.
    """
    out: dict[str, Any] = {}
    for item in items or ():
        key, sep, raw = item.partition("=")
        if not sep:
            raise SystemExit(f"--set expects key=value, got {item!r}")
        try:
            out[key.strip()] = json.loads(raw)
        except json.JSONDecodeError:
            out[key.strip()] = raw
    return out


def add_config_args(parser: argparse.ArgumentParser) -> None:
    """``--set key=value`` (any Config field) and ``--prd`` (the PRD's starting values)."""
    parser.add_argument("--set", action="append", metavar="KEY=VALUE", help="a Config override (JSON value)")
    parser.add_argument(
        "--prd",
        action="store_true",
        help="start from Config.prd(), the PRD's values of every tuned constant (docs/tuning.md)",
    )


def config_options(args: argparse.Namespace) -> dict[str, Any]:
    """LokulMem keyword options for the parsed ``--set`` / ``--prd``."""
    changes = overrides(args.set)
    return {"config": Config.prd(**changes)} if args.prd else changes


def config_label(args: argparse.Namespace) -> dict[str, Any]:
    """How the run was configured, for its JSON line."""
    return {"prd": bool(args.prd), "set": list(args.set or [])}


def model() -> MiniLMEmbedder:
    m = shared_minilm()
    m.load()
    return m


def pct(x: float) -> str:
    return f"{100 * x:5.1f}"


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]], *, title: str | None = None) -> None:
    cells = [[str(h) for h in headers], *[[str(c) for c in r] for r in rows]]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    if title:
        print(f"\n{title}")
    for j, r in enumerate(cells):
        print(
            "  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True)))
        )
        if j == 0:
            print("  ".join("-" * w for w in widths))


def emit(figures: dict[str, Any]) -> None:
    """The last line of every evaluation: one JSON object with every figure."""
    sys.stdout.flush()
    print(json.dumps(figures, sort_keys=True))


def progress(items: Sequence[T], label: str) -> Iterator[T]:
    """``items`` with a progress bar on stderr (a terminal only: logs stay clean)."""
    from rich.console import Console
    from rich.progress import track

    console = Console(stderr=True)
    if not console.is_terminal:
        yield from items
        return
    yield from track(items, description=label, console=console, transient=True)
