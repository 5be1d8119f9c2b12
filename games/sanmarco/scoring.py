"""Final scores of San Marco's two-player variants, from the points a scorekeeper types.

The arithmetic lives in small pure functions (``final_v3``, ``rank``...) so that the scoring
round of the digital table (``games.sanmarco.state``) and ``GAME.score`` share it. Rule ids
are in ``games.sanmarco.rules``; the summary formats are in docs/notation/sanmarco.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.core import Outcome, RecordError, Violation, places_by, read, rule_broken
from games.core.text import Text, written_and_due
from games.sanmarco.rules import BOOK

JSON = Any

LIMIT_END = 10  # limit points that close a passage (base game, restated by variant 2)
MAX_LIMIT_PER_ROUND = 9  # three limit cards of 3 at most reach one player in a round
PASSAGES = 3  # the base game has three passages
GAP_STEP = 5  # variant 3: one point off for every full five points between the colours
#: sanmarco.entry.range: the most a table may write for one colour unless its ruleset sets
#: another cap (an input bound, not a rule of the game: far above any reported score)
MAX_POINTS = 200


def final_v3(a: int, b: int) -> int:
    """Variant 3: the mean of the two colours rounded down, minus one per full five apart
    (sanmarco.v3.final).

    >>> final_v3(55, 66), final_v3(57, 61)
    (58, 59)
    """
    return (a + b) // 2 - abs(a - b) // GAP_STEP


@dataclass(frozen=True, slots=True)
class Ranked:
    """One colour in a ranking: a player (who="player") or a ghost / the neutral colour."""

    who: str
    index: int
    points: int

    def to_json(self, place: int) -> dict[str, JSON]:
        return {"who": self.who, "index": self.index, "points": self.points, "place": place}


def rank(entries: Sequence[Ranked]) -> list[dict[str, JSON]]:
    """Standard competition places (1, 1, 3): equal points share a place."""
    ordered = sorted(entries, key=lambda e: (-e.points, e.who != "player", e.index))
    out: list[dict[str, JSON]] = []
    for e in ordered:
        place = 1 + sum(1 for other in entries if other.points > e.points)
        out.append(e.to_json(place))
    return out


def score_v3(points: Sequence[Sequence[int]]) -> dict[str, JSON]:
    """Variant 3's result: final per player, winner (or None), and the tie-break used
    (sanmarco.v3.tie_break: the stronger weaker colour, else the tie stands)."""
    finals = [final_v3(a, b) for a, b in points]
    weaker = [min(a, b) for a, b in points]
    tie_break: str | None = None
    winner: int | None
    if finals[0] != finals[1]:
        winner = 0 if finals[0] > finals[1] else 1
    elif weaker[0] != weaker[1]:
        winner = 0 if weaker[0] > weaker[1] else 1
        tie_break = "weaker_colour"
    else:
        winner = None
        tie_break = "tie_stands"
    players = [
        {
            "colours": list(p),
            "mean": (p[0] + p[1]) // 2,
            "gap": abs(p[0] - p[1]),
            "deduction": abs(p[0] - p[1]) // GAP_STEP,
            "weaker": weaker[i],
            "final": finals[i],
        }
        for i, p in enumerate(points)
    ]
    ranking = rank([Ranked("player", i, f) for i, f in enumerate(finals)])
    if winner is not None and tie_break is not None:
        # the tie-break separates the places the finals alone would share
        for entry in ranking:
            entry["place"] = 1 if entry["index"] == winner else 2
        ranking.sort(key=lambda e: e["place"])
    return {
        "variant": 3,
        "final": finals,
        "winner": winner,
        "tie_break": tie_break,
        "scores": finals,
        "players": players,
        "ranking": ranking,
    }


def score_base(points: Sequence[int]) -> dict[str, JSON]:
    """The base game (3 or 4 players): most prestige points wins; equal tops share the win
    (the sources give no tie-break: sanmarco.rank.tie)."""
    # sanmarco.base.final_scoring: after the last passage, the most prestige points win.
    top = max(points)
    winners = [i for i, p in enumerate(points) if p == top]
    return {
        "players": len(points),
        "final": list(points),
        "winner": winners[0] if len(winners) == 1 else None,
        "winners": winners,
        "tie_break": None if len(winners) == 1 else "tie_stands",
        "scores": list(points),
        "ranking": rank([Ranked("player", i, p) for i, p in enumerate(points)]),
    }


def _active_winner(points: Sequence[int]) -> tuple[int | None, str | None]:
    if points[0] == points[1]:
        return None, "tie_stands"
    return (0 if points[0] > points[1] else 1), None


def score_v1(points: Sequence[int], ghosts: Sequence[int] | None) -> dict[str, JSON]:
    # sanmarco.v1.ghosts: the ghosts are ranked with the players, but only an active player wins.
    """Variant 1: the active players' points, the ghosts' beside them, one ranking of all."""
    entries = [Ranked("player", i, p) for i, p in enumerate(points)]
    if ghosts is not None:
        entries += [Ranked("ghost", i, g) for i, g in enumerate(ghosts)]
    winner, tie_break = _active_winner(points)
    return {
        "variant": 1,
        "final": list(points),
        "ghosts": list(ghosts) if ghosts is not None else None,
        "winner": winner,
        "tie_break": tie_break,
        "scores": list(points),
        "ranking": rank(entries),
    }


def bonus_due(limits: Sequence[int]) -> list[int]:
    """Passage-end bonus: a player under 10 gets the gap to the highest limit total."""
    # sanmarco.base.passage_bonus: a colour under 10 takes the gap to the highest limit total.
    top = max(limits)
    return [top - v if v < LIMIT_END else 0 for v in limits]


def score_v2(
    points: Sequence[int], neutral: int | None, passages: Sequence[Mapping[str, Any]]
) -> dict[str, JSON]:
    # sanmarco.v2.neutral: the neutral colour is ranked when its total is written, never wins.
    """Variant 2: the active players' points, the neutral colour's when written, a ranking."""
    entries = [Ranked("player", i, p) for i, p in enumerate(points)]
    if neutral is not None:
        entries.append(Ranked("neutral", 0, neutral))
    winner, tie_break = _active_winner(points)
    return {
        "variant": 2,
        "final": list(points),
        "neutral": neutral,
        "winner": winner,
        "tie_break": tie_break,
        "scores": list(points),
        "ranking": rank(entries),
        "passages": [
            {"limits": list(p["limits"]), "bonus_due": bonus_due(p["limits"])} for p in passages
        ],
    }


# --- summaries ----------------------------------------------------------------------------


def _out_of_range(
    values: Sequence[int], labels: Sequence[Text], cap: int | None, fields: Sequence[str | None]
) -> list[Violation]:
    """Each written figure below zero (sanmarco.score.non_negative) or above the table's cap
    (sanmarco.entry.range), named in words by ``labels[i]`` ("Giocatore 1, colore 2") and
    placed at the form's field that holds it (``fields[i]``)."""
    found: list[Violation] = []
    for i, v in enumerate(values):
        where: dict[str, Any] = {"index": i}
        if fields[i] is not None:
            where["field"] = fields[i]
        label = labels[i]
        if v < 0:
            found.append(
                rule_broken(
                    BOOK,
                    "sanmarco.score.non_negative",
                    f"{label.it}: {v}.",
                    f"{label.en}: {v}.",
                    **where,
                )
            )
        elif cap is not None and v > cap:
            found.append(
                rule_broken(
                    BOOK,
                    "sanmarco.entry.range",
                    f"{label.it}: {v} punti per un colore, al più {cap}.",
                    f"{label.en}: {v} points for one colour, at most {cap}.",
                    **where,
                )
            )
    return found


