"""Tarocco Siciliano's cards and table as the pages draw them (see games/core/faces.py)."""

from __future__ import annotations

from typing import Any

from games.core.faces import Board, Face, Group, Panel, Seat
from games.core.text import Text
from games.core.words import pick, seat_name
from games.tarocco import cards as C
from games.tarocco import words as W

SIGNS = {"S": "spade", "B": "bastoni", "C": "coppe", "O": "denari"}
COLOURS = {"S": "#1d4ed8", "B": "#166534", "C": "#b91c1c", "O": "#a16207"}
TRUMP_COLOUR = "#6b21a8"
COURTS = {
    "K": Text("Re", "King"),
    "Q": Text("Regina", "Queen"),
    "C": Text("Cavallo", "Knight"),
    "D": Text("Donna", "Maid"),
}
COURT_CORNERS = {
    "K": Text("R", "K"),
    "Q": Text("Rg", "Q"),
    "C": Text("C", "Kn"),
    "D": Text("D", "Ma"),
}
# The trumps' names on the Sicilian pack (20 Giove down to 1 Picciotti).
TRUMP_NAMES = {
    20: "Giove",
    19: "Palla",
    18: "Sole",
    17: "Luna",
    16: "Stella",
    15: "Torre",
    14: "Vascello",
    13: "Morte",
    12: "Tempo",
    11: "Impiccato",
    10: "Ruota",
    9: "Carro",
    8: "Amore",
    7: "Giustizia",
    6: "Fortezza",
    5: "Temperanza",
    4: "Costanza",
    3: "Imperatore",
    2: "Imperatrice",
    1: "Picciotti",
}
ROMAN = (
    "",
    "I",
    "II",
    "III",
    "IV",
    "V",
    "VI",
    "VII",
    "VIII",
    "IX",
    "X",
    "XI",
    "XII",
    "XIII",
    "XIV",
    "XV",
    "XVI",
    "XVII",
    "XVIII",
    "XIX",
    "XX",
)
OPTIONS = ("signal",)


def _name(code: str) -> Text:
    return Text(W.card(code, "it"), W.card(code, "en"))


def face(code: str) -> Face:
    if code == "F":
        return Face(
            code,
            _name(code),
            Text("F", "F"),
            colour="#0f766e",
            sign="fool",
            band=Text("Fuggitivo", "Fuggitivo"),
            lines=(Text("non prende", "takes nothing"),),
        )
    if code == "M":
        return Face(
            code,
            _name(code),
            Text("0", "0"),
            colour="#57534e",
            sign="trump",
            big="0",
            band=Text("Miseria", "Miseria"),
        )
    if code.startswith("T"):
        n = int(code[1:])
        return Face(
            code,
            _name(code),
            Text(str(n), str(n)),
            colour=TRUMP_COLOUR,
            sign="trump",
            big=ROMAN[n],
            band=Text(TRUMP_NAMES[n], TRUMP_NAMES[n]),
        )
    suit, rank = code[0], code[1:]
    it_suit, en_suit = C.SUIT_NAMES[suit]
    if rank in COURTS:
        return Face(
            code,
            _name(code),
            COURT_CORNERS[rank],
            colour=COLOURS[suit],
            sign=SIGNS[suit],
            big="court:" + rank,
            band=COURTS[rank],
        )
    return Face(
        code,
        _name(code),
        Text(rank, rank),
        colour=COLOURS[suit],
        sign=SIGNS[suit],
        pips=int(rank),
        band=Text(it_suit, en_suit),
    )


def all_codes() -> list[str]:
    return list(C.CODES)


def uses(action: dict[str, Any]) -> str | None:
    """The card of the hand an action plays (its signal is an option of the same card)."""
    card = action.get("play")
    return card if isinstance(card, str) else None


def _suit_of(code: str) -> str:
    if code in ("M",) or code.startswith("T"):
        return "T"
    return code[0]


def _suit_words(letter: str, lang: str) -> str:
    if letter == "T":
        return pick(lang, "trionfo", "trumps")
    return W.suit(letter, lang)


