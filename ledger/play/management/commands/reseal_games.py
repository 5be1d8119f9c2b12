"""Seal the secrets of every running digital game again under the first key of
LEDGER_SEALING_KEYS: the step of a key's rotation between adding the new key in front and
dropping the old one (docs/operations.md)."""

from typing import Any

from django.core.management.base import BaseCommand

from ledger.play import services


class Command(BaseCommand):
    help = "Seal every running digital game's seed, deal and moves again under the first key."

    def handle(self, *args: Any, **options: Any) -> None:
        done = services.reseal_running()
        self.stdout.write(
            self.style.SUCCESS(f"{done} running table(s) sealed under the first key.")
        )
