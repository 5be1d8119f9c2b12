"""How a game of San Marco goes, in our own words (games.core.guide)."""

from __future__ import annotations

from games.core.guide import Section
from games.core.text import Text

GUIDE = (
    Section(
        Text("Lo scopo", "The aim"),
        Text(
            "Ogni colore porta i suoi aristocratici nei sei quartieri di Venezia. Quando un "
            "quartiere si conta, chi ne ha di più prende il valore alto e il secondo il basso "
            "(a pari merito per il primo posto, tutti il basso). Vince chi ha più punti dopo "
            "il terzo passaggio, quando si contano tutti i quartieri.",
            "Each colour brings its aristocrats into Venice's six districts. When a district "
            "is scored, the colour with most there takes the high value and the second the "
            "low one (tied first, each takes the low one). Most points after the third "
            "passage, when every district is scored, wins.",
        ),
        ("sanmarco.base.score_ties", "sanmarco.base.final_scoring"),
    ),
    Section(
        Text("Dividere e scegliere", "Divide and choose"),
        Text(
            "A ogni giro un distributore pesca carte azione e carte limite e le divide in "
            "offerte (due, o tre con tre colori); gli altri ne scelgono una e il distributore "
            "tiene l'ultima. Le carte azione si eseguono: una carta che si può eseguire va "
            "eseguita.",
            "Each round a distributor draws action and limit cards and divides them into "
            "offers (two, or three with three colours); the others choose one each and the "
            "distributor keeps the last. Action cards are carried out: a card that can be "
            "carried out must be.",
        ),
        (
            "sanmarco.base.deal",
            "sanmarco.base.divide",
            "sanmarco.base.choose",
            "sanmarco.base.decline",
        ),
    ),
    Section(
        Text("Le carte azione", "Action cards"),
        Text(
            "Un quartiere porta un aristocratico dalla riserva; un ponte unisce due quartieri "
            "vicini (al massimo tre fra gli stessi due); lo scambio rimanda a casa un "
            "aristocratico di un altro colore e mette il tuo al suo posto; l'esilio fa uscire "
            "aristocratici da un quartiere, prima quelli degli altri. Il Doge passa sui ponti, "
            "paga un punto per ogni ponte altrui, e dove si ferma il quartiere si conta.",
            "A district card brings an aristocrat from the supply; a bridge joins two "
            "neighbouring districts (three at most between the same two); a transfer sends "
            "another colour's aristocrat home and puts yours in its place; a banishment makes "
            "aristocrats leave a district, the others' first. The Doge crosses bridges, pays a "
            "point for each bridge of another colour, and the district where it stops is "
            "scored.",
        ),
        (
            "sanmarco.base.district_supply",
            "sanmarco.base.bridge_cap",
            "sanmarco.base.transfer",
            "sanmarco.base.banish_order",
            "sanmarco.base.doge_toll",
        ),
    ),
    Section(
        Text("Le carte limite", "Limit cards"),
        Text(
            "Chi arriva a 10 punti limite non ha più ruoli nel passaggio. A fine passaggio chi "
            "è sotto 10 prende la differenza dal limite più alto, e il colore con meno punti "
            "limite fa un esilio gratuito.",
            "A colour reaching 10 limit points takes no more roles in the passage. At the end "
            "of a passage each colour below 10 takes the gap to the highest limit total, and "
            "the colour with the fewest limit points makes a free banishment.",
        ),
        ("sanmarco.base.limit", "sanmarco.base.passage_bonus", "sanmarco.base.free_banish"),
    ),
    Section(
        Text("In due", "Two players"),
        Text(
            "Tre varianti per due: con colori fantasma che un dado muove, con aristocratici "
            "neutri, o con due colori a testa di cui conta il più debole.",
            "Three variants for two: with ghost colours a die moves, with neutral aristocrats, "
            "or with two colours each, of which the weaker counts.",
        ),
        ("sanmarco.v1.ghost_dice", "sanmarco.v2.neutral_return", "sanmarco.v3.doge_one_colour"),
    ),
)
