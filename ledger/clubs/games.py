"""What the ledger knows of the games: their names and seats come from the engines'
declarations where an engine exists, and from this table until then."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from games.core import registry


@dataclass(frozen=True)
class GameMeta:
    slug: str
    label: object  # a lazy translated string
    seat_counts: tuple[int, ...]


# Seats per table by game; the engines declare the same and take precedence once present.
_KNOWN = {
    "tarocco": GameMeta("tarocco", _("Tarocco Siciliano"), (4,)),
    "ergio": GameMeta("ergio", _("Er Giò"), (2, 4, 6)),
    "ponte": GameMeta("ponte", _("The Bridge's Game"), (2, 3, 4, 6)),
    "sanmarco": GameMeta("sanmarco", _("San Marco"), (2,)),
    "cardchess": GameMeta("cardchess", _("3D cardChess"), (2, 3, 4)),
}

GAME_CHOICES = [(slug, meta.label) for slug, meta in _KNOWN.items()]


def meta(slug: str) -> GameMeta:
    known = _KNOWN[slug]
    if engine_available(slug):
        return GameMeta(slug, known.label, registry.get(slug).info.seat_counts)
    return known


def engine_available(slug: str) -> bool:
    return slug in registry.available()
