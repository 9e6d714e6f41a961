"""The LaTeX reader (``readers/latex.py``): sectioning commands are headings, tables
keep their header, code and displays are blocks, and nothing a comment, a verbatim
block or ``\\verb`` holds is read as structure."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

import chunkwise
from chunkwise.readers import parse, read_path, sniff_format

from helpers import assert_invariants, by_text

DATA = Path(__file__).resolve().parent / "data" / "latex"


def test_a_papers_sections_tables_lists_and_metadata():
    """A real paper (Michaillat's template): its sections, subsections and run-in
    ``\\paragraph{...}`` headings in every trail, its title, authors and date as
    metadata (without ``\\thanks``), its two ``tabular*`` tables each a table whose
    header names the columns of every later part, its lists' items, its equations
    whole. Read as plain text it had no heading at all."""
    path = DATA / "latex-paper.tex"
    assert sniff_format(path.read_bytes(), path.name) == "latex"
    doc = read_path(path)
    text = doc.text
    assert doc.title == "Research Paper"
    assert doc.metadata["author"] == "First Author, Second Author"
    assert doc.metadata["date"] == "Month Year"
    heads = [b for b in doc.blocks if b.kind == "heading"]
    trails = {b.headings for b in heads}
    assert ("Introduction", "Research question") in trails
    assert ("Section with math", "Theorems, propositions, lemmas, and other results") in trails
    assert ("Generic section", "Subsection with paragraphs", "Paragraph heading") in trails
    assert all(text[b.start:b.end].startswith("\\") for b in heads)
    tables = [b for b in doc.blocks if b.kind == "table"]
    assert [t.metadata["columns"] for t in tables] == [
        ("", "Column 1", "Column 2", "Column 3", "Column 4"),
        ("", *(f"Column {i}" for i in range(1, 8)))]
    assert tables[0].metadata["cells"][0] == ("Line 1:", "$\\alpha$", "$\\beta$", "$\\gamma$", "$\\delta$")
    assert text[tables[1].start:tables[1].end].startswith("\\begin{table}[t]\n\\caption{Bigger table")
    items = [b for b in doc.blocks if b.kind == "list_item"]
    assert text[items[0].start:items[0].end].startswith("\\begin{itemize}\n\\item Et harum")
    assert doc.blocks[0].kind == "front_matter" and text[doc.blocks[0].end - 16:doc.blocks[0].end] \
        == "\\begin{document}"
    for strategy in ("auto", "section", "recursive"):
        chunks = chunkwise.chunk(path, strategy=strategy)
        assert_invariants(text, chunks, 254)
    chunks = chunkwise.chunk(path)
    panel = by_text(chunks, "Line 9: & 1.0\\%")[0]
    assert panel.kind == "table" and "| Column 1 | Column 2 |" in panel.context
    assert panel.context.startswith("Research Paper > A section with table > A subsection with a multi-panel")
    question = by_text(chunks, "\\paragraph{Research question}")[0]
    assert "Introduction > Research question" in question.context
    # every equation whole in one chunk
    for m in __import__("re").finditer(r"\\begin\{equation\*?\}.*?\\end\{equation\*?\}", text, 16):
        assert any(c.start <= m.start() and m.end() <= c.end for c in chunks), m.group()[:40]


def test_what_comments_verbatim_and_verb_hold_is_no_structure():
    """``% \\section{...}`` is a comment, ``\\%`` is not one, a verbatim block's
    ``\\section`` is code, ``\\verb|\\section{x}|`` is text; a listing's language
    (``lstlisting``'s ``language=``, ``minted``'s argument); the abstract a section;
    a file without ``\\begin{document}`` (a chapter a main file inputs) still has its
    headings; a title never closed, or an environment never ended, breaks nothing."""
    tex = ("\\documentclass{article}\n\\title{A \\emph{Study}}\n\\begin{document}\n"
           "\\begin{abstract}\nWe measure 50\\% of it. % \\section{Commented}\n\\end{abstract}\n\n"
           "\\section{Intro}\\label{s:intro}\nUse \\verb|\\section{x}| here.\n\n"
           "\\begin{verbatim}\n\\section{Not a heading}\n\\end{verbatim}\n\n"
           "\\begin{lstlisting}[language=Python, caption=Demo]\nprint(1)\n\\end{lstlisting}\n\n"
           "\\begin{minted}[linenos]{rust}\nfn main() {}\n\\end{minted}\n\n"
           "\\subsection*[Short]{Long \\textbf{Title}}\nText.\n\\end{document}\n")
    doc = parse(tex, "study.tex")
    assert doc.title == "A Study"
    heads = [b.headings for b in doc.blocks if b.kind == "heading"]
    assert heads == [("Abstract",), ("Intro",), ("Intro", "Long Title")]
    code = [(b.metadata["language"], doc.text[b.start:b.end].splitlines()[1]) for b in doc.blocks
            if b.kind == "code"]
    assert code == [("", "\\section{Not a heading}"), ("Python", "print(1)"), ("rust", "fn main() {}")]
    assert_invariants(tex, chunkwise.chunk(doc, strategy="section", size=24), 24)
    chapter = parse("\\chapter{Methods}\nWe did it.\n\\section{Data}\nRows.\n", "methods.tex")
    assert [b.headings for b in chapter.blocks if b.kind == "heading"] == [("Methods",), ("Methods", "Data")]
    broken = "\\section{Open\n\nText \\begin{itemize}\n\\item one\n\\section{After}\nMore {braces\n"
    doc = parse(broken, "broken.tex")
    assert [b.headings[-1] for b in doc.blocks if b.kind == "heading"] == []  # (in an open list)
    assert_invariants(broken, chunkwise.chunk(doc, strategy="section", size=24), 24)
    assert_invariants(broken, chunkwise.chunk(broken, format="latex", doc_id="b.tex"), 254)


def test_a_longtables_header_is_its_rows_above_endhead():
    """pandoc's longtables repeat their header between ``\\endfirsthead`` and
    ``\\endhead``: every row above ``\\endhead`` is the header, and its last row names
    the columns; ``\\hline`` under a first row ends a header too."""
    tex = ("\\begin{longtable}[]{@{}ll@{}}\n\\caption{Pets.}\\tabularnewline\n\\toprule\\noalign{}\n"
           "Animal & Count \\\\\n\\midrule\\noalign{}\n\\endfirsthead\n\\toprule\\noalign{}\n"
           "Animal & Count \\\\\n\\midrule\\noalign{}\n\\endhead\n"
           + "".join(f"Pet {i} & {i} \\\\\n" for i in range(40)) + "\\bottomrule\n\\end{longtable}\n")
    doc = parse(tex, "pets.tex")
    (table,) = [b for b in doc.blocks if b.kind == "table"]
    assert table.metadata["columns"] == ("Animal", "Count")
    assert len(table.metadata["cells"]) == 40 and table.metadata["cells"][0] == ("Pet 0", "0")
    chunks = chunkwise.chunk(doc, strategy="section", size=64)
    assert_invariants(tex, chunks, 254)
    later = [c for c in chunks if c.kind == "table" and c.start > table.metadata["header"][1]]
    assert len(later) >= 2 and all("Animal | Count" in c.context for c in later)
    simple = parse("\\begin{tabular}{|l|l|}\\hline\nAnimal & Number \\\\ \\hline\nDog & 2 \\\\\n"
                   "Cat & 1 \\\\ \\hline\n\\end{tabular}\n", "t.tex")
    (t,) = [b for b in simple.blocks if b.kind == "table"]
    assert t.metadata["columns"] == ("Animal", "Number") and t.metadata["cells"] == (("Dog", "2"), ("Cat", "1"))


_WORD = st.from_regex(r"[A-Z][a-z]{1,8}( [a-z]{1,8}){0,4}", fullmatch=True)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(
    st.tuples(st.sampled_from(["section", "subsection", "paragraph"]), _WORD),
    st.tuples(st.sampled_from(["para", "comment", "verbatim", "equation", "itemize", "table"]), _WORD)),
    min_size=1, max_size=12), st.booleans(),
    st.sampled_from(["\\\\", "\\\\[2pt]", "\\\\*", "\\\\*[\\skip]", "\\\\ \\hline \\\\"]))
def test_latex_property(parts, wrapped, row_end):
    """Generated papers (in a ``document`` or not): each sectioning command a heading
    in order, never one inside a comment or a verbatim block, a table's first row its
    columns (rows ended by ``\\\\``, ``\\\\[2pt]``, ``\\\\*[...]`` or a row of a rule
    alone: Sphinx's longtables lost ``*[\\sphinxlongtablecapskipadjust]``), and chunks
    that keep the invariants."""
    out = []
    for kind, words in parts:
        out.append(f"\\{kind}{{{words}}}" if kind in ("section", "subsection", "paragraph") else
                   f"% \\section{{{words}}}" if kind == "comment" else
                   f"\\begin{{verbatim}}\n\\section{{{words}}}\n\\end{{verbatim}}" if kind == "verbatim" else
                   f"\\begin{{equation}}\nx = {len(words)}\n\\end{{equation}}" if kind == "equation" else
                   "\\begin{itemize}\n" + "".join(f"\\item {w}\n" for w in words.split()) + "\\end{itemize}"
                   if kind == "itemize" else
                   "\\begin{tabular}{ll}\nKey & Value \\\\\n\\hline\n" + "".join(
                       f"{w} & {i} {row_end}\n" for i, w in enumerate(words.split())) + "\\end{tabular}"
                   if kind == "table" else f"{words}, 10\\% of it.")
    body = "\n\n".join(out) + "\n"
    tex = f"\\documentclass{{article}}\n\\begin{{document}}\n{body}\\end{{document}}\n" if wrapped else body
    doc = parse(tex, "gen.tex")
    heads = [b.headings[-1] for b in doc.blocks if b.kind == "heading"]
    assert heads == [w for k, w in parts if k in ("section", "subsection", "paragraph")]
    tables = [b for b in doc.blocks if b.kind == "table"]
    assert [t.metadata["columns"] for t in tables] == [("Key", "Value")] * sum(k == "table" for k, _ in parts)
    starts = [b.start for b in doc.blocks]
    assert starts == sorted(starts) and all(0 <= b.start <= b.end <= len(tex) for b in doc.blocks)
    for strategy in ("auto", "section"):
        assert_invariants(tex, chunkwise.chunk(doc, strategy=strategy, size=40), 254)