def _players(count: int) -> list[Text]:
    return [Text(f"Giocatore {i + 1}", f"Player {i + 1}") for i in range(count)]


def _negative(values: Sequence[int], labels: Sequence[Text]) -> list[Violation]:
    return _out_of_range(values, labels, None, [None] * len(values))


def check_passage(limits: Sequence[int], number: int) -> list[Violation]:
    """Variant 2's round-end condition for one passage's final limit totals."""
    found: list[Violation] = []
    if max(limits) < LIMIT_END:
        found.append(
            rule_broken(
                BOOK,
                "sanmarco.v2.round_end",
                f"Nel passaggio {number + 1} nessuno ha 10 punti limite "
                f"({', '.join(f'giocatore {i + 1}: {v}' for i, v in enumerate(limits))}).",
                f"In passage {number + 1} nobody has 10 limit points "
                f"({', '.join(f'player {i + 1}: {v}' for i, v in enumerate(limits))}).",
                passage=number,
            )
        )
    for i, v in enumerate(limits):
        if v > LIMIT_END - 1 + MAX_LIMIT_PER_ROUND:
            found.append(
                rule_broken(
                    BOOK,
                    "sanmarco.v2.no_extra_round",
                    f"Il giocatore {i + 1} ha {v} punti limite: sotto 10 fino al giro prima, "
                    f"in un giro non ne prende più di {MAX_LIMIT_PER_ROUND}.",
                    f"Player {i + 1} has {v} limit points: below 10 up to the round "
                    f"before, one round adds at most {MAX_LIMIT_PER_ROUND}.",
                    passage=number,
                    seat=i,
                )
            )
    return found


