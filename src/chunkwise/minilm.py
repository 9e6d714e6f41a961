"""A BERT sentence encoder's forward pass in NumPy, for a handful of texts: a search
embeds one query, and importing torch, transformers and sentence-transformers to do
it costs about 8 s on this machine, against well under a second for this.

It reads the same files sentence-transformers does (``model.safetensors``,
``config.json``, ``tokenizer.json``, ``sentence_bert_config.json``, the pooling
configuration) and computes the same function: token + position + type embeddings,
post-norm encoder layers with exact (erf) GELU, mean pooling, L2 normalisation. A
test checks its vectors against sentence-transformers' own to 1e-5 on many texts.
Only models of exactly that shape are taken (:func:`supports`); anything else is
left to sentence-transformers.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np


def supports(folder: str | Path) -> bool:
    """Whether the model in ``folder`` is a BERT with mean pooling and normalisation,
    which this module computes exactly."""
    folder = Path(folder)
    try:
        config = json.loads((folder / "config.json").read_text())
        modules = json.loads((folder / "modules.json").read_text())
        pooling = json.loads((folder / "1_Pooling" / "config.json").read_text())
    except (OSError, ValueError):
        return False
    kinds = [m.get("type", "").rsplit(".", 1)[-1] for m in modules]
    pooled = {k: v for k, v in pooling.items() if k.startswith("pooling_mode") and v}
    return (config.get("model_type") == "bert" and config.get("hidden_act") == "gelu"
            and config.get("position_embedding_type", "absolute") == "absolute"
            and kinds == ["Transformer", "Pooling", "Normalize"]
            and list(pooled) == ["pooling_mode_mean_tokens"]
            and (folder / "model.safetensors").is_file() and (folder / "tokenizer.json").is_file())


def hidden_size(folder: str | Path) -> int | None:
    """The vectors' width of a model this module computes (:func:`supports`), read
    from its configuration without loading the weights; None for any other model."""
    if not supports(folder):
        return None
    config = json.loads((Path(folder) / "config.json").read_text())
    return int(config["hidden_size"])


class NumpyBert:
    """Embeds texts one at a time (no padding), as sentence-transformers would."""

    def __init__(self, folder: str | Path):
        from tokenizers import Tokenizer

        folder = Path(folder)
        config = json.loads((folder / "config.json").read_text())
        st_config = json.loads((folder / "sentence_bert_config.json").read_text())
        self.heads = int(config["num_attention_heads"])
        self.dim = int(config["hidden_size"])
        self.layers = int(config["num_hidden_layers"])
        self.eps = float(config["layer_norm_eps"])
        self.w: dict[str, Any] = _weights(folder / "model.safetensors")
        self.prefix = "bert." if "bert.embeddings.word_embeddings.weight" in self.w else ""
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.no_padding()
        limit = min(int(st_config.get("max_seq_length", 512)),
                    int(config["max_position_embeddings"]))
        self.tokenizer.enable_truncation(limit)

    def _p(self, name: str) -> Any:
        return self.w[self.prefix + name]

    def _norm(self, x: np.ndarray, name: str) -> np.ndarray:
        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        return np.asarray((x - mean) / np.sqrt(var + self.eps) * self._p(name + ".weight")
                          + self._p(name + ".bias"), dtype=np.float32)

    def _dense(self, x: np.ndarray, name: str) -> np.ndarray:
        # (out, in) as stored: BLAS reads the transpose in place (a transposed copy of
        # every matrix cost a new process ~0.09 s before its first vector, and no
        # time after it)
        return np.asarray(x @ self._p(name + ".weight").T + self._p(name + ".bias"))

    def embed_one(self, text: str) -> np.ndarray:
        enc = self.tokenizer.encode(text)
        ids = np.asarray(enc.ids, dtype=np.int64)
        types = np.asarray(enc.type_ids, dtype=np.int64)
        x = (self._p("embeddings.word_embeddings.weight")[ids]
             + self._p("embeddings.position_embeddings.weight")[: len(ids)]
             + self._p("embeddings.token_type_embeddings.weight")[types])
        x = self._norm(x, "embeddings.LayerNorm")
        n, width = x.shape
        size = width // self.heads
        for i in range(self.layers):
            at = f"encoder.layer.{i}."
            q, k, v = (self._dense(x, at + f"attention.self.{m}").reshape(n, self.heads, size)
                       .transpose(1, 0, 2) for m in ("query", "key", "value"))
            scores = q @ k.transpose(0, 2, 1) / math.sqrt(size)
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            context = (scores / scores.sum(-1, keepdims=True)) @ v
            attended = self._dense(context.transpose(1, 0, 2).reshape(n, width),
                                   at + "attention.output.dense")
            x = self._norm(attended + x, at + "attention.output.LayerNorm")
            hidden = _gelu(self._dense(x, at + "intermediate.dense"))
            x = self._norm(self._dense(hidden, at + "output.dense") + x, at + "output.LayerNorm")
        pooled = x.mean(0)
        return np.asarray(pooled / max(float(np.linalg.norm(pooled)), 1e-12), dtype=np.float32)

    def embed(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([self.embed_one(t) for t in texts])


#: safetensors' element types as NumPy's (little-endian, as the format stores them)
_DTYPES = {"F64": "<f8", "F32": "<f4", "F16": "<f2", "I64": "<i8", "I32": "<i4",
           "I16": "<i2", "I8": "i1", "U8": "u1", "BOOL": "?"}


def _weights(file: Path) -> dict[str, Any]:
    """The tensors of a safetensors file as read-only views of the file mapped into
    memory: a new process's first query reads only the pages it uses (the rows of its
    own tokens in the 47 MB word-embedding table) where ``safetensors.numpy.load_file``
    copied all 91 MB first (~0.06 s). The format: an 8-byte little-endian header
    length, a JSON header giving each tensor's type, shape and byte range, the bytes.
    Anything else it holds (bfloat16 ...) is read by the safetensors library."""
    try:
        with open(file, "rb") as f:
            size = int.from_bytes(f.read(8), "little")
            header = json.loads(f.read(size))
        data = np.memmap(file, dtype=np.uint8, mode="r")
        start = 8 + size
        out: dict[str, Any] = {}
        for name, info in header.items():
            if name == "__metadata__":
                continue
            begin, end = info["data_offsets"]
            dtype = np.dtype(_DTYPES[info["dtype"]])
            if (start + begin) % dtype.itemsize:
                raise ValueError("unaligned")
            out[name] = data[start + begin:start + end].view(dtype).reshape(info["shape"])
        return out
    except (KeyError, ValueError, TypeError, OSError):
        from safetensors.numpy import load_file

        return dict(load_file(str(file)))


#: Numerical Recipes' Chebyshev fit of erfc (fractional error under 1.2e-7 everywhere),
#: highest coefficient first
_ERFC = (0.17087277, -0.82215223, 1.48851587, -1.13520398, 0.27886807, -0.18628806,
         0.09678418, 0.37409196, 1.00002368, -1.26551223)


def _gelu(x: np.ndarray) -> np.ndarray:
    """x * Phi(x) with erf, as BERT's "gelu" (not the tanh approximation): Phi from
    the erfc fit above, in float32 and in place (within 5e-7 of the same fit in
    float64, which took four times as long: the GELUs were two thirds of a text's
    forward pass, its matrix products a tenth)."""
    x = np.asarray(x, dtype=np.float32)
    z = np.abs(x)
    z *= np.float32(1 / math.sqrt(2.0))
    t = z * np.float32(0.5)
    t += np.float32(1.0)
    np.reciprocal(t, out=t)
    poly = np.full_like(t, _ERFC[0])
    for c in _ERFC[1:]:
        poly *= t
        poly += np.float32(c)
    z *= z
    poly -= z
    np.exp(poly, out=poly)
    poly *= t  # erfc(|x| / sqrt 2)
    poly *= np.float32(0.5)  # Phi(-|x|)
    phi: np.ndarray = np.where(x >= 0, np.float32(1.0) - poly, poly)
    phi *= x
    return phi


__all__ = ["NumpyBert", "hidden_size", "supports"]
