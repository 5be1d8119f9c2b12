"""How a match of the Bridge's Game goes, in our own words (games.core.guide)."""

from __future__ import annotations

from games.core.guide import Section
from games.core.text import Text

GUIDE = (
    Section(
        Text("La potenza", "Power"),
        Text(
            "Tramontana e Mezzogiorno hanno sei magistrature ciascuna. Ogni parte divide "
            "500.000 Kg/Spinta fra le sue, a multipli di 5.000 e almeno 10.000 ciascuna (nel "
            "gioco Base i valori sono fissi), e dà a ognuna una carta strategia.",
            "Tramontana and Mezzogiorno each have six magistrature. Each side shares 500,000 "
            "Kg/Push among its own, in multiples of 5,000 and at least 10,000 each (fixed "
            "values in the Base game), and gives each one a strategy card.",
        ),
        (
            "ponte.power.total",
            "ponte.power.step",
            "ponte.power.minimum",
            "ponte.power.base_values",
            "ponte.strategy.assign",
        ),
    ),
    Section(
        Text("Le sfide", "Challenges"),
        Text(
            "Chi ha vinto la sfida precedente schiera per primo una magistratura (la prima "
            "volta decide il sorteggio), l'altra parte risponde con una delle sue. Ogni "
            "magistratura combatte una volta sola.",
            "The winner of the previous challenge puts a magistratura on the bridge first (the "
            "first time a draw decides), and the other side answers with one of its own. Each "
            "magistratura fights only once.",
        ),
        ("ponte.deploy.challenger", "ponte.deploy.once"),
    ),
    Section(
        Text("Le mosse", "Moves"),
        Text(
            "A ogni mossa le due parti scelgono in segreto una carta lotta, pagata con la "
            "potenza che resta: Attacco batte Spinta, Spinta batte Difesa, Difesa batte "
            "Attacco. Il tipo che vince sposta il carrello di una casella ogni 5.000; fra due "
            "carte dello stesso tipo vince la maggiore, per la differenza. Una carta strategia "
            "si usa una volta.",
            "At each move both sides secretly pick a fight card, paid from the power left: "
            "Attack beats Push, Push beats Defense, Defense beats Attack. The winning type "
            "moves the carrello one slot per 5,000; between two cards of one type the larger "
            "wins, by the difference. A strategy card is used once.",
        ),
        ("ponte.fight.power", "ponte.carrello.move", "ponte.fight.strategy_once"),
    ),
    Section(
        Text("Vincere una sfida", "Winning a challenge"),
        Text(
            "Vince chi spinge il carrello oltre l'ultima casella. Se la potenza finisce a "
            "entrambi vince chi è oltre la metà del ponte; col carrello proprio a metà si "
            "spareggia coi soli tipi delle carte. La potenza non usata va nella cassetta di "
            "riserva.",
            "Whoever pushes the carrello past the last slot wins. If both run out of power, "
            "the side past the middle of the bridge wins; with the carrello right in the "
            "middle, the cards' types alone break the tie. Power left unused goes to the "
            "back-up box.",
        ),
        (
            "ponte.challenge.conquest",
            "ponte.challenge.middle",
            "ponte.challenge.types",
            "ponte.challenge.backup",
        ),
    ),
    Section(
        Text("La partita", "The match"),
        Text(
            "Vince la parte che vince almeno quattro sfide su sei. Sul 3 a 3 si gioca uno "
            "spareggio con una magistratura qualsiasi, la cassetta di riserva, le carte "
            "strategia non usate e 40.000 in più.",
            "The side winning at least four challenges of six wins the match. At 3 all a tie "
            "breaker is fought with any magistratura, the back-up box, the unused strategy "
            "cards and a 40,000 bonus.",
        ),
        ("ponte.match.four", "ponte.match.tiebreak"),
    ),
)
