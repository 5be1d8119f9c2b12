"""3D cardChess in words, as players say them (Italian and English)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.core.words import pick, plain, seat_name

COLOURS = {"b": ("blu", "blue"), "g": ("verde", "green")}
PIECES = {
    "P": ("Pedone", "Pawn"),
    "C": ("Castello", "Castle"),
    "G": ("Regina fantasma", "Ghost queen"),
    "K": ("Re", "King"),
    "N": ("Cavallo", "Knight"),
    "R": ("Torre", "Rook"),
    "B": ("Alfiere", "Bishop"),
    "Q": ("Regina", "Queen"),
}
SQUARES = {"l": ("casa chiara", "light square"), "d": ("casa scura", "dark square")}


def card(code: Any, lang: str) -> str:
    if code is None:
        return pick(lang, "carta coperta", "a face-down card")
    if not isinstance(code, str) or len(code) < 2 or code[0] not in COLOURS:
        return plain(code, lang)
    colour, piece, rest = code[0], code[1], code[2:]
    it, en = PIECES.get(piece, (piece, piece))
    c_it, c_en = COLOURS[colour]
    value = "".join(ch for ch in rest if ch.isdigit())
    square = rest[-1:] if rest[-1:] in SQUARES else ""
    text_it, text_en = f"{it} {c_it}", f"{c_en} {en}"
    if value:
        text_it += f" {value}"
        text_en += f" {value}"
    if piece in "CG":
        text_it += " (#)"
        text_en += " (#)"
    if square:
        text_it += f" ({SQUARES[square][0]})"
        text_en += f" ({SQUARES[square][1]})"
    return pick(lang, text_it, text_en)


def action(act: dict[str, Any], lang: str, names: Sequence[str] | None = None) -> str:
    if "play" in act:
        return pick(lang, "gioca ", "plays ") + ", ".join(card(c, lang) for c in act["play"])
    if "resolve" in act:
        if act.get("taker") is None:
            return pick(
                lang,
                f"risolve la carta {act['resolve'] + 1}: non la prende nessuno",
                f"resolves card {act['resolve'] + 1}: nobody takes it",
            )
        taker = seat_name(act["taker"], lang, names)
        return pick(
            lang,
            f"risolve la carta {act['resolve'] + 1}: la prende {taker}",
            f"resolves card {act['resolve'] + 1}: {taker} takes it",
        )
    return plain(act, lang)


STATE_LABELS = {
    "sfida": ("Sfida", "Sfida"),
    "to_act": ("Di turno", "To act"),
    "hand_sizes": ("Carte in mano", "Cards in hand"),
    "table": ("Le tre carte scoperte", "The three face-up cards"),
    "plays": ("Giocate coperte", "Face-down plays"),
    "revealing": ("Si scopre", "Revealing"),
    "pile": ("Carte nel mazzo", "Cards in the pile"),
    "reshuffled": ("Mazzo rimescolato", "Pile reshuffled"),
    "last_turn": ("Ultimo turno", "Last turn"),
    "discard": ("Scarti", "Discards"),
    "captured": ("Catture", "Captures"),
    "gold": ("Oro", "Gold"),
    "gold_left": ("Oro rimasto", "Gold left"),
    "sfide": ("Sfide giocate", "Sfide played"),
    "over": ("Finita", "Over"),
}


def _word(code: str, lang: str) -> str:
    return card(code, lang)


def state(
    view: dict[str, Any], lang: str, names: Sequence[str] | None = None
) -> list[tuple[str, str]]:
    out = []
    for key, v in view.items():
        if key in ("hand", "game", "seat", "result", "plays") or v in (None, [], {}):
            continue
        label = STATE_LABELS.get(key, (key.replace("_", " "), key.replace("_", " ")))
        if key in ("captured", "gold", "hand_sizes") and isinstance(v, list):
            text = "; ".join(
                f"{seat_name(i, lang, names)}: {plain(x, lang, _word)}" for i, x in enumerate(v)
            )
            out.append((pick(lang, *label), text))
            continue
        out.append((pick(lang, *label), plain(v, lang, _word)))
    plays = view.get("plays")
    if isinstance(plays, list) and plays:
        cards = plays[0] if plays and isinstance(plays[0], list) else plays
        shown = [card(c, lang) if isinstance(c, str) else card(None, lang) for c in cards]
        out.append((pick(lang, *STATE_LABELS["plays"]), plain(shown, lang)))
    return out


def _gold(gold: Any, lang: str, names: Sequence[str] | None) -> str:
    if not isinstance(gold, int):
        return pick(lang, "pari: nessuno prende una carta d'oro", "a tie: nobody takes a gold card")
    return pick(
        lang,
        f"carta d'oro a {seat_name(gold, lang, names)}",
        f"a gold card to {seat_name(gold, lang, names)}",
    )


def _points(points: Any, lang: str, names: Sequence[str] | None, reami: Any = None) -> str:
    parts = []
    for i, p in enumerate(points or []):
        part = f"{seat_name(i, lang, names)} {p}"
        if isinstance(reami, list) and i < len(reami) and reami[i]:
            part += pick(lang, f" ({reami[i]} reame)", f" ({reami[i]} reame)")
        parts.append(part)
    return ", ".join(parts)


def describe(detail: Any, lang: str, names: Sequence[str] | None = None) -> list[str]:
    """What a result declares, in words (GAME.describe): each sfida's points per player
    and who took its gold card (the deciding one named), the gold cards and the winner; or
    one sfida's points and its gold card."""
    from games.core.words import seat_name as _name

    if not isinstance(detail, dict):
        return []
    if detail.get("form") == "sfida":
        line = pick(lang, "Sfida: ", "Sfida: ") + _points(
            detail.get("points"), lang, names, detail.get("reami")
        )
        return [f"{line}; {_gold(detail.get('gold'), lang, names)}."]
    out = []
    for n, s in enumerate(detail.get("sfide") or [], start=1):
        if not isinstance(s, dict):
            continue
        deciding = pick(lang, " (decisiva)", " (deciding)") if s.get("deciding") else ""
        out.append(
            pick(lang, f"Sfida {n}{deciding}: ", f"Sfida {n}{deciding}: ")
            + _points(s.get("points"), lang, names, s.get("reami"))
            + f"; {_gold(s.get('gold'), lang, names)}."
        )
    gold = detail.get("gold")
    if isinstance(gold, list):
        out.append(
            pick(lang, "Carte d'oro: ", "Gold cards: ")
            + ", ".join(f"{_name(i, lang, names)} {g}" for i, g in enumerate(gold))
            + "."
        )
    winner = detail.get("winner")
    if isinstance(winner, int):
        out.append(
            pick(
                lang, f"Vince {_name(winner, lang, names)}.", f"{_name(winner, lang, names)} wins."
            )
        )
    elif detail.get("complete") is False:
        out.append(pick(lang, "La partita non è finita.", "The game is not over."))
    elif detail.get("complete") is True:
        out.append(pick(lang, "Pareggio.", "A draw."))
    return out
