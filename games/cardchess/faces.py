"""3D cardChess's cards and table as the pages draw them (see games/core/faces.py).

Blue and green pieces show their silhouette and value (the castle and the ghost queen a #,
they have no number), the square colour they stand on, and the gold cards a coin.
"""

from __future__ import annotations

from typing import Any

from games.cardchess import cards as C
from games.cardchess import words as W
from games.core.faces import Board, Face, Group, Panel, Seat
from games.core.text import Text
from games.core.words import pick, seat_name

COLOURS = {"b": "#1d4ed8", "g": "#15803d"}
BACK_COLOUR = "#44403c"
SHAPES = {
    "P": "pawn",
    "C": "rook",
    "G": "queen",
    "K": "king",
    "N": "knight",
    "R": "rook",
    "B": "bishop",
    "Q": "queen",
}
VALUES = {"K": 5, "N": 5, "B": 7, "Q": 9}
GOLD = "gold"
# The play of one turn: one card of the hand for each of the three face-up cards, in order.
SLOTS = "play"


def face(code: str) -> Face:
    if code == GOLD:
        return Face(
            code,
            Text("carta oro", "gold card"),
            Text("Oro", "Gold"),
            colour="#a16207",
            sign="gold",
            band=Text("Oro", "Gold"),
        )
    colour, piece, rest = code[0], code[1], code[2:]
    it, en = W.PIECES[piece]
    value = "".join(ch for ch in rest if ch.isdigit())
    if piece == "R":
        value = str(C.PUBLISHED_ROOKS[0 if colour == "b" else 1])
    elif piece in VALUES:
        value = str(VALUES[piece])
    if piece in "CG":
        value = "#"
    square = rest[-1:] if rest[-1:] in W.SQUARES else ""
    lines = (Text(*W.SQUARES[square]),) if square else ()
    return Face(
        code,
        Text(W.card(code, "it"), W.card(code, "en")),
        Text(value, value),
        colour=COLOURS[colour],
        sign="piece:" + SHAPES[piece],
        big=value,
        lines=lines,
        band=Text(it, en),
    )


def all_codes() -> list[str]:
    return [*dict.fromkeys(C.CODES), GOLD]


def uses(action: dict[str, Any]) -> str | None:
    return None


def shows(action: dict[str, Any]) -> list[str]:
    cards = action.get("play")
    return [c for c in cards if isinstance(c, str)] if isinstance(cards, list) else []


def slot_labels(view: dict[str, Any], lang: str) -> list[str]:
    """What each card of a play goes against: the face-up cards, in order."""
    table = view.get("table") or []
    return [
        pick(lang, f"Sulla carta {i + 1}: ", f"On card {i + 1}: ") + W.card(c, lang)
        for i, c in enumerate(table)
    ]


def why(view: dict[str, Any], legal: list[dict[str, Any]], lang: str) -> str:
    return ""


def board(view: dict[str, Any], lang: str, names: list[str] | None = None) -> Board:
    sizes = view.get("hand_sizes") or []
    n = len(sizes) or 2
    names = [seat_name(i, lang, names) for i in range(n)]
    gold = view.get("gold") or []
    captured = view.get("captured") or []
    seats = []
    for i in range(n):
        s = Seat(i, hand_size=sizes[i] if i < len(sizes) else None)
        if i < len(gold) and gold[i]:
            s.badges.append(pick(lang, f"oro {gold[i]}", f"gold {gold[i]}"))
        if i < len(captured):
            s.lines.append(
                pick(lang, f"catture: {len(captured[i])}", f"captures: {len(captured[i])}")
            )
        seats.append(s)
    out = Board(seats=seats)
    sfida = view.get("sfida")
    if isinstance(sfida, int) and not view.get("over"):
        out.notes.append(pick(lang, f"Sfida {sfida + 1}", f"Sfida {sfida + 1}"))
    pile = view.get("pile")
    if isinstance(pile, int):
        out.notes.append(pick(lang, f"Mazzo: {pile} carte", f"Pile: {pile} cards"))
    left = view.get("gold_left")
    if isinstance(left, int):
        out.notes.append(pick(lang, f"Oro in palio: {left}", f"Gold still to win: {left}"))
    if view.get("last_turn"):
        out.notes.append(pick(lang, "Ultimo turno", "Last turn"))
    table = [c for c in view.get("table") or [] if isinstance(c, str)]
    plays = view.get("plays") or []
    revealing = view.get("revealing")
    out.centre_title = pick(lang, "Le tre carte scoperte", "The three face-up cards")
    for k, c in enumerate(table):
        label = pick(lang, f"Carta {k + 1}", f"Card {k + 1}")
        if revealing == k:
            label += pick(lang, " · si scopre", " · being turned over")
        out.centre.append(Group(label=label, cards=[c]))
    groups = []
    for i, p in enumerate(plays):
        if not isinstance(p, list):
            continue
        shown = [c for c in p if isinstance(c, str)]
        hidden = sum(1 for c in p if c is True)
        groups.append(Group(label=names[i] if i < len(names) else "", cards=shown, backs=hidden))
    if groups:
        out.panels.append(
            Panel(pick(lang, "Le giocate coperte", "The face-down plays"), groups, key="plays")
        )
    if any(captured):
        out.panels.append(
            Panel(
                pick(lang, "Catture", "Captures"),
                [
                    Group(label=names[i] if i < len(names) else "", cards=list(cs))
                    for i, cs in enumerate(captured)
                ],
                key="captured",
                folded=True,
            )
        )
    if any(gold):
        out.panels.append(
            Panel(
                pick(lang, "Oro conquistato", "Gold won"),
                [
                    Group(label=names[i] if i < len(names) else "", cards=[GOLD] * g)
                    for i, g in enumerate(gold)
                    if g
                ],
                key="gold",
            )
        )
    sfide = [sf for sf in view.get("sfide") or [] if isinstance(sf, dict)]
    if sfide:
        rows = []
        for k, sf in enumerate(sfide, start=1):
            points = sf.get("points") or []
            reami = sf.get("reami") or []
            cells = [str(k)]
            for i in range(n):
                text = str(points[i]) if i < len(points) else "—"
                if i < len(reami) and reami[i]:
                    text += pick(lang, f" ({reami[i]} reame)", f" ({reami[i]} reame)")
                cells.append(text)
            rows.append(cells)
        out.panels.append(
            Panel(
                pick(lang, "Sfide: punti e reami", "Sfide: points and reami"),
                kind="sheet",
                head=["#", *names[:n]],
                rows=rows,
                key="sfide",
            )
        )
    return out
