"""Tarocco Siciliano in words, as players say them at the table (Italian and English)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.core.words import join, pick, plain, seat_name
from games.tarocco import cards as C

RANKS = {
    "K": ("Re", "King"),
    "Q": ("Regina", "Queen"),
    "C": ("Cavallo", "Knight"),
    "D": ("Donna", "Maid"),
}
SUIT_IT_PREP = {"S": "di Spade", "B": "di Bastoni", "C": "di Coppe", "O": "di Denari"}
TRUMPS = {1: ("Picciotti", "Picciotti"), 19: ("Palla", "Palla"), 20: ("Giove", "Giove")}
SIGNALS = {
    "knock": ("bussa", "knocks"),
    "giove": ("segnala Giove", "signals Giove"),
    "palla": ("segnala la Palla", "signals the Palla"),
    "both": ("segnala Giove e la Palla", "signals Giove and the Palla"),
}


def card(code: str, lang: str) -> str:
    if code == "F":
        return pick(lang, "il Fuggitivo", "the Fuggitivo")
    if code == "M":
        return pick(lang, "la Miseria", "the Miseria")
    if code.startswith("T") and code[1:].isdigit():
        n = int(code[1:])
        name = TRUMPS.get(n)
        if name:
            return pick(lang, f"{name[0]} (trionfo {n})", f"{name[1]} (trump {n})")
        return pick(lang, f"trionfo {n}", f"trump {n}")
    suit, rank = code[0], code[1:]
    if suit not in C.SUIT_NAMES:
        return code
    _it_suit, en_suit = C.SUIT_NAMES[suit]
    if rank in RANKS:
        it, en = RANKS[rank]
        return pick(lang, f"{it} {SUIT_IT_PREP[suit]}", f"{en} of {en_suit}")
    return pick(lang, f"{rank} {SUIT_IT_PREP[suit]}", f"{rank} of {en_suit}")


def option(key: str, value: Any, lang: str) -> str:
    """The words of a move's option (a signal made with the card played)."""
    if key != "signal":
        return plain(value, lang)
    if value is None:
        return pick(lang, "Segnale con la carta giocata", "Signal with the card played")
    it, en = SIGNALS.get(value, (value, value))
    return pick(lang, it, en)


def suit(letter: str, lang: str) -> str:
    it, en = C.SUIT_NAMES.get(letter, (letter, letter))
    return pick(lang, it, en)


def action(act: dict[str, Any], lang: str, names: Sequence[str] | None = None) -> str:
    if "bid" in act:
        kind = act["bid"]
        if kind == "offro":
            return pick(lang, f"offro {act.get('points')}", f"offro {act.get('points')} (I offer)")
        if kind == "piglio":
            of = act.get("of")
            return pick(
                lang,
                f"piglio l'offerta di {seat_name(of, lang, names)}",
                f"piglio: takes {seat_name(of, lang, names)}'s offer",
            )
        return pick(
            lang, kind, {"vado": "vado (I pass)", "tengo": "tengo (I hold)"}.get(kind, kind)
        )
    if "solo" in act:
        return (
            pick(lang, "gioco da solo", "I play alone")
            if act["solo"]
            else pick(lang, "chiamo un compagno", "I call a partner")
        )
    if "venti" in act:
        return (
            pick(lang, "dichiaro venti", "I declare twenty")
            if act["venti"]
            else pick(lang, "niente venti", "no twenty")
        )
    if "quindici" in act:
        return (
            pick(lang, "dichiaro quindici", "I declare fifteen")
            if act["quindici"]
            else pick(lang, "niente quindici", "no fifteen")
        )
    if "discard" in act:
        names = [card(c, lang) for c in act["discard"]]
        return pick(lang, "scarto ", "discard ") + ", ".join(names)
    if "call" in act:
        return pick(lang, "chiamo ", "I call ") + card(act["call"], lang)
    if "play" in act:
        text = pick(lang, "gioca ", "plays ") + card(act["play"], lang)
        signal = act.get("signal")
        if signal:
            it, en = SIGNALS.get(signal, (signal, signal))
            text += pick(lang, f" e {it}", f" and {en}")
        return text
    return plain(act, lang)


