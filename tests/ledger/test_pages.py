"""The public pages, login, the language switch and the health check."""

from __future__ import annotations

from unittest import mock

from django.db.utils import OperationalError

from ledger.clubs.results import services


def test_the_home_page_lists_clubs_and_competitions(client, manual_competition):
    page = client.get("/")
    assert page.status_code == 200
    assert "Circolo di prova" in page.content.decode()
    assert "/c/prova/coppa/" in page.content.decode()


def test_the_home_page_says_what_to_do_when_there_are_no_clubs(client, db):
    assert "seed_demo" in client.get("/").content.decode()


def test_italian_is_the_default_language_and_english_is_a_switch_away(client, db):
    page = client.get("/").content.decode()
    assert 'lang="it"' in page
    assert "Circoli e competizioni" in page
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    page = client.get("/").content.decode()
    assert 'lang="en"' in page
    assert "Clubs and competitions" in page


def test_the_competition_page_shows_standings_and_results(client, people, manual_table):
    services.record_result(
        user=people.users["scorekeeper"], table=manual_table, source="manual", scores=[7, 2]
    )
    page = client.get("/c/prova/coppa/")
    assert page.status_code == 200
    text = page.content.decode()
    assert people.extra[0].name in text
    assert "7" in text


def test_the_competition_page_has_an_empty_state(client, manual_competition):
    text = client.get("/c/prova/coppa/").content.decode()
    assert "Nessun risultato" in text


def test_the_competition_page_reads_in_a_fixed_number_of_queries(
    client, people, manual_table, django_assert_max_num_queries
):
    for scores in ([1, 2], [3, 4], [5, 6], [7, 8]):
        services.record_result(
            user=people.users["scorekeeper"], table=manual_table, source="manual", scores=scores
        )
    # The competition with its last round, the version of its data, the top ratings; and
    # when the tables are not cached yet, the standings, pending results, the latest results
    # and their seats, and the version again (to cache only what did not change meanwhile).
    with django_assert_max_num_queries(8):
        assert client.get("/c/prova/coppa/").status_code == 200
    with django_assert_max_num_queries(3):
        assert client.get("/c/prova/coppa/").status_code == 200


def test_standings_rows_escape_what_people_typed(client, people, manual_table):
    seat = manual_table.seats.get(index=0)
    seat.player.name = '<script>alert("x")</script>'
    seat.player.save()
    services.record_result(
        user=people.users["scorekeeper"], table=manual_table, source="manual", scores=[5, -5]
    )
    page = client.get("/c/prova/coppa/").content.decode()
    assert "<script>alert" not in page
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in page


def test_points_are_written_in_the_pages_language(client, people, manual_table):
    services.record_result(
        user=people.users["scorekeeper"], table=manual_table, source="manual", scores=[2.5, -2.5]
    )
    italian = client.get("/c/prova/coppa/").content.decode()
    assert ">2,5<" in italian and ">-2,5<" in italian
    client.cookies["django_language"] = "en"
    english = client.get("/c/prova/coppa/").content.decode()
    assert ">2.5<" in english and ">-2.5<" in english


def test_the_competition_page_offers_recording_and_settings_by_role(client, people, club):
    from ledger.clubs.models import Competition, Season

    season = Season.objects.create(
        club=club, name="Stagione 2026", starts_on="2026-09-01", ends_on="2027-06-30"
    )
    Competition.objects.create(
        club=club, season=season, name="Coppa d'autunno", slug="autunno", game="sanmarco"
    )
    seen = {}
    for name in (None, "member", "scorekeeper", "organiser"):
        client.logout()
        if name is not None:
            client.force_login(people.users[name])
        page = client.get("/c/prova/autunno/")
        assert page.status_code == 200
        text = page.content.decode()
        assert "Stagione 2026" in text and "Coppa d&#x27;autunno" in text
        seen[name] = ('id="record-result"' in text, "/standings/settings/" in text)
    assert seen == {
        None: (False, False),
        "member": (False, False),
        "scorekeeper": (True, False),
        "organiser": (True, True),
    }


def test_the_ratings_page_lists_every_rated_player_of_the_competition(client, people, manual_table):
    services.record_result(
        user=people.users["scorekeeper"], table=manual_table, source="manual", scores=[3, 1]
    )
    page = client.get("/c/prova/coppa/ratings/").content.decode()
    names = [seat.player.name for seat in manual_table.seats.all()]
    assert all(name in page for name in names)
    assert page.index(names[0]) < page.index(names[1])  # the winner's cautious rating is higher


def test_an_unknown_competition_is_a_404(client, db):
    assert client.get("/c/nessuno/niente/").status_code == 404


def test_login_and_logout(client, people):
    response = client.post("/login/", {"username": "member", "password": "pw-member"})
    assert response.status_code == 302
    assert "member" in client.get("/").content.decode()
    client.post("/logout/")
    assert "Accedi" in client.get("/").content.decode()


def test_a_wrong_password_says_what_to_check(client, people):
    page = client.post("/login/", {"username": "member", "password": "nope"})
    assert page.status_code == 200
    assert "nome utente e la password" in page.content.decode()


def test_healthz_answers_200_when_the_database_answers(client, db):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["database"] == "ok"


def test_healthz_answers_503_when_the_database_does_not(client, db):
    with mock.patch("ledger.web.views.connection.cursor", side_effect=OperationalError("down")):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["status"] == "unavailable"


def test_a_page_that_loses_the_database_answers_503_and_says_to_try_again(client, db):
    with mock.patch("ledger.web.views.Club.objects.annotate", side_effect=OperationalError):
        response = client.get("/")
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert "Riprova" in response.content.decode()


def test_every_page_links_to_the_digital_tables_and_logged_in_people_to_the_referee_desk(
    client, people
):
    anonymous = client.get("/").content.decode()
    assert 'href="/play/"' in anonymous and 'href="/referee/"' not in anonymous
    client.force_login(people.users["referee"])
    assert 'href="/referee/"' in client.get("/").content.decode()
