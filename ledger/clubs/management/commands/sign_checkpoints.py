"""Sign a checkpoint of every club's journal that grew since its last one (the worker's beat
runs the same job every LEDGER_CHECKPOINT_SECONDS; cron can run this instead)."""

from typing import Any

from django.core.management.base import BaseCommand

from ledger.clubs.journal import checkpoints
from ledger.clubs.models import Checkpoint


class Command(BaseCommand):
    help = "Sign a checkpoint of every club's journal that grew since its last one."

    def handle(self, *args: Any, **options: Any) -> None:
        signed = checkpoints.sign_all(Checkpoint.Reason.INTERVAL)
        for c in signed:
            self.stdout.write(f"{c.club_id}: signed at line {c.length} ({c.signed_at_text})")
        self.stdout.write(self.style.SUCCESS(f"{len(signed)} checkpoint(s) signed."))
