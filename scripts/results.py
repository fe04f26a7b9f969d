"""Benchmark and evaluation figures for the docs site: record them, then plot them.

    python scripts/results.py record     # runs the commands below, writes docs/data/results.json
    python scripts/results.py plot       # docs/images/*.png and the table in docs/results.md

``record`` runs each command in ``COMMANDS`` from the repository root and keeps
its last output line (every bench and eval prints its figures as one JSON
object there), with the command, the date and the commit.  ``plot`` needs
matplotlib (not a lokulmem dependency) and only reads that file, so the
figures on the site are the ones recorded, never typed in.
"""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "docs" / "data" / "results.json"
IMAGES = ROOT / "docs" / "images"
PAGE = ROOT / "docs" / "results.md"
BEGIN, END = "<!-- results:begin -->", "<!-- results:end -->"

#: name -> command (run with this interpreter from the repository root).
COMMANDS: dict[str, list[str]] = {
    "core": ["bench/bench_core.py", "--sizes", "1000", "3000", "10000", "--runs", "30"],
    "prd": ["bench/bench_prd.py", "--runs", "50"],
    "retrieval": ["-m", "eval.retrieval"],
    "knowledge_update": ["-m", "eval.knowledge_update"],
    "knowledge_update_crowd": ["-m", "eval.knowledge_update", "--crowd"],
    "knowledge_update_fresh": ["-m", "eval.knowledge_update", "eval/data/knowledge_update_fresh.jsonl"],
    "knowledge_update_fresh_crowd": [
        "-m",
        "eval.knowledge_update",
        "eval/data/knowledge_update_fresh.jsonl",
        "--crowd",
    ],
    "knowledge_update_third": ["-m", "eval.knowledge_update", "eval/data/knowledge_update_third.jsonl"],
    "knowledge_update_third_crowd": [
        "-m",
        "eval.knowledge_update",
        "eval/data/knowledge_update_third.jsonl",
        "--crowd",
    ],
    "knowledge_update_fifth": ["-m", "eval.knowledge_update", "eval/data/knowledge_update_fifth.jsonl"],
    "knowledge_update_fifth_crowd": [
        "-m",
        "eval.knowledge_update",
        "eval/data/knowledge_update_fifth.jsonl",
        "--crowd",
    ],
    "knowledge_update_sixth": ["-m", "eval.knowledge_update", "eval/data/knowledge_update_sixth.jsonl"],
    "knowledge_update_sixth_crowd": [
        "-m",
        "eval.knowledge_update",
        "eval/data/knowledge_update_sixth.jsonl",
        "--crowd",
    ],
    "knowledge_update_seventh": ["-m", "eval.knowledge_update", "eval/data/knowledge_update_seventh.jsonl"],
    "knowledge_update_seventh_crowd": [
        "-m",
        "eval.knowledge_update",
        "eval/data/knowledge_update_seventh.jsonl",
        "--crowd",
    ],
    "knowledge_update_eighth": ["-m", "eval.knowledge_update", "eval/data/knowledge_update_eighth.jsonl"],
    "knowledge_update_eighth_crowd": [
        "-m",
        "eval.knowledge_update",
        "eval/data/knowledge_update_eighth.jsonl",
        "--crowd",
    ],
    "knowledge_update_ninth": ["-m", "eval.knowledge_update", "eval/data/knowledge_update_ninth.jsonl"],
    "knowledge_update_ninth_crowd": [
        "-m",
        "eval.knowledge_update",
        "eval/data/knowledge_update_ninth.jsonl",
        "--crowd",
    ],
    "knowledge_update_tenth": ["-m", "eval.knowledge_update", "eval/data/knowledge_update_tenth.jsonl"],
    "knowledge_update_tenth_crowd": [
        "-m",
        "eval.knowledge_update",
        "eval/data/knowledge_update_tenth.jsonl",
        "--crowd",
    ],
    "knowledge_update_eleventh": ["-m", "eval.knowledge_update", "eval/data/knowledge_update_eleventh.jsonl"],
    "knowledge_update_eleventh_crowd": [
        "-m",
        "eval.knowledge_update",
        "eval/data/knowledge_update_eleventh.jsonl",
        "--crowd",
    ],
    "knowledge_update_twelfth": ["-m", "eval.knowledge_update", "eval/data/knowledge_update_twelfth.jsonl"],
    "knowledge_update_twelfth_crowd": [
        "-m",
        "eval.knowledge_update",
        "eval/data/knowledge_update_twelfth.jsonl",
        "--crowd",
    ],
    "knowledge_update_thirteenth": [
        "-m",
        "eval.knowledge_update",
        "eval/data/knowledge_update_thirteenth.jsonl",
    ],
    "knowledge_update_thirteenth_crowd": [
        "-m",
        "eval.knowledge_update",
        "eval/data/knowledge_update_thirteenth.jsonl",
        "--crowd",
    ],
    "knowledge_update_fourteenth": [
        "-m",
        "eval.knowledge_update",
        "eval/data/knowledge_update_fourteenth.jsonl",
    ],
    "knowledge_update_fourteenth_crowd": [
        "-m",
        "eval.knowledge_update",
        "eval/data/knowledge_update_fourteenth.jsonl",
        "--crowd",
    ],
    "knowledge_update_fifteenth": [
        "-m",
        "eval.knowledge_update",
        "eval/data/knowledge_update_fifteenth.jsonl",
    ],
    "knowledge_update_fifteenth_crowd": [
        "-m",
        "eval.knowledge_update",
        "eval/data/knowledge_update_fifteenth.jsonl",
        "--crowd",
    ],
    "knowledge_update_sixteenth": [
        "-m",
        "eval.knowledge_update",
        "eval/data/knowledge_update_sixteenth.jsonl",
    ],
    "knowledge_update_sixteenth_crowd": [
        "-m",
        "eval.knowledge_update",
        "eval/data/knowledge_update_sixteenth.jsonl",
        "--crowd",
    ],
    "knowledge_update_seventeenth": [
        "-m",
        "eval.knowledge_update",
        "eval/data/knowledge_update_seventeenth.jsonl",
    ],
    "knowledge_update_seventeenth_crowd": [
        "-m",
        "eval.knowledge_update",
        "eval/data/knowledge_update_seventeenth.jsonl",
        "--crowd",
    ],
    "knowledge_update_crowd_later": ["-m", "eval.knowledge_update", "--crowd", "--later"],
    "contradiction_team": ["-m", "eval.contradiction", "--team", "eval/data/contradiction_cases.jsonl"],
    # Needs the bench-only packages (pip install chromadb mem0ai) in this interpreter.
    "side_by_side": ["bench/side_by_side.py", "--n", "10000", "--runs", "50"],
    # Builds a 1M store in /tmp on its first run (~3 min + the HNSW graph, ~10 min),
    # then reuses it and its saved graph.
    "million": ["bench/bench_million.py", "--n", "1000000", "--runs", "50"],
}


