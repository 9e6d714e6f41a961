"""Questions from the user's own documents, in the evaluation's dataset format, so
``chunkwise eval --dataset jsonl:FOLDER`` can choose the chunking for *their* corpus.

Passages are picked across the corpus, stratified by document and kind (table,
procedure, code, prose): documents in turn, each giving the kind it has given
least so far; never boilerplate (text many documents repeat). An LLM writes a
question each passage answers and copies the sentences that answer it (and the
short answer, kept as ``answer`` for ``eval --answers``); evidence that is not an
exact substring of the passage is dropped (counted), so every reference span is
verifiable. ``heuristic=True`` needs no LLM: questions from headings (the
section's first plain sentence that no other document holds too is the
evidence), table rows (the row is), a source file's named definitions (their
definition line is) and a transcript's turns (a first plain sentence, asked by
speakers and time), labelled ``heuristic`` in their tags: weaker, since their
wording repeats the passage's.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from .boilerplate import boilerplate_ids, collapsed
from .errors import ChunkwiseError
from .ids import name_of
from .llm import LLM, LLMCache, Reply, escape_tags, get_llm, text_hash
from .readers.org import inline_text as org_inline_text
from .types import Chunk

QUESTION_PROMPT = (
    "Write one question that a user of these documents might ask and that the passage "
    "above answers, and copy, word for word, the sentence or sentences of the passage that "
    "answer it, and the short answer itself in your own words. Answer with JSON only, on "
    'one line: {"question": "...", "evidence": "...", "answer": "..."}')
PASSAGE_PROMPT = "<passage>\n{passage}\n</passage>\n"
_LIST_LINE = re.compile(r"^\s*(?:\d+[.)]|[-*+])\s")
#: a run of a line up to its sentence end (or the line's end, or a sentence end alone):
#: a sentence where it ends in one and holds a letter. (``[^.!?\n]*[A-Za-z][^.!?\n]*
#: [.!?]`` found the same, but failed at every character of a line with no sentence
#: end, each failure going back over the line: 21 s for one 2,560-character chunk.)
_SENTENCE = re.compile(r"[^.!?\n]+[.!?]?|[.!?]")
_LETTER = re.compile(r"[A-Za-z]")


def passage_kind(chunk: Chunk) -> str:
    if chunk.kind in ("table", "code"):
        return chunk.kind
    lines = [line for line in chunk.text.splitlines() if line.strip()]
    if len(lines) >= 3 and sum(bool(_LIST_LINE.match(line)) for line in lines) * 2 >= len(lines):
        return "procedure"
    return "prose"


def pick(chunks_by_doc: dict[str, list[Chunk]], n: int | None, seed: int = 0) -> list[Chunk]:
    """Up to ``n`` passages (None: every one, in the same order), documents in turn,
    each giving its least-given kind; never boilerplate (text many documents repeat,
    which search and eval keep out of ranking: a question about it names one document
    of many)."""
    rng = random.Random(seed)
    flagged = boilerplate_ids((c.id, c.doc_id, c.text) for chunks in chunks_by_doc.values()
                              for c in chunks)
    pools: dict[str, dict[str, list[Chunk]]] = {}
    for doc_id, chunks in chunks_by_doc.items():
        for c in chunks:
            if len(c.text.split()) >= 8 and c.id not in flagged:  # (too short to ask about)
                pools.setdefault(doc_id, {}).setdefault(passage_kind(c), []).append(c)
    for kinds in pools.values():
        for items in kinds.values():
            rng.shuffle(items)
    given: dict[str, int] = {}
    out: list[Chunk] = []
    docs = sorted(pools)
    limit = sum(len(v) for kinds in pools.values() for v in kinds.values()) if n is None else n
    while len(out) < limit and any(any(k.values()) for k in pools.values()):
        for doc_id in docs:
            kinds = {k: v for k, v in pools[doc_id].items() if v}
            if not kinds or len(out) >= limit:
                continue
            kind = min(kinds, key=lambda k: (given.get(k, 0), k))
            given[kind] = given.get(kind, 0) + 1
            out.append(kinds[kind].pop())
    return out


@dataclass
class Generated:
    questions: list[dict[str, Any]] = field(default_factory=list)
    dropped: int = 0
    #: why a passage gives no question, for the count of those dropped
    why: str = "evidence not verbatim in its passage"


def _reference(chunk: Chunk, evidence: str) -> dict[str, Any] | None:
    evidence = evidence.strip()
    at = chunk.text.find(evidence) if evidence else -1
    if at < 0:
        return None
    start = chunk.start + at
    return {"start": start, "end": start + len(evidence), "content": evidence}


def _parse(text: str) -> tuple[str, str, str | None] | None:
    match = re.search(r"\{.*\}", text, re.S)
    if not match:
        return None
    try:
        obj = json.loads(match.group(0))
    except ValueError:
        return None
    if not isinstance(obj, dict):
        return None
    q, e, a = obj.get("question"), obj.get("evidence"), obj.get("answer")
    if not isinstance(q, str) or not isinstance(e, str) or not q.strip():
        return None
    return q.strip(), e, a.strip() or None if isinstance(a, str) else None


def with_llm(passages: Sequence[Chunk], llm: str | LLM, doc_ids: dict[str, str],
             cache: bool | str | Path = True, timeout: float | None = None,
             ) -> tuple[Generated, Any]:
    from .config import check_seconds
    from .contextual import RunReport

    model = get_llm(llm)
    if timeout is not None:
        model.timeout = check_seconds("llm_timeout", timeout)
    store = LLMCache(None if cache is True else cache) if cache else None
    report = RunReport(model=model.model)
    out = Generated()
    lead = '{"question": "'
    for c in passages:
        prefix = PASSAGE_PROMPT.format(passage=escape_tags(c.text))
        key = LLMCache.key(model.spec, "questions-2", text_hash(prefix))
        reply: Reply | None = store.get(key) if store else None
        report.chunks += 1
        if reply is None:
            reply = model.complete(prefix, QUESTION_PROMPT, 200, lead=lead)
            report.usage.add(reply.usage)
            if store:
                store.put(key, reply)
        else:
            report.from_cache += 1
        parsed = _parse(reply.text)
        ref = _reference(c, parsed[1]) if parsed else None
        if parsed is None or ref is None:
            out.dropped += 1
            continue
        made: dict[str, Any] = {"question": parsed[0], "doc_id": doc_ids[c.doc_id],
                                "references": [ref], "tags": [passage_kind(c), "llm"],
                                "generator": model.spec}
        if parsed[2]:
            made["answer"] = parsed[2]  # eval --answers scores answers against it
        out.questions.append(made)
    model.close()
    if store:
        store.close()
    return out, report


#: what makes a sentence no evidence for a heuristic question: link, image or HTML
#: syntax, a URL, table pipes, code spans, emphasis and heading marks; Org's links
#: (``[[target][text]]``) and code (``~M-x~``, ``=init.el=``); Jekyll's Liquid tags
#: and kramdown's attribute lists (``{% link docs/x.md %}``, ``{: .note }``), Hugo's
#: shortcodes (``{{< new-in 0.1 >}}``)
_MARKUP = re.compile(r"\]\(|!\[|</?[A-Za-z!][^>]*>|https?://|www\.|\||`|\*\*|__|^\s*#|\{#"
                     r"|\{%|\{:|\{\{[<%]|\[\[|(?:^|(?<=[\s(]))[~=](?=[^\s~=])")
_LINK = re.compile(r"\[[^\]\n]*\]\([^)\n]*\)|<[^>\n]*>|`[^`\n]*`|https?://\S+")
_MARKUP_IN_HEADING = re.compile(r"`|\*\*|__|\{#[^}]*\}|<[^>]*>")
_CELL_LINK = re.compile(r"\[([^\]\n]*)\]\([^)\n]*\)")
#: the HTML elements a table cell's text is marked up with (a placeholder such as
#: ``<leader>`` or ``<url>`` is text)
_CELL_TAG = re.compile(r"</?(?:a|abbr|b|br|code|del|em|i|img|ins|kbd|mark|p|s|small|span|strong|"
                       r"sub|sup|u)\b[^<>]*>", re.I)
_MARKUP_IN_CELL = re.compile(r"`|\*\*")


def _plain_cell(cell: str) -> str:
    """A table cell as a question names it: a link as its text (an Org link's
    description, else its target), without code marks (Org's ``~x~`` and ``=x=``
    too), strong emphasis or HTML tags (``__init__`` and ``<leader>`` kept whole)."""
    cell = org_inline_text(_CELL_LINK.sub(r"\1", cell))
    return _MARKUP_IN_CELL.sub("", _CELL_TAG.sub("", cell)).strip()


def plain_sentence(text: str, words: int = 5) -> str | None:
    """The first sentence of ``text`` with at least ``words`` words that starts with
    a capital or a digit and ends at a word boundary (never inside a word:
    ``file.txt``, ``e.g.``), lies
    outside links, HTML tags, code spans and URLs, and holds no markup."""
    return next(plain_sentences(text, words), None)


def plain_sentences(text: str, words: int = 5) -> Iterator[str]:
    """Every sentence of ``text`` :func:`plain_sentence` would take, in order."""
    masked = list(text)
    for m in _LINK.finditer(text):  # a "." in a URL or code span ends no sentence
        masked[m.start():m.end()] = "\0" * (m.end() - m.start())
    plain = "".join(masked)
    for m in _SENTENCE.finditer(plain):
        lo, hi = m.start(), m.end()
        if plain[hi - 1] not in ".!?" or _LETTER.search(plain, lo, hi) is None:
            continue  # no sentence end on the line, or no letter before it
        while lo < hi and (plain[lo].isspace() or plain[lo] == "\0"):
            lo += 1  # spaces, and a link or tag just before the sentence
        if lo == hi or (lo > 0 and not (plain[lo - 1].isspace() or plain[lo - 1] == "\0")) \
                or not (plain[lo].isupper() or plain[lo].isdigit()):
            continue  # starts inside a word or a sentence ("e.g. this"), not at its start
        if hi < len(plain) and not plain[hi].isspace():
            continue  # "file.txt": the full stop is inside a word
        sentence = text[lo:hi]
        if "\0" in plain[lo:hi] or _MARKUP.search(sentence) or len(sentence.split()) < words:
            continue
        yield sentence


#: a line that is a comment (no definition is read from it)
_COMMENT_LINE = re.compile(r"^\s*(?:#|//|/\*|\*|--)")


def _definition_line(text: str, symbol: str) -> str | None:
    """The line of ``text`` that defines ``symbol`` (its last name in a code line, not
    a comment), stripped: the evidence of a heuristic question about a source file."""
    name = re.compile(rf"(?<![\w.]){re.escape(symbol.rsplit('.', 1)[-1])}\b")
    for line in text.splitlines():
        if line.strip() and not _COMMENT_LINE.match(line) and name.search(line):
            return line.strip()
    return None


def _about_definition(c: Chunk) -> tuple[str, str] | None:
    """A source file's passage: a question about the definition it holds (or the first
    of the group it holds), its definition line the evidence; None for code without a
    named definition (a Markdown code fence: asked about by its heading)."""
    symbol = c.metadata.get("symbol") or next(iter(c.metadata.get("symbols") or ()), None)
    line = _definition_line(c.text, symbol) if isinstance(symbol, str) else None
    return (f"What does {symbol} do?", line) if line else None


def _header_and_rows(rows: list[str], context: str) -> tuple[list[str], list[str]]:
    """A table passage's header cells and data rows: its own first row over a delimiter
    row, or, for a part after the first (rows alone), the header its context repeats
    (``Constant | Description``): its first data row was taken for the header, asking
    "What is the Attempts to use the server's preferences ... of SSL_OP_...?"."""
    def delimiter(row: str) -> bool:  # (Org's rules cross at "+": |---+---|)
        return set(row.strip()) <= set("|-:+ ")

    if len(rows) >= 2 and delimiter(rows[1]):
        return [h.strip() for h in rows[0].strip().strip("|").split("|")], \
            [r for r in rows[2:] if not delimiter(r)]
    last = context.rstrip("\n").rsplit("\n", 1)[-1]
    header = [h.strip() for h in last.split(" | ")] if " | " in last else []
    return header, [r for r in rows if not delimiter(r)]


#: words of a sentence that say nothing of what it is about
_COMMON = frozenset([
    "about", "above", "after", "again", "also", "always", "another", "because", "been",
    "before", "being", "below", "between", "both", "but", "cannot", "could", "does",
    "doing", "done", "each", "either", "every", "from", "have", "having", "here", "however",
    "into", "itself", "just", "like", "make", "makes", "many", "more", "most", "much",
    "must", "need", "needs", "never", "only", "other", "over", "same", "should", "since",
    "some", "such", "than", "that", "their", "them", "then", "there", "these", "they",
    "this", "those", "through", "under", "until", "upon", "used", "uses", "using", "very",
    "want", "what", "when", "where", "whether", "which", "while", "will", "with", "within",
    "without", "would", "your"])
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_-]*[A-Za-z0-9]")


def _rarest_word(sentence: str, frequency: dict[str, int], heading: str = "") -> str | None:
    """The word of ``sentence`` fewest passages hold (four letters or more, none of
    :data:`_COMMON` nor of the ``heading`` the question names already; the longest of
    equals, the first of those): what tells it from its section's other sentences."""
    named = {w.lower() for w in _WORD.findall(heading)}
    words: dict[str, str] = {}  # in the sentence's order, as first written
    for w in _WORD.findall(sentence):
        if len(w) >= 4 and w.lower() not in _COMMON and w.lower() not in named:
            words.setdefault(w.lower(), w)
    if not words:
        return None
    low = min(words, key=lambda w: (frequency.get(w, 0), -len(w)))
    return words[low]


