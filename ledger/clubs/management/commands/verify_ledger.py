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

from ledger.clubs import audit, checkpoints
from ledger.clubs.journal import verify_chain
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

    def handle(self, *args: Any, **options: Any) -> None:
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
            problems.extend(audit.result_problems(club))
            problems.extend(audit.standing_problems(club))
            checked += club.journal_length
        key = options["public_key"]
        published, others = checkpoints.from_database(key)
        if others:
            self.stdout.write(
                f"{others} checkpoint(s) in the database are signed with another key (a club "
                "brought from another installation): give its public key with --public-key "
                "to check them."
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
