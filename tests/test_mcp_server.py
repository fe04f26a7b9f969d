"""``lokulmem mcp`` driven by the official MCP SDK's own client over stdio, on a real store."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

from lokulmem import LokulMem

mcp = pytest.importorskip("mcp")
from mcp import Client  # noqa: E402  # after the skip: the mcp extra is optional
from mcp.client.stdio import StdioServerParameters  # noqa: E402

TOOLS = {"remember", "recall", "search", "forget", "pin", "list"}


def server(path: Path, *extra: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable, args=["-m", "lokulmem.cli", "mcp", "--path", str(path), *extra]
    )


def structured(result: Any) -> Any:
    assert not result.is_error, result.content
    data = result.structured_content
    return data["result"] if isinstance(data, dict) and set(data) == {"result"} else data


async def session(path: Path) -> dict[str, Any]:
    """One host session: every tool and the stats resource, in the order a host would."""
    seen: dict[str, Any] = {}
    async with Client(server(path)) as client:
        seen["tools"] = {t.name for t in (await client.list_tools()).tools}
        seen["remembered"] = structured(
            await client.call_tool("remember", {"text": "I live in Porto and I work as a nurse."})
        )
        seen["recall"] = structured(await client.call_tool("recall", {"message": "Where do I live?"}))
        seen["silent"] = structured(await client.call_tool("recall", {"message": "How do volcanoes form?"}))
        seen["search"] = structured(await client.call_tool("search", {"query": "nurse"}))
        seen["semantic"] = structured(
            await client.call_tool("search", {"query": "my job", "semantic": True, "limit": 1})
        )
        nurse = seen["search"][0]["id"]
        seen["pin"] = structured(await client.call_tool("pin", {"memory_id": nurse}))
        seen["list"] = structured(await client.call_tool("list", {"limit": 5}))
        seen["unknown"] = await client.call_tool("forget", {"memory_id": "no-such-id"})
        seen["bad_limit"] = await client.call_tool("list", {"limit": 0})
        stats = await client.read_resource("memory://stats")
        seen["stats"] = json.loads(stats.contents[0].text)  # type: ignore[union-attr]  # a text resource
        seen["forget"] = structured(await client.call_tool("forget", {"memory_id": nurse}))
    return seen


def test_an_mcp_host_remembers_recalls_searches_pins_and_forgets(tmp_path: Path) -> None:
    path = tmp_path / "mcp.sqlite"
    with LokulMem(path=path) as mem:  # an existing, empty store
        mem.init()
    seen = anyio.run(session, path)
    assert seen["tools"] >= TOOLS
    stored = [d["content"] for d in seen["remembered"]["decisions"] if d["outcome"] == "stored"]
    assert stored == ["User lives in Porto.", "User works as a nurse."]
    assert seen["recall"]["memories"][0]["content"] == "User lives in Porto."
    assert "[Memory Context" in seen["recall"]["context"]
    assert seen["silent"] == {"memories": [], "context": "", "tokens": 0}
    assert [m["content"] for m in seen["search"]] == ["User works as a nurse."]
    assert (
        seen["semantic"][0]["content"] == "User works as a nurse." and seen["semantic"][0]["similarity"] > 0
    )
    assert seen["pin"]["pinned"] is True
    assert {m["content"] for m in seen["list"]} == {"User lives in Porto.", "User works as a nurse."}
    assert seen["unknown"].is_error and "MemoryNotFoundError" in seen["unknown"].content[0].text
    assert seen["bad_limit"].is_error and "limit" in seen["bad_limit"].content[0].text
    assert seen["stats"]["total"] == 2 and seen["stats"]["pinned"] == 1
    assert seen["forget"] == {"deleted": seen["search"][0]["id"]}
    with LokulMem(path=path) as mem:  # what the host did is in the store
        assert [m.content for m in mem.manage().list()] == ["User lives in Porto."]


def test_mcp_on_a_missing_store_exits_2_unless_asked_to_create(tmp_path: Path) -> None:
    import subprocess

    missing = tmp_path / "missing.sqlite"
    done = subprocess.run(
        [sys.executable, "-m", "lokulmem.cli", "mcp", "--path", str(missing)],
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2 and "no store at" in done.stderr and not missing.exists()

    async def tools() -> set[str]:
        async with Client(server(missing, "--create")) as client:
            return {t.name for t in (await client.list_tools()).tools}

    assert anyio.run(tools) >= TOOLS and missing.exists()
