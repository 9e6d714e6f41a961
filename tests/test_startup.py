"""What a command costs before and after its work: a LanceDB index read and written
through Lance alone (no LanceDB client, pandas or pydantic imported), in the format
LanceDB reads and writes, the program's end without tearing the interpreter down, an
index run that wrote nothing leaving the index as it was, a model's width known
without loading its weights."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from chunkwise import Index

SAMPLES = Path(__file__).resolve().parent.parent / "samples"


def _pages(folder: Path, n: int) -> Path:
    folder.mkdir()
    for i in range(n):
        (folder / f"p{i}.md").write_text(f"# Page {i}\n\nSome text about topic {i}.\n")
    return folder


def _python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300)


def test_a_lancedb_index_is_used_without_importing_lancedb_pandas_or_pydantic(tmp_path):
    res = _python(f"""
import json, sys
import numpy as np
from chunkwise.index.lance import open_lance
store = open_lance({str(tmp_path / "idx")!r})
store.set_config({{"a": 1}})
store.upsert([{{"id": "x", "doc_id": "d.md", "text": "t", "row_hash": "h"}}],
             np.ones((1, 4), dtype=np.float32))
hits = store.search(np.ones(4, dtype=np.float32), 2)
loaded = sorted(m for m in ("lancedb", "pandas", "pydantic", "lance_namespace_urllib3_client")
                if m in sys.modules)
print(json.dumps({{"config": store.get_config(), "hits": [h.row["id"] for h in hits],
                  "loaded": loaded}}))
""")
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["config"] == {"a": 1} and out["hits"] == ["x"]
    assert out["loaded"] == []


def test_an_index_chunkwise_writes_is_a_lancedb_database_and_the_other_way(tmp_path,
                                                                          static_embedder):
    """The index is LanceDB's format: ``lancedb.connect`` opens what chunkwise wrote
    (same rows, same nearest neighbours), and an index whose tables LanceDB's own
    package wrote (as chunkwise up to 0.2.0 did) is searched, checked and synced here,
    its rows reused."""
    import lancedb

    from chunkwise.index.check import check_index

    docs = _pages(tmp_path / "docs", 4)
    ours = str(tmp_path / "ours")
    with Index(ours) as index:
        first = index.sync(docs, embedder=static_embedder)
        rows, vectors = index.store.rows()
        config = index.store.get_config()
        hit = index.search("topic 2", k=1, retriever="dense")[0].row["id"]
        data = index.store._data(rows, vectors, vectors.shape[1])  # type: ignore[attr-defined]
    table = lancedb.connect(ours).open_table("chunks")
    assert table.count_rows() == len(rows) == first.written
    query = vectors[[r["id"] for r in rows].index(hit)]
    nearest = table.search(query.tolist()).distance_type("cosine").limit(1).to_list()  # type: ignore[attr-defined]
    assert nearest[0]["id"] == hit
    theirs = tmp_path / "theirs"
    db = lancedb.connect(str(theirs))
    db.create_table("chunks", data=data)
    db.create_table("chunkwise_config",
                    data=[{"value": json.dumps(config, sort_keys=True)}])
    with Index(str(theirs)) as index:
        assert index.search("topic 2", k=1, retriever="dense")[0].row["id"] == hit
        assert check_index(index.store).clean
        again = index.sync(docs, embedder=static_embedder)
        assert again.embedded == 0 and again.written == 0
        (docs / "p1.md").write_text("# Page 1\n\nOther text entirely.\n")
        edited = index.sync(docs, embedder=static_embedder)
        assert edited.changed == 1 and edited.embedded >= 1
    assert db.open_table("chunks").count_rows() == len(rows)


def test_the_program_flushes_its_output_runs_exit_handlers_and_keeps_its_status(tmp_path):
    out = tmp_path / "chunks.jsonl"
    code = f"""
