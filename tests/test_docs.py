"""docs/api.md documents every public method and every Config field (as sqlite-utils checks its CLI docs)."""

from __future__ import annotations

import inspect
import sys
from pathlib import Path

import pytest

from lokulmem import Config, LokulMem
from lokulmem.manage import Manager

ROOT = Path(__file__).resolve().parents[1]
API = (ROOT / "docs" / "api.md").read_text()
sys.path.insert(0, str(ROOT / "scripts"))

import config_reference  # noqa: E402  # the generator lives in scripts/, not in the package


def public_methods(cls: type) -> list[str]:
    return [
        name for name in dir(cls) if not name.startswith("_") and callable(inspect.getattr_static(cls, name))
    ]


@pytest.mark.parametrize("cls", [LokulMem, Manager])
def test_every_public_method_is_in_the_api_reference(cls: type) -> None:
    missing = [n for n in public_methods(cls) if f"`{n}(" not in API and f"{n}(" not in API]
    assert not missing, f"docs/api.md does not document {cls.__name__}.{missing}"


def test_the_config_reference_is_current_and_complete() -> None:
    assert config_reference.block() in API, "stale: python scripts/config_reference.py --write"
    docs = config_reference.comments()
    for f in Config.__dataclass_fields__.values():
        assert docs.get(f.name), f"Config.{f.name} has no #: comment"
        assert f"`{f.name}`" in API
