"""The code strategy: definitions from tree-sitter in sixteen languages (issue 9)."""

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import chunkwise
from chunkwise.readers import parse, read_path
from chunkwise.readers.code import find_definitions

from helpers import ROOT, assert_invariants, by_text, check_hierarchy, independent_minilm_count

DATA = ROOT / "tests" / "data" / "code"

EXPECTED = {
    "shop.py": {"Item", "Item.total", "Cart", "Cart.__init__", "Cart.add", "Cart.subtotal",
                "Cart.discount", "Cart.total", "cheapest", "round_up"},
    "shop.ts": {"Item", "Cart", "Cart.constructor", "Cart.add", "Cart.subtotal", "cheapest",
                "Currency"},
    "shop.js": {"Cart", "Cart.constructor", "Cart.add", "cheapest", "double"},
    "shop.go": {"Item", "Cart", "Cart.Add", "Cart.Subtotal", "Describe"},
    "shop.rs": {"Item", "Item.total", "Priced", "Priced.price", "cheapest"},
    "Shop.java": {"Shop", "Shop.Shop", "Shop.add", "Shop.size", "Shop.Listener",
                  "Shop.Listener.changed"},
    "shop.c": {"item", "item_total", "main"},
    "shop.cpp": {"shop", "shop.Cart", "shop.Cart.add", "shop.Cart.size", "main"},
    "Shop.cs": {"Shop", "Shop.Cart", "Shop.Cart.Add"},
    "shop.rb": {"Shop", "Shop.Item", "Shop.Item.initialize", "Shop.Item.total", "Shop.Cart",
                "Shop.Cart.empty", "Shop.Cart.add", "Shop.Cart.<=>", "cheapest"},
    "shop.php": {"Priced", "Item", "Item.__construct", "Item.price", "Discounts",
                 "Discounts.discount", "cheapest"},
    "Shop.kt": {"Item", "Item.total", "Priced", "Priced.price", "Currency", "Cart", "Cart.add",
                "Cart.Companion", "Cart.Companion.empty", "Registry", "Registry.lookup",
                "cheapest"},
    "Shop.swift": {"Item", "Item.init", "Priced", "Priced.price", "Cart", "Cart.add", "Cart.==",
                   "Currency", "cheapest"},
    "shop.scala": {"Item", "Item.total", "Priced", "Priced.price", "Cart", "Cart.add",
                   "Cart.empty", "cheapest"},
    "shop.sh": {"item_total", "add_item", "cheapest"},
    "shop.lua": {"total", "Shop.Cart.new", "Shop.Cart:add", "cheapest"},
}
#: each definition's kind where the grammar's node type does not say it alone
KINDS = {
    "shop.rb": {"Shop": "module", "Shop.Item": "class", "Shop.Cart.empty": "method",
                "cheapest": "function"},
    "shop.php": {"Priced": "interface", "Discounts": "trait", "Item.price": "method"},
    "Shop.kt": {"Priced": "interface", "Currency": "enum", "Cart": "class",
                "Cart.Companion": "object", "Registry": "object", "Item": "class"},
    "Shop.swift": {"Item": "struct", "Priced": "interface", "Currency": "enum",
                   "Item.init": "method"},
    "shop.scala": {"Priced": "trait", "Item": "class", "cheapest": "function"},
}


@pytest.mark.parametrize("name", sorted(KINDS))
def test_each_definition_has_its_kind(name):
    kinds = {b.metadata["symbol"]: b.metadata["kind"] for b in read_path(DATA / name).blocks}
    assert {s: kinds.get(s) for s in KINDS[name]} == KINDS[name]


