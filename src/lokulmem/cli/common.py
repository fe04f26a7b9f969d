"""What every command shares: the store options, opening a store, output, exit codes.

Exit codes (documented in docs/cli.md):

* ``0``: done;
* ``1``: the library refused or failed (a :class:`~lokulmem.LokulMemError`:
  unknown memory id, wrong passphrase, malformed import file, ...),
  ``doctor`` found a problem, or the command was aborted (a declined
  confirmation, Ctrl-C);
* ``2``: the command line is wrong (including a transcript that is not
  messages), or the store it names does not exist (only ``learn``,
  ``import`` and ``restore`` create one).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import click
from rich.console import Console

from ..client import LokulMem
from ..storage import default_store_path
from ..transfer.writing import record_to_json

__all__ = [
    "EXIT_ERROR",
    "EXIT_MISSING",
    "PASSPHRASE_ENV",
    "StoreMissingError",
    "Target",
    "emit",
    "open_store",
    "store_options",
]

EXIT_ERROR = 1
EXIT_MISSING = 2
#: Environment variable read for an encrypted store's passphrase.
PASSPHRASE_ENV = "LOKULMEM_PASSPHRASE"
#: Store opened when neither ``--path`` nor ``--store`` is given.
DEFAULT_STORE = "lokulmem_default"

R = TypeVar("R")


class StoreMissingError(click.ClickException):
    """The store a command names does not exist (exit code 2)."""

    exit_code = EXIT_MISSING


@dataclasses.dataclass(frozen=True, kw_only=True)
class Target:
    """The store a command works on and how it answers (the shared options)."""

    path: Path | None = None
    store: str | None = None
    as_json: bool = False
    ask_passphrase: bool = False

    @property
    def location(self) -> Path:
        """The store file: ``--path``, else the named store in the user data dir."""
        return self.path if self.path is not None else default_store_path(self.store or DEFAULT_STORE)

    def console(self) -> Console:
        """Where tables and messages go (stdout; plain text when not a terminal)."""
        return Console(highlight=False, soft_wrap=False)

    def progress_console(self) -> Console:
        """Where progress bars and spinners go (stderr, never with ``--json``)."""
        return Console(stderr=True, quiet=self.as_json)


def store_options(func: Callable[..., R]) -> Callable[..., R]:
    """Add ``--path``, ``--store``, ``--json`` and ``--ask-passphrase``; the command
    receives them as one :class:`Target` named ``target``."""

    @functools.wraps(func)
    def wrapper(
        *args: Any, path: Path | None, store: str | None, as_json: bool, ask_passphrase: bool, **kw: Any
    ) -> R:
        if path is not None and store is not None:
            raise click.UsageError("give --path or --store, not both")
        target = Target(path=path, store=store, as_json=as_json, ask_passphrase=ask_passphrase)
        return func(*args, target=target, **kw)

    options = [
        click.option("--path", type=click.Path(dir_okay=False, path_type=Path), help="The store file."),
        click.option(
            "--store", metavar="NAME", help=f"A named store in the user data dir (default {DEFAULT_STORE!r})."
        ),
        click.option("--json", "as_json", is_flag=True, help="Print JSON instead of tables."),
        click.option(
            "--ask-passphrase",
            is_flag=True,
            help=f"Prompt for the passphrase of an encrypted store (else ${PASSPHRASE_ENV} is read).",
        ),
    ]
    for option in reversed(options):
        wrapper = option(wrapper)
    return wrapper


def passphrase(target: Target) -> str | None:
    if target.ask_passphrase:
        return str(click.prompt("Passphrase", hide_input=True, err=True))
    return os.environ.get(PASSPHRASE_ENV) or None


@contextmanager
def open_store(target: Target, *, create: bool = False, **options: Any) -> Iterator[LokulMem]:
    """The store, opened (and closed after); :class:`StoreMissingError` unless it
    exists or ``create``."""
    location = target.location
    if not create and not location.exists():
        raise StoreMissingError(f"no store at {location} (lokulmem learn, import or restore creates one)")
    memory = LokulMem(path=location, encryption_passphrase=passphrase(target), **options)
    try:
        with target.progress_console().status("opening the store and loading the model"):
            memory.init()
        yield memory
    finally:
        memory.close()


def emit(target: Target, data: Any, render: Callable[[Console], None]) -> None:
    """``data`` as JSON on stdout with ``--json``, else ``render`` draws it."""
    if target.as_json:
        sys.stdout.write(json.dumps(record_to_json(data), ensure_ascii=False, indent=2) + "\n")
    else:
        render(target.console())
