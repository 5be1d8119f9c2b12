"""Bring a backup made by `manage.py backup` back, on this machine or a new one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from ledger.clubs.transfer import backup, transfer


class Command(BaseCommand):
    help = (
        "Restore a backup (a backup's folder, or the newest in the backup folder) into this "
        "installation's database, then prove every club's journal against the backup's heads."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "backup", nargs="?", default=None, help="a backup folder (default: the newest)"
        )
        parser.add_argument(
            "--from-exports",
            action="store_true",
            help="import the clubs' exports instead of the database copy (to move from SQLite "
            "to PostgreSQL, or back)",
        )
        parser.add_argument(
            "--replace",
            action="store_true",
            help="restore over a database that holds clubs (an SQLite file is kept beside)",
        )
        parser.add_argument(
            "--public-key",
            default=None,
            help="the public key (hex) of the installation that made the backup, which its "
            "manifest and exports must be signed with; default: this installation's own",
        )
        parser.add_argument(
            "--allow-unsigned",
            action="store_true",
            help="also restore a backup made before backups and exports were signed",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        where = Path(options["backup"] or settings.LEDGER_BACKUP_DIR)
        notes: list[str] = []
        try:
            chosen = backup.choose(where)
            clubs = backup.restore(
                chosen,
                from_exports=options["from_exports"],
                replace=options["replace"],
                notes=notes,
                trusted_key=options["public_key"],
                allow_unsigned=options["allow_unsigned"],
            )
        except (backup.BackupError, transfer.Refused) as exc:
            raise CommandError(f"Not restored: {exc}") from None
        for note in notes:
            self.stdout.write(note)
        self.stdout.write(
            self.style.SUCCESS(
                f"Restored {chosen.name}: {len(clubs)} club(s) ({', '.join(clubs) or 'none'}), "
                "every journal intact and at the backup's head."
            )
        )
