"""A tournament night at the club: who is here (check-in per round), the round clock with
extra minutes per table, and players replaced at a table. Penalties are journal entries
and live with the journal (ledger.clubs.models.Penalty)."""

from __future__ import annotations

from datetime import datetime, timedelta
from decimal import Decimal

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledger.clubs.models import Club, Competition, Player, Round, Table


class NightSettings(models.Model):
    class AtTime(models.TextChoices):
        FINISH_HAND = "finish_hand", _("The hand in play is finished; no new hand starts")
        STOP = "stop", _("Play stops at once; the hand in play does not count")

    class SubstitutePoints(models.TextChoices):
        SUBSTITUTE = "substitute", _("To the substitute")
        NOBODY = "nobody", _("To nobody")
        FIXED = "fixed", _("A fixed score")

    competition = models.OneToOneField(
        Competition, on_delete=models.CASCADE, related_name="night_settings"
    )
    round_minutes = models.PositiveSmallIntegerField(_("minutes per round"), default=60)
    at_time = models.CharField(
        _("at time"), max_length=12, choices=AtTime.choices, default=AtTime.FINISH_HAND
    )
    substitute_points = models.CharField(
        _("a substitute's points go"),
        max_length=12,
        choices=SubstitutePoints.choices,
        default=SubstitutePoints.SUBSTITUTE,
    )
    substitute_fixed = models.DecimalField(
        _("fixed score per hand for a substitute"),
        max_digits=8,
        decimal_places=2,
        default=Decimal(0),
    )

    class Meta:
        verbose_name = _("night settings")
        verbose_name_plural = _("night settings")

    def __str__(self) -> str:
        return f"{self.competition} night settings"


class CheckIn(models.Model):
    class How(models.TextChoices):
        PHONE = "phone", _("On their phone")
        TABLET = "tablet", _("At the tablet")
        ORGANISER = "organiser", _("By the organiser")

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="checkins")
    round_number = models.PositiveIntegerField(_("round"))
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    how = models.CharField(max_length=10, choices=How.choices)
    at = models.DateTimeField(default=timezone.now)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["at"]
        constraints = [
            models.UniqueConstraint(
                fields=["competition", "round_number", "player"], name="one_checkin_per_round"
            )
        ]

    def __str__(self) -> str:
        return f"{self.player} here for round {self.round_number}"


class RoundClock(models.Model):
    """A round's clock: started, paused and resumed, ended. Time left is computed from
    the moments, never ticked down in the database."""

    round = models.OneToOneField(Round, on_delete=models.CASCADE, related_name="clock")
    minutes = models.PositiveSmallIntegerField(_("minutes"))
    started_at = models.DateTimeField(null=True, blank=True)
    paused_at = models.DateTimeField(null=True, blank=True)
    paused_seconds = models.FloatField(default=0)
    ended_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"clock of {self.round}"

    def elapsed(self, now: datetime | None = None) -> float:
        if self.started_at is None:
            return 0.0
        now = now or timezone.now()
        until = self.ended_at or self.paused_at or now
        return max(0.0, (until - self.started_at).total_seconds() - self.paused_seconds)

    def left(self, extra_minutes: int = 0, now: datetime | None = None) -> float:
        """Seconds left (negative once time is up)."""
        return (self.minutes + extra_minutes) * 60 - self.elapsed(now)

    @property
    def state(self) -> str:
        if self.ended_at is not None:
            return "ended"
        if self.started_at is None:
            return "ready"
        if self.paused_at is not None:
            return "paused"
        return "running"

    def ends_at(self, extra_minutes: int = 0) -> datetime | None:
        if self.state != "running" or self.started_at is None:
            return None
        return (
            self.started_at
            + timedelta(seconds=self.paused_seconds)
            + timedelta(minutes=self.minutes + extra_minutes)
        )


class ExtraTime(models.Model):
    """Extra minutes for one table (a late start, a ruling that stopped play)."""

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="extra_time")
    minutes = models.PositiveSmallIntegerField(_("extra minutes"))
    reason = models.CharField(_("reason"), max_length=120, blank=True)

    def __str__(self) -> str:
        return f"+{self.minutes} for {self.table}"


class Replacement(models.Model):
    """A player replaced at a table from one hand on; the table's seat takes the
    substitute, and how the substitute's points count is kept as it was set then."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="replacements")
    seat = models.PositiveSmallIntegerField(_("seat"))
    replaced = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    substitute = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    from_hand = models.PositiveIntegerField(_("from hand"))
    points = models.CharField(max_length=12, choices=NightSettings.SubstitutePoints.choices)
    fixed = models.DecimalField(max_digits=8, decimal_places=2, default=Decimal(0))
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["table", "at", "id"]

    def __str__(self) -> str:
        return f"{self.substitute} for {self.replaced} at {self.table} from hand {self.from_hand}"


class Venue(models.Model):
    """A place where a club plays: its own room, a hotel's hall, a school's gym."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="venues")
    name = models.CharField(_("name"), max_length=80)
    address = models.CharField(_("address"), max_length=200, blank=True)

    class Meta:
        ordering = ["club", "name"]
        verbose_name = _("venue")
        verbose_name_plural = _("venues")
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="venue_name_unique_in_club")
        ]

    def __str__(self) -> str:
        return self.name


class ScheduledRound(models.Model):
    """When and where a round of a competition is played: its day, its start and its venue,
    set by the organiser before or after the round is drawn (rounds are keyed by number,
    so a round not yet drawn can be scheduled)."""

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="schedule")
    number = models.PositiveIntegerField(_("round"))
    day = models.DateField(_("day"), null=True, blank=True)
    starts_at = models.TimeField(_("starts at"), null=True, blank=True)
    venue = models.ForeignKey(
        Venue, null=True, blank=True, on_delete=models.PROTECT, related_name="rounds"
    )

    class Meta:
        ordering = ["competition", "number"]
        constraints = [
            models.UniqueConstraint(fields=["competition", "number"], name="one_schedule_per_round")
        ]

    def __str__(self) -> str:
        return f"{self.competition} #{self.number}"
