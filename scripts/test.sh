#!/usr/bin/env bash
# The test command (README): venv, install, ruff, mypy --strict, pytest.
# VENV overrides the virtual environment's location (default .venv).
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${VENV:-.venv}"
[[ -x "$VENV/bin/python" ]] || python3 -m venv "$VENV"
"$VENV/bin/python" -m pip install -q --disable-pip-version-check -e '.[dev]'
echo "== ruff";   "$VENV/bin/ruff" check src tests bench eval scripts examples
echo "== mypy";   "$VENV/bin/mypy" --strict src/lokulmem
echo "== pytest"; "$VENV/bin/pytest" -q "$@"