class _Elsewhere:
    """Whether a sentence (a table row, a definition line) is also in another document
    of a corpus (whitespace collapsed): looked for only in the documents that hold
    its rarest word, among the words of the passages that may be asked about."""

    def __init__(self, corpus: Iterable[Chunk], asked: set[str]):
        """``asked``: the words (lower case) of the passages that may be asked about."""
        parts: dict[str, list[str]] = {}
        for c in corpus:
            parts.setdefault(c.doc_id, []).append(c.text)
        self.texts = {d: collapsed(" ".join(t)) for d, t in parts.items()}
        self.holding: dict[str, set[str]] = {}  # word (lower case) -> documents
        for doc_id, text in self.texts.items():
            for w in asked.intersection(w.lower() for w in _WORD.findall(text)):
                self.holding.setdefault(w, set()).add(doc_id)

    def owns(self, doc_id: str, sentence: str) -> bool:
        """Whether no document but ``doc_id`` holds ``sentence``."""
        words = {w.lower() for w in _WORD.findall(sentence)}
        if not words:
            return True
        rarest = min(words, key=lambda w: len(self.holding.get(w, ())))
        wanted = collapsed(sentence)
        return not any(wanted in self.texts[d] for d in self.holding.get(rarest, ())
                       if d != doc_id)