def test_names_written_as_paths_and_containers_the_grammar_leaves_unnamed():
    """A Swift extension is its type's (``extension Foundation.URL``), a Kotlin
    class's companion object is ``Companion``, Lua's ``function M.a.b()`` and
    ``M:c()`` are named as written, a Ruby class ``Net::HTTP`` is that path, a PHP
    namespace in braces holds its classes (one ending in ``;`` holds nothing) and
    a Bash function written either way is one."""
    def symbols(text, language):
        return [(d.qualname, d.kind) for d in find_definitions(text, language)[0]]

    assert symbols('extension Foundation.URL {\n  func host2() -> String { "" }\n}\n',
                   "swift") == [("Foundation.URL", "extension"),
                                ("Foundation.URL.host2", "method")]
    assert symbols("local M = {}\nfunction M.a.b() end\nfunction M:c() end\n", "lua") == \
        [("M.a.b", "function"), ("M:c", "function")]
    assert symbols("class Net::HTTP\n  def get; end\nend\n", "ruby") == \
        [("Net::HTTP", "class"), ("Net::HTTP.get", "method")]
    assert symbols("<?php\nnamespace App\\Http {\n  class Kernel { function boot() {} }\n}\n",
                   "php") == [("App\\Http", "namespace"), ("App\\Http.Kernel", "class"),
                              ("App\\Http.Kernel.boot", "method")]
    assert symbols("<?php\nnamespace App;\nclass Kernel {}\n", "php") == [("Kernel", "class")]
    assert symbols("f() { :; }\nfunction g { :; }\n", "shell") == \
        [("f", "function"), ("g", "function")]
    assert symbols("class A {\n  companion object {\n    fun make() = A()\n  }\n}\n",
                   "kotlin") == [("A", "class"), ("A.Companion", "object"),
                                 ("A.Companion.make", "method")]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_definitions_in_every_language(name):
    doc = read_path(DATA / name)
    symbols = {b.metadata["symbol"] for b in doc.blocks}
    assert EXPECTED[name] <= symbols, EXPECTED[name] - symbols
    chunks = chunkwise.chunk(DATA / name, strategy="code", size=64)
    text = doc.text
    assert_invariants(text, chunks, 64, independent_minilm_count())
    count = independent_minilm_count()
    for c in chunks:
        # every chunk starts a line, but where its line does not fit the budget beside
        # the chunk's context (path and signature: a clone at a longer path gave shop.php's
        # ``usort(...)`` line 66 tokens with it, so it was cut)
        line_start = text.rfind("\n", 0, c.start) + 1
        line_end = text.find("\n", c.start) % (len(text) + 1)
        assert c.start == 0 or text[c.start - 1] == "\n" or \
            count(c.context + text[line_start:line_end]) > 64, (c.context, c.text)
        assert c.kind == "code" and c.metadata["language"] == doc.metadata["language"]
        first, last = c.metadata["lines"]
        assert text.count("\n", 0, c.start) + 1 == first <= last


def test_a_big_class_is_split_into_methods_with_the_class_in_context():
    path = DATA / "shop.py"
    chunks = chunkwise.chunk(path, strategy="code", size=80)
    methods = [c for c in chunks if c.metadata.get("kind") == "method"
               or any("." in s for s in c.metadata.get("symbols", ()))]
    assert methods
    for c in methods:
        if c.text.startswith(("class Cart:", "class Item:")):
            # the class line opens its first members' piece (not a chunk of its own)
            assert c.metadata["symbols"][0] in ("Cart", "Item"), c.metadata
            continue
        assert c.context.startswith((f"{path} > Cart", f"{path} > Item"))
        assert "class Cart:" in c.context or "class Item:" in c.context
    discount = [c for c in chunks if "def discount" in c.text][0]
    assert discount.metadata == {**discount.metadata, "symbol": "Cart.discount", "kind": "method"}
    # small neighbouring definitions share a chunk
    tail = [c for c in chunks if "def cheapest" in c.text][0]
    assert "def round_up" in tail.text and tail.metadata["symbols"] == ["cheapest", "round_up"]
    # module docstring and imports are kept
    assert chunks[0].text.startswith('"""A small shop module')
    # a class that fits is one chunk (with its neighbours, up to the size)
    whole = chunkwise.chunk(path, strategy="code", size=254)
    item = [c for c in whole if "class Item:" in c.text]
    assert len(item) == 1 and "return self.price * self.quantity" in item[0].text


