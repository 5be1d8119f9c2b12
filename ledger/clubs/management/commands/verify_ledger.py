"""Prove that no journal entry was altered, removed or slipped in behind the service.

Checks, for every club: the hash chain; each line's seal (lines made by anything but the
service have none that holds) and identity (a copied line repeats one, a moved or removed
line leaves its write out of order or short); that the journal extends every signed checkpoint, the
database's own and those of ``--checkpoints`` (a published feed, as a file or an address);
and that the result rows and standings rows agree with the journal.
"""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ledger.clubs.journal import audit, checkpoints, selectors
from ledger.clubs.journal.journal import verify_chain
from ledger.clubs.models import Club, Entry


def _read(source: str) -> Any:
    if source.startswith(("https://", "http://")):
        request = urllib.request.Request(source, headers={"Accept": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.loads(answer.read())
    if source == "-":
        import sys

        return json.load(sys.stdin)
    return json.loads(Path(source).read_text(encoding="utf-8"))


class Command(BaseCommand):
    help = (
        "Check every club's journal: its hash chain, each line's seal, every signed "
        "checkpoint, and the results and standings against the journal."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--checkpoints",
            action="append",
            default=[],
            metavar="FILE|URL",
            help="a checkpoint feed (/c/<club>/checkpoints.json) kept outside the database; "
            "may be given several times",
        )
        parser.add_argument(
            "--public-key",
            default=None,
            help="the public key (hex) the checkpoints must be signed with; default: this "
            "service's own",
        )
        parser.add_argument("--club", default=None, help="only this club (its short name)")
        parser.add_argument(
            "--export",
            action="append",
            default=[],
            metavar="FILE",
            help="check a club's export file instead of the database: its lines, journal, "
            "seals, named checkpoints and signature (with --public-key: the key of the "
            "installation that made it); may be given several times",
        )
        parser.add_argument(
            "--allow-unsigned",
            action="store_true",
            help="with --export: take a file of version 1 of the format (not signed) and "
            "check what it has",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["export"]:
            self._check_exports(options)
            return
        problems: list[str] = []
        clubs = Club.objects.order_by("pk")
        if options["club"]:
            clubs = clubs.filter(slug=options["club"])
        checked = 0
        for club in clubs:
            problems.extend(verify_chain(club))
            lines = Entry.objects.filter(club=club).order_by("sequence")
            problems.extend(checkpoints.line_problems(club, lines.iterator()))
            problems.extend(checkpoints.repeated_lines(club))
            problems.extend(selectors.earlier_keys(club)[1])
            problems.extend(audit.result_problems(club))
            problems.extend(audit.standing_problems(club))
            checked += club.journal_length
        key = options["public_key"]
        published, others = checkpoints.from_database(key)
        if others:
            self.stdout.write(
                f"{others} checkpoint(s) in the database are signed with a key neither this "
                "installation's nor one a club keeps from where it was before: give its public "
                "key with --public-key to check them."
            )
        for source in options["checkpoints"]:
            try:
                published += checkpoints.parse_feeds(_read(source))
            except (OSError, ValueError, KeyError, TypeError) as exc:
                raise CommandError(f"{source}: cannot read checkpoints ({exc})") from exc
        if options["club"]:
            ids = set(clubs.values_list("pk", flat=True))
            published = [p for p in published if p.club_id in ids]
        problems.extend(checkpoints.check(published, key))
        for problem in problems:
            self.stderr.write(problem)
        if problems:
            raise CommandError(f"{len(problems)} problem(s) in the journal")
        self.stdout.write(
            self.style.SUCCESS(
                f"Journal intact: {checked} entries checked, "
                f"extends {len(published)} signed checkpoint(s)."
            )
        )

    def _check_exports(self, options: dict[str, Any]) -> None:
        from ledger.clubs.transfer import transfer

        refused = 0
        for name in options["export"]:
            path = Path(name)
            if not path.is_file():
                raise CommandError(f"No such file: {path}")
            try:
                with path.open("rb", buffering=1 << 20) as stream:
                    checked = transfer.check_export(
                        stream,
                        trusted_key=options["public_key"],
                        allow_unsigned=options["allow_unsigned"],
                    )
            except transfer.Refused as why:
                refused += 1
                self.stderr.write(f"{path}: {why}")
                continue
            signed = (
                f"signed with the key {checked.signed_by}"
                if checked.signed_by
                else "not signed (version 1)"
            )
            self.stdout.write(
                self.style.SUCCESS(
                    f"{path}: export of {checked.slug} intact: {checked.lines} lines, "
                    f"{checked.journal_length} journal entries, extends "
                    f"{checked.checkpoints} signed checkpoint(s), {signed}."
                )
            )
        if refused:
            raise CommandError(f"{refused} export(s) do not verify")
