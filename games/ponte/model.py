"""The Bridge's Game's fixed vocabulary: sides, magistrature, quarters, cards and the ruleset.

Everything the printed rules leave unpublished (the twelve fight cards, the six strategy
cards, the bridge length) is a ruleset value, so a club can enter its printed set. The
defaults are ours, not the publisher's (docs/rules/ponte.md).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property
from typing import TYPE_CHECKING, Any, Final

from games.core import RecordError, Ruleset, read

if TYPE_CHECKING:
    from games.ponte.tables import PlayTables

JSON = Any

SIDES = ("tramontana", "mezzogiorno")
TRAMONTANA, MEZZOGIORNO = 0, 1
QUARTERS = ("east", "west")

# Six per side; the first three of each side form its East quarter, the last three its West
# quarter (the split is ours: the text does not say which magistratura lies where).
MAGISTRATURE = (
    "calci",
    "calcesana",
    "mattaccini",
    "san_michele",
    "santa_maria",
    "satiri",
    "delfini",
    "dragoni",
    "leoni",
    "san_marco",
    "san_martino",
    "sant_antonio",
)
MAG_INDEX = {name: i for i, name in enumerate(MAGISTRATURE)}


def mag_label(name: str) -> str:
    """A magistratura's name as written (``sant_antonio``: Sant'Antonio)."""
    words = name.replace("sant_", "sant'").split("_")
    return " ".join(w[:1].upper() + w[1:] for w in words).replace("Sant'a", "Sant'A")


MODES = ("base", "advanced", "expert", "incognito")

ATTACK, PUSH, DEFENSE = "A", "P", "D"
TYPE_NAMES = {ATTACK: "attack", PUSH: "push", DEFENSE: "defense"}
# BEATS[x] is the type x beats: Attack beats Push, Push beats Defense, Defense beats Attack.
BEATS = {ATTACK: PUSH, PUSH: DEFENSE, DEFENSE: ATTACK}

STRATEGY_KINDS = ("add", "subtract", "cancel", "move", "recover")

DEFAULT_FIGHT_CARDS = (
    "A20000",
    "A15000",
    "A10000",
    "A5000",
    "P15000",
    "P10000",
    "P10000",
    "P5000",
    "D15000",
    "D10000",
    "D5000",
    "D5000",
)
DEFAULT_STRATEGY_CARDS = (
    "add:5000",
    "add:10000",
    "subtract:5000",
    "cancel:0",
    "move:1",
    "recover:10000",
)


def side_of(mag: int) -> int:
    return mag // 6


def quarter_of(mag: int) -> int:
    """0 Tramontana East, 1 Tramontana West, 2 Mezzogiorno East, 3 Mezzogiorno West."""
    return mag // 3


def quarter_mags(quarter: int) -> range:
    return range(quarter * 3, quarter * 3 + 3)


def side_mags(side: int) -> range:
    return range(side * 6, side * 6 + 6)


@dataclass(frozen=True, slots=True)
class FightCard:
    code: str
    kind: str  # ATTACK, PUSH or DEFENSE
    value: int


def is_fight_code(code: str) -> bool:
    return len(code) >= 2 and code[0] in BEATS and code[1:].isdigit()


def parse_fight(code: str, path: str = "fight card") -> FightCard:
    if not is_fight_code(code):
        raise RecordError(
            f"{code!r} is not a fight card; write the type and the Kg/Push: A20000, P5000, D10000",
            path=path,
        )
    return FightCard(code, code[0], int(code[1:]))


@dataclass(frozen=True, slots=True)
class StrategyCard:
    code: str
    kind: str
    amount: int


def parse_strategy(code: str, path: str = "strategy card") -> StrategyCard:
    kind, _, amount = code.partition(":")
    if kind not in STRATEGY_KINDS or not amount.isdigit():
        raise RecordError(
            f"{code!r} is not a strategy card; write kind:amount with kind one of "
            f"{', '.join(STRATEGY_KINDS)} (e.g. add:5000, move:1, cancel:0)",
            path=path,
        )
    return StrategyCard(code, kind, int(amount))


@dataclass(frozen=True)
class PonteRuleset(Ruleset):
    """A mode (base, advanced, expert, incognito) for 2, 3, 4 or 6 players, and the set.

    ``fight_cards``: the twelve fight cards of a side, type letter and Kg/Push (``A20000``).
    ``strategy_cards``: the six strategy cards of a side as ``kind:amount`` (add, subtract,
    cancel, move, recover). ``bridge_slots``: slots from the middle to each end; the carrello
    past the last one wins. ``lone_side``: with three players, the side seat 0 commands alone.
    ``stop_at_four``: end the match as soon as a side has four challenges (default: all six
    are fought, as on the real bridge). ``pack_per_challenge``: the fight pack comes back
    whole at each new challenge. ``incognito_reveal``: in Incognito, a magistratura's
    starting power is shown once its challenge is over.
    """

    mode: str = "base"
    lone_side: str = "tramontana"
    fight_cards: tuple[str, ...] = DEFAULT_FIGHT_CARDS
    strategy_cards: tuple[str, ...] = DEFAULT_STRATEGY_CARDS
    bridge_slots: int = 5
    chip: int = 5000
    base_side_powers: tuple[int, ...] = (110000, 90000, 90000, 90000, 60000, 60000)
    base_quarter_powers: tuple[int, ...] = (105000, 85000, 60000)
    side_total: int = 500000
    quarter_total: int = 250000
    min_power: int = 10000
    big_attack: int = 20000
    big_attack_min: int = 100000
    tiebreak_bonus: int = 40000
    challenges: int = 6
    to_win: int = 4
    stop_at_four: bool = False
    pack_per_challenge: bool = True
    incognito_reveal: bool = False

    def to_json(self) -> dict[str, JSON]:
        plain = super().to_json()
        plain.pop("seats", None)
        return plain

    @cached_property
    def pack(self) -> tuple[FightCard, ...]:
        return tuple(parse_fight(c) for c in self.fight_cards)

    @cached_property
    def codes(self) -> dict[str, FightCard]:
        return {c.code: c for c in self.pack}

    @cached_property
    def values(self) -> tuple[int, ...]:
        """Each pack card's Kg/Push, by pack index."""
        return tuple(c.value for c in self.pack)

    @cached_property
    def big_only(self) -> tuple[bool, ...]:
        """By pack index: the big Attack, for a magistratura that began with enough power."""
        return tuple(self.restricted(c) for c in self.pack)

    @cached_property
    def cheapest(self) -> tuple[float, float]:
        """The cheapest card of the pack a magistratura may pay: (began small, began big)."""
        small = [c.value for c, big in zip(self.pack, self.big_only, strict=True) if not big]
        return (min(small, default=math.inf), min(self.values, default=math.inf))

    @cached_property
    def indices(self) -> dict[str, tuple[int, ...]]:
        """Each code's pack indices (a pack may hold the same card twice)."""
        return {c: tuple(i for i, d in enumerate(self.fight_cards) if d == c) for c in self.codes}

    @cached_property
    def fights(self) -> dict[tuple[str | None, int | None], Fight]:
        """One shared ``Fight`` per (card code or None, strategy or None) of this set."""
        return {
            (code, s): Fight(code, s) for code in (None, *self.codes) for s in (None, *range(6))
        }

    @cached_property
    def strategies(self) -> tuple[StrategyCard, ...]:
        return tuple(parse_strategy(c) for c in self.strategy_cards)

    @cached_property
    def tables(self) -> PlayTables:
        """What play under this ruleset looks up instead of working out (games/ponte/tables.py)."""
        from games.ponte.tables import PlayTables

        return PlayTables(self)

    @property
    def hidden_values(self) -> bool:
        return self.mode in ("expert", "incognito")

    @property
    def free_assignment(self) -> bool:
        return self.mode != "base"

    def restricted(self, card: FightCard) -> bool:
        """The big Attack: only for a magistratura that began with ``big_attack_min``."""
        return card.kind == ATTACK and card.value >= self.big_attack

    def allowed(self, card: FightCard, starting: int) -> bool:
        return not (self.restricted(card) and starting < self.big_attack_min)


