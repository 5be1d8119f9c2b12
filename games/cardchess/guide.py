"""How a game of 3D cardChess goes, in our own words (games.core.guide)."""

from __future__ import annotations

from games.core.guide import Section
from games.core.text import Text

GUIDE = (
    Section(
        Text("Le carte", "The cards"),
        Text(
            "Le carte sono pezzi degli scacchi, blu o verdi, su una casa chiara, scura o "
            "bianca, con un valore; le carte oro stanno da parte come premi. In tre o quattro "
            "si uniscono due mazzi.",
            "The cards are chess pieces, blue or green, on a light, dark or white square, "
            "with a value; the gold cards are set aside as prizes. With three or four, two "
            "decks are merged.",
        ),
        ("cardchess.deal.deck",),
    ),
    Section(
        Text("Un turno", "A turn"),
        Text(
            "Ognuno ha quattro carte e sul tavolo ce ne sono tre scoperte. A turno ogni "
            "giocatore mette una carta coperta sotto ogni carta del tavolo, tenendone una in "
            "mano; poi il mazziere scopre e assegna le prese.",
            "Each holds four cards and three lie face up on the table. In turn each player "
            "puts one face-down card under each table card, keeping one in hand; then the "
            "dealer reveals them and settles the captures.",
        ),
        ("cardchess.deal.turn", "cardchess.play.count", "cardchess.turn.order"),
    ),
    Section(
        Text("Le catture", "Captures"),
        Text(
            "Il blu cattura il verde e il verde il blu. Una casa chiara prende chiara o "
            "bianca, una scura scura o bianca, una bianca tutto; serve un valore almeno pari a "
            "quello del pezzo. Castelli e regine fantasma (#) prendono solo pedoni e carte #. "
            "Fra le carte che possono catturare prende la più alta, con tutte le carte giocate "
            "sul pezzo; se le più alte sono pari non prende nessuno.",
            "Blue captures green and green blue. A light square takes light or white, a dark "
            "one dark or white, a white one anything; the value must be at least the piece's. "
            "Castles and ghost queens (#) take only pawns and # cards. Among the cards able to "
            "capture the highest takes, with every card played on the piece; if the highest "
            "are equal nobody takes.",
        ),
        (
            "cardchess.capture.colour",
            "cardchess.capture.square",
            "cardchess.capture.value",
            "cardchess.capture.hash",
            "cardchess.capture.higher",
            "cardchess.capture.equal",
        ),
    ),
    Section(
        Text("I punti di una sfida", "A sfida's points"),
        Text(
            "Pedone, castello e regina fantasma valgono 1, il re 5, gli altri pezzi 2; re, "
            "regina e castello dello stesso colore fanno un reame, 10 punti in più. Chi fa più "
            "punti nella sfida prende una carta oro (a pari punti nessuno).",
            "Pawn, castle and ghost queen are worth 1, the king 5, the other pieces 2; king, "
            "queen and castle of one colour make a reame, 10 points more. The sfida's top "
            "score takes a gold card (nobody on a tie).",
        ),
        ("cardchess.score.points", "cardchess.score.reame", "cardchess.gold.sfida"),
    ),
    Section(
        Text("La fine", "The end"),
        Text(
            "In due si gioca finché le quattro carte oro sono prese, e vince chi ne ha di più; "
            "in tre o quattro vince il primo a tre carte oro.",
            "With two, play goes on until the four gold cards are taken, and most gold wins; "
            "with three or four the first to three gold cards wins.",
        ),
        ("cardchess.game.end",),
    ),
)
