"""How well ``--encoding auto`` reads files whose encoding is known.

    .venv/bin/python benchmarks/encodings.py FOLDER [FOLDER ...]

Each FOLDER holds one folder per encoding, named by it (chardet's test files are laid
out so: ``KOI8-R/``, ``windows-1250-czech/``, ``iso-8859-7-greek/``; the Google Cloud SDK
ships a copy under ``platform/gsutil/third_party/chardet/tests``). Every file is decoded
as chunkwise reads it (its format sniffed, a declared charset first) with
``encoding="auto"``, and compared with the file decoded in its folder's encoding. A
text that differs only by a kept UTF-8 byte-order mark (chunkwise keeps it as U+FEFF)
counts as read right. Prints the counts and the files read wrong or refused. (To
measure an older chunkwise, run this file with ``PYTHONPATH`` naming that checkout's
``src``.)"""

from __future__ import annotations

import argparse
import codecs
from pathlib import Path

from chunkwise.errors import InputError
from chunkwise.readers import _decoded as decoded  # the readers' own step
from chunkwise.readers import sniff_format


def _truth(folder: str) -> str | None:
    """The encoding a folder's name gives (``iso-8859-2-czech`` -> ``iso-8859-2``)."""
    parts = folder.lower().split("-")
    for n in range(len(parts), 0, -1):
        try:
            return codecs.lookup("-".join(parts[:n])).name
        except LookupError:
            continue
    return None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folders", nargs="+", type=Path)
    args = ap.parse_args()
    counts = {"right": 0, "wrong": 0, "error": 0}
    wrong: list[str] = []
    for root in args.folders:
        for folder in sorted(p for p in root.iterdir() if p.is_dir()):
            truth = _truth(folder.name)
            for path in sorted(p for p in folder.rglob("*") if p.is_file()):
                data = path.read_bytes()
                try:
                    want = data.decode(truth) if truth else None
                except UnicodeDecodeError:
                    want = None
                if want is None:
                    continue  # no encoding Python knows by that name reads it
                want = want.removeprefix("\ufeff")
                try:
                    got = decoded(data, str(path), sniff_format(data, path.name), "auto")
                except InputError as exc:
                    counts["error"] += 1
                    wrong.append(f"error  {folder.name}/{path.name}: {exc.problem[:80]}")
                    continue
                right = got.removeprefix("\ufeff") == want
                counts["right" if right else "wrong"] += 1
                if not right:
                    wrong.append(f"wrong  {folder.name}/{path.name}: {got[:50]!r}")
    print(f"files {sum(counts.values())}: read right {counts['right']}, wrong {counts['wrong']}, "
          f"refused {counts['error']}")
    for line in wrong:
        print("  " + line)


if __name__ == "__main__":
    main()