@dataclass(frozen=True, slots=True)
class Layout:
    """Who commands what: the owner seat of each quarter and each side's General (6 players)."""

    owners: tuple[int, int, int, int]
    generals: tuple[int, int] | None = None

    def side_seats(self, side: int) -> tuple[int, ...]:
        seats = {self.owners[2 * side], self.owners[2 * side + 1]}
        if self.generals is not None:
            seats.add(self.generals[side])
        return tuple(sorted(seats))

    def side_of_seat(self, seat: int) -> int:
        if self.generals is not None and seat in self.generals:
            return self.generals.index(seat)
        return self.owners.index(seat) // 2

    def split(self, side: int) -> bool:
        """The side's two quarters belong to different players."""
        return self.owners[2 * side] != self.owners[2 * side + 1]

    def players(self) -> tuple[int, ...]:
        """Seats that command quarters (everyone but the Generals)."""
        return tuple(sorted(set(self.owners)))


def layout_for(ruleset: PonteRuleset) -> Layout:
    if ruleset.seats == 2:
        return Layout((0, 0, 1, 1))
    if ruleset.seats == 3:
        if ruleset.lone_side == "mezzogiorno":
            return Layout((1, 2, 0, 0))
        return Layout((0, 0, 1, 2))
    if ruleset.seats == 4:
        return Layout((0, 1, 2, 3))
    return Layout((1, 2, 4, 5), (0, 3))


