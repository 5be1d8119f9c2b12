"""A real cardChess table rebuilt deal by deal: the cards each seat and the table received,
tapped as they come (see games/core/tabledeal.py).

A sfida's deck comes out of the pile a turn at a time, and after a reshuffle the discards
come out in an order nobody saw before: a referee knows the cards only as they were dealt.
So the record's deck holds the cards the referee has said first (``known``, the same for a
reshuffle: ``reshuffle_known``), then the cards not yet said in the pack's order as
placeholders; before the play goes past them the desk asks for the cards really dealt (who
got which, the table cards in the order they were laid). The engine reads ``deck`` and
``reshuffle`` as usual and leaves the two counts alone.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from games.cardchess import cards as C
from games.cardchess import words as W
from games.cardchess.state import CardChessState
from games.core import RecordError, registry
from games.core.words import pick

TABLE = -1
KIND = "dealt"  # the desk asks for each deal as it comes


def titles(lang: str) -> dict[str, str]:
    return {
        "title": pick(lang, "Le carte date, carta per carta", "The cards dealt, card by card"),
        "enter": pick(lang, "Inserisci le carte date, carta per carta", "Enter the cards dealt"),
        "change": pick(lang, "Inserisci le carte date", "Enter the cards dealt"),
    }


def opener(lang: str, names: Sequence[str] | None = None) -> None:
    """Nothing to ask first: the first seat deals."""
    return None


def _ruleset(ruleset: Any) -> Any:
    if ruleset is not None and hasattr(ruleset, "deck"):
        return ruleset
    return registry.get("cardchess").ruleset(ruleset or None)


def _seat(seat: int, names: Sequence[str] | None, lang: str) -> str:
    if names and 0 <= seat < len(names):
        return names[seat]
    return pick(lang, f"posto {seat + 1}", f"seat {seat + 1}")


def _first_order(n: int) -> list[int]:
    return [s for s in range(n) for _ in range(4)] + [TABLE] * 3


def _turn_order(state: CardChessState) -> list[int]:
    """The destinations of a turn's deal, as games/cardchess/state.py deals them."""
    b = state.b
    n = state.n
    if n == 2:
        return [TABLE, 0, 1] * 3 if b.cyclic else [0, 0, 0, 1, 1, 1, TABLE, TABLE, TABLE]
    return [TABLE, *range(n)] * 3 + ([TABLE] if b.last_turn else [])


def _deals(record: Mapping[str, Any]) -> list[dict[str, Any]]:
    deal = record.get("deal")
    sfide = deal.get("sfide") if isinstance(deal, Mapping) else None
    return [dict(d) for d in sfide] if isinstance(sfide, list) else []


def _events(record: Mapping[str, Any]) -> tuple[list[dict[str, Any]], CardChessState | None]:
    """Every deal of the record replayed: sfida, source (deck or reshuffle), the positions
    dealt and where each went; and the state at the end (None when it cannot be read)."""
    engine: Any = registry.get("cardchess")
    try:
        state: CardChessState = engine.start(record)
    except RecordError:
        return [], None
    events: list[dict[str, Any]] = []
    seen = {"sfida": -1, "deck": 0, "reshuffle": 0, "reshuffled": False}

    def look() -> None:
        if state.waiting and state.sfida == seen["sfida"] and not state.b.reshuffled:
            return
        d = state.deals[state.sfida] if 0 <= state.sfida < len(state.deals) else None
        if d is None:
            return
        if state.sfida != seen["sfida"]:
            seen.update(sfida=state.sfida, deck=0, reshuffle=0, reshuffled=False)
            dealt = len(d.deck) - len(state.b.pile)
            events.append(
                {
                    "sfida": state.sfida,
                    "source": "deck",
                    "start": 0,
                    "end": dealt,
                    "order": _first_order(state.n)[:dealt],
                }
            )
            seen["deck"] = dealt
            return
        source = "reshuffle" if state.b.reshuffled else "deck"
        size = len(d.reshuffle or []) if source == "reshuffle" else len(d.deck)
        dealt = size - len(state.b.pile)
        if source == "reshuffle" and not seen["reshuffled"]:
            seen["reshuffled"] = True
        if dealt > seen[source]:
            events.append(
                {
                    "sfida": state.sfida,
                    "source": source,
                    "start": seen[source],
                    "end": dealt,
                    "order": _turn_order(state)[: dealt - seen[source]],
                }
            )
            seen[source] = dealt

    look()
    try:
        for i, raw in enumerate(record.get("actions", [])):
            seat, action = engine.decode_step(raw, f"actions[{i}]")
            if state.over or state.waiting:
                break
            state.apply_unchecked(seat, action)
            look()
    except (RecordError, ValueError, KeyError, IndexError):
        return events, None
    return events, state


