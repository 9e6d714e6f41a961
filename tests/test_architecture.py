"""The shape issue 8 asked for: one strategy interface over spans, an explicit
registry that plug-ins extend, options checked per strategy, the public API."""

import json
import sys
import textwrap

import pytest

import chunkwise
from chunkwise.config import Budget
from chunkwise.engine import DocumentIndex, Packer, PackPolicy
from chunkwise.errors import ConfigError
from chunkwise.levels import TOKEN, WORD, Level, Positions

from helpers import QUAL, assert_invariants, check_hierarchy, independent_minilm_count

PUBLIC = {
    "AutoChunker", "Block", "Chunk", "ChunkConfig", "Chunker", "ChunkwiseError", "CodeChunker",
    "ConfigError", "Document", "EmbedderError", "ExtractionWarning", "FaqChunker",
    "FixedChunker", "Filter", "HierarchicalChunker", "Index", "IndexBusyError", "InputError", "JsonChunker", "LLMError",
    "LegalChunker", "Level", "MissingExtraError", "OutputError", "RecursiveChunker", "Registry",
    "STRATEGIES", "SectionChunker", "SemanticChunker", "SentenceChunker", "ServiceError",
    "SkippedInputWarning", "StoreError", "TokenCounter", "TranscriptChunker", "UnstableIdWarning",
    "__version__", "chunk", "expand", "flag_boilerplate", "get_chunker", "get_tokenizer",
    "iter_chunks", "name_of", "path_of", "read_text", "register",
}


def test_public_api_is_exactly_all():
    assert set(chunkwise.__all__) == PUBLIC
    for name in chunkwise.__all__:
        assert hasattr(chunkwise, name), name
    exported = {n for n in dir(chunkwise) if not n.startswith("_")}
    # subpackages are importable attributes, but nothing else leaks
    assert exported - PUBLIC <= {"api", "config", "engine", "errors", "ids", "levels", "readers",
                                 "strategies", "tokens", "types", "embed", "eval", "sinks", "cli", "view",
                                 "factory", "registry", "retrieval", "cache",
                                 "parallel", "ray", "stream", "adapters", "index", "llm",
                                 "contextual", "questions", "filters", "tune",
                                 "boilerplate", "minilm", "serve", "mcp"}



def test_the_public_names_and_submodules_are_there_after_import_chunkwise_alone():
    """The names are imported when first used: after a bare ``import chunkwise`` every
    public name, and every submodule (``chunkwise.readers.parse``), is still an
    attribute, a name that is neither is an AttributeError, and ``import *`` gives
    ``__all__``."""
    import subprocess

    code = """
import json, chunkwise
from chunkwise import *
seen = {"readers": chunkwise.readers.parse.__module__, "engine": chunkwise.engine.Packer.__name__,
        "get_chunker": callable(get_chunker), "Index": Index.__module__,
        "nope": hasattr(chunkwise, "nope"), "dunder": hasattr(chunkwise, "__wrapped__"),
        "all": all(hasattr(chunkwise, n) for n in chunkwise.__all__),
        "dir": sorted(set(chunkwise.__all__) - set(dir(chunkwise)))}
print(json.dumps(seen))
"""
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout) == {
        "readers": "chunkwise.readers", "engine": "Packer", "get_chunker": True,
        "Index": "chunkwise.api", "nope": False, "dunder": False, "all": True, "dir": []}

def test_every_strategy_class_is_registered_and_exported():
    for name in ("fixed", "sentence", "recursive", "section", "auto", "hierarchical", "semantic",
                 "code", "transcript", "faq", "legal", "json"):
        cls = chunkwise.STRATEGIES[name]
        assert cls.name == name and issubclass(cls, chunkwise.Chunker)
        assert getattr(chunkwise, cls.__name__) is cls


@pytest.mark.parametrize("strategy,option", [
    ("fixed", "separators"), ("fixed", "headers"), ("recursive", "embedder"),
    ("section", "threshold"), ("semantic", "separators"), ("sentence", "sizes"),
])
def test_an_option_a_strategy_does_not_take_is_an_error_naming_both(strategy, option):
    with pytest.raises(ConfigError, match=f"strategy '{strategy}' has no option '{option}'"):
        chunkwise.get_chunker(strategy, **{option: 1})
    # the class itself refuses it too, not only the by-name path
    with pytest.raises(ConfigError, match=f"has no option '{option}'"):
        chunkwise.STRATEGIES[strategy](**{option: 1})  # type: ignore[arg-type]


