"""Keep the per-round totals (RoundTotal) where the journal's lines count when a round is
deleted: it writes nothing to the journal, yet changes which round its penalties' lines
are in."""

from __future__ import annotations

from typing import Any

from django.db.models.signals import pre_delete
from django.dispatch import receiver

from ledger.clubs.models import Penalty, Round


@receiver(pre_delete, sender=Round)
def deleted_round_leaves_its_totals_in_no_round(
    sender: Any, instance: Round, **kwargs: Any
) -> None:
    """The round's penalties fall out of every round (their foreign key is set to null):
    their lines' totals go with them. Its tables follow at the next standings read (see
    ``reconcile_moved_tables``)."""
    from ledger.clubs.projections.projections import move_penalty_totals

    for penalty_id in Penalty.objects.filter(round=instance).values_list("pk", flat=True):
        move_penalty_totals(penalty_id, instance.pk, 0)
