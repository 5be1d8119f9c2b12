"""San Marco on the board: the base game for 3 and 4 players and the three two-player
variants, played action by action and refereed.

One state machine serves every ruleset. What differs is said by the colours a game has
(players, variant 1's ghosts, variant 2's neutral colour, variant 3's two colours per seat)
and a few hooks: who takes the roles, the cards dealt per role shape, the ghosts' dice after
each hand, what ends a passage, and how the final scores are read.

Chance is part of the record: every die roll, every card drawn and every role draw is written
in ``deal.chance`` in the order it happened, so a replay meets the same chance and a referee
can type what really fell at a table. docs/rules/sanmarco.md gives every rule id its source
and the decision taken where the sources are silent.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, NamedTuple

from games.core import (
    NOTATION_VERSION,
    Outcome,
    RecordError,
    State,
    Violation,
    read,
    rule_broken,
)
from games.core import rng as make_rng
from games.core.engine import ReplayFault
from games.core.text import seat_no
from games.sanmarco.board import DISTRICTS, MAX_BRIDGES, Board, load_board
from games.sanmarco.rules import BOOK, SLUG
from games.sanmarco.scoring import outcome_of, score_base, score_v1, score_v2, score_v3
from games.sanmarco.state import BoardRuleset

JSON = Any

# --- cards --------------------------------------------------------------------------------
BRIDGE, TRANSFER, DOGE, BANISH = 6, 7, 8, 9
CARD_NAMES = (*DISTRICTS, "bridge", "transfer", "doge", "banish")
ACTION_DECK = tuple([d for d in range(6) for _ in range(5)] + [BRIDGE] * 6 + [TRANSFER] * 12
                    + [DOGE] * 10 + [BANISH] * 4)  # fmt: skip
LIMIT_DECK = tuple([1] * 8 + [2] * 10 + [3] * 10)
LIMIT_BASE = 10  # in a hand, limit card v is coded 10 + v so that one sorted list holds both
CUBES = 25
NEUTRAL_CUBES = 12

MODES = ("base", "variant1", "variant2", "variant3")
PLAYER, GHOST, NEUTRAL = "player", "ghost", "neutral"


class Phase(StrEnum):
    """Where a scoring round stands; the values are the ``phase`` of a view."""

    SETUP = "setup"  # the starting bridges
    DIVIDE = "divide"  # the distributor divides a hand into offers
    CHOOSE = "choose"  # the others choose an offer
    RESOLVE = "resolve"  # the cards of the offers are played
    BETWEEN = "between"  # a round has ended, the next is not dealt yet
    FREE_BANISH = "free_banish"  # the free banishment after a passage
    NEUTRAL_RETURN = "neutral"  # variant 2: the neutral cubes go back
    OVER = "over"


# the phases as module names: looking up Phase.X costs an attribute lookup each time
SETUP, DIVIDE, CHOOSE, RESOLVE, BETWEEN = (
    Phase.SETUP,
    Phase.DIVIDE,
    Phase.CHOOSE,
    Phase.RESOLVE,
    Phase.BETWEEN,
)
FREE_BANISH, NEUTRAL_RETURN, OVER = Phase.FREE_BANISH, Phase.NEUTRAL_RETURN, Phase.OVER


class Termination(StrEnum):
    FINAL_SCORING = "final_scoring"


# --- actions ------------------------------------------------------------------------------
class Act(NamedTuple):
    """One decision (a named tuple: legal lists are built and compared at C speed).

    ``do`` names it; a, b, c are its parameters (-1 when unused):

    pile (a: pile for the next card), choose (a: pile), bridge (a, b: districts; c: the
    bridge taken over, when the supply is empty), district (a: the card's district,
    b: where the aristocrat ends, c: the district it is taken from when the supply is empty),
    transfer (a: district, b: colour replaced), banish (a: district), remove (a: colour),
    doge (a: bridge crossed), stop, skip (a: card), neutral (a: district), score (a: colour).
    """

    do: str
    a: int = -1
    b: int = -1
    c: int = -1


KINDS = (
    "pile", "choose", "bridge", "district", "transfer", "banish", "remove", "doge", "stop",
    "skip", "neutral", "score",
)  # fmt: skip


def encode(action: Act) -> dict[str, JSON]:
    do, a, b, c = action.do, action.a, action.b, action.c
    out: dict[str, JSON] = {"do": do}
    if do in ("pile", "choose"):
        out["pile"] = a
    elif do == "bridge":
        out["between"] = [DISTRICTS[a], DISTRICTS[b]]
        if c >= 0:
            out["take"] = c
    elif do == "district":
        out["district"] = DISTRICTS[a]
        if b != a:
            out["to"] = DISTRICTS[b]
        if c >= 0:
            out["from"] = DISTRICTS[c]
    elif do == "transfer":
        out["district"] = DISTRICTS[a]
        out["colour"] = b
    elif do in ("banish", "neutral"):
        out["district"] = DISTRICTS[a]
    elif do in ("remove", "score"):
        out["colour"] = a
    elif do == "doge":
        out["bridge"] = a
    elif do == "skip":
        out["card"] = CARD_NAMES[a]
    return out


def _d(data: Mapping[str, Any], key: str, path: str) -> int:
    v = data.get(key)
    if v not in DISTRICTS:
        raise RecordError(f"expected a district: {', '.join(DISTRICTS)}", path=f"{path}.{key}")
    return DISTRICTS.index(v)


def _n(data: Mapping[str, Any], key: str, path: str) -> int:
    v = data.get(key)
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        raise RecordError("expected a whole number, 0 or more", path=f"{path}.{key}")
    return v


def decode(data: Any, path: str = "actions") -> Act:
    if not isinstance(data, Mapping) or data.get("do") not in KINDS:
        raise RecordError(f'expected {{"do": one of {", ".join(KINDS)}, ...}}', path=path)
    do = data["do"]
    if do in ("pile", "choose"):
        return Act(do, _n(data, "pile", path))
    if do == "bridge":
        pair = data.get("between")
        if not isinstance(pair, list) or len(pair) != 2 or any(p not in DISTRICTS for p in pair):
            raise RecordError("expected two districts", path=f"{path}.between")
        a, b = sorted(DISTRICTS.index(p) for p in pair)
        take = _n(data, "take", path) if "take" in data else -1
        return Act(do, a, b, take)
    if do == "district":
        a = _d(data, "district", path)
        b = _d(data, "to", path) if "to" in data else a
        c = _d(data, "from", path) if "from" in data else -1
        return Act(do, a, b, c)
    if do == "transfer":
        return Act(do, _d(data, "district", path), _n(data, "colour", path))
    if do in ("banish", "neutral"):
        return Act(do, _d(data, "district", path))
    if do in ("remove", "score"):
        return Act(do, _n(data, "colour", path))
    if do == "doge":
        return Act(do, _n(data, "bridge", path))
    if do == "skip":
        card = data.get("card")
        if card not in CARD_NAMES:
            raise RecordError(f"expected a card: {', '.join(CARD_NAMES)}", path=f"{path}.card")
        return Act(do, CARD_NAMES.index(card))
    return Act(do)


# --- the quick reader used by replay ----------------------------------------------------------
_new_act = tuple.__new__  # an Act from its four fields at C speed
_STOP = Act("stop")
_PILES = tuple(Act("pile", q) for q in range(4))  # the offers a hand is divided into

# Every action a legal list can hold, made once and shared (an Act is immutable): a legal
# list is then a list of lookups, not of new tuples. Indices past a table's end (a club's
# board with more bridges, say) are made on the spot.
_SHORT = 8  # offers, colours and bridges a table holds without making an action anew
_PILE_LIST = [Act("pile", q) for q in range(_SHORT)]
_CHOOSE = tuple(Act("choose", q) for q in range(_SHORT))
_REMOVE = tuple(Act("remove", c) for c in range(_SHORT))
_SCORE = tuple(Act("score", c) for c in range(_SHORT))
_NEUTRAL = tuple(Act("neutral", d) for d in range(6))
_BANISH = tuple(Act("banish", d) for d in range(6))
_SKIP = tuple(Act("skip", card) for card in range(len(CARD_NAMES)))
_DOGE_STEP = tuple(Act("doge", i) for i in range(MAX_BRIDGES))
# a district card's moves: [card][end] from the supply, [card][end][source] from the board
_DISTRICT_ACT = tuple(tuple(Act("district", a, b) for b in range(6)) for a in range(6))
_DISTRICT_FROM = tuple(
    tuple(tuple(Act("district", a, b, c) for c in range(6)) for b in range(6)) for a in range(6)
)
# [district][colour replaced]
_TRANSFER = tuple(tuple(Act("transfer", d, v) for v in range(_SHORT)) for d in range(6))
# [a][b][bridge taken over + 1] (0: none taken)
_BRIDGE_ACT = tuple(
    tuple(tuple(Act("bridge", a, b, c) for c in range(-1, MAX_BRIDGES)) for b in range(6))
    for a in range(6)
)


def _pick(table: Sequence[Act], i: int, do: str) -> Act:
    """``table[i]``, or the same action made anew when the table is too short."""
    return table[i] if 0 <= i < len(table) else _new_act(Act, (do, i, -1, -1))


_DISTRICT = {name: i for i, name in enumerate(DISTRICTS)}
_CARD = {name: i for i, name in enumerate(CARD_NAMES)}


def _count(v: Any) -> int:
    """A whole number, 0 or more (-2 when it is not one: the caller then reads again)."""
    return v if type(v) is int and v >= 0 else -2


def _place_of(v: Any) -> int:
    return _DISTRICT.get(v, -2) if type(v) is str else -2


def _quick_bridge(data: dict[str, Any]) -> Act | None:
    pair = data.get("between")
    if type(pair) is not list or len(pair) != 2:
        return None
    a, b = pair  # ``_place_of`` each, written out
    a = _DISTRICT.get(a, -2) if type(a) is str else -2
    b = _DISTRICT.get(b, -2) if type(b) is str else -2
    take = _count(data["take"]) if "take" in data else -1
    if a < 0 or b < 0 or take == -2:
        return None
    return _new_act(Act, ("bridge", a, b, take) if a <= b else ("bridge", b, a, take))


def _quick_district(data: dict[str, Any]) -> Act | None:
    v = data.get("district")
    a = _DISTRICT.get(v, -2) if type(v) is str else -2
    if a < 0:
        return None
    b = _place_of(data["to"]) if "to" in data else a
    c = _place_of(data["from"]) if "from" in data else -1
    if b < 0 or c == -2:
        return None
    return _new_act(Act, ("district", a, b, c))


def _quick_transfer(data: dict[str, Any]) -> Act | None:
    a, c = data.get("district"), data.get("colour")  # ``_place_of`` and ``_count``, written out
    a = _DISTRICT.get(a, -2) if type(a) is str else -2
    if a < 0 or type(c) is not int or c < 0:
        return None
    return _TRANSFER[a][c] if c < _SHORT else _new_act(Act, ("transfer", a, c, -1))


def _quick_one(do: str, key: str, read: Any) -> Any:
    def quick(data: dict[str, Any]) -> Act | None:
        v = read(data.get(key))
        return None if v < 0 else _new_act(Act, (do, v, -1, -1))

    return quick


# The other kinds, each read by its own function (None: the full reader reads it).
_QUICK: dict[str, Any] = {
    "bridge": _quick_bridge,
    "district": _quick_district,
    "transfer": _quick_transfer,
    "banish": _quick_one("banish", "district", _place_of),
    "neutral": _quick_one("neutral", "district", _place_of),
    "skip": _quick_one("skip", "card", lambda v: _CARD.get(v, -2) if type(v) is str else -2),
    "stop": lambda data: _STOP,
}


# a card to offer q by seat s, as history holds it: [s][q] (a tuple is immutable: shared)
_PILE_ENTRY = tuple(tuple((s, _PILES[q]) for q in range(4)) for s in range(_SHORT))

# A step inside a card, by kind: the field of its whole number and its actions by number.
_STEP_READ: dict[str, tuple[str, tuple[Act, ...]]] = {
    "doge": ("bridge", _DOGE_STEP),
    "remove": ("colour", _REMOVE),
    "score": ("colour", _SCORE),
}

# The kinds read from one whole number (0 or more), and the field that holds it.
_COUNT_FIELD = {"choose": "pile", "remove": "colour", "score": "colour", "doge": "bridge"}


def decode_quick(raw: Any) -> tuple[int, Act]:
    """``(seat, decode(raw))`` for a well-formed plain action; anything else raises
    RecordError, and the full reader (``Game.decode_step``) then reads it or says what is
    wrong. Accepts nothing ``decode`` refuses; replay reads every action through it."""
    if type(raw) is dict:
        seat, do = raw.get("seat"), raw.get("do")
        if type(seat) is int:
            if do == "pile":  # half of a game's actions
                v = raw.get("pile")
                if type(v) is int and v >= 0:
                    return seat, _PILES[v] if v < 4 else _new_act(Act, ("pile", v, -1, -1))
            elif type(do) is str:
                key = _COUNT_FIELD.get(do)
                if key is not None:  # one whole number, 0 or more
                    v = raw.get(key)
                    if type(v) is int and v >= 0:
                        return seat, _new_act(Act, (do, v, -1, -1))
                elif (quick := _QUICK.get(do)) is not None:
                    act = quick(raw)
                    if act is not None:
                        return seat, act
    raise RecordError("not a plain board action: the full reader reads it")


# The card an action in a holder's hand plays (-1: no card plays it).
_CARD_OF_KIND = {"bridge": BRIDGE, "transfer": TRANSFER, "banish": BANISH, "doge": DOGE,
                 "stop": DOGE}  # fmt: skip


def _card_of(act: Act) -> int:
    do = act.do
    if do == "district" or do == "skip":
        return act.a
    return _CARD_OF_KIND.get(do, -1)


# --- chance ---------------------------------------------------------------------------------
CHANCE_KINDS = ("dice", "action_cards", "limit_cards", "roles")


def below(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` for n > 0, drawn as CPython 3.11 draws it (the fewest random
    bits that cover n, drawn again while the value is n or more), without randrange's
    argument handling: chance is drawn this way a few hundred times a game, and every
    record with a seed is replayed through it. A test holds it equal to randrange."""
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


