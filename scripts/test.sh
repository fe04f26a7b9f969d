#!/usr/bin/env bash
# The test command (README): venv, install, ruff, mypy --strict, the docs site
# (mkdocs build --strict), pytest.
# VENV overrides the virtual environment's location (default .venv).
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${VENV:-.venv}"
[[ -x "$VENV/bin/python" ]] || python3 -m venv "$VENV"
"$VENV/bin/python" -m pip install -q --disable-pip-version-check -e '.[dev]'
echo "== ruff";   "$VENV/bin/ruff" check src tests bench eval scripts examples
echo "== mypy";   "$VENV/bin/mypy" --strict src/lokulmem
echo "== docs";   NO_MKDOCS_2_WARNING=1 "$VENV/bin/mkdocs" build --strict --quiet --site-dir "${SITE_DIR:-site}"
echo "== pytest"; "$VENV/bin/pytest" -q "$@"
