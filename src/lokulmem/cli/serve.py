"""Long-running surfaces over a store: ``lokulmem mcp`` (stdio MCP server)."""

from __future__ import annotations

import click

from .common import Target, open_store, store_options

__all__ = ["COMMANDS"]


@click.command("mcp")
@click.option("--create", is_flag=True, help="Create the store if it does not exist.")
@store_options
def mcp_command(target: Target, create: bool) -> None:
    """Serve the store to MCP hosts over stdio (tools remember, recall, search, forget, pin, list).

    Needs the mcp extra: pip install 'lokulmem[mcp]'."""
    try:
        import mcp.server  # noqa: F401  # only to fail here, before the store opens, without the extra

        from ..mcp_server import build_server
    except ImportError as exc:
        raise click.ClickException(
            f"the mcp extra is not installed (pip install 'lokulmem[mcp]'): {exc}"
        ) from None
    with open_store(target, create=create) as memory:
        memory.init()  # load the model before the host's first call
        build_server(memory).run("stdio")


COMMANDS: tuple[click.Command, ...] = (mcp_command,)