class Termination(StrEnum):
    CHALLENGES = "challenges"  # a side won four or more of the six challenges
    TIE_BREAKER = "tie_breaker"  # 3-3, decided by the final tie breaker
    FOUR_REACHED = "four_reached"  # stop_at_four: a side reached four early


@dataclass(frozen=True, slots=True)
class Assign:
    """Write a magistratura's power on the assignment sheet (Expert: in rank order)."""

    mag: int
    power: int


@dataclass(frozen=True, slots=True)
class Equip:
    """Place one of the side's strategy cards (by index) on a magistratura's flag."""

    mag: int
    card: int


@dataclass(frozen=True, slots=True)
class Deploy:
    """Put a magistratura on the bridge; a challenger may name the enemy quarter."""

    mag: int
    quarter: int | None = None


@dataclass(frozen=True, slots=True)
class Fight:
    """A side's secret choice for one move: a fight card (or none) and a strategy card."""

    card: str | None
    strategy: int | None = None


Action = Assign | Equip | Deploy | Fight


def encode(action: Any) -> dict[str, JSON]:
    if isinstance(action, Assign):
        return {"assign": MAGISTRATURE[action.mag], "power": action.power}
    if isinstance(action, Equip):
        return {"equip": MAGISTRATURE[action.mag], "strategy": action.card}
    if isinstance(action, Deploy):
        quarter = None if action.quarter is None else QUARTERS[action.quarter]
        return {"deploy": MAGISTRATURE[action.mag], "quarter": quarter}
    if isinstance(action, Fight):
        return {"fight": action.card, "strategy": action.strategy}
    raise TypeError(f"not a ponte action: {action!r}")


def _mag(data: Any, path: str, key: str) -> int:
    if isinstance(data, str):
        mag = MAG_INDEX.get(data)
        if mag is not None:
            return mag
    raise RecordError(
        f"unknown magistratura {data!r}; known: {', '.join(MAGISTRATURE)}", path=f"{path}.{key}"
    )


def _int(data: Any, path: str, key: str) -> int:
    return read.whole(data, f"{path}.{key}")


# Fight choices as read from records, one shared (frozen) object per choice: a record is
# mostly fight choices, and a few dozen distinct ones make up nearly all of them.
_READ_FIGHTS: dict[tuple[str | None, int | None], Fight] = {}
_READ_FIGHTS_MAX: Final = 4096


def decode(data: Any, path: str) -> Action:
    """Error paths are only formatted when there is an error (records replay in bulk)."""
    if not isinstance(data, dict):
        raise RecordError(
            'expected {"assign": mag, "power": n}, {"equip": mag, "strategy": i}, '
            '{"deploy": mag, "quarter": q} or {"fight": code, "strategy": i}',
            path=path,
        )
    if "assign" in data:
        return Assign(_mag(data["assign"], path, "assign"), _int(data.get("power"), path, "power"))
    if "equip" in data:
        return Equip(
            _mag(data["equip"], path, "equip"), _int(data.get("strategy"), path, "strategy")
        )
    if "deploy" in data:
        q = data.get("quarter")
        if q is not None and q not in QUARTERS:
            raise RecordError('expected "east", "west" or null', path=f"{path}.quarter")
        quarter = None if q is None else QUARTERS.index(q)
        return Deploy(_mag(data["deploy"], path, "deploy"), quarter)
    if "fight" in data:
        card = data["fight"]
        strategy = data.get("strategy")
        plain = (card is None or type(card) is str) and (strategy is None or type(strategy) is int)
        if plain:  # a choice read before is the same action, already checked
            known = _READ_FIGHTS.get((card, strategy))
            if known is not None:
                return known
        if card is not None:
            if not isinstance(card, str):
                raise RecordError(
                    "expected a fight card code (A20000) or null", path=f"{path}.fight"
                )
            if not is_fight_code(card):
                parse_fight(card, f"{path}.fight")  # raises, with the usual message
        if strategy is not None:
            strategy = _int(strategy, path, "strategy")
        fight = Fight(card, strategy)
        if plain:
            if len(_READ_FIGHTS) >= _READ_FIGHTS_MAX:
                _READ_FIGHTS.clear()
            _READ_FIGHTS[card, strategy] = fight
        return fight
    raise RecordError('expected one of "assign", "equip", "deploy", "fight"', path=path)
