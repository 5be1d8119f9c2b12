"""The Tarocco summary form (docs/notation/tarocco.md): the outcome of the bidding switches
between a soloist, a pair, an accepted offer (a second one may follow in the same
bargaining) and an abandoned deal."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.declare import (
    CLAIMED_SCORES,
    RULESET,
    Choice,
    Field,
    Key,
    Shape,
    SummaryForm,
    Together,
    Values,
    shape_of,
)
from games.core.text import Text

OUTCOMES = (
    Choice("solo", Text("Solo: uno contro tre", "Solo: one against three")),
    Choice("pairs", Text("Coppie: due contro due", "Pairs: two against two")),
    Choice("offer", Text("Offerta accettata", "Offer accepted")),
    Choice("abandoned", Text("Abbandonata: nessuno ha giocato", "Abandoned: nobody played")),
)

# What each outcome needs written.
NEEDED: dict[str, tuple[str, ...]] = {
    "solo": ("declarer", "card_points"),
    "pairs": ("partner_a", "partner_b", "card_points"),
    "offer": ("offerer", "taker", "points"),
    "abandoned": (),
}
OFFER = ("offerer", "taker", "points")
SECOND = ("offerer_2", "taker_2", "points_2")


def _for(name: str) -> tuple[str, ...]:
    return tuple(o for o, needed in NEEDED.items() if name in needed)


def _paths(name: str) -> tuple[str, ...]:
    """Where the summary holds this field's value, as its violations name it."""
    if name in ("partner_a", "partner_b"):
        return ("pair", f"pair[{'ab'.index(name[-1])}]")
    if name.endswith("_2"):
        return (f"offers[1].{name.removesuffix('_2')}",)
    if name in OFFER:
        return (f"offers[0].{name}",) + (("offers",) if name == "offerer" else ())
    return ()


def _seat(name: str, label: Text, when: tuple[str, ...] | None = None) -> Field:
    outcomes = _for(name)
    return Field(name, label, "seat", when=when or outcomes, needed=outcomes, paths=_paths(name))


def _number(name: str, label: Text, when: tuple[str, ...] | None = None) -> Field:
    outcomes = _for(name)
    return Field(name, label, "integer", when=when or outcomes, needed=outcomes, paths=_paths(name))


FIELDS = (
    Field(
        "outcome",
        Text("Esito della contrattazione", "Outcome of the bidding"),
        "choice",
        required=True,
        choices=OUTCOMES,
        blank=False,
        switch=True,
    ),
    Field(
        "dealer",
        Text("Mazziere", "Dealer"),
        "seat",
        required=True,
        blank=False,
        initial_last_seat=True,
        follows="next_dealer",
    ),
    _seat("declarer", Text("Solista", "Soloist")),
    _seat("partner_a", Text("Coppia: primo giocatore", "Pair: first player")),
    _seat("partner_b", Text("Coppia: secondo giocatore", "Pair: second player")),
    _number(
        "card_points",
        Text("Punti carta del solista o della coppia", "Card points of the soloist or of the pair"),
    ),
    _seat("offerer", Text("Chi ha offerto", "Who offered")),
    _seat("taker", Text("Chi ha preso l'offerta", "Who took the offer")),
    _number("points", Text("Punti offerti", "Points offered")),
    # A second offer taken in the same bargaining (rare, but the rules allow it).
    _seat(
        "offerer_2",
        Text("Seconda offerta: chi ha offerto", "Second offer: who offered"),
        ("offer",),
    ),
    _seat(
        "taker_2",
        Text("Seconda offerta: chi l'ha accettata", "Second offer: who took it"),
        ("offer",),
    ),
    _number("points_2", Text("Seconda offerta: punti", "Second offer: points"), ("offer",)),
)


def build(values: Values) -> dict[str, Any]:
    outcome = values["outcome"]
    summary: dict[str, Any] = {"outcome": outcome, "dealer": values["dealer"]}
    if outcome == "solo":
        summary.update(declarer=values["declarer"], card_points=values["card_points"])
    elif outcome == "pairs":
        summary.update(
            pair=[values["partner_a"], values["partner_b"]], card_points=values["card_points"]
        )
    elif outcome == "offer":
        first = {key: values[key] for key in OFFER}
        if values["offerer_2"] is None:
            summary.update(first)
        else:
            second = {key: values[f"{key}_2"] for key in OFFER}
            summary["offers"] = [first, second]
    return summary


def read(summary: Mapping[str, Any]) -> dict[str, Any]:
    values: dict[str, Any] = {"outcome": summary.get("outcome"), "dealer": summary.get("dealer")}
    if "declarer" in summary:
        values["declarer"] = summary["declarer"]
    pair = summary.get("pair")
    if isinstance(pair, list) and len(pair) == 2:
        values["partner_a"], values["partner_b"] = pair
    if "card_points" in summary:
        values["card_points"] = summary["card_points"]
    offers = summary.get("offers") or [{k: summary[k] for k in OFFER if k in summary}]
    for n, offer in enumerate(offers[:2]):
        end = "_2" if n else ""
        for key in OFFER:
            if isinstance(offer, dict) and key in offer:
                values[key + end] = offer[key]
    return values


FORM = SummaryForm(
    FIELDS,
    build,
    read,
    together=(
        Together(SECOND, Text("Serve per la seconda offerta.", "Needed for the second offer.")),
    ),
)


# --- the summary as JSON (the API's schema): what build() writes, and what else the game reads

_BY_NAME = {f.name: f for f in FIELDS}
ALL_ZERO = Choice("all_zero", Text("Tutti hanno detto zero", "Everybody said zero"))
_OFFER_KEYS = (
    Key("offerer", shape_of(_BY_NAME["offerer"]), required=True),
    Key("taker", shape_of(_BY_NAME["taker"]), required=True),
    Key("points", Shape("integer", _BY_NAME["points"].label, minimum=1, maximum=54), required=True),
)
SHAPE = Shape(
    "object",
    Text("Il riepilogo di una smazzata", "The summary of one hand"),
    keys=(
        Key(
            "outcome",
            Shape("choice", _BY_NAME["outcome"].label, choices=(*OUTCOMES, ALL_ZERO)),
            required=True,
        ),
        Key("dealer", shape_of(_BY_NAME["dealer"])),
        Key("declarer", shape_of(_BY_NAME["declarer"])),
        Key(
            "pair",
            Shape(
                "list",
                Text("Coppia: i due posti di una parte", "Pair: the two seats of one side"),
                items=Shape("seat"),
                least=2,
                most=2,
            ),
        ),
        Key(
            "card_points",
            Shape("integer", _BY_NAME["card_points"].label, minimum=0, maximum=109),
        ),
        *(Key(k.name, k.shape) for k in _OFFER_KEYS),
        Key(
            "offers",
            Shape(
                "list",
                Text("Le offerte accettate, in ordine", "The offers taken, in order"),
                items=Shape("object", keys=_OFFER_KEYS),
                least=1,
            ),
        ),
        Key("ruleset", RULESET),
        Key("claimed_scores", CLAIMED_SCORES),
    ),
)
