"""Readers turn sources (paths, bytes, strings) into Documents."""

from .text import decode_bytes, read_path, text_document

__all__ = ["decode_bytes", "read_path", "text_document"]
