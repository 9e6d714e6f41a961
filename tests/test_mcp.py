"""``chunkwise mcp`` driven by the official MCP SDK's own client over stdio: the
server is the command a user gives an agent, in a process of its own."""

from __future__ import annotations

import json
import sys

import anyio
import pytest

from chunkwise import Index

pytestmark = pytest.mark.slow

DOCS = {
    "refunds.md": "# Refunds\n\nRefunds are paid within 14 days of the return reaching us.\n\n"
                  "## Exceptions\n\nGift cards are never refunded.\n",
    "shipping.md": "# Shipping\n\nParcels travel by courier and arrive in three working days.\n",
}


def _session(db: str, calls):
    """Run ``calls(session)`` against ``chunkwise mcp --db DB``; its result."""
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "chunkwise.cli", "mcp", "--db", db])
    out = {}

    async def main() -> None:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            out["result"] = await calls(session)

    anyio.run(main)
    return out["result"]


def _payload(result) -> dict:
    assert not result.is_error, result.content
    return json.loads(result.content[0].text)


def test_search_and_read_through_the_sdk_client(tmp_path, static_embedder):
    docs = tmp_path / "docs"
    docs.mkdir()
    for name, text in DOCS.items():
        (docs / name).write_text(text)
    db = str(tmp_path / "idx")
    with Index(db) as index:
        index.sync(docs, embedder=static_embedder)

    async def calls(session):
        tools = await session.list_tools()
        found = await session.call_tool("search", {"query": "when are refunds paid", "k": 2})
        hit = _payload(found)["hits"][0]
        around = await session.call_tool("read", {"doc_id": hit["doc_id"],
                                                  "start": hit["start"], "end": hit["end"]})
        whole = await session.call_tool("read", {"doc_id": "shipping.md"})
        errors = [await session.call_tool("search", {"query": "  "}),
                  await session.call_tool("search", {"query": "x", "k": 0}),
                  await session.call_tool("read", {"doc_id": "nope.md"}),
                  await session.call_tool("read", {"doc_id": "refunds.md", "start": 5,
                                                   "end": 10**6})]
        errors.append(await session.call_tool("search", {"query": "x",
                                                         "filter": {"pages": 3}}))
        after = await session.call_tool("search", {"query": "courier", "k": 1,
                                                   "retriever": "bm25"})
        narrowed = await session.call_tool("search", {"query": "when are refunds paid", "k": 5,
                                                      "filter": {"path": "shipping.md"}})
        return tools, hit, around, whole, errors, after, narrowed

    tools, hit, around, whole, errors, after, narrowed = _session(db, calls)
    assert {t.name for t in tools.tools} == {"search", "read"}
    search_tool = next(t for t in tools.tools if t.name == "search")
    assert {"query", "k", "retriever", "filter"} <= set(search_tool.input_schema["properties"])
    assert hit["doc_id"] == "refunds.md" and hit["headings"][0] == "Refunds"
    text = (docs / "refunds.md").read_text()
    assert _payload(around)["text"] == text[hit["start"]:hit["end"]] == hit["text"]
    assert _payload(whole)["text"] == DOCS["shipping.md"]
    messages = []
    for e in errors:
        assert e.is_error and "\n" not in e.content[0].text
        messages.append(e.content[0].text)
    assert "the query is empty" in messages[0] and "k must be between 1 and 100" in messages[1]
    assert "no document 'nope.md'" in messages[2] and "start <= end <=" in messages[3]
    assert "pages" in messages[4]  # an unknown filter key, named
    assert _payload(after)["hits"][0]["doc_id"] == "shipping.md"  # it went on after errors
    assert {h["doc_id"] for h in _payload(narrowed)["hits"]} == {"shipping.md"}
