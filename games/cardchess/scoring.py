"""Summary scoring for 3D cardChess: one sfida from the captured cards, or a whole game from
the points of each sfida (formats in docs/notation/cardchess.md)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from games.cardchess import cards as C
from games.cardchess.rules import BOOK
from games.core import Outcome, RecordError, Violation, read, rule_broken
from games.core.text import per_seat, written_and_due

JSON = Any


class Termination(StrEnum):
    GOLD_TAKEN = "gold_taken"  # two players: every gold card has been won
    THREE_GOLD = "three_gold"  # three or four players: someone reached three gold cards
    DECIDING_SFIDA = "deciding_sfida"  # all level on gold: the deciding sfida's winner
    UNFINISHED = "unfinished"  # a summary of a game stopped before its end
    SFIDA = "sfida"  # a summary of one sfida only


def top(points: Sequence[int]) -> int | None:
    """The one player with the most points, or None when the lead is shared."""
    best = max(points)
    leaders = [s for s, p in enumerate(points) if p == best]
    return leaders[0] if len(leaders) == 1 else None


@dataclass
class Tally:
    """The gold cards of a game and its end, sfida after sfida: the one place where the end
    of a game is decided, for a record replayed and a summary alike (cardchess.game.end,
    cardchess.gold.count)."""

    players: int
    gold_left: int
    gold: list[int] = field(default_factory=list)
    deciding: bool = False
    winners: tuple[int, ...] | None = None  # None until the game is over
    termination: str = ""

    def __post_init__(self) -> None:
        if not self.gold:
            self.gold = [0] * self.players

    @property
    def over(self) -> bool:
        return self.winners is not None

    def add(self, points: Sequence[int]) -> int | None:
        """Count one sfida's points; the seat that took a gold card with it, if any."""
        # cardchess.gold.sfida: the sfida's sole top score takes a gold card; a shared top takes
        # none.
        taker = top(points)
        if self.deciding:  # the deciding sfida: its sole winner wins the game
            if taker is not None:
                self.winners, self.termination = (taker,), Termination.DECIDING_SFIDA.value
            return None
        took = None
        if taker is not None and self.gold_left > 0:
            took = taker
            self.gold[taker] += 1
            self.gold_left -= 1
        if self.players == 2:
            if self.gold_left == 0:
                best = max(self.gold)
                most = tuple(s for s, g in enumerate(self.gold) if g == best)
                self.winners = most if len(most) == 1 else ()
                self.termination = Termination.GOLD_TAKEN.value
        else:
            three = [s for s, g in enumerate(self.gold) if g >= 3]
            if three:
                self.winners, self.termination = (three[0],), Termination.THREE_GOLD.value
            elif self.gold_left == 0 and len(set(self.gold)) == 1:
                self.deciding = True
        return took

    def outcome(self, detail: Mapping[str, JSON]) -> Outcome:
        """The game's Outcome: gold cards per seat, the winner first."""
        if self.winners is None:
            return Outcome(tuple(self.gold), Termination.UNFINISHED.value, (), detail)
        return Outcome(tuple(self.gold), self.termination, self.winners, detail)


VALUE_ONE_PAWNS = ("bP1l", "bP1d", "gP1l", "gP1d")


def _seats(summary: Mapping[str, Any], seats: int) -> int:
    """The players the summary is for: the ruleset's, which ``players`` may restate."""
    n = summary.get("players", seats)
    if n != seats or isinstance(n, bool):
        raise RecordError(
            f"this summary is for {n!r} players; the competition plays with {seats}",
            path="players",
        )
    return seats


def _deck(n: int, removed_pawn: str = "bP1l") -> Counter[int]:
    deck = C.one_deck() * (1 if n == 2 else 2)
    if n == 4:
        deck.remove(C.BY_CODE[removed_pawn])
    return Counter(deck)


def beyond_deck(n: int, cards: Counter[int]) -> Counter[int]:
    """The cards counted more often than the deck holds them. With four players a value-1
    pawn leaves the deck, and the text does not say which (docs/rules/cardchess.md), so the
    cards fit when they fit the deck without any one of the four."""
    if n != 4:
        return cards - _deck(n)
    fits = [cards - _deck(n, pawn) for pawn in VALUE_ONE_PAWNS]
    return min(fits, key=lambda over: sum(over.values()))


