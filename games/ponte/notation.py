"""The JSON of a whole match's record (docs/notation/ponte.md, "Record"), declared for the
API's schema: the deal (who challenges first, the strategy cards' orders), each kind of
action and the claims a scorekeeper may write beside them, with their words."""

from __future__ import annotations

from games.core.declare import Choice, Key, Shape, action
from games.core.text import Text
from games.ponte.form import WINNERS
from games.ponte.model import BEATS
from games.ponte.words import QUARTERS

_SIDE = Shape("choice", Text("Una parte", "A side"), choices=WINNERS)
_QUARTERS = tuple(Choice(k, Text(it[:1].upper() + it[1:], en)) for k, (it, en) in QUARTERS.items())
FIGHT_CARD = Shape(
    "text",
    Text(
        "Una carta di combattimento: il tipo (A attacco, P spinta, D difesa) e i Kg o la spinta, "
        "come A20000; null: una magistratura senza più potenza",
        "A fight card: its type (A attack, P push, D defence) and its Kg or push, like "
        "A20000; null: a magistratura with no power left",
    ),
    pattern="^[" + "".join(sorted(BEATS)) + "][0-9]+$",
    nullable=True,
)
_ORDER = Shape(
    "list",
    Text(
        "Un ordine delle sei carte strategia, da 0 a 5",
        "An order of the six strategy cards, 0 to 5",
    ),
    items=Shape("integer", minimum=0, maximum=5),
    least=6,
    most=6,
)

DEAL = Shape(
    "object",
    Text("Il sorteggio e le carte strategia", "The draw and the strategy cards"),
    keys=(
        Key(
            "first",
            Shape(
                "choice",
                Text("La parte che sfida per prima", "The side that challenges first"),
                choices=WINNERS,
            ),
            required=True,
        ),
        Key(
            "first_quarter",
            Shape(
                "choice",
                Text(
                    "Il quartiere di chi ha sorteggiato più alto (facoltativo: levante)",
                    "The quarter of who drew highest (optional: East)",
                ),
                choices=_QUARTERS,
                nullable=True,
            ),
        ),
        Key(
            "strategy",
            Shape(
                "list",
                Text(
                    "Per parte, l'ordine delle carte strategia",
                    "Per side, the strategy cards' order",
                ),
                items=_ORDER,
                least=2,
                most=2,
            ),
        ),
    ),
)


def actions(magistrature: tuple[Choice, ...]) -> tuple[Shape, ...]:
    """Each kind of action; ``magistrature``: the game's declared twelve."""

    def _mag(label: Text) -> Shape:
        return Shape("choice", label, choices=magistrature)

    return (
        action(
            Text("Una riga del foglio della potenza", "A line of the power sheet"),
            Key("assign", _mag(Text("La magistratura", "The magistratura")), required=True),
            Key(
                "power",
                Shape("integer", Text("Potenza (Kg)", "Power (Kg)"), minimum=0),
                required=True,
            ),
        ),
        action(
            Text(
                "Una carta strategia data a una magistratura",
                "A strategy card given to a magistratura",
            ),
            Key("equip", _mag(Text("La magistratura", "The magistratura")), required=True),
            Key(
                "strategy",
                Shape(
                    "integer",
                    Text("La carta strategia, da 0", "The strategy card, from 0"),
                    minimum=0,
                ),
                required=True,
            ),
        ),
        action(
            Text("Una magistratura schierata sul ponte", "A magistratura deployed on the bridge"),
            Key("deploy", _mag(Text("La magistratura", "The magistratura")), required=True),
            Key(
                "quarter",
                Shape(
                    "choice",
                    Text(
                        "Il quartiere nemico sfidato (null se non è diviso)",
                        "The enemy quarter challenged (null when it is not split)",
                    ),
                    choices=_QUARTERS,
                    nullable=True,
                ),
            ),
        ),
        action(
            Text(
                "La scelta segreta di una parte per una mossa", "A side's secret choice for a move"
            ),
            Key("fight", FIGHT_CARD, required=True),
            Key(
                "strategy",
                Shape(
                    "integer",
                    Text("La carta strategia giocata, o null", "The strategy card played, or null"),
                    minimum=0,
                    nullable=True,
                ),
            ),
        ),
    )


CLAIMS = Key(
    "claims",
    Shape(
        "object",
        Text(
            "Quanto ha scritto il segnapunti, controllato (facoltativo)",
            "What the scorekeeper wrote down, checked (optional)",
        ),
        keys=(
            Key(
                "challenges",
                Shape(
                    "list",
                    Text("Per sfida giocata", "Per challenge played"),
                    items=Shape(
                        "object",
                        keys=(
                            Key("winner", _SIDE),
                            Key(
                                "carrello",
                                Shape(
                                    "list",
                                    Text(
                                        "La posizione del carrello dopo ogni mossa (o solo quella "
                                        "finale)",
                                        "The carrello's position after each move (or the final "
                                        "one alone)",
                                    ),
                                    items=Shape("integer"),
                                    alternatives=(Shape("integer"),),
                                ),
                            ),
                        ),
                    ),
                ),
            ),
            Key(
                "winner",
                Shape(
                    "choice", Text("Chi vince la partita", "Who wins the match"), choices=WINNERS
                ),
            ),
        ),
    ),
)
