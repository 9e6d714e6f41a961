"""Jupyter notebooks: their cells as a Markdown document, outputs as text or left out."""

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chunkwise
from chunkwise.errors import InputError
from chunkwise.readers import parse, read_path

from helpers import assert_invariants, by_text

DATA = Path(__file__).resolve().parent / "data" / "notebooks"


def test_a_real_notebook_reads_as_its_cells_not_its_json():
    """jupyter/notebook's "Running Code" example was read as raw JSON: chunks of
    ``{"cell_type": "markdown", "metadata": {}, "source": [...`` with escaped
    quotes and line breaks, no headings. Now its markdown cells are Markdown (the
    trail names the section), its code cells fenced Python, a stream's text an
    ``output`` block, and the 2^n table it prints (36 kB) cut short, saying so."""
    path = DATA / "Running Code.ipynb"
    doc = read_path(path)
    assert doc.metadata["format"] == "ipynb" and doc.metadata["language"] == "python"
    assert doc.metadata["cells"] == len(json.loads(path.read_text())["cells"])
    assert doc.title == "Running Code"
    chunks = chunkwise.chunk(doc)
    assert_invariants(doc.text, chunks, 254)
    assert not [c for c in chunks if '"cell_type"' in c.text or '\\n",' in c.text]
    stdout = by_text(chunks, "hi, stdout")[0]
    assert stdout.headings == ("Running Code", "sys.stdout and sys.stderr")
    assert '```python\nprint("hi, stdout")\n```\n\n```output\nhi, stdout\n```' in doc.text
    assert "more characters of output]" in doc.text and len(doc.text) < 12_000
    assert {c.metadata["strategy"] for c in chunks} == {"section"}


def _notebook(cells, **meta):
    return json.dumps({"cells": cells, "metadata": meta, "nbformat": 4, "nbformat_minor": 5})


def test_outputs_keep_their_words_and_leave_out_images_and_stand_ins():
    figure = {"output_type": "display_data", "metadata": {},
              "data": {"image/png": "iVBORw0KGgo" * 500,
                       "text/plain": ["<Figure size 640x480 with 1 Axes>"]}}
    frame = {"output_type": "execute_result", "execution_count": 2, "metadata": {},
             "data": {"text/html": ["<table><tr><td>1</td></tr></table>"],
                      "text/plain": ["   city  rain\n", "0  Oslo   763"]}}
    error = {"output_type": "error", "ename": "KeyError", "evalue": "'rainfall'",
             "traceback": ["\x1b[0;31mKeyError\x1b[0m: 'rainfall'"]}
    progress = {"output_type": "stream", "name": "stderr",
                "text": "\x1b[32mloading\x1b[0m 10%\rloading 50%\rloading 100%\ndone\n"}
    widget = {"output_type": "display_data", "metadata": {},
              "data": {"application/vnd.jupyter.widget-view+json": {"model_id": "ab"}}}
    cells = [{"cell_type": "markdown", "metadata": {}, "source": "# Rainfall\n\nWe plot it."},
             {"cell_type": "code", "execution_count": 1, "metadata": {}, "source": "plot(df)",
              "outputs": [figure, widget]},
             {"cell_type": "code", "execution_count": 2, "metadata": {},
              "source": ["df.head()"], "outputs": [frame, progress]},
             {"cell_type": "code", "execution_count": 3, "metadata": {},
              "source": "df['rainfall']\n# ```` a fence inside", "outputs": [error]},
             {"cell_type": "raw", "metadata": {}, "source": "raw text, as written"}]
    doc = parse(_notebook(cells, kernelspec={"language": "python"}), "rain.ipynb")
    assert "iVBOR" not in doc.text and "<Figure" not in doc.text and "model_id" not in doc.text
    assert "```output\n   city  rain\n0  Oslo   763\n```" in doc.text
    assert "```output\nloading 100%\ndone\n```" in doc.text  # the bar's last state, no colours
    assert "```output\nKeyError: 'rainfall'\n```" in doc.text
    assert "`````python\ndf['rainfall']\n# ```` a fence inside\n`````" in doc.text
    assert doc.text.endswith("raw text, as written")
    assert doc.metadata["outputs_left_out"] == 2
    assert [b.kind for b in doc.blocks if b.kind == "code"] == ["code"] * 6


