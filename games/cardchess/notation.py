"""The JSON of a whole game's record (docs/notation/cardchess.md, "Record"), declared for
the API's schema: each sfida's deal and the two kinds of action, with their words."""

from __future__ import annotations

from games.cardchess import cards as C
from games.core.declare import Key, Shape, action, codes
from games.core.text import Text

_CARD_WORDS = Text(
    "Una carta, dal suo codice: colore (b blu, g verde), pezzo, valore e casa (bQ Regina blu, "
    "gP1l Pedone verde 1 su casa chiara)",
    "A card, by its code: colour (b blue, g green), piece, value and square (bQ blue Queen, "
    "gP1l green Pawn 1 on a light square)",
)
CARD = codes(_CARD_WORDS, C.CODES)
UNDER = codes(
    Text(
        "La carta messa sotto una carta in tavola, o null",
        "The card placed under a table card, or null",
    ),
    C.CODES,
    nullable=True,
)

_CARDS = Shape("list", items=CARD)
DEAL = Shape(
    "object",
    Text("La distribuzione di ogni sfida", "Each sfida's deal"),
    keys=(
        Key(
            "sfide",
            Shape(
                "list",
                Text("Le sfide, in ordine", "The sfide, in order"),
                items=Shape(
                    "object",
                    keys=(
                        Key(
                            "deck",
                            Shape(
                                "list",
                                Text(
                                    "Il mazzo della sfida, la prima carta data per prima "
                                    "(senza le carte d'oro)",
                                    "The sfida's deck, the first card dealt first (the gold "
                                    "cards aside)",
                                ),
                                items=CARD,
                            ),
                            required=True,
                        ),
                        Key(
                            "reshuffle",
                            Shape(
                                "list",
                                Text(
                                    "Due giocatori: gli scarti rimescolati quando il mazzo finisce",
                                    "Two players: the discards reshuffled when the deck runs out",
                                ),
                                items=CARD,
                                nullable=True,
                            ),
                        ),
                        Key(
                            "known",
                            Shape(
                                "integer",
                                Text(
                                    "Quante delle prime carte l'arbitro ha già detto",
                                    "How many of the first cards the referee has said",
                                ),
                                minimum=0,
                            ),
                        ),
                        Key(
                            "reshuffle_known",
                            Shape(
                                "integer",
                                Text(
                                    "Quante carte rimescolate l'arbitro ha già detto",
                                    "How many reshuffled cards the referee has said",
                                ),
                                minimum=0,
                            ),
                        ),
                    ),
                ),
            ),
            required=True,
        ),
    ),
)

ACTIONS = (
    action(
        Text(
            "Le carte coperte messe sotto le carte in tavola",
            "The face-down cards placed under the table cards",
        ),
        Key(
            "play",
            Shape(
                "list",
                Text(
                    "Per ogni carta in tavola, in ordine, la carta messa sotto o null",
                    "For each table card, in order, the card placed under it or null",
                ),
                items=UNDER,
                least=1,
            ),
            required=True,
        ),
    ),
    action(
        Text("Una carta in tavola scoperta e presa", "A table card revealed and taken"),
        Key(
            "resolve",
            Shape(
                "integer",
                Text("Il posto della carta in tavola, da 0", "The table card's place, from 0"),
                minimum=0,
            ),
            required=True,
        ),
        Key(
            "taker",
            Shape(
                "seat",
                Text("Chi l'ha presa (null: nessuno)", "Who took it (null: nobody)"),
                nullable=True,
            ),
        ),
    ),
)