# n.bit_length() for the sizes a deck can have (read by ``Chance.cards``)
_BIT_LENGTH = tuple(n.bit_length() for n in range(len(ACTION_DECK) + 1))


class Chance:
    """Die rolls, card draws and role draws: from a seed, or read back from a record.

    Whatever is drawn is kept in ``used``, which is what a record writes. With both a seed
    and written chance (a digital table's record), the seed draws and what is written must
    agree as far as it goes.
    """

    def __init__(self, seed: int | None, given: Mapping[str, Any] | None) -> None:
        self.seed = seed
        self.rng = make_rng(seed, "sanmarco-chance") if seed is not None else None
        self.given = given or {}
        self.used: dict[str, list[Any]] = {k: [] for k in CHANCE_KINDS}

    def _next(self, kind: str) -> Any:
        i = len(self.used[kind])
        pool = self.given.get(kind, [])
        if i >= len(pool):
            raise RecordError(f"the record's chance has no {kind} left", path=f"deal.chance.{kind}")
        return pool[i]

    def _agree(self, kind: str, value: Any) -> None:
        i = len(self.used[kind])
        pool = self.given.get(kind, [])
        if i < len(pool) and pool[i] != value:
            raise RecordError(
                f"{pool[i]!r} written, the seed gives {value!r}", path=f"deal.chance.{kind}[{i}]"
            )

    def die(self) -> int:
        rng = self.rng
        if rng is not None:
            r = rng.getrandbits(3)  # ``below(rng, 6)``, written out
            while r >= 6:
                r = rng.getrandbits(3)
            v = 1 + r  # randint(1, 6)
            used, pool = self.used["dice"], self.given.get("dice")
            if pool and len(used) < len(pool) and pool[len(used)] != v:
                self._agree("dice", v)  # raises, saying what was written
            used.append(v)
            return v
        else:
            v = self._next("dice")
            if isinstance(v, bool) or v not in (1, 2, 3, 4, 5, 6):
                raise RecordError("a die shows 1 to 6", path="deal.chance.dice")
        self.used["dice"].append(v)
        return int(v)

    def card(self, kind: str, deck: list[int]) -> int:
        """Draw one card from ``deck`` (removed from it)."""
        if self.rng is not None:
            v = deck.pop(below(self.rng, len(deck)))
            drawn = CARD_NAMES[v] if kind == "action_cards" else v
            used = self.used[kind]
            pool = self.given.get(kind)
            if pool and len(used) < len(pool) and pool[len(used)] != drawn:
                self._agree(kind, drawn)  # raises, saying what was written
            used.append(drawn)
            return v
        else:
            raw = self._next(kind)
            if kind == "action_cards":
                v = CARD_NAMES.index(raw) if raw in CARD_NAMES else -1
            else:
                v = raw if raw in (1, 2, 3) and not isinstance(raw, bool) else -1
            if v not in deck:
                raise RecordError(f"{raw!r} is not in the deck now", path=f"deal.chance.{kind}")
            deck.remove(v)
        self.used[kind].append(CARD_NAMES[v] if kind == "action_cards" else v)
        return v

    def cards(self, kind: str, deck: list[int], discard: list[int], count: int) -> list[int]:
        """Draw up to ``count`` cards from ``deck``; when it runs out, the discard (in order)
        becomes the deck, and with both empty fewer cards are drawn."""
        out: list[int] = []
        rng = self.rng
        n = len(deck)
        if rng is not None and count <= n < len(_BIT_LENGTH):
            # the common case, the steps below written out: a seed, and the deck holds them
            getrandbits, pop, bits = rng.getrandbits, deck.pop, _BIT_LENGTH
            used = self.used[kind]
            first = len(used)
            card_names = CARD_NAMES if kind == "action_cards" else None
            for size in range(n, n - count, -1):
                k = bits[size]  # ``below(rng, size)``
                r = getrandbits(k)
                while r >= size:
                    r = getrandbits(k)
                c = pop(r)
                out.append(c)
                used.append(c if card_names is None else card_names[c])
            pool = self.given.get(kind)
            # as far as it is written: both slices end at the shorter list's end
            if pool and first < len(pool) and pool[first : len(used)] != used[first : len(pool)]:
                self._disagree(kind, pool, first)
            return out
        used = self.used[kind]
        first = len(used)
        names = kind == "action_cards"
        for _ in range(count):
            if not deck:
                # sanmarco.base.reshuffle: an empty deck is made again from its discards.
                deck.extend(sorted(discard))
                discard.clear()
                if not deck:
                    break
            if rng is None:
                out.append(self.card(kind, deck))
                continue
            # ``card`` with a seed, written out: a deal draws eight cards at once
            n = len(deck)
            k = n.bit_length()  # ``below(rng, n)``, written out too
            r = rng.getrandbits(k)
            while r >= n:
                r = rng.getrandbits(k)
            out.append(deck.pop(r))
        if rng is None:
            return out  # ``card`` kept each one
        used.extend(map(CARD_NAMES.__getitem__, out) if names else out)
        pool = self.given.get(kind)
        if pool:  # what is written must be what the seed drew
            last = min(len(used), len(pool))
            if first < last and pool[first:last] != used[first:last]:
                self._disagree(kind, pool, first)
        return out

    def _disagree(self, kind: str, pool: list[Any], first: int) -> None:
        """Raise at the first of the draws from ``first`` on that is not the one written."""
        used = self.used[kind]
        i = next(i for i in range(first, min(len(used), len(pool))) if pool[i] != used[i])
        raise RecordError(
            f"{pool[i]!r} written, the seed gives {used[i]!r}", path=f"deal.chance.{kind}[{i}]"
        )

    def roles(self, candidates: Sequence[tuple[int, ...]]) -> list[int]:
        """One of the role draws the rules allow (each colour's role, in slot order)."""
        if self.rng is not None:
            pick = list(candidates[below(self.rng, len(candidates))])
            self._agree("roles", pick)
        else:
            raw = self._next("roles")
            if not isinstance(raw, list) or tuple(raw) not in candidates:
                raise RecordError(
                    f"{raw!r} is not a role draw the rules allow here", path="deal.chance.roles"
                )
            pick = list(raw)
        self.used["roles"].append(pick)
        return list(pick)


# Phases in which the flow waits for a decision (``_advance`` has nothing to run).
_WAITING = frozenset((DIVIDE, CHOOSE, FREE_BANISH, OVER))


# --- the state ----------------------------------------------------------------------------------
@dataclass(slots=True)
class Pair:
    """A distributor and the colours that choose from the offers (in choosing order)."""

    distributor: int
    choosers: list[int]
    actions: int  # action cards dealt
    limits: int  # limit cards dealt


@dataclass(slots=True)
class Pending:
    """Work inside a card: a banishment's removals, the Doge's walk, variant 3's choices."""

    kind: str  # "remove" | "doge" | "score"
    district: int = -1
    left: int = 0
    visited: set[int] = field(default_factory=set)
    seats: list[int] = field(default_factory=list)
    excluded: set[int] = field(default_factory=set)
    card: bool = True  # False for the free banishment at a passage's end


# Per district, where a district card may put its aristocrat (the district itself, then the
# districts across the colour's own bridges from it, in order), and the moves from the supply
# that say so.
_Reach = tuple[tuple[tuple[int, ...], ...], tuple[tuple[Act, ...], ...]]


# per board's bridge sites: ``_reach`` by the set of sites (``BoardState._reach_memo``)
_REACH_MEMO: dict[tuple[tuple[int, int], ...], dict[int, _Reach]] = {}


