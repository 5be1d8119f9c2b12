"""The notifications' writes, each atomic: a person's choices, a one-tap unsubscribe, a
push subscription, a club's announcement, a round's start time."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from ledger.clubs import events
from ledger.clubs.models import Club, Player, Role
from ledger.clubs.office.roles import require_role
from ledger.notify.models import Announcement, Preferences, PushSubscription


def preferences_of(player: Player) -> Preferences | None:
    return Preferences.objects.filter(player=player).first()


@transaction.atomic
def save_preferences(*, player: Player, email: str, language: str, muted: list[str]) -> Preferences:
    prefs, _created = Preferences.objects.select_for_update().get_or_create(player=player)
    prefs.email, prefs.language, prefs.muted = email, language, sorted(set(muted))
    prefs.save(update_fields=["email", "language", "muted"])
    return prefs


@transaction.atomic
def mute(*, player_id: int, kind: str, channel: str) -> Preferences:
    """One kind on one channel off, as the unsubscribe link in a message asks."""
    prefs, _created = Preferences.objects.select_for_update().get_or_create(player_id=player_id)
    pair = f"{kind}:{channel}"
    if pair not in prefs.muted:
        prefs.muted = sorted([*prefs.muted, pair])
        prefs.save(update_fields=["muted"])
    return prefs


@transaction.atomic
def new_calendar_key(*, player: Player) -> Preferences:
    from ledger.notify.models import _calendar_key

    prefs, _created = Preferences.objects.select_for_update().get_or_create(player=player)
    prefs.calendar_key = _calendar_key()
    prefs.save(update_fields=["calendar_key"])
    return prefs


def calendar_key(player: Player) -> str:
    prefs, _created = Preferences.objects.get_or_create(player=player)
    return prefs.calendar_key


@transaction.atomic
def subscribe_push(*, player: Player, endpoint: str, p256dh: str, auth: str) -> PushSubscription:
    sub, _created = PushSubscription.objects.update_or_create(
        endpoint=endpoint, defaults={"player": player, "p256dh": p256dh, "auth": auth}
    )
    return sub


@transaction.atomic
def unsubscribe_push(*, player: Player, endpoint: str) -> int:
    return PushSubscription.objects.filter(player=player, endpoint=endpoint).delete()[0]


@transaction.atomic
def announce(*, user: Any, club: Club, title: str, text: str) -> Announcement:
    """An organiser's announcement: its members hear of it once this commits."""
    require_role(user, club, Role.ORGANISER)
    made = Announcement.objects.create(club=club, title=title, text=text, written_by=user)
    events.after_commit(events.ANNOUNCEMENT, announcement=made.pk)
    return made
