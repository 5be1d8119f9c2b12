"""Er Giò's two decks of 77 cards, one per side, as small ints with readable codes.

A card *type* is a global int ``side * 62 + t``. Within a side, ``t`` is:

* ``0..53``: magistratura ``t // 9`` (0..5 of that side); rank ``t % 9``: 0 Magistrato,
  1 Capitano, 2 Caposchiera, 3..8 combattenti of force 2..7;
* ``54`` Celatino, ``55`` Guardia al Campo con Corazza (GCCC), ``56`` senza Corazza (GCSC),
  six copies each;
* ``57..61`` the advanced game's specials: Generale, Maestro di Campo, Tamburino,
  Trombettiere, Luogotenente Alfiere di Parte.

The six copies of an armed group's card are the same type: a hand is a count per type.
Codes: ``SMA-MAG``, ``SMA-CAP``, ``SMA-CSC``, ``SMA-7`` (the Santa Maria cards);
``T-CEL``, ``M-GCCC``, ``T-GEN`` (armed groups and specials, prefixed by the side's letter).
"""

from __future__ import annotations

from typing import Final

from games.core.cards import Deck

SIDES = ("tramontana", "mezzogiorno")
SIDE_LETTER = ("T", "M")
PER_SIDE = 62
TYPES = 2 * PER_SIDE

MAGISTRATO, CAPITANO, CAPOSCHIERA = 0, 1, 2
FIGURE_NAMES = ("magistrato", "capitano", "caposchiera")
CAPITANO_BONUS = 5

# (slug, display name, code) for the 12 magistrature: 0..5 Tramontana, 6..11 Mezzogiorno
MAGISTRATURE: tuple[tuple[str, str, str], ...] = (
    ("santa_maria", "Santa Maria", "SMA"),
    ("san_francesco", "San Francesco", "SFR"),
    ("san_michele", "San Michele", "SMI"),
    ("mattaccini", "Mattaccini", "MAT"),
    ("calci", "Calci", "CAL"),
    ("satiri", "Satiri", "SAT"),
    ("sant_antonio", "Sant'Antonio", "SAN"),
    ("san_martino", "San Martino", "SMR"),
    ("san_marco", "San Marco", "SMC"),
    ("leoni", "Leoni", "LEO"),
    ("dragoni", "Dragoni", "DRA"),
    ("delfini", "Delfini", "DEL"),
)
MAG_CODES = tuple(code for _, _, code in MAGISTRATURE)
MAG_BY_NAME: dict[str, int] = {}
for _i, (_slug, _label, _abbr) in enumerate(MAGISTRATURE):
    MAG_BY_NAME[_slug] = _i
    MAG_BY_NAME[_abbr.lower()] = _i
    MAG_BY_NAME[_label.lower().replace("'", "_").replace(" ", "_")] = _i

CELATINO, GCCC, GCSC = 54, 55, 56
GROUP_CODES = ("CEL", "GCCC", "GCSC")
GENERALE, MAESTRO, TAMBURINO, TROMBETTIERE, LUOGOTENENTE = 57, 58, 59, 60, 61
SPECIAL_CODES = ("GEN", "MDC", "TAM", "TRO", "LUO")
GROUP_COPIES = 6


def side_of(card: int) -> int:
    return card // PER_SIDE


def local(card: int) -> int:
    return card % PER_SIDE


