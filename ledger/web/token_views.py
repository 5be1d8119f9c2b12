"""The club's API tokens, for its organisers: make one (its key is shown once, on the answer
to the form, and stored only as a digest), list them, revoke one."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from ledger.clubs.models import ApiToken, Club, Role

EXPIRY_DAYS = {"30": 30, "90": 90, "365": 365, "never": None}


class TokenForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("Name"),
        max_length=80,
        help_text=gettext_lazy("What the token is for, e.g. the scoring app of table 3."),
    )
    scope = forms.ChoiceField(
        label=gettext_lazy("What it may do"),
        choices=ApiToken.Scope.choices,
        initial=ApiToken.Scope.SCORE,
    )
    expiry = forms.ChoiceField(
        label=gettext_lazy("Expires"),
        choices=[
            ("30", gettext_lazy("in 30 days")),
            ("90", gettext_lazy("in 90 days")),
            ("365", gettext_lazy("in a year")),
            ("never", gettext_lazy("never")),
        ],
        initial="90",
    )


def _club(request: HttpRequest, slug: str) -> Club:
    club = get_object_or_404(Club, slug=slug)
    if not club.allows(request.user, Role.ORGANISER):
        raise PermissionDenied(_("Only the club's organisers manage its API tokens."))
    return club


@transaction.atomic
def mint_token(
    *, user: Any, club: Club, name: str, scope: str, days: int | None
) -> tuple[ApiToken, str]:
    """A club's token acting as ``user``, who must organise the club."""
    if not club.allows(user, Role.ORGANISER):
        raise PermissionDenied
    expires = timezone.now() + timedelta(days=days) if days else None
    return ApiToken.mint(user=user, club=club, scope=scope, name=name, expires_at=expires)


@login_required
@never_cache
def tokens(request: HttpRequest, club: str) -> HttpResponse:
    the_club = _club(request, club)
    form = TokenForm(request.POST or None)
    made: tuple[ApiToken, str] | None = None
    if request.method == "POST" and form.is_valid():
        made = mint_token(
            user=request.user,
            club=the_club,
            name=form.cleaned_data["name"],
            scope=form.cleaned_data["scope"],
            days=EXPIRY_DAYS[form.cleaned_data["expiry"]],
        )
        form = TokenForm()
    listed = ApiToken.objects.filter(club=the_club).select_related("user")
    return render(
        request,
        "web/tokens.html",
        {
            "club": the_club,
            "form": form,
            "made": made[0] if made else None,
            # Only in this answer: the key is not stored and no later page can show it.
            "key": made[1] if made else "",
            "tokens": listed,
            "now": timezone.now(),
        },
        status=201 if made else (400 if request.method == "POST" else 200),
    )


@login_required
@require_POST
def revoke(request: HttpRequest, club: str, pk: int) -> HttpResponse:
    the_club = _club(request, club)
    with transaction.atomic():
        token = get_object_or_404(ApiToken.objects.select_for_update(), pk=pk, club=the_club)
        if token.revoked_at is None:
            token.revoked_at = timezone.now()
            token.revoked_by_id = request.user.pk
            token.save(update_fields=["revoked_at", "revoked_by"])
    messages.success(
        request, _("Token “%(name)s” revoked: it no longer works.") % {"name": token.name}
    )
    return redirect("club-tokens", club=the_club.slug)