def test_a_function_too_big_is_cut_at_statements_with_its_signature_in_context():
    body = "\n".join(f"    value_{i} = compute(argument_{i}, other={i})" for i in range(80))
    src = f"def huge(a, b):\n    \"\"\"Do many things.\"\"\"\n{body}\n    return a\n"
    chunks = chunkwise.chunk({"huge.py": src}, strategy="code", code_language="python", size=96)
    assert len(chunks) > 3
    assert chunks[0].text.startswith("def huge(a, b):")
    for c in chunks[1:]:
        assert "def huge(a, b):" in c.context and c.text.startswith("    value_")
        assert c.metadata["symbol"] == "huge" and c.metadata["parts"] == len(chunks)
    assert_invariants(src, chunks, 96, independent_minilm_count())


def test_syntax_errors_and_unknown_languages_still_chunk():
    broken = "def ok():\n    return 1\n\ndef broken(:\n    pass\n\nclass Fine:\n    x = 1\n"
    doc = parse(broken, "b.py", fmt="code")
    assert doc.metadata["syntax_errors"] is True
    chunks = chunkwise.chunk({"b.py": broken}, strategy="code", code_language="python", size=32)
    assert_invariants(broken, chunks, 32)
    perl = "package Cart;\n\nsub add {\n    my ($self, $item) = @_;\n    push @{$self->{items}}, $item;\n}\n\n" * 6
    pchunks = chunkwise.chunk({"cart.pl": perl}, strategy="code", size=40)
    assert len(pchunks) > 1 and all(c.text.strip() for c in pchunks)
    assert_invariants(perl, pchunks, 40)
    with pytest.raises(chunkwise.ConfigError, match="unknown code_language .cobol."):
        chunkwise.get_chunker("code", code_language="cobol")


def test_a_script_in_a_language_without_a_grammar_is_code_not_a_faq(tmp_path):
    """gdb's contrib/ari/gdb_ari.sh.gz and a Perl example of libx11-protocol-perl, as
    Debian installs them, were read as prose: their comments (``# Closing brace
    found?``) made each a FAQ whose one question was the context of over a hundred
    chunks of code. Scripts are code, cut at blank lines and lines."""
    import gzip

    body = "".join(f"# Closing brace found?\nif [ \"$depth{i}\" -eq 0 ]; then\n"
                   f"  echo \"step {i} done\"\n  depth{i}=1\nfi\n\n" for i in range(40))
    for name, language in (("gdb_ari.sh", "shell"), ("widgets2.pl", "perl")):
        (tmp_path / name).write_text(body)
        chunks = chunkwise.chunk(tmp_path / name, size=64)
        assert {c.metadata["strategy"] for c in chunks} == {"code"}, name
        assert {c.metadata["language"] for c in chunks} == {language}
        assert not any("question" in c.metadata for c in chunks)
        assert all(c.start == 0 or body[c.start - 1] == "\n" for c in chunks)  # at lines
    # compressed, by the name inside: a gzipped module keeps its language and definitions
    module = (DATA / "shop.py").read_text()
    (tmp_path / "shop.py.gz").write_bytes(gzip.compress(module.encode()))
    doc = read_path(tmp_path / "shop.py.gz")
    assert doc.metadata["language"] == "python" and doc.blocks
    assert [b.metadata["symbol"] for b in doc.blocks] == \
        [b.metadata["symbol"] for b in read_path(DATA / "shop.py").blocks]


def test_words_before_a_definition_on_its_line_are_its_own():
    """glibc's elf.h writes ``typedef struct`` over its anonymous structs, too big for
    one chunk: the struct starts mid-line, so ``typedef`` was a chunk of its own (7 to
    13 tokens, under ``min_tokens`` with a short path) and the struct's first chunk
    began inside the line. Over the 164 headers of /usr/include and seven packages of
    Python's standard library, chunks starting inside a line 161 -> 6 (comment rules
    longer than a chunk, a member's ``__extension__ union``, a C++ initialiser list)."""
    path = DATA / "elf-excerpt.h"
    text = path.read_text()
    chunks = chunkwise.chunk(path, strategy="code")
    assert_invariants(text, chunks, 160)
    assert not [c.text for c in chunks if c.text.strip() == "typedef"]
    openings = [c for c in chunks if "typedef" in c.text]
    assert len(openings) == 2 and all(c.text.startswith("typedef struct\n{") for c in openings)
    assert all(c.start == 0 or text[c.start - 1] == "\n" for c in chunks)  # at lines


