"""Bring a club exported by export_club into this installation, all or nothing."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ledger.clubs.transfer import transfer


class Command(BaseCommand):
    help = (
        "Import a club's export (docs/export.md). The journal is checked line by line and "
        "again once written, with the standings and ratings rebuilt from it; a changed, "
        "cut or duplicate file is refused with the line and the reason, and nothing is written."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="an export_club file ('-' for standard input)")
        parser.add_argument(
            "--public-key",
            default=None,
            help="the public key (hex) of the installation that made the file, which it must "
            "be signed with; default: this installation's own",
        )
        parser.add_argument(
            "--allow-unsigned",
            action="store_true",
            help="also take a file of version 1 of the format, which is not signed",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        trust = {"trusted_key": options["public_key"], "allow_unsigned": options["allow_unsigned"]}
        try:
            if options["file"] == "-":
                imported = transfer.import_club(sys.stdin.buffer, **trust)
            else:
                path = Path(options["file"])
                if not path.is_file():
                    raise CommandError(f"No such file: {path}")
                with path.open("rb", buffering=1 << 20) as stream:
                    imported = transfer.import_club(stream, **trust)
        except transfer.Refused as refused:
            raise CommandError(f"Refused, nothing was written: {refused}") from None
        self.stdout.write(
            self.style.SUCCESS(
                f"Imported {imported.club.slug}: {imported.lines} lines, "
                f"{imported.journal_length} journal entries; the chain, its head, the "
                f"standings and the ratings were proven equal to the export's "
                f"({time.perf_counter() - started:.1f} s)."
            )
        )