def test_structure_options_need_headers():
    with pytest.raises(ConfigError, match="table_rows apply only with headers=True"):
        chunkwise.get_chunker("recursive", table_rows="row")
    assert chunkwise.get_chunker("recursive", headers=True, table_rows="row").structure.table_rows == "row"  # type: ignore[attr-defined]


def test_register_a_strategy_and_use_it_everywhere():
    @chunkwise.register("every-line-test")
    class EveryLine(chunkwise.Chunker):
        """One chunk per line: a plug-in in a few lines."""

        def split(self, doc, index, span):
            level = Positions("lines", lambda ix: [i + 1 for i, ch in enumerate(ix.text) if ch == "\n"])
            packer = Packer(index, PackPolicy((level, WORD, TOKEN)), Budget(1 << 30))
            out = []
            for a, b in zip([span.lo, *index.positions(level)], [*index.positions(level), span.hi]):
                if span.lo <= a < b <= span.hi:
                    out.extend(packer.pack(a, b, span.context))
            return out

    try:
        text = "one line\ntwo line\nthree line"
        chunks = chunkwise.chunk(text, strategy="every-line-test", doc_id="d")
        assert [c.text for c in chunks] == ["one line", "two line", "three line"]
        # a registered strategy works as a level of a hierarchy at once
        tree = chunkwise.chunk(text, strategy="hierarchical", sizes=[100, 50],
                               strategies=["recursive", "every-line-test"], doc_id="d")
        assert [c.text for c in tree if c.level == 1] == ["one line", "two line", "three line"]
        with pytest.raises(ConfigError, match="already registered"):
            chunkwise.register("every-line-test")(chunkwise.FixedChunker)
    finally:
        chunkwise.STRATEGIES.unregister("every-line-test")


def test_a_plug_in_package_adds_a_strategy_through_its_entry_point(tmp_path, monkeypatch):
    """A real (if tiny) installed distribution: a dist-info folder on sys.path whose
    entry_points.txt names a strategy class in its own module."""
    (tmp_path / "shout_strategy.py").write_text(textwrap.dedent('''
        import chunkwise

        class ShoutChunker(chunkwise.RecursiveChunker):
            """recursive, registered by a third-party package"""
    '''))
    info = tmp_path / "shout_strategy-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: shout-strategy\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[chunkwise.strategies]\nshout = shout_strategy:ShoutChunker\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    from chunkwise.strategies.base import ENTRY_POINT_GROUP, StrategyRegistry

    registry = StrategyRegistry(ENTRY_POINT_GROUP, "strategy")  # entry points not yet read
    assert "shout" in registry
    cls = registry["shout"]
    assert cls.__name__ == "ShoutChunker" and cls.name == "shout"
    sys.modules.pop("shout_strategy", None)


def test_installed_entry_points_are_read_once_for_every_registry(monkeypatch):
    """Each registry read every installed package's metadata for its own group (~5 ms
    each, and more beside LanceDB's import at the start of ``index``); the packages
    are now read once for all groups, and again only after ``sys.path`` changes (the
    test above installs a package that way)."""
    import chunkwise.registry as registry
    from chunkwise.registry import Registry

    reads: list[int] = []
    read = registry.entry_points  # type: ignore[attr-defined]

    def counted(**params: object):
        reads.append(1)
        return read(**params)

    monkeypatch.setattr(registry, "_SCANNED", None)
    monkeypatch.setattr(registry, "entry_points", counted)
    strategies: Registry[object] = Registry("chunkwise.strategies", "strategy")
    readers: Registry[object] = Registry("chunkwise.readers", "format")
    nothing: Registry[object] = Registry("chunkwise.no-such-group", "thing")
    assert {"recursive", "section"} <= set(strategies.declared())
    assert {"markdown", "pdf"} <= set(readers.declared())
    assert nothing.declared() == []
    assert len(reads) == 1
    monkeypatch.setattr(sys, "path", [*sys.path, "/no/such/folder"])
    assert "markdown" in Registry("chunkwise.readers", "format").declared()
    assert len(reads) == 2


