"""Swiss scores and tiebreaks: Buchholz, median Buchholz, Sonneborn-Berger.

Everything is counted on the competition's one points scale (``Scale``: a win, a draw and
a loss, 1/½/0 unless the competition says otherwise), the same the standings and the
pairing use; a bye is worth what the competition gives for it.

A bye, and each side of a game decided by a forfeit, is scored against a *virtual
opponent* (FIDE's rule for unplayed games, the one lichess adopted in its issue 13694): who
starts the round with the player's own score, takes the other side of the bye's result, and
draws every later round:
    Svon = score before the round + (win + loss - bye) + draw * (rounds played - round)
(with 1/½/0: before + (1 - bye) + 0.5 * (rounds - round)). For Sonneborn-Berger the bye
is a result worth (bye - loss) / (win - loss) of a win against that virtual opponent.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Scale:
    win: float = 1.0
    draw: float = 0.5
    loss: float = 0.0

    def share(self, points: float) -> float:
        """What part of a win these points are (1 a win, ½ a draw with 1/½/0, 0 a loss)."""
        return (points - self.loss) / (self.win - self.loss) if self.win != self.loss else 0.0

    def result(self, fraction: float) -> float:
        """Points for a game result given as 1, 0.5 or 0."""
        return self.win if fraction == 1 else self.loss if fraction == 0 else self.draw


CHESS = Scale()


@dataclass
class Game:
    round: int
    a: int
    b: int | None  # None: a bye for a
    score_a: float  # points for a on the scale (the bye's points for a bye)
    score_b: float = 0.0
    # Decided by a forfeit: the points stand, but neither met the other (each is scored
    # against a virtual opponent, as for a bye).
    forfeit: bool = False


@dataclass
class Line:
    player: int
    score: float = 0.0
    buchholz: float = 0.0
    median_buchholz: float = 0.0
    sonneborn_berger: float = 0.0
    played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    forfeit_wins: int = 0
    forfeit_losses: int = 0
    opponents: list[int] = field(default_factory=list)


def table(
    games: Iterable[Game], players: Iterable[int], rounds: int, scale: Scale = CHESS
) -> dict[int, Line]:
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

    def unplayed(player: int, points: float, rnd: int) -> None:
        other_side = min(max(scale.win + scale.loss - points, scale.loss), scale.win)
        virtual = before[(player, rnd)] + other_side + scale.draw * (played_rounds - rnd)
        contributions[player].append(virtual)
        sb[player] += scale.share(points) * virtual

    for g in games:
        if g.b is None:
            unplayed(g.a, g.score_a, g.round)
            lines[g.a].byes += 1
            continue
        if g.forfeit:
            for me, mine in ((g.a, g.score_a), (g.b, g.score_b)):
                unplayed(me, mine, g.round)
                if mine > scale.loss:
                    lines[me].forfeit_wins += 1
                else:
                    lines[me].forfeit_losses += 1
            continue
        for me, other, mine in ((g.a, g.b, g.score_a), (g.b, g.a, g.score_b)):
            line = lines[me]
            contributions[me].append(running[other])
            line.opponents.append(other)
            line.played += 1
            sb[me] += scale.share(mine) * running[other]
            if mine == scale.win:
                line.wins += 1
            elif mine == scale.loss:
                line.losses += 1
            else:
                line.draws += 1
    for p, line in lines.items():
        c = sorted(contributions[p])
        line.buchholz = sum(c)
        line.median_buchholz = sum(c[1:-1]) if len(c) > 2 else 0.0
        line.sonneborn_berger = sb[p]
    return lines


def ranked(lines: dict[int, Line]) -> list[Line]:
    """Best first; lines equal on every criterion keep the order of their ids (``places``
    gives them one shared place)."""
    return sorted(lines.values(), key=lambda x: (tuple(-v for v in _criteria(x)), x.player))


def _criteria(line: Line) -> tuple[float, ...]:
    # Rounded: sums of halves and thirds of floats compare equal when they are.
    return tuple(
        round(v, 9)
        for v in (line.score, line.buchholz, line.median_buchholz, line.sonneborn_berger)
    )


def places(lines: list[Line]) -> list[int]:
    """The place of each line of ``ranked``'s order: lines equal on every criterion (points,
    Buchholz, median Buchholz, Sonneborn-Berger) share it, and the next place counts them
    all (1, 2, 2, 4)."""
    out: list[int] = []
    previous: tuple[float, ...] | None = None
    for i, line in enumerate(lines):
        criteria = _criteria(line)
        out.append(out[-1] if out and criteria == previous else i + 1)
        previous = criteria
    return out
