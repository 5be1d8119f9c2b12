"""Send a club's journal lines the hub does not hold yet (docs/operations.md)."""

from __future__ import annotations

import os
import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from ledger.clubs.models import Club
from ledger.clubs.transfer import transfer
from ledger.hub import client


class Command(BaseCommand):
    help = (
        "Send the club's new journal lines to the federation's hub, in signed chunks; a sync "
        "cut short carries on from the hub's head when run again. The hub's address and "
        "token are those kept on the club's office page, or --url and the environment "
        "variable LEDGER_HUB_TOKEN (given with --url, they are also kept)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("club", help="the club's short name")
        parser.add_argument("--url", default="", help="the hub's address, https://…")
        parser.add_argument(
            "--chunk",
            type=int,
            default=None,
            help="journal lines per upload (default: LEDGER_HUB_CHUNK_LINES, 500)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        club = Club.objects.filter(slug=options["club"]).first()
        if club is None:
            raise CommandError(f"No club called {options['club']!r} here.")
        if options["url"]:
            token = os.environ.get("LEDGER_HUB_TOKEN", "")
            try:
                client.HttpHub(options["url"], club.slug, token)
            except client.SyncError as wrong:
                raise CommandError(str(wrong)) from None
            client.set_hub(club=club, url=options["url"], token=token)
        started = time.perf_counter()

        def shown(sent: int, total: int, done: int, chunks: int) -> None:
            self.stdout.write(f"{sent} / {total} lines sent, chunk {done} of {chunks}")

        try:
            head = client.push(
                club,
                client.hub_for(club),
                chunk=max(1, options["chunk"] or settings.LEDGER_HUB_CHUNK_LINES),
                progress=shown,
            )
        except (client.SyncError, transfer.Refused) as stopped:
            raise CommandError(f"The sync stopped: {stopped}") from None
        self.stdout.write(
            self.style.SUCCESS(
                f"The hub holds {club.slug}'s journal up to line {head.length} "
                f"(head {head.head[:12]}), {time.perf_counter() - started:.1f} s."
            )
        )