@pytest.mark.parametrize("inner", ["fixed", "sentence", "recursive", "section", "auto"])
def test_every_strategy_works_at_the_child_level(inner):
    text = QUAL * 3
    doc = chunkwise.Document(text, "q", blocks=chunkwise.readers.parse(text, "q.md", fmt="markdown").blocks)
    # a structure-aware level keeps tables whole up to table_max (default 2 x size)
    level = (inner, {"table_max": 60}) if inner in ("section", "auto") else inner
    chunks = chunkwise.chunk(doc, strategy="hierarchical", sizes=[200, 60],
                             strategies=["recursive", level])
    check_hierarchy(text, chunks, (200, 60))
    children = [c for c in chunks if c.level == 1]
    assert children
    if inner in ("section", "auto"):  # the child level builds its own heading trail
        # every child has its trail, in context or (its own headings) at the start of its text
        assert all(c.context or c.text.lstrip().startswith("#") for c in children if c.headings)
        assert any("QUAL-047 > 3. Records" in c.context for c in children)


def test_semantic_works_at_the_child_and_the_top_level():
    from helpers import TRANSCRIPT

    emb = _static_embedder()
    for strategies in (["recursive", "semantic"], ["semantic", "recursive"]):
        chunks = chunkwise.chunk(TRANSCRIPT, strategy="hierarchical", sizes=[150, 50],
                                 strategies=strategies, embedder=emb, doc_id="t")
        check_hierarchy(TRANSCRIPT, chunks, (150, 50))


def _static_embedder():
    """A deterministic bag-of-words embedder: real vectors, no model download."""
    import numpy as np

    from chunkwise.embed import Embedder

    class Hashing(Embedder):
        name = "hashing-test"

        def _embed(self, texts):
            out = np.zeros((len(texts), 64), dtype=np.float32)
            for i, t in enumerate(texts):
                for w in t.lower().split():
                    out[i, hash(w.strip(".,?!")) % 64] += 1.0
            return out + 1e-3

    return Hashing()


def test_section_within_section_keeps_trails_and_tables():
    table = "| Code | Meaning |\n|---|---|\n" + "\n".join(f"| C{i} | meaning {i} |" for i in range(6))
    text = f"# Guide\n\n## Codes\n\nThe codes follow.\n\n{table}\n\n## Other\n\n" + "Words here. " * 80
    chunker = chunkwise.HierarchicalChunker(sizes=(400, 120), strategies=("section", "section"))
    chunks = chunker.chunk(chunkwise.Document(text, "g", blocks=chunkwise.readers.parse(
        text, "g.md", fmt="markdown").blocks, title="Guide"))
    check_hierarchy(text, chunks, (400, 120))
    kids = [c for c in chunks if c.level == 1]
    tables = [c for c in kids if c.kind == "table"]
    assert len(tables) == 1 and tables[0].text.endswith("| C5 | meaning 5 |")  # kept whole
    assert tables[0].context == "Guide > Codes\n\n"
    assert all(c.context.startswith("Guide") or c.text.startswith("# Guide") for c in kids)
    assert all(c.headings[:1] == ("Guide",) for c in kids)


def test_hierarchy_remembers_a_bounded_number_of_parents(monkeypatch):
    from chunkwise.strategies import hierarchical

    monkeypatch.setattr(hierarchical, "PARENTS_KEPT", 10)
    chunker = chunkwise.HierarchicalChunker(sizes=(60, 20))
    for i in range(30):
        chunker.chunk_document(chunkwise.Document(f"Sentence number {i} here. " * 20, f"d{i}"))
    assert chunker._n_parents <= 10 + 20 and len(chunker._parents) < 30
    kids = [c for c in chunker.chunk_document(chunkwise.Document("Last one here. " * 20, "last"))
            if c.level == 1]
    assert chunker.expand(kids[:1])[0].level == 0  # the latest document's parents are kept


