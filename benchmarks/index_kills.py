"""An index that survives being killed: ``chunkwise index`` runs killed with SIGKILL at
random moments across edits, deletions, new files and renames (``--prune`` in some),
then one run to the end; the index must then equal one built fresh from the folder.

    .venv/bin/python benchmarks/index_kills.py [--store lancedb|qdrant|postgres]
        [--rounds 40] [--seed 1] [--docs 300]

Each round changes the folder (1, 5 or 30 changes: an edit of one paragraph, a
deleted file, a new file, a renamed file), then runs ``chunkwise index`` and kills it
after 0.15-2 s (or lets it finish, one round in seven). At the end: one run with
``--prune`` to the end, ``index --check``, and a fresh index of the same folder.
Compared row by row: id, document, text, offsets, row hash and vector (to 4
decimals). Prints each round's outcome and the verdict; exits 1 on any difference,
duplicate id, failed check or traceback. The embedder is a static model distilled
locally from the bundled MiniLM (fast: the point is the writes, not the model);
PostgreSQL runs in a throw-away pgserver.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
WORDS = (ROOT / "benchmarks" / "narrative_heldout" / "docs" / "treasure-island.txt").read_text(
    encoding="utf-8").split()


class Folder:
    """The documents, changed at random."""

    def __init__(self, path: Path, rnd: random.Random, docs: int):
        self.path, self.rnd = path, rnd
        path.mkdir(parents=True)
        for i in range(docs):
            (path / f"d{i}.md").write_text(f"# Doc {i}\n\n" + self.document(), encoding="utf-8")

    def paragraph(self) -> str:
        return " ".join(self.rnd.choice(WORDS) for _ in range(self.rnd.randint(20, 120))) + "."

    def document(self) -> str:
        return "\n\n".join(("## Part {i}\n\n" if self.rnd.random() < 0.3 else "") + self.paragraph()
                           for i in range(self.rnd.randint(2, 25)))

    def change(self) -> str:
        files = sorted(self.path.iterdir())
        op = self.rnd.choice(["edit", "edit", "delete", "add", "rename"])
        if op == "edit" and files:
            f = self.rnd.choice(files)
            parts = f.read_text(encoding="utf-8").split("\n\n")
            parts[self.rnd.randrange(len(parts))] = self.paragraph()
            f.write_text("\n\n".join(parts), encoding="utf-8")
        elif op == "delete" and len(files) > 5:
            self.rnd.choice(files).unlink()
        elif op == "add":
            (self.path / f"n{self.rnd.randrange(10**9)}.md").write_text(
                "# New\n\n" + self.document(), encoding="utf-8")
        elif op == "rename" and files:
            self.rnd.choice(files).rename(self.path / f"r{self.rnd.randrange(10**9)}.md")
        return op


def rows(uri: str) -> dict[str, tuple[Any, ...]]:
    from chunkwise.index import open_store

    store = open_store(uri)
    try:
        found, vectors = store.rows()
    finally:
        store.close()
    out: dict[str, tuple[Any, ...]] = {}
    for r, v in zip(found, vectors):
        if r["id"] in out:
            raise SystemExit(f"duplicate row {r['id']} of {r['doc_id']}")
        out[r["id"]] = (r["doc_id"], r["text"], r["start"], r["end"], r.get("row_hash"),
                        np.round(np.asarray(v, dtype=np.float32), 4).tobytes())
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--store", choices=("lancedb", "qdrant", "postgres"), default="lancedb")
    ap.add_argument("--rounds", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--docs", type=int, default=300)
    args = ap.parse_args()
    rnd = random.Random(args.seed)
    work = Path(tempfile.mkdtemp(prefix="chunkwise-kills-"))
    server = None
    try:
        from chunkwise.embed import distill

        embedder = f"model2vec:{distill(work / 'm2v', pca_dims=64)}"
        if args.store == "postgres":
            import pgserver

            server = pgserver.get_server(work / "pg", cleanup_mode="stop")
            server.psql("CREATE EXTENSION IF NOT EXISTS vector;")

        def uri(name: str) -> str:
            if args.store == "lancedb":
                return f"lancedb://{work}/{name}"
            if args.store == "qdrant":
                return f"qdrant+local://{work}/{name}"
            base = server.get_uri()
            return f"{base}{'&' if '?' in base else '?'}table={name}"

        folder = Folder(work / "docs", rnd, args.docs)

        def index(name: str, *extra: str, kill_after: float | None = None) -> tuple[str, str]:
            cmd = [sys.executable, "-m", "chunkwise.cli", "index", str(folder.path), "--db",
                   uri(name), "--embedder", embedder, "--size", "96", "--no-progress", *extra]
            proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    text=True, cwd=work)
            try:
                out, err = proc.communicate(timeout=kill_after)
            except subprocess.TimeoutExpired:
                proc.send_signal(signal.SIGKILL)
                out, err = proc.communicate()
                return "killed", err
            return str(proc.returncode), out + err

        problems: list[str] = []
        killed = 0
        for r in range(args.rounds):
            ops = ",".join(folder.change() for _ in range(rnd.choice([1, 1, 5, 30])))
            extra = ("--prune",) if rnd.random() < 0.6 else ()
            after = None if rnd.random() < 0.15 else round(rnd.uniform(0.15, 2.0), 2)
            outcome, said = index("idx", *extra, kill_after=after)
            killed += outcome == "killed"
            print(f"round {r:3d} {ops[:40]:40s} {' '.join(extra):8s} kill after {after} s: "
                  f"{outcome}", flush=True)
            if outcome not in ("killed", "0") or "Traceback" in said:
                problems.append(f"round {r}: {outcome} {said[-300:]}")
        outcome, said = index("idx", "--prune")
        print("last run:", said.strip().splitlines()[-1] if said.strip() else outcome)
        check = subprocess.run([sys.executable, "-m", "chunkwise.cli", "index", "--db", uri("idx"),
                                "--check"], capture_output=True, text=True, cwd=work)
        print("check:", check.stdout.strip() or check.stderr.strip())
        if check.returncode != 0 or "clean" not in check.stdout:
            problems.append("check: " + check.stdout + check.stderr)
        index("fresh")
        kept, fresh = rows(uri("idx")), rows(uri("fresh"))
        same = kept == fresh
        print(f"{args.store}: {args.rounds} rounds, {killed} killed mid-run; rows {len(kept):,} "
              f"against {len(fresh):,} built fresh: {'EQUAL' if same else 'DIFFERENT'}")
        if not same:
            problems.append(f"{len(set(kept) - set(fresh))} rows only in the killed index, "
                            f"{len(set(fresh) - set(kept))} only in the fresh one, "
                            f"{sum(kept[k] != fresh[k] for k in set(kept) & set(fresh))} differ")
        for p in problems:
            print("PROBLEM", p)
        return 1 if problems else 0
    finally:
        if server is not None:
            server.cleanup()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    raise SystemExit(main())