STATE_LABELS = {
    "dealer": ("Mazziere", "Dealer"),
    "phase": ("Fase", "Phase"),
    "trick": ("Presa in corso", "Trick in progress"),
    "last_trick": ("Ultima presa", "Last trick"),
    "leader": ("Di mano", "Lead"),
    "called": ("Re chiamato", "Called King"),
    "partner": ("Compagno", "Partner"),
    "declarer": ("Chi gioca", "Declarer"),
    "offers": ("Offerte", "Offers"),
    "monte": ("Monte", "Monte"),
    "tricks": ("Prese", "Tricks"),
    "card_points": ("Punti in carte", "Card points"),
}


def _is_card(value: Any) -> bool:
    return isinstance(value, str) and value in C.BY_CODE


def value(v: Any, lang: str) -> str:
    if isinstance(v, str) and _is_card(v):
        return card(v, lang)
    return plain(v, lang, lambda c, lg: card(c, lg) if _is_card(c) else c.replace("_", " "))


PHASES = {
    "bargain": ("contrattazione", "bargaining"),
    "solo": ("chi gioca da solo", "who plays alone"),
    "venti": ("venti o zero", "venti or zero"),
    "quindici": ("risposta al venti: quindici", "answering the venti: quindici"),
    "discard": ("scarto", "discard"),
    "call": ("chiamata", "call"),
    "play": ("gioco delle carte", "card play"),
    "over": ("smazzata finita", "hand over"),
}


def state(
    view: dict[str, Any], lang: str, names: Sequence[str] | None = None
) -> list[tuple[str, str]]:
    out = []
    for key, v in view.items():
        if key in ("hand", "game", "seat", "result", "ruleset", "to_act") or v in (None, [], {}):
            continue
        if key == "bids" and isinstance(v, list):
            said = [f"{seat_name(b.get('seat'), lang, names)}: {action(b, lang, names)}" for b in v]
            out.append((pick(lang, "Contrattazione", "Bargaining"), "; ".join(said)))
            continue
        if key == "phase" and isinstance(v, str):
            out.append((pick(lang, "Fase", "Phase"), pick(lang, *PHASES.get(v, (v, v)))))
            continue
        if key in (
            "dealer",
            "soloist",
            "monte_taker",
            "partner",
            "declarer",
            "leader",
            "venti",
            "quindici",
        ):
            names = {
                "venti": ("Venti dichiarato da", "Twenty declared by"),
                "quindici": ("Quindici dichiarato da", "Fifteen declared by"),
                "dealer": ("Mazziere", "Dealer"),
                "soloist": ("Gioca da solo", "Playing alone"),
                "monte_taker": ("Ha preso il monte", "Took the monte"),
                "partner": ("Compagno", "Partner"),
                "declarer": ("Chi gioca", "Declarer"),
                "leader": ("Di mano", "Lead"),
            }[key]
            out.append(
                (
                    pick(lang, *names),
                    seat_name(v, lang, names) if isinstance(v, int) else value(v, lang),
                )
            )
            continue
        if key == "tricks" and isinstance(v, list):
            won: dict[int, int] = {}
            for t in v:
                if isinstance(t, dict) and isinstance(t.get("winner"), int):
                    won[t["winner"]] = won.get(t["winner"], 0) + 1
            counts = "; ".join(f"{seat_name(k, lang, names)}: {n}" for k, n in sorted(won.items()))
            out.append((pick(lang, "Prese fatte", "Tricks taken"), counts or "—"))
            last = v[-1] if v and isinstance(v[-1], dict) else None
            if last is not None:
                cards = ", ".join(card(c, lang) for c in last.get("cards", []))
                taker = last.get("winner")
                out.append(
                    (
                        pick(lang, "Ultima presa", "Last trick"),
                        cards
                        + (
                            pick(lang, " — la prende ", " — taken by ")
                            + seat_name(taker, lang, names)
                            if isinstance(taker, int)
                            else ""
                        ),
                    )
                )
            continue
        if key == "signals" and isinstance(v, list):
            said = []
            for sg in v:
                if isinstance(sg, dict):
                    it, en = SIGNALS.get(
                        sg.get("signal", ""), (sg.get("signal", ""), sg.get("signal", ""))
                    )
                    said.append(f"{seat_name(sg.get('seat'), lang, names)} {pick(lang, it, en)}")
            out.append((pick(lang, "Segnali", "Signals"), "; ".join(said) or "—"))
            continue
        if key == "trick" and isinstance(v, list):
            out.append((pick(lang, "Presa in corso", "Trick in progress"), value(v, lang)))
            continue
        if key == "hand_sizes" and isinstance(v, list):
            sizes = "; ".join(f"{seat_name(i, lang, names)}: {n}" for i, n in enumerate(v))
            out.append((pick(lang, "Carte in mano", "Cards in hand"), sizes))
            continue
        label = STATE_LABELS.get(key, (key.replace("_", " "), key.replace("_", " ")))
        out.append((pick(lang, *label), value(v, lang)))
    return out


