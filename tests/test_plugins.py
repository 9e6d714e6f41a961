"""A third-party package adds one of each extension point (strategy, reader, store, LLM
provider, embedder, tokenizer) through its entry points alone, and the command line uses
them all. The package is installed the way pip installs one: a module and a
``.dist-info`` folder (METADATA, entry_points.txt) on the interpreter's path."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

PLUGIN = '''
import hashlib
import json
import re
from pathlib import Path

import numpy as np

import chunkwise
from chunkwise.embed import Embedder
from chunkwise.index import Hit, Store
from chunkwise.llm import LLM, Reply, Usage
from chunkwise.readers import Reader
from chunkwise.tokens import CallableCounter


class StanzaChunker(chunkwise.RecursiveChunker):
    """recursive, with each chunk's kind set to ``label``"""

    def __init__(self, *, label: str = "stanza", **options):
        super().__init__(**options)
        self.label = label

    def split(self, doc, index, span):
        pieces = super().split(doc, index, span)
        for p in pieces:
            p.kind = self.label
        return pieces


def read_poem(text, doc_id, source):
    # a title line "= Title =" becomes the document's title
    title = re.match(r"= (.*) =", text)
    return chunkwise.Document(text, doc_id, source,
                              metadata={"title": title.group(1)} if title else {})


POEM = Reader(read_poem, (".poem",))


def letters(arg):
    return CallableCounter(lambda t: sum(ch.isalpha() for ch in t), name="letters")


class HashEmbedder(Embedder):
    """Words hashed into ``dim`` buckets: deterministic and offline."""

    def __init__(self, dim):
        self.name = f"hash:{dim}"
        self._dim = dim

    @property
    def dim(self):
        return self._dim

    def _embed(self, texts):
        out = np.zeros((len(texts), self._dim), dtype=np.float32)
        for i, text in enumerate(texts):
            for word in re.findall(r"\\w+", text.lower()):
                out[i, int(hashlib.md5(word.encode()).hexdigest(), 16) % self._dim] += 1.0
        out[:, 0] += 1e-3  # never all zero
        return out


def hash_embedder(arg):
    return HashEmbedder(int(arg or 64))


class EchoLLM(LLM):
    provider = "echo"
    concurrency = 1

    def __init__(self, word):
        self.model = word or "echo"

    def _complete(self, prefix, suffix, max_tokens, lead):
        return Reply(f"This passage is {self.model}.", Usage(calls=1, input=1, output=4))


def echo_llm(rest):
    return EchoLLM(rest)


class JsonFileStore(Store):
    """A whole index in one JSON file: rows, vectors and the configuration."""

    def __init__(self, uri):
        self.uri = uri
        self.path = Path(uri.removeprefix("jsonfile://"))
        self.data = (json.loads(self.path.read_text()) if self.path.exists()
                     else {"config": None, "rows": {}, "vectors": {}})

    def _save(self):
        self.path.write_text(json.dumps(self.data))

    def get_config(self):
        return self.data["config"]

    def set_config(self, config):
        self.data["config"] = config
        self._save()

    def reset(self):
        self.data = {"config": None, "rows": {}, "vectors": {}}
        self._save()

    def state(self):
        out = {}
        for cid, row in self.data["rows"].items():
            out.setdefault(row["doc_id"], {})[cid] = row["row_hash"]
        return out

    def vectors(self, ids):
        return {i: np.asarray(self.data["vectors"][i], dtype=np.float32)
                for i in ids if i in self.data["vectors"]}

    def upsert(self, rows, vectors):
        for row, vec in zip(rows, vectors):
            self.data["rows"][row["id"]] = dict(row)
            self.data["vectors"][row["id"]] = [float(x) for x in vec]
        self._save()

    def delete(self, ids):
        for i in ids:
            self.data["rows"].pop(i, None)
            self.data["vectors"].pop(i, None)
        self._save()

    def rows(self):
        ids = list(self.data["rows"])
        vecs = np.asarray([self.data["vectors"][i] for i in ids], dtype=np.float32)
        return [self.data["rows"][i] for i in ids], vecs

    def search(self, vector, k):
        rows, vecs = self.rows()
        if not rows:
            return []
        scores = vecs @ vector / np.maximum(np.linalg.norm(vecs, axis=1), 1e-9)
        order = np.argsort(-scores)[:k]
        return [Hit(float(scores[i]), rows[i]) for i in order]
