"""Import results from a spreadsheet (CSV, .xlsx, .ods) or a JSONL file (columns and fields
in docs/imports.md)."""

from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from ledger.clubs.errors import LedgerError
from ledger.clubs.models import Club
from ledger.clubs.transfer.imports import create_job, run_job
from ledger.clubs.transfer.selectors import in_words


class Command(BaseCommand):
    help = (
        "Import results from a spreadsheet (CSV, .xlsx, .ods) or JSONL file; every row is "
        "checked by the game's engine."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file", help="the CSV, .xlsx, .ods or JSONL file")
        parser.add_argument("--club", help="the club's short name (needed when there are several)")
        parser.add_argument("--user", help="who the results are entered by (a scorekeeper)")
        parser.add_argument(
            "--format",
            choices=["csv", "jsonl", "xlsx", "ods"],
            help="default: by the file's content and extension",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["file"])
        if not path.is_file():
            raise CommandError(f"{path}: no such file")
        clubs = Club.objects.all()
        if options["club"]:
            clubs = clubs.filter(slug=options["club"])
        if clubs.count() != 1:
            known = ", ".join(Club.objects.values_list("slug", flat=True))
            raise CommandError(f"name the club with --club (one of: {known})")
        club = clubs.get()
        users = get_user_model().objects
        if options["user"]:
            user = users.filter(username=options["user"]).first()
            if user is None:
                raise CommandError(f"no user {options['user']!r}")
        else:
            user = users.filter(is_superuser=True).order_by("pk").first()
            if user is None:
                raise CommandError("name the user who enters the results with --user")
        try:
            job = create_job(
                user=user,
                club=club,
                filename=path.name,
                raw=path.read_bytes(),
                fmt=options["format"],
            )
        except LedgerError as exc:
            raise CommandError(exc.message) from exc
        self.stdout.write(f"{path.name}: {in_words(job.understood)}")
        job = run_job(job.pk)
        for error in job.errors:
            rules = f" [{', '.join(error['rules'])}]" if error.get("rules") else ""
            self.stderr.write(f"{path.name}:{error['line']}: {error['message']}{rules}")
        summary = (
            f"{job.imported} imported, {job.replayed} already there, "
            f"{len(job.errors)} refused, of {job.total} rows."
        )
        if job.errors:
            raise CommandError(summary)
        self.stdout.write(self.style.SUCCESS(summary))
