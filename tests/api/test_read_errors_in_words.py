"""A summary or a record the engine cannot read is refused in the reader's words, through
the API and the score-entry page alike: the place as the game names it, a seat by its
player's name, an action by its number from 1, and no field path, list or seat from 0."""

from __future__ import annotations

import json

import pytest

from games.core import registry
from ledger.clubs.models import Competition, Result
from ledger.clubs.results.services import create_table
from tests.games.test_messages_in_words import faults


@pytest.fixture
def table(people):
    competition = Competition.objects.create(
        club=people.club, name="Tarocco", slug="tarocco", game="tarocco"
    )
    return create_table(
        user=people.users["organiser"],
        competition=competition,
        label="T1",
        players=[people.players[n] for n in ("member", "scorekeeper", "referee")]
        + [people.extra[0]],
    )


def _refused(people, table, record, source, language):
    answer = people.client("scorekeeper", language).post(
        "/api/v1/results/",
        {"table": table.pk, "source": source, "record": record},
        format="json",
    )
    assert answer.status_code == 400, answer.content
    error = answer.json()["error"]
    return error["message"], error["fields"]["record"][0]


HAND = {"outcome": "solo", "dealer": 3, "declarer": 1, "card_points": 61}


def test_a_summary_read_wrong_names_the_seat_by_its_player_in_both_languages(people, table):
    wrong = {**HAND, "claimed_scores": [18, "diciotto", -6, -6]}
    said = {}
    for language in ("it", "en"):
        message, at_field = _refused(people, table, wrong, "summary", language)
        assert "Scorekeeper" in at_field and at_field in message
        said[language] = at_field
    assert "dev'essere un numero intero" in said["it"]
    assert "must be a whole number" in said["en"]
    assert not faults(said["it"], said["en"])
    assert "claimed_scores" not in said["en"] and "[1]" not in said["en"]
    assert Result.objects.count() == 0


def test_a_record_read_wrong_names_the_action_from_1_and_its_player(people, table):
    game = registry.get("tarocco")
    record = json.loads(json.dumps(game.new_game(game.ruleset(None), 3).to_record()))
    record["actions"] = [{"seat": 0, "bid": "tengo"}, {"seat": 1, "bid": "forse"}]
    said = {}
    for language in ("it", "en"):
        _message, said[language] = _refused(people, table, record, "full_record", language)
    assert said["en"].startswith("Action 2 (by Scorekeeper): must be one of these: “Vado")
    assert said["it"].startswith("Azione 2 (di Scorekeeper): dev'essere uno di questi: “Vado")
    assert not faults(said["it"], said["en"])


def test_a_field_read_wrong_is_named_by_the_games_words_for_it(people, table):
    said = {}
    for language in ("it", "en"):
        _message, said[language] = _refused(
            people, table, {**HAND, "dealer": "tre"}, "summary", language
        )
    assert not faults(said["it"], said["en"])
    assert said["en"].startswith("Dealer: must be a whole number"), said["en"]
    assert said["it"].startswith("Mazziere: dev'essere un numero intero"), said["it"]
