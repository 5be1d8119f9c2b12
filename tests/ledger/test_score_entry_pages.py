"""The score-entry pages: pick or open a table, preview with the engine, record once."""

from __future__ import annotations

import pytest

from games.core import registry
from ledger.clubs.models import Competition, Entry, Result, Table


@pytest.fixture
def logged_in(client, people):
    client.force_login(people.users["scorekeeper"])
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


def test_members_cannot_reach_score_entry(client, people, manual_competition):
    client.force_login(people.users["member"])
    assert client.get("/c/prova/coppa/score/").status_code == 403


def test_visitors_are_sent_to_log_in(client, manual_competition):
    response = client.get("/c/prova/coppa/score/")
    assert response.status_code == 302
    assert "/login/" in response["Location"]


def test_a_scorekeeper_opens_a_table_from_the_page(logged_in, people, manual_competition):
    response = logged_in.post(
        "/c/prova/coppa/score/",
        {"label": "Tavolo 5", "seat_0": people.extra[0].pk, "seat_1": people.extra[1].pk},
    )
    table = Table.objects.get(label="Tavolo 5")
    assert response.status_code == 302
    assert response["Location"].endswith(f"/t/{table.pk}/score/")
    assert [s.player for s in table.seats.all()] == people.extra[:2]


def test_the_preview_shows_scores_and_saves_nothing(logged_in, manual_table):
    url = f"/c/prova/coppa/t/{manual_table.pk}/preview/"
    response = logged_in.post(url, {"seat_0": "4", "seat_1": "-4"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert 'id="preview-scores"' in response.content.decode()
    assert Result.objects.count() == 0


def test_recording_twice_with_the_same_form_records_once(logged_in, manual_table):
    url = f"/c/prova/coppa/t/{manual_table.pk}/score/"
    body = {"seat_0": "4", "seat_1": "-4", "form_token": "abc123"}
    assert logged_in.post(url, body).status_code == 302
    assert logged_in.post(url, body).status_code == 302
    assert Result.objects.count() == 1
    assert Entry.objects.count() == 2


tarocco = pytest.mark.skipif("tarocco" not in registry.available(), reason="no Tarocco engine")


@pytest.fixture
def tarocco_table(club, people):
    from ledger.clubs.services import create_table

    competition = Competition.objects.create(club=club, name="T", slug="tarocco", game="tarocco")
    return create_table(
        user=people.users["organiser"],
        competition=competition,
        label="T1",
        players=people.extra[:4],
    )


@tarocco
def test_the_tarocco_preview_gives_the_solo_score(logged_in, tarocco_table):
    url = f"/c/prova/tarocco/t/{tarocco_table.pk}/preview/"
    body = {"outcome": "solo", "dealer": "3", "declarer": "1", "card_points": "61"}
    text = logged_in.post(url, body).content.decode()
    # 3 x (61 - 55) for the soloist; (48 - 54) for each of the three others.
    assert "18" in text and "-6" in text


@tarocco
def test_the_tarocco_preview_names_an_impossible_summary(logged_in, tarocco_table):
    url = f"/c/prova/tarocco/t/{tarocco_table.pk}/preview/"
    body = {"outcome": "solo", "dealer": "3", "declarer": "1", "card_points": "140"}
    text = logged_in.post(url, body).content.decode()
    assert 'id="preview-problem"' in text
    assert "tarocco." in text
    assert Result.objects.count() == 0


@tarocco
def test_a_tarocco_hand_recorded_on_the_page_moves_the_standings(logged_in, tarocco_table, people):
    url = f"/c/prova/tarocco/t/{tarocco_table.pk}/score/"
    body = {
        "outcome": "solo",
        "dealer": "3",
        "declarer": "0",
        "card_points": "70",
        "form_token": "t1",
    }
    assert logged_in.post(url, body).status_code == 302
    standings = dict(tarocco_table.competition.standings.values_list("player_id", "points"))
    assert standings[people.extra[0].pk] == 45
    assert standings[people.extra[1].pk] == -15
