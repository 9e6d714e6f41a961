"""Write peer libraries' chunks of an evaluation corpus as JSON Lines, so that
`chunkwise eval --chunks FILE` scores them with the same code as ours.

    python benchmarks/peer_chunks.py langchain --size 200 --overlap 0 \
        --dataset ../shared/eval/chroma -o out/langchain-200.jsonl
    python benchmarks/peer_chunks.py chonkie-sentence --size 256 --tokenizer minilm \
        --dataset jsonl:benchmarks/narrative_eval -o out/chonkie-sentence-256.jsonl

``--dataset``: a Chroma-format folder (its ``*.md``) or ``jsonl:FOLDER`` (our format:
the documents its ``questions.jsonl`` names). ``--tokenizer``: what ``--size``
counts, cl100k (default) or the bundled MiniLM's WordPiece.

Peers (install them with `pip install -r benchmarks/requirements.txt`):
  langchain   LangChain RecursiveCharacterTextSplitter, length in cl100k tokens
  langchain-chroma  the same with the separators of Chroma's harness
  fixed       a fixed cl100k-token window (LangChain TokenTextSplitter equivalent)
  semchunk    semchunk.chunkerify with a cl100k counter
  text-splitter  semantic-text-splitter TextSplitter (cl100k via a callback)
  llamaindex  LlamaIndex SentenceSplitter with a cl100k tokenizer
  chonkie-sentence  chonkie SentenceChunker
  chonkie-recursive chonkie RecursiveChunker
  langchain-code  RecursiveCharacterTextSplitter.from_language (source files)
  text-splitter-code  semantic-text-splitter CodeSplitter on the tree-sitter grammar
Offsets are found with a forward search, the way Chroma's harness does.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

TOKENIZER = "cl100k"


class _MiniLM:
    """The bundled MiniLM's WordPiece with the encode/decode calls the peers use."""

    def __init__(self):
        from tokenizers import Tokenizer

        from chunkwise.tokens import minilm_dir

        self.tok = Tokenizer.from_file(str(minilm_dir() / "tokenizer.json"))
        self.tok.no_padding()
        self.tok.no_truncation()

    def encode_ordinary(self, s):
        return self.tok.encode(s, add_special_tokens=False).ids

    encode = encode_ordinary

    def decode(self, ids):
        return self.tok.decode(ids)


def cl100k():
    """The tokenizer ``--size`` counts in (cl100k unless ``--tokenizer minilm``)."""
    if TOKENIZER == "minilm":
        enc = _MiniLM()
    else:
        import bpe_openai

        enc = bpe_openai.get_encoding("cl100k_base")
    return enc, (lambda s: len(enc.encode_ordinary(s)))


def split_langchain(text, size, overlap):
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    _, count = cl100k()
    return RecursiveCharacterTextSplitter(chunk_size=size, chunk_overlap=overlap,
                                          length_function=count).split_text(text)


def split_langchain_chroma(text, size, overlap):
    """The separators Chroma's harness used with RecursiveCharacterTextSplitter."""
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    _, count = cl100k()
    return RecursiveCharacterTextSplitter(
        chunk_size=size, chunk_overlap=overlap, length_function=count,
        separators=["\n\n", "\n", ".", "?", "!", " ", ""]).split_text(text)


def split_fixed(text, size, overlap):
    enc, _ = cl100k()
    ids = enc.encode_ordinary(text)
    step = size - overlap
    return [enc.decode(ids[i:i + size]) for i in range(0, len(ids), step)]


def split_semchunk(text, size, overlap):
    import semchunk

    _, count = cl100k()
    chunker = semchunk.chunkerify(count, size)
    return chunker(text, overlap=overlap or None)


def split_text_splitter(text, size, overlap):
    from semantic_text_splitter import TextSplitter

    _, count = cl100k()
    return TextSplitter.from_callback(count, size, overlap=overlap).chunks(text)


def split_llamaindex(text, size, overlap):
    from llama_index.core.node_parser import SentenceSplitter

    enc, _ = cl100k()
    return SentenceSplitter(chunk_size=size, chunk_overlap=overlap,
                            tokenizer=enc.encode_ordinary).split_text(text)


def split_chonkie_sentence(text, size, overlap):
    from chonkie import SentenceChunker

    enc, _ = cl100k()
    tok = enc.tok if isinstance(enc, _MiniLM) else enc
    return [c.text for c in SentenceChunker(tokenizer=tok, chunk_size=size,
                                            chunk_overlap=overlap).chunk(text)]


def split_chonkie_recursive(text, size, overlap):
    from chonkie import RecursiveChunker

    if overlap:
        raise SystemExit("chonkie's RecursiveChunker has no overlap")
    enc, _ = cl100k()
    tok = enc.tok if isinstance(enc, _MiniLM) else enc
    return [c.text for c in RecursiveChunker(tokenizer=tok, chunk_size=size).chunk(text)]


#: source files' languages by extension (the code peers)
LANGUAGES = {".py": "python", ".js": "javascript", ".swift": "swift", ".kt": "kotlin",
             ".rb": "ruby", ".php": "php", ".sh": "bash", ".lua": "lua"}
