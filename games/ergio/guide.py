"""How a game of Er Giò goes, in our own words (games.core.guide)."""

from __future__ import annotations

from games.core.guide import Section
from games.core.text import Text

GUIDE = (
    Section(
        Text("Due parti, due fasi", "Two sides, two stages"),
        Text(
            "Tramontana (blu) e Mezzogiorno (rosso) si affrontano in due, quattro o sei; ogni "
            "parte pesca solo dal proprio mazzo. Prima il Corteo, in cui si mettono in mostra "
            "le magistrature; poi la Battaglia sul Ponte di Mezzo, di sei scontri.",
            "Tramontana (blue) and Mezzogiorno (red) meet with two, four or six players; each "
            "side draws only from its own deck. First the Corteo, where the magistrature are "
            "shown; then the Battle on the Ponte di Mezzo, six scontri long.",
        ),
        ("ergio.deck.own_side", "ergio.battle.six"),
    ),
    Section(
        Text("Il Corteo", "The Corteo"),
        Text(
            "Si parte con 12 carte (9 in quattro, 7 in sei) e ogni turno si pescano due carte. "
            "Tre carte della stessa magistratura o dello stesso gruppo armato, non ancora in "
            "mostra, formano un tris, da calare subito; la quarta carta si aggiunge in un turno "
            "dopo. A fine "
            "turno le carte oltre il limite della mano vanno in Arno. Vince il Corteo la parte "
            "che mostra per prima sei magistrature e tre gruppi armati.",
            "Each starts with 12 cards (9 with four, 7 with six) and draws two a turn. Three "
            "cards of a magistratura or armed group not yet shown make a tris, laid at once; "
            "the fourth card is added on a later turn. At the end of a turn the cards over the "
            "hand limit go into the Arno. The Corteo goes to the side first to show six "
            "magistrature and three armed groups.",
        ),
        (
            "ergio.corteo.deal",
            "ergio.corteo.tris.must_lay",
            "ergio.corteo.fourth.later_turn",
            "ergio.corteo.hand_limit",
            "ergio.corteo.complete",
        ),
    ),
    Section(
        Text("Gli scontri", "The scontri"),
        Text(
            "Sfida per primo chi ha vinto il Corteo, poi chi vince ogni scontro. Ogni parte "
            "manda sul ponte una sua magistratura, che combatte una volta sola, con rinforzi "
            "coperti: fino a due sotto il Magistrato (combattenti di altre magistrature della "
            "parte) e uno sotto il Caposchiera (della stessa). Il Capitano vale 5 in più. Vince "
            "la forza maggiore; a pari forza contano le figure, poi vince chi sfida.",
            "The Corteo winner challenges first, then the winner of each scontro. Each side "
            "sends one of its magistrature to the bridge, which fights only once, with "
            "face-down reinforcements: up to two under the Magistrato (combattenti of the "
            "side's other magistrature) and one under the Caposchiera (of the same one). The "
            "Capitano adds 5. More force wins; on equal force the figures decide, then the "
            "challenger wins.",
        ),
        (
            "ergio.battle.challenger",
            "ergio.battle.once_each",
            "ergio.battle.reinforce.slots",
            "ergio.battle.capitano",
            "ergio.battle.force",
            "ergio.battle.tie.challenger",
        ),
    ),
    Section(
        Text("Chi vince", "Who wins"),
        Text(
            "Chi vince uno scontro segna un punto e tiene la magistratura; quella di chi perde "
            "va in Arno. Sul 3 a 3 la Bella Nazionale va alla parte con più forza nelle "
            "magistrature tenute, poi con più figure, poi a chi ha vinto il Corteo.",
            "A scontro's winner scores a point and keeps its magistratura; the loser's goes "
            "into the Arno. At 3 all the Bella Nazionale goes to the side with more force in "
            "the magistrature it kept, then with more figures, then to the Corteo winner.",
        ),
        ("ergio.battle.keep", "ergio.bella.force", "ergio.bella.figures", "ergio.bella.corteo"),
    ),
    Section(
        Text("Il gioco avanzato", "The advanced game"),
        Text(
            "I Celatini colpiscono la parte avversaria (la prima carta del suo mazzo, una "
            "carta in mostra o una a caso della mano), le Guardie la proteggono, e le carte "
            "speciali, giocate da sole, danno un vantaggio: il Generale un altro turno, il "
            "Maestro di Campo una carta in più nella mano.",
            "Celatini strike the other side (the top card of its deck, a shown card or a "
            "random card of its hand), Guardie shield against them, and special cards played "
            "alone give an edge: the Generale another turn, the Maestro di Campo one more card "
            "in hand.",
        ),
        (
            "ergio.adv.celatino.target",
            "ergio.adv.guard.hand",
            "ergio.adv.special.generale",
            "ergio.adv.special.maestro",
        ),
    ),
)
