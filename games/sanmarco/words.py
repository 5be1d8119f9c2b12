"""San Marco in words: a scoring round read as a score sheet (Italian and English)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.core.words import join, pick, plain, seat_name

COLOURS = {
    "bianco": ("bianco", "white"),
    "nero": ("nero", "black"),
    "giallo": ("giallo", "yellow"),
    "blu": ("blu", "blue"),
    "rosso": ("rosso", "red"),
    "verde": ("verde", "green"),
}


def card(code: str, lang: str) -> str:
    it, en = COLOURS.get(code, (code, code))
    return pick(lang, it, en)


DISTRICTS = {
    "san_marco": "San Marco",
    "san_polo": "San Polo",
    "dorsoduro": "Dorsoduro",
    "cannaregio": "Cannaregio",
    "castello": "Castello",
    "santa_croce": "Santa Croce",
}


def district(slug: Any) -> str:
    return DISTRICTS.get(str(slug), str(slug).replace("_", " ").title())


def board_action(act: dict[str, Any], lang: str) -> str:
    """The board game's moves (the key "do" names the move)."""
    do = act.get("do")
    colour = act.get("colour")
    if do == "bridge":
        a, b = [*(act.get("between") or []), "?", "?"][:2]
        return pick(
            lang,
            f"posa un ponte tra {district(a)} e {district(b)}",
            f"lays a bridge between {district(a)} and {district(b)}",
        )
    if do == "pile":
        n = int(act.get("pile", 0)) + 1
        return pick(lang, f"scopre il mazzetto {n}", f"turns up pile {n}")
    if do == "choose":
        n = int(act.get("pile", 0)) + 1
        return pick(lang, f"sceglie il mazzetto {n}", f"chooses pile {n}")
    if do == "district":
        if act.get("to"):
            return pick(
                lang,
                f"da {district(act['district'])} a {district(act['to'])}",
                f"from {district(act['district'])} to {district(act['to'])}",
            )
        return pick(lang, "sceglie ", "chooses ") + district(act.get("district"))
    if do == "transfer":
        return pick(
            lang,
            f"sposta un cubo del colore {int(colour or 0) + 1} in {district(act['district'])}",
            f"moves a cube of colour {int(colour or 0) + 1} into {district(act['district'])}",
        )
    if do == "doge":
        n = int(act.get("bridge", 0)) + 1
        return pick(lang, f"muove il Doge sul ponte {n}", f"moves the Doge over bridge {n}")
    if do == "stop":
        return pick(lang, "si ferma", "stops")
    if do == "banish":
        return pick(lang, "bandisce da ", "banishes from ") + district(act.get("district"))
    if do == "remove":
        return pick(
            lang,
            f"toglie un cubo del colore {int(colour or 0) + 1}",
            f"removes a cube of colour {int(colour or 0) + 1}",
        )
    return plain({k: v for k, v in act.items() if k != "do"}, lang) or str(do)


def action(act: dict[str, Any], lang: str, names: Sequence[str] | None = None) -> str:
    if "do" in act:
        return board_action(act, lang)
    if "colour" in act and "points" in act:
        return pick(
            lang,
            f"segna {act['points']} punti al colore {act['colour'] + 1}",
            f"enters {act['points']} points for colour {act['colour'] + 1}",
        )
    return plain(act, lang)


def _seat(i: int, lang: str, names: Sequence[str] | None) -> str:
    said = seat_name(i, lang, names)
    return said[:1].upper() + said[1:]


def state(
    view: dict[str, Any], lang: str, names: Sequence[str] | None = None
) -> list[tuple[str, str]]:
    out = []
    colours = view.get("colours") or []
    entries = view.get("entries") or []
    for i, mine in enumerate(colours):
        written = entries[i] if i < len(entries) else []
        if isinstance(written, dict):
            # Another seat's entries stay hidden until the round is scored: only how many.
            out.append(
                (
                    _seat(i, lang, names),
                    pick(
                        lang,
                        f"ha scritto {written.get('written', 0)} colori su {written.get('of', 0)}",
                        f"has written {written.get('written', 0)} of"
                        f" {written.get('of', 0)} colours",
                    ),
                )
            )
            continue
        points = [p if p is not None else "—" for p in written]
        parts = [
            f"{card(c, lang)} {points[j] if j < len(points) else '—'}" for j, c in enumerate(mine)
        ]
        out.append((_seat(i, lang, names), ", ".join(parts)))
    result = view.get("result")
    if isinstance(result, dict) and result.get("final"):
        out.append(
            (
                pick(lang, "Punti finali", "Final points"),
                "; ".join(
                    f"{seat_name(i, lang, names)}: {p}" for i, p in enumerate(result["final"])
                ),
            )
        )
    for key, v in view.items():
        if key in ("colours", "entries", "result", "game", "seat", "hand", "to_act", "variant"):
            continue
        if v not in (None, [], {}):
            out.append((key.replace("_", " "), plain(v, lang)))
    return out


