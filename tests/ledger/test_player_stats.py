"""A player's statistics page per game: games, wins, average place and points, best and
worst, season by season, the game's own figures declared in its package (Tarocco's hands
as soloist), and the points drawn over time."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.core import registry
from ledger.clubs.models import Club, Competition, Season
from ledger.clubs.projections.playerstats import games_played, player_numbers
from ledger.clubs.results import services
from tests.conftest import People

pytestmark = pytest.mark.django_db


def _hand(people: People, table: Any, declarer: int, points: int) -> None:
    services.record_result(
        user=people.users["organiser"],
        table=table,
        source="summary",
        record={"outcome": "solo", "dealer": 3, "declarer": declarer, "card_points": points},
    )


def test_a_tarocco_player_sees_their_numbers_and_solos_by_season(
    people: People, club: Club
) -> None:
    seasons = [
        Season.objects.create(
            club=club, name=str(y), starts_on=date(y, 1, 1), ends_on=date(y, 12, 31)
        )
        for y in (2025, 2026)
    ]
    tables = []
    for season in seasons:
        competition = Competition.objects.create(
            club=club,
            name=f"Tarocco {season.name}",
            slug=f"t{season.name}",
            game="tarocco",
            season=season,
        )
        tables.append(
            services.create_table(
                user=people.users["organiser"],
                competition=competition,
                label="T1",
                players=people.extra[:4],
            )
        )
    # Giocatore 0 sits at seat 0. 2025: solo with 70 (+45, made), solo with 50 (-15, lost);
    # 2026: another plays solo with 61 (Giocatore 0 a defender: 109 - 61 - 54 = -6).
    _hand(people, tables[0], 0, 70)
    _hand(people, tables[0], 0, 50)
    _hand(people, tables[1], 1, 61)
    me = people.extra[0]
    assert games_played(club, me) == ["tarocco"]
    numbers = player_numbers(club, me, "tarocco")
    overall = numbers.overall
    assert (overall.games, overall.wins) == (3, 1)
    assert overall.points == Decimal(45 - 15 - 6)
    assert overall.average_points == Decimal("8.00")
    assert overall.best is not None and overall.best.points == 45
    assert overall.worst is not None and overall.worst.points == -15
    assert [line.label for line in numbers.seasons] == ["2025", "2026"]
    assert [line.games for line in numbers.seasons] == [2, 1]
    solos = dict(numbers.figure_rows())
    assert solos["Mani da solista"] == ["2", "2", "0"]
    assert solos["Soli riusciti"] == ["50%", "50%", "—"]
    assert solos["Punti carta medi da solista"] == ["60.0", "60.0", "—"]

    client = Client(HTTP_ACCEPT_LANGUAGE="it")
    page = client.get(reverse("player", args=[club.slug, me.pk]))
    stats = reverse("player-stats", args=[club.slug, me.pk, "tarocco"])
    assert stats in page.content.decode()
    body = client.get(stats).content.decode()
    assert "Mani da solista" in body and 'id="points-chart"' in body
    assert "<polyline" in body and "Tarocco 2025" in body


def test_every_game_declares_figures_it_can_read() -> None:
    for slug in registry.installed():
        engine = registry.get(slug)
        keys = {f.key for f in engine.figures}
        for figure in engine.figures:
            assert figure.kind in ("total", "ratio", "percent")
            assert figure.kind == "total" or figure.of in keys
            assert figure.label.it and figure.label.en
        assert set(engine.player_figures({"detail": {}}, 0)) <= keys


@pytest.mark.parametrize(
    ("game", "expected"),
    [
        ("cardchess", {"gold": 3, "sfide": 5, "sfide_won": 3, "sfide_won_share": 3}),
        (
            "ergio",
            {"scontri": 6, "scontri_won": 3, "scontri_won_share": 3, "bella": 1, "bella_won": 1},
        ),
        ("ponte", {"challenges": 6, "challenges_won": 4, "challenges_won_share": 4}),
        ("sanmarco", {"prestige": 55 + 66, "colours": 2}),
    ],
)
def test_each_game_reads_its_own_figures_from_a_result(
    game: str, expected: dict[str, float]
) -> None:
    engine = registry.get(game)
    outcome = engine.score(dict(engine.summary_examples[0])).outcome.to_json()
    assert engine.player_figures(outcome, 0) == expected


def test_the_player_page_sums_up_their_last_night(people: People, club: Club) -> None:
    from ledger.clubs.models import Round
    from ledger.clubs.projections.playerstats import last_night

    competition = Competition.objects.create(club=club, name="Serate", slug="s", game="tarocco")
    first, second = (
        Round.objects.create(competition=competition, number=n, played_on=date(2026, 11, n))
        for n in (1, 2)
    )
    organiser = people.users["organiser"]
    early = services.create_table(
        user=organiser, competition=competition, label="A", players=people.extra[:4], round=first
    )
    _hand(people, early, 0, 70)
    tables = [
        services.create_table(
            user=organiser,
            competition=competition,
            label=label,
            players=people.extra[i : i + 4]
            if i == 0
            else [*people.extra[4:6], *list(people.players.values())[:2]],
            round=second,
        )
        for i, label in ((0, "B"), (4, "C"))
    ]
    # Round 2: at B Giocatore 1 (seat 1) plays solo with 61: +18, the others -6; at C the
    # first seat plays solo with 80: +75, the others -25. Giocatore 0 has -6: behind +75 and
    # +18, level with three others, ahead of three at -25: third of eight.
    _hand(people, tables[0], 1, 61)
    _hand(people, tables[1], 0, 80)
    night = last_night(club, people.extra[0])
    assert night is not None
    assert (night.round.number, night.place, night.field, night.points) == (2, 3, 8, -6)
    assert night.rating_change is not None and night.rating_change < 0
    page = Client(HTTP_ACCEPT_LANGUAGE="it").get(
        reverse("player", args=[club.slug, people.extra[0].pk])
    )
    summary = page.content.decode()
    assert 'id="last-night-summary"' in summary and "3° di 8, -6" in summary
    english = Client(HTTP_ACCEPT_LANGUAGE="en").get(
        reverse("player", args=[club.slug, people.extra[0].pk])
    )
    assert "place 3 of 8, -6" in english.content.decode()


def test_cardchess_counts_the_reami_a_player_formed_only_from_a_full_record() -> None:
    engine = registry.get("cardchess")
    played = {
        "detail": {
            "gold": [1, 1],
            "sfide": [{"gold": 0, "reami": [1, 0]}, {"gold": 1, "reami": [2, 1]}],
        }
    }
    assert engine.player_figures(played, 0)["reami"] == 3
    assert engine.player_figures(played, 1)["reami"] == 1
    summary_only = {"detail": {"gold": [1, 1], "sfide": [{"gold": 0}, {"gold": 1}]}}
    assert "reami" not in engine.player_figures(summary_only, 0)
