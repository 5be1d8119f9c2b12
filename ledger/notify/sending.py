"""Sending what is owed: the job hears an event, writes one delivery row per person and
channel (unique: hearing the same event again writes nothing), then sends each person's
waiting messages on each channel, several at once as one digest. A message that fails
waits in its row for the next attempt."""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives, get_connection
from django.db import transaction
from django.db.models import F
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import ngettext

from ledger.clubs.models import Player
from ledger.notify import hearing, push, words
from ledger.notify.models import Channel, Delivery, Notice, Preferences, PushSubscription

log = logging.getLogger(__name__)

UNSUBSCRIBE_SALT = "ledger.notify.unsubscribe"
PUSH_BODY = 1000


class NotSent(Exception):
    """Some message could not be sent now; the job tries again later."""


@dataclass
class Person:
    player: Player
    email: str
    language: str
    preferences: Preferences | None

    def wants(self, kind: str, channel: str) -> bool:
        return self.preferences is None or self.preferences.wants(kind, channel)


def people(player_ids: set[int]) -> dict[int, Person]:
    """Each person's address, language and choices (defaults without a row)."""
    found: dict[int, Person] = {}
    chosen = {p.player_id: p for p in Preferences.objects.filter(player_id__in=player_ids)}
    for player in Player.objects.filter(pk__in=player_ids, automated=False).select_related("user"):
        prefs = chosen.get(player.pk)
        email = (prefs.email if prefs else "") or (player.user.email if player.user else "")
        language = prefs.language if prefs else settings.LANGUAGE_CODE
        found[player.pk] = Person(player, email, language, prefs)
    return found


def record(event: str, ids: dict[str, Any]) -> list[tuple[int, str]]:
    """Write the deliveries an event owes (none twice); the (person, channel) pairs that
    have something waiting."""
    heard = hearing.hear(event, ids)
    if heard is None:
        return []
    notice, _created = Notice.objects.get_or_create(
        key=heard.key, defaults={"event": event, "club_id": heard.club_id}
    )
    known = set(Delivery.objects.filter(notice=notice).values_list("player_id", "channel"))
    who = people({o.player_id for o in heard.owed})
    pushable = set(
        PushSubscription.objects.filter(player_id__in=who).values_list("player_id", flat=True)
    )
    rows = []
    for owed in heard.owed:
        person = who.get(owed.player_id)
        if person is None:
            continue
        for channel in Channel.values:
            if (owed.player_id, channel) in known or not person.wants(owed.kind, channel):
                continue
            address = person.email or owed.address
            if channel == Channel.EMAIL and not address:
                continue
            if channel == Channel.PUSH and (owed.player_id not in pushable or not push.ready()):
                continue
            rows.append(
                Delivery(
                    notice=notice,
                    player_id=owed.player_id,
                    channel=channel,
                    kind=owed.kind,
                    facts=owed.facts,
                    address=address if channel == Channel.EMAIL else "",
                )
            )
    # Two jobs hearing the same event at once: the unique row lets one of them write it.
    Delivery.objects.bulk_create(rows, ignore_conflicts=True)
    return sorted({(r.player_id, r.channel) for r in rows} | waiting_for(who))


def waiting_for(who: dict[int, Person]) -> set[tuple[int, str]]:
    return set(
        Delivery.objects.filter(player_id__in=who, status=Delivery.Status.PENDING).values_list(
            "player_id", "channel"
        )
    )


def unsubscribe_token(player_id: int, kind: str, channel: str) -> str:
    return signing.dumps({"p": player_id, "k": kind, "c": channel}, salt=UNSUBSCRIBE_SALT)


def read_unsubscribe_token(token: str) -> tuple[int, str, str] | None:
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    return int(data["p"]), str(data["k"]), str(data["c"])


def unsubscribe_url(player_id: int, kind: str, channel: str) -> str:
    return words.absolute(
        reverse("notify-unsubscribe", args=[unsubscribe_token(player_id, kind, channel)])
    )


def claim(player_id: int, channel: str) -> tuple[str, list[Delivery]]:
    """Take this person's waiting messages on this channel for this job alone: another job
    running at the same time finds them taken."""
    token = uuid.uuid4().hex
    with transaction.atomic():
        Delivery.objects.filter(
            player_id=player_id, channel=channel, status=Delivery.Status.PENDING
        ).update(
            status=Delivery.Status.SENDING,
            claim=token,
            claimed_at=timezone.now(),
            attempts=F("attempts") + 1,
        )
    taken = list(
        Delivery.objects.filter(claim=token, status=Delivery.Status.SENDING)
        .select_related("notice")
        .order_by("created_at", "pk")
    )
    return token, taken