def heuristic(passages: Sequence[Chunk], doc_ids: dict[str, str],
              corpus: Iterable[Chunk] | None = None, limit: int | None = None) -> Generated:
    """Questions about ``passages`` without a model (see the module's description), in
    their order, ``limit`` at most (the passages after the one that makes the last
    are not looked at, nor counted as dropped). Evidence is never text that another
    document of ``corpus`` (every chunk the passages were picked from; by default the
    passages) holds too, nor is a question asked twice with the same evidence: either
    would name one document of several that answer it alike (Cargo's 51 command pages
    each end "See the reference for details on environment variables that Cargo
    reads.")."""
    out = Generated(why="nothing to ask: no heading over a plain sentence, table row, named "
                        "definition or transcript turn that other documents do not repeat")
    frequency: dict[str, int] = {}  # passages holding each word (lower case)
    for c in passages:
        for low in {w.lower() for w in _WORD.findall(c.text)}:
            frequency[low] = frequency.get(low, 0) + 1
    elsewhere = _Elsewhere(passages if corpus is None else corpus, set(frequency))
    asked: set[tuple[str, str]] = set()
    for c in passages:
        if limit is not None and len(out.questions) >= limit:
            break
        kind = passage_kind(c)
        question, evidence = _asked(c, kind, frequency, partial(elsewhere.owns, c.doc_id))
        ref = _reference(c, evidence) if evidence else None
        if question is None or ref is None or (question, ref["content"]) in asked:
            out.dropped += 1
            continue
        asked.add((question, ref["content"]))
        out.questions.append({"question": question, "doc_id": doc_ids[c.doc_id],
                              "references": [ref], "tags": [kind, "heuristic"],
                              "generator": "heuristic"})
    return out