#: LangChain's separators per language (shell has none of its own: the generic ones)
_LANGCHAIN = {"python": "PYTHON", "javascript": "JS", "swift": "SWIFT", "kotlin": "KOTLIN",
              "ruby": "RUBY", "php": "PHP", "lua": "LUA"}
#: a grammar wheel's function where it is not ``language``
_GRAMMAR_FUNCTIONS = {"php": "language_php"}


def split_langchain_code(text, size, overlap, doc_id):
    """RecursiveCharacterTextSplitter.from_language: the language's own separators."""
    from langchain_text_splitters import Language, RecursiveCharacterTextSplitter

    _, count = cl100k()
    name = _LANGCHAIN.get(LANGUAGES[Path(doc_id).suffix])
    if name is None:
        return RecursiveCharacterTextSplitter(chunk_size=size, chunk_overlap=overlap,
                                              length_function=count).split_text(text)
    return RecursiveCharacterTextSplitter.from_language(
        Language[name], chunk_size=size, chunk_overlap=overlap,
        length_function=count).split_text(text)


def split_text_splitter_code(text, size, overlap, doc_id):
    """semantic-text-splitter's CodeSplitter on the language's tree-sitter grammar."""
    import importlib

    from semantic_text_splitter import CodeSplitter

    _, count = cl100k()
    language = LANGUAGES[Path(doc_id).suffix]
    grammar = importlib.import_module(f"tree_sitter_{language}")
    function = getattr(grammar, _GRAMMAR_FUNCTIONS.get(language, "language"))
    return CodeSplitter.from_callback(function(), count, size,
                                      overlap=overlap).chunks(text)


#: peers that need the document's file name (its language)
CODE_PEERS = {"langchain-code": split_langchain_code,
              "text-splitter-code": split_text_splitter_code}

PEERS = {"langchain": split_langchain, "langchain-chroma": split_langchain_chroma,
         "fixed": split_fixed, "semchunk": split_semchunk, "text-splitter": split_text_splitter,
         "llamaindex": split_llamaindex, "chonkie-sentence": split_chonkie_sentence,
         "chonkie-recursive": split_chonkie_recursive}


def documents(dataset: str, whole: bool = False):
    """(doc_id, text) of a Chroma folder's ``*.md`` (ids: the file stems) or of the
    documents a ``jsonl:FOLDER`` dataset's questions name (ids as they name them; the
    text as chunkwise's readers extract it from HTML, PDF and the rest, the text
    ``eval`` scores offsets in); ``whole``: every document of the dataset, as ``eval``
    searches them (a set whose questions name a few of its documents)."""
    if dataset.startswith("jsonl:"):
        from chunkwise.readers import read_path

        folder = Path(dataset.removeprefix("jsonl:"))
        if whole:
            from chunkwise.eval.data import load_jsonl

            return sorted((doc_id, doc.text) for doc_id, doc in load_jsonl(folder).documents.items())
        ids = sorted({json.loads(line)["doc_id"] for line in
                      (folder / "questions.jsonl").read_text("utf-8").splitlines() if line})
        return [(doc_id, read_path(folder / doc_id).text) for doc_id in ids]
    return [(path.stem, path.read_bytes().decode("utf-8"))
            for path in sorted(Path(dataset).glob("*.md"))]


def locate(text: str, pieces):
    """(start, end, piece) with a forward search; pieces a peer altered are skipped."""
    cursor = 0
    for piece in pieces:
        piece = piece.strip()
        if not piece:
            continue
        start = text.find(piece, cursor)
        if start < 0:
            start = text.find(piece)
        if start < 0:
            continue
        cursor = start + 1
        yield start, start + len(piece), piece


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("peer", choices=sorted(PEERS) + sorted(CODE_PEERS))
    ap.add_argument("--size", type=int, default=200)
    ap.add_argument("--overlap", type=int, default=0)
    ap.add_argument("--dataset", default="../shared/eval/chroma")
    ap.add_argument("--tokenizer", choices=["cl100k", "minilm"], default="cl100k")
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--whole-corpus", action="store_true",
                    help="chunk every document of a jsonl: dataset, not only those its questions name")
    args = ap.parse_args()
    global TOKENIZER
    TOKENIZER = args.tokenizer
    out = Path(args.output)
    out.parent.mkdir(parents=True, exist_ok=True)
    n = lost = 0
    with open(out, "w", encoding="utf-8") as f:
        for doc_id, text in documents(args.dataset, args.whole_corpus):
            pieces = (CODE_PEERS[args.peer](text, args.size, args.overlap, doc_id)
                      if args.peer in CODE_PEERS else PEERS[args.peer](text, args.size, args.overlap))
            located = list(locate(text, pieces))
            lost += len([p for p in pieces if p.strip()]) - len(located)
            for start, end, piece in located:
                f.write(json.dumps({"doc_id": doc_id, "text": piece, "start": start,
                                    "end": end}, ensure_ascii=False) + "\n")
                n += 1
    print(f"{args.peer}: {n} chunks written to {out} ({lost} not found verbatim)")


if __name__ == "__main__":
    main()
