"""One engine run per write: the page that scores what was typed hands the engine's answer
to the write, which does not ask the engine again (docs/ledger.md, "How a result is
written")."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from games.core import RandomBot, play, registry
from ledger.clubs.models import Competition, Result, Table
from ledger.clubs.results import services

pytestmark = pytest.mark.django_db


class Runs:
    """How often each game's engine was asked to score a summary or check a record."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []

    def count(self, slug: str | None = None) -> int:
        return sum(1 for game, _how in self.calls if slug is None or game == slug)


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch, points_game: str) -> Iterator[Runs]:
    found = Runs()
    for slug in registry.available():
        engine = registry.get(slug)
        for name in ("score", "validate"):
            method = getattr(engine, name)

            def counted(*args: Any, _slug: str = slug, _name: str = name, _m: Any = method) -> Any:
                found.calls.append((_slug, _name))
                return _m(*args)

            monkeypatch.setattr(engine, name, counted)
    yield found


def _table(club: Any, people: Any, game: str, players: int) -> Table:
    competition = Competition.objects.create(club=club, name=game, slug=f"{game}-cup", game=game)
    return services.create_table(
        user=people.users["organiser"],
        competition=competition,
        label="T1",
        players=people.extra[:players],
    )


def _logged_in(client: Any, people: Any, who: str) -> Any:
    client.force_login(people.users[who])
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


def _score_page(table: Table) -> str:
    return f"/c/prova/{table.competition.slug}/t/{table.pk}/score/"


@pytest.mark.skipif("tarocco" not in registry.available(), reason="no Tarocco engine")
def test_a_summary_typed_on_the_score_entry_page_is_scored_once(
    client: Any, club: Any, people: Any, runs: Runs
) -> None:
    table = _table(club, people, "tarocco", 4)
    page = _logged_in(client, people, "scorekeeper")
    body = {
        "outcome": "solo",
        "dealer": "3",
        "declarer": "0",
        "card_points": "70",
        "form_token": "once",
    }
    assert page.post(_score_page(table), body).status_code == 302
    assert Result.objects.filter(table=table).count() == 1
    assert runs.calls == [("tarocco", "score")]


def test_a_full_record_pasted_on_the_score_entry_page_is_checked_once(
    client: Any, club: Any, people: Any, runs: Runs
) -> None:
    table = _table(club, people, "sanmarco", 2)
    engine = registry.get("sanmarco")
    state = play(engine, engine.new_game(engine.ruleset(), 3), [RandomBot(1), RandomBot(2)])
    page = _logged_in(client, people, "scorekeeper")
    body = {"mode": "record", "record_text": json.dumps(state.to_record()), "form_token": "r"}
    assert page.post(_score_page(table), body).status_code == 302
    assert Result.objects.filter(table=table, source="full_record").count() == 1
    assert runs.calls == [("sanmarco", "validate")]


def test_points_typed_on_the_score_entry_page_are_scored_once(
    client: Any, people: Any, manual_table: Table, runs: Runs
) -> None:
    page = _logged_in(client, people, "scorekeeper")
    body = {"seat_0": "4", "seat_1": "-4", "form_token": "p"}
    assert page.post(_score_page(manual_table), body).status_code == 302
    assert Result.objects.filter(table=manual_table).count() == 1
    assert runs.count() == 1


def test_a_correction_applied_on_its_page_is_scored_once(
    client: Any, people: Any, manual_table: Table, runs: Runs
) -> None:
    old, _created = services.record_result(
        user=people.users["scorekeeper"], table=manual_table, source="manual", scores=[10, 2]
    )
    runs.calls.clear()
    page = _logged_in(client, people, "referee")
    body = {"seat_0": "0", "seat_1": "9", "reason": "Wrong sheet", "apply": "1"}
    url = f"/c/prova/{manual_table.competition.slug}/r/{old.pk}/correct/"
    assert page.post(url, body).status_code == 302
    old.refresh_from_db()
    assert old.status == Result.Status.SUPERSEDED
    assert runs.count() == 1


def test_a_write_handed_a_score_for_another_table_size_asks_the_engine_itself(
    people: Any, manual_table: Table, runs: Runs
) -> None:
    from ledger.clubs.scoring import Scored

    wrong = Scored(scores=[], verdict=None)
    result, _created = services.record_result(
        user=people.users["scorekeeper"],
        table=manual_table,
        source="manual",
        scores=[3, 1],
        scored=wrong,
    )
    assert result.scores == ["3", "1"] and runs.count() == 1