def _waiting(state: CardChessState) -> str:
    """What the engine waits for: a new sfida's deck, a reshuffle's order, or nothing."""
    if not state.waiting or state.over:
        return ""
    if len(state.results) <= state.sfida < len(state.deals):  # the sfida goes on
        d = state.deals[state.sfida]
        if d.reshuffle is None and state.b.discard and not state.b.pile:
            return "reshuffle"
    return "sfida"


def pending(record: Mapping[str, Any], view: Any = None, lang: str = "it") -> dict[str, Any] | None:
    """The deal the referee has not said yet: which sfida, where the cards went (in the
    order dealt) and the cards that can be among them."""
    events, state = _events(record)
    if state is None:
        return None
    deals = _deals(record)
    for e in events:
        d = deals[e["sfida"]] if e["sfida"] < len(deals) else {}
        key = "known" if e["source"] == "deck" else "reshuffle_known"
        known = int(d.get(key, len(d.get(e["source"], []) or [])))
        if e["end"] > known:
            skip = max(0, known - e["start"])
            return _ask(
                e["sfida"], e["source"], e["start"] + skip, e["order"][skip:], state, record
            )
    why = _waiting(state)
    if why == "sfida":
        return _ask(len(deals), "deck", 0, _first_order(state.n), state, record)
    if why == "reshuffle":
        n = state.n
        order = ([TABLE, 0, 1] * 3 if n == 2 else [TABLE, *range(n)] * 3)[: len(state.b.discard)]
        return _ask(state.sfida, "reshuffle", 0, order, state, record)
    return None


def _ask(
    sfida: int,
    source: str,
    start: int,
    order: list[int],
    state: CardChessState | None,
    record: Mapping[str, Any],
) -> dict[str, Any]:
    ruleset = _ruleset(record.get("ruleset") if record else None)
    deals = _deals(record)
    if source == "deck":
        pool = Counter(C.CODES[c] for c in ruleset.deck())
        before = (deals[sfida]["deck"][:start]) if sfida < len(deals) else []
    else:
        assert state is not None
        found = deals[sfida].get("reshuffle")
        pool = Counter(found if found else [C.CODES[c] for c in state.b.discard])
        before = (found or [])[:start]
    pool.subtract(Counter(before))
    return {
        "sfida": sfida,
        "source": source,
        "start": start,
        "order": order,
        "copies": {c: n for c, n in pool.items() if n > 0},
        "count": len(order),
        "link": True,
        "after": sfida + 1,
        "cards": [],
        "who": "",
    }