def test_code_works_as_a_child_level():
    text = (DATA / "shop.py").read_text()
    doc = read_path(DATA / "shop.py")
    chunks = chunkwise.chunk(doc, strategy="hierarchical", sizes=[200, 48],
                             strategies=["code", "code"])
    check_hierarchy(text, chunks, (200, 48))
    kids = [c for c in chunks if c.level == 1]
    assert all(c.kind == "code" for c in kids)


def test_a_markdown_code_fence_split_reopens_in_context():
    code = "\n".join(f"    value_{i} = compute_something(argument_{i}, other={i})" for i in range(40))
    text = f"# Guide\n\nIntro.\n\n```python\ndef big():\n{code}\n```\n\nAfter.\n"
    chunks = chunkwise.chunk(text, strategy="section", size=96, format="markdown", doc_id="g")
    parts = [c for c in chunks if c.kind == "code"]
    # (the heading and "Intro.", under min_tokens alone, start the first part)
    assert len(parts) > 2 and parts[0].text.startswith("# Guide\n\nIntro.\n\n```python")
    assert all(c.context.endswith("```python\n") for c in parts[1:])
    assert "After." in parts[-1].text  # (and "After." ends the last)
    assert_invariants(text, chunks, 96, independent_minilm_count())


_IDENT = st.from_regex(r"[a-z][a-z0-9_]{0,8}", fullmatch=True)
_STMT = st.builds(lambda a, b, n: f"{a} = {b}({n})", _IDENT, _IDENT, st.integers(0, 999))


@st.composite
def python_modules(draw):
    parts = []
    for _ in range(draw(st.integers(1, 6))):
        name = draw(_IDENT)
        body = draw(st.lists(_STMT, min_size=1, max_size=30))
        if draw(st.booleans()):
            methods = "\n\n".join(
                f"    def {draw(_IDENT)}(self):\n" + "\n".join(f"        {s}" for s in body)
                for _ in range(draw(st.integers(1, 4))))
            parts.append(f"class {name.title()}:\n{methods}\n")
        else:
            parts.append(f"def {name}():\n" + "\n".join(f"    {s}" for s in body) + "\n")
    return "import os\n\n" + "\n\n".join(parts)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(src=python_modules(), size=st.integers(24, 200))
def test_code_invariants(src, size):
    chunks = chunkwise.chunk({"m.py": src}, strategy="code", code_language="python", size=size)
    assert_invariants(src, chunks, size, independent_minilm_count())
    for prev, c in zip([None, *chunks], chunks):
        line = src.rfind("\n", 0, c.start) + 1
        # a chunk starts a line, unless that line alone is longer than the budget
        assert c.start == line or (prev is not None and prev.end > line)
    assert find_definitions(src, "python")[0]


def test_a_real_module_of_thousands_of_lines_from_the_cli(tmp_path):
    """Issue 9's check: `chunkwise chunk module.py --strategy code` on a real module
    (the standard library's argparse, 2,600 lines): every chunk starts a line and every
    method chunk names its class in context."""
    import argparse
    import inspect
    import json
    from pathlib import Path

    from chunkwise.cli import main

    path = Path(inspect.getsourcefile(argparse))  # type: ignore[arg-type]
    text = path.read_text(encoding="utf-8")
    assert text.count("\n") > 2000
    out = tmp_path / "chunks.jsonl"
    assert main(["chunk", str(path), "--strategy", "code", "-o", str(out)]) == 0
    chunks = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(chunks) > 100
    methods = signed = 0
    for c in chunks:
        assert text[c["start"]:c["end"]] == c["text"]
        assert c["start"] == 0 or text[c["start"] - 1] == "\n"
        symbols = [c["metadata"].get("symbol")] if "symbol" in c["metadata"] else \
            c["metadata"].get("symbols", [])
        owners = {s.split(".")[0] for s in symbols if s and "." in s}
        for owner in owners:
            methods += 1
            if c["text"].startswith(f"class {owner}"):  # the class line opens its first
                signed += 1                              # members' piece
                continue
            assert f"> {owner}" in c["context"], c  # always named
            signed += f"class {owner}" in c["context"]  # its signature where it fits
    assert methods > 100 and signed >= 0.9 * methods, (signed, methods)


