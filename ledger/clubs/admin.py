"""The site staff's back office. Journal entries are shown, never edited.

A staff login that is not a superuser sees and changes only the clubs it organises
(``admin_scope``). API tokens are made on the club's own page, which shows the key once;
here they are listed, without any key, and revoked.
"""

from typing import Any

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import GroupAdmin, UserAdmin
from django.contrib.auth.models import Group
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from rest_framework.authtoken.models import TokenProxy

from ledger.clubs.admin_scope import ClubScoped, ScopedInline
from ledger.clubs.models import (
    ApiToken,
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

# Shown, read only, by the journal's and the tokens' admins (tuples: each of fields,
# list_display and readonly_fields takes them).
ENTRY_SHOWN = ("sequence", "seat", "player", "points", "kind", "created_at", "hash")
TOKEN_SHOWN = ("name", "club", "user", "scope", "prefix", "created_at", "expires_at", "revoked_at")


class MembershipInline(ScopedInline, admin.TabularInline[Membership, Club]):
    model = Membership
    extra = 1
    autocomplete_fields = ["player"]


@admin.register(Club)
class ClubAdmin(ClubScoped):
    list_display = ["name", "city", "slug"]
    search_fields = ["name", "city"]
    prepopulated_fields = {"slug": ["name"]}
    readonly_fields = ["journal_length", "journal_head"]
    inlines = [MembershipInline]


@admin.register(Player)
class PlayerAdmin(ClubScoped):
    list_display = ["name", "user"]
    search_fields = ["name"]
    autocomplete_fields = ["user"]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        # Which login is which person is the site's to say: a club's organiser links
        # logins by invitation from the club's pages.
        if request.user.is_superuser:
            return super().get_readonly_fields(request, obj)
        return ["user"]


@admin.register(Membership)
class MembershipAdmin(ClubScoped):
    list_display = ["player", "club", "role"]
    list_filter = ["club", "role"]
    search_fields = ["player__name"]
    autocomplete_fields = ["player"]


@admin.register(Season)
class SeasonAdmin(ClubScoped):
    list_display = ["name", "club", "starts_on", "ends_on"]
    list_filter = ["club"]


class RoundInline(ScopedInline, admin.TabularInline[Round, Competition]):
    model = Round
    extra = 0


@admin.register(Competition)
class CompetitionAdmin(ClubScoped):
    list_display = ["name", "club", "game", "format", "confirmation", "season"]
    list_filter = ["club", "game", "format"]
    search_fields = ["name"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [RoundInline]


class SeatInline(ScopedInline, admin.TabularInline[Seat, Table]):
    model = Seat
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(Table)
class TableAdmin(ClubScoped):
    list_display = ["label", "competition", "round", "created_at"]
    list_filter = ["competition"]
    inlines = [SeatInline]


class EntryInline(ScopedInline, admin.TabularInline[Entry, Result]):
    model = Entry
    extra = 0
    can_delete = False
    fields = ENTRY_SHOWN
    readonly_fields = ENTRY_SHOWN

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Result)
class ResultAdmin(ClubScoped):
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
class EntryAdmin(ClubScoped):
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
class WebhookAdmin(ClubScoped):
    list_display = ["url", "club", "active", "created_at"]
    list_filter = ["club", "active"]


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(ClubScoped):
    list_display = ["event", "webhook", "status_code", "attempts", "created_at", "delivered_at"]
    list_filter = ["event", "status_code"]
    readonly_fields = [f.name for f in WebhookDelivery._meta.fields]


@admin.register(Dispute)
class DisputeAdmin(ClubScoped):
    list_display = ["result", "ruling", "opened_by", "opened_at", "ruled_by"]
    list_filter = ["ruling"]
    readonly_fields = [f.name for f in Dispute._meta.fields]


@admin.register(Rating)
class RatingAdmin(ClubScoped):
    list_display = ["player", "game", "club", "mu", "sigma", "results"]
    list_filter = ["club", "game"]
    readonly_fields = [f.name for f in Rating._meta.fields]


@admin.register(ImportJob)
class ImportJobAdmin(ClubScoped):
    list_display = ["filename", "club", "status", "imported", "created_at"]
    readonly_fields = [f.name for f in ImportJob._meta.fields if f.name != "content"]
    exclude = ["content"]


@admin.register(ApiToken)
class ApiTokenAdmin(ClubScoped):
    """Tokens are listed and revoked here; they are made on the club's page, the one place
    that shows a key (once). The key itself is kept nowhere: only its digest."""

    fields = TOKEN_SHOWN
    list_display = TOKEN_SHOWN
    list_filter = ["scope"]
    readonly_fields = TOKEN_SHOWN
    actions = ["revoke"]

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return False

    @admin.action(description=_("Revoke the chosen tokens"), permissions=["change"])
    def revoke(self, request: HttpRequest, queryset: QuerySet[ApiToken]) -> None:
        done = queryset.filter(revoked_at__isnull=True).update(
            revoked_at=timezone.now(), revoked_by=request.user
        )
        messages.success(request, _("%(n)d tokens revoked.") % {"n": done})


# Django REST framework's own tokens (kept in clear) are no longer used: migration 0012
# turned them into digests.
if admin.site.is_registered(TokenProxy):
    admin.site.unregister(TokenProxy)


class _SiteOnly:
    """Logins and groups are the site's: only a superuser sees or changes them here (a
    staff login that could edit logins could make itself a superuser)."""

    def has_module_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_superuser)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_superuser)

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return bool(request.user.is_superuser)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_superuser)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_superuser)


class SiteUserAdmin(_SiteOnly, UserAdmin[Any]):
    pass


class SiteGroupAdmin(_SiteOnly, GroupAdmin):
    pass


for _model, _admin in ((get_user_model(), SiteUserAdmin), (Group, SiteGroupAdmin)):
    if admin.site.is_registered(_model):
        admin.site.unregister(_model)
    admin.site.register(_model, _admin)
