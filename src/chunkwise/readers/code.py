"""Source code: the file as read, plus its definitions found by tree-sitter with the
per-language grammar wheels (Python, JavaScript, TypeScript/TSX, Go, Rust, Java,
C, C++, C#, Ruby, PHP, Kotlin, Swift, Scala, shell (Bash), Lua).

Each definition (class, function, method, struct, interface, impl, ...) becomes
a ``code`` block: its span from its first decorator or export keyword to its
end, its qualified name (``Outer.Inner.method``) as the heading trail, and in
``metadata`` the language, symbol, kind, 1-based line range, the span of its
header (the signature, up to its body) and its parent's index. A file with
syntax errors still parses (tree-sitter recovers) and yields the definitions it
can see; a language without a grammar installed yields none, and the ``code``
strategy then cuts at blank lines.
"""

from __future__ import annotations

import importlib
from bisect import bisect_right
from dataclasses import dataclass, field
from pathlib import Path as _Path
from types import MappingProxyType
from typing import Any

import numpy as np

from ..types import Block, Document
from .reader import Reader

#: file extension -> language
EXTENSIONS = {
    ".py": "python", ".pyi": "python",
    ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascript",
    ".ts": "typescript", ".mts": "typescript", ".cts": "typescript", ".tsx": "tsx",
    ".go": "go", ".rs": "rust", ".java": "java",
    ".c": "c", ".h": "c",
    ".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".hpp": "cpp", ".hh": "cpp", ".hxx": "cpp",
    ".cs": "c_sharp",
    ".rb": "ruby", ".rake": "ruby", ".gemspec": "ruby",
    ".php": "php", ".kt": "kotlin", ".kts": "kotlin", ".swift": "swift",
    ".scala": "scala", ".sc": "scala",
    ".sh": "shell", ".bash": "shell", ".zsh": "shell", ".lua": "lua",
}
LANGUAGES = tuple(sorted(set(EXTENSIONS.values())))
#: source files in languages without a grammar here: code all the same, cut at blank
#: lines and lines (read as prose, a Perl or shell script's comments, ``# Closing brace
#: found?``, made it a FAQ of one question over a hundred chunks of code)
SCRIPTS = {".pl": "perl", ".pm": "perl", ".tcl": "tcl", ".awk": "awk", ".ps1": "powershell"}

#: language -> (grammar module, function returning the language)
_GRAMMARS = {
    "python": ("tree_sitter_python", "language"),
    "javascript": ("tree_sitter_javascript", "language"),
    "typescript": ("tree_sitter_typescript", "language_typescript"),
    "tsx": ("tree_sitter_typescript", "language_tsx"),
    "go": ("tree_sitter_go", "language"),
    "rust": ("tree_sitter_rust", "language"),
    "java": ("tree_sitter_java", "language"),
    "c": ("tree_sitter_c", "language"),
    "cpp": ("tree_sitter_cpp", "language"),
    "c_sharp": ("tree_sitter_c_sharp", "language"),
    "ruby": ("tree_sitter_ruby", "language"),
    "php": ("tree_sitter_php", "language_php"),  # (HTML around <?php ... ?> as text)
    "kotlin": ("tree_sitter_kotlin", "language"),
    "swift": ("tree_sitter_swift", "language"),
    "scala": ("tree_sitter_scala", "language"),
    "shell": ("tree_sitter_bash", "language"),  # (zsh's syntax is near enough)
    "lua": ("tree_sitter_lua", "language"),
}

_JS_DEFS = {"class_declaration": "class", "class": "class", "function_declaration": "function",
            "generator_function_declaration": "function", "method_definition": "method"}
_TS_DEFS = {**_JS_DEFS, "abstract_class_declaration": "class",
            "interface_declaration": "interface", "type_alias_declaration": "type",
            "enum_declaration": "enum", "module": "module", "internal_module": "module"}