def _colour(name: str, lang: str) -> str:
    it, en = COLOURS.get(name, (name, name))
    return pick(lang, it, en)


def describe(detail: Any, lang: str, names: Sequence[str] | None = None) -> list[str]:
    """What a game's result declares, in words (GAME.describe): each colour's prestige
    points as written, variant 3's mean, deduction and final, the ghosts or the neutral
    colour, the passages' limit points and bonuses, the tie-break and the winner."""
    from games.sanmarco.state import DEFAULT_COLOURS

    if not isinstance(detail, dict):
        return []
    out: list[str] = []
    variant = detail.get("variant")
    finals = detail.get("final") or []
    if variant == 3:
        for i, p in enumerate(detail.get("players") or []):
            colours = DEFAULT_COLOURS[3][i] if i < 2 else ("", "")
            a, b = (p.get("colours") or [0, 0])[:2]
            who = _seat(i, lang, names)
            out.append(
                pick(
                    lang,
                    f"{who}: {_colour(colours[0], lang)} {a}, {_colour(colours[1], lang)} {b}; "
                    f"media {p.get('mean')}, meno {p.get('deduction')} per lo scarto di "
                    f"{p.get('gap')}: finale {p.get('final')}.",
                    f"{who}: {_colour(colours[0], lang)} {a}, {_colour(colours[1], lang)} {b}; "
                    f"mean {p.get('mean')}, less {p.get('deduction')} for the gap of "
                    f"{p.get('gap')}: final {p.get('final')}.",
                )
            )
    else:
        for i, points in enumerate(finals):
            who = _seat(i, lang, names)
            if variant in (1, 2):
                colour = _colour(DEFAULT_COLOURS[variant][i][0], lang) if i < 2 else ""
                out.append(
                    pick(
                        lang,
                        f"{who}: {colour} {points} punti prestigio.",
                        f"{who}: {colour} {points} prestige points.",
                    )
                )
            else:
                out.append(
                    pick(
                        lang,
                        f"{who}: {points} punti prestigio.",
                        f"{who}: {points} prestige points.",
                    )
                )
    ghosts = detail.get("ghosts")
    if isinstance(ghosts, list):
        for i, g in enumerate(ghosts):
            ghost = DEFAULT_COLOURS[1][i][1].removeprefix("fantasma ") if i < 2 else ""
            reader = seat_name(i, lang, names)
            out.append(
                pick(
                    lang,
                    f"Colore fantasma {_colour(ghost, lang)} (letto da {reader}): {g}.",
                    f"Ghost colour {_colour(ghost, lang)} (read out by {reader}): {g}.",
                )
            )
    if detail.get("neutral") is not None:
        out.append(
            pick(
                lang,
                f"Colore neutro: {detail['neutral']}.",
                f"Neutral colour: {detail['neutral']}.",
            )
        )
    for n, p in enumerate(detail.get("passages") or [], start=1):
        limits = p.get("limits") or []
        bonus = p.get("bonus_due") or []
        parts = [
            f"{seat_name(i, lang, names)} {v}"
            + (f" (bonus {bonus[i]})" if i < len(bonus) and bonus[i] else "")
            for i, v in enumerate(limits)
        ]
        out.append(
            pick(lang, f"Passaggio {n}, punti limite: ", f"Passage {n}, limit points: ")
            + ", ".join(parts)
            + "."
        )
    tie_break = detail.get("tie_break")
    winners = detail.get("winners")
    winner = detail.get("winner")
    if tie_break == "weaker_colour" and isinstance(winner, int):
        out.append(
            pick(
                lang,
                "Finali pari: decide il colore più debole, più forte per "
                f"{seat_name(winner, lang, names)}.",
                "Equal finals: the weaker colour decides, stronger for "
                f"{seat_name(winner, lang, names)}.",
            )
        )
    if isinstance(winner, int):
        out.append(
            pick(
                lang,
                f"Vince {seat_name(winner, lang, names)}.",
                f"{_seat(winner, lang, names)} wins.",
            )
        )
    elif isinstance(winners, list) and len(winners) > 1:
        who = join([seat_name(w, lang, names) for w in winners], lang)
        out.append(pick(lang, f"Primi a pari merito: {who}.", f"First together: {who}."))
    elif tie_break == "tie_stands":
        out.append(pick(lang, "Il pareggio resta: nessuno vince.", "The tie stands: nobody wins."))
    return out
