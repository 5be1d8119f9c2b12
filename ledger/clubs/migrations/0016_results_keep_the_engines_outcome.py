"""Results scored from a summary before every engine entry gave one Outcome keep the
engine's Outcome beside their verdict, and the standings' wins, draws and losses are
counted again from it (a 4-player cardChess game won on the deciding sfida, or a San Marco
variant-3 win on the tie-break, had been counted as draws)."""

from django.db import migrations


def keep_outcomes(apps, schema_editor):
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
        counts = {}
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


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0015_scoped_idempotency_keys"),
    ]

    operations = [
        migrations.RunPython(keep_outcomes, migrations.RunPython.noop),
    ]
