"""Long-running surfaces over a store: ``lokulmem mcp`` (stdio MCP server) and
``lokulmem panel`` (the local memory panel)."""

from __future__ import annotations

import socket
import webbrowser

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


#: Addresses that only this machine can reach.
LOOPBACK = frozenset({"127.0.0.1", "::1", "localhost"})


def _free_port(host: str) -> int:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


@click.command("panel")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on (loopback only unless you mean it).",
)
@click.option("--port", type=click.IntRange(0, 65535), default=0, help="Port (default: a free one).")
@click.option("--no-browser", is_flag=True, help="Print the URL but do not open a browser.")
@store_options
def panel_command(target: Target, host: str, port: int, no_browser: bool) -> None:
    """Open the memory panel: a local web app over the store, on 127.0.0.1 with a per-run token.

    Prints http://127.0.0.1:PORT/?token=... on stdout. Needs the panel extra:
    pip install 'lokulmem[panel]'."""
    try:
        import uvicorn

        from ..panel import build_app, new_token, panel_url
    except ImportError as exc:
        raise click.ClickException(
            f"the panel extra is not installed (pip install 'lokulmem[panel]'): {exc}"
        ) from None
    if host not in LOOPBACK:
        click.echo(
            f"warning: listening on {host}: other machines can reach the panel (the token still applies)",
            err=True,
        )
    with open_store(target) as memory:
        memory.init()
        port = port or _free_port(host)
        token = new_token()
        app = build_app(memory, token=token, host=host, port=port)
        url = panel_url(host, port, token)
        click.echo(url)
        if not no_browser:
            webbrowser.open(url)
        uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning")).run()


COMMANDS: tuple[click.Command, ...] = (mcp_command, panel_command)
