"""Who may read a result that is not confirmed yet.

A result waiting for confirmation (blind re-entry, a second person, the opponents' sign-off)
or disputed before it ever counted is **sealed**: its scores and record are shown only to
the person who entered it, to the club's referees and organisers, and (except with blind
re-entry, whose point is that the second person types the result without seeing it) to
the people asked to confirm it: the club's scorekeepers, and with sign-off at the table
the players seated there. Everyone else sees that a result is waiting, never what it says:
the API gives ``"sealed": true`` with an empty record and scores, pages show "?", the
standings leave its points out, and webhooks are only sent for results that count.

With blind re-entry a pending result is sealed to the referees and organisers too: the
point is that nobody reads the first entry before the second one is typed. Only who entered
it reads it, and a referee who opened it explicitly (``services.open_sealed_result``, written
down as a SealOpening; that referee may then no longer be its second entry). Once the second
entry is made the result counts, or a dispute holds both versions for the referees.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ledger.clubs.models import ROLE_RANK, Club, Competition, Result, Role, SealOpening, Seat

SEALED = frozenset({Result.Status.PENDING, Result.Status.DISPUTED})


class Viewer:
    """One visitor's view of results, with the few facts it needs read once per request."""

    def __init__(self, user: Any) -> None:
        self.user = user
        self.known = bool(getattr(user, "is_authenticated", False))
        self._roles: dict[int, str | None] = {}
        self._modes: dict[int, str] = {}
        self._opened: set[int] | None = None

    def opened(self, result_id: int) -> bool:
        """Whether this login opened that sealed blind result (read once per request)."""
        if self._opened is None:
            self._opened = set(
                SealOpening.objects.filter(opened_by_id=self.user.pk).values_list(
                    "result_id", flat=True
                )
            )
        return result_id in self._opened

    def role(self, club_id: int) -> str | None:
        if not self.known:
            return None
        if club_id not in self._roles:
            self._roles[club_id] = Club(pk=club_id).role_of(self.user)
        return self._roles[club_id]

    def at_least(self, club_id: int, role: str) -> bool:
        held = self.role(club_id)
        return held is not None and ROLE_RANK[Role(held)] >= ROLE_RANK[Role(role)]

    def sees_every_result(self, club_id: int) -> bool:
        """A referee or organiser of the club sees every result, sealed or not."""
        return self.at_least(club_id, Role.REFEREE)

    def sees_pending_of(self, competition: Competition) -> bool:
        """Whether lists of a competition's results and its standings show this visitor the
        pending ones: a referee or organiser, unless re-entry is blind (then nobody)."""
        return (
            competition.confirmation != Competition.Confirmation.BLIND
            and self.sees_every_result(competition.club_id)
        )

    def _mode(self, competition_id: int) -> str:
        if competition_id not in self._modes:
            self._modes[competition_id] = (
                Competition.objects.filter(pk=competition_id)
                .values_list("confirmation", flat=True)
                .first()
                or Competition.Confirmation.BLIND
            )
        return self._modes[competition_id]

    def may_see(self, result: Any) -> bool:
        """``result``: a Result, or a mapping with status, club_id, competition_id,
        entered_by_id and table_id."""
        get: Callable[[str], Any] = (
            result.get if isinstance(result, dict) else result.__getattribute__
        )
        if get("status") not in SEALED:
            return True
        if not self.known:
            return False
        if get("entered_by_id") == self.user.pk:
            return True
        club_id = get("club_id")
        mode = self._mode(get("competition_id"))
        if mode == Competition.Confirmation.BLIND and get("status") == Result.Status.PENDING:
            # Blind to everyone, referees and organisers too, until the second entry.
            return self.opened(get("id") if isinstance(result, dict) else result.pk)
        if self.sees_every_result(club_id):
            return True
        if mode == Competition.Confirmation.BLIND:
            return False
        if self.at_least(club_id, Role.SCOREKEEPER):
            return True
        return mode == Competition.Confirmation.OPPONENTS and (
            Seat.objects.filter(table_id=get("table_id"), player__user_id=self.user.pk).exists()
        )


def viewer_of(request: Any) -> Viewer:
    """The request's Viewer, made once."""
    found = getattr(request, "_result_viewer", None)
    if found is None or found.user is not request.user:
        found = Viewer(request.user)
        request._result_viewer = found
    return found