#: node types that are definitions, and their kind
DEFINITIONS: dict[str, dict[str, str]] = {
    "python": {"class_definition": "class", "function_definition": "function"},
    "javascript": _JS_DEFS,
    "typescript": _TS_DEFS,
    "tsx": _TS_DEFS,
    "go": {"function_declaration": "function", "method_declaration": "method",
           "type_declaration": "type"},
    "rust": {"function_item": "function", "function_signature_item": "function",
             "impl_item": "impl", "struct_item": "struct",
             "enum_item": "enum", "trait_item": "trait", "mod_item": "module",
             "macro_definition": "macro"},
    "java": {"class_declaration": "class", "interface_declaration": "interface",
             "enum_declaration": "enum", "record_declaration": "class",
             "annotation_type_declaration": "interface", "method_declaration": "method",
             "constructor_declaration": "method"},
    "c": {"function_definition": "function", "struct_specifier": "struct",
          "enum_specifier": "enum", "union_specifier": "struct"},
    "cpp": {"function_definition": "function", "class_specifier": "class",
            "struct_specifier": "struct", "enum_specifier": "enum",
            "namespace_definition": "namespace"},
    "c_sharp": {"class_declaration": "class", "interface_declaration": "interface",
                "struct_declaration": "struct", "enum_declaration": "enum",
                "record_declaration": "class", "namespace_declaration": "namespace",
                "method_declaration": "method", "constructor_declaration": "method",
                "property_declaration": "property"},
    # (class << self is no definition: its methods are its class's)
    "ruby": {"class": "class", "module": "module", "method": "function",
             "singleton_method": "method"},
    "php": {"class_declaration": "class", "interface_declaration": "interface",
            "trait_declaration": "trait", "enum_declaration": "enum",
            "namespace_definition": "namespace", "function_definition": "function",
            "method_declaration": "method"},
    # (class_declaration is also an interface or an enum: _refined_kind)
    "kotlin": {"class_declaration": "class", "object_declaration": "object",
               "companion_object": "object", "function_declaration": "function",
               "secondary_constructor": "method", "type_alias": "type"},
    # (class_declaration is also a struct, an enum, an extension, an actor: its
    # declaration_kind says)
    "swift": {"class_declaration": "class", "protocol_declaration": "interface",
              "function_declaration": "function", "protocol_function_declaration": "method",
              "init_declaration": "method", "deinit_declaration": "method",
              "subscript_declaration": "method", "typealias_declaration": "type"},
    "scala": {"class_definition": "class", "object_definition": "object",
              "trait_definition": "trait", "enum_definition": "enum",
              "function_definition": "function", "function_declaration": "function",
              "type_definition": "type"},
    "shell": {"function_definition": "function"},
    "lua": {"function_declaration": "function"},
}
#: definitions whose grammar gives them no name (``init`` in Swift, a Kotlin class's
#: companion object)
_FIXED_NAMES = {"init_declaration": "init", "deinit_declaration": "deinit",
                "subscript_declaration": "subscript", "secondary_constructor": "constructor",
                "companion_object": "Companion"}
#: a name written as a path (Lua's ``function M.helpers.load()``, ``function M:draw()``;
#: Ruby's ``class Net::HTTP``; PHP's ``namespace App\Http``; Swift's ``extension
#: Foundation.URL``) is the path as written
_PATH_NAMES = {"dot_index_expression", "method_index_expression", "scope_resolution",
               "namespace_name", "user_type"}
#: languages where a container kind without a body is no definition (C's ``struct item
#: x;``, PHP's ``namespace App;``)
_BODY_NEEDED = {"c", "php"}
#: definitions nested deeper than this are their outer definition's text (generated
#: code nests classes thousands deep; no hand-written code nears it), so that the code
#: strategy, which opens definitions into their members one level at a time, stays
#: within Python's stack: a class nested 3,000 deep ended ``chunkwise chunk`` in a
#: RecursionError's traceback
MAX_DEPTH = 48
#: kinds that contain other definitions (their members become methods)
CONTAINERS = {"class", "interface", "struct", "impl", "trait", "module", "namespace", "enum",
              "object", "extension", "actor"}
#: wrappers whose span (decorators, export, template) belongs to the definition inside
_WRAPPERS = {"decorated_definition", "export_statement", "template_declaration"}
_NAME_TYPES = {"identifier", "type_identifier", "field_identifier", "property_identifier",
               "qualified_identifier", "destructor_name", "operator_name", "scoped_identifier",
               "namespace_identifier", "name", "constant", "simple_identifier", "word"}


def grammar(language: str) -> Any:
    """The tree-sitter Language of a grammar wheel, or None when it is not installed."""
    spec = _GRAMMARS.get(language)
    if spec is None:
        return None
    try:
        from tree_sitter import Language

        module = importlib.import_module(spec[0])
        return Language(getattr(module, spec[1])())
    except (ImportError, AttributeError, ValueError):
        return None


@dataclass
class Definition:
    start: int  # characters, decorators and export keyword included
    end: int
    header_end: int  # where the body starts (the signature ends)
    name: str
    qualname: str
    kind: str
    depth: int
    parent: int | None
    children: list[int] = field(default_factory=list)
    statements: tuple[int, ...] = ()  # starts of the statements of its body
    #: the header as its members' context shows it (:func:`_signature`)
    signature: str | None = None


class _Offsets:
    """Byte offsets of the UTF-8 text tree-sitter parsed -> character offsets."""

    def __init__(self, text: str):
        raw = np.frombuffer(text.encode("utf-8", "surrogatepass"), dtype=np.uint8)
        self.ascii = len(raw) == len(text)
        if not self.ascii:
            self.char_of_byte = np.append(np.cumsum((raw & 0xC0) != 0x80) - 1, len(text))

    def __call__(self, byte: int) -> int:
        return byte if self.ascii else int(self.char_of_byte[byte])


