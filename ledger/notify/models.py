"""Notifications and calendars: what each person wants to hear about and where, every
message owed to someone (one row per person, event and channel: a job that runs twice finds
it already sent), the web app's push subscriptions, the clubs' announcements."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledger.clubs.models import Club, Player


class Kind(models.TextChoices):
    """What a person may choose to hear about, one switch per channel."""

    SEAT = "seat", _("My seat for the next round")
    CONFIRM = "confirm", _("A result waiting for my confirmation or PIN")
    CHANGED = "changed", _("A result of mine corrected, voided or contested")
    REFEREE = "referee", _("A referee's call and its ruling")
    BYE = "bye", _("My bye")
    TURN = "turn", _("My turn at a digital table, when I am not on its page")
    ANNOUNCEMENT = "announcement", _("The club's announcements")
    PLACE = "place", _("A place for me, after waiting for one")


class Channel(models.TextChoices):
    EMAIL = "email", _("E-mail")
    PUSH = "push", _("Notification on the installed app")


def _calendar_key() -> str:
    return secrets.token_urlsafe(24)


class Preferences(models.Model):
    """A person's choices. Without a row: every kind on every channel, the login's e-mail
    address and the site's language."""

    player = models.OneToOneField(
        Player, on_delete=models.CASCADE, related_name="notify_preferences"
    )
    email = models.EmailField(
        _("e-mail address"),
        blank=True,
        help_text=_("Empty: the address of your login."),
    )
    language = models.CharField(
        _("language of the messages"),
        max_length=8,
        choices=settings.LANGUAGES,
        default=settings.LANGUAGE_CODE,
    )
    # "kind:channel" pairs switched off (Kind and Channel values).
    muted = models.JSONField(default=list, blank=True)
    # The secret in the address of the person's own calendar feed; a new one voids the old.
    calendar_key = models.CharField(max_length=40, unique=True, default=_calendar_key)

    class Meta:
        verbose_name = _("notification preferences")
        verbose_name_plural = _("notification preferences")

    def __str__(self) -> str:
        return f"preferences of {self.player}"

    def wants(self, kind: str, channel: str) -> bool:
        return f"{kind}:{channel}" not in self.muted


class Notice(models.Model):
    """One event people are told about, known by a key that names it once for all (a round's
    publication is ``round.published:<draw>``): the job that hears it twice finds it here."""

    key = models.CharField(max_length=120, unique=True)
    event = models.CharField(max_length=40)
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="notices")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.key


class Delivery(models.Model):
    """A message owed to one person about one event on one channel: the row is unique, so
    the same event never reaches the same person twice there. Several owed at once go
    together in one message (a digest)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting")
        SENDING = "sending", _("being sent")
        SENT = "sent", _("delivered")
        FAILED = "failed", _("failed")

    notice = models.ForeignKey(Notice, on_delete=models.CASCADE, related_name="deliveries")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="deliveries")
    channel = models.CharField(max_length=8, choices=Channel.choices)
    kind = models.CharField(max_length=16, choices=Kind.choices)
    # What the message says, as facts rendered in the person's language when it is sent.
    facts = models.JSONField(default=dict)
    address = models.CharField(max_length=254, blank=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    error = models.TextField(blank=True)
    claim = models.CharField(max_length=32, blank=True)
    # When a job took it to send (a message taken long ago by a job that stopped is sent
    # again by the sweep).
    claimed_at = models.DateTimeField(null=True, blank=True)
    # How many events the message that carried this one held (more than one: a digest).
    bundled = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)
    sent_at = models.DateTimeField(null=True, blank=True)

    # Set by the log page: the kind in the reader's words.
    label: str = ""

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        constraints = [
            models.UniqueConstraint(
                fields=["notice", "player", "channel"], name="one_delivery_per_event"
            )
        ]
        indexes = [models.Index(fields=["player", "channel", "status"])]

    def __str__(self) -> str:
        return f"{self.notice_id} → {self.player_id} ({self.channel}, {self.status})"


class PushSubscription(models.Model):
    """A browser's push subscription (the installed web app on a phone), as the browser
    gives it: its endpoint and the keys the messages are encrypted to."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"push of {self.player_id}"


class Announcement(models.Model):
    """A few lines a club's organiser sends to its members."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="announcements")
    title = models.CharField(_("title"), max_length=120)
    text = models.TextField(_("text"), max_length=2000)
    written_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.title
