"""The JSON of a whole smazzata's record (docs/notation/tarocco.md, "Record"), declared for
the API's schema: its deal and each kind of action, with their words and ranges."""

from __future__ import annotations

from games.core.declare import Choice, Key, Shape, action, codes
from games.core.text import Text
from games.tarocco import cards as C
from games.tarocco.words import SIGNALS

CARD = codes(
    Text(
        "Una carta, dal suo codice (SK Re di Spade, O4, T20 Giove, M la Miseria, F il Fuggitivo)",
        "A card, by its code (SK King of Swords, O4, T20 Giove, M the Miseria, F the Fuggitivo)",
    ),
    C.CODES,
)


def _flag(key: str, label: Text) -> Shape:
    return action(label, Key(key, Shape("flag", label), required=True))


def _bid(value: str, label: Text, *more: Key) -> Shape:
    bid = Shape("choice", label, choices=(Choice(value, label),))
    return action(label, Key("bid", bid, required=True), *more)


DEAL = Shape(
    "object",
    Text("La distribuzione: chi dà le carte e il mazzo", "The deal: the dealer and the pack"),
    keys=(
        Key("dealer", Shape("seat", Text("Il mazziere", "The dealer"))),
        Key(
            "deck",
            Shape(
                "list",
                Text(
                    "Le 63 carte mescolate, dalla prima data",
                    "The 63 cards shuffled, the first dealt first",
                ),
                items=CARD,
                least=len(C.CODES),
                most=len(C.CODES),
            ),
            required=True,
        ),
    ),
)

ACTIONS = (
    _bid("vado", Text("Vado", "Vado (I pass on)")),
    _bid("tengo", Text("Tengo", "Tengo (I hold)")),
    _bid(
        "offro",
        Text("Offro dei punti", "Offro: an offer of points"),
        Key(
            "points",
            Shape("integer", Text("Punti offerti", "Points offered"), minimum=1),
            required=True,
        ),
    ),
    _bid(
        "piglio",
        Text("Piglio: accetta un'offerta", "Piglio: an offer taken"),
        Key("of", Shape("seat", Text("Chi aveva offerto", "Who offered")), required=True),
    ),
    _flag("solo", Text("Gioca da solo (falso: passo)", "Goes solo (false: passes)")),
    action(
        Text("Lo scarto nel monte", "The discard to the monte"),
        Key(
            "discard",
            Shape("list", Text("Tre carte", "Three cards"), items=CARD, least=3, most=3),
            required=True,
        ),
    ),
    _flag("venti", Text("Venti (falso: zero)", "Venti (false: zero)")),
    _flag("quindici", Text("Quindici (falso: no)", "Quindici (false: no)")),
    action(
        Text("Il Re (o la Regina) chiamato", "The King (or Queen) called"),
        Key("call", CARD, required=True),
    ),
    action(
        Text("Una carta giocata", "A card played"),
        Key("play", CARD, required=True),
        Key(
            "signal",
            Shape(
                "choice",
                Text("Un segnale, solo su un'uscita", "A signal, only on a lead"),
                choices=tuple(Choice(k, Text(it, en)) for k, (it, en) in SIGNALS.items()),
            ),
        ),
    ),
)
