"""CSV and TSV: a file that is one table. The document text is the file as read
(offsets cite it exactly); the table block records the header record and every
record's span, so rows are kept whole and the header is repeated in context on
every part after the first (records spanning several lines, in quotes, stay
whole too)."""

from __future__ import annotations

import csv
import re
from functools import partial
from types import MappingProxyType

from ..errors import InputError
from ..types import Block, Document
from .reader import Reader

#: the largest field the csv module accepts (its default, 128 KiB, refuses real files)
_FIELD_LIMIT = 1 << 30


def _dialect(text: str, delimiter: str | None) -> type[csv.Dialect] | csv.Dialect:
    if delimiter:
        class Given(csv.excel):
            pass
        Given.delimiter = delimiter
        return Given
    sample = text[:65536].removeprefix("\ufeff")
    try:
        return csv.Sniffer().sniff(sample, delimiters=",;\t|")
    except csv.Error:
        return csv.excel


#: a line as io.StringIO(newline="") gives it to the csv module: ended by \r\n, \r or \n
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+")


class _Lines:
    """The text's lines for the csv module, one at a time, with where the last one
    handed out ends (the csv module reads no further than the record it returns):
    no list of lines and no StringIO (4 bytes a character) beside the text."""

    def __init__(self, text: str):
        # (after a byte-order mark: Excel's "CSV UTF-8" opens with one, which made the
        # first column's name "\ufeffsku")
        self.end = 1 if text.startswith("\ufeff") else 0
        self._matches = _LINE.finditer(text, self.end)

    def __iter__(self) -> _Lines:
        return self

    def __next__(self) -> str:
        m = next(self._matches)
        self.end = m.end()
        return m.group()


def parse_csv(text: str, doc_id: str, source: str | None = None,
              delimiter: str | None = None) -> Document:
    csv.field_size_limit(_FIELD_LIMIT)
    dialect = _dialect(text, delimiter)
    lines = _Lines(text)
    reader = csv.reader(lines, dialect)
    # each record's span and its cells, trimmed (the row as the csv module gives it
    # is let go: a long cell is held once beside the text, not twice)
    records: list[tuple[int, int, tuple[str, ...]]] = []
    try:
        while True:
            s = lines.end
            row = next(reader, None)
            if row is None:
                break
            if not any(cell.strip() for cell in row):
                continue
            e = lines.end
            while e > s and text[e - 1] in "\r\n":
                e -= 1
            records.append((s, e, tuple(c.strip() for c in row)))
    except csv.Error as exc:
        raise InputError(source or doc_id, f"not valid CSV (line {reader.line_num}: {exc})") \
            from None
    blocks: list[Block] = []
    if records:
        (hs, he, header), body = records[0], records[1:]
        blocks.append(Block("table", hs, records[-1][1], (), metadata=MappingProxyType({
            "header": (hs, he),
            "rows": tuple((s, e) for s, e, _ in body),
            "columns": header,
            "cells": tuple(r for _, _, r in body),
            "format": "csv",
            "delimiter": getattr(dialect, "delimiter", ","),
        })))
    return Document(text=text, doc_id=doc_id, source=source, blocks=tuple(blocks),
                    metadata={"format": "csv", "rows": max(0, len(records) - 1)})


CSV = Reader(partial(parse_csv, delimiter=None), (".csv",))
TSV = Reader(partial(parse_csv, delimiter="\t"), (".tsv", ".tab"))
