"""CSV and TSV: a file that is one table. The document text is the file as read
(offsets cite it exactly); the table block records the header record and every
record's span, so rows are kept whole and the header is repeated in context on
every part after the first (records spanning several lines, in quotes, stay
whole too)."""

from __future__ import annotations

import csv
import io
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
    sample = text[:65536]
    try:
        return csv.Sniffer().sniff(sample, delimiters=",;\t|")
    except csv.Error:
        return csv.excel


def parse_csv(text: str, doc_id: str, source: str | None = None,
              delimiter: str | None = None) -> Document:
    csv.field_size_limit(_FIELD_LIMIT)
    dialect = _dialect(text, delimiter)
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    reader = csv.reader(io.StringIO(text, newline=""), dialect)
    records: list[tuple[int, int, list[str]]] = []
    consumed = 0
    try:
        for row in reader:
            first, consumed = consumed, reader.line_num
            if not any(cell.strip() for cell in row):
                continue
            s = starts[min(first, len(lines))]
            e = starts[min(consumed, len(lines))]
            while e > s and text[e - 1] in "\r\n":
                e -= 1
            records.append((s, e, row))
    except csv.Error as exc:
        raise InputError(source or doc_id, f"not valid CSV (line {reader.line_num}: {exc})") \
            from None
    blocks: list[Block] = []
    if records:
        (hs, he, header), body = records[0], records[1:]
        blocks.append(Block("table", hs, records[-1][1], (), metadata=MappingProxyType({
            "header": (hs, he),
            "rows": tuple((s, e) for s, e, _ in body),
            "columns": tuple(c.strip() for c in header),
            "cells": tuple(tuple(c.strip() for c in r) for _, _, r in body),
            "format": "csv",
            "delimiter": getattr(dialect, "delimiter", ","),
        })))
    return Document(text=text, doc_id=doc_id, source=source, blocks=tuple(blocks),
                    metadata={"format": "csv", "rows": max(0, len(records) - 1)})


CSV = Reader(partial(parse_csv, delimiter=None), (".csv",))
TSV = Reader(partial(parse_csv, delimiter="\t"), (".tsv", ".tab"))
