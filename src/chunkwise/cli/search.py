"""``chunkwise search``: an index's answers with their citations. It calls
:class:`chunkwise.Index`; this only parses and prints."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..errors import ChunkwiseError, one_line
from .filters import add_filter_flags, filter_of


def add_parser(sub: Any) -> None:
    sq = sub.add_parser(
        "search", help="search an index: ranked chunks with their citations",
        description="Rank the index's chunks for a question with the evaluation's retriever "
                    "and print each with its source, character span, page (a source file's lines "
                    "and symbol, a transcript's times) and heading trail; a passage found word "
                    "for word in several documents is one hit, 'also in' naming the others.")
    sq.add_argument("query", metavar="QUESTION")
    sq.add_argument("--db", required=True, metavar="URI", help="the index (see index --help)")
    sq.add_argument("-k", type=int, default=5, help="how many chunks (default: 5)")
    sq.add_argument("--retriever", choices=("dense", "bm25", "hybrid"), default="hybrid",
                    help="dense (the store's own nearest-neighbour search), bm25 or hybrid "
                         "(z-scored fusion, default; both rank every row in memory)")
    sq.add_argument("--json", action="store_true", help="one JSON object per hit")
    sq.add_argument("--expand", action="store_true",
                    help="a hierarchical index: rank the small chunks, return their parents "
                         "(each once)")
    sq.add_argument("--include-boilerplate", action="store_true",
                    help="also rank chunks made of text repeated in many of the index's "
                         "documents (licence headers, footers), marked metadata.boilerplate; "
                         "by default they are left out")
    add_filter_flags(sq)


def cmd_search(args: argparse.Namespace) -> int:
    from ..api import Index
    from ..boilerplate import is_marked

    if args.k < 1:
        raise ChunkwiseError("-k must be a positive integer")
    with Index(args.db, create=False) as index:
        if index.config() is None:
            raise ChunkwiseError(f"no index at {args.db} (build one with chunkwise index)")
        wanted = filter_of(args)
        hits = index.search(args.query, args.k, retriever=args.retriever, expand=args.expand,
                            filter=wanted, include_boilerplate=args.include_boilerplate)
    if not hits and wanted:
        print("chunkwise: no chunk matches the filter (paths are relative to the index's "
              "root, as hits show them in doc_id)", file=sys.stderr)
    for rank, hit in enumerate(hits, 1):
        r = hit.row
        if args.json:
            print(json.dumps({"rank": rank, "score": round(hit.score, 6),
                              **{k: v for k, v in r.items() if k != "row_hash"}},
                             ensure_ascii=False))
            continue
        where = f"{one_line(r['source'] or r['doc_id'])}:{r['start']}-{r['end']}{_located(r)}"
        trail = " > ".join(r.get("headings") or [])
        flag = "  [boilerplate]" if is_marked(r) else ""
        print(f"{rank}. {where}  score {hit.score:.3f}{flag}"
              + (f"\n   {trail}" if trail else ""))
        text = " ".join(r["text"].split())
        print(f"   {text[:300]}{'...' if len(text) > 300 else ''}")
        for copy in r.get("copies") or ():
            print(f"   also in {one_line(copy['source'] or copy['doc_id'])}:{copy['start']}-"
                  f"{copy['end']}")
    return 0


def _located(row: dict[str, Any]) -> str:
    """Where a hit is in the terms of its kind of document: its page (a deck's slide), a
    source file's lines and symbol (the first three of a group's), a transcript's times."""
    from ..types import stored_metadata

    meta = stored_metadata(row.get("metadata"))
    doc = meta.get("doc")
    page = "slide" if isinstance(doc, dict) and doc.get("format") == "pptx" else "page"
    parts = [f"{page} {row['page']}"] if row.get("page") is not None else []
    lines = meta.get("lines")
    if isinstance(lines, list) and len(lines) == 2:
        symbols = [meta["symbol"]] if meta.get("symbol") else list(meta.get("symbols") or ())
        named = ", ".join(map(str, symbols[:3])) + (f" +{len(symbols) - 3}"
                                                    if len(symbols) > 3 else "")
        parts.append(f"lines {lines[0]}-{lines[1]}" + (f", {named}" if named else ""))
    elif meta.get("start_stamp") and meta.get("end_stamp"):
        parts.append(f"{meta['start_stamp']}-{meta['end_stamp']}")
    return f" ({'; '.join(parts)})" if parts else ""
