from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from ledger.clubs.admin_scope import ClubScoped, ScopedInline
from ledger.play.models import GameTable, Move, PlaySeat


class SeatInline(ScopedInline, admin.TabularInline[PlaySeat, GameTable]):
    model = PlaySeat
    extra = 0


@admin.register(GameTable)
class GameTableAdmin(ClubScoped):
    list_display = ["id", "club", "game", "status", "moves_count", "created_at"]
    list_filter = ["game", "status"]
    inlines = [SeatInline]
    readonly_fields = ["seed", "deal", "invite", "moves_count"]


@admin.register(Move)
class MoveAdmin(ClubScoped):
    list_display = ["table", "step", "seat", "bot", "created_at"]

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