BARGAINING = Text(
    "Ognuno parla una volta, in qualsiasi ordine. Tengo: si gioca. Offro N: proponi di "
    "mandarla a monte e paghi N punti a chi dice piglio. Piglio: prendi l'offerta di un "
    "altro. Vado: a monte. Senza tengo e senza offerte prese la smazzata va a monte: "
    "nessuno segna punti.",
    "Each player speaks once, in any order. Tengo: the hand is played. Offro N: you propose "
    "to throw it in and pay N points to whoever says piglio. Piglio: you take another "
    "player's offer. Vado: throw it in. With no tengo and no offer taken the hand is thrown "
    "in: nobody scores.",
)
SOLO = Text(
    "Chi gioca da solo prende il monte e gioca contro gli altri tre: gli servono 55 punti "
    "in carte su 109. Se nessuno va da solo il monte va al mazziere e si gioca in coppia.",
    "Whoever plays alone takes the monte and plays against the other three, needing 55 card "
    "points out of 109. If nobody plays alone the dealer takes the monte and pairs play.",
)
DISCARD = Text(
    "Scarti tre carte per rifare il monte: a fine smazzata i loro punti sono tuoi.",
    "You discard three cards to make up the monte again: their points are yours at the end.",
)
HONOURS = Text(
    "(Giove, Picciotti e Fuggitivo valgono 10; Palla, Sole, Luna, Stella e i Re 5)",
    "(Giove, Picciotti and the Fuggitivo count 10; Palla, Sole, Luna, Stella and Kings 5)",
)
CALL = Text(
    "La chiamata non è libera: con tre Re si chiama il quarto; altrimenti il Re del seme "
    "in cui hai meno carte (ma non vuoto), a parità quello con la figura più alta. Chi ha "
    "il Re chiamato è il tuo compagno nascosto.",
    "The call is not free: holding three Kings you call the fourth; otherwise the King of "
    "your shortest suit (not a void one), on a tie the one with the highest court card. "
    "Whoever holds the called King is your hidden partner.",
)


def _honours(view: dict[str, Any]) -> int:
    hand = [C.BY_CODE[c] for c in view.get("hand") or [] if c in C.BY_CODE]
    return C.honours(hand)


def _phase_why(view: dict[str, Any], lang: str) -> str:
    """What the words of a declaring phase commit to (tarocco.bargain.*, tarocco.solo.*,
    tarocco.venti.*, tarocco.quindici.*, tarocco.call.*)."""
    phase = view.get("phase")
    if phase == "bargain":
        return BARGAINING.get(lang)
    if phase == "solo":
        return SOLO.get(lang)
    if phase == "discard":
        return DISCARD.get(lang)
    if phase == "venti":
        h = _honours(view)
        if h >= 20:
            said = pick(
                lang,
                f"Hai {h} punti in decine e cinquine: puoi dire venti (ne servono almeno 20) "
                "o zero.",
                f"You hold {h} in tens and fives: you may say venti (it needs at least 20) or "
                "zero.",
            )
        else:
            said = pick(
                lang,
                f"Hai {h} punti in decine e cinquine: per venti ne servono almeno 20, quindi "
                "dici zero.",
                f"You hold {h} in tens and fives: venti needs at least 20, so you say zero.",
            )
        return said + " " + HONOURS.get(lang)
    if phase == "quindici":
        h = _honours(view)
        return pick(
            lang,
            f"Hai {h} punti in decine e cinquine. Quindici si dice solo con esattamente 15, "
            "e chi lo dice diventa il compagno palese di chi ha detto venti.",
            f"You hold {h} in tens and fives. Quindici is said only with exactly 15, and "
            "whoever says it becomes the open partner of the venti player.",
        ) + (" " + HONOURS.get(lang))
    if phase == "call":
        return CALL.get(lang)
    return ""


def why(view: dict[str, Any], legal: list[dict[str, Any]], lang: str) -> str:
    """Why only some cards of the hand may be played now, as players say it; in the
    bargaining, what each word commits to (the rule a newcomer does not know)."""
    if view.get("phase") != "play":
        return _phase_why(view, lang)
    hand = [c for c in view.get("hand") or [] if isinstance(c, str)]
    playable = {c for c in (uses(a) for a in legal) if c}
    if not hand or not playable or playable >= set(hand):
        return ""
    trick = [t.get("card") for t in view.get("trick") or [] if isinstance(t, dict)]
    if playable == {"F"}:
        return pick(
            lang,
            "Il Fuggitivo non si tiene per l'ultima presa: va giocato ora.",
            "The Fuggitivo may not be kept for the last trick: it must be played now.",
        )
    if not trick:
        called = view.get("called")
        if isinstance(called, str) and all(_suit_of(c) == called[0] for c in playable):
            return pick(
                lang,
                f"Il chiamato esce con il seme chiamato: {W.suit(called[0], 'it')}.",
                f"The called partner leads the called suit: {W.suit(called[0], 'en')}.",
            )
        if "F" in hand and "F" not in playable:
            return pick(
                lang, "Il Fuggitivo non può uscire di mano.", "The Fuggitivo may not be led."
            )
        return ""
    led = next((_suit_of(c) for c in trick if isinstance(c, str) and c != "F"), None)
    if led is None:
        return ""
    others = {c for c in playable if c != "F"}
    if others and all(_suit_of(c) == led for c in others):
        if led == "T":
            if any(_suit_of(c) == "T" and c not in playable for c in hand):
                return pick(
                    lang,
                    "Devi rispondere a trionfo con un trionfo più alto.",
                    "You must answer trumps with a higher trump.",
                )
            return pick(lang, "Devi rispondere a trionfo.", "You must answer trumps.")
        return pick(
            lang,
            f"Devi rispondere a {W.suit(led, 'it')}.",
            f"You must follow suit: {W.suit(led, 'en')}.",
        )
    if others and all(_suit_of(c) == "T" for c in others):
        return pick(
            lang,
            f"Non hai {W.suit(led, 'it')}: devi giocare un trionfo.",
            f"You have no {W.suit(led, 'en')}: you must play a trump.",
        )
    return ""


