"""The Django admin is for the site's staff; a staff login that is not a superuser sees and
changes only the rows of the clubs it organises.

Every ModelAdmin (and inline) of a model that holds club data derives from ``ClubScoped``:
its list, change pages, search, autocomplete and deletes see only those clubs' rows (by
``get_queryset``), every foreign-key choice of its forms is cut the same way (a row of
another club cannot be chosen, so it cannot be saved either), and a save that would leave
the organiser's clubs is refused. Which rows belong to a club is found from the model's own
foreign keys (``club_path``), so a model added later is scoped without a list to update;
a test checks that every registered admin of such a model is scoped.
"""

from __future__ import annotations

import functools
from collections import deque
from typing import TYPE_CHECKING, Any, cast

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db import models
from django.http import HttpRequest

from ledger.clubs.models import Club, Membership, Player, Role

# Rows that belong to a club through something other than a foreign key to it.
_EXPLICIT = {Club: "pk", Player: "memberships__club"}


@functools.cache
def club_path(model: type[models.Model]) -> str | None:
    """The lookup from ``model`` to its club's id (``club``, ``competition__club``, ...), by
    the shortest chain of foreign keys; None when the model holds no club's data."""
    if model in _EXPLICIT:
        return _EXPLICIT[model]
    seen = {model}
    queue: deque[tuple[type[models.Model], str]] = deque([(model, "")])
    while queue:
        current, path = queue.popleft()
        for field in current._meta.get_fields():
            if not (field.is_relation and (field.many_to_one or field.one_to_one)):
                continue
            if not field.concrete:  # the reverse side of a one-to-one
                continue
            target = field.related_model
            step = f"{path}__{field.name}" if path else field.name
            if target is Club:
                return step
            if target in _EXPLICIT:
                return f"{step}__{_EXPLICIT[target]}"
            if target not in seen and target is not None and target._meta.app_label != "auth":
                seen.add(target)
                queue.append((target, step))
    return None


def organised_clubs(request: HttpRequest) -> list[int] | None:
    """The ids of the clubs this login organises; None for a superuser (every club)."""
    user = request.user
    if user.is_superuser:
        return None
    cached = getattr(request, "_organised_clubs", None)
    if cached is None:
        cached = list(
            Membership.objects.filter(
                player__user_id=cast(int, user.pk),  # the admin's users are logged in
                role=Role.ORGANISER,
            ).values_list("club_id", flat=True)
        )
        request._organised_clubs = cached  # type: ignore[attr-defined]  # a cache for this request
    return cached


def scoped(queryset: models.QuerySet[Any], request: HttpRequest) -> models.QuerySet[Any]:
    clubs = organised_clubs(request)
    if clubs is None:
        return queryset
    model: type[models.Model] = queryset.model
    if model is get_user_model():
        # Logins: one's own, and those of the players of one's clubs.
        return queryset.filter(
            models.Q(pk=request.user.pk) | models.Q(player__memberships__club_id__in=clubs)
        ).distinct()
    path = club_path(model)
    if path is None:
        return queryset
    ids = queryset.filter(**{f"{path}__in": clubs}).values("pk")
    return queryset.filter(pk__in=ids)


if TYPE_CHECKING:  # what the mixin's super() calls reach: an admin's methods
    _AdminBase = admin.options.BaseModelAdmin[Any]
else:
    _AdminBase = object


class _Scoping(_AdminBase):
    """What ModelAdmin and InlineModelAdmin share: the choices of their forms."""

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        related = db_field.related_model
        if organised_clubs(request) is not None and (
            club_path(related) is not None or related is get_user_model()
        ):
            base = kwargs.get("queryset")
            if base is None:
                base = related._default_manager.all()
            kwargs["queryset"] = scoped(base, request)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def formfield_for_manytomany(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        related = db_field.related_model
        if organised_clubs(request) is not None and club_path(related) is not None:
            kwargs["queryset"] = scoped(related._default_manager.all(), request)
        return super().formfield_for_manytomany(db_field, request, **kwargs)

    def get_queryset(self, request: HttpRequest) -> Any:
        return scoped(super().get_queryset(request), request)


class ClubScoped(_Scoping, admin.ModelAdmin[Any]):
    """A ModelAdmin of club data, cut to the clubs the staff login organises."""

    def get_list_filter(self, request: HttpRequest) -> Any:
        # A filter by a related row offers only the rows the scoped list holds.
        filters = list(super().get_list_filter(request))
        if organised_clubs(request) is None:
            return filters
        cut: list[Any] = []
        for item in filters:
            if isinstance(item, str) and "__" not in item:
                field = self.model._meta.get_field(item)
                if field.is_relation:
                    item = (item, admin.RelatedOnlyFieldListFilter)
            cut.append(item)
        return cut

    def get_search_results(self, request: HttpRequest, queryset: Any, search_term: str) -> Any:
        # Autocomplete widgets of other admins ask here: the same cut applies.
        queryset, duplicates = super().get_search_results(request, queryset, search_term)
        return scoped(queryset, request), duplicates

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        if self.model is Club and not request.user.is_superuser:
            return False  # a new club is the site's business
        return super().has_add_permission(request, *args)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if self.model is Club and not request.user.is_superuser:
            return False
        return super().has_delete_permission(request, obj)

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        self._check_within(request, obj)

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        super().save_formset(request, form, formset, change)
        for obj in formset.new_objects + [o for o, _ in formset.changed_objects]:
            self._check_within(request, obj)

    def _check_within(self, request: HttpRequest, obj: Any) -> None:
        """Refuse, inside the admin's transaction, a save that leaves one's clubs: the
        choices already prevent it, this is the last word (a row with no club yet, such
        as a new player, is the organiser's to place)."""
        model: type[models.Model] = type(obj)
        if organised_clubs(request) is None or club_path(model) is None:
            return
        if type(obj) is Player:
            return
        if not scoped(type(obj)._default_manager.filter(pk=obj.pk), request).exists():
            raise PermissionDenied


class ScopedInline(_Scoping):
    """Mixed into an InlineModelAdmin of club data."""
