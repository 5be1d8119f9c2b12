"""Results scored from a summary before every engine entry gave one Outcome keep the
engine's Outcome beside their verdict, and the standings' wins, draws and losses are
counted again from it (a 4-player cardChess game won on the deciding sfida, or a San Marco
variant-3 win on the tie-break, had been counted as draws)."""

from typing import Any

from django.apps.registry import Apps
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db import migrations


def keep_outcomes(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    from games.core import EngineError, RecordError, registry
    from ledger.clubs.outcomes import DRAW, LOSS, WIN, outcomes

    Result = apps.get_model("clubs", "Result")
    Entry = apps.get_model("clubs", "Entry")
    Standing = apps.get_model("clubs", "Standing")
    changed = set()
    for result in Result.objects.filter(source="summary").select_related("competition"):
        verdict = result.verdict
        if not isinstance(verdict, dict) or isinstance(verdict.get("outcome"), dict):
            continue
        game = result.competition.game
        if game not in registry.available():
            continue
        try:
            report = registry.get(game).score(result.record, result.competition.ruleset or None)
        except (RecordError, EngineError, ValueError, TypeError, KeyError):
            continue
        if report.outcome is None or len(report.outcome.scores) != len(result.scores):
            continue
        Result.objects.filter(pk=result.pk).update(
            verdict={**verdict, "outcome": report.outcome.to_json()}
        )
        changed.add(result.competition_id)
    names = {WIN: "wins", DRAW: "draws", LOSS: "losses"}
    for competition_id in changed:
        decided = {
            pk: outcomes(scores, verdict)
            for pk, scores, verdict in Result.objects.filter(
                competition_id=competition_id
            ).values_list("pk", "scores", "verdict")
        }
        counts: dict[Any, dict[str, int]] = {}
        for player, seat, kind, result_id in Entry.objects.filter(
            competition_id=competition_id
        ).values_list("player_id", "seat", "kind", "result_id"):
            if kind not in ("credit", "reversal"):
                continue  # a penalty or its cancellation: points, no game
            seats = decided.get(result_id, [])
            if seat < len(seats):
                row = counts.setdefault(player, {"wins": 0, "draws": 0, "losses": 0})
                row[names[seats[seat]]] += 1 if kind == "credit" else -1
        for player, row in counts.items():
            Standing.objects.filter(competition_id=competition_id, player_id=player).update(
                **{k: max(v, 0) for k, v in row.items()}
            )
    _round_totals_again(apps, changed)


def _round_totals_again(apps: Apps, competitions: set[Any]) -> None:
    """The per-round totals (migration 0016) of the competitions whose winners changed,
    counted again from their journal as that migration counts them."""
    from decimal import Decimal

    from ledger.clubs.outcomes import outcomes

    Entry = apps.get_model("clubs", "Entry")
    Result = apps.get_model("clubs", "Result")
    RoundTotal = apps.get_model("clubs", "RoundTotal")
    counters = {"win": 2, "draw": 3, "loss": 4}
    for competition_id in sorted(competitions):
        RoundTotal.objects.filter(competition_id=competition_id).delete()
        lines = Entry.objects.filter(competition_id=competition_id).values_list(
            "player_id", "seat", "points", "kind", "result_id", "table__totals_round",
            "penalty_id", "penalty__round_id",
        )
        decided = {
            pk: outcomes(scores, verdict)
            for pk, scores, verdict in Result.objects.filter(
                competition_id=competition_id
            ).values_list("pk", "scores", "verdict")
        }
        keyed: dict[tuple[Any, Any], list[Any]] = {}
        for player_id, seat, points, kind, result_id, table_round, penalty, penalty_round in lines:
            key = (penalty_round if penalty else table_round) or 0
            row = keyed.setdefault((key, player_id), [Decimal(0), 0, 0, 0, 0])
            row[0] += points
            if kind in ("penalty", "cancel"):
                continue
            step = 1 if kind == "credit" else -1
            row[1] += step
            seat_outcomes = decided.get(result_id, [])
            if seat < len(seat_outcomes):
                row[counters[seat_outcomes[seat]]] += step
        RoundTotal.objects.bulk_create(
            [
                RoundTotal(
                    competition_id=competition_id,
                    round_key=key,
                    player_id=player_id,
                    points=v[0],
                    played=v[1],
                    wins=v[2],
                    draws=v[3],
                    losses=v[4],
                )
                for (key, player_id), v in sorted(keyed.items())
            ]
        )


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0017_tables_know_their_counted_round"),
    ]

    operations = [
        migrations.RunPython(keep_outcomes, migrations.RunPython.noop),
    ]
