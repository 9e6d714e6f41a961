"""The package's floors stay strict: read from the imports of ``src/`` (lazy imports and
``TYPE_CHECKING`` imports count), no import loop, no import from a lower floor to a
higher one, no private name taken from another module, no function too long to read,
and a command line of small modules."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "chunkwise"

#: bottom to top; a module may import its own floor (without a loop) and the floors below
FLOORS: list[tuple[str, ...]] = [
    # the ground: data types, errors, ids, the registry type, where caches live
    ("chunkwise.types", "chunkwise.errors", "chunkwise.ids", "chunkwise.registry",
     "chunkwise.cache", "chunkwise.filters"),
    # counting tokens and reading formats; the options every strategy shares; sinks;
    # boilerplate across a corpus's chunks
    ("chunkwise.tokens", "chunkwise.config", "chunkwise.readers", "chunkwise.readers.*",
     "chunkwise.sinks", "chunkwise.view", "chunkwise.boilerplate"),
    # the packing engine and its levels; embedding models; index stores
    ("chunkwise.engine", "chunkwise.levels", "chunkwise.embed", "chunkwise.minilm", "chunkwise.index",
     "chunkwise.index.*"),
    # strategies; LLM providers; retrieval (dense, BM25, hybrid) over chunks and stores
    ("chunkwise.strategies", "chunkwise.strategies.*", "chunkwise.llm", "chunkwise.retrieval"),
    # what runs strategies: enrichers, the evaluation, runners, the strategy factory
    ("chunkwise.contextual", "chunkwise.eval", "chunkwise.eval.*", "chunkwise.parallel",
     "chunkwise.stream", "chunkwise.ray", "chunkwise.factory"),
    # the library's entry points, and adapters for other frameworks
    ("chunkwise.api", "chunkwise.questions", "chunkwise.tune", "chunkwise.adapters",
     "chunkwise.adapters.*"),
    # the faces: the package's namespace, the command line
    ("chunkwise", "chunkwise.cli", "chunkwise.cli.*", "chunkwise.serve", "chunkwise.mcp"),
]

#: functions allowed past MAX_FUNCTION_LINES, each a parser's state machine
LONG_FUNCTIONS = {
    "chunkwise.readers.markdown_py.parse_markdown": "the line-by-line Markdown state machine",
    "chunkwise.readers.markdown.parse_markdown": "one walk over markdown-it's block tokens",
    "chunkwise.readers.pdf.parse_pdf": "one walk over a PDF's pages, lines and tables",
    "chunkwise.readers.code.find_definitions": "one walk over a tree-sitter syntax tree",
    "chunkwise.strategies.legal.find_clauses": "the clause-numbering state machine",
    "chunkwise.strategies.jsondoc._units": "one walk over a JSON value's tree",
}
MAX_FUNCTION_LINES = 60
MAX_CLI_MODULE_LINES = 200


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def floor_of(module: str) -> int:
    for level, patterns in enumerate(FLOORS):
        for pattern in patterns:
            if module == pattern or (pattern.endswith(".*")
                                     and module.startswith(pattern[:-1])):
                return level
    raise AssertionError(f"{module} is on no floor: add it to FLOORS in {__file__}")


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base.pop()
    if node.level > 1:
        base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports(module: str) -> list[tuple[str, str | None, int]]:
    """(imported module, name taken from it or None, line) for every import in
    ``module``, wherever it stands (top level, function body, TYPE_CHECKING)."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: list[tuple[str, str | None, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend((a.name, None, node.lineno) for a in node.names
                       if a.name.split(".")[0] == "chunkwise")
        elif isinstance(node, ast.ImportFrom):
            target = _resolve(module, path.name == "__init__.py", node)
            if target.split(".")[0] != "chunkwise":
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                if sub in MODULES:  # ``from . import chunk``: the submodule itself
                    out.append((sub, None, node.lineno))
                else:
                    out.append((target, alias.name, node.lineno))
    return out


def graph() -> dict[str, set[str]]:
    return {m: {t for t, _, _ in imports(m) if t in MODULES and t != m} for m in MODULES}


def loops(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_every_module_is_on_a_floor():
    for module in MODULES:
        floor_of(module)


def test_no_import_loop():
    assert loops(graph()) == []


def test_the_loop_finder_finds_a_loop():
    assert loops({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert loops({"a": {"b"}, "b": set()}) == []


def test_no_import_runs_back_up():
    upward = [f"{m} (floor {floor_of(m)}) imports {t} (floor {floor_of(t)})"
              for m, targets in graph().items() for t in sorted(targets)
              if floor_of(t) > floor_of(m)]
    assert upward == []


def test_no_private_name_crosses_a_module():
    crossing = [f"{m}:{line} takes {name} from {target}"
                for m in MODULES for target, name, line in imports(m)
                if name is not None and name.startswith("_") and not name.startswith("__")
                and target != m]
    assert crossing == []


def test_no_private_attribute_of_another_module():
    """``from . import x`` then ``x._private``: a private name reached through the module."""
    found = []
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        aliases = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                target = _resolve(module, path.name == "__init__.py", node)
                for a in node.names:
                    if f"{target}.{a.name}" in MODULES:
                        aliases[a.asname or a.name] = f"{target}.{a.name}"
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id in aliases and node.attr.startswith("_")
                    and not node.attr.startswith("__")):
                found.append(f"{module}:{node.lineno} {node.value.id}.{node.attr}")
    assert found == []


def test_functions_are_short_except_parsers_state_machines():
    long = []
    seen = set()
    for module, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                assert node.end_lineno is not None
                lines = node.end_lineno - node.lineno + 1
                name = f"{module}.{node.name}"
                if lines > MAX_FUNCTION_LINES:
                    seen.add(name)
                    if name not in LONG_FUNCTIONS:
                        long.append(f"{name}: {lines} lines")
    assert long == []
    assert set(LONG_FUNCTIONS) <= seen, "a listed function is short now: take it off the list"


def test_command_line_modules_are_small():
    big = {m: n for m, p in MODULES.items() if floor_of(m) == len(FLOORS) - 1
           and m.startswith("chunkwise.cli")
           and (n := len(p.read_text(encoding="utf-8").splitlines())) >= MAX_CLI_MODULE_LINES}
    assert big == {}


@pytest.mark.parametrize("bad, expected", [
    ({"chunkwise.types": {"chunkwise.api"}}, "runs back up"),
])
def test_the_floor_rule_catches_an_upward_import(bad, expected):
    edges = bad
    upward = [(m, t) for m, ts in edges.items() for t in ts if floor_of(t) > floor_of(m)]
    assert upward == [("chunkwise.types", "chunkwise.api")], expected
