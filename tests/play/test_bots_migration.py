"""Migration play 0004 on a database from before bot games were practice: the bots' results
are reversed in the journal (never edited), and the projections rebuilt without them."""

from __future__ import annotations

import importlib

from django.apps import apps

from ledger.clubs.journal import journal
from ledger.clubs.models import Entry, Membership, Player, Rating, Result, Standing
from ledger.clubs.projections.standings import standings
from ledger.play import services
from ledger.play.models import PlaySeat
from tests.play.conftest import dealt, play_out

migration = importlib.import_module("ledger.play.migrations.0004_bot_games_are_practice")


def _old_bot_game(commit, people):
    """What the service did before: a cardchess table against a bot, recorded as counting,
    the bot and the digital referee members of the club."""
    user = people.users["member"]
    with dealt(3):
        table = commit(
            services.create_table,
            user=user,
            club=people.club,
            game="cardchess",
            seats=["me", "open"],
        )
    PlaySeat.objects.filter(table=table, index=1).update(kind="heuristic")
    table.refresh_from_db()
    commit(services._start_when_full, table)
    table.refresh_from_db()
    bot = table.seats.get(index=1).player
    # Before migration 0011 nobody was flagged.
    Player.objects.filter(pk=bot.pk).update(automated=False)
    assert Membership.objects.filter(player=bot, club=people.club).exists()
    play_out(commit, user, table)
    table.refresh_from_db()
    return table, bot


def test_old_bot_results_are_reversed_and_the_projections_rebuilt(commit, people):
    table, bot = _old_bot_game(commit, people)
    engine_player = Player.objects.get(user__username=services.ENGINE_USERNAME)
    Player.objects.filter(pk=engine_player.pk).update(automated=False)
    comp = table.result.competition
    assert Standing.objects.filter(competition=comp, player=bot).exists()
    assert Rating.objects.filter(player=bot).exists()
    lines_before = list(Entry.objects.order_by("sequence").values_list("pk", "hash"))

    migration.bots_out_of_the_ledger(apps, None)

    table.refresh_from_db()
    assert table.practice
    result = Result.objects.get(pk=table.result_id)
    assert result.status == Result.Status.SUPERSEDED and "practice" in result.reason
    # The journal only grew: the old lines are there unchanged, each credit reversed.
    after = list(Entry.objects.order_by("sequence").values_list("pk", "hash"))
    assert after[: len(lines_before)] == lines_before
    reversals = Entry.objects.filter(result=result, kind=Entry.Kind.REVERSAL)
    assert reversals.count() == 2
    assert journal.verify_chain(people.club) == []
    # No bot, no referee in the projections; the human's row shows nothing counted.
    assert Player.objects.filter(pk__in=[bot.pk, engine_player.pk], automated=True).count() == 2
    assert not Standing.objects.filter(player__automated=True).exists()
    assert not Rating.objects.filter(player__automated=True).exists()
    mine = Standing.objects.get(competition=comp, player=people.players["member"])
    assert mine.played == 0 and mine.points == 0
    assert bot.pk not in {r.player_id for r in standings(comp)}
    assert not Rating.objects.filter(player=people.players["member"], game="cardchess").exists()


def test_on_a_database_without_bot_games_it_changes_nothing(people):
    migration.bots_out_of_the_ledger(apps, None)
    assert not Entry.objects.exists() and not Player.objects.filter(automated=True).exists()