#: The fields each summary may hold (0: the base game); any other is refused, not ignored.
FIELDS = {
    0: {"game", "ruleset", "players", "points"},
    1: {"game", "ruleset", "variant", "points", "ghosts"},
    2: {"game", "ruleset", "variant", "points", "neutral", "passages"},
    3: {"game", "ruleset", "variant", "points", "final", "winner"},
}


def outcome_of(result: Mapping[str, JSON], termination: str) -> Outcome:
    """The Outcome of a game or a scoring round, from a record and a summary alike: the
    winner first (after variant 3's tie-break); equal tops share the first place, and with
    two players nobody wins when the tie stands (sanmarco.v3.tie_break, sanmarco.rank.tie)."""
    finals = [int(v) for v in result["scores"]]
    winners = result.get("winners")
    if winners is None:
        winners = [] if result["winner"] is None else [result["winner"]]
    if result.get("winner") is not None and result.get("tie_break") == "weaker_colour":
        places = tuple(1 if s == result["winner"] else 2 for s in range(len(finals)))
    else:
        places = places_by(finals)
    if len(winners) == len(finals):
        winners = []
    return Outcome(tuple(finals), termination, tuple(int(w) for w in winners), result, places)


def _v3_claims(summary: Mapping[str, Any], result: Mapping[str, JSON]) -> list[Violation]:
    """Variant 3's finals and winner as written at the table, against the rules'."""
    found: list[Violation] = []
    if summary.get("final") is not None:
        written = read.wholes(summary["final"], 2, "final")
        if written != result["final"]:
            said = _wd(written, result["final"])
            found.append(rule_broken(BOOK, "sanmarco.v3.final", said.it, said.en))
    if "winner" in summary:
        winner = summary["winner"]
        if winner is not None and (isinstance(winner, bool) or winner not in (0, 1)):
            raise RecordError("expected 0, 1 or null (the tie stands)", path="winner")
        if winner != result["winner"]:
            rule = "sanmarco.v3.tie_break" if result["tie_break"] else "sanmarco.v3.final"
            found.append(
                rule_broken(
                    BOOK,
                    rule,
                    f"Scritto vincitore {_winner(winner).it}, dovuto "
                    f"{_winner(result['winner']).it}.",
                    f"Written winner {_winner(winner).en}, due {_winner(result['winner']).en}.",
                )
            )
    return found