def _name_of(node: Any, text: bytes) -> str:
    for key in ("name", "declarator", "type"):
        child = node.child_by_field_name(key)
        depth = 0
        while child is not None and depth < 8:
            if child.type in _NAME_TYPES or child.type in _PATH_NAMES:
                return str(child.text.decode("utf-8", "replace"))
            nxt = child.child_by_field_name("declarator") or child.child_by_field_name("name")
            if nxt is None:
                named = [c for c in child.named_children if c.type in _NAME_TYPES]
                nxt = named[0] if named else None
            child, depth = nxt, depth + 1
    if node.type == "variable_declarator":
        child = node.child_by_field_name("name")
        if child is not None:
            return str(child.text.decode("utf-8", "replace"))
    if node.type in _FIXED_NAMES:
        return _FIXED_NAMES[node.type]
    said = node.child_by_field_name("name")  # an operator: Ruby's ``def <=>``, Swift's ``==``
    if said is not None and said.end_byte - said.start_byte <= 40 and b"\n" not in said.text:
        return str(said.text.decode("utf-8", "replace"))
    named = [c for c in node.named_children if c.type in _NAME_TYPES]  # (no name field)
    return str(named[0].text.decode("utf-8", "replace")) if named else "<anonymous>"


def _refined_kind(node: Any, kind: str, language: str) -> str:
    """The kind of a Kotlin or Swift declaration that the node's type leaves open: a
    Kotlin ``class_declaration`` is an interface (its keyword) or an enum (its
    modifier); a Swift one is whatever its ``declaration_kind`` says (struct, enum,
    extension, actor)."""
    if language == "swift":
        said = node.child_by_field_name("declaration_kind")
        word = said.type if said is not None else kind
        return {"struct": "struct", "enum": "enum", "extension": "extension",
                "actor": "actor"}.get(word, kind)
    if language == "kotlin" and node.type == "class_declaration":
        for child in node.children:
            if child.type == "interface":
                return "interface"
            if child.type == "modifiers" and any(
                    m.type == "class_modifier" and m.text == b"enum" for m in child.children):
                return "enum"
    return kind


def _first(node: Any, types: set[str]) -> Any:
    """The first descendant (preorder) of one of the types."""
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type in types:
            return n
        stack.extend(reversed(n.named_children))
    return None


def _go_name(node: Any, data: bytes) -> str | None:
    if node.type == "method_declaration":
        receiver = node.child_by_field_name("receiver")
        recv = _first(receiver, {"type_identifier"}) if receiver is not None else None
        name = node.child_by_field_name("name")
        if recv is not None and name is not None:
            return f"{recv.text.decode('utf-8', 'replace')}.{name.text.decode('utf-8', 'replace')}"
    if node.type == "type_declaration":
        spec = _first(node, {"type_spec", "type_alias"})
        name = spec.child_by_field_name("name") if spec is not None else None
        if name is not None:
            return str(name.text.decode("utf-8", "replace"))
    return None


def _signature(data: bytes, outer: Any, node: Any, body: Any) -> str | None:
    """A definition's signature for its members' context: its header (decorators and
    export keyword included) without comments, spaces collapsed; None where it has no
    body (the whole definition is its header). A header's comments are no signature:
    the comments tree-sitter leaves between Ruby's ``module Sinatra`` and its body, a
    KDoc inside a Kotlin primary constructor (~20 tokens of every member's context)."""
    if body is None:
        return None
    cut = body.start_byte
    parts = [c for c in node.children if c.end_byte <= cut]
    while parts and "comment" in parts[-1].type:
        parts.pop()
    end = parts[-1].end_byte if parts else cut
    comments: list[tuple[int, int]] = []
    stack = list(parts)
    while stack:
        n = stack.pop()
        if "comment" in n.type:
            comments.append((n.start_byte, n.end_byte))
        elif n.start_byte < end:
            stack.extend(n.children)
    pos, out = outer.start_byte, []
    for a, b in sorted(comments):
        out.append(data[pos:a])
        pos = max(pos, b)
    out.append(data[pos:end])
    return " ".join(b" ".join(out).decode("utf-8", "replace").split())


