"""The command line (see :mod:`chunkwise.cli.main`); ``python -m chunkwise.cli``."""

from .main import COMMANDS, build_parser, main, run

__all__ = ["COMMANDS", "build_parser", "main", "run"]
