"""The competition page keeps its standings table and latest results in the cache: every
input of either must reach the page on the next visit, with the tables already cached
before the change."""

from __future__ import annotations

import re
from unittest import mock

import pytest

from ledger.clubs.models import Club, Round, Standing
from ledger.clubs.results import services
from ledger.web import views
from tests.ledger.helpers import record, use

PAGE = "/c/prova/coppa/"


def table_body(client, url=PAGE, language="en"):
    """The standings table's rows, one list of cell texts per row."""
    page = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert page.status_code == 200
    body = re.search(
        r'<table class="grid standings.*?<tbody>(.*?)</tbody>', page.content.decode(), re.S
    )
    assert body, "the page has no standings table"
    return [
        [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body.group(1), re.S)
    ]


def latest_results(client, language="en"):
    """The latest results' rows, one list of cell texts per row."""
    page = client.get(PAGE, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    section = page[page.index("<h2>Latest results</h2>") :]
    body = re.search(r"<tbody>(.*?)</tbody>", section, re.S)
    assert body, "the page lists no results"
    return [
        [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body.group(1), re.S)
    ]


@pytest.fixture
def played(people, manual_table):
    """A result counted, and the page visited once so that its table is cached."""
    record(people, manual_table, [7, 2])
    return manual_table


def test_a_second_visit_is_served_from_the_cache(client, people, played):
    first = table_body(client)
    with mock.patch.object(views, "_display", wraps=views._display) as written:
        assert table_body(client) == first
    written.assert_not_called()


def test_a_new_result_reaches_a_cached_table(client, people, played):
    before = table_body(client)
    record(people, played, [1, 4])
    after = table_body(client)
    assert after != before
    assert [row[1] for row in after] == [people.extra[0].name, people.extra[1].name]
    assert after[0][2] == "2" and after[0][-1] == "8"  # played, points


def test_a_renamed_player_reaches_a_cached_table(client, people, played):
    table_body(client)
    people.extra[0].name = "Rinominato"
    people.extra[0].save()
    assert "Rinominato" in [row[1] for row in table_body(client)]


def test_new_standings_settings_reach_a_cached_table(client, people, played):
    assert len(table_body(client)[0]) == 7  # rank, player, P W D L, points
    services.update_standings_settings(
        user=people.users["organiser"],
        competition=played.competition,
        settings={"win": "3", "order": ["match_points", "points"]},
    )
    rows = table_body(client)
    assert len(rows[0]) == 8  # match points shown before the points
    assert rows[0][6] == "3"


def test_each_language_gets_its_own_cached_table(client, people, manual_table):
    record(people, manual_table, [2.5, -2.5])
    assert table_body(client, language="it")[0][-1] == "2,5"
    assert table_body(client, language="en")[0][-1] == "2.5"
    assert table_body(client, language="it")[0][-1] == "2,5"


def test_a_pending_result_and_its_confirmation_reach_a_cached_table(client, people, played):
    use(played.competition, "second_person")
    client.force_login(people.users["referee"])  # provisional points are the referees'
    table_body(client)
    pending = record(people, played, [3, 1])
    rows = table_body(client)
    assert "(provisional 3)" in rows[0][1] and rows[0][-1] == "7"
    services.confirm_result(user=people.users["scorekeeper2"], result=pending)
    rows = table_body(client)
    assert "provisional" not in rows[0][1] and rows[0][-1] == "10"


def test_pending_points_reach_only_referees_and_organisers_from_a_cached_table(
    client, people, played
):
    """A result not confirmed yet is sealed (ledger/clubs/office/visibility.py): its provisional
    points are shown to the club's referees and organisers only, and with blind re-entry
    to nobody (the first entry is blind to them too until the second one)."""
    for mode in ("second_person", "blind"):
        use(played.competition, mode)
        record(people, played, [3, 1])
        client.logout()
        assert "provisional" not in table_body(client)[0][1]
        client.force_login(people.users["member"])
        assert "provisional" not in table_body(client)[0][1]
        client.force_login(people.users["organiser"])
        assert ("provisional" in table_body(client)[0][1]) is (mode != "blind")


def test_a_new_round_brings_the_movement_column_to_a_cached_table(client, people, played):
    competition = played.competition
    assert len(table_body(client)[0]) == 7
    Round.objects.create(competition=competition, number=1)
    played.round = competition.rounds.get()
    played.save()
    assert len(table_body(client)[0]) == 8  # places moved since the previous round


def test_a_table_moved_to_an_earlier_round_reaches_a_cached_movement_column(
    client, people, manual_competition
):
    rounds = [Round.objects.create(competition=manual_competition, number=n) for n in (1, 2)]
    a, b = people.extra[:2]
    first, second, _unplayed = (
        services.create_table(
            user=people.users["organiser"],
            competition=manual_competition,
            label=f"T{i}",
            players=[a, b],
            round=r,
        )
        for i, r in enumerate([rounds[0], rounds[1], rounds[1]])
    )
    record(people, first, [3, 1])
    record(people, second, [0, 5])
    # After round 1 A led; now B does: B has climbed one place.
    assert [(row[1], row[-1]) for row in table_body(client)] == [(b.name, "▲1"), (a.name, "▼1")]
    second.round = rounds[0]
    second.save()  # both games were round 1's: nobody moved since
    assert [(row[1], row[-1]) for row in table_body(client)] == [(b.name, "="), (a.name, "=")]


def test_a_changed_projection_reaches_a_cached_table(client, people, played):
    """Whatever writes the projection (a rebuild after a restore, say) shows at once."""
    table_body(client)
    Standing.objects.filter(player=people.extra[1]).update(points=40)
    assert table_body(client)[0][1] == people.extra[1].name


def test_a_renamed_club_links_its_players_under_the_new_address(client, people, played):
    table_body(client)
    Club.objects.filter(pk=played.competition.club_id).update(slug="nuovo")
    page = client.get("/c/nuovo/coppa/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f"/c/nuovo/p/{people.extra[0].pk}/" in page
    assert "/c/prova/p/" not in page


def test_a_past_round_is_not_served_the_current_table(client, people, manual_competition):
    rounds = [Round.objects.create(competition=manual_competition, number=n) for n in (1, 2)]
    a, b = people.extra[:2]
    tables = [
        services.create_table(
            user=people.users["organiser"],
            competition=manual_competition,
            label=f"R{r.number}",
            players=[a, b],
            round=r,
        )
        for r in rounds
    ]
    record(people, tables[0], [5, 1])
    record(people, tables[1], [0, 9])
    now = table_body(client)
    assert now[0][1] == b.name
    assert table_body(client, PAGE + "?round=1")[0][1] == a.name
    assert table_body(client) == now


def test_a_renamed_table_reaches_cached_latest_results(client, people, played):
    assert latest_results(client)[0][1] == "T1"
    played.label = "Tavolo A"
    played.save()
    assert latest_results(client)[0][1] == "Tavolo A"


def test_a_renamed_player_not_yet_counted_reaches_a_cached_page(client, people, manual_table):
    """Only pending results so far: the player has no standing yet, only a seat."""
    use(manual_table.competition, "second_person")
    record(people, manual_table, [3, 1])
    client.force_login(people.users["referee"])
    assert table_body(client)[0][1].startswith(people.extra[0].name)
    people.extra[0].name = "Nuovo nome"
    people.extra[0].save()
    assert table_body(client)[0][1].startswith("Nuovo nome")
    assert "Nuovo nome" in latest_results(client)[0][2]


def test_a_disputed_result_reaches_cached_latest_results(client, people, played):
    use(played.competition, "second_person")
    pending = record(people, played, [3, 1])
    assert latest_results(client)[0][3] == "Pending confirmation"
    services.dispute_result(user=people.users["scorekeeper2"], result=pending, reason="No")
    assert latest_results(client)[0][3] == "Disputed"


def test_a_second_visit_reads_three_queries(client, people, played, django_assert_num_queries):
    table_body(client)
    with django_assert_num_queries(3):  # the competition, its data's version, the ratings
        table_body(client)


def test_an_old_pending_result_settled_reaches_a_cached_table(client, people, played):
    """A result still pending after 25 newer ones no longer shows among the latest results,
    yet its provisional points do, until it is settled."""
    use(played.competition, "second_person")
    pending = record(people, played, [3, 1])
    use(played.competition, "none")
    other = services.create_table(
        user=people.users["organiser"],
        competition=played.competition,
        label="T2",
        players=people.extra[2:4],
    )
    for _ in range(views.LATEST_RESULTS):
        record(people, other, [1, 0])
    client.force_login(people.users["organiser"])
    assert any("provisional" in row[1] for row in table_body(client))
    services.dispute_result(user=people.users["scorekeeper2"], result=pending, reason="No")
    assert not any("provisional" in row[1] for row in table_body(client))


def test_a_corrections_preview_keeps_nothing_in_the_cache(people, manual_competition, monkeypatch):
    # The preview reads the standings inside a transaction it rolls back: the places and
    # totals it reads there come from lines that never existed, and must not be kept.
    from django.core.cache import cache

    rounds = [Round.objects.create(competition=manual_competition, number=n) for n in (1, 2)]
    a, b = people.extra[:2]
    tables = [
        services.create_table(
            user=people.users["organiser"],
            competition=manual_competition,
            label=f"R{r.number}",
            players=[a, b],
            round=r,
        )
        for r in rounds
    ]
    record(people, tables[0], [5, 1])
    second = record(people, tables[1], [0, 9])
    from ledger.clubs.projections.standings import standings

    standings(manual_competition)  # what the real journal gives is kept already
    kept = []
    real = cache.set

    def spy(key, *args, **kwargs):
        kept.append(key)
        return real(key, *args, **kwargs)

    monkeypatch.setattr(cache, "set", spy)
    preview = services.preview_correction(
        user=people.users["referee"], result=second, source="manual", scores=[9, 0]
    )
    assert preview["scores"]
    assert kept == []