'''

ENTRY_POINTS = '''
[chunkwise.strategies]
stanza = poetry_plugin:StanzaChunker

[chunkwise.readers]
poem = poetry_plugin:POEM

[chunkwise.tokenizers]
letters = poetry_plugin:letters

[chunkwise.embedders]
hash = poetry_plugin:hash_embedder

[chunkwise.llms]
echo = poetry_plugin:echo_llm

[chunkwise.stores]
jsonfile = poetry_plugin:JsonFileStore
'''

POEMS = {
    "tide.poem": "= The Tide =\n\nThe tide comes in over the grey stones,\nand the gulls "
                 "cry at the harbour wall.\n\nAt night the lamps burn on the quay,\nand the "
                 "boats rock slowly in the dark water.\n",
    "orchard.poem": "= Orchard =\n\nApples ripen in the late September sun,\nthe wasps "
                    "drunk on the fallen fruit.\n\nWe carry baskets up the hill at dusk,\n"
                    "our hands sticky with cider.\n",
}


@pytest.fixture()
def plugin(tmp_path: Path) -> dict[str, str]:
    site = tmp_path / "site"
    site.mkdir()
    (site / "poetry_plugin.py").write_text(textwrap.dedent(PLUGIN))
    info = site / "poetry_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: poetry-plugin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(ENTRY_POINTS)
    (info / "RECORD").write_text("")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(site), env.get("PYTHONPATH")) if p)
    return env


def run(env: dict[str, str], *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "chunkwise.cli", *args], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=300)


def test_a_plug_in_adds_one_of_each_and_the_command_line_uses_them(plugin, tmp_path):
    docs = tmp_path / "poems"
    docs.mkdir()
    for name, text in POEMS.items():
        (docs / name).write_text(text)

    # the help lists the plug-in's strategy and format, and a flag for its option
    res = run(plugin, "chunk", "--help", cwd=tmp_path)
    assert res.returncode == 0 and "stanza" in res.stdout and "poem" in res.stdout
    assert "--label LABEL" in res.stdout
    res = run(plugin, "chunk", str(docs / "tide.poem"), "--strategy", "stanza", "--label",
              "verse", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert {json.loads(line)["kind"] for line in res.stdout.splitlines()} == {"verse"}

    # chunk: the reader (by extension), strategy, tokenizer and LLM of the plug-in
    res = run(plugin, "chunk", str(docs), "--strategy", "stanza", "--tokenizer", "letters",
              "--size", "150", "--contextualize", "echo:tidal", "--context-tokens", "20",
              "--no-llm-cache", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    chunks = [json.loads(line) for line in res.stdout.splitlines()]
    assert {c["kind"] for c in chunks} == {"stanza"}
    assert all("This passage is tidal." in c["context"] for c in chunks)
    assert {c["metadata"]["doc"]["title"] for c in chunks} == {"The Tide", "Orchard"}
    for c in chunks:  # counted by the plug-in's tokenizer: letters
        assert c["token_count"] == sum(ch.isalpha() for ch in c["context"] + c["text"]) <= 150
        assert POEMS[Path(c["doc_id"]).name][c["start"]:c["end"]] == c["text"]

    # index into the plug-in's store with its embedder, then search it
    db = f"jsonfile://{tmp_path / 'index.json'}"
    res = run(plugin, "index", str(docs), "--db", db, "--embedder", "hash:64", "--strategy",
              "stanza", "--tokenizer", "letters", "--size", "150", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "documents 2 (2 changed" in res.stdout
    stored = json.loads((tmp_path / "index.json").read_text())
    assert stored["config"]["embedder"] == "hash:64"
    # named relative to the index's root (the folder given)
    assert {r["doc_id"] for r in stored["rows"].values()} == set(POEMS)
    assert {r["kind"] for r in stored["rows"].values()} == {"stanza"}
    res = run(plugin, "search", "apples ripen in september", "--db", db, "-k", "1",
              "--json", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    hit = json.loads(res.stdout.splitlines()[0])
    assert hit["doc_id"].endswith("orchard.poem") and "Apples ripen" in hit["text"]
    # a second run reuses every row
    res = run(plugin, "index", str(docs), "--db", db, "--embedder", "hash:64", "--strategy",
              "stanza", "--tokenizer", "letters", "--size", "150", cwd=tmp_path)
    assert res.returncode == 0 and "(0 changed" in res.stdout and "0 embedded" in res.stdout
    # a renamed file takes its vectors along (the base Store.embed_texts: read from rows())
    (docs / "tide.poem").rename(docs / "high-tide.poem")
    res = run(plugin, "index", str(docs), "--db", db, "--embedder", "hash:64", "--strategy",
              "stanza", "--tokenizer", "letters", "--size", "150", "--prune", cwd=tmp_path)
    assert res.returncode == 0 and "(1 changed, 1 removed)" in res.stdout, res.stdout
    assert "(0 embedded" in res.stdout, res.stdout


def test_without_the_plug_in_its_names_are_clear_errors(tmp_path):
    (tmp_path / "a.txt").write_text("some text here")
    for args, message in [(["--strategy", "stanza"], "unknown strategy 'stanza'"),
                          (["--tokenizer", "letters"], "unknown tokenizer 'letters'"),
                          (["--contextualize", "echo:x"], "unknown LLM 'echo:x'")]:
        res = run(dict(os.environ), "chunk", str(tmp_path / "a.txt"), *args, cwd=tmp_path)
        assert res.returncode == 2 and message in res.stderr and "Traceback" not in res.stderr
    res = run(dict(os.environ), "search", "x", "--db", "jsonfile://x.json", cwd=tmp_path)
    assert res.returncode == 2 and "unknown index URI" in res.stderr


def test_a_broken_plug_in_leaves_every_other_format_working(tmp_path):
    """A package whose reader's module is gone (uninstalled half-way, or a new
    chunkwise's entry point met by an older checkout) made every command fail
    (``format 'broken' ... cannot be loaded``) even on files it had nothing to do
    with. It is left out with a warning; only asking for it by name is an error."""
    site = tmp_path / "site"
    info = site / "broken_plugin-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-plugin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[chunkwise.readers]\nbroken = no_such_module_anywhere:READER\n")
    (info / "RECORD").write_text("")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(site), env.get("PYTHONPATH")) if p)
    doc = tmp_path / "notes.md"
    doc.write_text("# Notes\n\nThe tide turns at noon.\n")
    res = run(env, "chunk", str(doc), cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout.splitlines()[0])["headings"] == ["Notes"]
    assert "format 'broken' from no_such_module_anywhere:READER cannot be loaded" in res.stderr
    res = run(env, "chunk", str(doc), "--input-format", "broken", cwd=tmp_path)
    assert res.returncode != 0 and "Traceback" not in res.stderr


def test_a_builtin_format_missing_from_stale_entry_points_is_said_not_a_crash(monkeypatch):
    """Found using it: an environment whose editable install predates a reader (its
    entry points lack ``ipynb``) crashed on every file with ``KeyError: 'ipynb'``."""
    from importlib.metadata import entry_points

    import chunkwise.readers as readers
    from chunkwise.errors import PluginWarning
    from chunkwise.registry import Registry

    stale: Registry[object] = Registry("chunkwise.readers", "format", lambda obj: True)
    stale._pending = {ep.name: ep for ep in entry_points(group="chunkwise.readers")
                      if ep.name != "ipynb"}
    monkeypatch.setattr(readers, "READERS", stale)
    monkeypatch.setattr(readers, "_by_extension", (-1, {}))
    with pytest.warns(PluginWarning, match="'ipynb' is not registered.*pip install -e"):
        table = readers.extension_formats()
    assert table[".md"] == "markdown" and ".ipynb" not in table
    assert readers.sniff_format(b"# Title\n\nText.\n", "notes.md") == "markdown"
