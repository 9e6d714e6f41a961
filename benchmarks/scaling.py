"""Cost linear in the input, no quadratic input, bounded memory on a huge file.

    .venv/bin/python benchmarks/scaling.py [--corpus-small out/corpus-20.jsonl]
        [--corpus-large out/corpus-100.jsonl] [--gb 1] [--skip-linear]

Prints, each measured in its own process (peak RSS its own), one thread:

- linear: the 100 MB corpus against the 20 MB one, recursive, documents one by
  one: the time ratio (5.0 is linear; the target is at most 5.5).
- adversarial inputs, each against ordinary text of the same size chunked the
  same way (``auto`` and ``recursive``): a 10 MB paragraph with no line break, a
  5 MB single "word", a 100,000-row Markdown table, 100,000 Markdown headings;
  the ratio of times (target: at most 3).
- memory: a generated text file of ``--gb`` GB chunked by the command line
  (``--strategy recursive``), read in windows: peak RSS (target: under 500 MB)
  and MB/s. ``--gb 0`` skips it.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_RUN = r"""
import json, sys, time
from pathlib import Path
import chunkwise

def peak_mb():  # VmHWM: this process's own peak (ru_maxrss may carry its parent's)
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
kind, arg, strategy = sys.argv[1], sys.argv[2], sys.argv[3]
if kind == "corpus":
    docs = {}
    with open(arg, encoding="utf-8") as f:
        for i, line in enumerate(f):
            docs[f"d{i}"] = json.loads(line)["text"]
    size = sum(len(t.encode()) for t in docs.values())
    source = docs
else:
    source = Path(arg)
    size = source.stat().st_size
t0 = time.perf_counter()
n = 0
for c in chunkwise.iter_chunks(source, strategy, size=256, max_tokens=256):
    n += 1
elapsed = time.perf_counter() - t0
print(json.dumps({"seconds": elapsed, "chunks": n, "mb": size / 1e6,
                  "rss_mb": peak_mb()}))
"""


def measure(kind: str, arg: str | Path, strategy: str, timeout: float = 3600) -> dict:
    out = subprocess.run([sys.executable, "-c", _RUN, kind, str(arg), strategy],
                         capture_output=True, text=True, timeout=timeout,
                         env={"TOKENIZERS_PARALLELISM": "false", "RAYON_NUM_THREADS": "1",
                              "PATH": "/usr/bin:/bin"})
    if out.returncode:
        raise SystemExit(out.stderr[-2000:])
    return json.loads(out.stdout)


def ordinary_text(corpus: Path, n_bytes: int) -> str:
    parts, total = [], 0
    with corpus.open(encoding="utf-8") as f:
        for line in f:
            text = json.loads(line)["text"]
            parts.append(text)
            total += len(text.encode())
            if total >= n_bytes:
                break
    return "\n\n".join(parts).encode()[:n_bytes].decode("utf-8", "ignore")


def adversarial(n: int, scale: float = 1.0) -> dict[str, tuple[str, str]]:
    """name -> (suffix, text) of about the sizes the issue names (times ``scale``)."""
    sentence = "The shipment left the warehouse on time and arrived two days later. "
    para_len, word_len = int(10_000_000 * scale), int(5_000_000 * scale)
    para = (sentence * (para_len // len(sentence) + 1))[:para_len]
    word = "a" * word_len
    rows = "| id | name | value |\n|---|---|---|\n" + "".join(
        f"| {i} | item {i} | {i * 7 % 1000} |\n" for i in range(n))
    headings = "".join(f"## Heading {i}\n" for i in range(n))
    return {f"{para_len / 1e6:g} MB paragraph, no line break": (".txt", para),
            f"{word_len / 1e6:g} MB single word": (".txt", word),
            f"{n:,}-row Markdown table": (".md", rows),
            f"{n:,} Markdown headings": (".md", headings)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus-small", default=str(ROOT / "out/corpus-20.jsonl"))
    ap.add_argument("--corpus-large", default=str(ROOT / "out/corpus-100.jsonl"))
    ap.add_argument("--gb", type=float, default=1.0)
    ap.add_argument("--skip-linear", action="store_true")
    ap.add_argument("--only-memory", action="store_true", help="just the GB file")
    ap.add_argument("--rows", type=int, default=100_000)
    ap.add_argument("--scale", type=float, default=1.0,
                    help="shrink the paragraph and word inputs (a quick check: 0.01)")
    args = ap.parse_args()

    if not args.skip_linear and not args.only_memory:
        small = measure("corpus", args.corpus_small, "recursive")
        large = measure("corpus", args.corpus_large, "recursive")
        ratio = large["seconds"] / small["seconds"]
        size_ratio = large["mb"] / small["mb"]
        print(f"linear: {small['mb']:.1f} MB {small['seconds']:.1f} s, {large['mb']:.1f} MB "
              f"{large['seconds']:.1f} s: time x{ratio:.2f} for size x{size_ratio:.2f} "
              f"(RSS {small['rss_mb']:.0f} / {large['rss_mb']:.0f} MB)", flush=True)

    with tempfile.TemporaryDirectory() as tmp:
        if not args.only_memory:
            print("\n| input | strategy | MB | seconds | ordinary text, same size | ratio |")
            print("|---|---|---|---|---|---|")
        inputs = {} if args.only_memory else adversarial(args.rows, args.scale)
        for name, (suffix, text) in inputs.items():
            path = Path(tmp) / f"input{suffix}"
            path.write_text(text, encoding="utf-8")
            normal = Path(tmp) / f"normal{suffix}"
            normal.write_text(ordinary_text(Path(args.corpus_small), len(text.encode())),
                              encoding="utf-8")
            for strategy in ("auto", "recursive"):
                hard = measure("file", path, strategy)
                base = measure("file", normal, strategy)
                print(f"| {name} | {strategy} | {hard['mb']:.1f} | {hard['seconds']:.2f} | "
                      f"{base['seconds']:.2f} | {hard['seconds'] / base['seconds']:.2f} |",
                      flush=True)

        if args.gb > 0:
            big = Path(tmp) / "big.txt"
            target = int(args.gb * 1e9)
            chunk = ordinary_text(Path(args.corpus_small), 20_000_000).encode()
            with big.open("wb") as f:
                written = 0
                while written < target:
                    f.write(chunk[:target - written])
                    written += min(len(chunk), target - written)
            t0 = time.perf_counter()
            cmd = [str(Path(sys.executable).parent / "chunkwise"), "chunk", str(big),
                   "--strategy", "recursive", "--size", "256", "--summary"]
            proc = subprocess.run(["/usr/bin/time", "-v", *cmd], capture_output=True, text=True)
            elapsed = time.perf_counter() - t0
            rss = next((int(line.split()[-1]) / 1024 for line in proc.stderr.splitlines()
                        if "Maximum resident set size" in line), float("nan"))
            print(f"\nmemory: {written / 1e9:.2f} GB text file, recursive 256, by the CLI: "
                  f"{elapsed:.0f} s ({written / 1e6 / elapsed:.2f} MB/s), peak RSS {rss:.0f} MB"
                  f", exit {proc.returncode}; {proc.stdout.strip().splitlines()[-1:]}")


if __name__ == "__main__":
    main()