import atexit, sys
atexit.register(lambda: print("exit handler ran", file=sys.stderr))
sys.argv = ["chunkwise", "chunk", {str(SAMPLES)!r}]
from chunkwise.cli import run
run()
"""
    with open(out, "w") as f:  # a file, not a terminal: Python buffers stdout
        res = subprocess.run([sys.executable, "-c", code], stdout=f, stderr=subprocess.PIPE,
                             text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    assert "exit handler ran" in res.stderr
    lines = out.read_text().splitlines()
    assert len(lines) > 10 and all(json.loads(line)["id"] for line in lines)
    # the same chunks as the library gives (nothing lost at the end of the output)
    whole = subprocess.run([sys.executable, "-m", "chunkwise.cli", "chunk", str(SAMPLES),
                            "--summary"], capture_output=True, text=True, timeout=300)
    assert f"chunks {len(lines)} " in whole.stdout.replace(",", "")
    bad = subprocess.run([sys.executable, "-m", "chunkwise.cli", "chunk",
                          str(tmp_path / "missing.md")], capture_output=True, text=True,
                         timeout=300)
    assert bad.returncode == 2 and "missing.md" in bad.stderr


def test_a_sync_that_changes_nothing_leaves_the_index_version_alone(tmp_path, static_embedder):
    docs = _pages(tmp_path / "docs", 3)
    uri = str(tmp_path / "idx")
    with Index(uri) as index:
        index.sync(docs, embedder=static_embedder)
        first = index.store.version()
        again = index.sync(docs, embedder=static_embedder)
        assert again.unchanged == 3 and index.store.version() == first
        reread = index.sync(docs, embedder=static_embedder, reread=True)
        assert reread.changed == 0 and index.store.version() == first
        (docs / "p1.md").write_text("# Page 1\n\nOther text.\n")
        edited = index.sync(docs, embedder=static_embedder)
        assert edited.changed == 1 and index.store.version() > first


def test_a_bert_models_width_is_read_without_loading_its_weights():
    from chunkwise.embed import get_embedder

    model = get_embedder("minilm")
    assert model.dim == 384
    assert getattr(model, "_numpy", None) is None  # neither the NumPy pass nor torch loaded
    assert model.embed(["a query"]).shape == (1, 384)


def test_lance_is_imported_without_pandas_and_pyarrow_sees_pandas_once_imported(tmp_path):
    res = _python(f"""
import json, math, sys
from chunkwise.index.lance_import import import_lance
lance = import_lance()
import pyarrow as pa
ds = lance.write_dataset(pa.table({{"x": [1.0, 2.0], "s": ["a", "b"]}}), {str(tmp_path / "t")!r})
rows = ds.to_table(filter="x > 1.5").column("s").to_pylist()
before = "pandas" in sys.modules
import pandas as pd
nulls = pa.array(pd.Series([1.0, math.nan])).null_count  # pandas' NaN is a null
frame = ds.to_table().to_pandas()
back = pa.Table.from_pandas(pd.DataFrame({{"x": [1.5, math.nan]}})).column("x").null_count
print(json.dumps({{"rows": rows, "pandas_before": before, "frame": frame["s"].tolist(),
                  "nulls": nulls, "back": back}}))
""")
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["pandas_before"] is False  # importing lance did not import pandas
    assert out["rows"] == ["b"] and out["frame"] == ["a", "b"]
    assert out["nulls"] == 1 and out["back"] == 1  # pyarrow treats pandas objects as such


def test_pandas_imported_first_is_used_as_is():
    res = _python("""
import json, math, sys
import pandas as pd
from chunkwise.index.lance_import import import_lance
import_lance()
import pyarrow as pa
print(json.dumps({"nulls": pa.array(pd.Series([1.0, math.nan])).null_count}))
""")
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout) == {"nulls": 1}


def test_index_and_search_of_a_lancedb_index_start_its_import_at_once(tmp_path):
    res = _python(f"""
import json, sys, threading
from chunkwise.cli.process import open_early
seen = {{}}
for argv in (["chunk", "x.md"], ["search", "q", "--db", "qdrant+local://x"],
             ["index", "docs", "--db", {str(tmp_path / "idx")!r}]):
    open_early(argv)
    seen[argv[0]] = [t.name for t in threading.enumerate() if t.name.startswith("chunkwise-")]
from chunkwise.index.lance_import import import_lance
threads = [threading.Thread(target=import_lance) for _ in range(3)]
for t in threads: t.start()
for t in threads: t.join()
print(json.dumps({{"seen": seen, "lance": hasattr(import_lance(), "dataset")}}))
""")
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["seen"]["chunk"] == [] and out["seen"]["search"] == []
    assert out["seen"]["index"] == ["chunkwise-import-lance"]
    assert out["lance"] is True


_BM25_SCORES = """
import json, sys
{first}
from chunkwise.retrieval import Retriever
texts = ["The quick brown fox jumps over the lazy dog.", "A fox and a hound.",
         "Lazy afternoons by the river.", "Nothing here but stop words: the a an of."]
r = Retriever(texts, ["a", "b", "c", "d"], kind="bm25")
scores = r.bm25_scores(["lazy fox", "river hound", "the"]).tolist()
print(json.dumps({{"scores": scores, "loaded": sorted(
    m for m in ("scipy", "scipy.sparse", "tqdm", "tqdm.auto") if m in sys.modules)}}))
