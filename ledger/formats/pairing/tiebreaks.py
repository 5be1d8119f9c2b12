"""Swiss scores and tiebreaks: Buchholz, median Buchholz, Sonneborn-Berger.

A bye is scored against a *virtual opponent* (FIDE's rule for unplayed games, the one
lichess adopted in its issue 13694): who starts the round with the player's own score,
loses the bye round, and draws every later round:
    Svon = score before the round + (1 - points for the bye) + 0.5 * (rounds played - round)
The player's bye counts for Sonneborn-Berger as a result of (bye points) against it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field


@dataclass
class Game:
    round: int
    a: int
    b: int | None  # None: a bye for a
    score_a: float  # match points for a: 1, 0.5 or 0 (the bye's points for a bye)
    score_b: float = 0.0


@dataclass
class Line:
    player: int
    score: float = 0.0
    buchholz: float = 0.0
    median_buchholz: float = 0.0
    sonneborn_berger: float = 0.0
    wins: int = 0
    opponents: list[int] = field(default_factory=list)


def table(games: Iterable[Game], players: Iterable[int], rounds: int) -> dict[int, Line]:
    games = sorted(games, key=lambda g: g.round)
    lines = {p: Line(p) for p in players}
    for g in games:
        for p in (g.a, g.b):
            if p is not None and p not in lines:
                lines[p] = Line(p)
    before: dict[tuple[int, int], float] = {}  # (player, round) -> score before it
    running = {p: 0.0 for p in lines}
    by_round: dict[int, list[Game]] = {}
    for g in games:
        by_round.setdefault(g.round, []).append(g)
    for r in sorted(by_round):
        for p in running:
            before[(p, r)] = running[p]
        for g in by_round[r]:
            running[g.a] += g.score_a
            if g.b is not None:
                running[g.b] += g.score_b
    for p, s in running.items():
        lines[p].score = s
    played_rounds = max(rounds, max(by_round) if by_round else 0)
    contributions: dict[int, list[float]] = {p: [] for p in lines}
    sb: dict[int, float] = {p: 0.0 for p in lines}
    for g in games:
        if g.b is None:
            virtual = before[(g.a, g.round)] + (1 - g.score_a) + 0.5 * (played_rounds - g.round)
            contributions[g.a].append(virtual)
            sb[g.a] += g.score_a * virtual
            continue
        for me, other, mine in ((g.a, g.b, g.score_a), (g.b, g.a, g.score_b)):
            contributions[me].append(running[other])
            lines[me].opponents.append(other)
            sb[me] += mine * running[other]
            if mine == 1:
                lines[me].wins += 1
    for p, line in lines.items():
        c = sorted(contributions[p])
        line.buchholz = sum(c)
        line.median_buchholz = sum(c[1:-1]) if len(c) > 2 else 0.0
        line.sonneborn_berger = sb[p]
    return lines


def ranked(lines: dict[int, Line]) -> list[Line]:
    return sorted(
        lines.values(),
        key=lambda x: (-x.score, -x.buchholz, -x.median_buchholz, -x.sonneborn_berger, x.player),
    )