def _mag(card: int) -> int:
    t = card % PER_SIDE
    return (card // PER_SIDE) * 6 + t // 9 if t < 54 else -1


def _rank(card: int) -> int:
    t = card % PER_SIDE
    return t % 9 if t < 54 else -1


# precomputed tables: the fast path reads these instead of dividing
MAG_OF: tuple[int, ...] = tuple(_mag(c) for c in range(TYPES))
RANK_OF: tuple[int, ...] = tuple(_rank(c) for c in range(TYPES))
FORCE_OF: tuple[int, ...] = tuple(r - 1 if r >= 3 else 0 for r in RANK_OF)
IS_FIGHTER: tuple[bool, ...] = tuple(r >= 3 for r in RANK_OF)
# the armed group (0 Celatini, 1 GCCC, 2 GCSC, as side * 3 + g) of a card, or -1
GROUP_OF: tuple[int, ...] = tuple(
    (c // PER_SIDE) * 3 + (c % PER_SIDE - CELATINO) if CELATINO <= c % PER_SIDE <= GCSC else -1
    for c in range(TYPES)
)
IS_SPECIAL: tuple[bool, ...] = tuple(c % PER_SIDE >= GENERALE for c in range(TYPES))


def card_of(mag: int, rank: int) -> int:
    """The card of a magistratura (global 0..11) with a rank (0..8)."""
    return (mag // 6) * PER_SIDE + (mag % 6) * 9 + rank


def group_card(side: int, group: int) -> int:
    return side * PER_SIDE + CELATINO + group


def mag_cards(mag: int) -> range:
    first = card_of(mag, 0)
    return range(first, first + 9)


def _code(card: int) -> str:
    side, t = divmod(card, PER_SIDE)
    if t < 54:
        mag = side * 6 + t // 9
        r = t % 9
        suffix = ("MAG", "CAP", "CSC")[r] if r < 3 else str(r - 1)
        return f"{MAG_CODES[mag]}-{suffix}"
    if t <= GCSC:
        return f"{SIDE_LETTER[side]}-{GROUP_CODES[t - CELATINO]}"
    return f"{SIDE_LETTER[side]}-{SPECIAL_CODES[t - GENERALE]}"


CODES: tuple[str, ...] = tuple(_code(c) for c in range(TYPES))
DECK: Final = Deck(CODES, ("SMA-7", "DRA-CAP", "T-CEL", "M-GCCC", "T-GEN"))
BY_CODE: dict[str, int] = DECK.index


def deck(side: int, specials: bool) -> list[int]:
    """One side's deck in a fixed order (72 cards, 77 with the specials)."""
    base = side * PER_SIDE
    cards = [base + t for t in range(54)]
    for g in range(3):
        cards += [base + CELATINO + g] * GROUP_COPIES
    if specials:
        cards += [base + t for t in range(GENERALE, PER_SIDE)]
    return cards


def figures_mask(cards: list[int] | tuple[int, ...]) -> int:
    """Bit 1 Magistrato, 2 Capitano, 4 Caposchiera among these cards."""
    mask = 0
    for c in cards:
        r = RANK_OF[c]
        if 0 <= r < 3:
            mask |= 1 << r
    return mask


def describe(cards: list[int] | tuple[int, ...]) -> list[str]:
    return [CODES[c] for c in cards]


# Units on a side's field: its magistrature (global index 0..11) and its three armed groups.
UNIT_CEL, UNIT_GCCC, UNIT_GCSC = 12, 13, 14
GROUP_UNITS = (UNIT_CEL, UNIT_GCCC, UNIT_GCSC)


def _unit(card: int) -> int:
    t = card % PER_SIDE
    if t < 54:
        return MAG_OF[card]
    if t <= GCSC:
        return UNIT_CEL + (t - CELATINO)
    return -1


UNIT_OF: tuple[int, ...] = tuple(_unit(c) for c in range(TYPES))
LOCAL: tuple[int, ...] = tuple(c % PER_SIDE for c in range(TYPES))
SIDE_OF: tuple[int, ...] = tuple(c // PER_SIDE for c in range(TYPES))
IS_FIGURE: tuple[bool, ...] = tuple(0 <= r < 3 for r in RANK_OF)
# specials that patch a magistratura (Tamburino, Trombettiere, Luogotenente) or a guard
# group (Generale, Maestro di Campo) without their effect
PATCHES_MAG = frozenset((TAMBURINO, TROMBETTIERE, LUOGOTENENTE))
PATCHES_GROUP = frozenset((GENERALE, MAESTRO))


def unit_side(unit: int, side: int) -> bool:
    """Whether a unit id belongs to this side (groups belong to both, one per field)."""
    return unit >= UNIT_CEL or unit // 6 == side


def unit_name(unit: int) -> str:
    if unit < UNIT_CEL:
        return MAGISTRATURE[unit][0]
    return ("celatini", "gccc", "gcsc")[unit - UNIT_CEL]


def side_mags(side: int) -> range:
    return range(side * 6, side * 6 + 6)


# every unit a side must complete in the Corteo: its six magistrature and the three groups
SIDE_UNITS: tuple[tuple[int, ...], tuple[int, ...]] = (
    (*side_mags(0), *GROUP_UNITS),
    (*side_mags(1), *GROUP_UNITS),
)


def force_of_laid(cards: list[int] | tuple[int, ...]) -> int:
    """Laid force of a magistratura: its combattenti plus 5 for a Capitano."""
    total = 0
    capitano = False
    for c in cards:
        total += FORCE_OF[c]
        if RANK_OF[c] == CAPITANO:
            capitano = True
    return total + CAPITANO_BONUS if capitano else total
