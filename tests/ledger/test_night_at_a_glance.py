"""The night at a glance on the score-entry page: tables listed in the order people count
them, the table's running totals, "hand 7 of 12" where the competition fixes the number of
hands, and who deals next."""

from __future__ import annotations

import re

import pytest

from ledger.clubs.models import Competition
from ledger.clubs.results.services import create_table, record_result
from ledger.formats.models import FormatSettings
from tests.ledger.helpers import record, use


@pytest.fixture
def keeper(client, people):
    client.force_login(people.users["scorekeeper"])
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


def test_tables_are_listed_table_1_first_and_2_before_10(keeper, people, manual_competition):
    for label in ("Tavolo 10", "Tavolo 2", "Tavolo 1"):
        create_table(
            user=people.users["organiser"],
            competition=manual_competition,
            label=label,
            players=people.extra[:2],
        )
    page = keeper.get("/c/prova/coppa/score/").content.decode()
    labels = re.findall(r">(Tavolo \d+)</a>", page)
    assert labels == ["Tavolo 1", "Tavolo 2", "Tavolo 10"]


def test_the_entry_page_shows_each_seats_running_total(keeper, people, manual_table):
    record(people, manual_table, [5, 1])
    record(people, manual_table, [-2, 7])
    page = keeper.get(f"/c/prova/coppa/t/{manual_table.pk}/score/").content.decode()
    assert 'id="running-totals"' in page and "after 2 hands" in page
    a, b = (s.player.name for s in manual_table.seats.order_by("index"))
    assert re.search(rf"{a}</span> <b>3</b>", page)
    assert re.search(rf"{b}</span> <b>8</b>", page)


def test_a_superseded_result_is_left_out_of_the_running_totals(keeper, people, manual_table):
    from ledger.clubs.results import services

    old = record(people, manual_table, [5, 1])
    services.supersede_result(
        user=people.users["referee"], result=old, source="manual", scores=[1, 1], reason="x"
    )
    page = keeper.get(f"/c/prova/coppa/t/{manual_table.pk}/score/").content.decode()
    assert "after 1 hand" in page
    a = manual_table.seats.get(index=0).player.name
    assert re.search(rf"{a}</span> <b>1</b>", page)


def test_a_waiting_result_is_counted_and_said_to_be_waiting(keeper, people, manual_table):
    use(manual_table.competition, "second_person")
    record(people, manual_table, [5, 1])
    page = keeper.get(f"/c/prova/coppa/t/{manual_table.pk}/score/").content.decode()
    assert "1 still waiting for confirmation" in page


def test_a_fixed_number_of_hands_says_which_hand_is_next(keeper, people, manual_table):
    FormatSettings.objects.create(competition=manual_table.competition, hands_per_table=3)
    url = f"/c/prova/coppa/t/{manual_table.pk}/score/"
    assert "Hand 1 of 3" in keeper.get(url).content.decode()
    record(people, manual_table, [5, 1])
    record(people, manual_table, [2, 2])
    assert "Hand 3 of 3" in keeper.get(url).content.decode()
    record(people, manual_table, [0, 4])
    page = keeper.get(url).content.decode()
    assert "All 3 hands of the table are played." in page
    italian = keeper.get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Tutte le 3 mani del tavolo sono giocate." in italian


@pytest.mark.parametrize(
    ("game", "seats", "english", "italian"),
    [
        ("tarocco", 4, "Hand 1 of 2", "Smazzata 1 di 2"),
        ("cardchess", 2, "Game 1 of 2", "Partita 1 di 2"),
        ("ergio", 2, "Game 1 of 2", "Partita 1 di 2"),
    ],
)
def test_each_game_names_its_hands_in_its_own_words(
    keeper, people, club, game, seats, english, italian
):
    competition = Competition.objects.create(
        club=club, name="Sera", slug="sera", game=game, format="league"
    )
    FormatSettings.objects.create(competition=competition, hands_per_table=2)
    table = create_table(
        user=people.users["organiser"],
        competition=competition,
        label="Tavolo 1",
        players=people.extra[:seats],
    )
    url = f"/c/prova/sera/t/{table.pk}/score/"
    assert english in keeper.get(url).content.decode()
    assert italian in keeper.get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode()


def test_one_hand_per_table_says_no_hand_count(keeper, manual_table):
    page = keeper.get(f"/c/prova/coppa/t/{manual_table.pk}/score/").content.decode()
    assert 'id="glance"' not in page


@pytest.mark.skipif(
    "tarocco" not in __import__("games.core", fromlist=["registry"]).registry.available(),
    reason="no Tarocco engine",
)
@pytest.mark.parametrize("source", ["summary", "full_record"])
def test_the_next_dealer_is_named_after_a_tarocco_hand(keeper, club, people, source):
    competition = Competition.objects.create(club=club, name="T", slug="tarocco", game="tarocco")
    table = create_table(
        user=people.users["organiser"],
        competition=competition,
        label="T1",
        players=people.extra[:4],
    )
    summary = {"outcome": "solo", "dealer": 3, "declarer": 0, "card_points": 70}
    if source == "summary":
        record_result(
            user=people.users["scorekeeper"], table=table, source="summary", record=summary
        )
    else:
        from games.core import RandomBot, play, registry

        engine = registry.get("tarocco")
        state = play(
            engine, engine.new_game(engine.ruleset(), 7), [RandomBot(7 + i) for i in range(4)]
        )
        record_result(
            user=people.users["scorekeeper"],
            table=table,
            source="full_record",
            record=state.to_record(),
        )
    page = keeper.get(f"/c/prova/tarocco/t/{table.pk}/score/").content.decode()
    glance = re.search(r'<p class="glance" id="glance">(.*?)</p>', page)
    assert glance and " deals" in glance.group(1)
    if source == "summary":
        # the seat after the dealer (seat 4) deals next: seat 1
        assert people.extra[0].name in glance.group(1)
