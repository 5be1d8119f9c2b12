"""Venues that sync to a hub (docs/operations.md): on the hub, the tokens an officer issues
to a member club, the keys its venue signs with, and every upload accepted; at the venue,
where the hub is and each sync's progress."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledger.clubs.models import Club

# --- the hub's side ----------------------------------------------------------------------


class ClubToken(models.Model):
    """A club's upload token on the hub: it lets one club's venue send that club's journal,
    and nothing else. Only its SHA-256 is kept; the token is shown once, when issued. Its
    first upload registers the key the venue signs with."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="hub_tokens")
    digest = models.CharField(max_length=64, unique=True)
    hint = models.CharField(_("begins with"), max_length=12)
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    issued_at = models.DateTimeField(default=timezone.now)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    # The venue's public key its first upload registered ("" until then).
    public_key = models.CharField(max_length=64, blank=True, default="")
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-issued_at"]
        verbose_name = _("upload token")
        verbose_name_plural = _("upload tokens")

    def __str__(self) -> str:
        return f"{self.club} {self.hint}…"


class VenueKey(models.Model):
    """A public key the hub takes a club's uploads signed with: registered by a token's
    first upload (the officer who issued the token vouches for it)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="venue_keys")
    public_key = models.CharField(max_length=64)
    key_id = models.CharField(max_length=16)
    token = models.ForeignKey(ClubToken, null=True, on_delete=models.SET_NULL, related_name="+")
    registered_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["registered_at"]
        constraints = [
            models.UniqueConstraint(fields=["club", "public_key"], name="hub_one_key_per_club")
        ]

    def __str__(self) -> str:
        return self.key_id


class Upload(models.Model):
    """An upload the hub accepted: where its journal started and ended, and its checkpoint."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="uploads")
    digest = models.CharField(max_length=64)  # SHA-256 of the file as sent
    since = models.PositiveBigIntegerField()
    length = models.PositiveBigIntegerField()
    head = models.CharField(max_length=64)
    lines = models.PositiveIntegerField()  # journal lines it appended
    key_id = models.CharField(max_length=16)
    received_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-length", "-received_at"]
        constraints = [
            models.UniqueConstraint(fields=["club", "digest"], name="hub_one_upload_per_file")
        ]

    def __str__(self) -> str:
        return f"{self.club} #{self.since}–#{self.length}"


# --- the venue's side --------------------------------------------------------------------


class HubLink(models.Model):
    """Where a club on its own installation sends its journal: the hub's address and the
    token the hub's officer issued, kept sealed (clubs/storage/signing.seal_secret)."""

    club = models.OneToOneField(Club, on_delete=models.CASCADE, related_name="hub_link")
    url = models.URLField(_("hub's address"), max_length=300)
    token_sealed = models.TextField(editable=False)
    token_hint = models.CharField(max_length=12, editable=False)
    updated_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return self.url


class SyncRun(models.Model):
    """One sync of a club's journal to its hub, with its progress (a background job)."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Waiting to start")
        RUNNING = "running", _("Sending")
        DONE = "done", _("Done")
        FAILED = "failed", _("Stopped")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="sync_runs")
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    total = models.PositiveBigIntegerField(default=0)  # journal lines to send
    sent = models.PositiveBigIntegerField(default=0)
    chunks = models.PositiveIntegerField(default=0)
    chunks_sent = models.PositiveIntegerField(default=0)
    hub_length = models.PositiveBigIntegerField(default=0)
    hub_head = models.CharField(max_length=64, blank=True, default="")
    message = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("sync to the hub")
        verbose_name_plural = _("syncs to the hub")

    def __str__(self) -> str:
        return f"{self.club} {self.status}"

    @property
    def percent(self) -> int:
        if not self.total:  # nothing to send, or not counted yet
            return 100 if self.status == self.Status.DONE else 0
        return int(100 * self.sent / self.total)

    @property
    def running(self) -> bool:
        return self.status in (self.Status.QUEUED, self.Status.RUNNING)
