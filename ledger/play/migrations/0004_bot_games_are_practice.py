"""Games played with bots become practice, and bots and the digital referee leave every
club's standings, ratings and lists of members.

The journal stays append-only: each counted result of a table with bots gets reversing
journal lines (the points of every seat, negated) and is marked superseded with the
reason; then the standings of the competitions concerned are rebuilt from the journal and
the ratings of the games concerned replayed, and the rows the bots and the referee still
held in those projections are dropped (they are derived data). See docs/ledger.md.

The reversals go through the service's own journal writer, so the chain's hashes are made
exactly as for any correction. That code is imported only when there is something to
reverse: a new database never loads it here.
"""

from django.apps.registry import Apps
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from decimal import Decimal

from django.db import migrations

BOT_KINDS = ("random", "heuristic")
REASON = (
    "Partita con bot: conta come allenamento, non in una competizione. "
    "A game with bots is practice and counts in no competition."
)


def bots_out_of_the_ledger(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    GameTable = apps.get_model("play", "GameTable")
    PlaySeat = apps.get_model("play", "PlaySeat")
    Player = apps.get_model("clubs", "Player")
    bot_seats = PlaySeat.objects.filter(kind__in=BOT_KINDS)
    Player.objects.filter(pk__in=bot_seats.filter(player__isnull=False).values("player_id")).update(
        automated=True
    )
    Player.objects.filter(user__username="play-engine").update(automated=True)
    tables = list(
        GameTable.objects.filter(pk__in=bot_seats.values("table_id")).values_list(
            "pk", "result_id"
        )
    )
    GameTable.objects.filter(pk__in=[pk for pk, _r in tables]).update(practice=True)
    result_ids = [r for _pk, r in tables if r is not None]
    automated = list(Player.objects.filter(automated=True).values_list("pk", flat=True))
    Result = apps.get_model("clubs", "Result")
    touched = Result.objects.filter(pk__in=result_ids)
    if not touched.exists() and not automated:
        return
    # Something to undo: through the live service code (see the module's note).
    from ledger.clubs import models as live
    from ledger.clubs import ratings
    from ledger.clubs.results import services
    from ledger.clubs.journal import journal
    from ledger.clubs.projections import projections

    competitions = set()
    games = set()
    for result in live.Result.objects.filter(pk__in=result_ids).select_related("competition"):
        competitions.add(result.competition_id)
        games.add((result.club_id, result.competition.game))
        if result.status == live.Result.Status.ACCEPTED:
            credits = result.entries.filter(kind=live.Entry.Kind.CREDIT).order_by("seat")
            lines = [(e.seat, e.player_id, -Decimal(e.points)) for e in credits]
            if lines:
                journal.journal_entries([(result, lines, live.Entry.Kind.REVERSAL)])
        if result.status != live.Result.Status.SUPERSEDED:
            live.Result.objects.filter(pk=result.pk).update(
                status=live.Result.Status.SUPERSEDED, reason=REASON
            )
    # Every competition and game where a bot or the referee holds a projected row.
    for competition_id in live.Standing.objects.filter(player_id__in=automated).values_list(
        "competition_id", flat=True
    ):
        competitions.add(competition_id)
    for club_id, game in live.Rating.objects.filter(player_id__in=automated).values_list(
        "club_id", "game"
    ):
        games.add((club_id, game))
    for competition in live.Competition.objects.filter(pk__in=competitions):
        projections.rebuild_standings(competition)
    live.Standing.objects.filter(player_id__in=automated).delete()
    for club_id, game in sorted(games):
        ratings.recompute(club_id, game)
    live.Rating.objects.filter(player_id__in=automated).delete()
    live.RatingChange.objects.filter(player_id__in=automated).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0014_bots_and_referee_flag"),
        ("play", "0003_fair_deals_and_practice"),
    ]

    operations = [migrations.RunPython(bots_out_of_the_ledger, migrations.RunPython.noop)]
