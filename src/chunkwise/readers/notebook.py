"""Jupyter notebooks (``.ipynb``, nbformat 4, and 3's worksheets): the cells as one
Markdown document, which the Markdown reader then reads. Markdown cells as
written; code cells fenced in the kernel's language; their text outputs (a
stream, a plain-text result such as a printed table, an error's name and message)
fenced as ``output``. Images, HTML, widgets and a figure's ``<Figure ...>`` stand-in
carry no words for retrieval: left out, and counted in ``metadata.outputs_left_out``.
Read as raw JSON a notebook gave chunks of escaped source and base64 images.

Offsets are into that document (``Document.text``), as an HTML page's are into its
extracted text; ``metadata.cells`` is the notebook's count of cells."""

from __future__ import annotations

import json
import re
from typing import Any

from ..errors import InputError
from ..types import Document
from .reader import Reader

#: the most characters of one output kept (a printed log or a whole data frame
#: would be pages of numbers); a line says how many more there were
OUTPUT_CHARS = 1500
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
#: a result whose only text is an object's stand-in: ``<Figure size 640x480 with 1 Axes>``
_STAND_IN = re.compile(r"<[^<>\n]*>|\[<[^\n]*>\]")
_BACKTICKS = re.compile(r"`{3,}")


def parse_notebook(text: str, doc_id: str, source: str | None = None) -> Document:
    from .markdown import parse_markdown

    name = source or doc_id
    try:
        notebook = json.loads(text.removeprefix("\ufeff"))  # (a byte-order mark is no JSON)
    except ValueError as exc:
        raise InputError(name, f"not a Jupyter notebook: not valid JSON ({exc})") from None
    cells = _cells(notebook)
    if cells is None:
        raise InputError(name, "not a Jupyter notebook (expected a JSON object with "
                               "'cells', or nbformat 3's 'worksheets')")
    meta = notebook.get("metadata")
    meta = meta if isinstance(meta, dict) else {}
    language = _language(meta)
    parts: list[str] = []
    left_out = 0
    for cell in cells:
        if not isinstance(cell, dict):
            continue
        kind = cell.get("cell_type")
        src = _joined(cell.get("source", cell.get("input", "")))
        if kind == "code":
            if src.strip():
                own = cell.get("language")  # nbformat 3 names it per cell
                parts.append(_fence(src, language or (own if isinstance(own, str) else "")))
            outputs, dropped = _outputs(cell.get("outputs"))
            left_out += dropped
            parts.extend(_fence(o, "output") for o in outputs)
        elif kind == "heading":  # nbformat 3
            level = cell.get("level")
            level = level if isinstance(level, int) and 1 <= level <= 6 else 1
            parts.append("#" * level + " " + " ".join(src.split()))
        else:  # markdown and raw cells: their text as written
            parts.append(src.strip("\n"))
    body = "\n\n".join(p for p in parts if p.strip())
    doc = parse_markdown(body, doc_id, source)
    metadata = {**doc.metadata, "format": "ipynb", "cells": len(cells)}
    if language:
        metadata["language"] = language
    if left_out:
        metadata["outputs_left_out"] = left_out
    return Document(text=doc.text, doc_id=doc_id, source=source, title=doc.title,
                    blocks=doc.blocks, metadata=metadata)


def _cells(notebook: Any) -> list[Any] | None:
    if not isinstance(notebook, dict):
        return None
    cells = notebook.get("cells")
    if isinstance(cells, list):
        return cells
    sheets = notebook.get("worksheets")
    if isinstance(sheets, list):
        return [c for s in sheets if isinstance(s, dict) and isinstance(s.get("cells"), list)
                for c in s["cells"]]
    return None


def _language(meta: dict[str, Any]) -> str:
    for key, field in (("kernelspec", "language"), ("language_info", "name")):
        value = meta.get(key)
        if isinstance(value, dict) and isinstance(value.get(field), str):
            return str(value[field]).strip()
    return ""


def _joined(value: Any) -> str:
    """A cell's source or an output's text: a string, or a list of lines."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "".join(v for v in value if isinstance(v, str))
    return ""


def _fence(code: str, info: str) -> str:
    """A fenced block longer than any run of backticks inside it."""
    longest = max((len(m.group(0)) for m in _BACKTICKS.finditer(code)), default=2)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{info}\n{code.strip(chr(10))}\n{fence}"


def _outputs(outputs: Any) -> tuple[list[str], int]:
    """The text of a code cell's outputs, and how many were left out (no text)."""
    texts: list[str] = []
    dropped = 0
    for out in outputs if isinstance(outputs, list) else ():
        if not isinstance(out, dict):
            continue
        kind = out.get("output_type")
        text = ""
        if kind == "stream":
            text = _joined(out.get("text"))
        elif kind in ("execute_result", "display_data", "pyout"):
            data = out.get("data")
            data = data if isinstance(data, dict) else out  # nbformat 3: on the output
            text = _joined(data.get("text/plain", data.get("text")))
            if _STAND_IN.fullmatch(text.strip()):
                text = ""
        elif kind in ("error", "pyerr"):
            text = f"{out.get('ename', 'Error')}: {out.get('evalue', '')}".strip()
        text = _clean(text)
        if text:
            texts.append(text)
        else:
            dropped += 1
    return texts, dropped


def _clean(text: str) -> str:
    """An output as a terminal showed it: colour codes out, each line as its last
    carriage return left it (a progress bar's final state), at most
    :data:`OUTPUT_CHARS` characters."""
    text = _ANSI.sub("", text)
    if "\r" in text:
        text = "\n".join(line.rstrip("\r").rsplit("\r", 1)[-1]
                         for line in text.replace("\r\n", "\n").split("\n"))
    text = text.strip("\n")
    if not text.strip():
        return ""
    if len(text) > OUTPUT_CHARS:
        cut = text.rfind("\n", 0, OUTPUT_CHARS)
        cut = cut if cut > OUTPUT_CHARS // 2 else OUTPUT_CHARS
        text = f"{text[:cut]}\n[... {len(text) - cut:,} more characters of output]"
    return text


NOTEBOOK = Reader(parse_notebook, (".ipynb",))
