"""`vaultrag mcp VAULT`: the index served over MCP (stdio), called with the official SDK's own client.

A real server process on a real index (e5, sqlite-vec); no fake. The canary test asks every tool for a private
note's text, and for a note made private after it was indexed (no watcher ran): the canary never crosses.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import write

mcp = pytest.importorskip("mcp")  # the `mcp` extra; the test command installs it
from mcp import Client  # noqa: E402
from mcp.client.stdio import StdioServerParameters  # noqa: E402

CANARY = "CANARY-7f3a-SAFE"
LATER = "CANARY-b9e2-LATER"


def vaultrag(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "vaultrag", "--home", str(home), *args], capture_output=True,
                          text=True, timeout=300)


@pytest.fixture
def served_vault(vault: Path, home: Path) -> Path:
    write(vault, "Garden.md", "# Garden\n\n## Tomatoes\nWater the tomatoes every second morning, deeply, at the "
                              "roots. In July they need water daily.\n\n## Roses\nPrune the roses in late February, "
                              "just above an outward-facing bud.\n")
    write(vault, "Recipes/Bread.md", "# Sourdough bread\n\nFeed the starter the night before. Bake at 250 °C for 20 "
                                     "minutes with steam, then 20 minutes at 220 °C.\n")
    write(vault, "Recipes/Soup.md", "---\ntags: [kitchen]\n---\n# Pumpkin soup\n\nRoast the pumpkin for 40 minutes, "
                                    "then blend it with stock and ginger.\n")
    write(vault, "Secret.md", f"#private\n# Bank\n\nThe safe code is {CANARY}; the shed key is under the tomato "
                              "pot.\n")
    write(vault, "Shed.md", f"# Shed\n\nThe shed's alarm code is {LATER}. The garden tools hang on the left wall.\n")
    r = vaultrag(home, "index", str(vault))
    assert r.returncode == 0, r.stderr
    return vault


def call(vault: Path, home: Path, session: Callable[[Any], Awaitable[None]]) -> None:
    """Start `vaultrag mcp VAULT` and run `session(client)` against it."""
    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "vaultrag", "--home", str(home), "mcp", str(vault)],
                                   env={"PYTHONPATH": os.pathsep.join(sys.path)})

    async def main() -> None:
        async with Client(params) as client:
            await session(client)

    asyncio.run(asyncio.wait_for(main(), timeout=240))


def data(result: Any) -> dict[str, Any]:
    assert not result.is_error, result.content[0].text
    assert result.structured_content is not None
    return dict(result.structured_content)


def every_text(result: Any) -> str:
    """Everything a tool's answer carries to the client."""
    return json.dumps(result.structured_content or {}, ensure_ascii=False) + "".join(
        getattr(c, "text", "") for c in result.content)


def test_a_client_lists_the_read_only_tools_and_each_answer_names_its_notes(served_vault: Path, home: Path):
    async def session(client: Any) -> None:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert set(tools) == {"search", "ask", "why_not", "related", "note"}
        assert all(t.annotations.read_only_hint and not t.annotations.destructive_hint for t in tools.values())
        assert "query" in tools["search"].input_schema["properties"]

        found = data(await client.call_tool("search", {"query": "how often should I water the tomatoes"}))
        top = found["results"][0]
        assert top["note"] == "Garden.md" and top["heading"] == "Tomatoes" and "every second morning" in top["text"]
        assert top["stages"]["bm25"] == 1 and top["stages"]["vector"] == 1 and "reranked" in top["stages"]
        assert [r["rank"] for r in found["results"]] == list(range(1, len(found["results"]) + 1))

        asked = data(await client.call_tool("ask", {"question": "How often should I water the tomatoes?"}))
        assert asked["answered"] is True and asked["decision"]["margin"] > 0
        assert asked["passages"][0]["note"] == "Garden.md" and asked["passages"][0]["n"] == 1
        assert "[1]" in asked["prompt"] and "every second morning" in asked["prompt"]
        assert asked["refusal_sentence"] == "I couldn't find this in the notes."
        assert asked["extractive_answer"]["note"] == "Garden.md"

        scoped = data(await client.call_tool("search", {"query": "roast pumpkin blend", "tag": ["kitchen"]}))
        assert {r["note"] for r in scoped["results"]} == {"Recipes/Soup.md"}
        in_folder = data(await client.call_tool("search", {"query": "water tomatoes", "folder": ["Recipes"]}))
        assert in_folder["results"] and all(r["note"].startswith("Recipes/") for r in in_folder["results"])

        why = data(await client.call_tool("why_not", {"question": "how do I bake sourdough bread",
                                                      "note": "Recipes/Bread.md"}))
        assert why["note"] == "Recipes/Bread.md" and why["verdict"] == "reached-prompt" and why["advice"]

        note = data(await client.call_tool("note", {"path": "Recipes/Bread.md"}))
        assert note["text"] == (served_vault / "Recipes" / "Bread.md").read_text(encoding="utf-8")
        assert note["title"] == "Sourdough bread"

    call(served_vault, home, session)


