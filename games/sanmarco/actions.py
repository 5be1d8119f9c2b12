"""San Marco's board actions: ``Act`` values, their JSON form (docs/notation/sanmarco.md) and
the one reader replay and the pages use (``decode``), with the shared actions legal lists
are built of."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from games.core import (
    RecordError,
)
from games.sanmarco.board import DISTRICTS, MAX_BRIDGES
from games.sanmarco.cards import (
    BANISH,
    BRIDGE,
    CARD_NAMES,
    DOGE,
    TRANSFER,
)

JSON = Any


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


# --- the shared actions -------------------------------------------------------------------
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


# --- the one reader -----------------------------------------------------------------------
_KIND_SET = frozenset(KINDS)


def _d(data: Mapping[str, Any], key: str, path: str) -> int:
    v = data.get(key)
    d = _DISTRICT.get(v, -1) if type(v) is str else -1
    if d < 0:
        raise RecordError(f"expected a district: {', '.join(DISTRICTS)}", path=f"{path}.{key}")
    return d


def _n(data: Mapping[str, Any], key: str, path: str) -> int:
    v = data.get(key)
    if type(v) is not int or v < 0:  # a bool is not a whole number here
        raise RecordError("expected a whole number, 0 or more", path=f"{path}.{key}")
    return v


def decode(data: Any, path: str = "actions") -> Act:
    """Read one board action as a record writes it (docs/notation/sanmarco.md), or raise
    RecordError at the field at fault. The one reader: replay, the tables and the CLI all
    read through it. A plain action comes back as one of the shared values above."""
    do = data.get("do") if type(data) is dict or isinstance(data, Mapping) else None
    if type(do) is not str or do not in _KIND_SET:
        raise RecordError(f'expected {{"do": one of {", ".join(KINDS)}, ...}}', path=path)
    if do == "pile":  # half of a game's actions: the plain case first
        v = data.get("pile")
        if type(v) is int and 0 <= v < _SHORT:
            return _PILE_LIST[v]
        return _pick(_PILE_LIST, _n(data, "pile", path), do)
    if do == "district":
        v = data.get("district")
        a = _DISTRICT.get(v, -1) if type(v) is str else -1
        if a < 0:
            a = _d(data, "district", path)  # raises, saying what is wrong
        if "to" not in data and "from" not in data:  # the common card, from the supply
            return _DISTRICT_ACT[a][a]
        b = _d(data, "to", path) if "to" in data else a
        if "from" in data:
            return _DISTRICT_FROM[a][b][_d(data, "from", path)]
        return _DISTRICT_ACT[a][b]
    if do == "choose":
        return _pick(_CHOOSE, _n(data, "pile", path), do)
    if do == "bridge":
        pair = data.get("between")
        if (
            type(pair) is not list
            or len(pair) != 2
            or any(type(p) is not str or p not in _DISTRICT for p in pair)
        ):
            raise RecordError("expected two districts", path=f"{path}.between")
        a, b = sorted(_DISTRICT[p] for p in pair)
        take = _n(data, "take", path) if "take" in data else -1
        if take < MAX_BRIDGES:
            return _BRIDGE_ACT[a][b][take + 1]
        return Act(do, a, b, take)
    if do == "transfer":
        d, v = _d(data, "district", path), _n(data, "colour", path)
        return _TRANSFER[d][v] if v < _SHORT else Act(do, d, v)
    if do == "banish":
        return _BANISH[_d(data, "district", path)]
    if do == "neutral":
        return _NEUTRAL[_d(data, "district", path)]
    if do == "remove":
        return _pick(_REMOVE, _n(data, "colour", path), do)
    if do == "score":
        return _pick(_SCORE, _n(data, "colour", path), do)
    if do == "doge":
        return _pick(_DOGE_STEP, _n(data, "bridge", path), do)
    if do == "skip":
        card = data.get("card")
        if type(card) is not str or card not in _CARD:
            raise RecordError(f"expected a card: {', '.join(CARD_NAMES)}", path=f"{path}.card")
        return _SKIP[_CARD[card]]
    return _STOP


# The card an action in a holder's hand plays (-1: no card plays it).
_CARD_OF_KIND = {"bridge": BRIDGE, "transfer": TRANSFER, "banish": BANISH, "doge": DOGE,
                 "stop": DOGE}  # fmt: skip


def _card_of(act: Act) -> int:
    do = act.do
    if do == "district" or do == "skip":
        return act.a
    return _CARD_OF_KIND.get(do, -1)
