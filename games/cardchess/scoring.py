"""Summary scoring for 3D cardChess: one sfida from the captured cards, or a whole game from
the points of each sfida (formats in docs/notation/cardchess.md)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from games.cardchess import cards as C
from games.cardchess.rules import BOOK
from games.core import RecordError, Text, Violation, violation

JSON = Any


def _seats(summary: Mapping[str, Any]) -> int:
    n = summary.get("players", 2)
    if n not in (2, 3, 4) or isinstance(n, bool):
        raise RecordError("expected 2, 3 or 4", path="players")
    return int(n)


def _deck(n: int, removed_pawn: str = "bP1l") -> Counter[int]:
    deck = C.one_deck() * (1 if n == 2 else 2)
    if n == 4:
        deck.remove(C.BY_CODE[removed_pawn])
    return Counter(deck)


def max_total(n: int) -> int:
    """The most points one sfida can give out in all: every card, every reame."""
    deck = _deck(n)
    points, _ = C.sfida_points(list(deck.elements()))
    return points


def top(points: list[int]) -> int | None:
    best = max(points)
    leaders = [s for s, p in enumerate(points) if p == best]
    return leaders[0] if len(leaders) == 1 else None


def score_sfida(summary: Mapping[str, Any]) -> tuple[dict[str, JSON], list[Violation]]:
    n = _seats(summary)
    raw = summary["captured"]
    if not isinstance(raw, list) or len(raw) != n:
        raise RecordError(f"expected one list of card codes per player ({n})", path="captured")
    hands: list[list[int]] = []
    for i, cs in enumerate(raw):
        if not isinstance(cs, list):
            raise RecordError("expected a list of card codes", path=f"captured[{i}]")
        row = []
        for j, code in enumerate(cs):
            if not isinstance(code, str) or code not in C.BY_CODE:
                raise RecordError(
                    f"unknown card {code!r}; codes look like bP3d, gC, bG, gK, bNl, gRd, bBl, gQ",
                    path=f"captured[{i}][{j}]",
                )
            row.append(C.BY_CODE[code])
        hands.append(row)
    found: list[Violation] = []
    total: Counter[int] = Counter()
    for row in hands:
        total.update(row)
    over = total - _deck(n)
    if over:
        names = ", ".join(f"{C.CODES[t]} x{k}" for t, k in sorted(over.items()))
        found.append(
            violation(
                BOOK,
                "cardchess.deal.composition",
                Text(f"Carte in più del mazzo: {names}.", f"More than the deck holds: {names}."),
            )
        )
    scored = [C.sfida_points(row) for row in hands]
    points = [p for p, _ in scored]
    gold = top(points)
    return {
        "form": "sfida",
        "players": n,
        "points": points,
        "reami": [r for _, r in scored],
        "gold": gold,
        "tie": gold is None,
        "scores": points,
    }, found


def score_game(summary: Mapping[str, Any]) -> tuple[dict[str, JSON], list[Violation]]:
    n = _seats(summary)
    raw = summary["sfide"]
    if not isinstance(raw, list) or not raw:
        raise RecordError("expected a list of sfide, each one score per player", path="sfide")
    found: list[Violation] = []
    gold = [0] * n
    gold_left = C.GOLD_PER_DECK * (1 if n == 2 else 2)
    limit = max_total(n)
    rows: list[dict[str, JSON]] = []
    winners: list[int] | None = None
    termination: str | None = None
    deciding = False
    for k, sf in enumerate(raw):
        path = f"sfide[{k}]"
        if not isinstance(sf, list) or len(sf) != n:
            raise RecordError(f"expected {n} whole numbers", path=path)
        points = []
        for i, v in enumerate(sf):
            if isinstance(v, bool) or not isinstance(v, int):
                raise RecordError("expected a whole number", path=f"{path}[{i}]")
            points.append(v)
        if winners is not None:
            found.append(
                violation(
                    BOOK,
                    "cardchess.game.end",
                    Text(
                        f"La partita era già finita prima della sfida {k + 1}.",
                        f"The game was already over before sfida {k + 1}.",
                    ),
                    sfida=k,
                )
            )
            break
        if min(points) < 0 or sum(points) > limit:
            found.append(
                violation(
                    BOOK,
                    "cardchess.score.total",
                    Text(
                        f"Sfida {k + 1}: {points}, fra 0 e {limit} in tutto.",
                        f"Sfida {k + 1}: {points}, between 0 and {limit} in all.",
                    ),
                    sfida=k,
                )
            )
        taker = top(points)
        row: dict[str, JSON] = {"points": points, "gold": None, "deciding": deciding}
        if deciding:
            if taker is not None:
                winners, termination = [taker], "deciding_sfida"
        elif taker is not None and gold_left > 0:
            row["gold"] = taker
            gold[taker] += 1
            gold_left -= 1
        rows.append(row)
        if winners is not None:
            continue
        if n == 2:
            if gold_left == 0:
                best = max(gold)
                most = [s for s, g in enumerate(gold) if g == best]
                winners, termination = (most if len(most) == 1 else []), "gold_taken"
        else:
            three = [s for s, g in enumerate(gold) if g >= 3]
            if three:
                winners, termination = three[:1], "three_gold"
            elif gold_left == 0 and len(set(gold)) == 1:
                deciding = True
    claimed = summary.get("gold")
    if claimed is not None:
        if not isinstance(claimed, list) or len(claimed) != n:
            raise RecordError(f"expected {n} whole numbers", path="gold")
        if list(claimed) != gold:
            found.append(
                violation(
                    BOOK,
                    "cardchess.gold.count",
                    Text(f"Scritto {claimed}, dovuto {gold}.", f"Written {claimed}, due {gold}."),
                )
            )
    return {
        "form": "game",
        "players": n,
        "sfide": rows,
        "gold": gold,
        "gold_left": gold_left,
        "complete": winners is not None,
        "winner": (winners[0] if winners else None) if winners is not None else None,
        "termination": termination,
        "scores": gold,
    }, found


def score_summary(summary: Mapping[str, Any]) -> tuple[dict[str, JSON], list[Violation]]:
    if "captured" in summary:
        return score_sfida(summary)
    if "sfide" in summary:
        return score_game(summary)
    raise RecordError(
        'expected "captured" (one sfida: card codes per player) or "sfide" (a game: points '
        "per sfida)"
    )
