"""Who may do what in a federation: its officers run it; a club's organisers apply for it."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from ledger.clubs.errors import NotAllowed
from ledger.federation.models import Federation


def require_officer(user: Any, federation: Federation) -> None:
    if getattr(user, "is_superuser", False) or federation.is_officer(user):
        return
    raise NotAllowed(_("Only the federation's officers may do this."))
