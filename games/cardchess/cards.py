"""The 3D cardChess deck and the capture tables, as small ints and precomputed tuples.

A card is an int, its *type*: ``colour * 18 + kind`` (colour 0 blue, 1 green). Identical
cards (the two castles of one colour; every card twice when two decks are merged) share a
type, so a hand or a pile is a list of types and conservation is a multiset equality.

Codes (docs/notation/cardchess.md): colour ``b`` / ``g``, piece ``P`` pawn (with its value),
``C`` castle, ``G`` ghost queen, ``K`` king, ``N`` knight, ``R`` rook, ``B`` bishop, ``Q``
queen, then the square: ``l`` light, ``d`` dark, nothing for white. ``bP3d`` is the blue pawn
of value 3 on a dark square, ``gC`` a green castle, ``bRl`` the blue rook on a light square.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from games.core.cards import Deck

BLUE, GREEN = 0, 1
LIGHT, DARK, WHITE = 0, 1, 2
PAWN, CASTLE, GHOST, KING, KNIGHT, ROOK, BISHOP, QUEEN = range(8)
PIECE_LETTER = "PCGKNRBQ"
SQUARE_LETTER = ("l", "d", "")
COLOUR_LETTER = "bg"
HASH = 0  # the value of a # card (castle, ghost queen): it has no number

# kind index -> (piece, square, value or None for #, copies in one deck)
KINDS: tuple[tuple[int, int, int | None, int], ...] = (
    (PAWN, LIGHT, 1, 1),
    (PAWN, DARK, 1, 1),
    (PAWN, LIGHT, 2, 1),
    (PAWN, DARK, 2, 1),
    (PAWN, LIGHT, 3, 1),
    (PAWN, DARK, 3, 1),
    (PAWN, LIGHT, 4, 1),
    (PAWN, DARK, 4, 1),
    (CASTLE, WHITE, None, 2),
    (GHOST, WHITE, None, 1),
    (KING, WHITE, 5, 1),
    (KNIGHT, LIGHT, 5, 1),
    (KNIGHT, DARK, 5, 1),
    (ROOK, LIGHT, 0, 1),  # rook values come from the ruleset
    (ROOK, DARK, 0, 1),
    (BISHOP, LIGHT, 7, 1),
    (BISHOP, DARK, 7, 1),
    (QUEEN, WHITE, 9, 1),
)
PER_COLOUR = len(KINDS)
TYPES = 2 * PER_COLOUR
DECK_SIZE = 2 * sum(k[3] for k in KINDS)  # 38 cards, the four gold cards aside
GOLD_PER_DECK = 4
PUBLISHED_ROOKS = (6, 5)  # the published list: blue rooks 6, green rooks 5

# cardchess.score.points: pawn, castle and ghost queen 1; king 5; every other piece 2.
PIECE_POINTS = (1, 1, 1, 5, 2, 2, 2, 2)
REAME_BONUS = 10


def colour(card: int) -> int:
    return card // PER_COLOUR


def piece(card: int) -> int:
    return KINDS[card % PER_COLOUR][0]


def square(card: int) -> int:
    return KINDS[card % PER_COLOUR][1]


def is_hash(card: int) -> bool:
    return piece(card) in (CASTLE, GHOST)


def code(card: int) -> str:
    p, sq, value, _ = KINDS[card % PER_COLOUR]
    number = str(value) if p == PAWN else ""
    return f"{COLOUR_LETTER[colour(card)]}{PIECE_LETTER[p]}{number}{SQUARE_LETTER[sq]}"


CODES: tuple[str, ...] = tuple(code(t) for t in range(TYPES))
DECK: Final = Deck(CODES, ("bP3d", "gC", "bG", "gK", "bNl", "gRd", "bBl", "gQ"))
BY_CODE: dict[str, int] = DECK.index
POINTS: tuple[int, ...] = tuple(PIECE_POINTS[piece(t)] for t in range(TYPES))
# each colour's king, queen and castle (the castle, not the ghost queen, makes a reame)
REAME_CARDS: tuple[tuple[int, int, int], ...] = tuple(
    (c * PER_COLOUR + 10, c * PER_COLOUR + 17, c * PER_COLOUR + 8) for c in (BLUE, GREEN)
)


def one_deck() -> list[int]:
    """One published deck (38 cards), in type order."""
    return [
        c * PER_COLOUR + k
        for c in (BLUE, GREEN)
        for k in range(PER_COLOUR)
        for _ in range(KINDS[k][3])
    ]


@dataclass(frozen=True, slots=True)
class Tables:
    """Values and capture answers for one choice of rook values, computed once."""

    value: tuple[int, ...]  # the number on the card; HASH (0) for castles and ghost queens
    # why_not[c][t]: None when card c (played) captures table card t, else the rule id it breaks
    why_not: tuple[tuple[str | None, ...], ...]
    can: tuple[tuple[bool, ...], ...]


def _value(card: int, rooks: tuple[int, int]) -> int:
    p, _, value, _ = KINDS[card % PER_COLOUR]
    if p == ROOK:
        return rooks[colour(card)]
    return HASH if value is None else value


def _why_not(c: int, t: int, value: tuple[int, ...]) -> str | None:
    if colour(c) == colour(t):
        return "cardchess.capture.colour"
    pc, pt = piece(c), piece(t)
    if is_hash(c):
        if pt != PAWN and not is_hash(t):
            return "cardchess.capture.hash"
    elif is_hash(t) and pc == PAWN:
        return "cardchess.capture.hash"
    sc, st = square(c), square(t)
    if sc != WHITE and st != WHITE and sc != st:
        return "cardchess.capture.square"
    if not is_hash(c) and not is_hash(t) and value[c] < value[t]:
        return "cardchess.capture.value"
    return None


@lru_cache(maxsize=8)
def tables(rooks: tuple[int, int]) -> Tables:
    value = tuple(_value(t, rooks) for t in range(TYPES))
    why = tuple(tuple(_why_not(c, t, value) for t in range(TYPES)) for c in range(TYPES))
    can = tuple(tuple(r is None for r in row) for row in why)
    return Tables(value, why, can)


def sfida_points(cards: list[int] | tuple[int, ...]) -> tuple[int, int]:
    """(points, reami) of the cards a player counts: piece points plus 10 per reame.

    A reame is a king, a queen and a castle of one colour; with two decks merged a colour
    can make two.
    """
    base = sum(map(POINTS.__getitem__, cards))
    # cardchess.score.reame: a king, a queen and a castle of one colour add REAME_BONUS each time.
    count = cards.count
    reami = 0
    for king, queen, castle in REAME_CARDS:
        reami += min(count(king), count(queen), count(castle))
    return base + REAME_BONUS * reami, reami
