from __future__ import annotations

from typing import Any

from django.contrib import admin

from ledger.clubs.admin_scope import ClubScoped
from ledger.referee.models import ArtificialScores, Case


@admin.register(ArtificialScores)
class ArtificialScoresAdmin(ClubScoped):
    list_display = ("competition", "average_plus", "average", "average_minus", "updated_at")


@admin.register(Case)
class CaseAdmin(ClubScoped):
    """Cases are written by the desk; the admin only reads them."""

    list_display = ("pk", "competition", "result", "status", "kind", "opened_at", "ruled_by")
    list_filter = ("status", "kind", "game")
    readonly_fields = [f.name for f in Case._meta.fields]

    def has_add_permission(self, request: Any) -> bool:
        return False

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False
