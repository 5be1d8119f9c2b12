"""How many games a table of a competition may take, from its format settings, told to the
ledger core: the core refuses a result at a table with no room (ledger/clubs/results/services.py,
docs/ledger.md "Invariants") but knows no format, so the formats give it the number.

A table plays the competition's hands per table; a knockout match's table plays that many
for each game of the match (best of N). A competition without format settings sets no
limit. When the settings are saved (made, changed), every table of the competition gets the
new room; a table already holding more keeps what it holds and takes no more.
"""

from __future__ import annotations

from typing import Any

from ledger.clubs.models import Competition
from ledger.clubs.results import services as core
from ledger.formats.models import FormatSettings


def of_settings(competition: Competition, fs: FormatSettings) -> int:
    games = max(int(fs.hands_per_table), 1)
    if competition.format == Competition.Format.KNOCKOUT:
        games *= max(int(fs.best_of), 1)
    return games


def of_competition(competition: Competition) -> int | None:
    """The room of a new table of the competition (None: no limit)."""
    fs = FormatSettings.objects.filter(competition=competition).first()
    return None if fs is None else of_settings(competition, fs)


def settings_saved(sender: Any, instance: FormatSettings, **kwargs: Any) -> None:
    competition = instance.competition
    core.set_table_capacity(competition=competition, capacity=of_settings(competition, instance))


def connect() -> None:
    from django.db.models.signals import post_save

    core.set_capacity_source(of_competition)
    post_save.connect(settings_saved, sender=FormatSettings, dispatch_uid="formats-capacity")