def pack(lang: str, ruleset: Any = None, record: Mapping[str, Any] | None = None) -> list[Any]:
    """The cards that can have been dealt now, blue then green."""
    asked = pending(record or {}, None, lang)
    copies = asked["copies"] if asked else {}
    groups = []
    for colour, (it, en) in enumerate(
        (("Carte blu", "Blue cards"), ("Carte verdi", "Green cards"))
    ):
        codes = sorted(
            (c for c in copies if C.BY_CODE[c] // C.PER_COLOUR == colour),
            key=lambda c: C.BY_CODE[c],
        )
        if codes:
            groups.append(
                {
                    "name": pick(lang, it, en),
                    "cards": [
                        {"code": c, "name": W.card(c, lang), "short": c[1:], "copies": copies[c]}
                        for c in codes
                    ],
                }
            )
    return groups


def places(
    lang: str,
    names: Sequence[str] | None = None,
    ruleset: Any = None,
    record: Mapping[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """Where the cards of the deal asked for went: each seat, then the table (its cards in
    the order they were laid)."""
    asked = pending(record or {}, None, lang)
    if asked is None:
        return []
    counts = Counter(asked["order"])
    out = []
    for dest in sorted(counts, key=lambda d: (d == TABLE, d)):
        out.append(
            {
                "key": "table" if dest == TABLE else f"seat{dest}",
                "name": pick(lang, "Tavolo (in ordine)", "Table (in order)")
                if dest == TABLE
                else _seat(dest, names, lang),
                "size": counts[dest],
            }
        )
    return out


def heading(record: Mapping[str, Any], lang: str) -> str:
    asked = pending(record, None, lang)
    if asked is None:
        return ""
    what = (
        pick(lang, "dopo il rimescolamento", "after the reshuffle")
        if asked["source"] == "reshuffle"
        else ""
    )
    first = asked["start"] == 0 and asked["source"] == "deck"
    return pick(
        lang,
        f"Sfida {asked['after']}: "
        + ("la prima distribuzione" if first else "le carte date a questo turno")
        + (f" {what}" if what else ""),
        f"Sfida {asked['after']}: "
        + ("the first deal" if first else "the cards dealt this turn")
        + (f" {what}" if what else ""),
    )


def apply(
    record: Mapping[str, Any], placed: Mapping[str, Sequence[str]], ruleset: Any = None
) -> dict[str, Any]:
    """The record with the deal asked for: the cards tapped at their positions, the cards
    not yet said after them in the pack's order. An error names the place at fault."""
    asked = pending(record, None, "en")
    if asked is None:
        raise RecordError("no deal is waiting to be entered", path="table")
    rs = _ruleset((record or {}).get("ruleset") if record else ruleset)
    left = Counter(asked["copies"])
    queues: dict[int, list[str]] = {}
    counts = Counter(asked["order"])
    for dest in counts:
        key = "table" if dest == TABLE else f"seat{dest}"
        cards = list(placed.get(key, []))
        if len(cards) != counts[dest]:
            raise RecordError(f"expected {counts[dest]} cards, got {len(cards)}", path=key)
        for code in cards:
            if left[code] <= 0:
                raise RecordError(f"{code} cannot be among these cards", path=key)
            left[code] -= 1
        queues[dest] = cards
    dealt = [queues[dest].pop(0) for dest in asked["order"]]
    out = copy.deepcopy(dict(record or {}))
    out.setdefault("game", "cardchess")
    if "ruleset" not in out:
        out["ruleset"] = rs.to_json()
    deal = out.setdefault("deal", {"sfide": []})
    sfide = deal.setdefault("sfide", [])
    rest = sorted(left.elements(), key=lambda c: C.BY_CODE[c])
    if asked["source"] == "deck":
        if asked["sfida"] >= len(sfide):
            sfide.append({"deck": [], "known": 0})
        d = sfide[asked["sfida"]]
        d["deck"] = list(d["deck"][: asked["start"]]) + dealt + rest
        d["known"] = asked["start"] + len(dealt)
    else:
        d = sfide[asked["sfida"]]
        d["reshuffle"] = list((d.get("reshuffle") or [])[: asked["start"]]) + dealt + rest
        d["reshuffle_known"] = asked["start"] + len(dealt)
    out.setdefault("actions", [])
    return out


def real_steps(seat: int, view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every step the seat could physically take now, legal or not: while the dealer
    reveals a table card, giving it to any seat or to nobody (the desk offers the ones the
    rules do not give marked, so a wrong capture is entered by tapping)."""
    at = view.get("revealing")
    sizes = view.get("hand_sizes")
    if not isinstance(at, int) or at < 0 or seat != 0 or not isinstance(sizes, list):
        return []
    takers: list[int | None] = [*range(len(sizes)), None]
    return [{"seat": seat, "resolve": at, "taker": t} for t in takers]
