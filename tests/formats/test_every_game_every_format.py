"""Conformance: every game the registry lists, in every competition format, counts the
winner its engine's Outcome names, in every projection people read.

Each game plays a summary typed through its engine's real ``score()``, chosen so that only
the Outcome knows who won where the game allows it (points level between the winner and a
loser: an Er Giò match at 3-3 decided by the Bella Nazionale, a cardChess game won on the
deciding sfida, a San Marco tie-break); a game that never leaves the points level plays a
result somebody won. Then the format's table (``standings_for``, its API and the CSV), the
Swiss's tiebreaks and the score groups of its next draw, the knockout's bracket and the
next round it draws, and the round page must all name that winner."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.test import Client

from games.core import registry
from ledger.clubs.models import Competition, Table
from ledger.clubs.results import services as core
from ledger.formats import selectors, services
from tests.formats.conftest import enter
from tests.formats.level_results import Typed, decided

pytestmark = pytest.mark.django_db

GAMES = sorted(registry.available())
FORMATS = [value for value, _label in Competition.Format.choices]


def _seats_for(game: str, fmt: str) -> int | None:
    """The table the format seats for this game (None: the game cannot be played so):
    two for a round robin and knockout, and for a Swiss where the game allows (Tarocco's
    Swiss seats its usual table); a team event's two sides of one player, or
    of two where the game has sides and a table of four; a league at the game's table where
    a result can be level on points, else its usual table."""
    info = registry.get(game).info
    counts = info.seat_counts
    usual = 4 if game == "tarocco" and 4 in counts else min(counts)
    if fmt == "swiss":  # Tarocco's Swiss seats tables of four by points
        return 2 if 2 in counts else usual
    if fmt in ("round_robin", "knockout"):
        return 2 if 2 in counts else None
    if fmt == "team":
        # Teams of two where the engine's Outcome puts a table of four on two sides by the
        # seats' parity (as the team event seats them), else teams of one at a table of two.
        four = decided(game, 4) if 4 in counts else None
        if four is not None and four.sides == (0, 1, 0, 1):
            return 4
        return 2 if 2 in counts else None
    for seats in counts:
        found = decided(game, seats)
        if found is not None and found.level:
            return seats
    return usual


def _competition(club: Any, people: Any, game: str, fmt: str, seats: int, typed: Typed) -> Any:
    comp = Competition.objects.create(
        club=club,
        name=f"{game} {fmt}",
        slug=f"{game}-{fmt}".replace("_", "-"),
        game=game,
        format=fmt,
        ruleset={"name": typed.ruleset},
    )
    organiser = people.users["organiser"]
    if fmt == "team":
        size = seats // 2
        players = enter(people, comp, 4 * size)
        for t in range(4):
            services.create_team(
                user=organiser,
                competition=comp,
                name=f"Squadra {t + 1}",
                members=players[t * size : (t + 1) * size],
            )
    else:
        enter(people, comp, 4 if seats == 2 else 2 * seats)
    if fmt == "league":
        services.update_settings(user=organiser, competition=comp, seats_per_table=seats)
    return comp


def _play(people: Any, comp: Any, typed: Typed) -> dict[int, str]:
    """Draw, publish and record the typed result at every table; each seated player's
    result by the Outcome: ``win`` or ``loss``."""
    draw = services.generate_round(user=people.users["organiser"], competition=comp)
    services.publish_draw(user=people.users["organiser"], draw=draw)
    expected: dict[int, str] = {}
    for table in Table.objects.filter(round=draw.round).prefetch_related("seats"):
        result, _created = core.record_result(
            user=people.users["scorekeeper"], table=table, source="summary", record=typed.summary
        )
        assert tuple(result.verdict["outcome"]["winners"]) == typed.winners
        # At a table of two sides (a team event's), a side wins with its seats.
        won = {w % 2 for w in typed.winners} if comp.format == "team" else None
        for seat in table.seats.all():
            wins = seat.index % 2 in won if won is not None else seat.index in typed.winners
            expected[seat.player_id] = "win" if wins else "loss"
    return expected


def _wins(row: dict[str, Any]) -> tuple[int, int]:
    return int(row["wins"]), int(row["losses"])


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("game", GAMES)
def test_every_format_counts_the_outcomes_winner(
    club: Any, people: Any, game: str, fmt: str
) -> None:
    seats = _seats_for(game, fmt)
    if seats is None:
        pytest.skip(f"{game} has no table of two (nor two sides at four): no {fmt}")
    typed = decided(game, seats)
    assert typed is not None, f"{game}: no decided result at {seats} seats"
    comp = _competition(club, people, game, fmt, seats, typed)
    expected = _play(people, comp, typed)
    two_sided = seats == 2 or fmt == "team"
    if fmt == "team":  # a team is ranked as its first member, who sits at its first seat
        leads = {min(m.pk for m in t.members.all()) for t in comp.teams.all()}
        expected = {p: r for p, r in expected.items() if p in leads}
    won = {p for p, r in expected.items() if r == "win"}
    lost = set(expected) - won
    assert won and lost

    # The round page: who won each table.
    view = selectors.round_view(comp, 1)
    assert view is not None
    for table in view["tables"]:
        names = [s["name"] for s in table["seats"]]
        winners = [names[i] for i in typed.winners]
        if two_sided:
            side = typed.winners[0] % 2
            winners = [n for i, n in enumerate(names) if i % 2 == side]
        assert table["winners"] == winners, (typed.scores, typed.winners)

    # The format's own table, its API and its CSV.
    rows = {r["player"]: r for r in selectors.standings_for(comp)}
    api = people.client(None).get(f"/api/v1/formats/competitions/{comp.pk}/standings/").json()
    assert [(r["player"], r["place"]) for r in api["rows"]] == [
        (r["player"], r["place"]) for r in selectors.standings_for(comp)
    ]
    body = Client().get(f"/c/{club.slug}/{comp.slug}/standings.csv").content.decode()
    lines = {int(r["player_id"]): r for r in csv.DictReader(io.StringIO(body))}
    best = min(rows[p]["place"] for p in won)
    worst = max(rows[p]["place"] for p in won)
    assert worst < min(rows[p]["place"] for p in lost) or not lost, rows
    if fmt == "knockout":
        for p in won:
            assert (rows[p]["out"], lines[p]["out"]) == (False, "no")
        for p in lost:
            assert (rows[p]["out"], lines[p]["out"]) == (True, "yes")
        for stage in selectors.bracket_view(comp)[:1]:
            for cell in stage["matches"]:
                for side in cell["sides"]:
                    assert side["won"] == (side["player"] in won)
        second = services.generate_round(user=people.users["organiser"], competition=comp)
        assert {p for t in second.tables for p in t["players"]} == won
        return
    for p, r in expected.items():
        assert _wins(rows[p]) == ((1, 0) if r == "win" else (0, 1)), (p, rows[p])
        assert (lines[p]["wins"], lines[p]["losses"]) == (("1", "0") if r == "win" else ("0", "1"))
    assert best == 1
    if selectors.has_swiss_table(comp):
        scale, _bye = selectors.swiss_scale(comp)
        tiebreaks = (
            people.client(None).get(f"/api/v1/formats/competitions/{comp.pk}/tiebreaks/").json()
        )
        scores = {r["player"]: r["score"] for r in tiebreaks}
        for p, r in expected.items():
            assert scores[p] == (scale.win if r == "win" else scale.loss)
        # The next draw's score groups: winners meet winners, losers meet losers.
        second = services.generate_round(user=people.users["organiser"], competition=comp)
        for t in second.tables:
            group = {p for p in t["players"] if p in expected}
            assert group <= won or group <= lost, (t["players"], won)
