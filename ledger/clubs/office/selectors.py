"""The back office's reads (selectors, as HackSoft's Django styleguide has them): the club's
members as its organisers list them, and an invitation found by its key. Nothing here
writes: members added, roles set and invitations made or accepted are office.py's.

Imports the club's models alone: never office.py nor any room above the office.
"""

from __future__ import annotations

from django.db.models import Count, Q, QuerySet

from ledger.clubs.models import Club, Invitation, Membership, token_digest


def members(club: Club) -> QuerySet[Membership]:
    """The club's people (its bots left out) by name, each with their login and how many
    other clubs they belong to."""
    return (
        Membership.objects.filter(club=club, player__automated=False)
        .select_related("player", "player__user")
        .annotate(
            other_clubs=Count("player__memberships", filter=~Q(player__memberships__club=club))
        )
        .order_by("player__name")
    )


def find_invitation(key: str) -> Invitation | None:
    """The invitation of this key while it is open (not accepted, not expired), with its
    club and player; None otherwise."""
    found = (
        Invitation.objects.select_related("club", "player").filter(digest=token_digest(key)).first()
    )
    return found if found is not None and found.open else None
