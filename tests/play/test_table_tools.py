"""What players expect of an online table: bots by level, the rules at hand, clocks,
takebacks at practice tables and hints."""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.test import Client

from ledger.play import services
from ledger.play import services as play_services
from ledger.play.models import GameTable
from tests.play.conftest import dealt, seats_for


def _client(people, lang="en", name="member"):
    client = Client(HTTP_ACCEPT_LANGUAGE=lang)
    client.force_login(people.users[name])
    return client


def _table(commit, people, game="tarocco", seats=None, seed=11, **kw):
    with dealt(seed):
        return commit(
            services.create_table,
            user=people.users["member"],
            club=people.club,
            game=game,
            seats=seats or seats_for(game),
            **kw,
        )


# --- bots by level ------------------------------------------------------------------------
def test_the_bot_picker_offers_each_level_with_the_heuristic_bot_chosen(people, commit):
    table = _table(commit, people, seats=["me", "open", "open", "open"])
    page = _client(people).get(f"/play/{table.pk}/").content.decode()
    assert '<option value="heuristic" selected>Heuristic bots' in page
    assert '<option value="random">Random bots' in page
    assert '<option value="strong">Strong bots' in page
    lobby = _client(people, "it").get("/play/").content.decode()
    assert 'value="heuristic" checked' in lobby


def test_bot_names_follow_the_pages_language(people, commit):
    table = _table(commit, people)
    english = _client(people, "en").get(f"/play/{table.pk}/").content.decode()
    italian = _client(people, "it").get(f"/play/{table.pk}/").content.decode()
    assert "Heuristic bot 1" in english and "Bot euristico" not in english
    assert "Bot euristico 1" in italian and "Heuristic bot" not in italian


def test_a_bot_thinks_outside_the_tables_transaction(people, commit, monkeypatch):
    depth_outside = len(connection.atomic_blocks)
    seen: list[int] = []
    real = play_services.make_bot

    def watched(slug: str, kind: str, seed: int) -> Any:
        bot = real(slug, kind, seed)

        class Watched:
            def choose(self, state: Any, seat: int) -> Any:
                seen.append(len(connection.atomic_blocks))
                return bot.choose(state, seat)

        return Watched()

    monkeypatch.setattr(play_services, "make_bot", watched)
    table = _table(commit, people, seats=["heuristic", "me", "heuristic", "heuristic"])
    table.refresh_from_db()
    assert seen, "no bot moved"
    # The test's own transaction is the only one open while a bot chooses.
    assert set(seen) == {depth_outside}
    assert table.moves_count >= len(seen)


def test_a_bots_move_chosen_for_a_state_that_moved_meanwhile_is_not_applied(
    people, commit, monkeypatch
):
    """While the bot thought, another worker played the same turn: the first bot's choice
    is dropped and it thinks again from the new state; no turn is played twice."""
    real = play_services.make_bot
    raced: list[bool] = []

    def racing(slug: str, kind: str, seed: int) -> Any:
        bot = real(slug, kind, seed)

        class Racing:
            def choose(self, state: Any, seat: int) -> Any:
                chosen = bot.choose(state, seat)
                if not raced:
                    raced.append(True)
                    monkeypatch.setattr(play_services, "make_bot", real)
                    play_services.play_bots(table_id, limit=1)  # the other worker
                return chosen

        return Racing()

    table = _table(commit, people, seats=["open", "open", "open", "me"])
    table_id = table.pk
    monkeypatch.setattr(play_services, "make_bot", racing)
    commit(services.fill_with_bots, user=people.users["member"], table=table, kind="heuristic")
    table.refresh_from_db()
    assert raced
    # The same table without the race: the same deal, the same bots, the same moves.
    monkeypatch.setattr(play_services, "make_bot", real)
    calm = _table(commit, people, seats=["open", "open", "open", "me"])
    commit(services.fill_with_bots, user=people.users["member"], table=calm, kind="heuristic")
    calm.refresh_from_db()
    assert table.moves_count == calm.moves_count == table.moves.count() > 0
    assert services.moves_of(table) == services.moves_of(calm)
    assert services.state_of(table).to_act() == 3
    assert table.status == GameTable.Status.PLAYING


# --- the rules at hand --------------------------------------------------------------------
def test_the_board_links_the_games_rules_in_the_pages_language(people, commit):
    table = _table(commit, people)
    page = _client(people, "it").get(f"/play/{table.pk}/").content.decode()
    assert 'href="/rules/tarocco/"' in page and "Regole di" in page
    rules = _client(people, "it").get("/rules/tarocco/")
    assert rules.status_code == 200
