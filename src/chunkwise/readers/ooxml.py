"""Office Open XML packages (Word documents, PowerPoint decks): opened whole, or
without the parts they name but do not hold whole."""

from __future__ import annotations

import io
import warnings
from collections.abc import Callable
from typing import IO, Any

from ..errors import InputError


def main_part(data: bytes, name: str, what: str, opener: Callable[[IO[bytes]], Any]) -> Any:
    """The main part ``opener`` finds in the package ``data``; where the package cannot
    be opened as it is, opened again without its broken parts (a warning names them);
    else an :class:`InputError` saying it is not a readable ``what``."""
    try:
        return opener(io.BytesIO(data))
    except Exception as exc:  # not a zip, parts missing or broken
        repaired = without_broken_parts(data)
        try:
            if repaired is None:
                raise exc
            part = opener(io.BytesIO(repaired[0]))
        except Exception:
            raise InputError(name, f"not a readable {what} ({type(exc).__name__}: {exc})") \
                from None
    left = repaired[1]
    warnings.warn(f"{name}: parts it names are missing or corrupt, read without them: "
                  f"{', '.join(left[:5])}{' ...' if len(left) > 5 else ''}", stacklevel=3)
    return part


def without_broken_parts(data: bytes) -> tuple[bytes, list[str]] | None:
    """The package in ``data`` without the parts whose bytes cannot be read (a CRC
    error) and the relationships to parts it does not hold (an image a tool removed:
    python-docx loads every part, and the document failed whole), and what was left
    out; None when it is no zip or nothing was."""
    import posixpath
    import zipfile
    from urllib.parse import unquote

    from lxml import etree

    try:
        package = zipfile.ZipFile(io.BytesIO(data))
        names = package.infolist()
    except (zipfile.BadZipFile, OSError, ValueError):
        return None
    parts: dict[str, bytes] = {}
    left: list[str] = []
    for info in names:
        try:
            parts[info.filename] = package.read(info)
        except Exception:  # (zipfile raises what zlib and its own checks raise)
            left.append(info.filename)
    for name, blob in list(parts.items()):
        if not name.endswith(".rels"):
            continue
        try:
            root = etree.fromstring(blob)
        except etree.XMLSyntaxError:
            continue
        base = posixpath.dirname(posixpath.dirname(name))  # word/_rels/x.rels: word
        for rel in list(root):
            target = unquote(rel.get("Target", ""))
            if rel.get("TargetMode") == "External" or not target:
                continue
            path = target.lstrip("/") if target.startswith("/") else \
                posixpath.normpath(posixpath.join(base, target))
            if path not in parts:
                root.remove(rel)
                left.append(path)
        parts[name] = etree.tostring(root, xml_declaration=True, encoding="UTF-8",
                                     standalone=True)
    if not left:
        return None
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as written:
        for name, blob in parts.items():
            written.writestr(name, blob)
    return out.getvalue(), sorted(set(left))
