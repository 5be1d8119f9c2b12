"""A player's numbers at one game in one club, season by season: games, wins, average
place and points, best and worst results, and the figures the game declares of its own
(``Game.figures``, read from each result's Outcome by ``Game.player_figures``). Read from
the accepted results and their verdicts; nothing here is stored."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import Any

from games.core import registry
from games.core.declare import Figure
from ledger.clubs.games import engine_available, reader_language
from ledger.clubs.models import (
    Club,
    Competition,
    Player,
    RatingChange,
    Result,
    Round,
    RoundTotal,
    Seat,
)
from ledger.clubs.outcomes import engine_winners
from ledger.clubs.ratings import MODEL


@dataclass
class Played:
    """One accepted result of the player's."""

    result: int
    competition: str
    competition_slug: str
    season: str
    at: datetime
    points: Decimal
    place: int | None
    won: bool
    figures: dict[str, float]


@dataclass
class Line:
    """The numbers of a stretch of games (a season, or all of them)."""

    label: str
    games: int = 0
    wins: int = 0
    points: Decimal = Decimal(0)
    place_sum: int = 0
    placed: int = 0
    best: Played | None = None
    worst: Played | None = None
    sums: dict[str, float] = field(default_factory=dict)

    def add(self, game: Played) -> None:
        self.games += 1
        self.wins += 1 if game.won else 0
        self.points += game.points
        if game.place is not None:
            self.place_sum += game.place
            self.placed += 1
        if self.best is None or game.points > self.best.points:
            self.best = game
        if self.worst is None or game.points < self.worst.points:
            self.worst = game
        for key, value in game.figures.items():
            self.sums[key] = self.sums.get(key, 0.0) + value

    @property
    def average_points(self) -> Decimal:
        return (self.points / self.games).quantize(Decimal("0.01")) if self.games else Decimal(0)

    @property
    def average_place(self) -> Decimal | None:
        if not self.placed:
            return None
        return (Decimal(self.place_sum) / self.placed).quantize(Decimal("0.01"))

    @property
    def win_percent(self) -> int:
        return round(100 * self.wins / self.games) if self.games else 0

    def figure(self, figure: Figure) -> str:
        """The figure as the page shows it: a count, a ratio to one decimal, a percentage."""
        total = self.sums.get(figure.key, 0.0)
        if figure.kind == "total":
            return f"{total:g}"
        base = self.sums.get(figure.of, 0.0)
        if not base:
            return "—"
        if figure.kind == "percent":
            return f"{round(100 * total / base)}%"
        return f"{total / base:.1f}"


@dataclass
class Numbers:
    game: str
    figures: list[tuple[str, Figure]]
    overall: Line
    seasons: list[Line]
    games: list[Played]

    def figure_rows(self) -> list[tuple[str, list[str]]]:
        """Each figure of the game's own: its name, then its value overall and per season."""
        return [
            (label, [self.overall.figure(f), *[s.figure(f) for s in self.seasons]])
            for label, f in self.figures
        ]


def games_played(club: Club, player: Player) -> list[str]:
    """The games the player has accepted results at in this club."""
    slugs = (
        Result.objects.filter(club=club, status=Result.Status.ACCEPTED, table__seats__player=player)
        .values_list("competition__game", flat=True)
        .distinct()
    )
    return sorted(s for s in set(slugs) if engine_available(s))


def player_numbers(club: Club, player: Player, game: str, no_season: str = "") -> Numbers:
    """The player's numbers at ``game``; ``no_season`` names the competitions in no season."""
    engine: Any = registry.get(game) if engine_available(game) else None
    seat_of = dict(
        Seat.objects.filter(
            player=player, table__competition__club=club, table__competition__game=game
        ).values_list("table_id", "index")
    )
    results = (
        Result.objects.filter(table_id__in=seat_of.keys(), status=Result.Status.ACCEPTED)
        .select_related("competition__season")
        .order_by("entered_at", "pk")
    )
    played: list[Played] = []
    for result in results:
        seat = seat_of[result.table_id]
        scores = result.scores or []
        if seat >= len(scores):
            continue
        outcome = (result.verdict or {}).get("outcome") if result.verdict else None
        places = outcome.get("places") if isinstance(outcome, dict) else None
        winners = engine_winners(result.verdict, len(scores))
        if winners is None:  # plain points with no Outcome: the highest score won
            top = max(Decimal(str(s)) for s in scores)
            winners = {i for i, s in enumerate(scores) if Decimal(str(s)) == top}
        figures = (
            engine.player_figures(outcome, seat)
            if engine is not None and isinstance(outcome, dict)
            else {}
        )
        season = result.competition.season
        played.append(
            Played(
                result=result.pk,
                competition=result.competition.name,
                competition_slug=result.competition.slug,
                season=season.name if season is not None else no_season,
                at=result.entered_at,
                points=Decimal(str(scores[seat])),
                place=places[seat] if isinstance(places, list) and seat < len(places) else None,
                won=seat in winners and len(winners) < len(scores),
                figures=figures,
            )
        )
    overall = Line("")
    by_season: dict[str, Line] = {}
    for game_played in played:
        overall.add(game_played)
        by_season.setdefault(game_played.season, Line(game_played.season)).add(game_played)
    language = reader_language()
    declared = engine.figures if engine is not None else ()
    return Numbers(
        game=game,
        figures=[(f.label.get(language), f) for f in declared],
        overall=overall,
        seasons=sorted(by_season.values(), key=lambda line: line.label),
        games=played,
    )


@dataclass
class Night:
    """The player's latest round played (a night): their place among those who played it,
    their points, and how their rating moved over its results."""

    competition: Competition
    round: Round
    place: int
    field: int
    points: Decimal
    rating_change: float | None


def last_night(club: Club, player: Player) -> Night | None:
    mine = (
        RoundTotal.objects.filter(
            competition__club=club, player=player, played__gt=0, round_key__gt=0
        )
        .select_related("competition")
        .order_by("-round_key")
        .first()
    )
    if mine is None:
        return None
    the_round = Round.objects.filter(pk=mine.round_key).first()
    if the_round is None:
        return None
    everyone = RoundTotal.objects.filter(
        competition=mine.competition, round_key=mine.round_key, played__gt=0
    )
    ahead = everyone.filter(points__gt=mine.points).count()
    changes = list(
        RatingChange.objects.filter(
            club=club,
            player=player,
            game=mine.competition.game,
            result__table__round_id=mine.round_key,
        ).order_by("at", "id")
    )
    delta = None
    if changes:
        before = (
            RatingChange.objects.filter(
                club=club, player=player, game=mine.competition.game, at__lt=changes[0].at
            )
            .order_by("-at", "-id")
            .first()
        )
        start = before.mu if before is not None else MODEL.mu
        delta = round(changes[-1].mu - start, 1)
    return Night(
        competition=mine.competition,
        round=the_round,
        place=ahead + 1,
        field=everyone.count(),
        points=mine.points,
        rating_change=delta,
    )
