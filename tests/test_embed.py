"""Embedders: the bundled model, the ONNX export, model2vec, an OpenAI-compatible
endpoint served locally, and the on-disk cache."""

import json
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import numpy as np
import pytest

from chunkwise.embed import LIGHT_TEXTS, CachedEmbedder, OpenAIEmbedder, get_embedder
from chunkwise.errors import EmbedderError

pytestmark = pytest.mark.slow  # loads the MiniLM model

TEXTS = ["The refund reaches your card in five days.",
         "Refunds are paid back within five working days.",
         "The kettle has a two-year warranty."]


@pytest.fixture(scope="module")
def minilm():
    return get_embedder()


def test_bundled_minilm_is_normalised_and_meaningful(minilm):
    v = minilm.embed(TEXTS)
    assert v.shape == (3, 384) and v.dtype == np.float32
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    assert v[0] @ v[1] > v[0] @ v[2] + 0.2  # paraphrases closer than another topic
    assert minilm.embed([]).shape == (0, 384)


def test_onnx_export_agrees_with_torch(minilm):
    onnx = get_embedder("minilm-onnx")
    a, b = minilm.embed(TEXTS), onnx.embed(TEXTS)
    assert np.min(np.sum(a * b, axis=1)) > 0.99


def test_an_embedders_token_counter_is_never_the_chunkers():
    """`index` embeds on a worker thread while the caller chunks; the ONNX embedder
    counted its batches' tokens with the chunker's own MiniLM counter, whose word cache
    the chunker grows meanwhile (not safe from two threads: the IndexError a Ctrl-C
    race showed). Each embedder has its own counter, counting alike."""
    from chunkwise.tokens import get_tokenizer

    shared = get_tokenizer("minilm")
    for spec in ("minilm", "minilm-onnx"):
        counter = get_embedder(spec).token_counter()
        assert counter is not None and counter is not shared
        assert counter.name == shared.name
        assert [counter.count(t) for t in TEXTS] == [shared.count(t) for t in TEXTS]


def test_cache_reuses_vectors_on_disk(minilm, tmp_path):
    path = tmp_path / "cache.sqlite"
    cached = CachedEmbedder(minilm, path)
    first = cached.embed(TEXTS + TEXTS[:1])
    assert cached.misses == 3 and cached.hits == 1
    again = CachedEmbedder(minilm, path)  # a new process would see the same file
    second = again.embed(TEXTS)
    assert again.hits == 3 and again.misses == 0
    assert np.allclose(first[:3], second)


class _Handler(BaseHTTPRequestHandler):
    requests = []  # type: ignore[var-annotated]

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        _Handler.requests.append((self.path, self.headers.get("Authorization"), body))
        if self.headers.get("Authorization") != "Bearer secret":
            self.send_response(401)
            self.end_headers()
            self.wfile.write(b'{"error": {"message": "bad key"}}')
            return
        data = []
        for i, text in enumerate(body["input"]):
            vec = [float(len(text)), float(text.count("e")), 1.0]
            data.append({"object": "embedding", "index": i, "embedding": vec})
        data.reverse()  # the protocol orders by "index", not by position
        out = json.dumps({"object": "list", "data": data, "model": body["model"],
                          "usage": {"prompt_tokens": 1, "total_tokens": 1}}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)

    def log_message(self, *args):
        pass


@pytest.fixture()
def server():
    httpd = HTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    httpd.shutdown()


def test_openai_compatible_endpoint(server):
    emb = OpenAIEmbedder("text-embedding-3-small", base_url=server, api_key="secret", batch_size=2)
    v = emb.embed(TEXTS)
    assert v.shape == (3, 3)
    expected = np.array([[len(t), t.count("e"), 1.0] for t in TEXTS], dtype=np.float32)
    expected /= np.linalg.norm(expected, axis=1, keepdims=True)
    assert np.allclose(v, expected, atol=1e-6)
    path, auth, body = _Handler.requests[-1]
    assert path == "/v1/embeddings" and body["model"] == "text-embedding-3-small"
    assert len(_Handler.requests) >= 2  # batched
    spec = get_embedder(f"openai:text-embedding-3-small@{server}")
    assert spec.base_url == server  # type: ignore[attr-defined]
    bad = OpenAIEmbedder("m", base_url=server, api_key="wrong")
    with pytest.raises(EmbedderError, match="HTTP 401"):
        bad.embed(["x"])
    down = OpenAIEmbedder("m", base_url="http://127.0.0.1:9/v1", api_key="k", timeout=2)
    with pytest.raises(EmbedderError, match="cannot reach"):
        down.embed(["x"])


