"""3D cardChess's rule book (Sergio Fersini, Serfer Giochi): every rule id the engine uses.

Source: ../shared/rules/3d-cardchess.txt. docs/rules/cardchess.md gives each id its section
and the decision taken where the text is silent.
"""

from __future__ import annotations

from games.core import RuleBook

SLUG = "cardchess"

BOOK = RuleBook(
    SLUG,
    {
        "cardchess.record.game_over": (
            "La partita è finita: nessuna altra azione.",
            "The game is over: no further action.",
        ),
        "cardchess.record.impossible": (
            "L'azione non può avvenire fisicamente.",
            "The action cannot physically happen.",
        ),
        "cardchess.deal.deck": (
            "Il mazzo è quello pubblicato (due mazzi uniti in 3 o 4, senza una pedina da 1 in "
            "4), con le carte oro messe da parte.",
            "The deck is the published one (two decks merged for 3 or 4, less one value-1 pawn "
            "for 4), with the gold cards set aside.",
        ),
        "cardchess.deal.turn": (
            "Si danno 4 carte a testa e 3 scoperte sul tavolo; poi a ogni turno si completano "
            "le mani a 4 e il tavolo a 3.",
            "Four cards each and three face up on the table; then each turn refills hands to "
            "four and the table to three.",
        ),
        "cardchess.deal.reshuffle": (
            "In due, finito il mazzo, gli scarti si rimescolano una sola volta e si danno una "
            "carta alla volta: tavolo, primo giocatore, secondo.",
            "With two, when the deck runs out the discards are reshuffled once and dealt one at "
            "a time: table, first player, second.",
        ),
        "cardchess.deal.last_turn": (
            "L'ultimo turno si gioca con le carte rimaste; in 3 o 4 si danno 3 carte a testa e "
            "4 sul tavolo e si giocano tutte le carte in mano.",
            "The last turn is played with the cards left; with 3 or 4 players each gets 3 and "
            "the table 4, and every card in hand is played.",
        ),
        "cardchess.turn.order": (
            "Si gioca a turno: prima le giocate coperte dei giocatori in ordine, poi il "
            "mazziere scopre e assegna le prese.",
            "Turns go in order: first the players' face-down plays, then the dealer reveals and "
            "settles each capture.",
        ),
        "cardchess.play.count": (
            "Una carta coperta sotto ogni carta del tavolo, tenendone sempre una in mano (salvo "
            "l'ultimo turno in 3 o 4).",
            "One face-down card under each table card, always keeping one in hand (except in "
            "the last turn with 3 or 4 players).",
        ),
        "cardchess.play.in_hand": (
            "Si gioca solo una carta che si ha in mano.",
            "Only a card held in hand can be played.",
        ),
        "cardchess.play.shape": (
            "La giocata indica una carta (o nulla) per ciascuna carta del tavolo.",
            "A play names one card (or none) for each table card.",
        ),
        "cardchess.resolve.order": (
            "Le giocate si scoprono nell'ordine delle carte del tavolo.",
            "Plays are revealed in the order of the table cards.",
        ),
        "cardchess.capture.colour": (
            "Il blu cattura il verde e il verde il blu; una carta del colore del pezzo non lo "
            "cattura.",
            "Blue captures green and green blue; a card of the piece's own colour does not "
            "capture it.",
        ),
        "cardchess.capture.square": (
            "Casella chiara cattura chiara o bianca, scura cattura scura o bianca, bianca "
            "cattura tutto.",
            "A light square takes light or white, a dark square dark or white, a white square "
            "takes all.",
        ),
        "cardchess.capture.value": (
            "Per catturare serve un valore uguale o superiore a quello del pezzo.",
            "Capturing needs a value equal to or above the piece's.",
        ),
        "cardchess.capture.hash": (
            "Castelli e ghost queen (#) catturano solo pedine e carte #, e le pedine non li "
            "catturano.",
            "Castles and ghost queens (#) capture only pawns and # cards, and pawns never "
            "capture them.",
        ),
        "cardchess.capture.no_card": (
            "Chi non ha giocato una carta sotto un pezzo non lo cattura.",
            "A player who put no card under a piece cannot capture it.",
        ),
        "cardchess.capture.higher": (
            "Fra le carte che possono catturare, prende la più alta (una # vale meno di ogni "
            "numero).",
            "Among the cards able to capture, the highest takes (a # ranks below any number).",
        ),
        "cardchess.capture.equal": (
            "Se le carte più alte che possono catturare sono pari, non prende nessuno.",
            "When the highest cards able to capture are equal, nobody takes.",
        ),
        "cardchess.capture.missed": (
            "Se una carta può catturare, il pezzo va preso: non si scarta.",
            "When a card can capture, the piece is taken: it is not discarded.",
        ),
        "cardchess.capture.gain": (
            "Chi cattura prende il pezzo e tutte le carte giocate su di esso; se nessuno "
            "cattura vanno negli scarti.",
            "The capturer takes the piece and every card played on it; if nobody captures "
            "they go to the discards.",
        ),
        "cardchess.sfida.end": (
            "La sfida finisce col mazzo: la carta rimasta in mano va negli scarti.",
            "The sfida ends with the deck: a card left in hand goes to the discards.",
        ),
        "cardchess.score.points": (
            "Pedina, castello e ghost queen 1 punto, re 5, gli altri pezzi 2.",
            "Pawn, castle and ghost queen 1 point, king 5, other pieces 2.",
        ),
        "cardchess.score.counted": (
            "Contano tutte le carte catturate (opzione: solo i pezzi del tavolo).",
            "Every captured card counts (option: only the table pieces).",
        ),
        "cardchess.score.reame": (
            "Re, regina e castello dello stesso colore fanno un reame: 10 punti in più ciascuno.",
            "King, queen and castle of one colour make a reame: 10 more points each.",
        ),
        "cardchess.gold.sfida": (
            "Il punteggio più alto della sfida prende una carta oro; a pari punteggio nessuno.",
            "The sfida's highest score takes a gold card; on a tie nobody does.",
        ),
        "cardchess.gold.count": (
            "Le carte oro scritte non sono quelle che danno le sfide.",
            "The gold cards written are not the ones the sfide give.",
        ),
        "cardchess.game.end": (
            "In due la partita finisce con le 4 carte oro prese e vince chi ne ha di più; in 3 "
            "o 4 vince il primo a 3 ori, con una sfida decisiva se tutti sono pari.",
            "With two the game ends when the 4 gold cards are taken and most gold wins; with 3 "
            "or 4 the first to 3 gold wins, with a deciding sfida if all are level.",
        ),
        "cardchess.score.total": (
            "I punti di una sfida non superano quelli delle carte del mazzo.",
            "A sfida's points cannot exceed those of the deck's cards.",
        ),
        "cardchess.deal.composition": (
            "Le carte catturate non superano le copie che il mazzo contiene.",
            "Captured cards cannot exceed the copies the deck holds.",
        ),
    },
)

RULE_GAME_OVER = "cardchess.record.game_over"
RULE_IMPOSSIBLE = "cardchess.record.impossible"
RULE_CLAIMED = "cardchess.gold.count"
