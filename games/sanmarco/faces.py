"""San Marco on the digital table: its scoring round as a score sheet (see
games/core/faces.py). The board game's positions are read in words (words.state): this
module draws no board for them yet."""

from __future__ import annotations

from typing import Any

from games.core.faces import Board, Face, Panel, Seat
from games.core.text import Text
from games.core.words import pick
from games.sanmarco import words as W


def face(code: str) -> Face:
    it, en = W.COLOURS.get(code, (code, code))
    return Face(code, Text(it, en), Text(it[:1].upper(), en[:1].upper()), big=it)


def all_codes() -> list[str]:
    return []


def uses(action: dict[str, Any]) -> str | None:
    return None


def why(view: dict[str, Any], legal: list[dict[str, Any]], lang: str) -> str:
    return ""


def number(legal: list[dict[str, Any]]) -> str | None:
    """The key of a move written as a number (a colour's points), the rest being fixed."""
    if legal and all(set(a) == {"colour", "points"} for a in legal):
        return "points"
    return None


def number_label(fixed: dict[str, Any], view: dict[str, Any], lang: str) -> str:
    """What the number written is: the points of one of the seat's colours."""
    colour = fixed.get("colour")
    seat = view.get("to_act")
    colours = view.get("colours") or []
    mine = colours[seat] if isinstance(seat, int) and seat < len(colours) else []
    if isinstance(colour, int) and colour < len(mine):
        name = W.card(mine[colour], lang)
        return pick(lang, f"Punti del tuo colore {name}", f"Points of your colour {name}")
    return pick(lang, "Punti", "Points")


def board(view: dict[str, Any], lang: str, names: list[str] | None = None) -> Board | None:
    if "entries" not in view:
        return None  # the board game: read in words
    colours = view.get("colours") or []
    entries = view.get("entries") or []
    n = len(colours)
    names = names or [pick(lang, f"posto {i}", f"seat {i}") for i in range(n)]
    result = view.get("result") if isinstance(view.get("result"), dict) else None
    players = (result or {}).get("players") or []
    out = Board(seats=[Seat(i) for i in range(n)])
    variant = view.get("variant")
    if variant:
        out.notes.append(
            pick(lang, f"Variante {variant}: conteggio", f"Variant {variant}: scoring")
        )
    rows = []
    for i, mine in enumerate(colours):
        written = entries[i] if i < len(entries) else []
        who = names[i] if i < len(names) else ""
        if isinstance(written, dict):
            done, of = written.get("written", 0), written.get("of", 0)
            hidden = pick(lang, f"scritti {done} su {of}", f"{done} of {of} written")
            cells = [who, hidden, *[""] * (len(mine) - 1)]
        else:
            cells = [who]
            for j, c in enumerate(mine):
                points = written[j] if j < len(written) and written[j] is not None else "—"
                cells.append(f"{W.card(c, lang)}: {points}")
        p = players[i] if i < len(players) and isinstance(players[i], dict) else {}
        cells += [
            str(p.get("mean", "")),
            str(p.get("deduction", "")) if p else "",
            str(p.get("final", "")),
        ]
        rows.append(cells)
    width = max((len(c) for c in colours), default=2)
    head = [pick(lang, "Giocatore", "Player")]
    head += [pick(lang, f"Colore {j + 1}", f"Colour {j + 1}") for j in range(width)]
    head += [pick(lang, "Media", "Mean"), pick(lang, "Detrazione", "Deduction")]
    head += [pick(lang, "Finale", "Final")]
    out.panels.append(
        Panel(
            pick(lang, "Foglio segnapunti", "Score sheet"),
            kind="sheet",
            head=head,
            rows=rows,
            key="sheet",
        )
    )
    return out