def test_model2vec_distilled_locally(tmp_path_factory):
    from chunkwise.embed import distill

    out = distill(tmp_path_factory.mktemp("m2v") / "minilm-static", pca_dims=64)
    emb = get_embedder(str(out))
    v = emb.embed(TEXTS)
    assert v.shape == (3, 64)
    assert v[0] @ v[1] > v[0] @ v[2]
    assert get_embedder(f"model2vec:{out}").embed(TEXTS).shape == (3, 64)


def test_unknown_embedder_is_a_clear_error():
    with pytest.raises(EmbedderError, match="cannot load"):
        get_embedder("no-such/model-anywhere").embed(["x"])


def _chroma_texts(chroma_dir, n: int = 120) -> list[str]:
    """Real passages and questions of every length (past the model's 256 tokens too)."""
    import csv

    with open(chroma_dir / "questions_df.csv", newline="", encoding="utf-8") as f:
        questions = [row["question"] for row in csv.DictReader(f)][:n // 2]
    corpus = (chroma_dir / "wikitexts.md").read_text(encoding="utf-8")
    words = corpus.split()
    passages = [" ".join(words[i:i + 3 * (i % 97 + 1)]) for i in range(0, 4000, 4000 // (n // 2))]
    return questions + passages + ["", "x", "Ünïcödé — “quotes” and 日本語 and emoji 🙂", "a " * 600]


def test_the_numpy_forward_pass_computes_what_sentence_transformers_does(minilm, chroma_dir):
    from chunkwise.minilm import NumpyBert, supports
    from chunkwise.tokens import minilm_dir

    assert supports(minilm_dir())
    texts = _chroma_texts(chroma_dir)
    light = NumpyBert(minilm_dir()).embed(texts)
    torch_made = minilm.model.encode(texts, normalize_embeddings=True, convert_to_numpy=True)
    assert light.shape == torch_made.shape == (len(texts), 384)
    assert float(np.abs(light - torch_made).max()) < 1e-5
    # a query embedded by the chunkwise embedder takes the light path, batches do not
    assert np.abs(minilm.embed(texts[:1]) - torch_made[:1]).max() < 1e-5


def test_safetensors_weights_are_mapped_not_copied_and_read_as_the_library_does(tmp_path):
    """The NumPy forward pass maps the model file instead of copying it: the same
    tensors (types, shapes, values) as ``safetensors.numpy.load_file``, the bundled
    model's and a file of every common type, read-only views of the file."""
    from safetensors.numpy import load_file, save_file

    from chunkwise.minilm import _weights
    from chunkwise.tokens import minilm_dir

    made: dict[str, np.ndarray] = {"f32": np.arange(12, dtype=np.float32).reshape(3, 4) / 7,
            "f16": np.linspace(-2, 2, 5).astype(np.float16), "f64": np.array([np.pi]),
            "i64": np.arange(3, dtype=np.int64) - 1, "i32": np.array([[7], [-9]], dtype=np.int32),
            "u8": np.array([0, 255], dtype=np.uint8), "flags": np.array([True, False]),
            "odd": np.arange(3, dtype=np.int8)}  # 3 bytes: the tensors after it unaligned?
    save_file(made, str(tmp_path / "made.safetensors"), metadata={"by": "test"})
    for file in (minilm_dir() / "model.safetensors", tmp_path / "made.safetensors"):
        expected, mapped = load_file(str(file)), _weights(file)
        assert expected.keys() == mapped.keys()
        for name, array in expected.items():
            assert mapped[name].dtype == array.dtype and mapped[name].shape == array.shape
            assert np.array_equal(mapped[name], array), (file, name)
    assert isinstance(_weights(minilm_dir() / "model.safetensors")
                      ["embeddings.word_embeddings.weight"].base, np.memmap)


def test_a_dense_search_imports_no_torch(tmp_path):
    import subprocess
    import sys

    from chunkwise import Index

    docs = tmp_path / "docs"
    docs.mkdir()
    for i, text in enumerate(TEXTS):
        (docs / f"{i}.md").write_text(text)
    with Index(str(tmp_path / "idx")) as index:
        index.sync(docs)
    code = ("import sys; from chunkwise import Index; "
            f"hits = Index({str(tmp_path / 'idx')!r}, create=False).search('card refund', k=1, "
            "retriever='dense'); print(hits[0].row['doc_id'], "
            "sorted(m for m in ('torch', 'transformers', 'sentence_transformers', 'bm25s') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["0.md", "[]"]


def _cuda() -> bool:
    import torch

    return bool(torch.cuda.is_available())


def test_device_sets_where_the_model_runs_and_its_batch(monkeypatch):
    from chunkwise.embed import DEVICE_ENV, SentenceTransformerEmbedder
    from chunkwise.errors import ConfigError

    monkeypatch.delenv(DEVICE_ENV, raising=False)
    cpu = get_embedder()
    assert isinstance(cpu, SentenceTransformerEmbedder)
    assert (cpu.device, cpu.batch_size) == ("cpu", 32)
    monkeypatch.setenv(DEVICE_ENV, "cuda")
    gpu = get_embedder()
    assert (gpu.device, gpu.batch_size) == ("cuda", 256)  # type: ignore[attr-defined]
    assert get_embedder(device="cpu").device == "cpu"  # type: ignore[attr-defined]
    with pytest.raises(ConfigError, match="minilm-onnx|onnx"):
        get_embedder("minilm-onnx")  # the ONNX export runs on the CPU only here
    if not _cuda():  # loading there is the one-line error, not a torch traceback
        with pytest.raises(ConfigError, match="no CUDA device"):
            gpu.embed(TEXTS * 4)


def test_the_command_line_device_flag(tmp_path, capsys):
    import os

    from chunkwise.cli import main
    from chunkwise.embed import DEVICE_ENV

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# Refunds\n\nRefunds take five days.\n", encoding="utf-8")
    before = os.environ.get(DEVICE_ENV)
    for device in ("bogus", "cuda:7"):
        assert main(["index", str(docs), "--db", str(tmp_path / device), "--device", device,
                     "--no-progress"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"--device {device}" in err.replace("'", "")
        assert not (tmp_path / device).exists()  # nothing made
    assert main(["index", str(docs), "--db", str(tmp_path / "idx"), "--device", "cpu",
                 "--no-progress"]) == 0
    assert main(["search", "refund", "--db", str(tmp_path / "idx"), "--device", "cpu",
                 "-k", "1", "--json"]) == 0
    assert "a.md" in capsys.readouterr().out
    assert os.environ.get(DEVICE_ENV) == before  # the flag lasts one command


@pytest.mark.skipif(not _cuda(), reason="needs a CUDA device (runs unchanged on one)")
def test_on_a_cuda_device_the_vectors_are_the_cpus(minilm):
    gpu = get_embedder(device="cuda")
    a, b = minilm.embed(TEXTS * 20), gpu.embed(TEXTS * 20)
    assert (np.sum(a * b, axis=1) > 0.999).all()


@pytest.mark.parametrize("spec", ["minilm", "minilm-onnx"])
def test_batches_follow_token_counts_and_the_vectors_come_back_in_order(spec):
    """A batch pads to its longest text: texts are batched from the most tokens to
    the fewest (code packs about three times the tokens of prose into one length in
    characters), and each vector comes back at its text's place, as the text embedded
    alone gives it."""
    embedder = get_embedder(spec)
    embedder.batch_size = 2
    prose = "The refund reaches your card within five working days of the return."
    code = "x[i]=f(a,b);y[j]=g(c,d);" * 3  # as many characters, far more tokens
    # more texts than the NumPy pass takes (LIGHT_TEXTS): the model's own batches
    texts = [prose, code, TEXTS[2], prose[:40], code[:40], TEXTS[0], code[:20], prose[:20],
             TEXTS[1], code[:60], prose[:60]]
    assert len(texts) > LIGHT_TEXTS
    counter = embedder.token_counter()
    assert counter is not None
    counts = [counter.count(t) for t in texts]
    assert counts[1] > 2 * counts[0] and abs(len(code) - len(prose)) < 10
    order = np.concatenate(embedder.batches(texts, 2)).tolist()
    assert sorted(order) == list(range(len(texts)))
    assert [counts[i] for i in order] == sorted(counts, reverse=True)
    together = embedder.embed(texts)
    alone = np.vstack([embedder.embed([t]) for t in texts])
    assert np.allclose(together, alone, atol=1e-5)