def test_a_private_note_never_crosses_not_even_one_made_private_after_indexing(served_vault: Path, home: Path):
    # made private after the index was written, while no watcher ran: the index still holds its text
    write(served_vault, "Shed.md", f"---\ntags: [private]\n---\n# Shed\n\nThe shed's alarm code is {LATER}. The "
                                   "garden tools hang on the left wall.\n")

    async def session(client: Any) -> None:
        seen = []
        for name, args in [("search", {"query": "safe code bank"}), ("search", {"query": "CANARY 7f3a SAFE"}),
                           ("search", {"query": "shed alarm code garden tools", "limit": 50}),
                           ("ask", {"question": "What is the safe code?"}),
                           ("ask", {"question": "What is the shed's alarm code?"}),
                           ("why_not", {"question": "what is the safe code", "note": "Secret.md"}),
                           ("why_not", {"question": "shed alarm code", "note": "Shed.md"}),
                           ("note", {"path": "Secret.md"}), ("note", {"path": "Shed.md"}),
                           ("note", {"path": "./Secret.md"}), ("note", {"path": "secret.md"}),
                           ("related", {"note": "Garden.md", "limit": 50}), ("related", {"note": "Shed.md"}),
                           ("related", {"note": "Secret.md"})]:
            result = await client.call_tool(name, args)
            seen.append(every_text(result))
            if name == "note" or (name == "related" and args["note"] != "Garden.md"):
                assert result.is_error, f"{name} {args} served"
        leaked = [s for s in seen if CANARY in s or LATER in s]
        assert not leaked
        shed = data(await client.call_tool("search", {"query": "shed alarm code garden tools", "limit": 50}))
        assert "Shed.md" not in {r["note"] for r in shed["results"]}
        assert {w["note"] for w in shed["withheld"]} == {"Shed.md"} and "private" in shed["withheld"][0]["why"]
        near = data(await client.call_tool("related", {"note": "Garden.md", "limit": 50}))
        assert {r["note"] for r in near["related"]} == {"Recipes/Bread.md", "Recipes/Soup.md"}
        assert [w["note"] for w in near["withheld"]] == ["Shed.md"]
        asked = data(await client.call_tool("ask", {"question": "What is the shed's alarm code?"}))
        assert all(p["note"] != "Shed.md" for p in asked["passages"])

    call(served_vault, home, session)


def test_bad_arguments_get_an_mcp_error_and_the_server_goes_on(served_vault: Path, home: Path):
    async def session(client: Any) -> None:
        bad = [("note", {"path": "../../etc/passwd"}), ("note", {"path": "/etc/passwd"}), ("note", {"path": ""}),
               ("note", {"path": "Nowhere.md"}), ("search", {"query": ""}), ("search", {"query": "x", "limit": 0}),
               ("search", {"query": "x", "limit": 10_000}), ("search", {"query": 5}), ("search", {}),
               ("ask", {"question": "   "}), ("ask", {"question": "tomatoes", "k": -1}),
               ("why_not", {"question": "tomatoes", "note": "../outside.md"}),
               ("search", {"query": "x", "folder": "not a list"})]
        for name, args in bad:
            result = await client.call_tool(name, args)
            assert result.is_error, f"{name} {args} did not fail"
            assert "Traceback" not in result.content[0].text
        with pytest.raises(Exception, match=r"(?i)unknown|not found"):
            r = await client.call_tool("delete_everything", {})
            if r.is_error:  # an SDK that answers an unknown tool as a tool error instead of a protocol error
                raise LookupError(f"unknown tool: {r.content[0].text}")
        assert data(await client.call_tool("search", {"query": "prune roses"}))["results"][0]["note"] == "Garden.md"

    call(served_vault, home, session)
    assert (served_vault / "Garden.md").exists() and not list(served_vault.glob("**/*.sqlite"))


def test_a_vault_never_indexed_is_said_before_serving(vault: Path, home: Path):
    write(vault, "a.md", "# A\n\ntext\n")
    r = vaultrag(home, "mcp", str(vault))
    assert r.returncode == 2 and "not been indexed yet" in r.stderr and "vaultrag index" in r.stderr
    assert r.stdout == ""


@pytest.mark.skipif(not hasattr(os, "symlink") or not hasattr(os, "mkfifo"), reason="no symlinks or FIFOs here")
def test_a_note_swapped_after_indexing_for_a_link_out_a_same_size_private_edit_or_a_fifo_is_withheld(
        served_vault: Path, home: Path, tmp_path: Path):
    outside = tmp_path / "outside.md"
    outside.write_text("# Out\n\nOUTSIDE-CANARY lives outside the vault: water the tomatoes.\n", encoding="utf-8")
    bread = served_vault / "Recipes" / "Bread.md"
    bread.unlink()
    bread.symlink_to(outside)  # Recipes/Bread.md now points outside the vault
    garden = served_vault / "Garden.md"
    st = garden.stat()
    text = garden.read_text(encoding="utf-8")
    garden.write_text(text.replace("every second", "#private now", 1), encoding="utf-8")  # as many bytes
    assert garden.stat().st_size == st.st_size, "an edit that keeps the size"
    os.utime(garden, ns=(st.st_atime_ns, st.st_mtime_ns))  # and the time, as cp -p or rsync -t keep them
    soup = served_vault / "Recipes" / "Soup.md"
    soup.unlink()
    os.mkfifo(soup)  # a named pipe where a note was: must not freeze the server

    async def session(client: Any) -> None:
        seen = []
        for name, args in [("note", {"path": "Recipes/Bread.md"}), ("note", {"path": "Garden.md"}),
                           ("note", {"path": "Recipes/Soup.md"}), ("search", {"query": "water the tomatoes"}),
                           ("ask", {"question": "How often do I water the tomatoes?"}),
                           ("why_not", {"question": "water tomatoes every second morning", "note": "Garden.md"}),
                           ("why_not", {"question": "x", "note": "a/" * 3000 + "x.md"})]:
            result = await asyncio.wait_for(client.call_tool(name, args), timeout=60)
            seen.append(every_text(result))
            if name in ("note", "why_not"):
                assert result.is_error, f"{name} {args} served"
        assert not [s for s in seen if "OUTSIDE-CANARY" in s or "deeply, at the roots" in s]
        found = data(await client.call_tool("search", {"query": "water the tomatoes", "limit": 50}))
        assert {w["note"] for w in found["withheld"]} >= {"Garden.md", "Recipes/Bread.md"}

    call(served_vault, home, session)
