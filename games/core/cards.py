"""Cards as small ints, the way every card game here holds them.

* ``Deck``: a game's card codes in order (a card is its index), the table back from code to
  card, and the one reading of a code from a record or a summary: an unknown code is a
  ``RecordError`` "unknown card 'X'; codes look like ..." at the path of the bad code.
* Bit masks of cards (``mask_of``, ``cards_in``, ``count``): a set of small ints as an int.
* ``shuffle`` / ``shuffled``: the seeded shuffle. ``shuffle(cards, rand)`` puts the cards in
  the order ``rand.shuffle(cards)`` would (the same draws from the same generator; the steps
  are in ``games.core.rng.shuffle``), so a seed deals what it always dealt.

A game keeps what is its own in its cards.py (suits, ranks, values, which copies make its
pack) and builds its ``Deck`` there.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from games.core.errors import RecordError
from games.core.rng import rng
from games.core.rng import shuffle as shuffle_like_random

# How an unknown code's error begins: written here only; explain.py recognises it by this.
UNKNOWN_CARD = "unknown card"


class Deck:
    """The cards of one game: ``codes[card]`` names a card, ``index[code]`` finds it.

    ``examples`` are a few codes shown when a code cannot be read, so that the person who
    typed it sees what the game's codes look like.
    """

    __slots__ = ("codes", "examples", "index")

    codes: tuple[str, ...]
    index: dict[str, int]
    examples: str

    def __init__(self, codes: Iterable[str], examples: Sequence[str]) -> None:
        self.codes = tuple(codes)
        self.index = {code: card for card, code in enumerate(self.codes)}
        if len(self.index) != len(self.codes):
            raise ValueError("a deck names each card once")
        unknown = [e for e in examples if e not in self.index]
        if unknown or not examples:
            raise ValueError(f"examples must be codes of the deck: {unknown}")
        self.examples = ", ".join(examples)

    def __len__(self) -> int:
        return len(self.codes)

    def __contains__(self, code: object) -> bool:
        return isinstance(code, str) and code in self.index

    def code(self, card: int) -> str:
        return self.codes[card]

    def names(self, cards: Iterable[int]) -> list[str]:
        """The codes of these cards, in their order."""
        codes = self.codes
        return [codes[c] for c in cards]

    def unknown(self, raw: object, path: str) -> RecordError:
        """The error for a code this deck does not have (for readers with their own loop)."""
        return RecordError(f"{UNKNOWN_CARD} {raw!r}; codes look like {self.examples}", path=path)

    def read(self, raw: object, path: str) -> int:
        """The card a code names; ``path`` says where the code was read."""
        if type(raw) is str:
            card = self.index.get(raw)
            if card is not None:
                return card
        raise self.unknown(raw, path)

    def read_list(self, raw: object, path: str) -> list[int]:
        """A JSON list of codes; a bad code is reported at ``path[i]``."""
        if not isinstance(raw, list):
            raise RecordError("expected a list of card codes", path=path)
        index = self.index
        try:  # the usual case: every code known
            return [index[code] for code in raw]
        except (KeyError, TypeError):
            pass
        return [self.read(code, f"{path}[{i}]") for i, code in enumerate(raw)]


# --- bit masks ---------------------------------------------------------------------------------


def mask_of(cards: Iterable[int]) -> int:
    """The set of these cards (small non-negative ints) as an int: bit ``c`` for card ``c``."""
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def cards_in(mask: int) -> Iterator[int]:
    """The cards of a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def count(mask: int) -> int:
    """How many cards a mask holds."""
    return mask.bit_count()


# --- the seeded shuffle -----------------------------------------------------------------------


def shuffle(cards: list[Any], rand: random.Random) -> None:
    """Shuffle in place into the order ``rand.shuffle(cards)`` gives (the same draws from the
    same generator, by ``games.core.rng.shuffle``), so a seed deals what it always dealt."""
    shuffle_like_random(rand, cards)


def shuffled(cards: Iterable[int], seed: int, *salt: int | str) -> list[int]:
    """A new list of the cards shuffled by the generator ``rng(seed, *salt)``."""
    out = list(cards)
    shuffle_like_random(rng(seed, *salt), out)
    return out
