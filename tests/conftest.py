import atexit
import os
import shutil
import signal
import sys
import tempfile
from pathlib import Path

import pytest

# Tests never read or write the user's caches (~/.cache/chunkwise: embeddings, LLM
# answers, the assembled local model): a warm cache there once hid from every run
# here what a fresh machine pays. Each test process (and what it starts) gets its own.
_CACHE = tempfile.mkdtemp(prefix="chunkwise-test-cache-")
os.environ["XDG_CACHE_HOME"] = _CACHE
atexit.register(shutil.rmtree, _CACHE, ignore_errors=True)

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("CHUNKWISE_SHARED", ROOT.parent / "shared"))
CHROMA = SHARED / "eval" / "chroma"

sys.path.insert(0, str(Path(__file__).parent))

# A suite started in the background by a shell (`make test &`, `nohup ... &`) inherits
# SIGINT ignored, and so would every program the tests start: the tests of Ctrl-C need
# it delivered, as a terminal delivers it.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(scope="session")
def chroma_dir():
    if not (CHROMA / "questions_df.csv").is_file():
        pytest.skip(f"Chroma evaluation data not found at {CHROMA}")
    return CHROMA


@pytest.fixture(scope="session")
def static_embedder(tmp_path_factory):
    """A model2vec static model distilled locally from the bundled MiniLM, once per
    session: an embedder spec for tests that embed many chunks."""
    from chunkwise.embed import distill

    out = distill(tmp_path_factory.mktemp("m2v-shared") / "minilm-static", pca_dims=64)
    return f"model2vec:{out}"


@pytest.fixture(scope="session")
def postgres(tmp_path_factory):
    """A PostgreSQL server with pgvector in a temporary folder, for the session."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs: XDG_RUNTIME_DIR not set
        import pgserver

        server = pgserver.get_server(tmp_path_factory.mktemp("pg"), cleanup_mode="stop")  # type: ignore[attr-defined]
    server.psql("CREATE EXTENSION IF NOT EXISTS vector;")
    yield server.get_uri()
    server.cleanup()


DOCS_TAR = Path(__file__).parent / "data" / "docs" / "fastapi-pydantic-docs.tar.xz"


@pytest.fixture(scope="session")
def docs_index(tmp_path_factory, static_embedder):
    """The bundled FastAPI + Pydantic docs (``docs/fastapi``, ``docs/pydantic``) and an
    index of them at ``idx`` (root ``docs``, metadata ``project`` = fastapi or
    pydantic), built once per session with the static embedder."""
    import tarfile

    from chunkwise import Index

    tmp = tmp_path_factory.mktemp("docs-index")
    with tarfile.open(DOCS_TAR) as tar:
        tar.extractall(tmp / "docs", filter="data")
    with Index(str(tmp / "idx")) as index:
        index.sync(tmp / "docs" / "fastapi", embedder=static_embedder,
                   metadata={"project": "fastapi"}, root=tmp / "docs")
        index.sync(tmp / "docs" / "pydantic", embedder=static_embedder,
                   metadata={"project": "pydantic"})
    return tmp

