"""A Swiss has one table: every entrant, byes included, on one points scale that the
standings, the tiebreak page, the CSV and the pairing share."""

from __future__ import annotations

import csv
import io
import re
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client

from ledger.clubs.models import Table
from ledger.clubs.results import services as core
from ledger.formats import selectors, services
from ledger.formats.pairing import tiebreaks
from ledger.formats.pairing.tiebreaks import Game, Scale
from tests.formats.conftest import enter, make_competition

pytestmark = pytest.mark.django_db


def url(comp: Any, tail: str = "") -> str:
    return f"/c/{comp.club.slug}/{comp.slug}/{tail}"


def play_round(people: Any, comp: Any, scores: tuple[int, int] = (3, 1)) -> Any:
    draw = services.generate_round(user=people.users["organiser"], competition=comp)
    services.publish_draw(user=people.users["organiser"], draw=draw)
    for table in Table.objects.filter(round=draw.round):
        core.record_result(
            user=people.users["scorekeeper"], table=table, source="manual", scores=list(scores)
        )
    return draw


def page_rows(html: str) -> list[tuple[str, str]]:
    """(player name, points) of each row of the Swiss table on a page."""
    table = re.search(r'<table class="grid standings" id="swiss-standings">.*?</table>', html, re.S)
    assert table is not None, "no Swiss table"
    rows = re.findall(r"<tr data-player=\"\d+\">(.*?)</tr>", table.group(0), re.S)
    out = []
    for row in rows:
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        out.append((cells[1], re.sub(r"<.*?>", "", cells[2])))
    return out


def test_the_competition_page_lists_every_entrant_with_the_bye_and_the_tiebreaks(
    club: Any, people: Any, points_game: str
) -> None:
    comp = make_competition(club, "swiss")
    players = enter(people, comp, 7)
    first = play_round(people, comp)
    assert len(first.byes) == 1
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    home = client.get(url(comp)).content.decode()
    rows = page_rows(home)
    assert sorted(name for name, _points in rows) == sorted(p.name for p in players)
    tiebreak_page = page_rows(client.get(url(comp, "tiebreaks/")).content.decode())
    assert rows == tiebreak_page  # one table, the same on both pages
    bye = next(p for p in players if p.pk == first.byes[0])
    assert (bye.name, "1") in rows  # a win's worth on San Marco's 1/½/0
    assert "Buchholz" in home


def test_one_scale_for_standings_tiebreaks_csv_and_pairing(
    club: Any, people: Any, points_game: str
) -> None:
    comp = make_competition(club, "swiss")
    enter(people, comp, 7)
    core.update_standings_settings(
        user=people.users["organiser"],
        competition=comp,
        settings={"win": "2", "draw": "1", "loss": "0", "order": ["match_points", "points"]},
    )
    comp.refresh_from_db()
    services.update_settings(
        user=people.users["organiser"], competition=comp, bye_points=Decimal(1)
    )
    first = play_round(people, comp)
    second = play_round(people, comp, scores=(2, 2))  # every table drawn
    rows = selectors.swiss_standings(comp)
    assert len(rows) == 7
    by_player = {r["player"]: r for r in rows}
    winners = {t["players"][0] for t in first.tables}
    for player, row in by_player.items():
        expected = (2 if player in winners else 0) if player not in first.byes else 1
        expected += 1  # the draw of round 2, or the bye (1) in round 2
        assert row["score"] == expected, row
    # The tiebreaks use the same points: Buchholz is the sum of the opponents' points.
    for row in rows:
        if row["byes"] == 0:
            opponents = [
                p
                for t in first.tables + second.tables
                if row["player"] in t["players"]
                for p in t["players"]
                if p != row["player"]
            ]
            assert row["buchholz"] == sum(by_player[o]["score"] for o in opponents)
    # The CSV has the same rows and points.
    text = Client().get(url(comp, "standings.csv")).content.decode()
    parsed = list(csv.DictReader(io.StringIO(text)))
    assert [(int(r["player_id"]), float(r["points"])) for r in parsed] == [
        (r["player"], r["score"]) for r in rows
    ]
    # The pairing sees the same ranking, counted in wins (2 points a win).
    h = selectors.history(comp)
    scale, bye = selectors.swiss_scale(comp)
    field = services._swiss_players([(p, 0, 0) for p in by_player], h, 3, scale, bye)
    assert {p.id: p.score * 2 for p in field} == {p: r["score"] for p, r in by_player.items()}


def test_an_empty_bye_setting_is_worth_a_win_and_a_number_is_kept(
    club: Any, people: Any, points_game: str
) -> None:
    comp = make_competition(club, "swiss", "ergio")
    assert selectors.swiss_scale(comp) == (Scale(2.0, 1.0, 0.0), 2.0)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(people.users["organiser"])
    client.post(url(comp, "rounds/manage/"), {"action": "settings", "bye_points": "1"})
    assert selectors.swiss_scale(comp)[1] == 1.0
    client.post(url(comp, "rounds/manage/"), {"action": "settings", "bye_points": ""})
    assert selectors.swiss_scale(comp)[1] == 2.0


def test_tiebreaks_on_a_two_point_scale_are_twice_those_on_one_point() -> None:
    results = [
        Game(1, 1, 2, 1, 0),
        Game(1, 3, None, 1),
        Game(2, 1, 3, 0.5, 0.5),
        Game(2, 2, None, 1),
    ]
    one = tiebreaks.table(results, [1, 2, 3], rounds=2)
    doubled = [Game(g.round, g.a, g.b, g.score_a * 2, g.score_b * 2) for g in results]
    two = tiebreaks.table(doubled, [1, 2, 3], rounds=2, scale=Scale(2, 1, 0))
    for p in (1, 2, 3):
        assert two[p].score == 2 * one[p].score
        assert two[p].buchholz == 2 * one[p].buchholz
        assert two[p].sonneborn_berger == 2 * one[p].sonneborn_berger
        assert (two[p].wins, two[p].draws, two[p].losses, two[p].byes) == (
            one[p].wins,
            one[p].draws,
            one[p].losses,
            one[p].byes,
        )


def test_a_penalty_that_stands_moves_the_player_down_for_the_next_pairing_as_in_the_standings(
    club: Any, people: Any, points_game: str
) -> None:
    from ledger.clubs.results.penalties import cancel_penalty, give_penalty

    comp = make_competition(club, "swiss")
    enter(people, comp, 6)
    first = play_round(people, comp)  # the first seat wins every table
    winners = [t["players"][0] for t in first.tables]
    losers = {t["players"][1] for t in first.tables}
    fined = winners[0]
    penalty = give_penalty(
        user=people.users["referee"],
        competition=comp,
        player=comp.entrants.get(player_id=fined).player,
        points="1",  # a win's worth on San Marco's 1/½/0
        reason="slow play",
        round=first.round,
    )
    rows = {r["player"]: r["score"] for r in selectors.swiss_standings(comp)}
    assert rows[fined] == 0
    second = services.generate_round(user=people.users["organiser"], competition=comp)
    pairs = [set(t["players"]) for t in second.tables]
    fined_pair = next(p for p in pairs if fined in p)
    assert fined_pair - {fined} <= losers  # paired among those on 0, as the standings rank
    assert {winners[1], winners[2]} in pairs  # the two still on 1 meet
    # Cancelled, the penalty no longer counts: the winners' group is whole again.
    cancel_penalty(user=people.users["referee"], penalty=penalty, reason="a mistake")
    again = services.generate_round(user=people.users["organiser"], competition=comp)
    partner = next(set(t["players"]) - {fined} for t in again.tables if fined in t["players"])
    assert partner <= set(winners)
