"""The referee desk's own records: cases (a hand under examination and its ruling) and each
competition's definition of the artificial scores (Law 12: average-plus, average,
average-minus)."""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledger.clubs.games import artificial_scores, validate_game
from ledger.clubs.models import Club, Competition, Dispute, Result

# What a game that declares none gets (``Game.artificial_scores``), in per-seat points.
FALLBACK_ARTIFICIAL = (Decimal("1"), Decimal("0"), Decimal("-1"))


class ArtificialScores(models.Model):
    """What average-plus, average and average-minus are worth in one competition."""

    competition = models.OneToOneField(
        Competition, on_delete=models.CASCADE, related_name="artificial_scores"
    )
    average_plus = models.DecimalField(_("average-plus"), max_digits=8, decimal_places=2)
    average = models.DecimalField(_("average"), max_digits=8, decimal_places=2)
    average_minus = models.DecimalField(_("average-minus"), max_digits=8, decimal_places=2)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("artificial scores")
        verbose_name_plural = _("artificial scores")

    def __str__(self) -> str:
        return f"{self.competition}: {self.average_plus}/{self.average}/{self.average_minus}"

    @classmethod
    def for_competition(cls, competition: Competition) -> ArtificialScores:
        """The competition's definitions, or the game's defaults (not saved)."""
        found = cls.objects.filter(competition=competition).first()
        if found is not None:
            return found
        declared = artificial_scores(competition.game)
        plus, average, minus = declared or FALLBACK_ARTIFICIAL
        return cls(competition=competition, average_plus=plus, average=average, average_minus=minus)

    def value(self, level: str) -> Decimal:
        return {
            "plus": self.average_plus,
            "average": self.average,
            "minus": self.average_minus,
        }[level]


class Case(models.Model):
    """A hand on the referee's desk: the record as entered, the engine's verdict, and the
    ruling once given. A case may start from a result of the ledger or fresh."""

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        RULED = "ruled", _("Ruled")

    class Kind(models.TextChoices):
        UPHELD = "upheld", _("Result upheld")
        ASSIGNED = "assigned", _("Assigned score")
        ARTIFICIAL = "artificial", _("Artificial score")
        WEIGHTED = "weighted", _("Weighted score")
        SPLIT = "split", _("Split scores")
        VOID = "void", _("Void hand")

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="referee_cases")
    competition = models.ForeignKey(
        Competition, on_delete=models.PROTECT, related_name="referee_cases"
    )
    result = models.ForeignKey(
        Result, null=True, blank=True, on_delete=models.PROTECT, related_name="referee_cases"
    )
    dispute = models.ForeignKey(
        Dispute, null=True, blank=True, on_delete=models.PROTECT, related_name="referee_cases"
    )
    game = models.CharField(_("game"), max_length=16, validators=[validate_game])
    reason = models.TextField(_("what is contested"), blank=True)
    record = models.JSONField(_("record"), default=dict, blank=True)
    verdict = models.JSONField(_("verdict"), null=True, blank=True)
    # The steps taken back from the end of the record (undo, "go back to step N"), the next
    # one first: put back one by one or all at once, dropped when another step is entered.
    later = models.JSONField(_("steps set aside"), default=list, blank=True)
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    opened_at = models.DateTimeField(default=timezone.now)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    kind = models.CharField(_("ruling"), max_length=12, choices=Kind.choices, blank=True)
    ruling = models.JSONField(_("ruling detail"), null=True, blank=True)
    note = models.TextField(_("referee's note"), blank=True)
    ruled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    ruled_at = models.DateTimeField(null=True, blank=True)
    correction = models.OneToOneField(
        Result, null=True, blank=True, on_delete=models.PROTECT, related_name="referee_ruling"
    )

    class Meta:
        ordering = ["-opened_at", "-id"]
        verbose_name = _("referee case")
        verbose_name_plural = _("referee cases")

    def __str__(self) -> str:
        return f"case {self.pk} ({self.get_status_display()})"