def find_definitions(text: str, language: str) -> tuple[list[Definition], bool]:
    """The definitions of a source text, outermost first in document order, and
    whether the parse had errors."""
    lang = grammar(language)
    if lang is None:
        return [], False
    from tree_sitter import Parser

    data = text.encode("utf-8", "surrogatepass")
    if data.startswith(b"\xef\xbb\xbf"):  # a byte-order mark: three spaces to the grammar
        data = b"   " + data[3:]  # (its bytes, so that offsets stay; it broke the parse)
    tree = Parser(lang).parse(data)
    types = DEFINITIONS.get(language, {})
    offsets = _Offsets(text)
    defs: list[Definition] = []

    def arrow_name(node: Any) -> str | None:
        """``const f = (...) => {...}`` and ``const f = function () {}``: a function."""
        if node.type not in ("lexical_declaration", "variable_declaration"):
            return None
        for decl in node.named_children:
            value = decl.child_by_field_name("value") if decl.type == "variable_declarator" else None
            if value is not None and value.type in ("arrow_function", "function_expression",
                                                    "function"):
                return _name_of(decl, data)
        return None

    def definition(child: Any, kind: str, name: str | None, parent: int | None, wrapper: Any,
                   depth: int) -> tuple[int, Any]:
        """A definition's entry (its index) and the node whose children are inside it."""
        outer = wrapper or child
        body = child.child_by_field_name("body")
        if body is None:
            named = [c for c in child.named_children if c.type.endswith(("body", "block",
                                                                         "list"))]
            body = named[-1] if named and named[-1].type not in _NAME_TYPES else None
        name = name or (_go_name(child, data) if language == "go" else None) or \
            _name_of(child, data)
        if kind == "function" and parent is not None and defs[parent].kind in CONTAINERS:
            kind = "method"
        qual = f"{defs[parent].qualname}.{name}" if parent is not None else name
        start, end = offsets(outer.start_byte), offsets(child.end_byte if outer is child
                                                        else outer.end_byte)
        header_end = offsets(body.start_byte) if body is not None else end
        statements = tuple(offsets(c.start_byte) for c in body.named_children) \
            if body is not None else ()
        defs.append(Definition(start, end, header_end, name, qual, kind, depth, parent,
                               statements=statements,
                               signature=_signature(data, outer, child, body)))
        if parent is not None:
            defs[parent].children.append(len(defs) - 1)
        return len(defs) - 1, body if body is not None else child

    # preorder over the tree with a stack of the nodes being walked (not Python's own
    # stack: a generated file's 60,000-term sum or a literal nested 5,000 deep is that
    # deep, and the whole file was refused as "nested too deeply")
    stack: list[tuple[Any, int | None, Any, int]] = [
        (iter(tree.root_node.named_children), None, None, 0)]
    while stack:
        children, parent, wrapper, depth = stack[-1]
        child = next(children, None)
        if child is None:
            stack.pop()
            continue
        kind = types.get(child.type)
        if kind is not None and language in ("kotlin", "swift"):
            kind = _refined_kind(child, kind, language)
        name = None
        if kind is None and language in ("javascript", "typescript", "tsx"):
            name = arrow_name(child)
            kind = "function" if name else None
        if child.type in _WRAPPERS and kind is None:
            stack.append((iter(child.named_children), parent, wrapper or child, depth))
        elif kind is None or depth >= MAX_DEPTH or (
                language in _BODY_NEEDED and kind != "function" and
                child.child_by_field_name("body") is None):
            stack.append((iter(child.named_children), parent, None, depth))
        else:
            index, inside = definition(child, kind, name, parent, wrapper, depth)
            stack.append((iter(inside.named_children), index, None, depth + 1))
    return defs, bool(tree.root_node.has_error)


def parse_code(text: str, doc_id: str, source: str | None = None,
               language: str | None = None) -> Document:
    """A source file: its text, and a ``code`` block per definition."""
    language = language or "text"
    defs, errors = find_definitions(text, language)
    line_starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]

    def line_of(pos: int) -> int:
        return bisect_right(line_starts, pos)

    blocks = []
    for i, d in enumerate(defs):
        trail = []
        p: int | None = i
        while p is not None:
            trail.append(defs[p].name)
            p = defs[p].parent
        blocks.append(Block("code", d.start, d.end, tuple(reversed(trail)), level=d.depth,
                            metadata=MappingProxyType({
                                "language": language, "symbol": d.qualname, "kind": d.kind,
                                "lines": (line_of(d.start), line_of(max(d.start, d.end - 1))),
                                "header": (d.start, d.header_end), "parent": d.parent,
                                **({"signature": d.signature} if d.signature is not None
                                   else {}),
                                "children": tuple(d.children), "definition": i,
                                "statements": d.statements})))
    metadata: dict[str, Any] = {"format": "code", "language": language}
    if errors:
        metadata["syntax_errors"] = True
    return Document(text=text, doc_id=doc_id, source=source, blocks=tuple(blocks),
                    metadata=metadata)


def _read_code(text: str, doc_id: str, source: str) -> Document:
    # (a compressed file's language by its name inside: shop.py.gz)
    suffix = _Path(source.lower().removesuffix(".gz")).suffix
    return parse_code(text, doc_id, source, language=EXTENSIONS.get(suffix) or SCRIPTS.get(suffix))


CODE = Reader(_read_code, (*EXTENSIONS, *SCRIPTS))