def test_nbformat_3_worksheets_and_heading_cells():
    nb = json.dumps({"nbformat": 3, "metadata": {"language": "python"}, "worksheets": [{
        "cells": [{"cell_type": "heading", "level": 2, "source": ["Loading"]},
                  {"cell_type": "code", "language": "python", "input": ["x = load()"],
                   "outputs": [{"output_type": "pyout", "text": ["42"]}]},
                  {"cell_type": "markdown", "source": ["It loads."]}]}]})
    doc = parse(nb, "old.ipynb")
    assert doc.text == ("## Loading\n\n```python\nx = load()\n```\n\n```output\n42\n```\n\n"
                        "It loads.")
    assert [b.headings for b in doc.blocks][-1] == ("Loading",)


@pytest.mark.parametrize("text, message", [
    ('{"cells": [', "not a Jupyter notebook: not valid JSON"),
    ('{"nbformat": 4}', "not a Jupyter notebook (expected a JSON object with 'cells'"),
    ("[1, 2]", "not a Jupyter notebook (expected"),
])
def test_a_broken_notebook_is_a_clear_error_naming_it(tmp_path, text, message):
    path = tmp_path / "broken.ipynb"
    path.write_text(text)
    with pytest.raises(InputError) as err:
        read_path(path)
    assert "broken.ipynb" in str(err.value) and message in str(err.value)


_WORDS = st.from_regex(r"[A-Za-z][a-z]{0,7}( [a-z]{1,8}){0,8}", fullmatch=True)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.one_of(
    st.tuples(st.just("markdown"), _WORDS),
    st.tuples(st.just("code"), st.from_regex(r"[a-z]{1,6} = [0-9]{1,4}( \+ [a-z]{1,5})?",
                                             fullmatch=True)),
    st.tuples(st.just("heading"), _WORDS)), min_size=1, max_size=12),
    st.booleans())
def test_every_cells_words_are_read_in_order(cells, as_lines):
    """Generated notebooks: each cell's words in the document, in the cells' order,
    and chunks that keep the invariants."""
    def source(text):
        return [line + "\n" for line in text.split(" ")] if as_lines else text
    nb_cells: list[dict[str, object]] = []
    for kind, text in cells:
        if kind == "heading":
            nb_cells.append({"cell_type": "markdown", "metadata": {}, "source": f"## {text}"})
        elif kind == "markdown":
            nb_cells.append({"cell_type": "markdown", "metadata": {}, "source": source(text)})
        else:
            nb_cells.append({"cell_type": "code", "metadata": {}, "outputs": [],
                             "execution_count": None, "source": text})
    doc = parse(_notebook(nb_cells), "gen.ipynb")
    words = [w for _, text in cells for w in text.split()]
    found = [w for w in doc.text.split() if not w.startswith(("```", "##"))]
    assert found == words
    chunks = chunkwise.chunk(doc, strategy="section", size=48)
    assert_invariants(doc.text, chunks, 48)


_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=20),
                     lambda inner: st.lists(inner, max_size=4)
                     | st.dictionaries(st.sampled_from(["cell_type", "source", "outputs",
                                                        "output_type", "text", "data",
                                                        "text/plain", "level", "input"]),
                                       inner, max_size=5), max_leaves=30)


@settings(max_examples=80, deadline=None)
@given(st.dictionaries(st.sampled_from(["cells", "worksheets", "metadata", "nbformat"]), _JSON,
                       max_size=4))
def test_any_json_shaped_like_a_notebook_reads_or_is_a_clear_error(value):
    """Cells, sources and outputs of any JSON type (a number for a source, a string
    for the outputs): read, or an InputError naming the file; never a traceback."""
    try:
        doc = parse(json.dumps(value), "odd.ipynb")
    except InputError as exc:
        assert "odd.ipynb" in str(exc)
        return
    chunks = chunkwise.chunk(doc, strategy="section", size=48)
    assert_invariants(doc.text, chunks, 48)
