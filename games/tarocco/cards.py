"""The 63-card Sicilian tarot pack, the card values and the count in threes.

Cards are small ints (0..62) so that hands and tricks stay cheap lists; ``CODES`` names
them in records (docs/notation/tarocco.md):

* suit cards: suit letter then rank, ``S`` Spade, ``B`` Bastoni, ``C`` Coppe, ``O`` Denari
  (Oro); ranks ``K`` Re, ``Q`` Regina, ``C`` Cavallo, ``D`` Donna (the maid), ``10`` .. ``5``,
  and ``O4`` in Denari only: ``SK``, ``OD``, ``C10``, ``O4``;
* trumps ``T1`` (Picciotti) .. ``T20`` (Giove), ``M`` the Miseria (the lowest trump);
* ``F`` the Fuggitivo, which never takes a trick.

>>> count(list(range(PACK_SIZE))) + LAST_TRICK_BONUS
109
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from games.core.cards import Deck

SUITS = ("S", "B", "C", "O")  # Spade, Bastoni, Coppe, Denari (Oro)
SUIT_NAMES = {
    "S": ("Spade", "Swords"),
    "B": ("Bastoni", "Batons"),
    "C": ("Coppe", "Cups"),
    "O": ("Denari", "Coins"),
}
TRUMP = 4  # the suit index of the trumps (Miseria included)
FOOL = 5  # the Fuggitivo's own "suit": it belongs to none

# Suit ranks: 4..10 are the pips, then the four court cards.
DONNA, CAVALLO, REGINA, RE = 11, 12, 13, 14
COURT_LETTERS = {DONNA: "D", CAVALLO: "C", REGINA: "Q", RE: "K"}
COURT_VALUES = {DONNA: 2, CAVALLO: 3, REGINA: 4, RE: 5}
# tarocco.play.miseria: the Miseria is a trump ranked under the Picciotti (rank 0, value 0
# below), so it loses to every other trump and counts nothing.
MISERIA_RANK = 0  # below Picciotti (1)

SUIT: list[int] = []
RANK: list[int] = []
CODES: list[str] = []
VALUE: list[int] = []  # nominal points (0 for the scartine)

for _s, _letter in enumerate(SUITS):
    _low = 4 if _letter == "O" else 5
    for _r in range(_low, RE + 1):
        SUIT.append(_s)
        RANK.append(_r)
        CODES.append(_letter + (COURT_LETTERS[_r] if _r in COURT_LETTERS else str(_r)))
        VALUE.append(COURT_VALUES.get(_r, 0))
for _r in range(0, 21):
    SUIT.append(TRUMP)
    RANK.append(_r)
    CODES.append("M" if _r == 0 else f"T{_r}")
    VALUE.append({20: 10, 1: 10, 19: 5, 18: 5, 17: 5, 16: 5}.get(_r, 0))
SUIT.append(FOOL)
RANK.append(0)
CODES.append("F")
VALUE.append(10)

PACK_SIZE = len(CODES)
assert PACK_SIZE == 63
DECK: Final = Deck(CODES, ("SK", "OQ", "CC", "BD", "O4", "S10", "T20", "M", "F"))
BY_CODE = DECK.index
FUGGITIVO = BY_CODE["F"]
MISERIA = BY_CODE["M"]
GIOVE = BY_CODE["T20"]
PALLA = BY_CODE["T19"]
PICCIOTTI = BY_CODE["T1"]
KINGS = tuple(BY_CODE[s + "K"] for s in SUITS)
QUEENS = tuple(BY_CODE[s + "Q"] for s in SUITS)
IS_TRUMP = tuple(s == TRUMP for s in SUIT)
COUNTING = tuple(v > 0 for v in VALUE)
# "venti" and "quindici" count the tens and the fives only (queens, knights, maids do not).
HONOUR_VALUE = tuple(v if v in (5, 10) else 0 for v in VALUE)
# tarocco.count.last_trick: whoever wins the twentieth trick adds these 5 to the side's count.
LAST_TRICK_BONUS = 5
TOTAL_POINTS = 109
SOLO_TARGET = 55  # the soloist's (and the dealer's pair's) break-even
OTHER_TARGET = 54  # everyone else's


def code(card: int) -> str:
    return CODES[card]


def codes(cards: Iterable[int]) -> list[str]:
    return [CODES[c] for c in cards]


def count(pile: Sequence[int]) -> int:
    """Card points of a pile counted in threes, without the last trick's 5.

    Each counting card scores its value less one; every three cards of the pile add one
    point (a last group of two adds one, of one nothing). Grouping in threes by hand gives
    the same number, so any split of the pack totals 104, and 109 with the last trick.
    """
    # tarocco.count.threes: counting in groups of three, a counting card brings its value less
    # one and every group (a pair of leftovers included) brings one point more.
    points = sum(VALUE[c] - 1 for c in pile if COUNTING[c])
    return points + (len(pile) + 1) // 3


def honours(cards: Iterable[int]) -> int:
    """The tens and fives held: what "venti" (at least 20) and "quindici" (exactly 15) count."""
    return sum(HONOUR_VALUE[c] for c in cards)


def sort_key(card: int) -> tuple[int, int]:
    return (SUIT[card], -RANK[card])
