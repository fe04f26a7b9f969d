"""The ``Config`` reference table of docs/api.md, written from the code.

    python scripts/config_reference.py            # print the table
    python scripts/config_reference.py --write    # replace it in docs/api.md

One row per field: name, default, the PRD's value where ``Config.prd()``
differs, the validation rule beside the field, and its ``#:`` comment from
``src/lokulmem/config/options.py``.  ``tests/test_docs.py`` fails when docs/api.md's
table is not what this prints, or when a field has no comment.
"""

from __future__ import annotations

import dataclasses
import re
import sys
from pathlib import Path
from typing import Any

from lokulmem import Config

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "src" / "lokulmem" / "config" / "options.py"
DOC = ROOT / "docs" / "api.md"
START, END = "<!-- config-reference:start -->", "<!-- config-reference:end -->"
RULES = {
    "check_unit": "in [0, 1]",
    "check_nonneg": "≥ 0",
    "_posint": "integer ≥ 1",
    "check_count": "integer ≥ 0",
}


def comments() -> dict[str, str]:
    """Each Config field's ``#:`` comment (joined lines), read from the source."""
    lines = SOURCE.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("class Config:"))
    out: dict[str, str] = {}
    pending: list[str] = []
    for line in lines[start + 1 :]:
        if line and not line.startswith(" "):
            break
        stripped = line.strip()
        if stripped.startswith("#:"):
            pending.append(stripped[2:].strip())
            continue
        m = re.match(r"^    ([a-z][a-z0-9_]*): ", line)
        if m:
            out[m.group(1)] = re.sub(r"``([^`]+)``", r"`\1`", " ".join(pending))
        if not stripped.startswith("#"):
            pending = []
    return out


def _show(value: Any) -> str:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return ", ".join(f"{f.name}={getattr(value, f.name)}" for f in dataclasses.fields(value))
    if isinstance(value, dict):
        return ", ".join(f"{k}={v}" for k, v in value.items())
    if isinstance(value, tuple):
        return ", ".join(map(str, value)) if value else "()"
    return repr(value)


def table() -> str:
    """The markdown table, one row per field, in definition order."""
    docs = comments()
    tuned, prd = Config(), Config.prd()
    rows = ["| option | default | PRD | rule | meaning |", "|---|---|---|---|---|"]
    for f in dataclasses.fields(Config):
        check = f.metadata.get("check")
        rule = RULES.get(getattr(check, "__name__", ""), "")
        ours, theirs = getattr(tuned, f.name), getattr(prd, f.name)
        cells = [
            f"`{f.name}`",
            _show(ours),
            "" if ours == theirs else _show(theirs),
            rule,
            docs.get(f.name, ""),
        ]
        rows.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(rows)


def block() -> str:
    return f"{START}\n{table()}\n{END}"


def main(argv: list[str]) -> int:
    if "--write" in argv:
        text = DOC.read_text()
        before, _, rest = text.partition(START)
        _, _, after = rest.partition(END)
        DOC.write_text(before + block() + after)
        print(f"wrote the Config reference into {DOC}")
    else:
        print(table())
    missing = [name for name, doc in comments().items() if not doc]
    if missing:
        print("fields without a #: comment: " + ", ".join(missing), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
