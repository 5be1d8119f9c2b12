"""A running game's seed, deal and moves are stored sealed, opened only by the play service,
and written in clear when the game is over (ledger/play/sealing.py)."""

from __future__ import annotations

import importlib
import os

import pytest
from django.db import connection, models
from django.db.migrations.loader import MigrationLoader

from ledger.play import sealing, services
from ledger.play.models import GameTable, Move
from tests.play.conftest import play_out

NAME = "0006_sealed_secrets_of_running_games"
migration = importlib.import_module(f"ledger.play.migrations.{NAME}")


def _historical_apps():
    """The models as the migration sees them (no append-only guard: that is the model's)."""
    return MigrationLoader(connection).project_state(("play", NAME)).apps


@pytest.fixture
def keys(settings):
    """Set the sealing keys for a test (the first seals, every one opens)."""

    def use(*found: bytes) -> None:
        settings.LEDGER_SEALING_KEYS = ",".join(k.hex() for k in found)
        sealing.reset()

    yield use
    sealing.reset()


def _table(commit, people, game="cardchess") -> GameTable:
    table = commit(
        services.create_table,
        user=people.users["member"],
        club=people.club,
        game=game,
        seats=["me", "heuristic"],
    )
    table.refresh_from_db()
    return table


def _one_move(commit, people, table: GameTable) -> dict:
    state = services.state_of(table)
    action = services.engine(table.game).encode_action(state.legal_actions(0)[0])
    commit(services.act, user=people.users["member"], table=table, action=action)
    return action


def test_a_running_tables_seed_deal_and_moves_are_stored_only_sealed(commit, people):
    table = _table(commit, people)
    action = _one_move(commit, people, table)
    row = GameTable.objects.values("seed", "deal", "sealed").get(pk=table.pk)
    assert row["seed"] is None and row["deal"] is None and sealing.is_sealed(row["sealed"])
    moves = list(Move.objects.filter(table=table).values_list("action", "sealed"))
    assert moves and all(a is None and sealing.is_sealed(s) for a, s in moves)
    assert services.moves_of(table)[0][2] == action


def test_a_game_over_writes_its_seed_deal_and_moves_in_clear(commit, people):
    table = _table(commit, people)
    seed, deal = services.secrets_of(table)
    play_out(commit, people.users["member"], table)
    table.refresh_from_db()
    assert table.over and (table.seed, table.deal, table.sealed) == (seed, deal, "")
    moves = list(table.moves.order_by("step").values_list("seat", "action", "sealed"))
    record = services.state_of(table).to_record()
    assert [{"seat": s, **a} for s, a, _sealed in moves] == record["actions"]
    assert all(sealed == "" for _s, _a, sealed in moves)


def test_a_timed_out_table_writes_its_secrets_in_clear(commit, people, settings):
    table = _table(commit, people)
    seed, _deal = services.secrets_of(table)
    GameTable.objects.filter(pk=table.pk).update(last_move_at=table.created_at.replace(year=2000))
    assert services.expire_stale_tables() == 1
    table.refresh_from_db()
    assert table.status == GameTable.Status.ABANDONED and table.seed == seed and not table.sealed


def test_a_sealed_value_opens_only_where_it_was_sealed():
    value = sealing.seal({"seed": 5}, sealing.table_place(1))
    assert sealing.unseal(value, sealing.table_place(1)) == {"seed": 5}
    with pytest.raises(sealing.Unreadable):
        sealing.unseal(value, sealing.table_place(2))  # copied onto another table
    edited = value[:-2] + ("A" if value[-2] != "A" else "B") + value[-1]
    with pytest.raises(sealing.Unreadable):
        sealing.unseal(edited, sealing.table_place(1))


def test_a_rotated_key_still_opens_what_it_sealed_until_it_is_dropped(keys):
    old, new = os.urandom(32), os.urandom(32)
    keys(old)
    before = sealing.seal([1, 2], "p")
    keys(new, old)
    after = sealing.seal([3], "p")
    assert sealing.unseal(before, "p") == [1, 2] and sealing.unseal(after, "p") == [3]
    assert sealing.key_id(after) != sealing.key_id(before)
    keys(new)
    with pytest.raises(sealing.Unreadable):
        sealing.unseal(before, "p")


def test_resealing_moves_running_tables_to_the_first_key(commit, people, keys):
    old, new = os.urandom(32), os.urandom(32)
    keys(old)
    table = _table(commit, people)
    seed, deal = services.secrets_of(table)
    keys(new, old)
    assert services.reseal_running() == 1
    keys(new)
    table.refresh_from_db()
    assert services.secrets_of(table) == (seed, deal)
    assert all(sealing.key_id(s) == sealing.key_id(table.sealed) for s in _sealed_moves(table))


def _sealed_moves(table: GameTable) -> list[str]:
    return list(table.moves.values_list("sealed", flat=True))


def test_the_migration_seals_running_tables_and_its_reverse_opens_them(commit, people):
    running = _table(commit, people)
    _one_move(commit, people, running)
    finished = _table(commit, people)
    play_out(commit, people.users["member"], finished)
    seed, deal = services.secrets_of(running)
    moves = services.moves_of(running)
    # As the tables were before the migration: everything in clear.
    apps = _historical_apps()
    migration.open_sealed(apps, None)
    row = GameTable.objects.values("seed", "deal", "sealed").get(pk=running.pk)
    assert (row["seed"], row["deal"], row["sealed"]) == (seed, deal, "")
    plain = models.QuerySet(model=Move)
    assert (
        moves
        and [
            (st, se, a)
            for st, se, a in plain.filter(table=running)
            .order_by("step")
            .values_list("step", "seat", "action")
        ]
        == moves
    )

    migration.seal_running(apps, None)

    running.refresh_from_db()
    assert running.seed is None and running.deal is None and running.sealed
    assert services.secrets_of(running) == (seed, deal) and services.moves_of(running) == moves
    finished.refresh_from_db()
    assert finished.sealed == "" and finished.seed is not None
    # The game goes on after the migration.
    play_out(commit, people.users["member"], running)
    running.refresh_from_db()
    assert running.over and running.seed == seed
