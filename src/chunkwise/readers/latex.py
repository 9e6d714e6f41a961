"""LaTeX (``.tex``, ``.ltx``, ``.latex``): sectioning commands as headings
(``\\part`` .. ``\\subparagraph``, starred or with a short title; their titles as
text, ``\\section{The \\emph{best} way}`` -> ``The best way``), the abstract a section
of its own, tables (a ``tabular`` and what holds it, a ``table`` with its caption:
rows at ``\\\\``, cells at ``&``, rules left out, the rows above the first
``\\midrule`` or ``\\hline`` the header), ``verbatim``, ``lstlisting`` and ``minted``
as code, list items, a display (``equation``, ``figure``, ``algorithm``, a theorem) a
block each, and paragraphs at blank lines. The preamble (to ``\\begin{document}``)
is a front-matter block, its chunks apart from the body's; the title, author and date
are the document's metadata. Offsets into the file. Read as plain text, a paper had
no heading and a table's rows could be parted from its header.

The skeleton (comments, ``\\verb``, environments, sectioning commands and their
arguments) is found by one regular-expression scan: pylatexenc's parser reads a
character at a time (~1 s for a 50 kB paper); pylatexenc turns the small pieces
(a title, a cell) into text."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from ..types import Block, Document
from .reader import Reader
from .structure import FRONT_MATTER_HELD, HeadingTrail, stripped, table_block

#: sectioning commands, outermost first
_SECTIONS = {"part": 0, "chapter": 1, "section": 2, "subsection": 3, "subsubsection": 4,
             "paragraph": 5, "subparagraph": 6}
#: environments whose body is not LaTeX (read to their ``\end`` as written)
_CODE = frozenset(("verbatim", "verbatim*", "Verbatim", "Verbatim*", "BVerbatim", "LVerbatim",
                   "lstlisting", "minted", "alltt", "spverbatim", "comment"))
_TABULAR = frozenset(("tabular", "tabular*", "tabularx", "tabulary", "longtable", "longtable*",
                      "supertabular", "xtabular", "tblr", "longtblr"))
_LISTS = frozenset(("itemize", "enumerate", "description", "thebibliography", "compactitem",
                    "compactenum", "asparaitem", "asparaenum"))
#: what holds a tabular (with its caption and notes) and is the table's block with it
_TABLE_HOLDERS = frozenset(("table", "table*", "sidewaystable", "sidewaystable*", "threeparttable",
                            "center", "flushleft", "flushright", "adjustbox", "landscape",
                            "minipage", "wraptable"))
#: environments read as one block (a display), unless a table is inside
_DISPLAYS = frozenset(("equation", "equation*", "align", "align*", "gather", "gather*",
                       "multline", "multline*", "eqnarray", "eqnarray*", "displaymath", "math",
                       "flalign", "flalign*", "alignat", "alignat*", "figure", "figure*",
                       "wrapfigure", "subfigure", "algorithm", "algorithm*", "algorithmic",
                       "tikzpicture", "picture", "lemma", "theorem", "proposition",
                       "corollary", "definition", "remark", "example"))
_EVENT = re.compile(
    r"%|\\(?:(begin|end)[ \t]*\{([^{}\n]*)\}"
    r"|(part|chapter|section|subsection|subsubsection|paragraph|subparagraph)(?![A-Za-z@])"
    r"|(title|author|date)(?![A-Za-z@])|(item|bibitem)(?![A-Za-z@])|(verb)(?![A-Za-z@])\*?|.)",
    re.DOTALL)
#: inside a tabular: what nests (environments, groups), what ends a row or a cell
_CELL_EVENT = re.compile(r"%|\\(?:(begin)[ \t]*\{[^{}\n]*\}|(end)[ \t]*\{[^{}\n]*\}|(\\)"
                         r"|(tabularnewline)(?![A-Za-z])|.)"
                         r"|([{}])|(&)", re.DOTALL)
#: rules between rows, with their arguments
_RULE = re.compile(r"(?:\s|%[^\n]*\n?)*\\(hline|toprule|midrule|bottomrule|cline|cmidrule|hhline"
                   r"|specialrule|addlinespace|morecmidrules|noalign|endhead|endfirsthead|endfoot"
                   r"|endlastfoot)(?![A-Za-z])(?:\s*\([^()\n]*\))?(?:\s*\[[^\]\n]*\])?"
                   r"(?:\s*\{[^{}\n]*\})*")
_BLANK_LINES = re.compile(r"\n[ \t]*(?:\n[ \t]*)+")
_LANGUAGE = re.compile(r"language\s*=\s*\{?([\w+#-]+)")
_MINTED = re.compile(r"\s*(?:\[[^\]]*\])?\s*\{([\w+#-]+)\}")
_STAR = re.compile(r"[ \t]*\*?[ \t]*")  # a sectioning command's star
_SPACE = re.compile(r"\s*")
_LABEL = re.compile(r"[ \t]*\\label\{[^{}\n]*\}")  # right after a title: part of its block
_ROW_SPACING = re.compile(r"\*?(?:\[[^\]\n]*\])?")  # after a row's \\: ``*``, ``[2pt]``


@dataclass
class _Env:
    name: str
    start: int
    body: int  # where its content starts (past its arguments)
    end: int = -1  # past its ``\end{...}``
    body_end: int = -1  # where its ``\end{...}`` starts
    children: list[Any] = field(default_factory=list)  # _Env, or (kind, start, end, ...)
    tabulars: int = 0  # tabulars it is or holds (2: two or more)
    tabular: _Env | None = None  # the first of them

    def close(self, body_end: int, end: int) -> None:
        self.body_end, self.end = body_end, end
        if self.name in _TABULAR:
            self.tabulars, self.tabular = 1, self
            return
        for c in self.children:
            if isinstance(c, _Env) and c.tabulars:
                self.tabulars = min(2, self.tabulars + c.tabulars)
                self.tabular = self.tabular or c.tabular


def parse_latex(text: str, doc_id: str, source: str | None = None) -> Document:
    return _Reading(text).document(doc_id, source)


def _skeleton(text: str) -> tuple[_Env, dict[str, str]]:
    """The environments' tree, with headings, items and code blocks in the one they
    are in, and the first title, author and date."""
    root = _Env("", 0, 0)
    stack = [root]
    meta: dict[str, str] = {}
    pos = 0
    while (m := _EVENT.search(text, pos)) is not None:
        pos = m.end()
        env, name, section, field_, item, verb = m.groups()
        if m.group() == "%":
            nl = text.find("\n", pos)
            pos = len(text) if nl == -1 else nl
        elif verb and pos < len(text):
            close = text.find(text[pos], pos + 1)
            pos = pos + 1 if close == -1 or "\n" in text[pos:close] else close + 1
        elif env == "begin" and name.strip() in _CODE:
            close = text.find("\\end{" + name + "}", pos)
            end = len(text) if close == -1 else close + len(name) + 6
            stack[-1].children.append(("code", m.start(), end, _language(name, text, pos, close)))
            pos = end
        elif env == "begin":
            child = _Env(name.strip(), m.start(), _args_end(text, pos))
            stack[-1].children.append(child)
            stack.append(child)
        elif env == "end":
            # (the innermost 64 open environments: an \end that closes none is left alone)
            opened = [i for i in range(max(1, len(stack) - 64), len(stack))
                      if stack[i].name == name.strip()]
            if opened:
                for open_env in reversed(stack[opened[-1]:]):
                    open_env.close(m.start(), pos)
                del stack[opened[-1]:]
        elif section or field_:
            end, title = _arguments(text, pos)
            if title is not None and field_ and field_ not in meta:
                meta[field_] = _to_text(title)
            elif title is not None and section:
                stack[-1].children.append(("heading", m.start(), end, section, title))
            pos = max(pos, end)
        elif item:
            stack[-1].children.append(("item", m.start(), pos))
    for open_env in reversed(stack[1:]):  # never closed: to the end of the text
        open_env.close(len(text), len(text))
    root.end = root.body_end = len(text)
    return root, {k: v for k, v in meta.items() if v}


def _language(name: str, text: str, pos: int, close: int) -> str:
    if name == "minted":
        m = _MINTED.match(text, pos)
        return m.group(1) if m else ""
    line = text[pos:text.find("\n", pos) if "\n" in text[pos:close] else max(pos, close)]
    m = _LANGUAGE.search(line)
    return m.group(1) if m else ""


def _group_end(text: str, i: int, close: str) -> int:
    """Past the ``close`` (``}`` or ``]``) that ends the group opened at ``i`` (braces
    balanced, escaped ones and comments aside); -1 when it is never closed."""
    depth, n = 0, len(text)
    i += 1
    while i < n:
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == "%":
            nl = text.find("\n", i)
            if nl == -1:
                return -1
            i = nl
        elif c == "{":
            depth += 1
        elif c == "}" and depth:
            depth -= 1
        elif c == close and depth == 0:
            return i + 1
        elif c == "}" and close == "]":
            return -1
        i += 1
    return -1


def _arguments(text: str, pos: int) -> tuple[int, str | None]:
    """A sectioning command's (or ``\\title``'s) star, short title and title after
    ``pos``: where they end and the title's source (None: no title follows)."""
    i = _STAR.match(text, pos).end()  # type: ignore[union-attr]
    if i < len(text) and text[i] == "[":
        end = _group_end(text, i, "]")
        if end == -1:
            return pos, None
        i = _SPACE.match(text, end).end()  # type: ignore[union-attr]
    if i >= len(text) or text[i] != "{":
        return pos, None
    end = _group_end(text, i, "}")
    return (pos, None) if end == -1 else (end, text[i + 1:end - 1])


