"""What the panel tests share: the running panel's addresses and its store."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from lokulmem import LokulMem


@dataclass
class Panel:
    url: str
    base: str
    token: str
    path: Path
    memory: LokulMem
