"""San Marco's rule book: every rule the two-player scoring enforces, by stable id.

Sources: ../shared/rules/san-marco-2p-variants.txt (variants 1, 2 and 3 for two players) and
the research notes on the base game. docs/rules/sanmarco.md gives each id its source and the
decision taken where the text is silent.
"""

from __future__ import annotations

from games.core import RuleBook

SLUG = "sanmarco"

BOOK = RuleBook(
    SLUG,
    {
        "sanmarco.record.game_over": (
            "Il turno di punteggio è chiuso: nessuna altra azione.",
            "The scoring round is closed: no further action.",
        ),
        "sanmarco.record.impossible": (
            "L'azione non può avvenire fisicamente.",
            "The action cannot physically happen.",
        ),
        "sanmarco.record.claimed_score": (
            "Il punteggio scritto non è quello che danno le regole.",
            "The written score is not the one the rules give.",
        ),
        "sanmarco.entry.turn": (
            "Ogni giocatore scrive i punti dei suoi colori a suo turno, prima il primo giocatore.",
            "Each player writes their colours' points in turn, the first player first.",
        ),
        "sanmarco.entry.range": (
            "I punti prestigio sono un numero intero da zero al tetto del tavolo.",
            "Prestige points are a whole number from zero to the table's cap.",
        ),
        "sanmarco.entry.order": (
            "I colori si scrivono nell'ordine del tavolo, uno alla volta.",
            "Colours are written in the table's order, one at a time.",
        ),
        "sanmarco.score.non_negative": (
            "I punti prestigio di un colore non scendono sotto zero.",
            "A colour's prestige points never fall below zero.",
        ),
        "sanmarco.v3.final": (
            "Variante 3: media dei due colori arrotondata per difetto, meno un punto per ogni "
            "cinque punti interi di scarto fra i due colori.",
            "Variant 3: the two colours' mean rounded down, minus one point for every full five "
            "points between the two colours.",
        ),
        "sanmarco.v3.tie_break": (
            "Variante 3: a pari punteggio vince chi ha il colore più debole più forte; se anche "
            "quello è pari, la parità resta.",
            "Variant 3: on equal scores the player whose weaker colour is stronger wins; if that "
            "is equal too, the tie stands.",
        ),
        "sanmarco.v1.ghosts": (
            "Variante 1: i due colori fantasma fanno punti e si classificano con i giocatori, "
            "ma la partita la vince uno dei due giocatori attivi.",
            "Variant 1: the two ghost colours score and are ranked with the players, but the "
            "game is won by one of the two active players.",
        ),
        "sanmarco.v2.neutral": (
            "Variante 2: il colore neutro conta come un terzo giocatore nei punteggi; il suo "
            "totale si può non scrivere e non vince mai.",
            "Variant 2: the neutral colour counts as a third player in scorings; its total may "
            "go unwritten and it never wins.",
        ),
        "sanmarco.v2.round_end": (
            "Variante 2: un passaggio finisce quando un giocatore arriva a 10 punti limite.",
            "Variant 2: a passage ends when a player reaches 10 limit points.",
        ),
        "sanmarco.v2.no_extra_round": (
            "Variante 2: nessun giro in più dopo che un giocatore ha raggiunto 10 punti limite.",
            "Variant 2: no extra round once a player has reached 10 limit points.",
        ),
        "sanmarco.v2.bonus": (
            "Variante 2: chi resta sotto 10 prende come bonus la differenza fra il proprio "
            "limite e il limite più alto.",
            "Variant 2: a player under 10 takes as bonus the gap between their limit total and "
            "the highest limit total.",
        ),
        "sanmarco.rank.tie": (
            "Varianti 1 e 2: a pari punti fra i giocatori attivi la parità resta (il regolamento "
            "base non dà spareggio).",
            "Variants 1 and 2: equal points between the active players stay a tie (the base "
            "rules give no tie-break).",
        ),
        # --- the board game (games/sanmarco/flow.py, legal.py, table.py) ---------------
        "sanmarco.board.house": (
            "Senza un tabellone del circolo si gioca sul tabellone di casa: i valori noti "
            "(San Marco 8/6, Castello sul 6) e valori plausibili per il resto.",
            "Without a club's own board the house board is used: the known figures (San Marco "
            "8/6, Castello on 6) and plausible values for the rest.",
        ),
        "sanmarco.base.setup": (
            "Preparazione: ogni colore tira il dado quattro volte e mette due aristocratici nel "
            "quartiere del numero uscito; poi ogni colore posa i suoi ponti iniziali.",
            "Set-up: each colour rolls the die four times and puts two aristocrats in the "
            "district of the face rolled; then each colour lays its starting bridges.",
        ),
        "sanmarco.base.turn": (
            "Agisce solo il colore a cui tocca (il distributore che divide, chi sceglie, chi "
            "esegue le sue carte).",
            "Only the colour whose turn it is acts (the distributor dividing, the chooser, the "
            "holder carrying out cards).",
        ),
        "sanmarco.base.phase": (
            "Questa azione non appartiene al momento del giro.",
            "This action does not belong to this moment of the round.",
        ),
        "sanmarco.base.roles": (
            "Ogni giro il primo giocatore (che ruota di un posto) è il primo distributore; gli "
            "altri ruoli si estraggono a sorte.",
            "Each round the leader (moving on one seat) is the first distributor; the other "
            "roles are drawn at random.",
        ),
        "sanmarco.base.deal": (
            "Ogni distributore pesca 5 carte azione e 3 carte limite (6 e 4 quando distribuisce "
            "da solo a tre colori).",
            "Each distributor draws 5 action and 3 limit cards (6 and 4 when dividing alone for "
            "three colours).",
        ),
        "sanmarco.base.divide": (
            "Il distributore divide le carte in offerte (due, o tre con tre colori), nessuna "
            "vuota.",
            "The distributor divides the cards into offers (two, or three with three colours), "
            "none empty.",
        ),
        "sanmarco.base.choose": (
            "Chi sceglie prende un'offerta ancora sul tavolo; il distributore tiene l'ultima.",
            "The chooser takes an offer still on the table; the distributor keeps the last one.",
        ),
        "sanmarco.base.card_held": (
            "Si esegue solo una carta azione dell'offerta presa.",
            "Only an action card of the offer taken can be carried out.",
        ),
        "sanmarco.base.decline": (
            "Una carta che si può eseguire va eseguita.",
            "A card that can be carried out must be carried out.",
        ),
        "sanmarco.base.district_supply": (
            "Carta quartiere: un aristocratico dalla riserva; solo con la riserva vuota se ne "
            "sposta uno dal tabellone.",
            "District card: one aristocrat from the supply; only with an empty supply is one "
            "moved from the board.",
        ),
        "sanmarco.base.district_hop": (
            "Carta quartiere: l'aristocratico può passare un solo ponte proprio verso il "
            "quartiere vicino.",
            "District card: the aristocrat may cross one own bridge into the next district.",
        ),
        "sanmarco.base.bridge_site": (
            "Un ponte unisce due quartieri che il tabellone fa confinare.",
            "A bridge joins two districts that the board makes neighbours.",
        ),
        "sanmarco.base.bridge_cap": (
            "Al massimo tre ponti fra gli stessi due quartieri, dodici in tutto.",
            "At most three bridges between the same two districts, twelve in all.",
        ),
        "sanmarco.base.bridge_take": (
            "Solo quando i dodici ponti sono tutti sul tabellone se ne prende uno altrui.",
            "Another colour's bridge is taken over only when all twelve are on the board.",
        ),
        "sanmarco.base.bridge_marker": (
            "Un ponte si segna con un aristocratico della propria riserva.",
            "A bridge is marked with an aristocrat from one's own supply.",
        ),
        "sanmarco.base.transfer": (
            "Carta scambio: un aristocratico di un altro colore torna alla sua riserva e al suo "
            "posto va uno della propria riserva.",
            "Transfer card: another colour's aristocrat goes back to its supply and one from "
            "one's own supply takes its place.",
        ),
        "sanmarco.base.banish_order": (
            "Esilio: prima escono gli aristocratici degli altri colori, i propri solo dopo.",
            "Banishment: other colours' aristocrats leave first, one's own only after them.",
        ),
        "sanmarco.base.banish_remove": (
            "Esilio: esce un aristocratico presente nel quartiere.",
            "Banishment: an aristocrat present in the district leaves.",
        ),
        "sanmarco.base.doge_path": (
            "Il Doge passa solo sui ponti, senza tornare in un quartiere già attraversato in "
            "questa mossa.",
            "The Doge crosses only bridges, never back into a district already passed in this "
            "move.",
        ),
        "sanmarco.base.doge_toll": (
            "Per ogni ponte altrui che il Doge attraversa si paga un punto al proprietario.",
            "For each other colour's bridge the Doge crosses, one point is paid to its owner.",
        ),
        "sanmarco.base.score_ties": (
            "Punteggio di un quartiere: il primo prende il valore alto, il secondo il basso; "
            "i pari al primo posto prendono il basso, i pari al secondo niente.",
            "Scoring a district: the first takes the high value, the second the low one; ties "
            "for first take the low value, ties for second nothing.",
        ),
        "sanmarco.base.limit": (
            "Chi arriva a 10 punti limite non ha più ruoli nel passaggio; si controlla a fine "
            "giro.",
            "A colour reaching 10 limit points takes no more roles in the passage; checked at "
            "the end of each round.",
        ),
        "sanmarco.base.final_round": (
            "Se almeno due colori restano sotto 10 giocano un ultimo giro, altrimenti il "
            "passaggio finisce.",
            "If at least two colours stay below 10 they play one last round, otherwise the "
            "passage ends.",
        ),
        "sanmarco.base.passage_bonus": (
            "Fine passaggio: chi è sotto 10 prende la differenza fra il proprio limite e il più "
            "alto.",
            "End of a passage: a colour below 10 takes the gap between its limit total and the "
            "highest.",
        ),
        "sanmarco.base.free_banish": (
            "Fine passaggio: il colore con meno punti limite fa un esilio gratuito.",
            "End of a passage: the colour with the fewest limit points makes a free banishment.",
        ),
        "sanmarco.base.reshuffle": (
            "Un mazzo finito si rimescola con i suoi scarti; le carte limite si scartano a fine "
            "passaggio.",
            "An empty deck is reshuffled from its discards; limit cards are discarded at the "
            "end of a passage.",
        ),
        "sanmarco.base.final_scoring": (
            "Dopo il terzo passaggio si contano tutti i sei quartieri; vince chi ha più punti.",
            "After the third passage all six districts are scored; most points wins.",
        ),
        "sanmarco.v1.ghost_dice": (
            "Variante 1: dopo la mano di un giocatore attivo ogni fantasma mette aristocratici "
            "nei quartieri indicati dal dado.",
            "Variant 1: after an active player's hand each ghost puts aristocrats in the "
            "districts the die shows.",
        ),
        "sanmarco.v1.ghost_bridges": (
            "Variante 1: il ponte di un fantasma unisce i suoi due quartieri più forti, o almeno "
            "tocca il più forte.",
            "Variant 1: a ghost's bridge joins its two strongest districts, or at least touches "
            "the strongest.",
        ),
        "sanmarco.v1.roles": (
            "Variante 1: il dado decide il primo distributore; il giro dopo i ruoli si "
            "scambiano; poi si ritira.",
            "Variant 1: the die decides the first distributor; the next round the roles swap; "
            "then it is rolled again.",
        ),
        "sanmarco.v2.neutral_return": (
            "Variante 2: a inizio passaggio i neutri tolti tornano, messi a turno dai giocatori, "
            "prima chi ha meno punti.",
            "Variant 2: at the start of a passage removed neutrals return, placed in turn by the "
            "players, the lower score first.",
        ),
        "sanmarco.v3.doge_one_colour": (
            "Variante 3: con i due colori nel quartiere del Doge un giocatore ne fa contare uno "
            "solo, a sua scelta.",
            "Variant 3: with both colours in the Doge's district a player has only one of them "
            "scored, of their choice.",
        ),
        "sanmarco.v3.own_bridge_toll": (
            "Variante 3: sul ponte del proprio altro colore si perde un punto e l'altro colore "
            "non lo guadagna.",
            "Variant 3: crossing one's other colour's bridge loses one point and that colour "
            "gains nothing.",
        ),
        "sanmarco.v3.penalty_round": (
            "Variante 3: a 10 punti penalità in un colore segue un ultimo giro per i colori "
            "rimasti (con tre colori, regole a tre).",
            "Variant 3: 10 penalty points in a colour are followed by a last round for the "
            "colours left (with three colours, three-player rules).",
        ),
    },
)

RULE_GAME_OVER = "sanmarco.record.game_over"
RULE_IMPOSSIBLE = "sanmarco.record.impossible"
RULE_CLAIMED = "sanmarco.record.claimed_score"
