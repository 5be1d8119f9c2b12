from __future__ import annotations

from typing import Any

import pytest

from ledger.clubs.models import Competition, Membership, Player
from ledger.formats import services


@pytest.fixture
def no_sanmarco_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """San Marco scored from per-seat points, so tests can type any result."""
    from games.core import registry

    with_engine = registry.available()
    monkeypatch.setattr(
        registry, "available", lambda: tuple(g for g in with_engine if g != "sanmarco")
    )


def make_competition(club: Any, fmt: str, game: str = "sanmarco", slug: str = "") -> Competition:
    return Competition.objects.create(
        club=club, name=f"{fmt} {game}", slug=slug or f"{fmt}-{game}", game=game, format=fmt
    )


def enter(people: Any, competition: Competition, n: int) -> list[Player]:
    """Enter n players (the people's extras first, then new members)."""
    players = list(people.extra)
    i = len(players)
    while len(players) < n:
        p = Player.objects.create(name=f"Socio {i}")
        Membership.objects.create(club=competition.club, player=p)
        players.append(p)
        i += 1
    players = players[:n]
    for k, p in enumerate(players):
        services.enter_player(
            user=people.users["organiser"], competition=competition, player=p, rating=2000 - k
        )
    return players
