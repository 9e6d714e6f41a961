"""Main-content extraction of the HTML reader, measured on saved real pages with
ground truth (the article-extraction benchmark: 181 news pages, MIT licence; the
pages are not committed here).

    git clone https://github.com/scrapinghub/article-extraction-benchmark aeb
    .venv/bin/python benchmarks/html_extraction.py aeb

Prints, for the reader's ``html`` format (main content) and ``html-all`` (the
whole page), the mean recall and precision of the ground-truth article text
(word 4-gram shingles, as the benchmark does), the pages that keep under half of
their article, empty results, and how many pages the reader warned about.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import time
import warnings
from collections import Counter
from pathlib import Path

from chunkwise.readers import parse

_WORD = re.compile(r"\w+", re.U)


def shingles(text: str, n: int = 4) -> Counter[tuple[str, ...]]:
    words = [w.lower() for w in _WORD.findall(text)]
    return Counter(tuple(words[i:i + n]) for i in range(max(1, len(words) - n + 1)))


def recall_precision(true: str, pred: str) -> tuple[float, float]:
    a, b = shingles(true), shingles(pred)
    tp = sum((a & b).values())
    return tp / max(1, sum(a.values())), tp / max(1, sum(b.values()))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", type=Path, help="a checkout of article-extraction-benchmark")
    args = ap.parse_args()
    truth = json.loads((args.folder / "ground-truth.json").read_text(encoding="utf-8"))
    print(f"{len(truth)} pages")
    print(f"{'format':<10}{'recall':>8}{'precision':>11}{'<50%':>6}{'empty':>7}{'warned':>8}"
          f"{'lost+warned':>13}{'ms/page':>9}")
    for fmt in ("html", "html-all"):
        recalls, precisions, lost, empty, warned, lost_warned = [], [], 0, 0, 0, 0
        t0 = time.perf_counter()
        for key, row in truth.items():
            html = gzip.decompress((args.folder / "html" / f"{key}.html.gz").read_bytes())
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                text = parse(html, key, fmt=fmt).text
            r, p = recall_precision(row["articleBody"], text)
            recalls.append(r)
            precisions.append(p)
            lost += r < 0.5
            empty += not text.strip()
            warned += bool(caught)
            lost_warned += bool(caught) and r < 0.5
        ms = 1000 * (time.perf_counter() - t0) / len(truth)
        n = len(truth)
        print(f"{fmt:<10}{sum(recalls) / n:>8.3f}{sum(precisions) / n:>11.3f}{lost:>6}{empty:>7}"
              f"{warned:>8}{lost_warned:>13}{ms:>9.1f}")


if __name__ == "__main__":
    main()
