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
