"""Chunks that hold no word but headings and markup, in a folder chunked with the defaults.

    .venv/bin/python benchmarks/bare_chunks.py FOLDER [FOLDER ...] [--show N]

A chunk is "bare" when, once its heading lines, HTML tags and comments, Liquid tags
(``{% ... %}``), Hugo's shortcodes (``{{< ... >}}``, ``{{% ... %}}``), kramdown
attribute lists (``{: ...}``), a table of contents' place
(``1. TOC``), rules (``---``) and AsciiDoc's titles (``== Install``), comment lines
and ``////`` blocks, attribute entries (``:toc: left``) and preprocessor directives
(``include::x.adoc[]``, ``ifdef::x[]``, ``endif::[]``), and DocFX's (Microsoft Learn's)
zone, version range, row and column lines (``:::zone pivot="cli"``, ``:::zone-end``),
includes (``[!INCLUDE [x](x.md)]``) and divisions (``> [!div class="x"]``) are taken
out, no letter or digit is left: what a retriever would rank by its heading trail
alone. Code chunks are not counted (a closing ``{% endraw %}`` inside a code block is
code). The markup is matched here
independently of the readers, so the figure checks them rather than repeats them.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import chunkwise

_MARKUP = re.compile(r"\{\{<[\s\S]*?>\}\}|\{\{%[\s\S]*?%\}\}|\{%[^\n]*?%\}|\{:[^{}\n]*\}|<!--[\s\S]*?-->"
                     r"|<[^<>]*>|^[ \t]*#{1,6} [^\n]*$|^(?:[*+-]|\d+\.)[ \t]+TOC[ \t]*$|^-{3,}[ \t]*$"
                     r"|^={1,6} [^\n]*$|^////+\n[\s\S]*?^////+$|^//[^\n]*$|^:!?[\w-]+!?:[^\n]*$"
                     r"|^(?:include|ifn?def|ifeval|endif)::[^\n]*\]$"
                     r"|^[ \t]*:::[ \t]*(?:zone|moniker|row|column)[^\n]*$|^[ \t]*\[!INCLUDE[^\n]*\]$"
                     r"|^[ \t]*>?[ \t]*\[!div[^\n]*\]$",
                     re.M)
_WORD = re.compile(r"[^\W_]")


def bare(text: str) -> bool:
    return _WORD.search(_MARKUP.sub("", text)) is None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folders", nargs="+", type=Path)
    ap.add_argument("--show", type=int, default=5, help="examples printed per folder")
    args = ap.parse_args()
    for folder in args.folders:
        if not folder.is_dir():
            sys.exit(f"bare_chunks: {folder}: no such folder")
        chunks = [c for c in chunkwise.chunk(folder) if c.kind != "code"]
        found = [c for c in chunks if bare(c.text)]
        print(f"{folder}: {len(found)} of {len(chunks)} chunks (code aside) hold no word "
              f"but headings and markup")
        for c in found[:args.show]:
            print(f"  {c.doc_id} ({c.token_count} tokens): {c.text[:90]!r}")


if __name__ == "__main__":
    main()
