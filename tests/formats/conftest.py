from __future__ import annotations

from typing import Any

from ledger.clubs.models import Competition, Membership, Player
from ledger.formats import services


def make_competition(club: Any, fmt: str, game: str = "punti", slug: str = "") -> Competition:
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
