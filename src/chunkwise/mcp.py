"""``chunkwise mcp``: the index as a Model Context Protocol server over stdio (the
official ``mcp`` SDK), so that coding agents and desktop assistants can search the
user's documents and cite them.

Tools:

- ``search(query, k=5, retriever="hybrid", filter=None)``: the ranked chunks
  (``filter``: ``{"path": "guide/", "kind": "table", "page": [3, 7], "metadata":
  {"team": "docs"}}``, as ``chunkwise serve`` takes it), each with
  ``doc_id``, ``source``, ``start``, ``end``, ``page``, ``headings``, ``text`` and
  ``score`` (the same answer as ``chunkwise serve``'s ``POST /search``);
- ``read(doc_id, start=0, end=None)``: the document's text from ``start`` to
  ``end`` (characters, at most :data:`READ_MAX` at once), read from its file when
  it is still the text the index was built from: what is around a hit.

A bad call is a tool error with one line; the server goes on. Configure a
client with the command ``chunkwise mcp --db /path/to/index``.
"""

from __future__ import annotations

from typing import Any

from .errors import ChunkwiseError
from .serve import Searcher, SearchFilter

#: the most characters ``read`` returns at once
READ_MAX = 20_000


def create_server(uri: str) -> Any:
    """The MCP server for the index at ``uri`` (its embedder loaded now)."""
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError
    from pydantic import ValidationError

    searcher = Searcher(uri)
    server = MCPServer(
        "chunkwise", log_level="WARNING",
        instructions="Search the user's indexed documents with `search`; every hit cites "
                     "its file and character span. `read` returns the text around a hit.")

    @server.tool()
    def search(query: str, k: int = 5, retriever: str = "hybrid",
               filter: dict[str, Any] | None = None,
               include_boilerplate: bool = False) -> dict[str, Any]:
        """Search the indexed documents: the k best passages for the query, each with
        its document, character span, heading trail, text and score. filter narrows
        them: path (a folder like 'guide/' or a glob like '**/*.md'), kind (prose,
        table, code, ...), strategy, page (3 or [3, 7]), metadata ({key: value}).
        Passages repeated across many documents (licence headers, footers) are left
        out unless include_boilerplate; a passage in several documents is one hit."""
        if isinstance(k, bool) or not 1 <= k <= 100:
            raise ToolError(f"k must be between 1 and 100, got {k}")
        try:
            where = (SearchFilter.model_validate(filter).model_dump(exclude_none=True)
                     if filter is not None else None)
        except ValidationError as exc:
            first = exc.errors()[0]
            at = ".".join(str(p) for p in first["loc"] if not isinstance(p, int))
            raise ToolError(f"filter.{at}: {first['msg']}") from None
        try:
            return {"hits": searcher.search(query, k, retriever, filter=where,
                                            include_boilerplate=include_boilerplate)}
        except ChunkwiseError as exc:
            raise ToolError(str(exc)) from None

    @server.tool()
    def read(doc_id: str, start: int = 0, end: int | None = None) -> dict[str, Any]:
        """The text of an indexed document from character start to end (a hit's doc_id,
        start and end; widen them to read what is around it)."""
        try:
            found = searcher.document(doc_id)
        except ChunkwiseError as exc:
            raise ToolError(str(exc)) from None
        if found is None:
            raise ToolError(f"no document {doc_id!r} in the index")
        text = found["text"]
        if text is None:
            raise ToolError(f"{doc_id}: its file is gone or changed since it was indexed; "
                            "run chunkwise index again")
        stop = len(text) if end is None else end
        if not 0 <= start <= stop <= len(text):
            raise ToolError(f"start and end must satisfy 0 <= start <= end <= {len(text)}, "
                            f"got {start} and {stop}")
        stop = min(stop, start + READ_MAX)
        return {"doc_id": doc_id, "source": found["source"], "start": start, "end": stop,
                "length": len(text), "text": text[start:stop]}

    return server


def run(uri: str) -> None:
    """Serve the index over stdio until the client goes."""
    create_server(uri).run("stdio")


__all__ = ["READ_MAX", "create_server", "run"]