def _args_end(text: str, pos: int) -> int:
    """Past an environment's arguments on its ``\\begin`` line (``{lcr}``,
    ``{\\textwidth}[]{p{4cm}cc}``, ``[t]``)."""
    i = pos
    while True:
        j = i
        while j < len(text) and text[j] in " \t":
            j += 1
        if j >= len(text) or text[j] not in "{[":
            return i
        end = _group_end(text, j, "}" if text[j] == "{" else "]")
        if end == -1 or "\n\n" in text[j:end]:
            return i
        i = end


_TEXT: list[Any] = []
_PLAIN = re.compile(r"[^\\{}$~%^_&`'-]*")


@lru_cache(maxsize=4096)  # (a longtable repeats its header; papers of one template theirs)
def _to_text(source: str) -> str:
    """LaTeX source as text (``\\emph{best}`` -> ``best``, ``\\multicolumn{2}{c}{A}``
    -> ``A``, math as written), whitespace collapsed."""
    if _PLAIN.fullmatch(source):  # (most titles and cells: no markup)
        return " ".join(source.split())
    if not _TEXT:
        from pylatexenc import latex2text, latexwalker, macrospec

        parsing = latexwalker.get_default_latex_context_db()
        parsing.add_context_category("chunkwise", prepend=True, macros=[
            macrospec.MacroSpec("multicolumn", "{{{"), macrospec.MacroSpec("multirow", "{[{[{"),
            macrospec.MacroSpec("label", "{"), macrospec.MacroSpec("thanks", "{"),
            macrospec.MacroSpec("href", "[{{"),
        ])
        texts = latex2text.get_default_latex_context_db()
        texts.add_context_category("chunkwise", prepend=True, macros=[
            latex2text.MacroTextSpec("multicolumn", simplify_repl="%(3)s"),
            latex2text.MacroTextSpec("multirow", simplify_repl="%(5)s"),
            latex2text.MacroTextSpec("label", discard=True),
            latex2text.MacroTextSpec("thanks", discard=True),
            latex2text.MacroTextSpec("href", simplify_repl="%(3)s"),
        ])
        _TEXT.extend((parsing, latex2text.LatexNodes2Text(latex_context=texts, math_mode="verbatim")))
    from pylatexenc.latexwalker import LatexWalker

    try:
        nodes = LatexWalker(source, latex_context=_TEXT[0], tolerant_parsing=True).get_latex_nodes()[0]
        out = _TEXT[1].nodelist_to_text(nodes)
    except Exception:  # (pylatexenc on a piece it cannot read: the source as written)
        out = source
    return " ".join(str(out).split())


