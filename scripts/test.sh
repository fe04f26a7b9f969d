#!/usr/bin/env bash
# The test command (README): venv, install, ruff, mypy --strict, the docs site
# (mkdocs build --strict), pytest, then the client-level tests on PostgreSQL.
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
# The client-level tests again with every store on PostgreSQL (tests/pg_server.py
# starts a real server; they skip without one unless LOKULMEM_REQUIRE_POSTGRES=1).
if [[ $# -eq 0 ]]; then
  echo "== pytest, stores on PostgreSQL"
  LOKULMEM_TEST_BACKEND=postgres "$VENV/bin/pytest" -q \
    tests/test_client.py tests/test_manage.py tests/test_retrieval.py tests/test_transfer.py \
    tests/test_streaming.py tests/test_lifecycle.py tests/test_episodes.py tests/test_graph.py \
    tests/test_contradiction.py tests/test_compaction.py tests/test_proactive.py tests/test_async.py \
    tests/test_hostile.py tests/test_mcp_server.py tests/test_decay.py tests/test_hygiene.py \
    tests/test_clustering.py
fi