def _reach(sites: tuple[tuple[int, int], ...], own: int) -> _Reach:
    """``_Reach`` for a colour whose bridges stand on the sites ``own`` (a bit per site)."""
    across: list[set[int]] = [set() for _ in range(6)]
    for site, (a, b) in enumerate(sites):
        if not own >> site & 1:
            continue
        across[a].add(b)
        across[b].add(a)
    ends = tuple((d, *sorted(across[d])) for d in range(6))
    return ends, tuple(tuple(_DISTRICT_ACT[d][e] for e in ends[d]) for d in range(6))


def combos(n: int, k: int) -> list[list[int]]:
    """Every ordering of k distinct items from range(n)."""
    return [list(p) for p in _orderings(n, k)]


@functools.cache
def _orderings(n: int, k: int) -> tuple[tuple[int, ...], ...]:
    out: list[tuple[int, ...]] = [()]
    for _ in range(k):
        out = [(*p, x) for p in out for x in range(n) if x not in p]
    return tuple(out)


@functools.cache
def _role_draws(leader: int, others: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The role draws of a round (sanmarco.base.roles): the leader first, the other colours
    in every order (made once for each leader and colours)."""
    return tuple((leader, *(others[i] for i in p)) for p in _orderings(len(others), len(others)))


class BoardState(State):
    ruleset: BoardRuleset

    def __init__(
        self, ruleset: BoardRuleset, seed: int | None, given: Mapping[str, Any] | None = None
    ) -> None:
        self.ruleset = ruleset
        self.board: Board = load_board(ruleset.board)
        self.chance = Chance(seed, given)
        mode = ruleset.mode
        if mode == "base":
            kinds = [PLAYER] * ruleset.seats
            ctrl: list[int | None] = list(range(ruleset.seats))
        elif mode == "variant1":
            kinds, ctrl = [PLAYER, PLAYER, GHOST, GHOST], [0, 1, None, None]
        elif mode == "variant2":
            kinds, ctrl = [PLAYER, PLAYER, NEUTRAL], [0, 1, None]
        else:
            kinds, ctrl = [PLAYER] * 4, [0, 1, 0, 1]
        self.kinds = kinds
        self.controller = ctrl
        self.role_colours = [c for c, k in enumerate(kinds) if k == PLAYER]
        n = len(kinds)
        self.cubes = [[0] * n for _ in range(6)]
        self.supply = [NEUTRAL_CUBES if k == NEUTRAL else CUBES for k in kinds]
        self.score = [0] * n
        self.limits: list[list[int]] = [[] for _ in range(n)]
        self.bridges: list[list[int]] = []  # [site, owner]
        self.doge = self.board.doge_start
        self.action_deck = list(ACTION_DECK)
        self.action_discard: list[int] = []
        self.limit_deck = list(LIMIT_DECK)
        self.limit_discard: list[int] = []
        self.passage = 1
        self.rounds = 0  # rounds begun in the game (the leader turns with it)
        self.final_round = False
        self.passage_log: list[dict[str, Any]] = []
        self.score_log: list[dict[str, Any]] = []
        self.history: list[tuple[int, Act]] = []
        self.phase: Phase = SETUP
        self.setup_queue: list[int] = []
        self.neutral_seats: list[int] = []
        self.pairs: list[Pair] = []
        self.hand: list[int] = []
        self.assign: list[int] = []
        self._used = 0  # offers opened while dividing (max(assign) + 1)
        self._offers = 0  # offers of the hand being divided (its choosers and distributor)
        self.piles: list[list[int]] = []
        self.taken: list[int] = []  # colour holding each pile (-1 while on the table)
        self.chooser_i = 0
        self.holders: list[int] = []  # colours still to carry out their pile, in order
        self.holding: list[int] = []  # the current holder's action cards left
        self.pending: Pending | None = None
        self.banish_queue: list[int] = []
        self.roles: list[int] = []
        self.last_v1: list[int] = []
        # read from the bridges, and the bridges they were read from (``_bridges_changed``)
        self._bridges_seen: list[list[int]] | None = None
        self._hops_of: list[_Reach | None] = []
        self._reach_memo = _REACH_MEMO.setdefault(self.board.sites, {})
        self._touch: tuple[tuple[tuple[int, int], ...], ...] | None = None
        self._free_sites: tuple[Act, ...] | None = None  # a new bridge's moves, below 12
        self._setup()

    # --- small helpers -----------------------------------------------------------------
    def seat_of(self, colour: int) -> int | None:
        return self.controller[colour]

    def limit_total(self, colour: int) -> int:
        return sum(self.limits[colour])

    def owner_bridges_at(self, colour: int, d: int) -> list[int]:
        """Districts across this colour's own bridges from d."""
        out = []
        for site, owner in self.bridges:
            if owner != colour:
                continue
            a, b = self.board.sites[site]
            if a == d and b not in out:
                out.append(b)
            elif b == d and a not in out:
                out.append(a)
        return sorted(out)

    def on_site(self, site: int) -> int:
        return sum(1 for s, _ in self.bridges if s == site)

    def _place(self, colour: int, d: int, count: int = 1) -> None:
        k = min(count, self.supply[colour])
        self.supply[colour] -= k
        self.cubes[d][colour] += k

    # --- set-up ---------------------------------------------------------------------------
    # sanmarco.base.setup: four die rolls per colour, two aristocrats each in the district rolled,
    # then each colour's starting bridges (setup_queue).
    def _setup(self) -> None:
        for c, kind in enumerate(self.kinds):
            if kind == NEUTRAL:
                continue
            for _ in range(4):
                d = self.board.district_of_face(self.chance.die())
                k = min(2, self.supply[c])  # ``_place(c, d, 2)``, written out
                self.supply[c] -= k
                self.cubes[d][c] += k
        if self.ruleset.mode == "variant2":
            for d in range(6):
                self._place(2, d)
            for _ in range(6):
                self._place(2, self.board.district_of_face(self.chance.die()))
        self.setup_queue = [c for c in self.role_colours for _ in range(self.ruleset.start_bridges)]
        self.phase = SETUP
        self._advance()

    # sanmarco.v1.ghost_bridges: a ghost bridges its two strongest districts, or failing that a free
    # site touching the strongest.
    def _ghost_bridges(self) -> None:
        for g, kind in enumerate(self.kinds):
            if kind != GHOST:
                continue
            order = sorted(range(6), key=lambda d: (-self.cubes[d][g], self.board.die[d]))
            free = [s for s in range(len(self.board.sites)) if self._site_free(s)]
            if not free:
                continue
            top, second = order[0], order[1]
            site = self.board.site_index(top, second)
            if site is None or site not in free:
                touching = [s for s in free if top in self.board.sites[s]]
                if touching:
                    rank = {d: i for i, d in enumerate(order)}

                    def other_end(s: int, top: int = top, rank: dict[int, int] = rank) -> int:
                        a, b = self.board.sites[s]
                        return rank[b if a == top else a]

                    site = min(touching, key=other_end)
                else:
                    site = free[0]
            self._build(g, site)

    def _site_free(self, site: int) -> bool:
        return self.on_site(site) < self.board.per_site and len(self.bridges) < MAX_BRIDGES

    def _build(self, colour: int, site: int) -> None:
        self.bridges.append([site, colour])
        self.supply[colour] -= 1

    # --- the flow -------------------------------------------------------------------------
    def _advance(self) -> None:
        """Run every automatic step until a colour must decide (or the game is over)."""
        while True:
            ph = self.phase
            if ph == RESOLVE:  # the common case first
                if self.pending is not None or self.holding:
                    return
                # the holder's hand is carried out
                holder = self.holders.pop(0)
                if self.ruleset.mode == "variant1" and self.kinds[holder] == PLAYER:
                    self._ghost_dice()
                holders = self.holders
                if holders:
                    # ``_hold``, written out
                    self.holding = holding = []
                    for c in self.piles[self.taken.index(holders[0])]:
                        if c < LIMIT_BASE:
                            holding.append(c)
                    continue
                self.pairs.pop(0)
                if self.pairs:
                    self._deal()
                    continue
                self._end_round()
                continue
            if ph in _WAITING:
                return
            if ph == SETUP:
                if self.setup_queue:
                    return
                if self.ruleset.mode == "variant1":
                    self._ghost_bridges()
                self._start_round()
                continue
            if ph == NEUTRAL_RETURN:
                if self.supply[2] > 0 and self.neutral_seats:
                    return
                self._start_round()
                continue
            raise AssertionError(self.phase)

    def _hold(self, colour: int) -> None:
        pile = self.piles[self.taken.index(colour)]
        self.holding = [c for c in pile if c < LIMIT_BASE]

    # sanmarco.v1.ghost_dice: once an active player's hand is carried out, each ghost places
    # aristocrats where the die shows.
    def _ghost_dice(self) -> None:
        per = 2 if self.ruleset.ghost_cubes == "two_per_hand" else 1
        for g, kind in enumerate(self.kinds):
            if kind != GHOST:
                continue
            for _ in range(per):
                self._place(g, self.board.district_of_face(self.chance.die()))

    def _active(self) -> list[int]:
        if self.final_round:
            limits, limit = self.limits, self.ruleset.limit
            return [c for c in self.role_colours if sum(limits[c]) < limit]  # limit_total
        return list(self.role_colours)

    def _start_round(self) -> None:
        active = self._active()
        rs = self.ruleset
        n_all = len(self.role_colours)
        start = self.rounds % n_all
        rotation = self.role_colours[start:] + self.role_colours[:start]
        # sanmarco.base.roles: the leader moves one seat each round and distributes first; the other
        # roles are drawn (chance.roles).
        ordered = rotation if not self.final_round else [c for c in rotation if c in active]
        leader, others = ordered[0], ordered[1:]
        if rs.mode == "variant1":
            # sanmarco.v1.roles: the die picks the first distributor, the next round the roles swap,
            # then the die is rolled again.
            if self.rounds % 2 == 1 and self.last_v1:
                d, s = self.last_v1[1], self.last_v1[0]
            else:
                while True:
                    r0, r1 = self.chance.die(), self.chance.die()
                    if r0 != r1:
                        break
                d, s = (0, 1) if r0 > r1 else (1, 0)
            self.last_v1 = [d, s]
            roles = [d, s]
        elif len(active) == 2:
            roles = [leader, others[0]]
        elif len(active) == 3 and rs.mode == "variant3":
            seat = self.controller
            cands = [
                tuple(active[i] for i in p)
                for p in _orderings(3, 3)
                if seat[active[p[1]]] != seat[active[p[0]]]
                and seat[active[p[1]]] != seat[active[p[2]]]
            ]
            roles = self.chance.roles(cands)
        else:
            roles = self.chance.roles(_role_draws(leader, tuple(others)))
        self.rounds += 1
        self.roles = roles
        if len(roles) == 4:  # slots: distributor 1, distributor 2, chooser 1, chooser 2
            self.pairs = [Pair(roles[0], [roles[2]], 5, 3), Pair(roles[1], [roles[3]], 5, 3)]
        elif len(roles) == 3:
            # sanmarco.base.deal: 5 action and 3 limit cards per distributor (6 and 4 for a lone
            # distributor among three colours, by the ruleset).
            a, l_ = (6, 4) if rs.three_player_deal == "6+4" else (5, 3)
            self.pairs = [Pair(roles[0], roles[1:], a, l_)]
        else:
            self.pairs = [Pair(roles[0], roles[1:], 5, 3)]
        self._deal()

    def _deal(self) -> None:
        pair = self.pairs[0]
        chance = self.chance
        hand = chance.cards("action_cards", self.action_deck, self.action_discard, pair.actions)
        limits = chance.cards("limit_cards", self.limit_deck, self.limit_discard, pair.limits)
        for v in limits:
            hand.append(LIMIT_BASE + v)
        hand.sort()
        self.hand = hand
        self.assign = []
        self._used = 0
        self._offers = len(pair.choosers) + 1
        self.piles = []
        self.taken = []
        self.phase = DIVIDE

    def _n_piles(self) -> int:
        return self._offers

    def _choose(self, colour: int, q: int) -> None:
        """The colour takes offer q."""
        self.taken[q] = colour
        self.chooser_i += 1
        self._after_choice()

    def _after_choice(self) -> None:
        pair = self.pairs[0]
        if self.chooser_i < len(pair.choosers):
            return
        # the distributor takes the pile left on the table; limit cards go face up
        self.taken[self.taken.index(-1)] = pair.distributor
        limits = self.limits
        for colour, pile in zip(self.taken, self.piles, strict=True):
            mine = limits[colour]
            for c in pile:
                if c >= LIMIT_BASE:
                    mine.append(c - LIMIT_BASE)
        order = [*pair.choosers, pair.distributor]
        if self.ruleset.distributor_acts_first:
            order = [pair.distributor, *pair.choosers]
        self.holders = order
        self.phase = RESOLVE
        # ``_hold``, written out
        self.holding = holding = []
        for c in self.piles[self.taken.index(order[0])]:
            if c < LIMIT_BASE:
                holding.append(c)

    def _end_round(self) -> None:
        rs = self.ruleset
        self.phase = BETWEEN
        if self.final_round:
            self._end_passage()
            return
        # sanmarco.base.limit: at a round's end, a colour at 10 limit points or more is out of the
        # passage's roles (_active).
        limits = self.limits
        rest = [c for c in self.role_colours if sum(limits[c]) < rs.limit]  # limit_total
        if len(rest) == len(self.role_colours):  # nobody has reached the limit
            self._start_round()
            return
        if rs.mode == "variant2" or len(rest) < 2:
            self._end_passage()
            return
        # sanmarco.base.final_round: two or more colours still under 10 play one last round;
        # sanmarco.v3.penalty_round: in variant 3 the same last round, with three colours left, goes
        # by the three-player rules (_start_round).
        self.final_round = True
        self._start_round()

    def _end_passage(self) -> None:
        rs = self.ruleset
        limits = self.limits
        totals = [sum(limits[c]) for c in self.role_colours]  # limit_total
        top = max(totals)
        low = min(totals)
        bonus = [0] * len(self.kinds)
        for c, t in zip(self.role_colours, totals, strict=True):
            if t >= rs.limit:
                continue
            if rs.passage_bonus == "lowest_only" and t != low:
                continue
            # sanmarco.base.passage_bonus: the gap to the highest limit total, for a colour under
            # 10.
            bonus[c] = top - t
        self._credit("bonus", bonus)
        self.passage_log.append({"limits": [sum(x) for x in limits], "bonus": bonus})
        fewest = [c for c, t in zip(self.role_colours, totals, strict=True) if t == low]
        if len(fewest) > 1 and rs.free_banish_ties == "none":
            fewest = []
        # sanmarco.base.free_banish: the colour(s) with the fewest limit points banish for free.
        self.banish_queue = fewest
        self.phase = FREE_BANISH
        self._next_banish()

    def _next_banish(self) -> None:
        if self.banish_queue:
            self.phase = FREE_BANISH
            return
        if self.passage >= self.ruleset.passages:
            for d in range(6):
                # sanmarco.base.final_scoring: after the last passage all six districts are scored.
                self._score_district(d, set(), "final")
            self.phase = OVER
            return
        for c in range(len(self.kinds)):
            # sanmarco.base.reshuffle: the limit cards are discarded at the end of each passage.
            self.limit_discard.extend(self.limits[c])
            self.limits[c] = []
        self.passage += 1
        self.final_round = False
        if self.ruleset.mode == "variant2" and self.supply[2] > 0:
            first = 0 if self.score[0] <= self.score[1] else 1
            self.neutral_seats = [first, 1 - first]
            self.phase = NEUTRAL_RETURN
            return
        self._start_round()

    # --- scoring ---------------------------------------------------------------------------
    def district_points(self, d: int, excluded: set[int]) -> list[int]:
        """What each colour scores in district d now (ties: see sanmarco.base.score_ties)."""
        counts = self.cubes[d]
        if excluded:
            counts = [0 if c in excluded else n for c, n in enumerate(counts)]
        first, second = self.board.values[d]
        pts = [0] * len(counts)
        ranked = sorted(counts, reverse=True)
        most = ranked[0]
        if most <= 0:
            return pts
        if len(ranked) > 1 and ranked[1] == most:
            for c, n in enumerate(counts):
                if n == most:
                    pts[c] = second
            return pts
        pts[counts.index(most)] = first
        runner = ranked[1] if len(ranked) > 1 else 0  # the most below the first
        if runner > 0 and (len(ranked) < 3 or ranked[2] != runner):
            pts[counts.index(runner)] = second
        return pts

    def _credit(self, why: str, points: list[int], **facts: Any) -> None:
        """Move the score track, and keep the line (the score log explains every point)."""
        score = self.score
        for c, p in enumerate(points):
            score[c] += p
        if any(points):
            self.score_log.append({"why": why, "passage": self.passage, "points": points, **facts})

    def _score_district(self, d: int, excluded: set[int], why: str = "doge") -> None:
        points = self.district_points(d, excluded)
        score = self.score  # ``_credit``, written out
        for c, p in enumerate(points):
            score[c] += p
        if any(points):
            self.score_log.append(
                {"why": why, "passage": self.passage, "points": points, "district": d,
                 "cubes": list(self.cubes[d]), "excluded": sorted(excluded)}
            )  # fmt: skip

    # sanmarco.base.doge_toll: one point from the Doge's mover to the owner of each other colour's
    # bridge crossed; sanmarco.v3.own_bridge_toll: over the mover's own other colour the point is
    # lost and nobody gains it.
    def _pay_toll(self, mover: int, owner: int) -> None:
        if owner == mover:
            return
        score = self.score
        paid = 1 if self.ruleset.toll_below_zero or score[mover] > 0 else 0  # at most what it has
        if not paid:
            return  # nothing moves, and nothing is written
        points = [0] * len(self.kinds)
        points[mover] = -paid
        score[mover] -= paid
        ctrl = self.controller
        same_seat = ctrl[owner] is not None and ctrl[owner] == ctrl[mover]
        if not same_seat and (self.kinds[owner] != GHOST or self.ruleset.ghost_tolls):
            points[owner] = paid
            score[owner] += paid
        # ``_credit("toll", points, mover=mover, owner=owner)``, written out
        self.score_log.append(
            {"why": "toll", "passage": self.passage, "points": points, "mover": mover,
             "owner": owner}
        )  # fmt: skip

    def _doge_done(self, mover: int) -> None:
        d = self.doge
        if self.ruleset.mode == "variant3":
            seats = []
            mseat = self.controller[mover]
            for s in [mseat, 1 - (mseat or 0)]:
                if s is None:
                    continue
                mine = [c for c in (s, s + 2) if self.cubes[d][c] > 0]
                if len(mine) == 2:
                    seats.append(s)
            if seats:
                self.pending = Pending("score", d, seats=seats)
                return
        self._score_district(d, set())
        self.pending = None

    # --- turn -----------------------------------------------------------------------------
    def acting_colour(self) -> int | None:
        ph = self.phase
        if ph == DIVIDE:
            return self.pairs[0].distributor
        if ph == RESOLVE:
            if self.pending is not None and self.pending.kind == "score":
                return self.pending.seats[0]  # variant 3: a seat (its first colour)
            return self.holders[0]
        if ph == CHOOSE:
            return self.pairs[0].choosers[self.chooser_i]
        if ph == SETUP:
            return self.setup_queue[0] if self.setup_queue else None
        if ph == FREE_BANISH:
            return self.banish_queue[0]
        if ph == NEUTRAL_RETURN:
            return self.neutral_seats[0]
        return None

    def to_act(self) -> int | None:
        ph = self.phase
        if ph == DIVIDE:  # the two common phases without a helper call
            return self.controller[self.pairs[0].distributor]
        if ph == RESOLVE:
            p = self.pending
            if p is not None and p.kind == "score":
                return p.seats[0]  # variant 3: the seat itself
            return self.controller[self.holders[0]]
        c = self.acting_colour()
        if c is None:
            return None
        if ph == NEUTRAL_RETURN:
            return c
        return self.controller[c]

    # --- legal actions ----------------------------------------------------------------------
    def legal_actions(self, seat: int) -> list[Act]:
        ph = self.phase
        if ph == DIVIDE:  # half of a game's actions: the offers the next card may go to
            if seat != self.controller[self.pairs[0].distributor]:
                return []
            k = self._offers  # ``_pile_moves``, written out
            used = self._used
            if used <= k <= _SHORT:
                rest = len(self.hand) - len(self.assign) - 1
                if rest >= k - used:  # any offer opened, or the next one
                    return _PILE_LIST[: used + 1] if used < k else _PILE_LIST[:k]
                if rest == k - used - 1 and used < k:  # no card to spare: the next offer
                    return [_PILE_LIST[used]]
                return []
            return self._pile_moves()
        if ph == RESOLVE and self.pending is None:  # a card of the holder's hand
            colour = self.holders[0]
            if seat != self.controller[colour]:
                return []
            return self._hand_moves(colour)
        if ph == RESOLVE:  # a step inside a card (``_legal``, written out)
            p = self.pending
            assert p is not None
            kind = p.kind
            if kind == "doge":
                if seat != self.controller[self.holders[0]]:
                    return []
                return self._doge_moves(p.visited)
            if kind == "remove":
                colour = self.holders[0]
                if seat != self.controller[colour]:
                    return []
                return [
                    _REMOVE[c] if c < _SHORT else _new_act(Act, ("remove", c, -1, -1))
                    for c in self._removable(colour, p.district)
                ]
        if ph == CHOOSE:  # the offers still on the table
            if seat != self.controller[self.pairs[0].choosers[self.chooser_i]]:
                return []
            return [
                _CHOOSE[q] if q < _SHORT else _new_act(Act, ("choose", q, -1, -1))
                for q, t in enumerate(self.taken)
                if t == -1
            ]
        if self.to_act() != seat:
            return []
        return self._legal()

    def _legal(self) -> list[Act]:
        ph = self.phase
        colour = self.acting_colour()
        assert colour is not None
        if ph == SETUP:
            return self._bridge_moves(colour, setup=True)
        if ph == DIVIDE:
            return self._pile_moves()
        if ph == CHOOSE:
            return [_pick(_CHOOSE, q, "choose") for q, t in enumerate(self.taken) if t == -1]
        if ph == NEUTRAL_RETURN:
            return list(_NEUTRAL)
        if ph == FREE_BANISH and self.pending is None:
            return list(_BANISH)
        p = self.pending
        if p is not None:
            if p.kind == "remove":
                return [_pick(_REMOVE, c, "remove") for c in self._removable(colour, p.district)]
            if p.kind == "doge":
                return self._doge_moves(p.visited)
            if p.kind == "score":
                s = p.seats[0]
                return [_pick(_SCORE, s, "score"), _pick(_SCORE, s + 2, "score")]
        return self._hand_moves(colour)

    def _pile_moves(self) -> list[Act]:
        """The offers the next card may go to (``_pile_ok`` for each offer, read at once:
        offer q < used needs ``rest >= k - used`` cards left, the next new offer one fewer)."""
        k = self._offers
        used = self._used
        rest = len(self.hand) - len(self.assign) - 1
        if k > _SHORT:
            return [_new_act(Act, ("pile", q, -1, -1)) for q in range(k) if self._pile_ok(q)]
        if rest >= k - used:
            return _PILE_LIST[: min(used, k - 1) + 1]
        if rest == k - used - 1 and 0 <= used < k:
            return [_PILE_LIST[used]]
        return []

    def _hand_moves(self, colour: int) -> list[Act]:
        """The holder's moves: every way to carry out each card held (in card order), and
        setting a card aside when it cannot be carried out (or always, by the ruleset)."""
        out: list[Act] = []
        decline = self.ruleset.may_decline
        holding = self.holding
        hops: tuple[tuple[Act, ...], ...] | None = None
        last = -1
        for card in holding:  # kept in card order: a card held twice is read once
            if card <= last:
                if card == last:
                    continue
                return self._hand_moves_of(colour, sorted(set(holding)))
            last = card
            if card < 6 and self.supply[colour] > 0:  # the common card, never set aside
                if hops is None:
                    hops = self._hops(colour)[1]
                out += hops[card]
                if decline:
                    out.append(_SKIP[card])
                continue
            moves = self._card_moves(colour, card)
            out += moves
            if not moves or decline:
                out.append(_SKIP[card])
        return out

    def _hand_moves_of(self, colour: int, cards: list[int]) -> list[Act]:
        """``_hand_moves`` for these distinct cards, in this order."""
        out: list[Act] = []
        for card in cards:
            moves = self._card_moves(colour, card)
            out += moves
            if not moves or self.ruleset.may_decline:
                out.append(_SKIP[card])
        return out

    def _pile_ok(self, q: int) -> bool:
        """The next card may go to offer q: offers open in order (the first card to offer 0,
        a new offer only after the ones before it), and enough cards stay for the offers not
        yet opened (sanmarco.base.divide)."""
        k = self._offers
        used = self._used
        if not 0 <= q < k or q > used:
            return False
        return len(self.hand) - len(self.assign) - 1 >= k - max(used, q + 1)

    def _removable(self, colour: int, d: int) -> list[int]:
        row = self.cubes[d]
        others = []
        for c, n in enumerate(row):
            if n > 0 and c != colour:
                others.append(c)
        return others or ([colour] if row[colour] > 0 else [])

    def _doge_moves(self, visited: Any) -> list[Act]:
        """The bridges the Doge may cross now (``_doge_step_ok`` for each bridge), then
        stopping."""
        touch = self._touch
        if touch is None or self.bridges != self._bridges_seen:
            touch = self._touching()
        out = []
        for i, there in touch[self.doge]:
            if there not in visited:
                out.append(_DOGE_STEP[i] if i < MAX_BRIDGES else _new_act(Act, ("doge", i, -1, -1)))
        out.append(_STOP)
        return out

    def _bridge_moves(self, colour: int, setup: bool = False) -> list[Act]:
        if self.supply[colour] <= 0:
            return []
        sites = self.board.sites
        per_site = self.board.per_site
        bridges = self.bridges
        if len(bridges) < MAX_BRIDGES:
            if bridges != self._bridges_seen:
                self._bridges_changed()
            free = self._free_sites
            if free is None:
                counts = [0] * len(sites)
                for s, _owner in bridges:
                    counts[s] += 1
                free = self._free_sites = tuple(
                    _BRIDGE_ACT[a][b][0] for s, (a, b) in enumerate(sites) if counts[s] < per_site
                )
            return list(free)
        if setup:
            return []
        counts = [0] * len(sites)
        for s, _owner in bridges:
            counts[s] += 1
        out = []
        for i, (old, owner) in enumerate(bridges):
            if owner == colour:
                continue
            for s, (a, b) in enumerate(sites):
                if counts[s] - (s == old) < per_site:
                    out.append(_BRIDGE_ACT[a][b][i + 1])
        return out

    def _card_moves(self, colour: int, card: int) -> list[Act]:
        if card < 6:
            if self.supply[colour] > 0:
                return list(self._hops(colour)[1][card])
            ends = self._hops(colour)[0][card]
            row = _DISTRICT_FROM[card]
            cubes = self.cubes
            return [row[e][src] for src in range(6) if cubes[src][colour] > 0 for e in ends]
        if card == BRIDGE:
            return self._bridge_moves(colour)
        if card == TRANSFER:
            if self.supply[colour] <= 0:
                return []
            return [
                _TRANSFER[d][v] if v < _SHORT else Act("transfer", d, v)
                for d, row in enumerate(self.cubes)
                for v, n in enumerate(row)
                if n > 0 and v != colour
            ]
        if card == BANISH:
            return list(_BANISH)
        # the Doge: the first step (or staying) plays the card
        return self._doge_moves(())

    def _hops(self, colour: int) -> _Reach:
        """Where this colour's district cards may put an aristocrat (``_reach``), kept per
        colour until the bridges change."""
        if self.bridges != self._bridges_seen:
            self._bridges_changed()
        reach = self._hops_of[colour]
        if reach is None:
            own = 0  # the sites of the colour's own bridges, one bit each
            for site, owner in self.bridges:
                if owner == colour:
                    own |= 1 << site
            memo = self._reach_memo
            reach = memo.get(own)
            if reach is None:
                reach = memo[own] = _reach(self.board.sites, own)
            self._hops_of[colour] = reach
        return reach

    def _touching(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        """Per district: each bridge touching it (its index, in order) and the district at
        its other end, kept until the bridges change."""
        if self.bridges != self._bridges_seen:
            self._bridges_changed()
        touch = self._touch
        if touch is None:
            sites = self.board.sites
            rows: list[list[tuple[int, int]]] = [[] for _ in range(6)]
            for i, (site, _owner) in enumerate(self.bridges):
                x, y = sites[site]
                rows[x].append((i, y))
                rows[y].append((i, x))
            touch = self._touch = tuple(map(tuple, rows))
        return touch

    def _bridges_changed(self) -> None:
        """Forget what was read from the bridges (compared by value with the ones it was read
        from, so a position set up by hand is read right too)."""
        self._bridges_seen = [list(b) for b in self.bridges]
        self._hops_of = [None] * len(self.kinds)
        self._touch = None
        self._free_sites = None

    # --- check ---------------------------------------------------------------------------
    def check(self, seat: int, action: Any) -> list[Violation]:
        if (
            self.phase == DIVIDE  # half of a game's actions: a card to an offer
            and type(action) is Act
            and seat == self.controller[self.pairs[0].distributor]
            and action.do == "pile"
            and action.b == -1
            and action.c == -1
            and self._pile_ok(action.a)
        ):
            return []
        if (
            self.phase == RESOLVE  # a card of the holder's hand
            and self.pending is None
            and type(action) is Act
            and seat == self.controller[self.holders[0]]
            and self._card_ok(self.holders[0], action)
        ):
            return []
        if self.phase == OVER:
            return [rule_broken(BOOK, "sanmarco.record.game_over", seat=seat)]
        if not isinstance(action, Act):
            return [rule_broken(BOOK, "sanmarco.record.impossible", seat=seat)]
        who = self.to_act()
        if seat != who:
            return [
                rule_broken(
                    BOOK,
                    "sanmarco.base.turn",
                    f"Tocca al posto {seat_no(who)}.",
                    f"Seat {seat_no(who)} is to act.",
                    seat=seat,
                )
            ]
        if self._allows(action):
            return []
        return [self._why(seat, action)]

    def _allows(self, act: Act) -> bool:
        """Whether ``act`` is among ``_legal()``, judged for this one action (the list is
        not built to check one action; tests/games/sanmarco/test_check_matches_legal.py
        holds the two readings equal)."""
        ph, do, a, b, c = self.phase, act.do, act.a, act.b, act.c
        if ph == DIVIDE:
            return do == "pile" and b == -1 and c == -1 and self._pile_ok(a)
        if ph == CHOOSE:
            taken = self.taken
            return do == "choose" and b == -1 and c == -1 and 0 <= a < len(taken) and taken[a] == -1
        colour = self.acting_colour()
        assert colour is not None
        if ph == SETUP:
            return do == "bridge" and self._bridge_ok(colour, act, setup=True)
        if ph == NEUTRAL_RETURN or (ph == FREE_BANISH and self.pending is None):
            return act in self._legal()  # six districts
        p = self.pending
        if p is not None:
            if p.kind == "remove":
                return (
                    do == "remove" and b == -1 and c == -1
                    and a in self._removable(colour, p.district)
                )  # fmt: skip
            if p.kind == "doge":
                if do == "stop":
                    return a == b == c == -1
                return do == "doge" and b == -1 and c == -1 and self._doge_step_ok(a, p.visited)
            s = p.seats[0]
            return do == "score" and b == -1 and c == -1 and (a == s or a == s + 2)
        return self._card_ok(colour, act)

    def _card_ok(self, colour: int, act: Act) -> bool:
        """A card of the holder's hand played as ``act`` (``_card_moves`` lists them)."""
        do, a, b, c = act
        card = a if do == "district" or do == "skip" else _CARD_OF_KIND.get(do, -1)  # _card_of
        if card not in self.holding:
            return False
        if do == "district":  # its own district, or across one of its own bridges from it
            if not (0 <= a < 6 and b in self._hops(colour)[0][a]):  # a itself, or across
                return False
            if self.supply[colour] > 0:
                return c == -1
            return 0 <= c < 6 and self.cubes[c][colour] > 0
        if do == "transfer":
            return (
                self.supply[colour] > 0 and c == -1 and 0 <= a < 6
                and 0 <= b < len(self.kinds) and b != colour and self.cubes[a][b] > 0
            )  # fmt: skip
        if do == "banish":
            return 0 <= a < 6 and b == -1 and c == -1
        if do == "doge":
            return b == -1 and c == -1 and self._doge_step_ok(a, ())
        if do == "stop":
            return a == b == c == -1
        if do == "bridge":
            return self._bridge_ok(colour, act)
        moves = self._card_moves(colour, card)
        if do == "skip":
            return act == Act("skip", card) and (not moves or self.ruleset.may_decline)
        return act in moves

    def _bridge_ok(self, colour: int, act: Act, setup: bool = False) -> bool:
        """A bridge between act.a < act.b: a marker in the supply and a free site; with
        every bridge on the board, another colour's bridge act.c moved there (not at
        set-up)."""
        sites = self.board.sites
        if self.supply[colour] <= 0 or (act.a, act.b) not in sites:
            return False
        site = sites.index((act.a, act.b))
        on_site = 0
        for s, _owner in self.bridges:
            if s == site:
                on_site += 1
        if len(self.bridges) < MAX_BRIDGES:
            return act.c == -1 and on_site < self.board.per_site
        if setup or not 0 <= act.c < len(self.bridges):
            return False
        old, owner = self.bridges[act.c]
        return owner != colour and on_site - (site == old) < self.board.per_site

    def _doge_step_ok(self, i: int, visited: Any) -> bool:
        """The Doge may cross bridge i: it touches his district and does not lead back to a
        district this walk has visited."""
        if not 0 <= i < len(self.bridges):
            return False
        x, y = self.board.sites[self.bridges[i][0]]
        doge = self.doge
        if doge == x:
            return y not in visited
        return doge == y and x not in visited

    def _why(self, seat: int, act: Act) -> Violation:
        """The rule a well-formed but illegal action breaks (the most specific one)."""
        ph, do = self.phase, act.do
        colour = self.acting_colour()
        assert colour is not None

        expected: tuple[str, ...] | None = {
            SETUP: ("bridge",),
            DIVIDE: ("pile",),
            CHOOSE: ("choose",),
            NEUTRAL_RETURN: ("neutral",),
            FREE_BANISH: ("banish",),
        }.get(ph)
        p = self.pending
        if p is not None:
            expected = {"remove": ("remove",), "doge": ("doge", "stop"), "score": ("score",)}[
                p.kind
            ]
        if expected is not None and do not in expected:
            return rule_broken(
                BOOK,
                "sanmarco.base.phase",
                f"Ora si attende: {', '.join(expected)}.",
                f"Expected now: {', '.join(expected)}.",
                seat=seat,
            )
        if ph == DIVIDE:
            return rule_broken(BOOK, "sanmarco.base.divide", seat=seat)
        if ph == CHOOSE:
            return rule_broken(BOOK, "sanmarco.base.choose", seat=seat)
        if ph == NEUTRAL_RETURN:
            return rule_broken(BOOK, "sanmarco.v2.neutral_return", seat=seat)
        if p is not None and p.kind == "remove":
            if 0 <= act.a < len(self.kinds) and self.cubes[p.district][act.a] > 0:
                return rule_broken(BOOK, "sanmarco.base.banish_order", seat=seat)
            return rule_broken(BOOK, "sanmarco.base.banish_remove", seat=seat)
        if p is not None and p.kind == "doge":
            return rule_broken(BOOK, "sanmarco.base.doge_path", seat=seat)
        if p is not None and p.kind == "score":
            return rule_broken(BOOK, "sanmarco.v3.doge_one_colour", seat=seat)
        if ph == FREE_BANISH:
            return rule_broken(BOOK, "sanmarco.record.impossible", seat=seat)
        # a card of the holder's hand
        card = _card_of(act)
        if card not in self.holding:
            return rule_broken(BOOK, "sanmarco.base.card_held", seat=seat)
        if do == "skip":
            return rule_broken(BOOK, "sanmarco.base.decline", seat=seat)
        if do == "district":
            if act.c >= 0 and self.supply[colour] > 0:
                return rule_broken(BOOK, "sanmarco.base.district_supply", seat=seat)
            if act.b != act.a and act.b not in self.owner_bridges_at(colour, act.a):
                return rule_broken(BOOK, "sanmarco.base.district_hop", seat=seat)
            return rule_broken(BOOK, "sanmarco.base.district_supply", seat=seat)
        if do == "bridge":
            if self.supply[colour] <= 0:
                return rule_broken(BOOK, "sanmarco.base.bridge_marker", seat=seat)
            site = self.board.site_index(act.a, act.b) if act.a != act.b else None
            if site is None:
                return rule_broken(BOOK, "sanmarco.base.bridge_site", seat=seat)
            if act.c >= 0 or len(self.bridges) >= MAX_BRIDGES:
                return rule_broken(BOOK, "sanmarco.base.bridge_take", seat=seat)
            return rule_broken(BOOK, "sanmarco.base.bridge_cap", seat=seat)
        if do == "transfer":
            return rule_broken(BOOK, "sanmarco.base.transfer", seat=seat)
        if do in ("doge", "stop"):
            return rule_broken(BOOK, "sanmarco.base.doge_path", seat=seat)
        return rule_broken(BOOK, "sanmarco.record.impossible", seat=seat)

    # --- apply ----------------------------------------------------------------------------
    def replay_run(self, raw_actions: Sequence[Any], start: int) -> int:
        """Replay's short cut (``State.replay_run``): each action read by ``decode_quick``
        and applied by ``apply_if_legal``; the common ones (a card to an offer, an offer
        chosen, a district card from the supply) read and applied here without either call.
        It stops at the first action that either refuses.
        tests/games/sanmarco/test_check_matches_legal.py holds it equal to the two calls."""
        i, end = start, len(raw_actions)
        history, quick, controller = self.history, self.apply_if_legal, self.controller
        seat: Any
        while i < end:
            ph = self.phase
            # read into a local: the checks below narrow ``pending`` and not the attribute,
            # which the calls after them change (and mypyc trusts what mypy narrowed)
            pending = self.pending
            if ph == DIVIDE and self._offers <= 4:  # the whole hand, by the distributor
                dealer = controller[self.pairs[0].distributor]
                assign = self.assign
                k, used = self._offers, self._used
                left = len(self.hand) - len(assign)  # cards still to divide, this one too
                # ``_pile_ok``, written out: offer q is open or the next one, and the offers
                # not yet opened keep a card each: ``spare`` cards may go to open offers
                spare = left - (k - used)
                entries = _PILE_ENTRY[dealer] if dealer is not None and dealer < _SHORT else ()
                done = 0
                try:  # a field missing (KeyError): the long way reads the action
                    for raw in raw_actions[i : i + left] if entries else ():
                        # ``is``: the seat is the distributor's very int (a small int is one
                        # object); an equal seat made otherwise is read the long way
                        if (
                            type(raw) is not dict
                            or raw["do"] != "pile"
                            or raw["seat"] is not dealer
                        ):
                            break
                        q = raw["pile"]
                        if type(q) is not int:
                            break
                        if q == used:  # the next offer opens
                            if q >= k or spare < 0:
                                break
                            used += 1
                        elif 0 <= q < used and spare > 0:
                            spare -= 1
                        else:
                            break
                        history.append(entries[q])  # (seat, ``_PILES[q]``), made once
                        assign.append(q)  # ``_divide``, written out
                        done += 1
                except KeyError:
                    pass
                if done:
                    i += done
                    self._used = used
                    if done == left:
                        self._make_offers()
                        continue  # the offers are made
                if i == end:
                    break
            elif ph == RESOLVE and pending is None:
                # a district card from the supply (``apply_if_legal``, written out)
                raw = raw_actions[i]
                if (
                    type(raw) is dict
                    and raw.get("do") == "district"
                    and "from" not in raw
                    and type(seat := raw.get("seat")) is int
                    and type(v := raw.get("district")) is str
                    and (a := _DISTRICT.get(v, -1)) >= 0
                ):
                    if "to" in raw:
                        v = raw["to"]
                        b = _DISTRICT.get(v, -1) if type(v) is str else -1
                    else:
                        b = a
                    holder = self.holders[0]
                    holding = self.holding
                    supply = self.supply
                    if (
                        b >= 0
                        and seat == controller[holder]
                        and a in holding
                        and supply[holder] > 0
                        and (b == a or b in self._hops(holder)[0][a])
                    ):
                        history.append((seat, _DISTRICT_ACT[a][b]))
                        holding.remove(a)  # ``_resolve_card``, written out
                        self.action_discard.append(a)
                        supply[holder] -= 1
                        self.cubes[b][holder] += 1
                        if not holding:
                            try:
                                self._advance()
                            except RecordError as exc:  # chance cannot follow
                                raise ReplayFault(i, seat, exc) from exc
                        i += 1
                        continue
                # any other card of the hand: ``apply_if_legal``'s steps, without its call
                action = None
                if type(raw) is dict and type(seat := raw.get("seat")) is int:
                    card_do = raw.get("do")  # card kinds read as ``decode_quick`` reads them
                    if card_do == "stop":
                        action = _STOP
                    elif card_do == "transfer":
                        action = _quick_transfer(raw)
                    elif card_do == "banish":
                        v = raw.get("district")
                        if type(v) is str and (a := _DISTRICT.get(v, -1)) >= 0:
                            action = _BANISH[a]
                    elif card_do == "doge":
                        v = raw.get("bridge")
                        if type(v) is int and 0 <= v < MAX_BRIDGES:
                            action = _DOGE_STEP[v]
                if action is None:
                    try:
                        seat, action = decode_quick(raw)
                    except RecordError:
                        break
                holder = self.holders[0]
                if seat != controller[holder] or not self._card_ok(holder, action):
                    break
                history.append((seat, action))
                try:  # ``_resolve_card``, written out
                    self._play_card(holder, action)
                    p = self.pending
                    if p is not None and p.kind == "remove" and p.left <= 0:
                        self._settle()
                    if self.pending is None:
                        if not self.holding:
                            self._advance()  # the hand is carried out
                    elif self.phase != RESOLVE:
                        self._advance()
                except RecordError as exc:  # legal, but chance cannot follow
                    raise ReplayFault(i, seat, exc) from exc
                i += 1
                continue
            elif ph == CHOOSE:  # an offer chosen (``apply_if_legal``, written out)
                raw = raw_actions[i]
                if (
                    type(raw) is dict
                    and raw.get("do") == "choose"
                    and type(seat := raw.get("seat")) is int
                    and type(q := raw.get("pile")) is int
                ):
                    colour = self.pairs[0].choosers[self.chooser_i]
                    taken = self.taken
                    if seat == controller[colour] and 0 <= q < len(taken) and taken[q] == -1:
                        history.append((seat, _CHOOSE[q] if q < _SHORT else Act("choose", q)))
                        try:
                            taken[q] = colour  # ``_choose``, written out
                            self.chooser_i += 1
                            self._after_choice()
                            if self.phase not in _WAITING and (
                                self.phase != RESOLVE or not self.holding  # else nothing to run
                            ):
                                self._advance()
                        except RecordError as exc:  # chance cannot follow
                            raise ReplayFault(i, seat, exc) from exc
                        i += 1
                        continue
            elif ph == RESOLVE:  # a step inside a card: a removal, the Doge's, a choice
                raw = raw_actions[i]
                if type(raw) is dict and type(seat := raw.get("seat")) is int:
                    do: Any = raw.get("do")
                    step: Act | None = None
                    if do == "stop":
                        step = _STOP
                    elif (read := _STEP_READ.get(do)) is not None:
                        v = raw.get(read[0])
                        table = read[1]
                        if type(v) is int and 0 <= v < len(table):
                            step = table[v]
                    if step is not None:
                        p = self.pending
                        assert p is not None
                        try:
                            applied = self._quick_pending(seat, step, p, self.holders[0])
                        except RecordError as exc:  # chance cannot follow
                            raise ReplayFault(i, seat, exc) from exc
                        if not applied:
                            break
                        i += 1
                        continue
            raw = raw_actions[i]
            try:
                seat, action = decode_quick(raw)
            except RecordError:
                break
            try:
                applied = quick(seat, action)
            except RecordError as exc:  # legal, but chance cannot follow (State.replay_run)
                raise ReplayFault(i, seat, exc) from exc
            if not applied:
                break
            i += 1
        return i - start

    def apply_if_legal(self, seat: int, action: Any) -> bool:
        """Apply an action of any phase but variant 2's neutral returns (a card to an offer,
        an offer chosen, a card of the holder's hand, a step inside a card: a removal, the
        Doge's walk, variant 3's choice; a free banishment, a bridge at set-up) when the rules
        allow it, and say so; anything else is left untouched (False), for replay to check
        and apply the long way. True exactly when ``check`` finds nothing and
        ``apply_unchecked`` would then do the same (tests/games/sanmarco/
        test_check_matches_legal.py holds the two paths equal)."""
        if type(action) is not Act:
            return False
        ph = self.phase
        if ph == DIVIDE:  # half of a game's actions
            if (
                seat == self.controller[self.pairs[0].distributor]
                and action.do == "pile"
                and action.b == -1
                and action.c == -1
                and self._pile_ok(action.a)
            ):
                self.history.append((seat, action))
                self._divide(action.a)
                return True
            return False
        p = self.pending
        if ph == RESOLVE:
            holder = self.holders[0]
            if p is not None:
                return self._quick_pending(seat, action, p, holder)
            if seat != self.controller[holder]:
                return False
            do, a, b, c = action
            holding = self.holding
            supply = self.supply
            if (
                do == "district"  # the common card, from the supply (``_card_ok``)
                and c == -1
                and 0 <= a < 6
                and a in holding
                and supply[holder] > 0
                and (b == a or b in self._hops(holder)[0][a])
            ):
                self.history.append((seat, action))
                holding.remove(a)  # ``_resolve_card``, written out
                self.action_discard.append(a)
                supply[holder] -= 1
                self.cubes[b][holder] += 1
                if not holding:
                    self._advance()
                return True
            if self._card_ok(holder, action):
                self.history.append((seat, action))
                self._resolve_card(holder, action)
                return True
            return False
        if ph == CHOOSE:
            colour = self.pairs[0].choosers[self.chooser_i]
            a, taken = action.a, self.taken
            if (
                seat == self.controller[colour]
                and action.do == "choose"
                and action.b == -1
                and action.c == -1
                and 0 <= a < len(taken)
                and taken[a] == -1
            ):
                self.history.append((seat, action))
                self._choose(colour, a)
                if self.phase not in _WAITING:
                    self._advance()
                return True
            return False
        if ph == FREE_BANISH:
            colour = self.banish_queue[0]
            if p is not None:
                return self._quick_pending(seat, action, p, colour)
            do, a, b, c = action
            if not (
                seat == self.controller[colour]
                and do == "banish"
                and b == -1
                and c == -1
                and 0 <= a < 6
            ):
                return False
            self.history.append((seat, action))
            self._start_banish(colour, a, card=False)
        elif ph == SETUP and self.setup_queue:
            colour = self.setup_queue[0]
            if not (
                seat == self.controller[colour]
                and action.do == "bridge"
                and self._bridge_ok(colour, action, setup=True)
            ):
                return False
            self.history.append((seat, action))
            self._do_bridge(colour, action)
            self.setup_queue.pop(0)
        else:
            return False
        if self.pending is not None:
            self._settle()
        if self.phase not in _WAITING:
            self._advance()
        return True

    def _quick_pending(self, seat: int, action: Act, p: Pending, colour: int) -> bool:
        """``apply_if_legal`` for a step inside a card (``_allows`` says the same)."""
        do, a, b, c = action
        if b != -1 or c != -1:
            return False
        kind = p.kind
        if kind == "score":  # variant 3: the seat itself chooses which colour scores
            s = p.seats[0]
            if seat != s or do != "score" or (a != s and a != s + 2):
                return False
            self.history.append((seat, action))
            self._score_choice(p, a)
        elif seat != self.controller[colour]:
            return False
        elif kind == "doge":
            if not (a == -1 if do == "stop" else do == "doge" and self._doge_step_ok(a, p.visited)):
                return False
            self.history.append((seat, action))
            self._doge_step(colour, action)
        elif do == "remove" and a in self._removable(colour, p.district):
            self.history.append((seat, action))
            self.cubes[p.district][a] -= 1  # ``_removal``, written out
            self.supply[a] += 1
            p.left -= 1
            self._auto_remove(colour)
        else:
            return False
        after = self.pending
        if after is not None and after.kind == "remove" and after.left <= 0:
            self._settle()
        ph = self.phase
        if ph == RESOLVE:  # ``_advance`` has work only once the hand is carried out
            if self.pending is None and not self.holding:
                self._advance()
        elif ph not in _WAITING:
            self._advance()
        return True

    def _divide(self, q: int) -> None:
        """The hand's next card goes to offer q; with the last one the offers are made."""
        assign = self.assign
        assign.append(q)
        if q >= self._used:
            self._used = q + 1
        if len(assign) == len(self.hand):
            self._make_offers()

    def _make_offers(self) -> None:
        """The hand is divided: its cards lie in their offers, for the others to choose."""
        k = self._offers
        piles: list[list[int]] = [[], []] if k == 2 else [[] for _ in range(k)]
        for card, p in zip(self.hand, self.assign, strict=True):
            piles[p].append(card)
        self.piles = piles
        self.taken = [-1] * k
        self.chooser_i = 0
        self.phase = CHOOSE

    def _resolve_card(self, holder: int, action: Act) -> None:
        """The holder plays a card of their hand; the flow runs on once the hand is done."""
        self._play_card(holder, action)
        if self.pending is not None:
            self._settle()
        if self.pending is None and self.holding:
            return  # the holder goes on with their next card
        self._advance()

    def apply_unchecked(self, seat: int, action: Any) -> None:
        ph = self.phase
        if ph == DIVIDE:  # half of a game's actions; nothing automatic follows them
            if type(action) is not Act and not isinstance(action, Act):
                raise RecordError("not a San Marco board action")
            self.history.append((seat, action))
            q = action.a
            if action.do != "pile" or not 0 <= q < self._offers:
                raise RecordError("a card goes to one of the offers")
            assign = self.assign  # ``_divide``, written out
            assign.append(q)
            if q >= self._used:
                self._used = q + 1
            if len(assign) == len(self.hand):
                self._make_offers()
            return
        if ph == OVER:
            raise RecordError("the game is over")
        if type(action) is not Act and not isinstance(action, Act):
            raise RecordError("not a San Marco board action")
        self.history.append((seat, action))
        pending = self.pending  # a local, as in ``replay_run``
        if ph == RESOLVE and pending is None:  # a card of the holder's hand
            holder = self.holders[0]
            do, a, b, c = action
            holding = self.holding
            if do == "district" and c == -1 and a in holding and 0 <= b < 6:
                # the common card, from the supply (``_play_card``, written out)
                holding.remove(a)
                self.action_discard.append(a)
                supply = self.supply
                if supply[holder] <= 0:
                    raise RecordError("no aristocrat left in the supply")
                supply[holder] -= 1
                self.cubes[b][holder] += 1
                if not holding:
                    self._advance()
                return
            self._play_card(holder, action)  # ``_resolve_card``, written out
            if self.pending is not None:
                self._settle()
            if self.pending is None and holding:
                return  # the holder goes on with their next card
            self._advance()
            return
        p = self.pending
        if ph == RESOLVE and p is not None and p.kind == "doge":  # a step of the Doge's walk
            self._doge_step(self.holders[0], action)
            if self.pending is None and not self.holding:
                self._advance()  # the hand is carried out
            return
        do, a = action.do, action.a
        if ph == CHOOSE:  # ``acting_colour``, written out
            taken = self.taken
            if do != "choose" or not 0 <= a < len(taken) or taken[a] != -1:
                raise RecordError("that offer is not on the table")
            self._choose(self.pairs[0].choosers[self.chooser_i], a)
            if self.pending is not None:
                self._settle()
            if self.phase not in _WAITING:
                self._advance()
            return
        colour = self.acting_colour()
        assert colour is not None
        if ph == SETUP:
            self._do_bridge(colour, action)
            self.setup_queue.pop(0)
        elif ph == CHOOSE:
            if do != "choose" or not 0 <= a < len(self.taken) or self.taken[a] != -1:
                raise RecordError("that offer is not on the table")
            self._choose(colour, a)
        elif ph == NEUTRAL_RETURN:
            if do != "neutral" or not 0 <= a < 6:
                raise RecordError("a neutral aristocrat goes to a district")
            self._place(2, a)
            self.neutral_seats.append(self.neutral_seats.pop(0))
        elif p is not None and p.kind == "remove":
            if do != "remove" or not 0 <= a < len(self.kinds) or self.cubes[p.district][a] <= 0:
                raise RecordError("no such aristocrat in the district")
            self._removal(colour, p, a)
        elif p is not None and p.kind == "doge":
            self._doge_step(colour, action)
        elif p is not None and p.kind == "score":
            s = p.seats[0]
            if do != "score" or a not in (s, s + 2):
                p.seats.pop(0)
                raise RecordError("a colour of the seat that chooses")
            self._score_choice(p, a)
        elif ph == FREE_BANISH:
            if do != "banish" or not 0 <= a < 6:
                raise RecordError("a banishment names a district")
            self._start_banish(colour, a, card=False)
        else:
            self._play_card(colour, action)
        if self.pending is not None:
            self._settle()
        if self.phase not in _WAITING:
            self._advance()

    def _removal(self, colour: int, p: Pending, victim: int) -> None:
        """One aristocrat of the banishment removed; the rest follow when no choice is left."""
        self.cubes[p.district][victim] -= 1  # ``_remove``, written out
        self.supply[victim] += 1
        p.left -= 1
        self._auto_remove(colour)

    def _score_choice(self, p: Pending, a: int) -> None:
        """Variant 3: the choosing seat's colour a scores the district, its other colour not."""
        s = p.seats.pop(0)
        p.excluded.add(s + 2 if a == s else s)
        if not p.seats:
            self._score_district(p.district, p.excluded)
            self.pending = None

    def _settle(self) -> None:
        """Close a banishment that has nothing left to remove."""
        p = self.pending
        if p is not None and p.kind == "remove" and p.left <= 0:
            self.pending = None
            if not p.card:
                self.banish_queue.pop(0)
                self._next_banish()

    def _play_card(self, colour: int, act: Act) -> None:
        do, a, b, c = act
        card = a if do == "district" or do == "skip" else _CARD_OF_KIND.get(do, -1)  # _card_of
        holding = self.holding
        if card not in holding:
            raise RecordError(f"the holder has no {CARD_NAMES[card] if card >= 0 else do} card")
        holding.remove(card)
        self.action_discard.append(card)
        if do == "district":  # the most played card
            if not 0 <= b < 6:
                raise RecordError("no such district")
            cubes = self.cubes
            if c >= 0:
                if cubes[c][colour] <= 0:
                    raise RecordError("no own aristocrat there")
                cubes[c][colour] -= 1
            else:
                if self.supply[colour] <= 0:
                    raise RecordError("no aristocrat left in the supply")
                self.supply[colour] -= 1  # _place, one from the supply
            cubes[b][colour] += 1
        elif do == "skip":
            return
        elif do == "bridge":
            self._do_bridge(colour, act)
        elif do == "transfer":
            victim = b
            if victim >= len(self.kinds) or self.cubes[a][victim] <= 0 or self.supply[colour] <= 0:
                raise RecordError("nothing to transfer there")
            cubes, supply = self.cubes, self.supply
            cubes[a][victim] -= 1  # ``_remove`` and ``_place``, written out
            supply[victim] += 1
            supply[colour] -= 1
            cubes[a][colour] += 1
        elif do == "banish":
            self._start_banish(colour, a, card=True)
        else:
            self.pending = Pending("doge", visited={self.doge})
            self._doge_step(colour, act)

    def _do_bridge(self, colour: int, act: Act) -> None:
        site = self.board.site_index(act.a, act.b)
        if site is None or self.supply[colour] <= 0:
            raise RecordError("no bridge can go there")
        if act.c >= 0:
            if act.c >= len(self.bridges):
                raise RecordError("no such bridge")
            _old, owner = self.bridges.pop(act.c)
            self.supply[owner] += 1  # the old owner's marker goes home
        if len(self.bridges) >= MAX_BRIDGES:
            raise RecordError("every bridge is on the board")
        self.bridges.append([site, colour])  # ``_build``, written out
        self.supply[colour] -= 1

    def _remove(self, d: int, colour: int) -> None:
        self.cubes[d][colour] -= 1
        self.supply[colour] += 1

    def _start_banish(self, colour: int, d: int, card: bool) -> None:
        roll = self.chance.die()
        self.pending = Pending("remove", d, left=min(roll, sum(self.cubes[d])), card=card)
        self._auto_remove(colour)

    def _auto_remove(self, colour: int) -> None:
        p = self.pending
        assert p is not None
        d = p.district
        row = self.cubes[d]
        supply = self.supply
        while p.left > 0:
            # ``_removable``, written out: one colour only may lose an aristocrat there
            victim = -1
            for c, n in enumerate(row):
                if n > 0 and c != colour:
                    if victim >= 0:
                        return  # two others: the mover chooses
                    victim = c
            if victim < 0:
                if row[colour] <= 0:
                    return  # nobody left there
                victim = colour
            row[victim] -= 1  # ``_remove``, written out
            supply[victim] += 1
            p.left -= 1

    def _doge_step(self, colour: int, act: Act) -> None:
        p = self.pending
        assert p is not None
        if act.do == "stop":
            self._doge_done(colour)
            return
        if act.do != "doge" or not 0 <= act.a < len(self.bridges):
            raise RecordError("no such bridge")
        site, owner = self.bridges[act.a]
        a, b = self.board.sites[site]
        if self.doge not in (a, b):
            raise RecordError("that bridge does not touch the Doge's district")
        self.doge = b if a == self.doge else a
        p.visited.add(self.doge)
        self._pay_toll(colour, owner)

    # --- end ---------------------------------------------------------------------------------
    def is_over(self) -> bool:
        return self.phase == OVER

    def summary(self) -> dict[str, JSON]:
        """The summary a scorekeeper would type for this game (docs/notation/sanmarco.md)."""
        mode = self.ruleset.mode
        s = self.score
        if mode == "variant3":
            return {"variant": 3, "points": [[s[0], s[2]], [s[1], s[3]]]}
        if mode == "variant1":
            return {"variant": 1, "points": [s[0], s[1]], "ghosts": [s[2], s[3]]}
        if mode == "variant2":
            return {
                "variant": 2,
                "points": [s[0], s[1]],
                "neutral": s[2],
                "passages": [
                    {"limits": p["limits"][:2], "bonus": p["bonus"][:2]} for p in self.passage_log
                ],
            }
        return {"players": len(s), "points": list(s)}

    def result(self) -> dict[str, JSON]:
        mode = self.ruleset.mode
        s = self.score
        if mode == "variant3":
            return score_v3([[s[0], s[2]], [s[1], s[3]]])
        if mode == "variant1":
            return score_v1([s[0], s[1]], [s[2], s[3]])
        if mode == "variant2":
            return score_v2(
                [s[0], s[1]], s[2], [{"limits": p["limits"][:2]} for p in self.passage_log]
            )
        return score_base(list(s))

    def outcome(self) -> Outcome:
        if not self.is_over():
            raise ValueError("the game is not over")
        return outcome_of(self.result(), Termination.FINAL_SCORING.value)

    # --- views and records ----------------------------------------------------------------------
    def _card_name(self, card: int) -> JSON:
        return card - LIMIT_BASE if card >= LIMIT_BASE else CARD_NAMES[card]

    def view(self, seat: int | None) -> dict[str, JSON]:
        mine = [c for c, s in enumerate(self.controller) if s == seat and seat is not None]
        over = self.is_over()
        out: dict[str, JSON] = {
            "game": SLUG,
            "mode": self.ruleset.mode,
            "board": self.board.to_json(),
            "colours": [
                {
                    "kind": k,
                    "seat": self.controller[c],
                    "score": self.score[c],
                    "supply": self.supply[c],
                    "limits": list(self.limits[c]),
                }
                for c, k in enumerate(self.kinds)
            ],
            "cubes": {DISTRICTS[d]: list(self.cubes[d]) for d in range(6)},
            "bridges": [
                {"between": [DISTRICTS[x] for x in self.board.sites[s]], "owner": o}
                for s, o in self.bridges
            ],
            "doge": DISTRICTS[self.doge],
            "passage": self.passage,
            "round": self.rounds,
            "final_round": self.final_round,
            "phase": self.phase.value,
            "roles": list(self.roles),
            "to_act": self.to_act(),
            "acting_colour": self.acting_colour(),
            "decks": {"action": len(self.action_deck), "limit": len(self.limit_deck)},
        }
        if self.phase == DIVIDE:
            dist = self.pairs[0].distributor
            if over or dist in mine:
                out["hand"] = [self._card_name(c) for c in self.hand]
                out["assigned"] = list(self.assign)
            else:  # only the distributor sees the hand while dividing
                out["hand_hidden"] = {"cards": len(self.hand), "assigned": len(self.assign)}
        elif self.piles and self.phase in (CHOOSE, RESOLVE):
            pair_cols = set()
            if self.pairs:
                pair_cols = {self.pairs[0].distributor, *self.pairs[0].choosers}
            public = self.ruleset.offers_public or any(c in pair_cols for c in mine)
            out["offers"] = [
                {"taken_by": t, "cards": [self._card_name(c) for c in pile]}
                if public or t in mine
                else {"taken_by": t, "cards": len(pile)}
                for pile, t in zip(self.piles, self.taken, strict=True)
            ]
        if self.phase == RESOLVE:
            out["holding"] = [CARD_NAMES[c] for c in sorted(self.holding)]
        if self.pending is not None:
            out["pending"] = {"kind": self.pending.kind, "district": self.pending.district,
                              "left": self.pending.left}  # fmt: skip
        out["score_log"] = [
            {**e, "district": DISTRICTS[e["district"]]} if "district" in e else dict(e)
            for e in self.score_log[-12:]
        ]
        if over:
            out["result"] = self.result()
        return out

    def _deal_json(self) -> dict[str, JSON]:
        deal: dict[str, JSON] = {"chance": {k: list(v) for k, v in self.chance.used.items()}}
        if self.chance.seed is not None:
            deal = {"seed": self.chance.seed, **deal}
        return deal

    def to_record(self) -> dict[str, JSON]:
        return {
            "game": SLUG,
            "version": NOTATION_VERSION,
            "ruleset": self.ruleset.to_json(),
            "deal": self._deal_json(),
            "actions": [{"seat": s, **encode(a)} for s, a in self.history],
        }


def start_board(ruleset: BoardRuleset, deal: Any) -> BoardState:
    """The state a record's deal describes: ``{"chance": {...}}`` (what fell at the table),
    ``{"seed": n}`` (chance drawn from the seed) or both (they must agree)."""
    if not isinstance(deal, Mapping):
        raise RecordError('expected {"chance": {"dice": [...], ...}}', path="deal")
    seed = read.seed(deal, "deal.seed")
    if seed is not None and "chance" not in deal:
        return BoardState(ruleset, seed)
    chance = deal.get("chance")
    if not isinstance(chance, Mapping):
        raise RecordError(
            'expected {"dice": [...], "action_cards": [...], ...}', path="deal.chance"
        )
    for k, v in chance.items():
        if k not in CHANCE_KINDS:
            raise RecordError(f"unknown kind of chance; known: {', '.join(CHANCE_KINDS)}",
                              path=f"deal.chance.{k}")  # fmt: skip
        if not isinstance(v, list):
            raise RecordError("expected a list", path=f"deal.chance.{k}")
    return BoardState(ruleset, seed, chance)


def presets() -> dict[str, BoardRuleset]:
    return {
        "base3": BoardRuleset("base3", 3, mode="base", start_bridges=2),
        "base4": BoardRuleset("base4", 4, mode="base", start_bridges=1),
        "variant1-board": BoardRuleset("variant1-board", 2, mode="variant1", start_bridges=1),
        "variant2-board": BoardRuleset("variant2-board", 2, mode="variant2", start_bridges=2),
        "variant3-board": BoardRuleset("variant3-board", 2, mode="variant3", start_bridges=1),
    }