"""


def test_bm25_is_imported_without_scipy_sparse_or_tqdm_and_scores_as_before():
    """A cold search with BM25 (hybrid, the default) does not import SciPy's sparse
    matrices or tqdm's front ends, which bm25s imports but chunkwise's calls never use
    (~0.2 s), nor their packages (an import that fails after loading SciPy's or tqdm's
    package still cost ~70 ms); the scores are those of a plain ``import bm25s``."""
    lean = _python(_BM25_SCORES.format(first=""))
    plain = _python(_BM25_SCORES.format(first="import bm25s, scipy.sparse, tqdm.auto"))
    assert lean.returncode == 0, lean.stderr
    assert plain.returncode == 0, plain.stderr
    lean_out, plain_out = json.loads(lean.stdout), json.loads(plain.stdout)
    assert lean_out["loaded"] == []
    assert plain_out["loaded"] == ["scipy", "scipy.sparse", "tqdm", "tqdm.auto"]
    assert lean_out["scores"] == plain_out["scores"]
    assert max(lean_out["scores"][0]) > 0


def test_bm25s_keeps_what_it_left_out_for_its_other_callers():
    """After chunkwise's import, bm25s still has SciPy's backend and progress bars for
    anyone else in the process (imported at their first use), and the importing thread
    can import SciPy's sparse module itself."""
    res = _python("""
import io, json, sys
from chunkwise.retrieval import import_bm25s
bm25s = import_bm25s()
assert not {"scipy", "scipy.sparse", "tqdm", "tqdm.auto"} & set(sys.modules)
corpus = ["a cat sat on the mat", "dogs chase cats", "the sun is hot"]
tokens = bm25s.tokenize(corpus, stopwords="en", show_progress=False)
err = io.StringIO()
sys.stderr = err
both = []
for backend in ("scipy", "numpy"):
    model = bm25s.BM25(csc_backend=backend)
    model.index(tokens, show_progress=True)
    both.append(model.get_scores(["cat", "sun"]).tolist())
sys.stderr = sys.__stderr__
import scipy.sparse
print(json.dumps({"same": both[0] == both[1], "scores": both[0],
                  "loaded": sorted(m for m in ("scipy", "scipy.sparse", "tqdm", "tqdm.auto")
                                   if m in sys.modules),
                  "bar": "BM25S Count Tokens" in err.getvalue()}))
""")
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["same"] and max(out["scores"]) > 0
    assert out["loaded"] == ["scipy", "scipy.sparse", "tqdm", "tqdm.auto"]
    assert out["bar"]


#: what chunking loads and a search does not use (~0.1 s of a cold search)
CHUNKING_MACHINERY = ("chunkwise.engine", "chunkwise.levels", "chunkwise.strategies",
                      "chunkwise.readers", "chunkwise.factory", "chunkwise.contextual")


def test_a_search_loads_none_of_the_chunking_machinery(tmp_path, static_embedder):
    """``chunkwise search`` (and ``import chunkwise`` with ``Index.search``) find their
    hits without importing the packing engine, the strategies or the readers: the
    package's names are imported when first used; chunking still loads them."""
    docs = tmp_path / "docs"
    docs.mkdir()
    for name, text in (("harbour", "Ships unload their cargo at the harbour cranes."),
                       ("orchard", "Apple trees in the orchard bloom in spring."),
                       ("violin", "The violin needs new strings and rosin.")):
        (docs / f"{name}.md").write_text(f"# {name.title()}\n\n{text}\n")
    uri = str(tmp_path / "idx")
    with Index(uri) as index:
        index.sync(docs, embedder=static_embedder)
    machinery = repr(CHUNKING_MACHINERY)
    res = _python(f"""
import contextlib, io, json, sys
import chunkwise
from chunkwise.cli import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    status = main(["search", "violin strings", "--db", {uri!r}, "-k", "1", "--json"])
with chunkwise.Index({uri!r}) as index:
    hits = index.search("apple trees", k=1)
loaded = [m for m in {machinery} if m in sys.modules]
chunks = chunkwise.chunk("# A\\n\\nSome words.", doc_id="a.md", format="markdown")
print(json.dumps({{"status": status, "cli": json.loads(out.getvalue().splitlines()[0]),
                  "hit": hits[0].row["doc_id"], "loaded": loaded, "chunks": len(chunks),
                  "after": [m for m in {machinery} if m in sys.modules]}}))
""")
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["status"] == 0 and out["cli"]["doc_id"] == "violin.md" and out["hit"] == "orchard.md"
    assert out["loaded"] == []
    assert out["chunks"] == 1 and out["after"] == list(CHUNKING_MACHINERY)
