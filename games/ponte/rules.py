"""The Bridge's Game rule book: every rule the engine enforces, by stable id.

Source: ../shared/rules/bridges-game.txt (Luca Macelloni's board game on the Gioco del Ponte
of Pisa). docs/rules/ponte.md gives each id its source and the decision taken where the text
is silent (the printed fight cards, strategy cards and bridge length are not published).
"""

from __future__ import annotations

from games.core import RuleBook

SLUG = "ponte"

BOOK = RuleBook(
    SLUG,
    {
        "ponte.record.game_over": (
            "La partita è finita: nessuna altra azione.",
            "The match is over: no further action.",
        ),
        "ponte.record.impossible": (
            "L'azione non può avvenire fisicamente.",
            "The action cannot physically happen.",
        ),
        "ponte.record.claimed_score": (
            "Il punteggio scritto non è quello che danno le regole.",
            "The written score is not the one the rules give.",
        ),
        "ponte.turn.order": (
            "Agisce solo chi ha il turno: prima Tramontana, poi Mezzogiorno per le scelte segrete.",
            "Only the seat whose turn it is acts: Tramontana, then Mezzogiorno, for the "
            "secret choices.",
        ),
        "ponte.turn.phase": (
            "Ogni azione appartiene alla sua fase: potenza, carte strategia, schieramento, mosse.",
            "Each action belongs to its phase: power, strategy cards, deployment, moves.",
        ),
        "ponte.power.own": (
            "Ogni giocatore assegna la potenza solo alle sue magistrature, una volta ciascuna.",
            "Each player assigns power only to their own magistrature, once each.",
        ),
        "ponte.power.base_values": (
            "Modalità Base: le potenze sono quelle fissate (a due: 110.000, tre da 90.000, due "
            "da 60.000; a quattro: 105.000, 85.000, 60.000).",
            "Base mode: the powers are the fixed ones (two players: 110,000, three of 90,000, "
            "two of 60,000; four players: 105,000, 85,000, 60,000).",
        ),
        "ponte.power.step": (
            "La potenza si assegna in gettoni: multipli di 5.000 Kg/Push.",
            "Power is assigned in chips: multiples of 5,000 Kg/Push.",
        ),
        "ponte.power.minimum": (
            "Ogni magistratura ha almeno 10.000 Kg/Push.",
            "Every magistratura has at least 10,000 Kg/Push.",
        ),
        "ponte.power.total": (
            "Si distribuisce esattamente la potenza disponibile (500.000 per lato, 250.000 per "
            "quartiere).",
            "Exactly the power available is distributed (500,000 per side, 250,000 per quarter).",
        ),
        "ponte.power.rank": (
            "Modalità Esperto: le magistrature si classificano dalla più forte alla più "
            "debole; la classifica è l'ordine di assegnazione.",
            "Expert mode: the magistrature are ranked from strongest to weakest; the ranking "
            "is the order of assignment.",
        ),
        "ponte.strategy.random": (
            "Modalità Base: le carte strategia si distribuiscono a caso, una per magistratura.",
            "Base mode: strategy cards are dealt at random, one per magistratura.",
        ),
        "ponte.strategy.assign": (
            "Le carte strategia si abbinano liberamente, una per magistratura, fra quelle avute.",
            "Strategy cards are matched freely, one per magistratura, among those held.",
        ),
        "ponte.deploy.challenger": (
            "Schiera per primo chi ha vinto la sfida precedente (la prima volta: il sorteggio).",
            "The winner of the previous challenge deploys first (the first time: the draw).",
        ),
        "ponte.deploy.own": (
            "Si schiera una magistratura del proprio comando (a sei: il Generale, del lato).",
            "One deploys a magistratura one commands (six players: the General, of the side).",
        ),
        "ponte.deploy.once": (
            "Ogni magistratura combatte una sola volta, salvo lo spareggio finale.",
            "Each magistratura fights once only, except in the final tie breaker.",
        ),
        "ponte.deploy.quarter": (
            "A quattro: chi sfida sceglie il quartiere (Levante o Ponente) nemico con "
            "magistrature libere; risponde una magistratura di quel quartiere.",
            "Four players: the challenger names the enemy quarter (East or West) with "
            "magistrature left; a magistratura of that quarter answers.",
        ),
        "ponte.deploy.pass_to_ally": (
            "Se chi ha vinto non ha più magistrature, schiera l'alleato del suo lato.",
            "If the challenge winner has no magistratura left, the ally of that side deploys.",
        ),
        "ponte.fight.in_pack": (
            "Si gioca una delle dodici carte lotta non ancora spese.",
            "One plays one of the twelve fight cards not yet spent.",
        ),
        "ponte.fight.power": (
            "Nessuna carta lotta di valore superiore alla potenza rimasta.",
            "No fight card above the power left.",
        ),
        "ponte.fight.big_attack": (
            "L'Attacco da 20.000 solo per una magistratura che aveva almeno 100.000 in partenza.",
            "The 20,000 Attack only for a magistratura that began with at least 100,000.",
        ),
        "ponte.fight.must_play": (
            "Chi ha potenza per una carta la gioca; chi non ne ha non gioca carte (può usare "
            "la carta strategia).",
            "A magistratura with power for a card plays one; one without plays no card (it may "
            "still use its strategy card).",
        ),
        "ponte.fight.refresh": (
            "Il mazzo di dodici torna intero quando è finito o quando la potenza non basta "
            "per le carte rimaste.",
            "The pack of twelve comes back whole when spent or when the power left cannot pay "
            "the cards left.",
        ),
        "ponte.fight.strategy_own": (
            "Si usa solo la carta strategia della magistratura che combatte (nello spareggio "
            "finale: una non usata del lato).",
            "Only the fighting magistratura's strategy card may be used (in the final tie "
            "breaker: any unused card of the side).",
        ),
        "ponte.fight.strategy_once": (
            "Una carta strategia usata è tolta dal gioco.",
            "A strategy card once used is removed from play.",
        ),
        "ponte.carrello.move": (
            "Il tipo vincente (Attacco batte Spinta, Spinta batte Difesa, Difesa batte "
            "Attacco) sposta il carrello di una casella ogni 5.000; a tipo uguale vince la "
            "carta maggiore per la differenza; a parità il carrello resta.",
            "The winning type (Attack beats Push, Push beats Defense, Defense beats Attack) "
            "moves the carrello one slot per 5,000; on the same type the larger card wins by "
            "the difference; on equal cards the carrello stays.",
        ),
        "ponte.challenge.conquest": (
            "Vince la sfida chi spinge il carrello oltre l'ultima casella.",
            "The challenge is won by pushing the carrello past the last slot.",
        ),
        "ponte.challenge.middle": (
            "Se entrambi finiscono la potenza, vince chi è oltre la metà del ponte.",
            "If both run out of power, whoever is past the middle of the bridge wins.",
        ),
        "ponte.challenge.types": (
            "Carrello a metà: spareggio con le carte lotta per tipo soltanto, senza valori.",
            "Carrello in the middle: a tie breaker with the fight cards by type alone, "
            "values ignored.",
        ),
        "ponte.challenge.backup": (
            "La potenza non usata nella sfida va nella cassa di riserva.",
            "Power unused in a challenge goes to the back-up box.",
        ),
        "ponte.match.four": (
            "Vince la partita chi vince almeno quattro sfide su sei.",
            "The match is won by winning at least four challenges of six.",
        ),
        "ponte.match.tiebreak": (
            "Sul 3-3 si gioca lo spareggio: una magistratura a scelta, con la riserva del "
            "lato, le carte strategia non usate e 40.000 di bonus.",
            "At 3-3 a tie breaker is played: any magistratura, with the side's back-up box, "
            "its unused strategy cards and a 40,000 bonus.",
        ),
        "ponte.match.tiebreak_player": (
            "A tre e quattro giocatori lo spareggio lo gioca, per ogni lato, chi ha più vittorie.",
            "With three and four players the tie breaker is played, for each side, by the "
            "player with most victories.",
        ),
        "ponte.rank.side": (
            "Vince chi ha combattuto nel lato vincitore (a sei: giocatori e Generale del lato).",
            "The winners fought on the winning side (six players: its players and General).",
        ),
        "ponte.rank.victories": (
            "Nel lato vincitore con due giocatori vince chi ha più vittorie.",
            "On a winning side of two players, the one with most victories wins.",
        ),
        "ponte.rank.power": (
            "A pari vittorie vince chi ha più Kg/Push nella cassa di riserva.",
            "On equal victories, the one with more Kg/Push in the back-up box wins.",
        ),
        "ponte.rank.ex_aequo": (
            "A ulteriore parità la vittoria è ex aequo.",
            "On a further tie the victory is shared (ex aequo).",
        ),
        "ponte.summary.challenges": (
            "Un riepilogo elenca le sei sfide giocate, ognuna con le due magistrature e il "
            "lato vincitore.",
            "A summary lists the six challenges played, each with both magistrature and the "
            "winning side.",
        ),
        "ponte.summary.left": (
            "La potenza rimasta di una magistratura è fra zero e quella assegnata.",
            "A magistratura's power left is between zero and the power assigned.",
        ),
    },
)

RULE_GAME_OVER = "ponte.record.game_over"
RULE_IMPOSSIBLE = "ponte.record.impossible"
RULE_CLAIMED = "ponte.record.claimed_score"