def _said(bid: dict[str, Any], lang: str) -> str:
    kind = bid.get("bid")
    if kind == "offro":
        return pick(lang, f"offro {bid.get('points')}", f"offro {bid.get('points')} (offers)")
    if kind == "piglio":
        return pick(lang, "piglio", "piglio (takes)")
    return pick(
        lang, str(kind), {"vado": "vado (pass)", "tengo": "tengo (holds)"}.get(str(kind), "")
    )


def _piles(view: dict[str, Any]) -> dict[int, list[str]]:
    """The cards each seat has taken: its tricks, the Fuggitivo staying with who played it."""
    piles: dict[int, list[str]] = {}
    for t in view.get("tricks") or []:
        if not isinstance(t, dict) or not isinstance(t.get("winner"), int):
            continue
        cards = list(t.get("cards") or [])
        leader = t["leader"] if isinstance(t.get("leader"), int) else 0
        for i, c in enumerate(cards):
            owner = (leader + i) % len(view.get("hand_sizes") or [0, 0, 0, 0])
            if c == "F":
                piles.setdefault(owner, []).append(c)
            else:
                piles.setdefault(t["winner"], []).append(c)
    return piles


def _ending(view: dict[str, Any], result: dict[str, Any], lang: str, who: Any) -> list[str]:
    """A hand that ended without its cards being played, in words: who said what, and why
    that means no points (rule tarocco.bargain.abandon) or an offer paid
    (tarocco.bargain.offer_taken)."""
    raw = result.get("detail")
    detail: dict[str, Any] = raw if isinstance(raw, dict) else {}
    raw = detail.get("summary")
    summary: dict[str, Any] = raw if isinstance(raw, dict) else {}
    outcome = summary.get("outcome")
    bids = [b for b in view.get("bids") or [] if isinstance(b, dict)]
    out = []
    if outcome == "abandoned":
        offers = [b for b in bids if b.get("bid") == "offro"]
        if not offers:
            out.append(
                pick(
                    lang,
                    "Tutti hanno detto vado: la smazzata va a monte e nessuno segna punti.",
                    "Everybody said vado: the hand is thrown in and nobody scores.",
                )
            )
        else:
            said = ", ".join(f"{who(b.get('seat'))} offro {b.get('points')}" for b in offers)
            out.append(
                pick(
                    lang,
                    f"Nessuno ha detto tengo e nessuno ha preso un'offerta ({said}): la "
                    "smazzata va a monte e nessuno segna punti. Un'offerta si paga solo a chi "
                    "dice piglio.",
                    f"Nobody said tengo and nobody took an offer ({said}): the hand is thrown "
                    "in and nobody scores. An offer is paid only to a player who says piglio.",
                )
            )
    elif outcome == "all_zero":
        out.append(
            pick(
                lang,
                "Nessuno ha giocato da solo e tutti hanno dichiarato zero: la smazzata va a "
                "monte e nessuno segna punti.",
                "Nobody played alone and everybody declared zero: the hand is thrown in and "
                "nobody scores.",
            )
        )
    elif outcome == "offer":
        taken = summary.get("offers") or [summary]
        for o in taken if isinstance(taken, list) else []:
            if not isinstance(o, dict):
                continue
            out.append(
                pick(
                    lang,
                    f"{who(o.get('taker'))} ha detto piglio all'offerta di {who(o.get('offerer'))}"
                    f": {who(o.get('taker'))} guadagna {o.get('points')} punti, "
                    f"{who(o.get('offerer'))} ne perde {o.get('points')}.",
                    f"{who(o.get('taker'))} said piglio to {who(o.get('offerer'))}'s offer: "
                    f"{who(o.get('taker'))} gains {o.get('points')} points, "
                    f"{who(o.get('offerer'))} loses {o.get('points')}.",
                )
            )
        if out:
            out.append(
                pick(
                    lang,
                    "Nessuno ha detto tengo: la smazzata finisce senza giocare le carte.",
                    "Nobody said tengo: the hand ends without the cards being played.",
                )
            )
    elif outcome == "solo" and isinstance(summary.get("card_points"), int):
        p = summary["card_points"]
        d = who(summary.get("declarer"))
        mine, others = 3 * (p - C.SOLO_TARGET), C.TOTAL_POINTS - p - C.OTHER_TARGET
        out.append(
            pick(
                lang,
                f"Solista {d}: {p} punti in carte su {C.TOTAL_POINTS}, monte compreso; al "
                f"solista ne servono {C.SOLO_TARGET}. Segna 3 × ({p} − "
                f"{C.SOLO_TARGET}) = {mine}; ogni avversario segna {C.TOTAL_POINTS} − {p} − "
                f"{C.OTHER_TARGET} = {others}.",
                f"{d} played alone and made {p} card points out of {C.TOTAL_POINTS}, monte "
                f"included; a soloist needs {C.SOLO_TARGET}. {d} scores 3 × ({p} − "
                f"{C.SOLO_TARGET}) = {mine}; each opponent scores {C.TOTAL_POINTS} − {p} − "
                f"{C.OTHER_TARGET} = {others}.",
            )
        )
    elif outcome == "pairs" and isinstance(summary.get("card_points"), int):
        p = summary["card_points"]
        pair = [s for s in summary.get("pair") or [] if isinstance(s, int)]
        dealer = summary.get("dealer")
        names = " + ".join(who(s) for s in pair)
        rest = " + ".join(who(s) for s in range(4) if s not in pair)
        mine = C.SOLO_TARGET if dealer in pair else C.OTHER_TARGET
        theirs = C.OTHER_TARGET if dealer in pair else C.SOLO_TARGET
        other = C.TOTAL_POINTS - p
        out.append(
            pick(
                lang,
                f"{names}: {p} punti in carte su {C.TOTAL_POINTS}; {rest}: {other}. Alla "
                f"coppia del mazziere ne servono {C.SOLO_TARGET}, all'altra {C.OTHER_TARGET}: "
                f"{names} segnano {p - mine} a testa, {rest} {other - theirs} a testa.",
                f"{names}: {p} card points out of {C.TOTAL_POINTS}; {rest}: {other}. The "
                f"dealer's pair needs {C.SOLO_TARGET}, the other {C.OTHER_TARGET}: {names} "
                f"score {p - mine} each, {rest} {other - theirs} each.",
            )
        )
    if (
        out
        and outcome in ("abandoned", "all_zero", "offer")
        and isinstance(detail.get("next_dealer"), int)
    ):
        out.append(
            pick(lang, "Le prossime carte le dà ", "The next hand is dealt by ")
            + who(detail["next_dealer"])
            + "."
        )
    return out


