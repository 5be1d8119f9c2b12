"""A real Tarocco table's deal, rebuilt card by card: each seat's fifteen cards and the
three of the monte (see games/core/tabledeal.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.core import RecordError
from games.core.words import pick, seat_name
from games.tarocco import cards as C
from games.tarocco import words
from games.tarocco.state import HAND, SEATS

MONTE = 3
FIRST_DEAL = 10  # the first ten cards of a hand come before the bargaining


def pack(lang: str, ruleset: Any = None) -> list[dict[str, Any]]:
    """The 63 cards by suit, trumps from the Miseria up, the Fuggitivo last."""
    groups: list[dict[str, Any]] = []
    for s, letter in enumerate(C.SUITS):
        cards = [c for c in range(C.PACK_SIZE) if C.SUIT[c] == s]
        groups.append({"name": words.suit(letter, lang), "cards": cards})
    groups.append(
        {
            "name": pick(lang, "Trionfi", "Trumps"),
            "cards": [c for c in range(C.PACK_SIZE) if C.SUIT[c] in (C.TRUMP, C.FOOL)],
        }
    )
    return [
        {
            "name": g["name"],
            "cards": [
                {"code": C.CODES[c], "name": words.card(C.CODES[c], lang), "short": short(c)}
                for c in g["cards"]
            ],
        }
        for g in groups
    ]


def short(card: int) -> str:
    """A card's mark on a small face: its rank (the trumps by number)."""
    code = C.CODES[card]
    if code in ("F", "M"):
        return code
    return code[1:]


def opener(lang: str, names: Sequence[str] | None = None) -> dict[str, Any]:
    """What the picker asks first: who dealt."""
    return {
        "label": pick(lang, "Chi ha dato le carte", "Who dealt"),
        "options": [
            (i, names[i] if names and i < len(names) else seat_name(i, lang)) for i in range(SEATS)
        ],
        "missing": pick(lang, "Dite chi ha dato le carte.", "Say who dealt."),
    }


def places(
    lang: str, names: Sequence[str] | None = None, ruleset: Any = None
) -> list[dict[str, Any]]:
    out = [
        {
            "key": f"seat{i}",
            "name": names[i] if names and i < len(names) else seat_name(i, lang),
            "size": HAND,
        }
        for i in range(SEATS)
    ]
    out.append({"key": "monte", "name": pick(lang, "Monte", "Monte"), "size": MONTE})
    return out


def deal(dealer: int, placed: Mapping[str, Sequence[str]], ruleset: Any = None) -> dict[str, Any]:
    """The record's deal: the deck in dealing order. Dealing goes from the dealer's right,
    five at a time, twice round (the first ten of each hand), then five more each after
    the bargaining, and the last three are the monte."""
    if dealer not in range(SEATS):
        raise RecordError("expected a seat 0..3", path="dealer")
    seen: dict[str, str] = {}
    hands: dict[str, list[str]] = {}
    for place in [f"seat{i}" for i in range(SEATS)] + ["monte"]:
        cards = list(placed.get(place, []))
        size = MONTE if place == "monte" else HAND
        for code in cards:
            if code not in C.BY_CODE:
                raise C.DECK.unknown(code, place)
            if code in seen:
                raise RecordError(f"{code} is given twice", path=place)
            seen[code] = place
        if len(cards) != size:
            raise RecordError(f"expected {size} cards, got {len(cards)}", path=place)
        hands[place] = cards
    order = [(dealer + 1 + i) % SEATS for i in range(SEATS)]
    deck: list[str] = [""] * C.PACK_SIZE
    for i, seat in enumerate(order):
        hand = hands[f"seat{seat}"]
        deck[i * 5 : i * 5 + 5] = hand[0:5]
        deck[20 + i * 5 : 25 + i * 5] = hand[5:10]
        deck[40 + i * 5 : 45 + i * 5] = hand[10:15]
    deck[60:63] = hands["monte"]
    return {"dealer": dealer, "deck": deck}


def placed_from(deal_: Mapping[str, Any]) -> tuple[int, dict[str, list[str]]]:
    """The places of a recorded deal (the inverse of ``deal``), to show it or change it."""
    dealer = int(deal_.get("dealer", 3))
    deck = list(deal_.get("deck", []))
    if len(deck) != C.PACK_SIZE:
        return dealer, {}
    order = [(dealer + 1 + i) % SEATS for i in range(SEATS)]
    out: dict[str, list[str]] = {}
    for i, seat in enumerate(order):
        out[f"seat{seat}"] = (
            deck[i * 5 : i * 5 + 5] + deck[20 + i * 5 : 25 + i * 5] + deck[40 + i * 5 : 45 + i * 5]
        )
    out["monte"] = deck[60:63]
    return dealer, out


def play_step(seat: int, code: str) -> dict[str, Any]:
    return {"seat": seat, "play": code}


def is_play(step: Mapping[str, Any]) -> bool:
    return "play" in step


def played_card(step: Mapping[str, Any]) -> str | None:
    value = step.get("play")
    return value if isinstance(value, str) else None


def is_card_set(step: Mapping[str, Any]) -> bool:
    """A step that puts several cards down at once (the monte's discard)."""
    return isinstance(step.get("discard"), list)


def card_set_step(seat: int, codes: Sequence[str]) -> dict[str, Any]:
    return {"seat": seat, "discard": list(codes)}
