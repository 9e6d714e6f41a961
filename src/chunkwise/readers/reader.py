"""What a reader is: a function from one format's text (or bytes) to a Document, the
file extensions it claims, and how its input is decoded. Readers are found by format
name in :data:`chunkwise.readers.READERS` (entry-point group ``chunkwise.readers``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..types import Document

#: ``read(data, doc_id, source)``: data is ``str`` (decoded) unless the reader is binary
ReadFunction = Callable[[Any, str, str], Document]


@dataclass(frozen=True)
class Reader:
    """One format. ``extensions`` (lower case, with the dot) choose it for a file;
    ``binary`` readers get the file's bytes, the others its decoded text;
    ``html_charset``: a ``<meta charset>`` in the bytes says how to decode them."""

    read: ReadFunction
    extensions: tuple[str, ...] = ()
    binary: bool = False
    html_charset: bool = False
