"""The hub's two addresses a venue calls with its club's token (the head it holds of the
club's journal; an upload), and the venue's office page: the hub's address and token, the
button that sends the journal, and its progress."""

from __future__ import annotations

import logging
from typing import Any, cast

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from ledger.clubs import jobs
from ledger.clubs.models import Club, Role
from ledger.clubs.transfer import transfer
from ledger.hub import client, services
from ledger.hub.models import ClubToken, HubLink, SyncRun
from ledger.hub.tasks import SYNC

log = logging.getLogger(__name__)

# --- the hub: what a venue calls ---------------------------------------------------------


def _refused(message: str, status: int, line: int | None = None) -> JsonResponse:
    body: dict[str, object] = {"error": message}
    if line is not None:
        body["line"] = line
    return JsonResponse(body, status=status)


def _authorised(request: HttpRequest, club: str) -> tuple[Club, ClubToken] | JsonResponse:
    if getattr(settings, "LEDGER_HUB_HTTPS_ONLY", False) and not request.is_secure():
        return _refused(_("the hub takes uploads over HTTPS only"), 403)
    said = request.META.get("HTTP_AUTHORIZATION", "")
    token = said.removeprefix("Bearer ").strip() if said.startswith("Bearer ") else ""
    try:
        return services.authorise(club, token)
    except services.Denied as denied:
        return _refused(denied.message, denied.status)


@csrf_exempt
@require_GET
@never_cache
def head(request: HttpRequest, club: str) -> JsonResponse:
    found = _authorised(request, club)
    if isinstance(found, JsonResponse):
        return found
    return JsonResponse(services.head_of(found[0]).as_json())


@csrf_exempt
@require_POST
@never_cache
def upload(request: HttpRequest, club: str) -> JsonResponse:
    found = _authorised(request, club)
    if isinstance(found, JsonResponse):
        return found
    the_club, token = found
    try:
        receipt = services.receive(the_club, token, request.body)
    except transfer.Refused as refused:
        log.info("upload of %s refused: %s", the_club.slug, refused)
        return _refused(str(refused), 409, refused.line)
    return JsonResponse({**receipt.head.as_json(), "lines": receipt.lines, "again": receipt.again})


# --- the venue: the office page ----------------------------------------------------------


class HubForm(forms.Form):
    url = forms.URLField(
        label=gettext_lazy("The hub's address"),
        max_length=300,
        assume_scheme="https",
        widget=forms.URLInput(attrs={"placeholder": "https://", "autocomplete": "url"}),
    )
    token = forms.CharField(
        label=gettext_lazy("The club's upload token"),
        max_length=200,
        required=False,
        strip=True,
        # Typed again after a refusal at another field, not shown once kept.
        widget=forms.PasswordInput(attrs={"autocomplete": "off"}, render_value=True),
        help_text=gettext_lazy(
            "The federation's officer issues it on the hub. It is kept sealed with this "
            "installation's key; leave it empty to keep the one already kept."
        ),
    )


def _organised(request: HttpRequest, slug: str) -> Club:
    club = get_object_or_404(Club, slug=slug)
    if not club.allows(request.user, Role.ORGANISER):
        raise PermissionDenied(_("Only the club's organisers use its back office."))
    return club


@login_required
@never_cache
def venue(request: HttpRequest, club: str) -> HttpResponse:
    the_club = _organised(request, club)
    link = HubLink.objects.filter(club=the_club).first()
    form = HubForm(initial={"url": link.url} if link else None)
    if request.method == "POST" and request.POST.get("action") == "sync":
        if link is None:
            messages.error(request, _("Set the hub's address and token first."))
            return redirect("office-hub-sync", club=club)
        with transaction.atomic():
            running = SyncRun.objects.select_for_update().filter(
                club=the_club, status__in=[SyncRun.Status.QUEUED, SyncRun.Status.RUNNING]
            )
            sync_run = running.first() or SyncRun.objects.create(
                club=the_club, started_by=cast(Any, request.user)
            )
            transaction.on_commit(lambda: jobs.enqueue(SYNC, sync_run.pk))
        return redirect("office-hub-sync", club=club)
    if request.method == "POST":
        form = HubForm(request.POST)
        if not link and not request.POST.get("token", "").strip():
            form.add_error("token", _("Enter the token the federation's officer gave the club."))
        if form.is_valid():
            try:
                client.HttpHub(form.cleaned_data["url"], the_club.slug, "-")
            except client.SyncError as wrong:
                form.add_error("url", str(wrong))
            else:
                client.set_hub(
                    club=the_club, url=form.cleaned_data["url"], token=form.cleaned_data["token"]
                )
                messages.success(request, _("The hub's address and token are kept."))
                return redirect("office-hub-sync", club=club)
    runs = list(SyncRun.objects.filter(club=the_club)[:5])
    return render(
        request,
        "hub/venue.html",
        {
            "club": the_club,
            "link": link,
            "form": form,
            "run": runs[0] if runs else None,
            "earlier": runs[1:],
        },
        status=400 if form.errors else 200,
    )


@login_required
@never_cache
def venue_run(request: HttpRequest, club: str, pk: int) -> HttpResponse:
    the_club = _organised(request, club)
    sync_run = get_object_or_404(SyncRun, pk=pk, club=the_club)
    return render(request, "hub/_run.html", {"club": the_club, "run": sync_run})
