"""San Marco in words: a scoring round read as a score sheet (Italian and English)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.core.words import pick, plain, seat_name

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
