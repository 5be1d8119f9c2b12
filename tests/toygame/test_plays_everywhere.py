"""A game the product has never heard of, installed as its own distribution would install it
(an entry point of the group ``club_ledger.games``), is found and played through the whole
ledger: the competition form, score entry, the standings, the referee's desk, a digital
table and an import. Nothing outside this package names it."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from contextlib import contextmanager
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.core import play, registry
from ledger.clubs.models import Competition, Entry, Result
from ledger.clubs.results.services import create_table
from ledger.clubs.transfer.imports import create_job, run_job
from ledger.play import services as tables
from ledger.play.models import GameTable
from ledger.referee.models import Case
from tests.conftest import People
from tests.toygame import GAME

SLUG = GAME.info.slug


@contextmanager
def installed(where: Path) -> Iterator[str]:
    """The toy game installed as a distribution: its metadata, with the entry point, on the
    import path; the registry finds it there and forgets it once it is gone."""
    import sys

    dist = where / "cartaalta-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: cartaalta\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(f"[club_ledger.games]\n{SLUG} = tests.toygame\n")
    sys.path.insert(0, str(where))
    registry.refresh()
    try:
        yield SLUG
    finally:
        sys.path.remove(str(where))
        registry.refresh()


@pytest.fixture
def cartaalta(tmp_path: Path) -> Iterator[str]:
    with installed(tmp_path) as slug:
        yield slug


def _client(people: People, who: str, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(people.users[who])
    return client


def test_a_game_installed_with_an_entry_point_is_found_beside_the_others(tmp_path: Path) -> None:
    before = registry.available()
    assert SLUG not in before
    with installed(tmp_path):
        assert registry.get(SLUG) is GAME
        assert registry.package(SLUG) == "tests.toygame"
        assert registry.module(SLUG, "words") is not None
        assert set(before) < set(registry.available())
        assert list(registry.installed()) == sorted(registry.installed())
    assert registry.available() == before


def _create_competition(people: People) -> Competition:
    club = people.club
    client = _client(people, "organiser")
    page = client.get(reverse("office-competition-new", args=[club.slug])).content.decode()
    assert f'value="{SLUG}"' in page and "Highest card" in page
    assert f'value="{SLUG}:3p"' in page and "3 players" in page
    answer = client.post(
        reverse("office-competition-new", args=[club.slug]),
        {
            "name": "Coppa carta alta",
            "game": SLUG,
            "preset": f"{SLUG}:2p",
            "format": "league",
            "confirmation": "none",
            "seats_per_table": "0",
            "hands_per_table": "1",
            "rounds": "0",
            "win": "",
            "draw": "",
            "loss": "",
        },
    )
    assert answer.status_code == 302, answer.context["form"].errors
    competition = Competition.objects.get(game=SLUG)
    competition.full_clean()  # the field's check knows the game
    assert competition.ruleset == {"name": "2p"}
    assert competition.get_game_display() == "Highest card"
    return competition


def _points(result: Result) -> list[Decimal]:
    return [e.points for e in Entry.objects.filter(result=result).order_by("seat")]


def test_the_toy_game_goes_through_the_whole_ledger(
    cartaalta: str, people: People, django_capture_on_commit_callbacks: Any
) -> None:
    competition = _create_competition(people)
    base = f"/c/{people.club.slug}/{competition.slug}"
    one, two = people.extra[:2]

    # Score entry: the form the game declares, one card per player, scored by the game.
    table = create_table(
        user=people.users["organiser"], competition=competition, label="T1", players=[one, two]
    )
    keeper = _client(people, "scorekeeper")
    page = keeper.get(f"{base}/t/{table.pk}/score/").content.decode()
    assert f"{one.name}&#x27;s card" in page and 'name="card1"' in page
    answer = keeper.post(
        f"{base}/t/{table.pk}/score/",
        {"kind": "game", "card0": "9", "card1": "4", "form_token": "tok"},
    )
    assert answer.status_code == 302
    result = Result.objects.get(table=table)
    assert _points(result) == [9, 4]
    detail = keeper.get(f"{base}/r/{result.pk}/").content.decode()
    assert f"{one.name} played the 9" in detail

    # Standings: ranked as the game says (a win worth 3), its points named as it names them.
    page = keeper.get(f"{base}/").content.decode()
    assert "Card value" in page
    organiser = _client(people, "organiser")
    settings = organiser.get(f"{base}/standings/settings/").content.decode()
    assert "Defaults for Highest card: a win is worth 3" in settings

    # The referee's desk: a record checked by the game's rules, its steps grouped as the
    # game groups them, a ruling by the game's artificial scores.
    record = GAME.new_game(GAME.ruleset("2p"), 3).to_record()
    held = record["deal"][0][0]
    record["actions"] = [{"seat": 0, "play": held}, {"seat": 1, "play": held}]
    referee = _client(people, "referee")
    referee.post(
        "/referee/open/",
        {"competition": competition.pk, "result": result.pk, "record": json.dumps(record)},
    )
    case = Case.objects.get()
    page = referee.get(f"/referee/case/{case.pk}/").content.decode()
    assert "cartaalta.card.held" in page and "One plays a card one holds." in page
    assert "The round of cards" in page
    ruling = {"kind": "artificial", "artificial_0": "plus", "artificial_1": "minus", "note": "x"}
    referee.post(f"/referee/case/{case.pk}/rule/", {**ruling, "confirm": "1"})
    case.refresh_from_db()
    assert case.correction is not None and _points(case.correction) == [8, 5]

    # A digital table: found in the lobby, played against the game's bot, a move out of
    # turn refused by the game's turn rule, the finished game valid by the game's rules.
    member = people.users["member"]
    lobby = _client(people, "member").get("/play/").content.decode()
    assert f'value="{SLUG}:2p"' in lobby
    with django_capture_on_commit_callbacks(execute=True):
        digital = tables.create_table(
            user=member, club=people.club, game=SLUG, seats=["heuristic", "me"]
        )
    state = tables.state_of(digital)
    assert state.to_act() == 1  # the bot has played its card
    assert tables.turn_violation(digital, state, 0)["rule"] == "cartaalta.turn.order"
    with django_capture_on_commit_callbacks(execute=True):
        tables.act(user=member, table=digital, action={"play": state.legal_actions(1)[0]})
    digital.refresh_from_db()
    assert digital.status == GameTable.Status.FINISHED
    assert GAME.validate(tables.state_of(digital).to_record()).valid
    assert digital.get_game_display() == "Highest card"

    # An import: the game's template, its example rows recorded as they are.
    client = _client(people, "scorekeeper")
    text = client.get(f"/c/{people.club.slug}/import/template/{competition.slug}.csv")
    rows = list(csv.reader(io.StringIO(text.content.decode())))
    assert len(rows) == 1 + len(GAME.summary_examples)
    job = create_job(
        user=people.users["scorekeeper"],
        club=people.club,
        filename="results.csv",
        raw=text.content,
        fmt="csv",
        language="en",
    )
    job = run_job(job.pk)
    assert job.errors == [] and job.imported == len(GAME.summary_examples)
    imported = Result.objects.filter(competition=competition, source=Result.Source.IMPORT)
    assert sorted(_points(r) for r in imported) == [[2, 11], [9, 4]]


def test_the_toy_game_plays_itself_out_with_its_bot() -> None:
    for seats in GAME.info.seat_counts:
        state = GAME.new_game(GAME.ruleset(f"{seats}p"), seats)
        play(GAME, state, [GAME.bots["heuristic"](s) for s in range(seats)])
        verdict = GAME.validate(state.to_record())
        assert verdict.valid and verdict.outcome == GAME.score(state.summary()).outcome
