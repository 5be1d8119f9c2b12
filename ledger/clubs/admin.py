"""The organiser's back office. Journal entries are shown, never edited."""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from ledger.clubs.models import (
    Club,
    Competition,
    Dispute,
    Entry,
    ImportJob,
    Membership,
    Player,
    Rating,
    Result,
    Round,
    Season,
    Seat,
    Table,
    Webhook,
    WebhookDelivery,
)


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 1
    autocomplete_fields = ["player"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "city", "slug"]
    search_fields = ["name", "city"]
    prepopulated_fields = {"slug": ["name"]}
    readonly_fields = ["journal_length", "journal_head"]
    inlines = [MembershipInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "user"]
    search_fields = ["name"]
    autocomplete_fields = ["user"]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["player", "club", "role"]
    list_filter = ["club", "role"]
    search_fields = ["player__name"]
    autocomplete_fields = ["player"]


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "starts_on", "ends_on"]
    list_filter = ["club"]


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0


@admin.register(Competition)
class CompetitionAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "game", "format", "confirmation", "season"]
    list_filter = ["club", "game", "format"]
    search_fields = ["name"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [RoundInline]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["label", "competition", "round", "created_at"]
    list_filter = ["competition"]
    inlines = [SeatInline]


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    can_delete = False
    fields = ["sequence", "seat", "player", "points", "kind", "created_at", "hash"]
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Result)
class ResultAdmin(admin.ModelAdmin):
    """Results are recorded through the score-entry pages and the API, where the engine
    checks them; here an organiser reads them and follows their history."""

    list_display = ["id", "competition", "table", "status", "source", "entered_by", "entered_at"]
    list_filter = ["competition", "status", "source"]
    readonly_fields = [f.name for f in Result._meta.fields]
    inlines = [EntryInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = [
        "club",
        "sequence",
        "competition",
        "player",
        "seat",
        "points",
        "kind",
        "created_at",
    ]
    list_filter = ["competition", "kind"]
    search_fields = ["player__name"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Webhook)
class WebhookAdmin(admin.ModelAdmin):
    list_display = ["url", "club", "active", "created_at"]
    list_filter = ["club", "active"]


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(admin.ModelAdmin):
    list_display = ["event", "webhook", "status_code", "attempts", "created_at", "delivered_at"]
    list_filter = ["event", "status_code"]
    readonly_fields = [f.name for f in WebhookDelivery._meta.fields]


@admin.register(Dispute)
class DisputeAdmin(admin.ModelAdmin):
    list_display = ["result", "ruling", "opened_by", "opened_at", "ruled_by"]
    list_filter = ["ruling"]
    readonly_fields = [f.name for f in Dispute._meta.fields]


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ["player", "game", "club", "mu", "sigma", "results"]
    list_filter = ["club", "game"]
    readonly_fields = [f.name for f in Rating._meta.fields]


@admin.register(ImportJob)
class ImportJobAdmin(admin.ModelAdmin):
    list_display = ["filename", "club", "status", "imported", "created_at"]
    readonly_fields = [f.name for f in ImportJob._meta.fields if f.name != "content"]
    exclude = ["content"]
