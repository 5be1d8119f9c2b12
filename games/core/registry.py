"""The games this installation knows, found rather than listed.

A game is a package that exposes ``GAME`` (a ``Game``). The registry finds:

* every package directly under ``games/`` that exposes ``GAME`` (``games.core`` does not);
* every entry point of the group ``club_ledger.games`` (``ENTRY_POINT_GROUP``) of any
  installed distribution, naming the game's package (``toygame = "toygame"``) or its game
  (``toygame = "toygame:GAME"``), so a game can live in its own distribution.

Games are keyed by their declared slug (``GAME.info.slug``) and listed sorted by it; a slug
found twice is an error. They are found once per process, on first use (``refresh`` finds
them again, as a test that installs a game does). ``register`` adds a game from elsewhere
(the small game the ledger's tests play, say) beside those found; nothing is ever hidden:
every installed engine stays available.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
import sys
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from games.core.engine import Game

ENTRY_POINT_GROUP = "club_ledger.games"


@dataclass(frozen=True)
class Found:
    """One game and the package it came from (where its words, faces and table deal are)."""

    game: Game[Any, Any]
    package: str


_REGISTERED: dict[str, Found] = {}


def _as_game(obj: Any, where: str) -> Found | None:
    """The game ``obj`` is or exposes (a package's ``GAME``), with the package it lives in."""
    if isinstance(obj, ModuleType):
        game = getattr(obj, "GAME", None)
        package = obj.__name__
    else:
        game = obj
        name = type(obj).__module__
        package = name
        parent = name.rpartition(".")[0]
        # A game declared in package/game.py and exposed by package/__init__.py.
        in_module = not hasattr(sys.modules.get(name), "__path__")
        if in_module and parent and getattr(sys.modules.get(parent), "GAME", None) is obj:
            package = parent
    if game is None:
        return None
    if not isinstance(game, Game):
        raise TypeError(f"{where} exposes GAME that is not a games.core Game")
    return Found(game, package)


@functools.cache
def _found() -> dict[str, Found]:
    # The package games/ itself (imported before any of its modules, this one included).
    games = sys.modules[__name__.partition(".")[0]]
    found: dict[str, Found] = {}

    def add(item: Found | None, where: str) -> None:
        if item is None:
            return
        slug = item.game.info.slug
        if slug in found and found[slug].game is not item.game:
            first = found[slug].package
            raise ValueError(f"two games declare the slug {slug!r} ({first}, {where})")
        found[slug] = item

    for module in sorted(pkgutil.iter_modules(games.__path__), key=lambda m: m.name):
        if not module.ispkg or module.name == "core":
            continue
        name = f"games.{module.name}"
        add(_as_game(importlib.import_module(name), name), name)
    # Imported here: a process that never asks for a game (the engines' own tools) skips it.
    from importlib.metadata import entry_points

    for point in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda p: (p.name, p.value)):
        add(_as_game(point.load(), point.value), point.value)
    return dict(sorted(found.items()))


def refresh() -> None:
    """Forget the games found, so the next use finds them again (after installing one)."""
    _found.cache_clear()
    _modules.cache_clear()


def installed() -> tuple[str, ...]:
    """The slugs of the games found (not those registered), sorted."""
    return tuple(_found())


def available() -> tuple[str, ...]:
    """Every game's slug: those found, then those registered, each part sorted."""
    return (*_found(), *sorted(_REGISTERED))


def _entry(slug: str) -> Found:
    item = _found().get(slug) or _REGISTERED.get(slug)
    if item is None:
        raise KeyError(f"unknown game {slug!r}; known: {', '.join(available())}")
    return item


def get(slug: str) -> Game[Any, Any]:
    return _entry(slug).game


def package(slug: str) -> str:
    """The package a game lives in (``games.tarocco``; a distribution's own package)."""
    return _entry(slug).package


@functools.cache
def _modules(slug: str, part: str) -> ModuleType | None:
    try:
        name = f"{package(slug)}.{part}"
    except KeyError:
        return None
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name is not None and name.startswith(error.name):
            return None  # the game has no such module (not a missing import inside it)
        raise


def module(slug: str, part: str) -> ModuleType | None:
    """A game's own module beside its ``GAME`` (``words``, ``faces``, ``tabledeal``), or
    None when the game has none."""
    return _modules(slug, part)


def register(game: Game[Any, Any], package: str | None = None) -> None:
    """Make ``game`` available under its slug (which no game found may use). ``package``
    is where its words, faces and table deal are, if it has them (default: its own)."""
    slug = game.info.slug
    if slug in _found():
        raise ValueError(f"{slug!r} is one of the installed games")
    item = _as_game(game, slug)
    assert item is not None
    _REGISTERED[slug] = Found(game, package or item.package)
    _modules.cache_clear()


def unregister(slug: str) -> None:
    _REGISTERED.pop(slug, None)
    _modules.cache_clear()
