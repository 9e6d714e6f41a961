"""Rich Text Format (``.rtf``, and a ``.doc`` that holds RTF), read with striprtf: the
text as Word or WordPad shows it (field results, not their codes; Unicode and code
page escapes decoded; pictures and embedded objects left out), a paragraph a block,
table rows as pipe tables. The document text is the extracted text, blocks joined by
blank lines, as for DOCX; offsets index it. The title is the one the file's
information group names.

striprtf leaves out footnotes, comments, headers and footers (they are RTF
"destinations" it passes over); a file with footnotes is read with a warning saying
how many were not."""

from __future__ import annotations

import re
import warnings

from ..errors import ExtractionWarning, InputError
from ..types import Document
from .reader import Reader
from .structure import TextBuilder

_TITLE = re.compile(r"\{\\title\s+([^{}]*)\}")
_FOOTNOTE = re.compile(r"\\footnote(?![a-z])")
_CELL = "|"


def parse_rtf(data: bytes, doc_id: str, source: str | None = None) -> Document:
    from striprtf.striprtf import rtf_to_text

    name = source or doc_id
    raw = data.decode("latin-1")  # (RTF is 7-bit: other code pages come as escapes)
    if not raw.lstrip("\ufeff \t\r\n\x00").startswith("{\\rtf"):
        raise InputError(name, "not an RTF file (it does not start with {\\rtf)")
    try:
        text = rtf_to_text(raw, errors="replace")  # type: ignore[no-untyped-call]
    except (ValueError, LookupError, IndexError) as e:  # a broken escape or code page
        raise InputError(name, f"cannot be read as RTF ({type(e).__name__}: {e})") from None
    # a character beyond the BMP comes as two \u escapes (a surrogate pair): joined, and
    # one left unpaired replaced (it cannot be written out)
    text = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    notes = len(_FOOTNOTE.findall(raw))
    if notes:
        warnings.warn(f"{name}: {notes} footnote{'s' * (notes > 1)} not read (the RTF reader "
                      f"leaves footnotes out; save the file as .docx to keep them)",
                      ExtractionWarning, stacklevel=2)
    out = TextBuilder()
    rows: list[list[str]] = []
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        stripped = line.strip()
        if stripped.endswith(_CELL) and len(stripped) > 1:
            rows.append([" ".join(c.split()) for c in stripped[:-1].split(_CELL)])
            continue
        if rows:
            out.add_table(rows, (), metadata={"tag": "table"})
            rows = []
        out.add_block("paragraph", stripped, ())
    if rows:
        out.add_table(rows, (), metadata={"tag": "table"})
    m = _TITLE.search(raw)
    title = m.group(1).strip() if m else None
    return Document(text=out.text, doc_id=doc_id, source=source, title=title or None,
                    blocks=tuple(out.blocks), metadata={"format": "rtf"})


RTF = Reader(parse_rtf, (".rtf",), binary=True)
