"""Rebuild the federations' rankings from the journal (docs/federation.md, "Rankings"):
every game's rating and points ranking of every federation, or of those named. With a
broker (CELERY_BROKER_URL) the pieces (a federation's game's rating, its points ranking)
are sent as one Celery group, shared by however many workers run (two halve the time
when there are two pieces or more), and the command shows them done as they end; without
one it runs them here, one after the other."""

from __future__ import annotations

import time
from typing import Any, cast

from celery import group
from celery.result import GroupResult
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from ledger.federation import rankings
from ledger.federation.models import Federation
from ledger.federation.tasks import rebuild


class Command(BaseCommand):
    help = "Rebuild the federations' rankings (rating and points, every game) from the journal."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "federation", nargs="*", help="the federations' short names (all when none)"
        )
        parser.add_argument(
            "--here",
            action="store_true",
            help="run every piece in this process, even with a broker",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        slugs: list[str] = options["federation"]
        ids = list(Federation.objects.filter(slug__in=slugs).values_list("pk", flat=True))
        if slugs and len(ids) != len(set(slugs)):
            raise CommandError("No such federation: " + ", ".join(slugs))
        pieces = rankings.units(ids or None)
        total = len(pieces)
        self.stdout.write(f"{total} piece(s) to rebuild: a game's rating or its points ranking.")
        started = time.monotonic()

        def shown(done: int) -> None:
            self.stdout.write(f"  {done}/{total} done ({time.monotonic() - started:.1f} s)")

        if settings.CELERY_TASK_ALWAYS_EAGER or options["here"]:
            rankings.run_units(pieces, progress=shown)
        else:
            sent = cast(GroupResult, group(rebuild.s(f, g, k) for f, g, k in pieces).apply_async())
            done = -1
            while not sent.ready():
                now = sent.completed_count()
                if now != done:
                    shown(now)
                    done = now
                time.sleep(0.5)
            sent.get(propagate=True)
            shown(total)
        self.stdout.write(self.style.SUCCESS(f"Rebuilt in {time.monotonic() - started:.1f} s."))
