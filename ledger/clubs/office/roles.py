"""Who may do what in a club: the one role check every write makes first. A leaf: it reads
the membership through the club's model and imports nothing else of the ledger's."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from ledger.clubs.errors import NotAllowed
from ledger.clubs.models import Role


def require_role(user: Any, club: Any, role: str) -> None:
    """Refuse (``NotAllowed``) unless ``user`` holds ``role`` or a higher one in ``club``."""
    if not club.allows(user, role):
        raise NotAllowed(
            _("You need the role '%(role)s' in %(club)s to do this.")
            % {"role": Role(role).label, "club": club.name}
        )
