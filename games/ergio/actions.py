"""Er Giò's actions: frozen values, and their JSON form (docs/notation/ergio.md).

Corteo: ``Lay`` a tris, ``Add`` a card to a shown unit, ``Swap`` a patching special for a real
card, play a ``Celatino`` or a ``Special`` singly (advanced), ``Pass`` a card to the common
pile and ``Draw`` from deck or pile (four and six players), throw a card in the ``Arno`` (only
beyond the hand limit) and ``End`` the turn. Battle: ``Sabotage`` (advanced Corteo winner),
``Send`` a magistratura, ``Reinforce`` it face down, ``Ready``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from games.core import RecordError, read
from games.ergio import cards as C

JSON = Any
NO = -1

CELATINO_TARGETS = ("deck", "field", "hand", "pile")
UNDER = ("magistrato", "caposchiera", "spot")
DRAW_SOURCES = ("deck", "pile")


@dataclass(frozen=True, slots=True)
class Lay:
    cards: tuple[int, ...]  # sorted


@dataclass(frozen=True, slots=True)
class Add:
    card: int


@dataclass(frozen=True, slots=True)
class Swap:
    patch: int  # the special on the field
    card: int  # the real card from the hand


@dataclass(frozen=True, slots=True)
class Celatino:
    target: str  # deck, field, hand or pile
    card: int = NO  # the card aimed at (field; pile in records written before ``at``)
    victim: int = NO  # the seat whose hand is hit (hand)
    at: int = NO  # pile: the place counted from the top (0), as the face-down backs are seen


@dataclass(frozen=True, slots=True)
class Special:
    card: int
    target: int = NO  # Trombettiere: card from the deck; Tamburino: from the Arno;
    # Luogotenente: from the field


@dataclass(frozen=True, slots=True)
class Pass:
    card: int


@dataclass(frozen=True, slots=True)
class Draw:
    source: str  # deck or pile


@dataclass(frozen=True, slots=True)
class Arno:
    card: int


@dataclass(frozen=True, slots=True)
class End:
    pass


@dataclass(frozen=True, slots=True)
class Sabotage:
    do: bool


@dataclass(frozen=True, slots=True)
class Send:
    mag: int


@dataclass(frozen=True, slots=True)
class Reinforce:
    card: int
    under: str  # magistrato, caposchiera or spot


@dataclass(frozen=True, slots=True)
class Ready:
    pass


Action = (
    Lay | Add | Swap | Celatino | Special | Pass | Draw | Arno | End | Sabotage | Send | Reinforce
) | Ready

# Shared, pre-built values for the actions the engine lists most often: they are frozen, so
# the listing hands out the same objects instead of building new ones at every turn. Equal
# values built anywhere else (a record, a page, a bot) compare equal to these.
ADD: Final[tuple[Add, ...]] = tuple(Add(c) for c in range(C.TYPES))
ARNO: Final[tuple[Arno, ...]] = tuple(Arno(c) for c in range(C.TYPES))
PASS: Final[tuple[Pass, ...]] = tuple(Pass(c) for c in range(C.TYPES))
SEND: Final[tuple[Send, ...]] = tuple(Send(m) for m in range(len(C.MAGISTRATURE)))
#: Reinforce by place under the sent magistratura, then card
REINFORCE: Final[dict[str, tuple[Reinforce, ...]]] = {
    under: tuple(Reinforce(c, under) for c in range(C.TYPES)) for under in UNDER
}
END: Final = End()
READY: Final = Ready()
DRAW_DECK: Final = Draw("deck")
DRAW_PILE: Final = Draw("pile")
SABOTAGE_YES: Final = Sabotage(True)
SABOTAGE_NO: Final = Sabotage(False)
CELATINO_DECK: Final = Celatino("deck")
_LAYS: dict[tuple[int, ...], Lay] = {}


def lay(cards: tuple[int, ...]) -> Lay:
    """The shared ``Lay`` of these (sorted) cards."""
    found = _LAYS.get(cards)
    if found is None:
        found = _LAYS[cards] = Lay(cards)
    return found


def _c(card: int) -> str | None:
    return None if card == NO else C.CODES[card]


def encode(action: Any) -> dict[str, JSON]:
    if isinstance(action, Lay):
        return {"lay": [C.CODES[c] for c in action.cards]}
    if isinstance(action, Add):
        return {"add": C.CODES[action.card]}
    if isinstance(action, Swap):
        return {"swap": C.CODES[action.patch], "for": C.CODES[action.card]}
    if isinstance(action, Celatino):
        out: dict[str, JSON] = {"celatino": action.target}
        if action.card != NO:
            out["card"] = C.CODES[action.card]
        if action.victim != NO:
            out["victim"] = action.victim
        if action.at != NO:
            out["at"] = action.at
        return out
    if isinstance(action, Special):
        out = {"special": C.CODES[action.card]}
        if action.target != NO:
            out["card"] = C.CODES[action.target]
        return out
    if isinstance(action, Pass):
        return {"pass": C.CODES[action.card]}
    if isinstance(action, Draw):
        return {"draw": action.source}
    if isinstance(action, Arno):
        return {"arno": C.CODES[action.card]}
    if isinstance(action, End):
        return {"end": True}
    if isinstance(action, Sabotage):
        return {"sabotage": action.do}
    if isinstance(action, Send):
        return {"send": C.MAGISTRATURE[action.mag][0]}
    if isinstance(action, Reinforce):
        return {"reinforce": C.CODES[action.card], "under": action.under}
    if isinstance(action, Ready):
        return {"ready": True}
    raise TypeError(f"not an Er Giò action: {action!r}")


def card(raw: Any, path: str) -> int:
    return C.DECK.read(raw, path)


def cards(raw: list[Any], path: str) -> list[int]:
    """Card codes to cards; the path of a bad one is ``path[i]``."""
    return C.DECK.read_list(raw, path)


def mag(raw: Any, path: str) -> int:
    key = raw.lower().replace("'", "_").replace(" ", "_") if isinstance(raw, str) else None
    if key is None or key not in C.MAG_BY_NAME:
        names = ", ".join(s for s, _, _ in C.MAGISTRATURE)
        raise RecordError(f"unknown magistratura {raw!r}; known: {names}", path=path)
    return C.MAG_BY_NAME[key]


def _choice(raw: Any, allowed: tuple[str, ...], path: str) -> str:
    return read.one_of(raw, allowed, path)


def decode(data: Any, path: str) -> Action:
    if type(data) is not dict and not isinstance(data, Mapping):
        raise RecordError("an action is a JSON object", path=path)
    if "lay" in data:
        raw = data["lay"]
        if not isinstance(raw, list):
            raise RecordError("expected a list of card codes", path=f"{path}.lay")
        return lay(tuple(sorted(cards(raw, f"{path}.lay"))))
    if "add" in data:
        return ADD[card(data["add"], f"{path}.add")]
    if "swap" in data:
        return Swap(card(data["swap"], f"{path}.swap"), card(data.get("for"), f"{path}.for"))
    if "celatino" in data:
        target = _choice(data["celatino"], CELATINO_TARGETS, f"{path}.celatino")
        c = NO if data.get("card") is None else card(data["card"], f"{path}.card")
        victim = data.get("victim", NO)
        if isinstance(victim, bool) or not isinstance(victim, int):
            raise RecordError("expected a seat number", path=f"{path}.victim")
        at = data.get("at", NO)
        if isinstance(at, bool) or not isinstance(at, int) or (at < 0 and at != NO):
            raise RecordError("expected a place in the pile, 0 for the top", path=f"{path}.at")
        return Celatino(target, c, victim, at)
    if "special" in data:
        t = NO if data.get("card") is None else card(data["card"], f"{path}.card")
        return Special(card(data["special"], f"{path}.special"), t)
    # the commonest read as the shared values the listings hand out
    if "pass" in data:
        return PASS[card(data["pass"], f"{path}.pass")]
    if "draw" in data:
        source = _choice(data["draw"], DRAW_SOURCES, f"{path}.draw")
        return DRAW_DECK if source == "deck" else DRAW_PILE
    if "arno" in data:
        return ARNO[card(data["arno"], f"{path}.arno")]
    if "end" in data:
        return END
    if "sabotage" in data:
        return SABOTAGE_YES if read.flag(data["sabotage"], f"{path}.sabotage") else SABOTAGE_NO
    if "send" in data:
        return SEND[mag(data["send"], f"{path}.send")]
    if "reinforce" in data:
        c = card(data["reinforce"], f"{path}.reinforce")
        return REINFORCE[_choice(data.get("under"), UNDER, f"{path}.under")][c]
    if "ready" in data:
        return READY
    raise RecordError(
        "expected one of lay, add, swap, celatino, special, pass, draw, arno, end, sabotage, "
        "send, reinforce, ready",
        path=path,
    )