def test_an_html_pre_split_names_its_language_in_context():
    code = "\n".join(f"x{i} = compute_value({i}, factor={i * 3})" for i in range(60))
    html = (f"<html><body><main><h1>Guide</h1><p>Run this:</p><pre><code class="
            f"\"language-python\">{code}</code></pre></main></body></html>")
    doc = parse(html, "a.html")
    chunks = chunkwise.chunk({"a.html": html}, format="html", size=64)
    assert_invariants(doc.text, chunks, 64, independent_minilm_count())
    parts = [c for c in chunks if c.kind == "code"]
    assert len(parts) > 2 and all(c.metadata["language"] == "python" for c in parts)
    assert "```python" not in parts[0].context
    assert all(c.context.endswith("```python\n") for c in parts[1:])


@pytest.mark.parametrize("module", ["_pydecimal", "_py_abc", "argparse", "difflib"])
@pytest.mark.parametrize("size", [128, 160])
def test_every_code_chunk_starts_a_line_unless_its_line_cannot_fit(module, size):
    """Real modules of the running Python's standard library (read, not committed):
    a chunk starts inside a line only when that line with the chunk's context is over
    the budget (a comment after a statement is not a cut point)."""
    import importlib

    path = Path(str(importlib.import_module(module).__file__))
    text = path.read_text(encoding="utf-8")
    chunks = chunkwise.chunk(path, strategy="code", size=size)
    tok = chunkwise.get_tokenizer(None)
    assert len(chunks) > 10
    for c in chunks:
        if c.start == 0 or text[c.start - 1] == "\n" or not text[:c.start].strip():
            continue
        if not text[text.rfind("\n", 0, c.start) + 1:c.start].strip():
            continue  # only indentation before it
        line = text[text.rfind("\n", 0, c.start) + 1:text.find("\n", c.start)]
        assert tok.count(c.context + line) > size, (c.start, line, c.text[:40])


@pytest.mark.parametrize("module", ["argparse", "dataclasses", "http/client"])
def test_every_piece_inside_a_class_carries_the_class_in_context(module):
    """The chunk of a class's attributes (after the piece with its class line) carried
    only the file path; every piece inside a class after its first now names it."""
    import sysconfig

    path = Path(sysconfig.get_paths()["stdlib"]) / f"{module}.py"
    doc = read_path(path)
    chunks = chunkwise.chunk(path, "code", size=96)
    classes = [b for b in parse(doc.text, "m.py", fmt="code", doc_id="m.py").blocks
               if b.kind == "code" and b.metadata.get("kind") == "class"]
    assert classes
    checked = 0
    for block in classes:
        name = block.metadata["symbol"].split(".")[-1]
        line_end = doc.text.find("\n", block.start)
        inside = [c for c in chunks if line_end < c.start < block.end]
        for c in inside:
            assert f"> {name}" in c.context or f".{name}" in c.context or name in c.context, \
                (name, c.text[:60], c.context)
            checked += 1
    assert checked > 10


def _signature_alone(c) -> bool:
    """A chunk that is one definition line and nothing of its body."""
    text = c.text.strip()
    return "\n" not in text and text.startswith(("def ", "async def ")) and text.endswith(":")


def test_a_signature_never_stands_alone_before_its_long_docstring():
    """A function whose docstring does not fit beside its signature: the signature
    opens the first piece with the docstring's first lines (before, Requests'
    ``HTTPAdapter.build_response`` was a 56-token chunk of its ``def`` line alone, 6 such
    chunks over the code set); the rest carries the signature in context."""
    for path in sorted((ROOT / "benchmarks" / "code_eval" / "docs").glob("*.py")):
        chunks = chunkwise.chunk(path)
        assert not [c.text for c in chunks if _signature_alone(c)], path.name
    parts = [c for c in chunkwise.chunk(ROOT / "benchmarks" / "code_eval" / "docs" / "adapters.py")
             if c.metadata.get("symbol") == "HTTPAdapter.build_response"]
    assert len(parts) > 2 and parts[0].text.lstrip().startswith("def build_response(")
    assert '"""Builds a :class:`Response' in parts[0].text
    assert all("def build_response(self, req: PreparedRequest, resp: Any) -> Response:"
               in p.context for p in parts[1:])


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc_lines=st.integers(4, 60), body=st.lists(_STMT, min_size=1, max_size=20),
       size=st.integers(40, 200))
