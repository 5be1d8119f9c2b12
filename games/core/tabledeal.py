"""What a game declares so that a referee can rebuild a real table's deal by tapping cards
(games/<slug>/tabledeal.py): the pack in the order a person sorts it, the places the cards go
to (each seat's hand, the monte...), how those places make the record's deal, and the step a
seat takes when it plays one card. Pure functions, no Django.

A tabledeal module offers ``pack()`` (groups of card codes, each with its words),
``places(ruleset, lang)`` (key, words and how many cards each place takes),
``deal(dealer, placed)`` (the record's ``deal`` from the cards placed, or a
``RecordError`` naming the place at fault) and ``play_step(seat, code)`` (the notation of
playing that card), or None where playing one card is not how the game goes.
"""

from __future__ import annotations

from typing import Any


def for_game(slug: str) -> Any:
    """The tabledeal module a game declares, or None."""
    import importlib

    try:
        return importlib.import_module(f"games.{slug}.tabledeal")
    except ModuleNotFoundError:
        return None
