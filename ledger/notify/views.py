"""Pages of the notifications: a person's choices (and the installed app's push
subscription), the one-tap unsubscribe of each message, a club's notification log with its
announcements. Thin: writes go through ledger.notify.services."""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from ledger.clubs.addresses import Refused, check_url
from ledger.clubs.errors import LedgerError
from ledger.clubs.models import Club, Player, Role
from ledger.notify import sending, services, words
from ledger.notify.forms import AnnouncementForm, PreferencesForm
from ledger.notify.models import Channel, Delivery, PushSubscription

SHOWN = 100


def _player(request: HttpRequest) -> Player | None:
    if not request.user.is_authenticated:
        return None
    return Player.objects.filter(user=request.user).first()


@never_cache
@login_required
def preferences(request: HttpRequest) -> HttpResponse:
    player = _player(request)
    if player is None:
        return render(request, "notify/no_player.html", status=404)
    prefs = services.preferences_of(player)
    form = PreferencesForm(request.POST or None, preferences=prefs)
    if request.method == "POST" and form.is_valid():
        services.save_preferences(
            player=player,
            email=form.cleaned_data["email"],
            language=form.cleaned_data["language"],
            muted=form.muted(),
        )
        messages.success(request, _("Your choices are saved."))
        return redirect("notify-settings")
    return render(
        request,
        "notify/preferences.html",
        {
            "form": form,
            "player": player,
            "login_email": request.user.email if request.user.is_authenticated else "",
            "channels": [Channel(c).label for c in Channel.values],
            "vapid_public_key": settings.LEDGER_VAPID_PUBLIC_KEY,
            "push_count": PushSubscription.objects.filter(player=player).count(),
            "calendar_url": request.build_absolute_uri(
                _reverse("calendar-person", services.calendar_key(player))
            ),
        },
    )


def _reverse(name: str, *args: object) -> str:
    from django.urls import reverse

    return reverse(name, args=list(args))


@never_cache
@login_required
@require_POST
def push_subscription(request: HttpRequest) -> JsonResponse:
    """The installed app's subscription, as the browser gave it (JSON), kept or dropped."""
    player = _player(request)
    if player is None:
        return JsonResponse({"error": _("Your login has no player.")}, status=404)
    try:
        body = json.loads(request.body or b"{}")
        endpoint = str(body["endpoint"])
        keys = body.get("keys") or {}
        if body.get("drop"):
            services.unsubscribe_push(player=player, endpoint=endpoint)
            return JsonResponse({"subscribed": False})
        # The server will post to it: a push service on the public internet, never this
        # machine or the club's own network (the webhooks' rule).
        check_url(endpoint)
        services.subscribe_push(
            player=player, endpoint=endpoint, p256dh=str(keys["p256dh"]), auth=str(keys["auth"])
        )
    except (ValueError, KeyError, TypeError, AttributeError, Refused):
        return JsonResponse({"error": _("This is not a push subscription.")}, status=400)
    return JsonResponse({"subscribed": True})


@never_cache
@csrf_exempt  # the link's signed token is the proof; a mail program posts without a session
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """One tap: the page the link opens has one button (a link that changed something on a
    GET would be followed by the mail scanners); a mail program's own button posts here."""
    read = sending.read_unsubscribe_token(token)
    if read is None:
        return render(request, "notify/unsubscribe.html", {"invalid": True}, status=400)
    player_id, kind, channel = read
    done = False
    if request.method == "POST":
        services.mute(player_id=player_id, kind=kind, channel=channel)
        done = True
    return render(
        request,
        "notify/unsubscribe.html",
        {
            "kind": words.kind_label(kind),
            "channel": Channel(channel).label if channel in Channel.values else channel,
            "done": done,
        },
    )


@never_cache
def club_log(request: HttpRequest, club: str) -> HttpResponse:
    """What the club's notifications said to whom and whether it arrived; its announcements."""
    owner = get_object_or_404(Club, slug=club)
    if not owner.allows(request.user, Role.ORGANISER):
        messages.error(request, _("Only the club's organisers read its notification log."))
        return redirect("home")
    form = AnnouncementForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.announce(
                user=request.user,
                club=owner,
                title=form.cleaned_data["title"],
                text=form.cleaned_data["text"],
            )
        except LedgerError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("The announcement is on its way to the members."))
            return redirect("notify-log", owner.slug)
    deliveries = list(
        Delivery.objects.filter(notice__club=owner)
        .select_related("player", "notice")
        .order_by("-created_at", "-pk")[:SHOWN]
    )
    for d in deliveries:
        d.label = words.kind_label(d.kind)
    return render(
        request,
        "notify/log.html",
        {"club": owner, "deliveries": deliveries, "form": form},
    )
