"""Tarocco Siciliano (Calatafimi)'s rule book: every rule the engine enforces, by stable id.

Source: ../shared/rules/tarocco-siciliano-calatafimi.txt (Dummett & McLeod's account, with
Dossena's differences V1..V10) and ../shared/rules/tarocco-research-notes.md. The texts
below are our paraphrases; docs/rules/tarocco.md gives each id its source and the decision
taken where the sources are silent, and the ruleset option that covers it.
"""

from __future__ import annotations

from games.core import RuleBook

SLUG = "tarocco"

BOOK = RuleBook(
    SLUG,
    {
        # --- the record ---------------------------------------------------------------
        "tarocco.record.game_over": (
            "La smazzata è finita: nessun'altra azione.",
            "The hand is over: no further action.",
        ),
        "tarocco.record.impossible": (
            "L'azione non può avvenire fisicamente.",
            "The action cannot physically happen.",
        ),
        "tarocco.record.claimed_score": (
            "Il punteggio scritto non è quello che danno le regole.",
            "The written score is not the one the rules give.",
        ),
        "tarocco.turn.order": (
            "Parla o gioca solo chi ha il turno.",
            "Only the player whose turn it is may speak or play.",
        ),
        "tarocco.turn.phase": (
            "Questa azione non appartiene alla fase in corso della smazzata.",
            "This action does not belong to the current phase of the hand.",
        ),
        # --- pack, deal, count ----------------------------------------------------------
        "tarocco.pack.composition": (
            "Il mazzo ha 63 carte: tre semi da 10, Denari da 11, 21 trionfi e il Fuggitivo.",
            "The pack has 63 cards: three suits of 10, Coins of 11, 21 trumps and the Fool.",
        ),
        "tarocco.deal.order": (
            "Il mazziere distribuisce in senso antiorario due giri da 5, poi dopo la "
            "contrattazione altri 5 a testa; le 3 carte rimaste sono il monte.",
            "The dealer deals anticlockwise two rounds of 5, then after the bargaining 5 "
            "more each; the 3 cards left are the monte.",
        ),
        "tarocco.deal.bottom_card": (
            "V1: il mazziere può guardare l'ultima carta del mazzo (Dossena: non può).",
            "V1: the dealer may look at the bottom card of the pack (Dossena: may not).",
        ),
        "tarocco.count.threes": (
            "Le carte si contano a gruppi di tre; tre scartine valgono un punto.",
            "Cards are counted in threes; three cards of no value make one point.",
        ),
        "tarocco.count.last_trick": (
            "L'ultima presa vale 5 punti.",
            "The last trick is worth 5 points.",
        ),
        "tarocco.count.total": (
            "I punti di una smazzata sommano sempre 109: nessuna parte ne conta di più.",
            "A hand's points always total 109: no side can count more.",
        ),
        # --- bargaining -----------------------------------------------------------------
        "tarocco.bargain.once": (
            "Nell'unica licitazione ciascuno parla una volta sola, in qualunque ordine.",
            "In the single bargaining round each player speaks once, in any order.",
        ),
        "tarocco.bargain.offer_range": (
            "Chi dice offro offre un numero intero di punti, da 1 al massimo del tavolo.",
            "An offer is a whole number of points, from 1 to the table's maximum.",
        ),
        "tarocco.bargain.piglio": (
            "Piglio accetta un'offerta già fatta da un altro e non ancora presa.",
            "Piglio accepts an offer already made by another player and not yet taken.",
        ),
        "tarocco.bargain.tengo": (
            "Se qualcuno dice tengo si gioca: si distribuiscono le ultime carte.",
            "If anyone says tengo the hand is played: the last cards are dealt.",
        ),
        "tarocco.bargain.offer_taken": (
            "Senza tengo, un'offerta presa chiude la smazzata: chi ha offerto perde i punti "
            "e chi ha detto piglio li guadagna.",
            "Without tengo, a taken offer ends the hand: the offerer loses the points and "
            "whoever said piglio wins them.",
        ),
        "tarocco.bargain.abandon": (
            "Senza tengo e senza offerte prese la smazzata si abbandona (V2: il mazzo passa "
            "al prossimo mazziere; Dossena: resta allo stesso).",
            "Without tengo and without a taken offer the hand is abandoned (V2: the deal "
            "passes on; Dossena: the same dealer deals again).",
        ),
        # --- solo and monte ---------------------------------------------------------------
        "tarocco.solo.order": (
            "Dalla destra del mazziere ciascuno dice solo o passo; il primo solo chiude il giro.",
            "From the dealer's right each says solo or passo; the first solo closes the round.",
        ),
        "tarocco.solo.dealer": (
            "V3: per Dossena il mazziere non può andare solo.",
            "V3: in Dossena's account the dealer may not go solo.",
        ),
        "tarocco.monte.show": (
            "V3: il solista mostra il monte prima di prenderlo, se non è il mazziere; senza "
            "solista il mazziere lo prende coperto (Dossena: mai mostrato).",
            "V3: the soloist shows the monte before taking it unless he is the dealer; with "
            "no soloist the dealer takes it unseen (Dossena: never shown).",
        ),
        "tarocco.monte.discard": (
            "Chi prende il monte scarta tre carte della propria mano.",
            "Whoever takes the monte discards three cards of his own hand.",
        ),
        "tarocco.monte.discard_forbidden": (
            "Lo scarto non può contenere le carte che il regolamento del tavolo vieta.",
            "The discard may not hold the cards the table's ruleset forbids.",
        ),
        "tarocco.monte.owner": (
            "Le carte scartate sono di chi ha preso il monte alla fine della smazzata.",
            "The discarded cards belong to whoever took the monte at the end of the hand.",
        ),
        # --- pairs ------------------------------------------------------------------------
        "tarocco.venti.order": (
            "Senza solista, dalla destra del mazziere ciascuno dice venti o zero; il primo "
            "venti chiude il giro.",
            "With no soloist, from the dealer's right each says venti or zero; the first "
            "venti closes the round.",
        ),
        "tarocco.venti.false": (
            "Venti si dice solo con almeno 20 punti in decine e cinquine.",
            "Venti may be said only with at least 20 points in tens and fives.",
        ),
        "tarocco.venti.all_zero": (
            "Se tutti dicono zero la smazzata si abbandona (V2 per il mazziere seguente).",
            "If everyone says zero the hand is abandoned (V2 decides the next dealer).",
        ),
        "tarocco.quindici.false": (
            "Quindici si dice solo con esattamente 15 punti in decine e cinquine.",
            "Quindici may be said only with exactly 15 points in tens and fives.",
        ),
        "tarocco.quindici.partner": (
            "Dopo il venti gli altri rispondono in ordine; chi dice quindici è il compagno "
            "palese di chi ha detto venti.",
            "After venti the others answer in order; whoever says quindici is the open "
            "partner of the venti player.",
        ),
        "tarocco.call.rank": (
            "Senza quindici chi ha detto venti chiama un Re; se li ha tutti e quattro, una "
            "Regina con le stesse regole.",
            "With no quindici the venti player calls a King; holding all four, a Queen by "
            "the same rules.",
        ),
        "tarocco.call.own_card": (
            "Non si chiama una carta che si ha in mano o nel proprio scarto.",
            "One may not call a card held in hand or in one's own discard.",
        ),
        "tarocco.call.fourth_king": (
            "Con tre Re si chiama il quarto (con tre Regine, la quarta).",
            "Holding three Kings, one calls the fourth (three Queens, the fourth).",
        ),
        "tarocco.call.shortest_suit": (
            "Altrimenti si chiama il Re del seme più corto, ma non vuoto (V4: per Dossena "
            "anche un seme vuoto conta come il più corto).",
            "Otherwise one calls the King of the shortest suit held, not a void one (V4: "
            "for Dossena a void suit counts as the shortest).",
        ),
        "tarocco.call.highest_figure": (
            "Fra semi ugualmente corti si chiama quello in cui si ha la figura più alta.",
            "Among equally short suits one calls the suit holding the highest court card.",
        ),
        "tarocco.call.oro": (
            "V5: se resta la parità e uno dei semi è Oro, si chiama Oro (Dossena: no).",
            "V5: if still tied and one suit is Coins, one calls Coins (Dossena: no such rule).",
        ),
        "tarocco.call.queen_bare_king": (
            "V6: chiamando una Regina si escludono i semi in cui si ha solo il Re nudo "
            "(Dossena: nessuna esclusione).",
            "V6: when calling a Queen, suits where one holds only the bare King are left out "
            "(Dossena: no such exclusion).",
        ),
        "tarocco.call.in_discard": (
            "V7: se la carta chiamata è nello scarto del mazziere, il mazziere lo dichiara e "
            "diventa compagno palese.",
            "V7: if the called card is in the dealer's discard, the dealer says so and "
            "becomes the open partner.",
        ),
        # --- play -------------------------------------------------------------------------
        "tarocco.play.first_lead": (
            "V8: apre la prima presa chi siede alla destra del dichiarante (Dossena: il "
            "solista apre lui stesso).",
            "V8: the player at the declarer's right leads to the first trick (Dossena: the "
            "soloist leads himself).",
        ),
        "tarocco.play.not_held": (
            "Si gioca solo una carta che si ha in mano.",
            "Only a card held in hand can be played.",
        ),
        "tarocco.play.follow_suit": (
            "Si risponde al seme di uscita se lo si ha.",
            "One must follow the suit led when able.",
        ),
        "tarocco.play.answer_trump": (
            "Se esce un trionfo si risponde con un trionfo se lo si ha.",
            "When a trump is led one must play a trump when able.",
        ),
        "tarocco.play.trump_when_void": (
            "Chi non ha il seme di uscita deve giocare un trionfo (la Miseria compresa).",
            "A player void in the suit led must play a trump (the Miseria included).",
        ),
        "tarocco.play.overtrump": (
            "Opzione: giocando trionfo si deve superare il trionfo più alto della presa se "
            "si può (default: nessun obbligo).",
            "Option: a trump played must beat the highest trump in the trick when possible "
            "(default: no such duty).",
        ),
        "tarocco.play.fuggitivo_excuse": (
            "Il Fuggitivo si può giocare in ogni momento al posto della carta dovuta; non "
            "prende mai e resta a chi lo gioca, che dà in cambio una scartina.",
            "The Fool may be played at any time instead of the card due; it never wins and "
            "stays with its owner, who gives a worthless card in exchange.",
        ),
        "tarocco.play.fuggitivo_lead": (
            "Opzione: il Fuggitivo non si gioca di mano, salvo che sia l'ultima carta.",
            "Option: the Fool may not be led, unless it is the last card held.",
        ),
        "tarocco.play.fuggitivo_last_trick": (
            "Opzione: giocato all'ultima presa il Fuggitivo va a chi la prende (default), "
            "resta al suo padrone, oppure non si può tenere per l'ultima presa.",
            "Option: played to the last trick the Fool goes to its winner (default), stays "
            "with its owner, or may not be kept for the last trick at all.",
        ),
        "tarocco.play.miseria": (
            "La Miseria è il trionfo più basso, sotto i Picciotti, e non vale punti.",
            "The Miseria is the lowest trump, below Picciotti, and worth nothing.",
        ),
        "tarocco.play.trick_winner": (
            "Prende il trionfo più alto, altrimenti la carta più alta del seme di uscita.",
            "The highest trump wins, or else the highest card of the suit led.",
        ),
        "tarocco.play.called_suit_lead": (
            "V9: il chiamato, alla sua prima uscita, gioca una carta del seme chiamato se "
            "l'ha (Dossena: nessun obbligo).",
            "V9: the called player's first lead must be of the called suit when able "
            "(Dossena: no such duty).",
        ),
        "tarocco.signal.leading_only": (
            "Il segnale di Giove o di Palla si fa solo quando si è primi di mano, giocando.",
            "The Giove or Palla signal may be made only when leading, with the card led.",
        ),
        "tarocco.signal.false": (
            "Si segnala Giove o Palla solo avendo la carta segnalata.",
            "One signals Giove or Palla only holding the card signalled.",
        ),
        "tarocco.signal.together": (
            "V10: Giove e Palla si possono segnalare insieme (Dossena: solo separatamente, "
            "in due mani diverse).",
            "V10: Giove and Palla may be signalled together (Dossena: only separately, in "
            "two different tricks).",
        ),
        # --- scoring ----------------------------------------------------------------------
        "tarocco.score.solo": (
            "Solo: il solista segna 3 x (punti - 55), ogni avversario (punti - 54).",
            "Solo: the soloist scores 3 x (points - 55), each opponent (points - 54).",
        ),
        "tarocco.score.pairs": (
            "Coppie: la coppia del mazziere segna ciascuno (punti - 55), l'altra (punti - 54).",
            "Pairs: the dealer's pair each score (points - 55), the other pair (points - 54).",
        ),
        "tarocco.score.offer": (
            "Offerta presa: l'offerente perde i punti offerti, chi ha preso li guadagna.",
            "Offer taken: the offerer loses the points offered, the taker wins them.",
        ),
        "tarocco.score.abandoned": (
            "Smazzata abbandonata: nessuno segna.",
            "Abandoned hand: nobody scores.",
        ),
        "tarocco.summary.seat": (
            "I posti sono 0..3 in senso antiorario.",
            "Seats are 0..3 in the anticlockwise order of play.",
        ),
        "tarocco.summary.pair": (
            "Una coppia sono due posti diversi.",
            "A pair is two different seats.",
        ),
        "tarocco.summary.monte": (
            "Le tre carte scartate dal monte contano per chi l'ha preso (il solista, o la "
            "coppia del mazziere): quella parte non chiude mai a zero punti carta.",
            "The three cards discarded from the monte count for whoever took it (the "
            "soloist, or the dealer's pair): that side never ends with no card points.",
        ),
        "tarocco.set.dealer": (
            "Dopo una smazzata il mazzo passa a destra (V2 dopo un abbandono).",
            "After a hand the deal passes to the right (V2 after an abandoned hand).",
        ),
    },
)

RULE_GAME_OVER = "tarocco.record.game_over"
RULE_IMPOSSIBLE = "tarocco.record.impossible"
RULE_CLAIMED = "tarocco.record.claimed_score"
