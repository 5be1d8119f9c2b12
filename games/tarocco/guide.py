"""How a hand of Tarocco Siciliano goes, in our own words (games.core.guide)."""

from __future__ import annotations

from games.core.guide import Section
from games.core.text import Text

GUIDE = (
    Section(
        Text("Il mazzo e i punti", "The pack and the points"),
        Text(
            "Si gioca in quattro con 63 carte: tre semi da dieci, Denari da undici, 21 "
            "trionfi e il Fuggitivo. Le carte si contano a gruppi di tre e l'ultima presa "
            "vale 5 punti in più: in ogni smazzata i punti in tutto sono sempre 109.",
            "Four play with 63 cards: three suits of ten, Coins of eleven, 21 trumps and the "
            "Fool. Cards are counted three at a time and the last trick is worth 5 more: every "
            "hand's points add up to 109.",
        ),
        ("tarocco.pack.composition", "tarocco.count.threes", "tarocco.count.total"),
    ),
    Section(
        Text("Il contratto", "Bargaining"),
        Text(
            "Il mazziere dà dieci carte a testa, in due giri da cinque. Ognuno parla una volta: "
            "offre dei punti, prende l'offerta di un altro (piglio), dice tengo o passa. Con un "
            "tengo si danno le ultime carte e si gioca; senza, un'offerta presa chiude la "
            "smazzata (chi ha offerto paga chi l'ha presa), altrimenti la smazzata è annullata.",
            "The dealer gives ten cards each, in two rounds of five. Each player speaks once: "
            "offers some points, takes another's offer (piglio), says tengo or passes. After a "
            "tengo the last cards are dealt and the hand is played; without one, a taken offer "
            "ends the hand (the offerer pays the taker), otherwise the hand is void.",
        ),
        (
            "tarocco.deal.order",
            "tarocco.bargain.once",
            "tarocco.bargain.tengo",
            "tarocco.bargain.offer_taken",
        ),
    ),
    Section(
        Text("Da solo o in coppia", "Alone or in pairs"),
        Text(
            "Dalla destra del mazziere ognuno dice solo o passo: chi va solo gioca contro gli "
            "altri tre. Se nessuno va solo, chi ha almeno 20 punti fra dieci e cinque dice "
            "venti e trova un compagno: chi risponde quindici, o chi tiene il Re che chiama. "
            "Chi prende il monte (le tre carte rimaste) ne scarta tre delle sue.",
            "From the dealer's right each says solo or pass: a soloist plays against the other "
            "three. With no soloist, a player with at least 20 points in tens and fives says "
            "venti and finds a partner: whoever answers quindici, or whoever holds the King "
            "called. Whoever takes the monte (the three cards left) discards three of their own.",
        ),
        (
            "tarocco.solo.order",
            "tarocco.venti.false",
            "tarocco.quindici.partner",
            "tarocco.call.rank",
            "tarocco.monte.discard",
        ),
    ),
    Section(
        Text("Le prese", "The tricks"),
        Text(
            "Si risponde al seme giocato; chi non ce l'ha gioca un trionfo. Vince il trionfo "
            "più alto, altrimenti la carta più alta del seme di uscita. Il Fuggitivo si può "
            "giocare al posto della carta dovuta: non vince mai e torna al suo padrone, che "
            "dà in cambio una carta senza valore.",
            "Follow the suit led; without it, play a trump. The highest trump wins, or else "
            "the highest card of the suit led. The Fool may be played instead of the card due: "
            "it never wins and goes back to its owner, who gives a worthless card for it.",
        ),
        (
            "tarocco.play.follow_suit",
            "tarocco.play.trump_when_void",
            "tarocco.play.trick_winner",
            "tarocco.play.fuggitivo_excuse",
        ),
    ),
    Section(
        Text("Il punteggio", "The score"),
        Text(
            "Chi va solo segna tre volte i suoi punti meno 55, e ogni avversario i propri meno "
            "54. In coppia la coppia del mazziere segna i punti meno 55 a testa, l'altra meno "
            "54. Un'offerta presa vale i punti offerti: li perde chi ha offerto, li vince chi "
            "l'ha presa.",
            "A soloist scores three times their points less 55, each opponent theirs less 54. "
            "In pairs the dealer's pair scores its points less 55 each, the other pair less 54. "
            "A taken offer is worth the points offered: the offerer loses them, the taker wins "
            "them.",
        ),
        ("tarocco.score.solo", "tarocco.score.pairs", "tarocco.score.offer"),
    ),
)
