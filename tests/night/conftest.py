from __future__ import annotations

from typing import Any

import pytest

from ledger.clubs.models import Competition, Membership, Player
from ledger.formats import services


@pytest.fixture
def manual_cardchess(monkeypatch: pytest.MonkeyPatch) -> None:
    """3D cardChess scored from per-seat points (tables of 2 to 4), so tests type any hand."""
    from games.core import registry

    with_engine = registry.available()
    monkeypatch.setattr(
        registry, "available", lambda: tuple(g for g in with_engine if g != "cardchess")
    )


def night_competition(club: Any, slug: str = "serata") -> Competition:
    return Competition.objects.create(
        club=club, name="Serata di torneo", slug=slug, game="cardchess", format="league"
    )


def enter(people: Any, competition: Competition, n: int) -> list[Player]:
    players = list(people.extra)
    i = len(players)
    while len(players) < n:
        p = Player.objects.create(name=f"Socio {i}")
        Membership.objects.create(club=competition.club, player=p)
        players.append(p)
        i += 1
    players = players[:n]
    for p in players:
        services.enter_player(user=people.users["organiser"], competition=competition, player=p)
    services.update_settings(
        user=people.users["organiser"], competition=competition, seats_per_table=4
    )
    return players