def _hand(hand: Any, lang: str, names: Sequence[str] | None) -> list[str]:
    """One smazzata's declared facts: the dealer, then how the bidding ended and what it
    scored on (soloist or pairs with their card points, the offers taken)."""
    if not isinstance(hand, dict):
        return []

    def who(seat: Any) -> str:
        return seat_name(seat, lang, names)

    out = [
        pick(lang, f"Mazziere: {who(hand.get('dealer'))}.", f"Dealer: {who(hand.get('dealer'))}.")
    ]
    outcome = hand.get("outcome")
    points = hand.get("card_points")
    if outcome == "solo":
        declarer = who(hand.get("declarer"))
        rest = C.TOTAL_POINTS - int(points or 0)
        out.append(
            pick(
                lang,
                f"Solo di {declarer}: {points} punti carta su {C.TOTAL_POINTS}; "
                f"gli altri tre {rest}.",
                f"{declarer} played solo: {points} card points of {C.TOTAL_POINTS}; "
                f"the other three {rest}.",
            )
        )
    elif outcome == "pairs":
        pair = [s for s in hand.get("pair") or [] if isinstance(s, int)]
        others = [s for s in range(4) if s not in pair]
        rest = C.TOTAL_POINTS - int(points or 0)
        a = join([who(s) for s in pair], lang)
        b = join([who(s) for s in others], lang)
        out.append(
            pick(
                lang,
                f"A coppie: {a} {points} punti carta, {b} {rest} (su {C.TOTAL_POINTS}).",
                f"In pairs: {a} {points} card points, {b} {rest} (of {C.TOTAL_POINTS}).",
            )
        )
    elif outcome == "offer":
        offers = hand.get("offers") or [hand]
        for o in offers:
            if not isinstance(o, dict):
                continue
            out.append(
                pick(
                    lang,
                    f"{who(o.get('offerer'))} offre {o.get('points')} punti e "
                    f"{who(o.get('taker'))} dice piglio.",
                    f"{who(o.get('offerer'))} offered {o.get('points')} points and "
                    f"{who(o.get('taker'))} took them (piglio).",
                )
            )
    elif outcome == "all_zero":
        out.append(
            pick(
                lang,
                "Nessuno dice venti: smazzata annullata, nessuno segna.",
                "Nobody said venti: the hand is void, nobody scores.",
            )
        )
    else:
        out.append(
            pick(
                lang,
                "Smazzata abbandonata nella contrattazione: nessuno segna.",
                "The hand was abandoned in the bargaining: nobody scores.",
            )
        )
    return out


def describe(detail: Any, lang: str, names: Sequence[str] | None = None) -> list[str]:
    """What a hand's (or a set of hands') result declares, in words (GAME.describe)."""
    if not isinstance(detail, dict):
        return []
    out: list[str] = []
    if isinstance(detail.get("hands"), list):
        for n, row in enumerate(detail["hands"], start=1):
            lines = _hand(row.get("summary") if isinstance(row, dict) else None, lang, names)
            out += [pick(lang, f"Smazzata {n}. ", f"Hand {n}. ") + line for line in lines]
    else:
        out += _hand(detail.get("summary"), lang, names)
    nxt = detail.get("next_dealer")
    if isinstance(nxt, int):
        out.append(
            pick(
                lang,
                f"Prossimo mazziere: {seat_name(nxt, lang, names)}.",
                f"Next to deal: {seat_name(nxt, lang, names)}.",
            )
        )
    return out
