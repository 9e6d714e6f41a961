"""Benchmark corpora of real text: the documentation that installed packages ship
as Markdown, reStructuredText and plain text (this Python environment, the
system's Python and /usr/share/doc; Markdown first) plus Chroma's evaluation
corpora, deduplicated by content, in a fixed order, cycled
to reach the size asked for (a repeated document gets a ``#2`` suffix).

    .venv/bin/python benchmarks/corpus.py --mb 20 --out out/corpus-20.jsonl
"""

from __future__ import annotations

import argparse
import hashlib
import json
import site
import sys
import sysconfig
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMA = ROOT.parent / "shared" / "eval" / "chroma"


def _roots() -> list[Path]:
    roots = {Path(sys.prefix), Path(sys.base_prefix), Path(sysconfig.get_paths()["purelib"])}
    roots.update(Path(p) for p in site.getsitepackages())
    roots.add(Path("/usr/share/doc"))
    roots.add(Path("/usr/lib"))
    return sorted(r for r in roots if r.is_dir())


def text_files() -> Iterator[Path]:
    seen: set[Path] = set()
    if CHROMA.is_dir():
        yield from sorted(CHROMA.glob("*.md"))
    for pattern in ("*.md", "*.rst", "*.txt"):
        for root in _roots():
            for path in sorted(root.rglob(pattern)):
                real = path.resolve()
                if real in seen or not real.is_file():
                    continue
                seen.add(real)
                yield real


def documents(min_chars: int = 1000) -> list[tuple[str, str]]:
    """(name, text) of every distinct document of at least ``min_chars``, mostly
    prose: files that look like data (few letters, or few spaces) are left out."""
    out, hashes = [], set()
    for path in text_files():
        try:
            text = path.read_bytes().decode("utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        if len(text) < min_chars or "\x00" in text:
            continue
        letters = sum(c.isalpha() for c in text[:20000])
        spaces = text[:20000].count(" ")
        if letters < 0.5 * min(len(text), 20000) or spaces < 0.08 * min(len(text), 20000):
            continue  # word lists, hashes, tables of numbers
        digest = hashlib.sha1(text.encode("utf-8")).hexdigest()
        if digest in hashes:
            continue
        hashes.add(digest)
        out.append((str(path), text))
    return out


def corpus(megabytes: float) -> list[tuple[str, str]]:
    """Documents cycled until their UTF-8 size reaches ``megabytes``."""
    docs = documents()
    if not docs:
        raise SystemExit("no documentation text found for the corpus")
    target = int(megabytes * 1_000_000)
    out: list[tuple[str, str]] = []
    total, round_ = 0, 1
    while total < target:
        for name, text in docs:
            out.append((name if round_ == 1 else f"{name}#{round_}", text))
            total += len(text.encode("utf-8"))
            if total >= target:
                break
        round_ += 1
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--mb", type=float, default=20)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    docs = corpus(args.mb)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", encoding="utf-8") as f:
        for name, text in docs:
            f.write(json.dumps({"name": name, "text": text}) + "\n")
    unique = len({t for _, t in docs})
    print(f"{len(docs)} documents ({unique} distinct), "
          f"{sum(len(t.encode()) for _, t in docs) / 1e6:.1f} MB -> {args.out}")


if __name__ == "__main__":
    main()
