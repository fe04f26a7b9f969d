"""The ``lokulmem`` command: look into a store, correct it, feed it, ask it.

Every command but ``demo`` takes ``--path FILE`` or ``--store NAME`` (default:
the ``lokulmem_default`` store in the user data dir), ``--json`` (machine
output on stdout) and ``--ask-passphrase`` (else ``$LOKULMEM_PASSPHRASE`` is
read for an encrypted store).  Exit codes: 0 done, 1 the library refused or
failed (its error on stderr), ``doctor`` found a problem, or the command was
aborted (a declined confirmation, Ctrl-C); 2 a wrong command line or a store
that does not exist.  docs/cli.md documents
every command; ``tests/cli`` fails when one is not.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click

from .. import __version__
from ..errors import LokulMemError
from . import conversation, memories, serve, store
from .common import EXIT_ERROR
from .demo import DEMO_STORE, QUESTION, SESSION_1, SESSION_2, demo, demo_command
from .doctor import doctor_command

__all__ = ["DEMO_STORE", "QUESTION", "SESSION_1", "SESSION_2", "cli", "demo", "main"]


class _Group(click.Group):
    """Commands listed in the order they were added; a library error becomes its
    message on stderr and exit status 1 (no traceback)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(self.commands)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except LokulMemError as exc:
            click.echo(f"error: {type(exc).__name__}: {exc}", err=True)
            ctx.exit(EXIT_ERROR)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="lokulmem", message="%(prog)s %(version)s")
def cli() -> None:
    """Long-term memory of the user for LLM apps, on this machine."""


for command in (
    demo_command,
    *conversation.COMMANDS,
    *memories.COMMANDS,
    *store.COMMANDS,
    doctor_command,
    *serve.COMMANDS,
):
    cli.add_command(command)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default: ``sys.argv[1:]``); the exit status."""
    try:
        # Not standalone: click returns ctx.exit()'s status instead of exiting.
        status = cli.main(
            args=list(argv) if argv is not None else None, prog_name="lokulmem", standalone_mode=False
        )
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        return EXIT_ERROR
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else EXIT_ERROR
    return status if isinstance(status, int) else 0
