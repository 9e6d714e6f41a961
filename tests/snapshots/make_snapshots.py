"""Write (or compare) golden snapshots: where each strategy cuts a few varied
documents. The invariants accept any valid cut; only these catch a change in
*where* chunks are cut.

    python tests/snapshots/make_snapshots.py          # compare, exit 1 on a difference
    python tests/snapshots/make_snapshots.py --write  # accept the current cuts
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
DOCS = {
    "qual-047.md": ROOT / "samples" / "qual-047-incident-procedure.md",
    "shipping-faq.txt": ROOT / "samples" / "shipping-faq-note.txt",
    "handbook.html": HERE / "handbook.html",
    "transcript.txt": HERE / "transcript.txt",
}
CONFIGS = {
    "fixed-64": ("fixed", {"size": 64, "overlap": 8}),
    "sentence-64": ("sentence", {"size": 64}),
    "recursive-64": ("recursive", {"size": 64}),
    "recursive-128-o16": ("recursive", {"size": 128, "overlap": 16}),
    "section-96": ("section", {"size": 96}),
    "auto-96": ("auto", {"size": 96}),
    "hierarchical-200-60": ("hierarchical", {"sizes": [200, 60]}),
}


def snapshot(doc_name: str, strategy: str, options: dict) -> list[list]:
    import chunkwise
    from chunkwise.readers import read_path

    doc = read_path(DOCS[doc_name])
    chunker = chunkwise.get_chunker(strategy, **options)
    out = []
    for c in chunker.chunk_document(doc):
        ctx = hashlib.blake2b(c.context.encode(), digest_size=4).hexdigest() if c.context else ""
        out.append([c.level, c.start, c.end, c.token_count, c.kind, ctx])
    return out


def main() -> int:
    write = "--write" in sys.argv
    file = HERE / "cuts.json"
    current = {f"{d} {k}": snapshot(d, *CONFIGS[k]) for d in DOCS for k in CONFIGS}  # type: ignore[arg-type]
    if write:
        file.write_text(json.dumps(current, indent=0, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {file}: {len(current)} snapshots")
        return 0
    golden = json.loads(file.read_text(encoding="utf-8"))
    bad = [k for k in current if current[k] != golden.get(k)]
    for k in bad:
        print(f"changed: {k}: {len(golden.get(k) or [])} -> {len(current[k])} chunks")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