def test_a_long_docstring_joins_its_signature(doc_lines, body, size):
    doc = "\n".join(f"    Line {i} of the docstring says something about it." for i in range(doc_lines))
    src = (f"def handler(request, response):\n    \"\"\"Handle it.\n\n{doc}\n    \"\"\"\n"
           + "\n".join(f"    {s}" for s in body) + "\n")
    chunks = chunkwise.chunk({"m.py": src}, strategy="code", code_language="python", size=size)
    assert_invariants(src, chunks, size, independent_minilm_count())
    assert not [c.text for c in chunks if _signature_alone(c)]


def _header_alone(c) -> bool:
    """A chunk that is one class or function header line and nothing of its body."""
    text = c.text.strip()
    return "\n" not in text and text.startswith(("class ", "function ")) \
        and text.endswith((":", "{"))


@pytest.mark.parametrize("size", [128, 160])
def test_a_class_line_is_never_a_chunk_of_its_own(size):
    """Real modules of the standard library (read, not committed) and Express: a class
    whose first method (or, in JavaScript, first inner function) is too big to join its
    header line, or whose docstring follows a blank line, made the line a chunk of its
    own (``class _StoreAction(Action):``, 23 such chunks in these files at 160 tokens,
    10 in httpx's 23 modules). The line now opens the piece of its first members where
    they fit together, or the first lines of its docstring."""
    import sysconfig

    lib = Path(sysconfig.get_paths()["stdlib"])
    files = [lib / name for name in ("argparse.py", "difflib.py", "http/client.py",
                                     "asyncio/base_events.py", "email/message.py",
                                     "logging/__init__.py", "pathlib.py")]
    files.append(ROOT / "benchmarks" / "code_heldout" / "docs" / "express.js")
    tok = independent_minilm_count()
    for path in files:
        text = path.read_text(encoding="utf-8")
        chunks = chunkwise.chunk(path, strategy="code", size=size)
        assert not [c.text for c in chunks if _header_alone(c)], path.name
        for c in chunks:
            assert text[c.start:c.end] == c.text and tok(c.context + c.text) <= size
    express = chunkwise.chunk(files[-1], strategy="code", size=size)
    opened = [c for c in express if c.text.startswith("function createApplication() {")]
    assert len(opened) == 1 and "var app = function(req, res, next) {" in opened[0].text
    assert opened[0].metadata["symbols"][:2] == ["createApplication", "createApplication.app"]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(attrs=st.integers(0, 6), blank=st.booleans(), doc_lines=st.integers(0, 30),
       methods=st.lists(st.lists(_STMT, min_size=8, max_size=25), min_size=1, max_size=4),
       size=st.integers(48, 160))
def test_a_class_line_opens_a_piece_with_more_of_its_class(attrs, blank, doc_lines, methods,
                                                           size):
    doc = ("    \"\"\"The class.\n\n" + "".join(f"    Line {i} of what it does.\n"
                                                 for i in range(doc_lines)) + "    \"\"\"\n"
           if doc_lines else "")
    src = ("import os\n\n\nclass Handler(Base):\n" + ("\n" if blank else "") + doc
           + "".join(f"    field_{i} = {i}\n" for i in range(attrs)) + "\n"
           + "".join(f"    def method_{k}(self, request):\n"
                     + "\n".join(f"        {s}" for s in body) + "\n\n"
                     for k, body in enumerate(methods)))
    chunks = chunkwise.chunk({"m.py": src}, strategy="code", code_language="python", size=size)
    assert_invariants(src, chunks, size, independent_minilm_count())
    assert not [c.text for c in chunks if _header_alone(c)]