def record(names: list[str]) -> None:
    data: dict[str, Any] = json.loads(DATA.read_text()) if DATA.exists() else {}
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT)
    for name in names or list(COMMANDS):
        argv = [sys.executable, *COMMANDS[name]]
        print("running", " ".join(COMMANDS[name]), flush=True)
        done = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, check=True)
        last = [line for line in done.stdout.splitlines() if line.startswith("{")][-1]
        data[name] = {
            "command": "python " + " ".join(COMMANDS[name]),
            "date": dt.date.today().isoformat(),
            "commit": commit.stdout.strip(),
            "result": json.loads(last),
        }
    DATA.parent.mkdir(parents=True, exist_ok=True)
    DATA.write_text(json.dumps(data, indent=1) + "\n")
    print("wrote", DATA)


def _pyplot() -> Any:
    """matplotlib's pyplot on the file-only backend (matplotlib is not a lokulmem dependency)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(plt: Any, fig: Any, name: str) -> Path:
    fig.tight_layout()
    path = IMAGES / name
    fig.savefig(path)
    plt.close(fig)
    return path


def _plot_core(core: dict[str, Any]) -> Path:
    plt = _pyplot()
    rows = core["result"]["results"]
    sizes = [r["n"] for r in rows]
    fig, ax = plt.subplots(figsize=(6, 3.6), dpi=110)
    for key, label in (("learn", "learn()"), ("augment", "augment()")):
        ax.plot(sizes, [r[f"{key}_p50_ms"] for r in rows], marker="o", label=f"{label} p50")
        ax.plot(sizes, [r[f"{key}_p95_ms"] for r in rows], marker=".", linestyle="--", label=f"{label} p95")
    ax.set_xscale("log")
    ax.set_xlabel("memories in the store")
    ax.set_ylabel("ms per call")
    ax.set_title(f"Core loop latency ({core['date']}, {core['commit']})")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    return _save(plt, fig, "bench-core.png")


#: PRD §13 targets of the bench_prd rows (same units as the bench).
PRD_TARGETS = {
    "package_gzip_mb": 2.0,
    "init_ms": 800.0,
    "embedding_hit_ms": 2.0,
    "embedding_miss_ms": 10.0,
    "extraction_per_turn_ms": 50.0,
    "retrieval_3000_ms": 30.0,
    "retrieval_hnsw_30k_search_ms": 20.0,
    "write_per_memory_ms": 5.0,
    "debug_overhead_ms": 5.0,
    "storage_1000_mb": 25.0,
    "storage_10000_mb": 200.0,
}


def _plot_prd(prd: dict[str, Any]) -> Path:
    plt = _pyplot()
    rows = [(k, v / PRD_TARGETS[k]) for k, v in prd["result"]["results"].items() if k in PRD_TARGETS]
    fig, ax = plt.subplots(figsize=(6.5, 3.8), dpi=110)
    ax.barh([k for k, _ in rows], [max(r, 1e-3) for _, r in rows])
    ax.axvline(1.0, color="black", linewidth=1)
    ax.set_xscale("log")
    ax.set_xlabel("measured / PRD target (left of the line: within target)")
    ax.set_title(f"PRD §13 performance rows ({prd['date']}, {prd['commit']})")
    ax.tick_params(axis="y", labelsize=7)
    return _save(plt, fig, "bench-prd.png")


def _plot_side_by_side(entry: dict[str, Any]) -> Path:
    plt = _pyplot()
    rows = entry["result"]["results"]
    names = [r["system"] for r in rows]
    fig, axes = plt.subplots(1, 2, figsize=(7.5, 3.4), dpi=110)
    for ax, key, title in ((axes[0], "add", "add / learn()"), (axes[1], "query", "query / augment()")):
        ax.bar(names, [r[key][0] for r in rows])
        ax.set_title(f"{title} p50 (ms)", fontsize=9)
        ax.tick_params(axis="x", labelsize=8)
        ax.grid(axis="y", alpha=0.3)
    n = entry["result"]["n"]
    when = f"{entry['date']}, {entry['commit']}"
    fig.suptitle(f"Side by side at {n:,} memories, same embedder ({when})", fontsize=9)
    return _save(plt, fig, "bench-side-by-side.png")


def _plot_million(entry: dict[str, Any]) -> Path:
    plt = _pyplot()
    stages = entry["result"]["augment_stages_p50_ms"]
    fig, ax = plt.subplots(figsize=(6, 3.4), dpi=110)
    ax.barh(list(stages), list(stages.values()))
    ax.invert_yaxis()
    ax.set_xlabel("ms (p50 of each stage)")
    n = entry["result"]["n"]
    total = entry["result"]["augment"]["p50"]
    ax.set_title(f"augment() at {n:,} memories: p50 {total} ms by stage ({entry['date']})", fontsize=9)
    ax.grid(axis="x", alpha=0.3)
    return _save(plt, fig, "bench-million.png")


def _table(data: dict[str, Any]) -> str:
    lines = ["| Figure | Value | Command | Recorded |", "|---|---|---|---|"]
    for name, entry in data.items():
        result = entry["result"]
        for label, value in _figures(name, result):
            lines.append(f"| {label} | {value} | `{entry['command']}` | {entry['date']}, {entry['commit']} |")
    return "\n".join(lines)


def _figures(name: str, result: dict[str, Any]) -> list[tuple[str, str]]:
    if name == "core":
        out = []
        for r in result["results"]:
            both = f"{r['learn_p50_ms']:.1f} / {r['augment_p50_ms']:.1f} ms"
            out.append((f"learn() / augment() p50 at {r['n']:,}", both))
            out.append((f"bytes per memory at {r['n']:,}", f"{r['bytes_per_memory']:,}"))
            out.append((f"cold init at {r['n']:,}", f"{r['cold_init_total_ms']:,.0f} ms"))
        return out
    if name == "prd":
        return [(f"PRD §13: {k}", str(v)) for k, v in result["results"].items()]
    if name == "side_by_side":
        return [
            (
                f"{r['system']} at {result['n']:,}: add / query p50, disk, RSS added",
                f"{r['add'][0]:.1f} / {r['query'][0]:.1f} ms, {r['disk_mb']:.1f} MB, {r['rss_mb']:.1f} MB",
            )
            for r in result["results"]
        ]
    if name == "million":
        n = f"{result['n']:,}"
        calibration = result["search_index"].get("calibration") or {}
        modes = f"{', '.join(result['search_modes'])}, recall@10 {calibration.get('recall')}"
        return [
            (f"augment() p50 / p95 at {n}", f"{result['augment']['p50']} / {result['augment']['p95']} ms"),
            (f"learn() p50 / p95 at {n}", f"{result['learn']['p50']} / {result['learn']['p95']} ms"),
            (f"open at {n} (graph {'restored' if result['search_index'].get('restored') else 'built'})",
             f"{result['open_s']} s"),
            (f"search mode at {n}", modes),
            (f"RSS added at {n}", f"{result['rss_added_mb']:,.0f} MB"),
        ]  # fmt: skip
    flat = dict(_leaves(result, ""))
    return [(f"{name}: {k}", f"{v:.3g}" if isinstance(v, float) else str(v)) for k, v in sorted(flat.items())]


#: Parts of an evaluation's JSON that are detail, not figures (counts by outcome,
#: the forced variant beside the product one, the options it ran with).
SKIPPED_KEYS = frozenset({"outcomes", "team_forced", "config_overrides", "misses"})


def _leaves(value: Any, path: str) -> list[tuple[str, float]]:
    """Every number in ``value`` with its dotted path (file names and wrappers dropped)."""
    if isinstance(value, bool):
        return []
    if isinstance(value, (int, float)):
        return [(path, value)]
    if isinstance(value, dict):
        out: list[tuple[str, float]] = []
        for key, item in value.items():
            if key in SKIPPED_KEYS:
                continue
            step = "" if key in ("sets",) or key.endswith((".json", ".jsonl")) else key
            out += _leaves(item, ".".join(p for p in (path, step) if p))
        return out
    return []


def plot() -> None:
    data = json.loads(DATA.read_text())
    if "core" in data:
        print("wrote", _plot_core(data["core"]))
    if "prd" in data:
        print("wrote", _plot_prd(data["prd"]))
    if "side_by_side" in data:
        print("wrote", _plot_side_by_side(data["side_by_side"]))
    if "million" in data:
        print("wrote", _plot_million(data["million"]))
    page = PAGE.read_text()
    head, rest = page.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    PAGE.write_text(f"{head}{BEGIN}\n{_table(data)}\n{END}{tail}")
    print("wrote", PAGE)


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("record", "plot"):
        print(__doc__)
        return 2
    if argv[0] == "record":
        record(argv[1:])
    else:
        plot()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