def ask(by_doc: dict[str, list[Chunk]], n: int, doc_ids: dict[str, str], *,
        llm: str | LLM | None = None, seed: int = 0, cache: bool | str | Path = True,
        timeout: float | None = None) -> tuple[Generated, Any]:
    """Questions about the passages of ``by_doc`` (a document's chunks by its id) and the
    LLM's usage report (None without one). With ``llm``: ``n`` passages, one call each
    (a reply whose evidence is not in its passage is dropped, not replaced: the calls
    are what a run costs). Without (heuristic): passages in the same order until ``n``
    questions are made or none is left (a corpus whose sentences mostly hold code
    spans or links gave 7 questions for 50 passages)."""
    corpus = [c for cs in by_doc.values() for c in cs]
    if llm is None:
        return heuristic(pick(by_doc, None, seed), doc_ids, corpus=corpus, limit=n), None
    return with_llm(pick(by_doc, n, seed), llm, doc_ids, cache=cache, timeout=timeout)


def _asked(c: Chunk, kind: str, frequency: dict[str, int],
           own: Callable[[str], bool]) -> tuple[str | None, str | None]:
    """A heuristic question about passage ``c`` and its evidence (``own``: whether a
    candidate is the passage's own, not repeated by another document), or Nones."""
    if kind == "table":
        rows = [r for r in c.text.splitlines() if r.strip().startswith("|")]
        header, body = _header_and_rows(rows, c.context)
        if header and body and own(body[0].strip()):
            # (a question with no markup: "`sys_platform`" asked as "sys_platform")
            cells = [_plain_cell(x) for x in body[0].strip().strip("|").split("|")]
            column = _plain_cell(header[1]) if len(header) > 1 else ""
            if len(cells) > 1 and column and cells[0]:
                return f"What is the {column} of {cells[0]}?", body[0].strip()
        return None, None
    if kind == "code" and (found := _about_definition(c)) is not None:
        return found if own(found[1]) else (None, None)
    if c.metadata.get("speakers") and c.metadata.get("start_stamp"):  # a transcript
        sentence = next((x for x in plain_sentences(c.text) if own(x)), None)
        if sentence:
            speakers = ", ".join(map(str, c.metadata["speakers"]))
            return f"What does {speakers} say at {c.metadata['start_stamp']}?", sentence
        return None, None
    heading = _MARKUP_IN_HEADING.sub("", c.headings[-1]).strip() if c.headings else ""
    sentence = next((x for x in plain_sentences(c.text) if own(x)), None) if heading else None
    if sentence is None:
        return None, None
    # about the sentence's own rarest word: "What does the section X say?" named no
    # sentence of a section of many (tune on Valgrind's pages could not tell one
    # chunking from another)
    word = _rarest_word(sentence, frequency, heading)
    return (f"What does the section {heading!r} say about {word}?" if word
            else f"What does the section {heading!r} say?"), sentence


def relative_ids(paths: Iterable[tuple[str, Path]], folder: Path) -> dict[str, str]:
    """Each document's path relative to the dataset folder (where questions.jsonl is)."""
    out = {}
    root = folder.resolve()
    for doc_id, path in paths:
        try:
            out[doc_id] = name_of(path.resolve().relative_to(root).as_posix())
        except ValueError:
            raise ChunkwiseError(f"{path} is outside {folder}: write the questions into a "
                                 "folder that holds the documents (doc_id is the path "
                                 "relative to it)") from None
    return out
