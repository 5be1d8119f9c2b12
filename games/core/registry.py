"""The games this installation knows. Each engine is a package exposing ``GAME``.

``register`` adds a game from elsewhere (the small game the ledger's tests play, say) beside
the five; nothing is ever hidden: every installed engine stays available."""

from __future__ import annotations

import functools
import importlib
import importlib.util
from typing import Any

from games.core.engine import Game

SLUGS = ("tarocco", "ergio", "ponte", "sanmarco", "cardchess")

_REGISTERED: dict[str, Game[Any, Any]] = {}


@functools.cache
def _load(slug: str) -> Game[Any, Any] | None:
    if importlib.util.find_spec(f"games.{slug}") is None:
        return None
    module = importlib.import_module(f"games.{slug}")
    game: Game[Any, Any] | None = getattr(module, "GAME", None)
    return game


def available() -> tuple[str, ...]:
    """The slugs whose engine is installed, in the product's order, then those registered."""
    return tuple(s for s in SLUGS if _load(s) is not None) + tuple(_REGISTERED)


def get(slug: str) -> Game[Any, Any]:
    game = _load(slug) if slug in SLUGS else _REGISTERED.get(slug)
    if game is None:
        raise KeyError(f"unknown game {slug!r}; known: {', '.join(available())}")
    return game


def register(game: Game[Any, Any]) -> None:
    """Make ``game`` available under its slug (which no installed engine may use)."""
    slug = game.info.slug
    if slug in SLUGS:
        raise ValueError(f"{slug!r} is one of the product's games")
    _REGISTERED[slug] = game


def unregister(slug: str) -> None:
    _REGISTERED.pop(slug, None)