@pytest.mark.parametrize("name,text,symbols", [
    # generated code: a 60,000-term sum on one line, then a function
    ("sum.js", "var total = " + "+".join(str(i) for i in range(60_000)) + ";\n"
     "function after() {\n  return total;\n}\n", {"after"}),
    # a literal nested 5,000 deep (generated data), then a function
    ("nested.js", "var data = " + "[" * 5_000 + "1" + "]" * 5_000 + ";\n"
     "function after() {\n  return data;\n}\n", {"after"}),
])
def test_a_file_nested_deeper_than_pythons_stack_is_read(name, text, symbols):
    """Definitions were found by recursion over the syntax tree: a generated file's
    60,000-term sum (a tree that deep) or a literal nested 5,000 deep was refused
    whole as "cannot be read as code: nested too deeply"."""
    doc = parse(text.encode(), name)
    found = {b.metadata["symbol"] for b in doc.blocks}
    assert symbols <= found
    chunks = chunkwise.chunk(doc, strategy="code", size=128)
    assert_invariants(doc.text, chunks, 128)
    assert any("function after()" in c.text for c in chunks)


@pytest.mark.parametrize("name, opening, closing", [
    ("deep.java", "class A {\n", "}\n"), ("deep.rb", "module M\n", "end\n"),
    ("deep.cs", "class A {\n", "}\n")])
def test_classes_nested_thousands_deep_are_chunked_not_a_traceback(tmp_path, name, opening,
                                                                     closing):
    """Generated code nesting classes 3,000 deep ended ``chunkwise chunk`` in a
    RecursionError's traceback (the code strategy opens a class into its members one
    level at a time); definitions deeper than ``MAX_DEPTH`` are their outer
    definition's text, and every character is still chunked."""
    import json

    from chunkwise.cli import main
    from chunkwise.readers.code import MAX_DEPTH

    text = opening * 3000 + "  def f; end\n" + closing * 3000
    (tmp_path / name).write_text(text)
    doc = read_path(tmp_path / name)
    assert doc.blocks and max(b.level or 0 for b in doc.blocks) == MAX_DEPTH - 1
    out = tmp_path / "chunks.jsonl"
    assert main(["chunk", str(tmp_path / name), "--size", "64", "-o", str(out)]) == 0
    chunks = [json.loads(line) for line in out.read_text().splitlines()]
    assert "".join(c["text"] for c in chunks).replace("\n", "") == text.replace("\n", "")


_PIECES = {
    "ruby": ["class C", "module M", "def f(x)", "def self.g", "end", "  @a = 1", "class << self",
             "def <=>(o)", "x.each do |y|", "}", "{", "# note"],
    "php": ["<?php", "class C {", "function f($x) {", "}", "interface I {", "trait T {",
            "namespace N;", "namespace N {", "public function m(): int {", "$a = 1;", "?>", "<p>"],
    "kotlin": ["class C {", "fun f(x: Int) {", "}", "object O {", "companion object {",
               "interface I {", "enum class E { A }", "val x = 1", "data class D(val a: Int)"],
    "swift": ["struct S {", "class C {", "func f() {", "}", "extension S {", "init() {",
              "protocol P {", "enum E { case a }", "let x = 1", "static func ==(a: S, b: S) -> Bool {"],
    "scala": ["class C {", "object O {", "def f(x: Int) = {", "}", "trait T {", "case class K(a: Int)",
              "val x = 1", "def +(o: C) = this"],
    "shell": ["f() {", "function g {", "}", "echo hi", "if [ -n x ]; then", "fi", "# c", "done"],
    "lua": ["function f()", "local function g()", "end", "function M.a:b()", "x = 1", "do",
            "function M.c()", "return x"],
}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(language=st.sampled_from(sorted(_PIECES)), data=st.data(), size=st.integers(24, 160))
def test_any_text_in_the_new_languages_reads_and_chunks(language, data, size):
    """Lines of a language's definitions and blocks in any order, balanced or not:
    every definition lies inside the text and inside its parent, and the chunks keep
    the engine's invariants."""
    lines = data.draw(st.lists(st.sampled_from(_PIECES[language]), max_size=60))
    src = "\n".join(lines) + "\n"
    defs, _ = find_definitions(src, language)
    for d in defs:
        assert 0 <= d.start <= d.header_end <= d.end <= len(src)
        if d.parent is not None:
            outer = defs[d.parent]
            assert outer.start <= d.start and d.end <= outer.end
    chunks = chunkwise.chunk(chunkwise.Document(src, doc_id="x"), strategy="code",
                             code_language=language, size=size)
    assert_invariants(src, chunks, size, independent_minilm_count())


