from __future__ import annotations

from typing import Any

from ledger.clubs.models import Competition, Membership, Player
from ledger.formats import services


def night_competition(club: Any, slug: str = "serata") -> Competition:
    return Competition.objects.create(
        club=club, name="Serata di torneo", slug=slug, game="punti", format="league"
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
    # A night's tables play several hands each (the table refuses one more than this).
    services.update_settings(
        user=people.users["organiser"],
        competition=competition,
        seats_per_table=4,
        hands_per_table=8,
    )
    return players
