"""Wins, draws and losses in the standings, and the competition's points and ranking order."""

from __future__ import annotations

from decimal import Decimal

from ledger.clubs.models import Competition, Standing
from ledger.clubs.outcomes import DRAW, LOSS, WIN, outcomes, settings_for
from ledger.clubs.projections.standings import standings
from ledger.clubs.results import services
from tests.ledger.helpers import record


def test_the_highest_score_wins_and_everyone_level_is_a_draw():
    assert outcomes(["3", "1"], None) == [WIN, LOSS]
    assert outcomes(["2", "2"], None) == [DRAW, DRAW]
    assert outcomes(["18", "-6", "-6", "-6"], None) == [WIN, LOSS, LOSS, LOSS]
    # A pair that wins: both partners share the top score.
    assert outcomes(["6", "-6", "6", "-6"], None) == [WIN, LOSS, WIN, LOSS]


def test_the_engines_winners_decide_a_match_level_on_points():
    # Er Giò at 3-3 goes to the Bella Nazionale: the engine's Outcome names the winners.
    verdict = {"game": "ergio", "outcome": {"scores": [3, 3], "winners": [1], "places": [2, 1]}}
    assert outcomes(["3", "3"], verdict) == [LOSS, WIN]
    four = {"outcome": {"scores": [3, 3, 3, 3], "winners": [1, 3], "places": [2, 1, 2, 1]}}
    assert outcomes(["3", "3", "3", "3"], four) == [LOSS, WIN, LOSS, WIN]
    # Nobody won: a draw for all, whatever the points.
    assert outcomes(["1", "0"], {"outcome": {"winners": [], "places": [1, 1]}}) == [DRAW, DRAW]


def test_a_summarys_own_guess_of_the_winner_is_not_read():
    # Only the Outcome counts: a side written in the game's own facts decides nothing.
    verdict = {"result": {"scores": [3, 1], "winner": "mezzogiorno"}}
    assert outcomes(["3", "1"], verdict) == [WIN, LOSS]


def test_standings_count_wins_draws_and_losses(people, manual_table):
    record(people, manual_table, [5, 1])
    record(people, manual_table, [2, 2])
    record(people, manual_table, [0, 4])
    first, second = people.extra[:2]
    rows = {r.player_id: r for r in standings(manual_table.competition)}
    assert (rows[first.pk].wins, rows[first.pk].draws, rows[first.pk].losses) == (1, 1, 1)
    assert (rows[second.pk].wins, rows[second.pk].draws, rows[second.pk].losses) == (1, 1, 1)


def test_a_correction_moves_the_win_to_the_new_winner(people, manual_table):
    result = record(people, manual_table, [5, 1])
    services.supersede_result(
        user=people.users["referee"], result=result, source="manual", scores=[1, 5], reason="swap"
    )
    first, second = people.extra[:2]
    row = Standing.objects.get(competition=manual_table.competition, player=first)
    assert (row.wins, row.losses, row.played) == (0, 1, 1)
    row = Standing.objects.get(competition=manual_table.competition, player=second)
    assert (row.wins, row.losses, row.played) == (1, 0, 1)


def test_match_points_and_the_order_are_the_competitions_settings(people, manual_competition):
    a, b, c = people.extra[:3]
    organiser = people.users["organiser"]
    t1 = services.create_table(
        user=organiser, competition=manual_competition, label="1", players=[a, b]
    )
    t2 = services.create_table(
        user=organiser, competition=manual_competition, label="2", players=[b, c]
    )
    record(people, t1, [1, 0])  # a beats b narrowly
    record(people, t2, [10, 0])  # b crushes c
    record(people, t1, [1, 0])  # a beats b again
    by_points = [r.player_id for r in standings(manual_competition)]
    assert by_points[0] == b.pk  # San Marco ranks by points first: b has 10, a has 2
    services.update_standings_settings(
        user=organiser,
        competition=manual_competition,
        settings={"win": "3", "draw": "1", "loss": "0", "order": ["match_points", "points"]},
    )
    manual_competition.refresh_from_db()
    rows = standings(manual_competition)
    assert [r.player_id for r in rows][:2] == [a.pk, b.pk]
    assert rows[0].match_points == Decimal(6) and rows[1].match_points == Decimal(3)