def board(view: dict[str, Any], lang: str, names: list[str] | None = None) -> Board:
    sizes = view.get("hand_sizes") or []
    seats_n = len(sizes) or 4
    names = [seat_name(i, lang, names) for i in range(seats_n)]

    def who(i: Any) -> str:
        return names[i] if isinstance(i, int) and 0 <= i < len(names) else "—"

    seats = [Seat(i, hand_size=sizes[i] if i < len(sizes) else None) for i in range(seats_n)]
    for b in view.get("bids") or []:
        if isinstance(b, dict) and isinstance(b.get("seat"), int) and b["seat"] < seats_n:
            seats[b["seat"]].lines.append(_said(b, lang))
    dealer = view.get("dealer")
    if isinstance(dealer, int) and dealer < seats_n:
        seats[dealer].badges.append(pick(lang, "mazziere", "dealer"))
    soloist = view.get("soloist")
    if isinstance(soloist, int) and soloist < seats_n:
        alone = view.get("called") is None and view.get("phase") in ("play", "over")
        seats[soloist].badges.append(
            pick(lang, "gioca da solo", "plays alone") if alone else pick(lang, "gioca", "declarer")
        )
    partner = view.get("partner")
    if isinstance(partner, int) and partner < seats_n:
        seats[partner].badges.append(pick(lang, "compagno", "partner"))
    for key, words in (("venti", ("venti", "twenty")), ("quindici", ("quindici", "fifteen"))):
        s = view.get(key)
        if isinstance(s, int) and s < seats_n:
            seats[s].badges.append(pick(lang, *words))
    tricks = [t for t in view.get("tricks") or [] if isinstance(t, dict)]
    piles = _piles(view)
    for s in seats:
        won = sum(1 for t in tricks if t.get("winner") == s.seat)
        if tricks:
            pile = [C.BY_CODE[c] for c in piles.get(s.seat, []) if c in C.BY_CODE]
            s.lines.append(
                pick(
                    lang,
                    # The tricks alone: the monte, the discard and the last trick's 5 are
                    # counted with the side (the sheet of card points at the end).
                    f"{won} {'presa' if won == 1 else 'prese'} · {C.count(pile)} punti nelle prese",
                    f"{won} {'trick' if won == 1 else 'tricks'} · {C.count(pile)} points in tricks",
                )
            )
    for sg in view.get("signals") or []:
        if isinstance(sg, dict) and isinstance(sg.get("seat"), int) and sg["seat"] < seats_n:
            it, en = W.SIGNALS.get(sg.get("signal", ""), ("", ""))
            seats[sg["seat"]].lines.append(pick(lang, it, en))

    out = Board(seats=seats, around=seats_n == 4)
    trick = [t for t in view.get("trick") or [] if isinstance(t, dict)]
    out.centre_title = pick(lang, "Presa in corso", "Trick in progress")
    out.centre = [
        Group(label=who(t.get("seat")), cards=[t["card"]], seat=t.get("seat")) for t in trick
    ]
    phase = view.get("phase")
    if phase in W.PHASES:
        out.notes.append(pick(lang, *W.PHASES[phase]).capitalize())
    called = view.get("called")
    if isinstance(called, str):
        out.notes.append(pick(lang, "Re chiamato: ", "Called King: ") + W.card(called, lang))
        if isinstance(partner, int):
            out.notes.append(pick(lang, "Compagno: ", "Partner: ") + who(partner))
        elif phase == "play":
            out.notes.append(
                pick(lang, "Il compagno non si è ancora scoperto", "The partner is not known yet")
            )
    if view.get("monte"):
        out.panels.append(
            Panel(
                pick(lang, "Il monte", "The monte"), [Group(cards=list(view["monte"]))], key="monte"
            )
        )
    if view.get("discard"):
        out.panels.append(
            Panel(
                pick(lang, "Il tuo scarto", "Your discard"),
                [Group(cards=list(view["discard"]))],
                key="discard",
            )
        )
    if view.get("bottom_card"):
        out.panels.append(
            Panel(
                pick(
                    lang,
                    "L'ultima carta del mazzo (la vede il mazziere)",
                    "The pack's last card (the dealer sees it)",
                ),
                [Group(cards=[view["bottom_card"]])],
                key="bottom",
            )
        )
    if tricks:
        last = tricks[-1]
        out.panels.append(
            Panel(
                pick(lang, "Ultima presa", "Last trick")
                + " — "
                + pick(lang, "la prende ", "taken by ")
                + who(last.get("winner")),
                [
                    Group(
                        label=who(((last.get("leader") or 0) + i) % seats_n),
                        cards=[c],
                    )
                    for i, c in enumerate(last.get("cards") or [])
                ],
                key="last-trick",
                folded=view.get("phase") != "over",
            )
        )
    result = view.get("result")
    if isinstance(result, dict):
        ending = _ending(view, result, lang, who)
        if ending:
            out.panels.insert(
                0,
                Panel(
                    pick(lang, "Com'è finita la smazzata", "How the hand ended"),
                    [Group(text=line) for line in ending],
                    key="ending",
                ),
            )
    if isinstance(result, dict):
        detail = result.get("detail") or {}
        points = detail.get("card_points")
        sides = detail.get("sides")
        if isinstance(points, list) and isinstance(sides, list):
            rows = [
                [" + ".join(who(s) for s in side), str(p)]
                for side, p in zip(sides, points, strict=False)
            ]
            out.panels.append(
                Panel(
                    pick(lang, "Punti in carte", "Card points"),
                    kind="sheet",
                    head=[pick(lang, "Parte", "Side"), pick(lang, "Punti", "Points")],
                    rows=rows,
                    key="points",
                )
            )
    return out