def score_summary(
    summary: Mapping[str, Any], variant: int, seats: int, cap: int = MAX_POINTS
) -> tuple[dict[str, JSON], list[Violation]]:
    """Read a summary (docs/notation/sanmarco.md) of the competition's game (``variant`` 0
    is the base game for ``seats`` players), score it and list what is impossible.

    ``cap``: the most one colour may be written with (sanmarco.entry.range, the ruleset's
    ``max_points``), in every variant and the base game alike, as at a digital table."""
    unused = sorted(set(summary) - FIELDS[variant])
    if unused:
        raise RecordError(
            f"this summary does not use {unused[0]!r}; its fields are "
            f"{', '.join(sorted(FIELDS[variant] - {'game', 'ruleset'}))}",
            path=unused[0],
        )
    if variant == 0:
        players = summary.get("players", seats)
        if players != seats or isinstance(players, bool):
            raise RecordError(
                f"this summary is for {players!r} players; the competition plays with {seats}",
                path="players",
            )
        pts = read.wholes(summary.get("points"), seats, "points")
        return score_base(pts), _out_of_range(pts, _players(seats), cap, [None] * seats)
    written = summary.get("variant", variant)
    if written not in (1, 2, 3) or isinstance(written, bool):
        raise RecordError("expected 1, 2 or 3 (the two-player variant)", path="variant")
    if written != variant:
        raise RecordError(
            f"this summary is of variant {written}; the competition plays variant {variant}",
            path="variant",
        )
    raw = summary.get("points")
    found: list[Violation] = []
    if variant == 3:
        if not isinstance(raw, list) or len(raw) != 2:
            raise RecordError(
                "expected two players, each [colour_a, colour_b]: [[55, 66], [57, 61]]",
                path="points",
            )
        points = [read.wholes(p, 2, f"points[{i}]") for i, p in enumerate(raw)]
        for i, p in enumerate(points):
            labels = [
                Text(f"Giocatore {i + 1}, colore {c + 1}", f"Player {i + 1}, colour {c + 1}")
                for c in range(2)
            ]
            found += _out_of_range(p, labels, cap, [f"p{i}_{c}" for c in range(2)])
        result = score_v3(points)
        return result, found + _v3_claims(summary, result)
    pts = read.wholes(raw, 2, "points")
    found += _out_of_range(pts, _players(2), cap, ["p0", "p1"])
    if variant == 1:
        ghosts_raw = summary.get("ghosts")
        ghosts = None if ghosts_raw is None else read.wholes(ghosts_raw, 2, "ghosts")
        if ghosts is not None:
            ghost_labels = [Text(f"Colore fantasma {g}", f"Ghost colour {g}") for g in (1, 2)]
            found += _out_of_range(ghosts, ghost_labels, cap, ["ghost0", "ghost1"])
        return score_v1(pts, ghosts), found
    neutral_raw = summary.get("neutral")
    neutral = None if neutral_raw is None else read.whole(neutral_raw, "neutral")
    if neutral is not None:
        found += _out_of_range(
            [neutral], [Text("Colore neutro", "Neutral colour")], cap, ["neutral"]
        )
    raw_passages = summary.get("passages", [])
    if not isinstance(raw_passages, list) or len(raw_passages) > PASSAGES:
        raise RecordError(f"expected a list of at most {PASSAGES} passages", path="passages")
    passages: list[dict[str, Any]] = []
    for n, p in enumerate(raw_passages):
        path = f"passages[{n}]"
        if not isinstance(p, dict):
            raise RecordError('expected {"limits": [a, b]} with an optional "bonus"', path=path)
        odd = sorted(set(p) - {"limits", "bonus"})
        if odd:  # refused like any field a summary does not use, never ignored
            raise RecordError(
                f'a passage holds "limits" and an optional "bonus", not {odd[0]!r}',
                path=f"{path}.{odd[0]}",
            )
        limits = read.wholes(p.get("limits"), 2, f"{path}.limits")
        found += _negative(
            limits,
            [
                Text(
                    f"Passaggio {n + 1}, punti limite del giocatore {i + 1}",
                    f"Passage {n + 1}, player {i + 1}'s limit points",
                )
                for i in range(2)
            ],
        )
        if min(limits) >= 0:
            found += check_passage(limits, n)
        passages.append({"limits": limits})
        if p.get("bonus") is not None:
            bonus = read.wholes(p["bonus"], 2, f"{path}.bonus")
            due = bonus_due(limits)
            if bonus != due:
                found.append(
                    rule_broken(
                        BOOK,
                        "sanmarco.v2.bonus",
                        f"Passaggio {n + 1}, bonus: {_wd(bonus, due).it}",
                        f"Passage {n + 1}, bonus: {_wd(bonus, due).en}",
                        passage=n,
                    )
                )
    return score_v2(pts, neutral, passages), found


def _winner(seat: Any) -> Text:
    """A winner as written on the sheet: a player counted from 1, or the tie standing."""
    if seat is None:
        return Text("nessuno (parità)", "nobody (a tie)")
    return Text(f"giocatore {int(seat) + 1}", f"player {int(seat) + 1}")


def _wd(written: Sequence[int], due: Sequence[int]) -> Text:
    """Written against due, per player (San Marco's sheets count players, not seats)."""
    said = written_and_due(written, due)
    return Text(
        said.it.replace("Posto ", "Giocatore ").replace("posto ", "giocatore "),
        said.en.replace("Seat ", "Player ").replace("seat ", "player "),
    )
