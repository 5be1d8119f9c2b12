"""The engine modules that `make install` compiles with mypyc, and the switch back to their
plain Python source.

The compiled module is the same source as the ``.py`` beside it, built by
scripts/compile_engines.py into an extension module that Python imports in its place. With
``ENGINES_PURE_PYTHON=1`` in the environment (read by ``games/__init__.py``), every module is
imported from its ``.py`` source instead, so the pure-Python path can be run and tested too.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

# Compiled because a hot path of theirs has a goal the interpreter misses on its own
# (docs/benchmarks.md): San Marco's board game replays a whole recorded game for every
# validation (its state runs through all six of its board modules: the flow, the rules, the
# table, the actions, the chance and the cards); cardChess's and Er Giò's random playouts
# must make ten times python-chess's actions per second. Er Giò's play runs through all
# four of its modules (the actions are dataclasses its state builds and reads on every step,
# so compiling the state alone gains nothing).
MODULES = (
    "games/sanmarco/cards.py",
    "games/sanmarco/actions.py",
    "games/sanmarco/chance.py",
    "games/sanmarco/flow.py",
    "games/sanmarco/legal.py",
    "games/sanmarco/table.py",
    "games/cardchess/state.py",
    "games/ergio/state.py",
    "games/ergio/battle.py",
    "games/ergio/actions.py",
    "games/ergio/cards.py",
)

ROOT = Path(__file__).resolve().parent.parent


def source_hash() -> str:
    """A digest of every source file under games/: mypyc reads the types of all of them, so
    a change to any one may change what the compiled modules should be."""
    digest = hashlib.sha256()
    for path in sorted(ROOT.glob("games/**/*.py")):
        digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def built_from() -> str | None:
    """The ``source_hash`` of the last build, or None when nothing was compiled here."""
    try:
        return (ROOT / "build/mypyc/compiled-from").read_text().strip()
    except FileNotFoundError:
        return None


def module_name(source: str) -> str:
    return source.removesuffix(".py").replace("/", ".")


def is_compiled(module: ModuleType) -> bool:
    """True when ``module`` was loaded from a compiled extension rather than its source."""
    return isinstance(getattr(module, "__loader__", None), importlib.machinery.ExtensionFileLoader)


class SourceOnly(importlib.abc.MetaPathFinder):
    """Finds the modules of ``games`` in their ``.py`` files, passing over extensions."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith("games.") or not path:
            return None
        details = (importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES)
        for entry in path:
            spec = importlib.machinery.FileFinder(entry, details).find_spec(fullname)
            if spec is not None:
                return spec
        return None


def use_source_only() -> None:
    """Import every module of ``games`` from source from now on (idempotent)."""
    if not any(isinstance(f, SourceOnly) for f in sys.meta_path):
        sys.meta_path.insert(0, SourceOnly())
