"""The JSON of a whole match's record (docs/notation/ergio.md, "Record"), declared for the
API's schema: the deal (both decks, or the position at the battle) and each kind of action,
with their words."""

from __future__ import annotations

from games.core.declare import Choice, Key, Shape, action, codes
from games.core.text import Text
from games.ergio import cards as C
from games.ergio.form import SIDES, magistrature
from games.ergio.words import CELATINO_TARGETS

CARD = codes(
    Text(
        "Una carta, dal suo codice (SMI-7 combattente 7 di San Michele, SAT-CAP capitano di "
        "Sant'Antonio, T-GCSC un gruppo armato di Tramontana)",
        "A card, by its code (SMI-7 fighter 7 of San Michele, SAT-CAP capitano of "
        "Sant'Antonio, T-GCSC an armed group of Tramontana)",
    ),
    C.CODES,
)


def _cards(label: Text, least: int = 0) -> Shape:
    return Shape("list", label, items=CARD, least=least)


def _one(key: str, label: Text, value: Shape, *more: Key) -> Shape:
    return action(label, Key(key, value, required=True), *more)


def _true(key: str, label: Text) -> Shape:
    return _one(key, label, Shape("flag", label))


def _side_at_battle(name: str) -> Shape:
    return Shape(
        "object",
        Text(f"{name} all'inizio della battaglia", f"{name} when the battle begins"),
        keys=(
            Key(
                "corteo", _cards(Text("Le carte calate nel Corteo", "The cards laid in the Corteo"))
            ),
            Key("hand", _cards(Text("La mano", "The hand"))),
            Key(
                "drawn",
                _cards(
                    Text(
                        "Le carte pescate dopo gli scontri, in ordine",
                        "The cards drawn after the scontri, in order",
                    )
                ),
            ),
            Key(
                "dry",
                Shape("flag", Text("Il mazzo è finito", "The deck has run out")),
            ),
        ),
    )


DEAL = Shape(
    "object",
    Text(
        "La distribuzione: il mazzo di ogni parte, o la posizione all'inizio della battaglia",
        "The deal: each side's deck, or the position when the battle begins",
    ),
    keys=(
        Key(
            "tramontana",
            _cards(
                Text("Il mazzo di Tramontana, dalla prima carta", "Tramontana's deck, top first")
            ),
        ),
        Key(
            "mezzogiorno",
            _cards(
                Text("Il mazzo di Mezzogiorno, dalla prima carta", "Mezzogiorno's deck, top first")
            ),
        ),
        Key(
            "battle",
            Shape(
                "object",
                Text(
                    "La posizione all'inizio della battaglia", "The position when the battle begins"
                ),
                keys=(
                    Key(
                        "corteo_winner",
                        Shape("choice", Text("Corteo vinto da", "Corteo won by"), choices=SIDES),
                        required=True,
                    ),
                    Key("tramontana", _side_at_battle("Tramontana"), required=True),
                    Key("mezzogiorno", _side_at_battle("Mezzogiorno"), required=True),
                ),
            ),
        ),
    ),
)

_MAGISTRATURE = Shape(
    "choice", Text("Magistratura", "Magistratura"), choices=magistrature(0) + magistrature(1)
)
_UNDER = (
    Choice("magistrato", Text("Sotto il magistrato", "Under the magistrato")),
    Choice("caposchiera", Text("Sotto il caposchiera", "Under the caposchiera")),
    Choice("spot", Text("Una magistratura fatta sul momento", "A magistratura made on the spot")),
)

ACTIONS = (
    _one("lay", Text("Cala un tris", "Lays a tris"), _cards(Text("Le carte", "The cards"), 3)),
    _one("add", Text("Aggiunge una carta", "Adds a card"), CARD),
    _one(
        "swap",
        Text("Sostituisce una carta speciale", "Swaps a special card"),
        CARD,
        Key("for", CARD, required=True),
    ),
    _one(
        "celatino",
        Text("Gioca un Celatino", "Plays a Celatino"),
        Shape(
            "choice",
            Text("Su che cosa", "At what"),
            choices=tuple(Choice(k, Text(it, en)) for k, (it, en) in CELATINO_TARGETS.items()),
        ),
        Key("card", CARD),
        Key("victim", Shape("seat", Text("Il giocatore colpito", "The player hit"))),
        Key(
            "at",
            Shape(
                "integer",
                Text("Il posto nel mucchio, 0 in cima", "The place in the pile, 0 at the top"),
                minimum=0,
            ),
        ),
    ),
    _one(
        "special",
        Text("Gioca una carta speciale da sola", "Plays a special card alone"),
        CARD,
        Key("card", CARD),
    ),
    _one(
        "draw",
        Text("Pesca", "Draws"),
        Shape(
            "choice",
            Text("Da dove", "From where"),
            choices=(
                Choice("deck", Text("Dal mazzo", "From the deck")),
                Choice("pile", Text("Dal mucchio comune", "From the common pile")),
            ),
        ),
    ),
    _one(
        "pass", Text("Passa una carta al mucchio comune", "Passes a card to the common pile"), CARD
    ),
    _one("arno", Text("Getta una carta in Arno", "Throws a card into the Arno"), CARD),
    _true("end", Text("Finisce il turno", "Ends the turn")),
    _true("sabotage", Text("Sabotaggio (falso: no)", "Sabotage (false: no)")),
    _one(
        "send",
        Text("Manda una magistratura sul ponte", "Sends a magistratura to the bridge"),
        _MAGISTRATURE,
    ),
    _one(
        "reinforce",
        Text("Un rinforzo coperto", "A face-down reinforcement"),
        CARD,
        Key("under", Shape("choice", Text("Dove", "Where"), choices=_UNDER), required=True),
    ),
    _true("ready", Text("La squadra è pronta", "The team is ready")),
)
