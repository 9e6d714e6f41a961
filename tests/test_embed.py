"""Embedders: the bundled model, the ONNX export, model2vec, an OpenAI-compatible
endpoint served locally, and the on-disk cache."""

import json
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import numpy as np
import pytest

from chunkwise.embed import CachedEmbedder, OpenAIEmbedder, get_embedder
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
