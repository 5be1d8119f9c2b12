"""The games this installation knows. Each engine is a package exposing ``GAME``."""

from __future__ import annotations

import functools
import importlib
import importlib.util
from typing import Any

from games.core.engine import Game

SLUGS = ("tarocco", "ergio", "ponte", "sanmarco", "cardchess")


@functools.cache
def _load(slug: str) -> Game[Any, Any] | None:
    if importlib.util.find_spec(f"games.{slug}") is None:
        return None
    module = importlib.import_module(f"games.{slug}")
    game: Game[Any, Any] | None = getattr(module, "GAME", None)
    return game


def available() -> tuple[str, ...]:
    """The slugs whose engine is installed, in the product's order."""
    return tuple(s for s in SLUGS if _load(s) is not None)


def get(slug: str) -> Game[Any, Any]:
    game = _load(slug) if slug in SLUGS else None
    if game is None:
        raise KeyError(f"unknown game {slug!r}; known: {', '.join(available())}")
    return game
