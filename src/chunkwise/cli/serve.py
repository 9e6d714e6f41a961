"""``chunkwise serve``: the index over HTTP (see :mod:`chunkwise.serve`);
``chunkwise mcp``: the index as an MCP server over stdio (:mod:`chunkwise.mcp`)."""

from __future__ import annotations

import argparse
import ipaddress
from typing import Any

from ..errors import ChunkwiseError
from .output import warning


def add_parser(sub: Any) -> None:
    s = sub.add_parser(
        "serve", help="answer searches over HTTP, with the index and model kept loaded",
        description="Keep the index, its embedder and its BM25 statistics loaded and answer "
                    "POST /search {query, k, retriever, filter, expand}, GET /documents/DOC_ID, "
                    "GET /view/DOC_ID?chunk=ID and GET /health (OpenAPI schema at "
                    "/openapi.json); open / in a browser for the search page. An index "
                    "updated by chunkwise index is seen by the next request once the run is "
                    "done.")
    s.add_argument("--db", required=True, metavar="URI", help="the index (as for index)")
    s.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default: 127.0.0.1, this machine only)")
    s.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    s.add_argument("--token", default=None, metavar="TOKEN",
                   help="require 'Authorization: Bearer TOKEN' (default: $CHUNKWISE_TOKEN)")
    m = sub.add_parser(
        "mcp", help="serve the index to agents as an MCP server (stdio)",
        description="A Model Context Protocol server on standard input and output with the "
                    "tools search(query, k, retriever, filter) and read(doc_id, start, end); give "
                    "agents the command 'chunkwise mcp --db URI'.")
    m.add_argument("--db", required=True, metavar="URI", help="the index (as for index)")


def cmd_serve(args: argparse.Namespace) -> int:
    import os

    from ..errors import MissingExtraError

    try:
        from ..serve import serve
    except ImportError as exc:
        raise MissingExtraError("chunkwise serve", exc.name, "serve") from None

    if not 0 < args.port < 65536:
        raise ChunkwiseError(f"--port must be between 1 and 65535, got {args.port}")
    token = args.token or os.environ.get("CHUNKWISE_TOKEN") or None
    if not _loopback(args.host):
        warning(f"serving on {args.host}: anyone who can reach this machine can query the "
                "index" + ("" if token else " (give --token to require a bearer token)"))
    print(f"chunkwise: serving {args.db} on http://{args.host}:{args.port} (Ctrl-C to stop)",
          flush=True)
    serve(args.db, host=args.host, port=args.port, token=token)
    return 0


def cmd_mcp(args: argparse.Namespace) -> int:
    from ..errors import MissingExtraError

    try:
        from ..mcp import run
    except ImportError as exc:
        raise MissingExtraError("chunkwise mcp", exc.name, "mcp") from None
    run(args.db)
    return 0


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
