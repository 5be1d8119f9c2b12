"""Who takes part in a competition: the people a night's penalties, replacements and
re-seatings may concern, and the only people its standings list.

A player takes part when they are entered in the competition's format (an entrant), sit
at one of its tables now (a substitute included), or played a hand of it that the journal
credited (a player replaced after some hands). A club member who is none of these is no
part of the competition: a penalty to them is refused, and a standings row such a penalty
made before that rule is never shown.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Exists, OuterRef, QuerySet

from ledger.clubs.models import Competition, Entry, Player, Seat


def _takes_part(competition: Competition) -> Any:
    # The format's entrants are read through the reverse relation of the formats app's
    # Entrant (related name "entries_in"), so the clubs app imports nothing of it.
    entered = Player.objects.filter(pk=OuterRef("pk"), entries_in__competition=competition)
    seated = Seat.objects.filter(player_id=OuterRef("pk"), table__competition=competition)
    credited = Entry.objects.filter(
        player_id=OuterRef("pk"), competition=competition, kind=Entry.Kind.CREDIT
    )
    return Exists(entered) | Exists(seated) | Exists(credited)


def participants(competition: Competition) -> QuerySet[Player]:
    """Everyone who takes part in ``competition``, by name (the penalty form's list);
    never a bot or the digital referee."""
    return (
        Player.objects.filter(automated=False)
        .filter(_takes_part(competition))
        .order_by("name", "pk")
    )


def taking_part(competition: Competition, player_ids: Iterable[int]) -> set[int]:
    """Those of ``player_ids`` who take part in ``competition`` (one query)."""
    wanted = set(player_ids)
    if not wanted:
        return set()
    return set(
        Player.objects.filter(pk__in=wanted)
        .filter(_takes_part(competition))
        .values_list("pk", flat=True)
    )


def takes_part(competition: Competition, player: Player) -> bool:
    return player.pk in taking_part(competition, [player.pk])