def test_levels_are_typed_objects_and_a_strategy_declares_its_own():
    assert all(isinstance(level, Level) for level in chunkwise.RecursiveChunker().policy().levels)
    with pytest.raises(ConfigError, match="Level objects"):
        PackPolicy(levels=("word", "token"))  # type: ignore[arg-type]
    doc = chunkwise.Document("alpha beta; gamma delta; epsilon", "d")
    index = DocumentIndex(doc, chunkwise.get_tokenizer("words"))
    semis = Positions("semicolons", lambda ix: [i + 1 for i, ch in enumerate(ix.text) if ch == ";"])
    pieces = Packer(index, PackPolicy((semis, WORD, TOKEN)), Budget(2)).pack(0, len(doc.text))
    assert [doc.text[p.start:p.end] for p in pieces] == ["alpha beta;", "gamma delta;", "epsilon"]


def test_config_is_validated_once_and_shared():
    cfg = chunkwise.ChunkConfig.create(size=100, overlap=0.1, tokenizer="words")
    assert (cfg.size, cfg.overlap, cfg.limit) == (100, 10, 100)
    a = chunkwise.RecursiveChunker(config=cfg)
    b = chunkwise.SentenceChunker(config=cfg)
    assert a.config is b.config
    with pytest.raises(ConfigError, match="give config= or size, not both"):
        chunkwise.RecursiveChunker(size=5, config=cfg)


def test_iter_chunks_streams_and_isolates_errors(tmp_path):
    (tmp_path / "a.txt").write_text("First good file. " * 30)
    (tmp_path / "b.bin.txt").write_bytes(b"caf\xe9 au lait " * 20)  # Latin-1, not UTF-8
    (tmp_path / "c.md").write_text("# C\n\nThird good file.")
    (tmp_path / "d.bin").write_bytes(b"\x00\x01binary\x00")  # not a document: passed over
    with pytest.raises(chunkwise.InputError, match="b.bin.txt: not valid UTF-8"):
        chunkwise.chunk(tmp_path)
    seen = []  # type: ignore[var-annotated]
    it = chunkwise.iter_chunks(tmp_path, on_error=seen.append, size=32)
    first = next(it)  # a generator: the first chunk comes before the rest is read
    assert first.doc_id.endswith("a.txt") and not seen
    rest = list(it)
    assert {c.doc_id.rsplit("/", 1)[-1] for c in [first, *rest]} == {"a.txt", "c.md"}
    assert len(seen) == 1 and isinstance(seen[0], chunkwise.InputError)
    assert seen[0].source.endswith("b.bin.txt")
    with pytest.warns(chunkwise.SkippedInputWarning) as caught:
        skipped = chunkwise.chunk(tmp_path, on_error="skip", size=32)
    messages = [str(w.message) for w in caught]
    assert any("b.bin.txt: not valid UTF-8" in m for m in messages)
    assert "skipped 1 file that is not a document: bin 1" in messages
    assert len(skipped) == len(rest) + 1
    with pytest.raises(ConfigError, match="on_error must be"):
        chunkwise.chunk(tmp_path, on_error="ignore")  # type: ignore[arg-type]


def test_reader_library_errors_are_input_errors_at_the_border(monkeypatch):
    import dataclasses

    from chunkwise.readers import READERS

    def broken(*args, **kwargs):
        raise IndexError("list index out of range")

    monkeypatch.setitem(READERS._items, "markdown", dataclasses.replace(READERS["markdown"],
                                                                        read=broken))
    with pytest.raises(chunkwise.InputError, match=r"x.md: cannot be read as markdown \(IndexError"):
        chunkwise.readers.parse("# x", "x.md", fmt="markdown")


def test_chunk_round_trips_through_dicts_and_kinds_are_checked():
    chunks = chunkwise.chunk(QUAL, strategy="section", size=64, format="markdown", doc_id="q")
    for c in chunks:
        assert chunkwise.Chunk.from_dict(c.to_dict()) == c
        assert c.kind in chunkwise.types.CHUNK_KINDS
    assert [c.prev_id for c in chunks[1:]] == [c.id for c in chunks[:-1]]
    assert [c.next_id for c in chunks[:-1]] == [c.id for c in chunks[1:]]
    assert_invariants(QUAL, chunks, 254, independent_minilm_count())


def test_sink_columns_follow_the_chunk_fields():
    from chunkwise.sinks import arrow_schema
    from chunkwise.types import chunk_fields

    assert arrow_schema().names == [name for name, _ in chunk_fields()]
    assert set(arrow_schema().names) == set(chunkwise.chunk("x y", doc_id="d")[0].to_dict())
