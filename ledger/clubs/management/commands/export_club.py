"""Write a whole club, journal and all, to one file that import_club reads back."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ledger.clubs.models import Club
from ledger.clubs.transfer import transfer


class Command(BaseCommand):
    help = (
        "Export a club (players, competitions, results with every version, the journal with "
        "its hashes and head, rulings, digital games, ratings) as JSON lines; see docs/export.md."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the club's short name")
        parser.add_argument("file", help="where to write the export ('-' for standard output)")
        parser.add_argument(
            "--with-secrets",
            action="store_true",
            help="also the logins' password hashes and e-mail addresses and the webhooks "
            "with their signing secrets (for a backup or a move; keep the file private)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        club = Club.objects.filter(slug=options["slug"]).first()
        if club is None:
            raise CommandError(f"No club with the short name '{options['slug']}'.")
        started = time.perf_counter()
        secrets = options["with_secrets"]
        if options["file"] == "-":
            lines = transfer.write_export(club, sys.stdout.buffer, secrets=secrets)
            return
        target = Path(options["file"])
        partial = target.with_name(target.name + ".partial")
        # Written beside and renamed at the end: a file with the export's name is whole.
        with partial.open("wb", buffering=1 << 20) as out:
            lines = transfer.write_export(club, out, secrets=secrets)
        partial.replace(target)
        self.stdout.write(
            self.style.SUCCESS(
                f"Exported {club.slug}: {lines} lines ({club.journal_length} journal entries) "
                f"to {target} in {time.perf_counter() - started:.1f} s."
            )
        )