class _Reading:
    def __init__(self, text: str):
        self.text = text
        self.root, self.meta = _skeleton(text)
        self.blocks: list[Block] = []
        self.trail = HeadingTrail()
        self.cur = 0
        depths = sorted({_SECTIONS[c[3]] for c in _events(self.root) if c[0] == "heading"})
        self.levels = {d: i + 1 for i, d in enumerate(depths)}

    def document(self, doc_id: str, source: str | None) -> Document:
        body = next((c for c in self.root.children if isinstance(c, _Env) and c.name == "document"),
                    None)
        if body is not None:  # the preamble: a block of its own (its chunks are kind
            # front_matter), its title, author and date the document's metadata
            self.blocks.append(Block("front_matter", 0, body.body, metadata=FRONT_MATTER_HELD[False]))
            self.cur = body.body
            self.read(body.children)
            self.paragraphs(body.end)
        else:
            self.read(self.root.children)
            self.paragraphs(len(self.text))
        return Document(text=self.text, doc_id=doc_id, source=source, title=self.meta.get("title"),
                        blocks=tuple(self.blocks), metadata=MappingProxyType(dict(self.meta)))

    def read(self, children: list[Any]) -> None:
        """Blocks from what the body holds, and the environments read through (a stack
        of them, not a recursion: environments may nest thousands deep)."""
        todo = [iter(children)]
        while todo:
            child = next(todo[-1], None)
            if child is None:
                todo.pop()
            elif isinstance(child, _Env):
                inner = self.environment(child)
                if inner:
                    todo.append(iter(inner))
            elif child[0] == "code":
                self.paragraphs(child[1])
                self.add(Block("code", child[1], child[2], self.trail.path,
                               metadata=MappingProxyType({"language": child[3]})))
            elif child[0] == "heading" and (title := _to_text(child[4])):
                label = _LABEL.match(self.text, child[2])
                self.add_heading(self.levels[_SECTIONS[child[3]]], title, child[1],
                                 label.end() if label else child[2])

    def add_heading(self, level: int, title: str, start: int, end: int) -> None:
        self.paragraphs(start)
        self.trail.push(level, title)
        self.add(Block("heading", start, end, self.trail.path, level=level))

    def environment(self, env: _Env) -> list[Any] | None:
        """An environment's blocks, or what it holds to be read through."""
        if env.name in _LISTS:
            self.items(env)
        elif env.name == "abstract":
            self.add_heading(min(self.levels.values(), default=1), "Abstract", env.start, env.body)
            return env.children
        elif env.tabulars == 1 and env.tabular is not None and (
                env.name in _TABULAR or env.name in _TABLE_HOLDERS or env.name in _DISPLAYS):
            self.paragraphs(env.start)
            self.add(self.table(env, env.tabular) or Block("paragraph", env.start, env.end, self.trail.path))
        elif env.name in _DISPLAYS:
            self.paragraphs(env.start)
            self.add(Block("paragraph", env.start, env.end, self.trail.path))
        else:  # a container (center, titlepage, quote, minipage, an environment of its own)
            return env.children
        return None

    def add(self, block: Block) -> None:
        self.blocks.append(block)
        self.cur = block.end

    def paragraphs(self, end: int) -> None:
        """Paragraph blocks for the text from the cursor to ``end`` (at blank lines)."""
        at, text, path = self.cur, self.text, self.trail.path
        for m in [*_BLANK_LINES.finditer(text, at, end), None]:
            stop = end if m is None else m.start()
            a, b = stripped(text, at, stop)
            if a < b:
                self.blocks.append(Block("paragraph", a, b, path))
            if m is not None:
                at = m.end()
        self.cur = max(self.cur, end)

    def items(self, env: _Env) -> None:
        """A list: each ``\\item`` (``\\bibitem``) to the next a list item, the first
        from the list's ``\\begin``, the last to its ``\\end``."""
        marks = [c[1] for c in env.children if isinstance(c, tuple) and c[0] == "item"]
        self.paragraphs(env.start)
        if not marks:
            self.add(Block("paragraph", env.start, env.end, self.trail.path))
            return
        bounds = [env.start, *marks[1:], env.end]
        for a, b in zip(bounds, bounds[1:]):
            a, b = stripped(self.text, a, b)
            self.blocks.append(Block("list_item", a, b, self.trail.path))
        self.cur = env.end

    def table(self, env: _Env, tabular: _Env) -> Block | None:
        """A table block: rows at ``\\\\``, cells at ``&`` (as written, as a Markdown
        table's are; the header's as text: pylatexenc takes ~0.3 ms a cell, seconds
        for a paper of tables), the rows above the first ``\\midrule`` (or ``\\hline``
        after a row) its header; None when no row has two cells."""
        rows, cells, header_rows = _rows(self.text, tabular.body, tabular.body_end)
        if not rows or max(len(c) for c in cells) < 2:
            return None
        header: tuple[int, int] | None = None
        columns: tuple[str, ...] = ()
        if 0 < header_rows < len(rows):
            header = (env.start, rows[header_rows - 1][1])
            columns = tuple(_to_text(c) for c in cells[header_rows - 1])
            rows, cells = rows[header_rows:], cells[header_rows:]
        rows[-1] = (rows[-1][0], env.end)
        return table_block(env.start, env.end, header, rows, columns, cells, self.trail.path,
                           fmt="latex")


