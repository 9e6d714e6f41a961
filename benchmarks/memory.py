"""Peak memory of one large document per reader, by the command line, every default.

    .venv/bin/python benchmarks/memory.py [--mb 20] [--big-text-mb 300] [--keep DIR]

Generates the files (seeded, so every run sees the same bytes), then runs
``chunkwise chunk FILE -o out.jsonl`` on each in its own process and prints its
peak RSS (VmHWM), seconds, chunks, and the ratio the target speaks of: peak over
the baseline (the same command on a one-line file: interpreter, tokenizer,
imports) divided by the file's size; the target is ~8x for every reader, and a
300 MB text file under 500 MB.

The files:

- text: random English words in paragraphs (auto streams plain text);
- Markdown, numbered sections: a ``## Section N`` heading every paragraph (auto
  chunks it as a contract);
- Markdown, real docs: the bundled FastAPI + Pydantic pages concatenated (emoji
  and CJK included, so Python holds the text in 4 bytes a character);
- Markdown of paragraphs only (auto cuts it with ``recursive``);
- an HTML page (a heading every seven paragraphs; over 8 M characters, so read
  whole rather than through trafilatura's main-content extraction);
- CSV with one cell of half the size;
- JSON: an array of records (id, name, tags, a nested object, a sentence).
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import random
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "tests/data/docs/fastapi-pydantic-docs.tar.xz"

_WORDS = ("the", "shipment", "left", "warehouse", "on", "time", "and", "arrived", "two",
          "days", "later", "customer", "order", "invoice", "refund", "policy", "section",
          "clause", "agreement", "party", "notice", "term", "data", "record", "value",
          "field", "index", "table", "model", "request", "response", "server", "client",
          "error", "retry", "timeout", "budget", "token", "chunk", "passage", "question",
          "answer", "evidence", "report", "figure", "measure", "memory", "speed", "file",
          "folder", "document", "reader", "writer")


def _sentence(rng: random.Random) -> str:
    words = [rng.choice(_WORDS) for _ in range(rng.randint(6, 18))]
    return " ".join(words).capitalize() + "."


def _paragraph(rng: random.Random) -> str:
    return " ".join(_sentence(rng) for _ in range(rng.randint(2, 6)))


def _until(n_bytes: int, make: object) -> str:
    parts: list[str] = []
    total = 0
    while total < n_bytes:
        part = make()  # type: ignore[operator]
        parts.append(part)
        total += len(part.encode())
    return "".join(parts)


def text_file(path: Path, n_bytes: int, seed: int = 1) -> Path:
    rng = random.Random(seed)
    with path.open("w", encoding="utf-8") as f:
        written = 0
        while written < n_bytes:
            block = _until(1 << 20, lambda: _paragraph(rng) + "\n\n")
            f.write(block)
            written += len(block.encode())
    return path


def numbered_markdown(path: Path, n_bytes: int, seed: int = 2) -> Path:
    rng = random.Random(seed)
    counter = iter(range(1, 1 << 30))
    path.write_text(_until(n_bytes, lambda: f"## Section {next(counter)}\n\n"
                                            f"{_paragraph(rng)}\n\n"), encoding="utf-8")
    return path


def real_docs_markdown(path: Path, n_bytes: int) -> Path:
    with tarfile.open(DOCS) as tar:
        pages = [tar.extractfile(m).read().decode()  # type: ignore[union-attr]
                 for m in sorted(tar.getmembers(), key=lambda m: m.name)
                 if m.isfile() and m.name.endswith(".md")]
    one = "\n\n".join(pages)
    path.write_text((one + "\n\n") * (n_bytes // len(one.encode()) + 1), encoding="utf-8")
    return path


def plain_markdown(path: Path, n_bytes: int, seed: int = 6) -> Path:
    """Paragraphs, no heading or table: auto cuts it with recursive."""
    return text_file(path, n_bytes, seed)


def html_page(path: Path, n_bytes: int, seed: int = 7) -> Path:
    rng = random.Random(seed)
    counter = iter(range(1 << 30))

    def part() -> str:
        i = next(counter)
        head = f"<h2>Section {i}</h2>\n" if i % 7 == 0 else ""
        return f"{head}<p>{_paragraph(rng)}</p>\n"

    path.write_text("<html><head><title>Big</title></head><body><main>\n"
                    + _until(n_bytes, part) + "</main></body></html>\n", encoding="utf-8")
    return path


def one_cell_csv(path: Path, n_bytes: int, seed: int = 3) -> Path:
    rng = random.Random(seed)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["id", "note"])
    writer.writerow(["1", _until(n_bytes // 2, lambda: _paragraph(rng) + " ")])
    for i in range(2, 50):
        writer.writerow([str(i), _sentence(rng)])
    path.write_text(out.getvalue(), encoding="utf-8")
    return path


def json_records(path: Path, n_bytes: int, seed: int = 4) -> Path:
    rng = random.Random(seed)
    records = []
    total = 0
    while total < n_bytes:
        i = len(records)
        rec = {"id": i, "name": f"item {i}", "tags": [rng.choice(_WORDS) for _ in range(3)],
               "owner": {"team": rng.choice(_WORDS), "level": i % 5},
               "description": _sentence(rng)}
        records.append(rec)
        total += len(json.dumps(rec, indent=2).encode()) + 2
    path.write_text(json.dumps(records, indent=2), encoding="utf-8")
    return path


_RUN = r"""
import json, sys, time
from chunkwise.cli import main
t0 = time.perf_counter()
code = main(sys.argv[1:])
seconds = time.perf_counter() - t0
peak = next(int(l.split()[1]) / 1024 for l in open("/proc/self/status") if l.startswith("VmHWM:"))
print(json.dumps({"code": code, "seconds": seconds, "rss_mb": peak}), file=sys.stderr)
"""


def measure(path: Path, out: Path, *flags: str) -> dict[str, float]:
    run = subprocess.run([sys.executable, "-c", _RUN, "chunk", str(path), "-o", str(out),
                          *flags], capture_output=True, text=True)
    last = run.stderr.strip().splitlines()[-1]
    result: dict[str, float] = json.loads(last)
    if result["code"] != 0:
        raise SystemExit(f"{path.name}: {run.stderr[-2000:]}")
    with out.open(encoding="utf-8") as f:
        result["chunks"] = sum(1 for _ in f)
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=float, default=20, help="size of each generated file")
    ap.add_argument("--big-text-mb", type=float, default=300, help="0 leaves it out")
    ap.add_argument("--keep", help="generate into (and reuse) this folder")
    ap.add_argument("--only", action="append", default=[],
                    help="run only files whose name contains this (repeatable)")
    args = ap.parse_args()
    tmp = tempfile.TemporaryDirectory()
    folder = Path(args.keep) if args.keep else Path(tmp.name)
    folder.mkdir(parents=True, exist_ok=True)
    n = int(args.mb * 1e6)
    makers = {"text.txt": lambda p: text_file(p, n),
              "numbered.md": lambda p: numbered_markdown(p, n),
              "realdocs.md": lambda p: real_docs_markdown(p, n),
              "plain.md": lambda p: plain_markdown(p, n),
              "page.html": lambda p: html_page(p, n),
              "onecell.csv": lambda p: one_cell_csv(p, n),
              "records.json": lambda p: json_records(p, n)}
    if args.big_text_mb:
        makers["big.txt"] = lambda p: text_file(p, int(args.big_text_mb * 1e6), seed=5)
    small = folder / "small.md"
    small.write_text("# Small\n\nOne line.\n", encoding="utf-8")
    base = measure(small, folder / "out.jsonl")
    print(f"baseline (a one-line file): {base['rss_mb']:.0f} MB, {base['seconds']:.2f} s")
    print(f"{'file':<14} {'MB':>6} {'chunks':>8} {'seconds':>8} {'peak MB':>8} "
          f"{'(peak-base)/size':>17}")
    for name, make in makers.items():
        if args.only and not any(o in name for o in args.only):
            continue
        path = folder / name
        if not path.exists():
            make(path)
        size = path.stat().st_size / 1e6
        r = measure(path, folder / "out.jsonl")
        ratio = (r["rss_mb"] - base["rss_mb"]) / size
        print(f"{name:<14} {size:>6.1f} {int(r['chunks']):>8} {r['seconds']:>8.1f} "
              f"{r['rss_mb']:>8.0f} {ratio:>16.1f}x", flush=True)
    (folder / "out.jsonl").unlink(missing_ok=True)


if __name__ == "__main__":
    main()
