"""Carta alta in words: a card, a move and the table, in Italian and English."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.core.words import join, pick, seat_name


def card(code: Any, lang: str) -> str:
    return pick(lang, f"il {code}", f"the {code}")


def action(act: dict[str, Any], lang: str, names: Sequence[str] | None = None) -> str:
    return pick(lang, "gioca ", "plays ") + card(act.get("play"), lang)


def state(
    view: dict[str, Any], lang: str, names: Sequence[str] | None = None
) -> list[tuple[str, str]]:
    played = view.get("played") or []
    said = [
        f"{seat_name(seat, lang, names)}: {card(c, lang)}"
        for seat, c in enumerate(played)
        if c is not None
    ]
    return [(pick(lang, "Carte giocate", "Cards played"), join(said, lang) or "—")]