def test_a_signature_in_context_holds_no_comments():
    """A member's context shows its class's signature and a cut function's pieces
    their function's: without the comments tree-sitter counts in the header (the
    comments opening Ruby's ``module Sinatra``, a KDoc inside a Kotlin primary
    constructor, the comment that opens a Python body: ``def __init__(self) -> None:
    #: A case-insensitive dictionary ...`` was Requests' ``Session.__init__``'s
    signature in context)."""
    methods = "\n\n".join(f"    def method_{i}(x)\n      x + {i}\n    end" for i in range(30))
    ruby = f"module Shop\n  # The shop's module: see the guide.\n  class Cart\n{methods}\n  end\nend\n"
    kotlin = ("class Throttler internal constructor(\n  /** The nanoTime consumed up to. */\n"
              "  private var allocatedUntil: Long,\n) {\n" +
              "\n".join(f"  fun step{i}(): Long = allocatedUntil + {i}" for i in range(40)) + "\n}\n")
    body = "\n".join(f"    value_{i} = compute(argument_{i})" for i in range(60))
    python = f"def huge(a):  # the long one\n    # first, the values\n{body}\n    return a\n"
    for name, text, language, comment in (("shop.rb", ruby, "ruby", "guide"),
                                          ("Throttler.kt", kotlin, "kotlin", "nanoTime"),
                                          ("huge.py", python, "python", "values")):
        chunks = chunkwise.chunk(chunkwise.Document(text, doc_id=name), strategy="code",
                                 code_language=language, size=64)
        assert len(chunks) > 2, name
        assert all(comment not in c.context and "#" not in c.context.split("\n", 1)[-1]
                   for c in chunks), [c.context for c in chunks]
        assert any(("class Cart" in c.context or "class Throttler" in c.context
                    or "def huge(a):" in c.context) for c in chunks), name
        assert_invariants(text, chunks, 64, independent_minilm_count())


def test_a_line_too_long_beside_the_signature_stays_whole_with_the_trail_alone():
    """In a clone at a longer path, ``cheapest``'s ``usort(...)`` line beside the
    path and the function's signature was 66 tokens of 64, so it was cut inside
    (``... <=> $b->price`` | ``());``); the pieces of that function now carry the
    trail alone (``path > cheapest``) where that keeps every line whole."""
    text = (DATA / "shop.php").read_text(encoding="utf-8")
    source = "/tmp/s51/ci/tests/data/code/shop.php"
    chunks = chunkwise.chunk({source: text}, strategy="code", size=64, format="code")
    assert_invariants(text, chunks, 64, independent_minilm_count())
    assert all(c.start == 0 or text[c.start - 1] == "\n" for c in chunks), \
        [c.text for c in chunks if c.start and text[c.start - 1] != "\n"]
    usort = by_text(chunks, "usort($items")[0]
    assert usort.context == source + " > cheapest\n"
    assert "    usort($items, fn($a, $b) => $a->price() <=> $b->price());" in usort.text


def test_an_svg_in_source_code_is_code_not_an_image_left_out(tmp_path):
    """An inline SVG drawing is data in no chunk in a document (an MDX card's logo), but
    a component's SVG in a source file is its code: every character is in a chunk."""
    path = "M12 2C6.48 2 2 6.48 2 12s4.48 10 10 10 10-4.48 10-10S17.52 2 12 2z" * 6
    text = ('import React from "react";\n\n/** The gear icon of the settings menu. */\n'
            "export function GearIcon() {\n  return (\n    <svg viewBox=\"0 0 24 24\">\n"
            f'      <path d="{path}" />\n    </svg>\n  );\n}}\n')
    (tmp_path / "icon.tsx").write_text(text, encoding="utf-8")
    chunks = chunkwise.chunk(tmp_path / "icon.tsx")
    assert {c.metadata["strategy"] for c in chunks} == {"code"}
    assert_invariants(text, chunks, 254)
    covered = "".join(text[c.start:c.end] for c in chunks)
    assert path[100:200] in covered and "<svg" in covered and "</svg>" in covered
