"""A season of six league nights of Punti with results worked out by hand, shared by the
season's tests (the browser's seeds the same nights)."""

from __future__ import annotations

import datetime
from typing import Any

from ledger.clubs.models import Club, Competition, Membership, Player, Result, Round, Season
from ledger.clubs.results import services

NAMES = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio")
# Each night's points per player, in NAMES' order (None: did not play). One table a night;
# the most points take the first place.
NIGHTS: list[tuple[int | None, ...]] = [
    (60, 50, 40, 30, 20, 10),  # A1 B2 C3 D4 E5 F6
    (50, 60, 30, 40, 10, 20),  # B1 A2 D3 C4 F5 E6
    (40, 30, 60, 50, 20, None),  # C1 D2 A3 B4 E5, Fabio away
    (30, 40, 50, 60, 10, 20),  # D1 C2 B3 A4 F5 E6
    (60, 50, 40, 30, 20, 10),  # A1 B2 C3 D4 E5 F6
    (40, 30, 20, 10, 60, 50),  # E1 F2 A3 B4 C5 D6
]


def make_season(club: Club, user: Any, game: str = "punti") -> tuple[Season, list[Result]]:
    """The season, its six nights each a league competition with one table, and each night's
    result (confirmed at once: the competitions need no confirmation)."""
    season = Season.objects.create(
        club=club,
        name="Campionato sociale 2026",
        starts_on=datetime.date(2026, 1, 8),
        ends_on=datetime.date(2026, 6, 30),
    )
    players = []
    for name in NAMES:
        player = Player.objects.create(name=name)
        Membership.objects.create(club=club, player=player)
        players.append(player)
    results = []
    for n, points in enumerate(NIGHTS, start=1):
        night = Competition.objects.create(
            club=club,
            name=f"Serata {n}",
            slug=f"serata-{n}",
            game=game,
            format="league",
            season=season,
        )
        rnd = Round.objects.create(
            competition=night,
            number=1,
            played_on=datetime.date(2026, 1, 1) + datetime.timedelta(weeks=n),
        )
        seated = [(p, s) for p, s in zip(players, points, strict=True) if s is not None]
        table = services.create_table(
            user=user,
            competition=night,
            label="Tavolo 1",
            players=[p for p, _s in seated],
            round=rnd,
        )
        result, _created = services.record_result(
            user=user, table=table, source="manual", scores=[s for _p, s in seated]
        )
        results.append(result)
    return season, results
