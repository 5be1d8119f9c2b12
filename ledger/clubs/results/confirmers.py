"""Who may confirm a pending result: two people check it, and the second one has nothing
to gain from it.

- Never the person who entered it.
- A second person or blind re-entry: a scorekeeper (or a referee, an organiser) who did
  not play at the table. A scorekeeper who played there is refused like any player, so
  that an organiser never confirms her own table's results as the second person; a club
  whose only scorekeeper plays can name a second one, or let the players sign off.
- Sign-off at the table: a player seated at the table on the side the result went
  against, or a scorekeeper who did not play there. The side that entered it is the one
  the person who entered it sat on (with their partners: the same side of a two-sided game,
  the other winners when they won); when they did not play, the side the result favours,
  its winners. So the player who gained never signs off a result someone else typed for
  them, and nobody signs off their own side's entry. In a result nobody won, every player
  seated there but the one who entered it may sign off.

The services (confirm_result, confirm_results, reenter_result, confirm_with_pin) refuse by
``refusal``; the pages say its words to whoever may not confirm.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from ledger.clubs.models import Competition, Result, Role
from ledger.clubs.outcomes import WIN, outcomes


def _sides(verdict: Any, seats: int) -> list[int] | None:
    """Each seat's side in a game of two sides, from the engine's Outcome (None: none)."""
    outcome = verdict.get("outcome") if isinstance(verdict, Mapping) else None
    sides = outcome.get("sides") if isinstance(outcome, Mapping) else None
    if isinstance(sides, list) and len(sides) == seats:
        return [int(s) for s in sides]
    return None


def seated_users(result: Result) -> dict[int, int | None]:
    """Seat index -> the login of the player seated there (None: a player with none)."""
    cached = getattr(result, "_seated_users", None)
    if cached is None:
        cached = dict(result.table.seats.values_list("index", "player__user_id"))
        result._seated_users = cached
    return cached


def entering_side(result: Result) -> set[int]:
    """The seats of the side that entered the result (see the module's words)."""
    seats = len(result.scores)
    marks = outcomes(result.scores, result.verdict)
    sides = _sides(result.verdict, seats)
    users = seated_users(result)
    side = {i for i, u in users.items() if u is not None and u == result.entered_by_id}
    if not side:
        side = {i for i in range(seats) if marks[i] == WIN}
    if sides is not None:
        theirs = {sides[i] for i in side if i < seats}
        return {i for i in range(seats) if sides[i] in theirs}
    if any(marks[i] == WIN for i in side if i < seats):
        side |= {i for i in range(seats) if marks[i] == WIN}
    return side


def signoff_seats(result: Result) -> set[int]:
    """The seats whose players may sign the result off at the table."""
    return set(range(len(result.scores))) - entering_side(result)


def refusal(user: Any, result: Result) -> str | None:
    """None when ``user`` may confirm the pending ``result``; else why not, in words."""
    if not getattr(user, "is_authenticated", False):
        return _("Log in to confirm this result.")
    if result.entered_by_id == user.pk:
        return _(
            "You entered this result: someone else must confirm it, so that two people check it."
        )
    mine = {i for i, u in seated_users(result).items() if u == user.pk}
    scorekeeper = result.club.allows(user, Role.SCOREKEEPER)
    if result.competition.confirmation == Competition.Confirmation.OPPONENTS:
        if mine:
            if mine & signoff_seats(result):
                return None
            if any(u == result.entered_by_id for u in seated_users(result).values()):
                return _(
                    "You played on the side of the player who entered it: a player of the "
                    "other side signs it off, or a scorekeeper who did not play here."
                )
            return _(
                "This result is in your favour: a player it went against signs it off, or a "
                "scorekeeper who did not play here."
            )
        if scorekeeper:
            return None
        return _(
            "Only the players seated at this table or a scorekeeper of the club confirm it; "
            "you are neither."
        )
    if mine:
        return _(
            "You played at this table, and this competition does not let the players confirm "
            "their own results: a scorekeeper who did not play here confirms it."
        )
    if scorekeeper:
        return None
    return _("Only a scorekeeper or a referee of the club confirms results here.")


def who_confirms(result: Result, *, reveal: bool = True) -> str:
    """Who must confirm a pending result and why, in words for the result page. With
    sign-off at the table, the names of those who may sign it off say who lost: they are
    given only with ``reveal`` (to whoever may see the sealed result)."""
    mode = result.competition.confirmation
    who = result.entered_by.get_username() if result.entered_by_id else ""
    if mode == Competition.Confirmation.OPPONENTS and not reveal:
        return _(
            "This competition has the players sign off at the table: a player of the side "
            "it went against, or a scorekeeper who did not play here, confirms it; never "
            "%(who)s, who entered it, nor a player it favours. Until then it does not count "
            "in the standings."
        ) % {"who": who}
    if mode == Competition.Confirmation.OPPONENTS:
        may = signoff_seats(result)
        names = [
            s.player.name
            for s in result.table.seats.select_related("player").order_by("index")
            if s.index in may
        ]
        return _(
            "This competition has the players sign off at the table: a player of the side "
            "it went against (%(names)s), or a scorekeeper who did not play here, confirms "
            "it; never %(who)s, who entered it, nor a player it favours. Until then it does "
            "not count in the standings."
        ) % {"names": ", ".join(names) or "—", "who": who}
    if mode == Competition.Confirmation.BLIND:
        return _(
            "This competition checks every result by blind re-entry: a scorekeeper other than "
            "%(who)s, who entered it, and who did not play at this table, types it again "
            "without seeing it. It counts once the two entries agree."
        ) % {"who": who}
    return _(
        "This competition asks a second person to check every result: a scorekeeper or a "
        "referee other than %(who)s, who entered it, and who did not play at this table, "
        "confirms it. Until then it does not count in the standings."
    ) % {"who": who}
