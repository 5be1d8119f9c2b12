"""The JSON of San Marco's two records (docs/notation/sanmarco.md): the board game's (what
chance decided and every action) and the scoring round's (each colour's points), declared
for the API's schema with their words and ranges."""

from __future__ import annotations

from games.core.declare import Choice, Key, Shape, action
from games.core.text import Text
from games.sanmarco.cards import CARD_NAMES
from games.sanmarco.faces import CARDS
from games.sanmarco.words import DISTRICTS

_DISTRICTS = tuple(Choice(slug, Text(DISTRICTS[slug], DISTRICTS[slug])) for slug in CARD_NAMES[:6])
_CARDS = _DISTRICTS + tuple(Choice(k, Text(it, en)) for k, (it, en, _hue) in CARDS.items())


def _district(label: Text) -> Shape:
    return Shape("choice", label, choices=_DISTRICTS)


_COLOUR = Shape(
    "integer",
    Text("Un colore, dal suo numero (da 0)", "A colour, by its number (from 0)"),
    minimum=0,
)
_ROLL = Shape("integer", minimum=1, maximum=6)

DEAL = Shape(
    "object",
    Text(
        "Il gioco da tavolo: quanto ha deciso il caso; il turno di punteggio: i colori di ogni "
        "posto",
        "The board game: what chance decided; the scoring round: each seat's colours",
    ),
    keys=(
        Key(
            "chance",
            Shape(
                "object",
                Text("Quanto ha deciso il caso, in ordine", "What chance decided, in order"),
                keys=(
                    Key(
                        "dice",
                        Shape("list", Text("Ogni lancio di dado", "Every die roll"), items=_ROLL),
                    ),
                    Key(
                        "action_cards",
                        Shape(
                            "list",
                            Text("Ogni carta azione pescata", "Every action card drawn"),
                            items=Shape("choice", choices=_CARDS),
                        ),
                    ),
                    Key(
                        "limit_cards",
                        Shape(
                            "list",
                            Text("Ogni carta limite pescata", "Every limit card drawn"),
                            items=Shape("integer", minimum=1, maximum=3),
                        ),
                    ),
                    Key(
                        "roles",
                        Shape(
                            "list",
                            Text(
                                "Per round sorteggiato, i colori nei ruoli (distributori, poi "
                                "sceglitori)",
                                "Per round drawn, the colours in the roles (distributors, then "
                                "choosers)",
                            ),
                            items=Shape("list", items=_COLOUR, least=3, most=4),
                        ),
                    ),
                ),
            ),
        ),
        Key(
            "colours",
            Shape(
                "list",
                Text("Per posto, i nomi dei suoi colori", "Per seat, the names of its colours"),
                items=Shape("list", items=Shape("text"), least=1, most=2),
                least=2,
                most=2,
            ),
        ),
    ),
)


def _do(kind: str, label: Text, *keys: Key) -> Shape:
    what = Shape("choice", label, choices=(Choice(kind, label),))
    return action(label, Key("do", what, required=True), *keys)


def _n(label: Text) -> Shape:
    return Shape("integer", label, minimum=0)


_OFFER = _n(Text("L'offerta, da 0", "The offer, from 0"))

ACTIONS = (
    _do(
        "bridge",
        Text("Un ponte costruito", "A bridge built"),
        Key(
            "between",
            Shape(
                "list",
                Text("I due sestieri", "The two districts"),
                items=_district(Text("Sestiere", "District")),
                least=2,
                most=2,
            ),
            required=True,
        ),
        Key(
            "take",
            _n(
                Text(
                    "Il ponte preso, da 0 (con tutti e dodici in gioco)",
                    "The bridge taken over, from 0 (all twelve built)",
                )
            ),
        ),
    ),
    _do(
        "pile",
        Text(
            "Il distributore mette la carta in un'offerta",
            "The distributor puts the card in an offer",
        ),
        Key("pile", _OFFER, required=True),
    ),
    _do(
        "choose",
        Text("Uno sceglitore prende un'offerta", "A chooser takes an offer"),
        Key("pile", _OFFER, required=True),
    ),
    _do(
        "district",
        Text("Una carta sestiere giocata", "A district card played"),
        Key(
            "district",
            _district(Text("Il sestiere della carta", "The card's district")),
            required=True,
        ),
        Key(
            "to",
            _district(
                Text("Il sestiere oltre un proprio ponte", "The district across an own bridge")
            ),
        ),
        Key(
            "from",
            _district(
                Text(
                    "Il sestiere da cui prende l'aristocratico",
                    "The district the aristocrat is taken from",
                )
            ),
        ),
    ),
    _do(
        "transfer",
        Text("Un trasferimento", "A transfer"),
        Key("district", _district(Text("Sestiere", "District")), required=True),
        Key("colour", _COLOUR, required=True),
    ),
    _do(
        "banish",
        Text("Un bando", "A banishment"),
        Key("district", _district(Text("Sestiere", "District")), required=True),
    ),
    _do(
        "remove",
        Text("Un aristocratico bandito", "An aristocrat banished"),
        Key("colour", _COLOUR, required=True),
    ),
    _do(
        "doge",
        Text("Il Doge attraversa un ponte", "The Doge crosses a bridge"),
        Key("bridge", _n(Text("Il ponte, da 0", "The bridge, from 0")), required=True),
    ),
    _do("stop", Text("Il Doge si ferma", "The Doge stops")),
    _do(
        "score",
        Text("Variante 3: il colore segnato dal Doge", "Variant 3: the colour the Doge scores"),
        Key("colour", _COLOUR, required=True),
    ),
    _do(
        "neutral",
        Text(
            "Variante 2: un aristocratico neutrale torna", "Variant 2: a neutral aristocrat returns"
        ),
        Key("district", _district(Text("Sestiere", "District")), required=True),
    ),
    _do(
        "skip",
        Text("Una carta messa da parte", "A card set aside"),
        Key("card", Shape("choice", Text("La carta", "The card"), choices=_CARDS), required=True),
    ),
    action(
        Text("Turno di punteggio: i punti di un colore", "Scoring round: a colour's points"),
        Key(
            "colour",
            _n(
                Text(
                    "Il colore, da 0, tra quelli del posto", "The colour, from 0, among the seat's"
                )
            ),
            required=True,
        ),
        Key("points", Shape("integer", Text("Punti", "Points"), minimum=0), required=True),
    ),
)