def test_players_level_on_every_key_share_the_place(people, manual_competition):
    a, b, c, d = people.extra[:4]
    organiser = people.users["organiser"]
    t1 = services.create_table(
        user=organiser, competition=manual_competition, label="1", players=[a, b]
    )
    t2 = services.create_table(
        user=organiser, competition=manual_competition, label="2", players=[c, d]
    )
    record(people, t1, [3, 1])
    record(people, t2, [3, 1])
    ranks = {r.player_id: r.rank for r in standings(manual_competition)}
    assert ranks == {a.pk: 1, c.pk: 1, b.pk: 3, d.pk: 3}


def test_each_game_has_defaults_that_suit_it():
    assert settings_for("tarocco", None).order[0] == "points"
    assert settings_for("ergio", None).order[0] == "match_points"
    assert settings_for("ponte", None).win == Decimal(2)
    chosen = settings_for("ergio", {"win": "3"})
    assert chosen.win == Decimal(3) and chosen.draw == Decimal(1)


def test_bad_settings_say_what_to_fix_and_change_nothing(people, manual_competition):
    api = people.client("organiser")
    url = f"/api/v1/competitions/{manual_competition.pk}/standings-settings/"
    response = api.put(url, {"order": ["points", "bogus"]}, format="json")
    assert response.status_code == 400
    assert "order" in response.json()["error"]["fields"]
    response = api.put(url, {"win": "lots"}, format="json")
    assert response.status_code == 400 and "win" in response.json()["error"]["fields"]
    manual_competition.refresh_from_db()
    assert manual_competition.standings_settings == {}


def test_organisers_set_the_standings_settings_through_the_api(people, manual_competition):
    url = f"/api/v1/competitions/{manual_competition.pk}/standings-settings/"
    denied = people.client("scorekeeper").put(url, {"win": "3"}, format="json")
    assert denied.status_code == 403
    api = people.client("organiser")
    response = api.put(url, {"win": "3", "order": ["wins", "points"]}, format="json")
    assert response.status_code == 200
    assert response.json() == {"win": "3", "draw": "0.5", "loss": "0", "order": ["wins", "points"]}
    assert people.client(None).get(url).json()["order"] == ["wins", "points"]
    standings_json = people.client(None).get(
        f"/api/v1/competitions/{manual_competition.pk}/standings/"
    )
    assert standings_json.status_code == 200


def test_the_settings_page_saves_and_the_table_follows(client, people, manual_table):
    record(people, manual_table, [5, 1])
    client.force_login(people.users["organiser"])
    page = client.get("/c/prova/coppa/standings/settings/")
    assert page.status_code == 200 and 'id="standings-settings"' in page.content.decode()
    response = client.post(
        "/c/prova/coppa/standings/settings/",
        {"win": "3", "draw": "1", "loss": "0", "order": ["match_points", "points", ""]},
    )
    assert response.status_code == 302
    competition = Competition.objects.get(pk=manual_table.competition_id)
    assert competition.standings_settings["order"] == ["match_points", "points"]
    shown = client.get("/c/prova/coppa/").content.decode()
    assert 'id="ranking-rule"' in shown and ">3<" in shown  # the winner's match points
    response = client.post("/c/prova/coppa/standings/settings/", {"reset": "1"})
    competition.refresh_from_db()
    assert competition.standings_settings == {}


def test_the_settings_page_is_for_organisers_only(client, people, manual_competition):
    client.force_login(people.users["scorekeeper"])
    response = client.post("/c/prova/coppa/standings/settings/", {"win": "9"})
    assert response.status_code == 302
    manual_competition.refresh_from_db()
    assert manual_competition.standings_settings == {}
