"""Shared pieces of each game's words module (games/<slug>/words.py): an action, a card or
a public state put as players say them, in Italian and English. Pure functions, no Django.

Every words module offers ``action(action, lang, names=None)``, ``card(code, lang)`` and
``state(view, lang, names=None)``; ``action`` takes the action in the game's notation (as
``encode_action`` writes it), ``state`` the public part of ``view(seat)`` and returns
(label, value) pairs in words. ``names`` are the seats' players, by seat: a seat an action
or the state names is said by its player's name, or else counted from 1 (``seat_name``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

LANGS = ("it", "en")


def pick(lang: str, it: str, en: str) -> str:
    return it if lang == "it" else en


def join(items: Iterable[str], lang: str) -> str:
    """ "a, b e c" / "a, b and c"."""
    items = [i for i in items if i]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + pick(lang, " e ", " and ") + items[-1]


def yes_no(value: Any, lang: str) -> str:
    return pick(lang, "sì", "yes") if value else pick(lang, "no", "no")


def plain(value: Any, lang: str, card: Callable[[str, str], str] | None = None) -> str:
    """Any leftover public value in words: lists joined, booleans as yes/no, nothing as
    a dash, card codes through ``card`` when given, never Python or JSON."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return yes_no(value, lang)
    if isinstance(value, str):
        return card(value, lang) if card is not None else value.replace("_", " ")
    if isinstance(value, (int, float)):
        return f"{value:n}" if isinstance(value, int) else f"{value:g}"
    if isinstance(value, dict):
        return "; ".join(
            f"{str(k).replace('_', ' ')}: {plain(v, lang, card)}" for k, v in value.items()
        )
    if isinstance(value, (list, tuple)):
        return join([plain(v, lang, card) for v in value], lang) or "—"
    return str(value)


def for_game(slug: str) -> Any:
    """The words module a game declares (beside its ``GAME``: games/<slug>/words.py), or None."""
    from games.core import registry

    return registry.module(slug, "words")


def seat_name(seat: Any, lang: str, names: Sequence[str] | None = None) -> str:
    """A seat as people call it: the name of who sits there when known, otherwise its
    number counted from 1 as at a real table ("posto 1" is the engine's seat 0)."""
    if isinstance(seat, int) and names is not None and 0 <= seat < len(names) and names[seat]:
        return str(names[seat])
    if isinstance(seat, int):
        return pick(lang, f"posto {seat + 1}", f"seat {seat + 1}")
    return "—"