def _rows(text: str, lo: int, hi: int) -> tuple[list[tuple[int, int]], list[list[str]], int]:
    """A tabular's rows (from past the row before, rules included, to past their
    ``\\\\``: the rows leave nothing out between them), their cells (as written,
    whitespace collapsed), and how many rows a ``\\midrule`` or ``\\hline`` follows
    first, or a longtable's ``\\endhead`` (the header; 0: none)."""
    rows: list[tuple[int, int]] = []
    cells: list[list[str]] = []
    header_rows = 0
    depth, at, marks = 0, lo, [lo]
    pos = row_start = lo
    while True:
        m = _CELL_EVENT.search(text, pos, hi)
        end_row = m is None or (depth == 0 and bool(m.group(3) or m.group(4)))
        if m is not None and not end_row:
            pos = m.end()
            if m.group() == "%":
                nl = text.find("\n", pos, hi)
                pos = hi if nl == -1 else nl
            elif m.group(1) or m.group(5) == "{":
                depth += 1
            elif (m.group(2) or m.group(5) == "}") and depth:
                depth -= 1
            elif m.group(6) and depth == 0:
                marks.append(m.start())
            continue
        stop = hi if m is None else m.start()
        first = at
        while (rule := _RULE.match(text, first, stop)) is not None:
            # (a longtable's \endhead ends its header, first and repeated)
            if rule.group(1) in ("midrule", "hline") and rows and not header_rows \
                    or rule.group(1) == "endhead":
                header_rows = len(rows)
            first = rule.end()
        a, b = stripped(text, first, stop)
        end = stop if m is None else m.end()
        if m is not None and m.group(3):  # ``\\[2pt]``, ``\\*``: the row's spacing goes with it
            end = _ROW_SPACING.match(text, end, hi).end()  # type: ignore[union-attr]
        if a < b:
            bounds = [a, *(x + 1 for x in marks[1:] if x >= a), stop]
            cells.append([" ".join(text[x:y - 1 if y != stop else y].split())
                          for x, y in zip(bounds, bounds[1:])])
            rows.append((stripped(text, row_start, a)[0], end))
            row_start = end  # (a segment of rules alone goes with the row after it)
        if m is None:
            return rows, cells, header_rows
        pos = at = end
        marks = [at]


def _events(env: _Env) -> Any:
    """Every heading, item and code block under an environment (nested ones too)."""
    todo = [env]
    while todo:
        e = todo.pop()
        for c in e.children:
            if isinstance(c, _Env):
                todo.append(c)
            else:
                yield c


LATEX = Reader(parse_latex, (".tex", ".ltx", ".latex"))
