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
    },
)

RULE_GAME_OVER = "sanmarco.record.game_over"
RULE_IMPOSSIBLE = "sanmarco.record.impossible"
RULE_CLAIMED = "sanmarco.record.claimed_score"
