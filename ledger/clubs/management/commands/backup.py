"""A consistent copy of the installation, while the service runs, into a rotating folder."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from ledger.clubs.transfer import backup


class Command(BaseCommand):
    help = (
        "Back up the database (SQLite's online backup, or pg_dump on PostgreSQL) and every "
        "club's export into a new folder of the backup folder, keeping the newest N."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--dir", default=None, help="the backup folder (LEDGER_BACKUP_DIR, default backups/)"
        )
        parser.add_argument(
            "--keep", type=int, default=None, help="backups kept (LEDGER_BACKUP_KEEP, default 7)"
        )
        parser.add_argument(
            "--no-exports",
            action="store_true",
            help="only the database copy, without every club's export beside it",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        folder = Path(options["dir"] or settings.LEDGER_BACKUP_DIR)
        keep = options["keep"] if options["keep"] is not None else settings.LEDGER_BACKUP_KEEP
        try:
            made = backup.make_backup(folder, keep=keep, exports=not options["no_exports"])
        except backup.BackupError as exc:
            raise CommandError(f"No backup made: {exc}") from None
        size = sum(made.files.values())
        self.stdout.write(
            self.style.SUCCESS(
                f"Backup {made.path} ({len(made.files)} files, {size / 1e6:.1f} MB); "
                f"{len(made.removed)} older removed, {keep} kept at most."
            )
        )
