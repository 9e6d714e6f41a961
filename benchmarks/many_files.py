"""Indexing many small files: the cost per file, flat memory.

    .venv/bin/python benchmarks/many_files.py [--embedder minilm] [--files 1600]

Writes ``--files`` and twice as many one-paragraph Markdown files, indexes each
folder into a new LanceDB index with ``chunkwise index`` (each run its own process,
its peak RSS its own), then re-indexes the larger one after a one-file edit.
Prints seconds, peak RSS and the ratios (targets: twice the files at most 2.2x the
time, peak RSS within 10 %).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

_RUN = r"""
import json, sys, time
from chunkwise.cli import main
t0 = time.perf_counter()
code = main(sys.argv[1:])
seconds = time.perf_counter() - t0
peak = next(int(l.split()[1]) / 1024 for l in open("/proc/self/status") if l.startswith("VmHWM:"))
print(json.dumps({"code": code, "seconds": seconds, "rss_mb": peak}))
"""


def _files(folder: Path, n: int) -> Path:
    folder.mkdir()
    for i in range(n):
        (folder / f"note{i:05d}.md").write_text(
            f"# Note {i}\n\nThis small note {i} talks about topic {i % 97} and item {i * 7}.\n")
    return folder


def _index(folder: Path, db: Path, embedder: str) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-c", _RUN, "index", str(folder), "--db", str(db),
                          "--embedder", embedder, "--no-progress"],
                         capture_output=True, text=True, check=True)
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    if result["code"] != 0:
        raise SystemExit(out.stderr)
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--embedder", default="minilm")
    ap.add_argument("--files", type=int, default=1600)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        n = args.files
        small = _index(_files(root / "small", n), root / "idx-small", args.embedder)
        large_dir = _files(root / "large", 2 * n)
        large = _index(large_dir, root / "idx-large", args.embedder)
        with open(large_dir / "note00007.md", "a") as f:
            f.write("One more line.\n")
        edit = _index(large_dir, root / "idx-large", args.embedder)
    print(f"embedder {args.embedder}")
    print(f"{'files':>8} {'seconds':>8} {'ms/file':>8} {'peak RSS MB':>12}")
    for files, r in ((n, small), (2 * n, large)):
        print(f"{files:>8,} {r['seconds']:>8.1f} {1000 * r['seconds'] / files:>8.2f} "
              f"{r['rss_mb']:>12.0f}")
    print(f"time ratio {large['seconds'] / small['seconds']:.2f} (target <= 2.2); RSS ratio "
          f"{large['rss_mb'] / small['rss_mb']:.3f} (target <= 1.10)")
    print(f"re-run after a one-file edit: {edit['seconds']:.1f} s, {edit['rss_mb']:.0f} MB")


if __name__ == "__main__":
    main()
