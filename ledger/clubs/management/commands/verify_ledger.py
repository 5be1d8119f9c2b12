"""Prove that no journal entry was altered, removed or slipped in behind the service."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from ledger.clubs.models import Club
from ledger.clubs.services import verify_chain


class Command(BaseCommand):
    help = "Check every club's hash chain of journal entries; name the first broken link."

    def handle(self, *args: Any, **options: Any) -> None:
        problems: list[str] = []
        checked = 0
        for club in Club.objects.order_by("pk"):
            problems.extend(verify_chain(club))
            checked += club.journal_length
        for problem in problems:
            self.stderr.write(problem)
        if problems:
            raise CommandError(f"{len(problems)} problem(s) in the journal")
        self.stdout.write(self.style.SUCCESS(f"Journal intact: {checked} entries checked."))
