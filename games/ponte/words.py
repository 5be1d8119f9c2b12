"""The Bridge's Game (Gioco del Ponte) in words, as players say them (Italian and English)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.core.words import pick, plain, seat_name

NAMES = {
    "calci": "Calci",
    "calcesana": "Calcesana",
    "mattaccini": "Mattaccini",
    "san_michele": "San Michele",
    "santa_maria": "Santa Maria",
    "satiri": "Satiri",
    "delfini": "Delfini",
    "dragoni": "Dragoni",
    "leoni": "Leoni",
    "san_marco": "San Marco",
    "san_martino": "San Martino",
    "sant_antonio": "Sant'Antonio",
    "tramontana": "Tramontana",
    "mezzogiorno": "Mezzogiorno",
}
TYPES = {"A": ("attacco", "attack"), "P": ("spinta", "push"), "D": ("difesa", "defence")}
QUARTERS = {
    "east": ("quartiere di levante", "East quarter"),
    "west": ("quartiere di ponente", "West quarter"),
}


def kg(n: int, lang: str) -> str:
    return f"{n:,}".replace(",", "." if lang == "it" else ",") + " Kg"


def card(code: str, lang: str) -> str:
    """A fight card: its type and its Kg of push."""
    if code and code[0] in TYPES and code[1:].isdigit():
        it, en = TYPES[code[0]]
        return pick(lang, it, en).capitalize() + " " + kg(int(code[1:]), lang)
    return NAMES.get(code, code.replace("_", " "))


def action(act: dict[str, Any], lang: str, names: Sequence[str] | None = None) -> str:
    if "assign" in act:
        return (
            pick(lang, "assegna a ", "gives ")
            + card(act["assign"], lang)
            + pick(lang, " una forza di ", " a power of ")
            + kg(int(act["power"]), lang)
        )
    if "equip" in act:
        return (
            pick(lang, "dà a ", "gives ")
            + card(act["equip"], lang)
            + pick(lang, " la carta strategia ", " strategy card ")
            + plain(act["strategy"], lang)
        )
    if "deploy" in act:
        text = pick(lang, "schiera ", "deploys ") + card(act["deploy"], lang)
        q = act.get("quarter")
        if q:
            it, en = QUARTERS.get(q, (q, q))
            text += pick(lang, f" nel {it}", f" in the {en}")
        return text
    if "fight" in act:
        text = (
            pick(lang, "gioca ", "plays ") + card(act["fight"], lang)
            if act["fight"]
            else pick(lang, "nessuna carta di lotta", "no fight card")
        )
        if act.get("strategy") is not None:
            text += pick(lang, " con la strategia ", " with strategy ") + plain(
                act["strategy"], lang
            )
        return text
    return plain(act, lang)


def option(key: str, value: Any, lang: str) -> str:
    """The words of a move's option: the fighting magistratura's strategy card."""
    if value is None:
        return pick(lang, "Con la carta strategia", "With the strategy card")
    return pick(
        lang, f"usa la carta strategia n. {int(value) + 1}", f"use strategy card {int(value) + 1}"
    )


def _word(v: str, lang: str) -> str:
    return card(v, lang)


STATE_LABELS = {
    "mode": ("Modo", "Mode"),
    "phase": ("Fase", "Phase"),
    "seat_side": ("La tua parte", "Your side"),
    "carrello": ("Carrello", "Carrello"),
    "challenges": ("Sfide vinte", "Challenges won"),
    "to_act": ("Di turno", "To act"),
}


def state(
    view: dict[str, Any], lang: str, names: Sequence[str] | None = None
) -> list[tuple[str, str]]:
    out = []
    for key, v in view.items():
        if key in ("hand", "game", "seat", "result", "legal", "packs") or v in (None, [], {}):
            continue
        if key == "magistrature" and isinstance(v, list):
            for m in v:
                left = m.get("left")
                text = pick(lang, "forza rimasta ", "power left ") + (
                    kg(left, lang) if isinstance(left, int) else "—"
                )
                if m.get("fought"):
                    text += pick(lang, " · ha combattuto", " · has fought")
                out.append((card(m.get("name", ""), lang), text))
            continue
        label = STATE_LABELS.get(key, (key.replace("_", " "), key.replace("_", " ")))
        out.append((pick(lang, *label), plain(v, lang, _word)))
    return out


def _side(side: Any) -> str:
    return NAMES.get(str(side), str(side))


def _with_players(side: str, detail: dict[str, Any], names: Sequence[str] | None) -> str:
    """A side with the players of its seats, as the result's ranking places them."""
    seats = [
        r.get("seat")
        for r in detail.get("ranking") or []
        if isinstance(r, dict) and r.get("side") == side
    ]
    who = [seat_name(s, "it", names) for s in sorted(s for s in seats if isinstance(s, int))]
    return f"{_side(side)} ({', '.join(who)})" if who and names else _side(side)


def _challenge(c: Any, lang: str) -> str:
    if not isinstance(c, dict):
        return ""
    t, m = NAMES.get(str(c.get("tramontana")), "—"), NAMES.get(str(c.get("mezzogiorno")), "—")
    won = _side(c.get("winner")) if c.get("winner") else "—"
    text = pick(
        lang,
        f"{t} (Tramontana) contro {m} (Mezzogiorno): vince {won}",
        f"{t} (Tramontana) against {m} (Mezzogiorno): {won} wins",
    )
    left = c.get("left")
    if isinstance(left, list) and len(left) == 2 and any(left):
        text += pick(
            lang,
            f"; potenza rimasta {kg(int(left[0]), lang)} e {kg(int(left[1]), lang)}",
            f"; power left {kg(int(left[0]), lang)} and {kg(int(left[1]), lang)}",
        )
    return text + "."


def describe(detail: Any, lang: str, names: Sequence[str] | None = None) -> list[str]:
    """What a match's result declares, in words (GAME.describe): each challenge with its two
    magistrature, the winner and the power left, the tie breaker, the score and the winner."""
    if not isinstance(detail, dict):
        return []
    out = [
        pick(lang, f"Sfida {n}: ", f"Challenge {n}: ") + _challenge(c, lang)
        for n, c in enumerate(detail.get("challenges") or [], start=1)
    ]
    tie = detail.get("tie_breaker")
    if isinstance(tie, dict):
        out.append(pick(lang, "Spareggio: ", "Tie breaker: ") + _challenge(tie, lang))
    sides = detail.get("sides")
    if isinstance(sides, list) and len(sides) == 2:
        t = _with_players("tramontana", detail, names)
        m = _with_players("mezzogiorno", detail, names)
        out.append(f"{t} {sides[0]} – {sides[1]} {m}.")
    winner = detail.get("winner")
    if winner:
        side = _with_players(str(winner), detail, names)
        out.append(pick(lang, f"{side} vince la partita.", f"{side} wins the match."))
    return out