def max_total(n: int) -> int:
    """The most points one sfida can give out in all: every card, every reame."""
    deck = _deck(n)
    points, _ = C.sfida_points(list(deck.elements()))
    return points


def score_sfida(summary: Mapping[str, Any], seats: int) -> tuple[dict[str, JSON], list[Violation]]:
    n = _seats(summary, seats)
    raw = summary["captured"]
    if not isinstance(raw, list) or len(raw) != n:
        raise RecordError(f"expected one list of card codes per player ({n})", path="captured")
    hands: list[list[int]] = []
    for i, cs in enumerate(raw):
        hands.append(C.DECK.read_list(cs, f"captured[{i}]"))
    found: list[Violation] = []
    total: Counter[int] = Counter()
    for row in hands:
        total.update(row)
    over = beyond_deck(n, total)
    if over:
        names = ", ".join(f"{C.CODES[t]} x{k}" for t, k in sorted(over.items()))
        found.append(
            rule_broken(
                BOOK,
                "cardchess.deal.composition",
                f"Carte in più del mazzo: {names}.",
                f"More than the deck holds: {names}.",
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


def score_game(summary: Mapping[str, Any], seats: int) -> tuple[dict[str, JSON], list[Violation]]:
    n = _seats(summary, seats)
    raw = summary["sfide"]
    if not isinstance(raw, list) or not raw:
        raise RecordError("expected a list of sfide, each one score per player", path="sfide")
    found: list[Violation] = []
    tally = Tally(n, C.GOLD_PER_DECK * (1 if n == 2 else 2))
    limit = max_total(n)
    rows: list[dict[str, JSON]] = []
    for k, sf in enumerate(raw):
        path = f"sfide[{k}]"
        points = read.wholes(sf, n, path)
        if tally.over:
            found.append(
                rule_broken(
                    BOOK,
                    "cardchess.game.end",
                    f"La partita era già finita prima della sfida {k + 1}.",
                    f"The game was already over before sfida {k + 1}.",
                    sfida=k,
                )
            )
            break
        if min(points) < 0 or sum(points) > limit:
            each = per_seat(points)
            found.append(
                rule_broken(
                    BOOK,
                    "cardchess.score.total",
                    f"Sfida {k + 1}: {each.it}; ognuno da 0, {limit} in tutto al più.",
                    f"Sfida {k + 1}: {each.en}; each from 0, at most {limit} in all.",
                    sfida=k,
                )
            )
        deciding = tally.deciding
        rows.append({"points": points, "gold": tally.add(points), "deciding": deciding})
    gold = list(tally.gold)
    claimed = summary.get("gold")
    if claimed is not None and (written := read.wholes(claimed, n, "gold")) != gold:
        said = written_and_due(written, gold)
        found.append(rule_broken(BOOK, "cardchess.gold.count", said.it, said.en))
    winners = tally.winners
    return {
        "form": "game",
        "players": n,
        "sfide": rows,
        "gold": gold,
        "gold_left": tally.gold_left,
        "complete": winners is not None,
        "winner": winners[0] if winners else None,
        "winners": list(winners) if winners is not None else None,
        "termination": tally.termination or None,
        "scores": gold,
    }, found


def summary_outcome(result: Mapping[str, JSON]) -> Outcome:
    """The Outcome of a summary: a game's as its record gives it; one sfida's by points."""
    if result["form"] == "sfida":
        return Outcome.ranked(result["points"], Termination.SFIDA.value, result)
    winners = result["winners"]
    if winners is None:
        return Outcome(tuple(result["gold"]), Termination.UNFINISHED.value, (), result)
    return Outcome(tuple(result["gold"]), result["termination"], tuple(winners), result)


def score_summary(
    summary: Mapping[str, Any], seats: int
) -> tuple[dict[str, JSON], list[Violation]]:
    if "captured" in summary:
        return score_sfida(summary, seats)
    if "sfide" in summary:
        return score_game(summary, seats)
    raise RecordError(
        'expected "captured" (one sfida: card codes per player) or "sfide" (a game: points '
        "per sfida)"
    )