def flush(player_id: int, channel: str, connection: Any = None) -> bool:
    """Send this person's waiting messages on this channel: one message, or one digest of
    several. False when it failed (the rows wait for the next attempt)."""
    _token, taken = claim(player_id, channel)
    if not taken:
        return True
    person = people({player_id}).get(player_id)
    try:
        if person is None:
            raise NotSent("no such person")
        if channel == Channel.EMAIL:
            send_email(person, taken, connection)
        else:
            push.send(person.player, _push_payload(person, taken))
    except Exception as exc:
        log.warning("notification to player %s by %s failed: %s", player_id, channel, exc)
        final = [d.pk for d in taken if d.attempts >= settings.LEDGER_NOTIFY_ATTEMPTS]
        Delivery.objects.filter(pk__in=[d.pk for d in taken]).update(
            status=Delivery.Status.PENDING, claim="", error=str(exc)[:500]
        )
        Delivery.objects.filter(pk__in=final).update(status=Delivery.Status.FAILED)
        return False
    Delivery.objects.filter(pk__in=[d.pk for d in taken]).update(
        status=Delivery.Status.SENT, sent_at=timezone.now(), error="", bundled=len(taken)
    )
    return True


def _said(person: Person, taken: list[Delivery]) -> list[tuple[Delivery, words.Said]]:
    return [(d, words.say(d.kind, d.facts)) for d in taken]


def send_email(person: Person, taken: list[Delivery], connection: Any = None) -> None:
    with translation.override(person.language):
        said = _said(person, taken)
        if len(said) == 1:
            subject = said[0][1].title
        else:
            subject = ngettext(
                "%(n)d news from the club", "%(n)d news from the club", len(said)
            ) % {"n": len(said)}
        kinds = sorted({d.kind for d in taken})
        unsubscribe = [
            (words.kind_label(k), unsubscribe_url(person.player.pk, k, Channel.EMAIL))
            for k in kinds
        ]
        settings_url = words.absolute(reverse("notify-settings"))
        context = {
            "name": person.player.name,
            "items": [s for _d, s in said],
            "unsubscribe": unsubscribe,
            "settings_url": settings_url,
            "digest": len(said) > 1,
        }
        text = render_to_string("notify/email/message.txt", context)
        html = render_to_string("notify/email/message.html", context)
    message = EmailMultiAlternatives(
        connection=connection,
        subject=subject,
        body=text,
        to=[taken[0].address or person.email],
        headers={
            # One-click unsubscribe (RFC 8058) from the mail program's own button.
            "List-Unsubscribe": f"<{unsubscribe[0][1]}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Content-Language": person.language,
        },
    )
    message.attach_alternative(html, "text/html")
    message.send(fail_silently=False)


def _push_payload(person: Person, taken: list[Delivery]) -> dict[str, Any]:
    with translation.override(person.language):
        said = _said(person, taken)
        if len(said) == 1:
            title, body, url = said[0][1].title, " ".join(said[0][1].lines), said[0][1].url
        else:
            title = ngettext("%(n)d news from the club", "%(n)d news from the club", len(said)) % {
                "n": len(said)
            }
            body = "\n".join(s.title for _d, s in said)
            url = words.absolute(reverse("notify-settings"))
        # A push message carries at most about 4 KB: the page holds the rest.
        if len(body) > PUSH_BODY:
            body = body[: PUSH_BODY - 1] + "…"
        return {
            "title": title,
            "body": body,
            "url": url,
            "lang": person.language,
            "unsubscribe": unsubscribe_url(person.player.pk, taken[0].kind, Channel.PUSH),
        }


def deliver(event: str, ids: dict[str, Any]) -> int:
    """Hear an event and send what it owes; how many messages failed (to try again)."""
    return flush_all(record(event, ids))


def flush_all(pairs: Iterable[tuple[int, str]]) -> int:
    """Send what waits for each (person, channel), the e-mails over one connection to the
    server; how many failed."""
    failed = 0
    connection = get_connection()
    opened = False
    try:
        for player_id, channel in pairs:
            if channel == Channel.EMAIL and not opened:
                opened = True
                try:
                    connection.open()
                except OSError:  # each message will say why it failed
                    log.warning("the mail server cannot be reached", exc_info=True)
            if not flush(player_id, channel, connection):
                failed += 1
    finally:
        if opened:
            connection.close()
    return failed


def retry_due() -> int:
    """Send again every message still waiting (a failed attempt's, or one a stopped worker
    left taken for more than ten minutes)."""
    stale = timezone.now() - timedelta(minutes=10)
    Delivery.objects.filter(status=Delivery.Status.SENDING, claimed_at__lt=stale).update(
        status=Delivery.Status.PENDING, claim=""
    )
    return flush_all(
        set(
            Delivery.objects.filter(status=Delivery.Status.PENDING).values_list(
                "player_id", "channel"
            )
        )
    )
