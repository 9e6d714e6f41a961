"""What a command costs before and after its work: LanceDB's import without the REST
client it never calls, the program's end without tearing the interpreter down, an
index run that wrote nothing leaving the index as it was, a model's width known
without loading its weights."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from chunkwise import Index

SAMPLES = Path(__file__).resolve().parent.parent / "samples"


def _python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300)


def test_lancedb_opens_without_importing_the_rest_client_which_still_works(tmp_path):
    res = _python(f"""
import json, sys
from chunkwise.index.lance import open_lance
store = open_lance({str(tmp_path / "idx")!r})
store.set_config({{"a": 1}})
before = "lance_namespace_urllib3_client.api" in sys.modules
config = store.get_config()
import lance_namespace_urllib3_client as client
from lance_namespace_urllib3_client import ApiClient, TableApi
print(json.dumps({{"before": before, "config": config, "version": client.__version__,
                  "api": "lance_namespace_urllib3_client.api" in sys.modules,
                  "names": [ApiClient.__name__, TableApi.__name__],
                  "missing": hasattr(client, "NoSuchName")}}))
""")
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["before"] is False  # the client's API classes were not imported to open it
    assert out["config"] == {"a": 1}
    # the first name read from the package runs its __init__, whole
    assert out["api"] is True and out["names"] == ["ApiClient", "TableApi"]
    assert out["version"] and out["missing"] is False


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
    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(3):
        (docs / f"p{i}.md").write_text(f"# Page {i}\n\nSome text about topic {i}.\n")
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


def test_lancedb_is_imported_without_pandas_and_pyarrow_sees_pandas_once_imported(tmp_path):
    res = _python(f"""
import json, math, sys
from chunkwise.index.lancedb_import import import_lancedb
import overrides, pydantic
checked = overrides.override
lancedb = import_lancedb()
db = lancedb.connect({str(tmp_path / "db")!r})
table = db.create_table("t", data=[{{"x": 1.0, "s": "a"}}, {{"x": 2.0, "s": "b"}}])
rows = table.search().where("x > 1.5").to_list()
before = "pandas" in sys.modules
import pandas as pd
import pyarrow as pa
nulls = pa.array(pd.Series([1.0, math.nan])).null_count  # pandas' NaN is a null
frame = table.to_pandas()
back = pa.Table.from_pandas(pd.DataFrame({{"x": [1.5, math.nan]}})).column("x").null_count
from lance_namespace_urllib3_client.models import ListTablesResponse
listed = ListTablesResponse(tables=["a"]).tables  # a model built on first use
class Base(pydantic.BaseModel):
    n: int
from lancedb.pydantic import LanceModel
class Row(LanceModel):  # a user's model: built when made, as without chunkwise
    text: str
print(json.dumps({{"rows": [r["s"] for r in rows], "pandas_before": before,
                  "frame": frame["s"].tolist(), "nulls": nulls, "back": back,
                  "listed": listed, "override": overrides.override is checked,
                  "defer": pydantic.BaseModel.model_config.get("defer_build"),
                  "complete": [Base.__pydantic_complete__, Row.__pydantic_complete__]}}))
""")
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["pandas_before"] is False  # importing lancedb did not import pandas
    assert out["rows"] == ["b"] and out["frame"] == ["a", "b"]
    assert out["nulls"] == 1 and out["back"] == 1  # pyarrow treats pandas objects as such
    assert out["listed"] == ["a"]
    # what the import changed is restored: the checking decorator, pydantic's config
    assert out["override"] is True and out["defer"] is None and out["complete"] == [True, True]


def test_pandas_imported_first_is_used_as_is():
    res = _python("""
import json, math, sys
import pandas as pd
from chunkwise.index.lancedb_import import import_lancedb
import_lancedb()
import pyarrow as pa
print(json.dumps({"nulls": pa.array(pd.Series([1.0, math.nan])).null_count}))
""")
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout) == {"nulls": 1}


def test_index_and_search_of_a_lancedb_index_start_its_import_at_once(tmp_path):
    res = _python(f"""
import json, sys, threading
from chunkwise.cli.main import _open_early
seen = {{}}
for argv in (["chunk", "x.md"], ["search", "q", "--db", "qdrant+local://x"],
             ["index", "docs", "--db", {str(tmp_path / "idx")!r}]):
    _open_early(argv)
    seen[argv[0]] = [t.name for t in threading.enumerate() if t.name.startswith("chunkwise-")]
from chunkwise.index.lancedb_import import import_lancedb
threads = [threading.Thread(target=import_lancedb) for _ in range(3)]
for t in threads: t.start()
for t in threads: t.join()
print(json.dumps({{"seen": seen, "lancedb": hasattr(import_lancedb(), "connect")}}))
""")
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["seen"]["chunk"] == [] and out["seen"]["search"] == []
    assert out["seen"]["index"] == ["chunkwise-import-lancedb"]
    assert out["lancedb"] is True
