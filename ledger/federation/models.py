"""A region's federation: its officers, its member clubs, its seasons of membership cards,
its event tiers, and the competitions it sanctions at a tier (docs/federation.md)."""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledger.clubs.models import Club, Competition, Player


class Federation(models.Model):
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("short name"), max_length=60, unique=True)
    region = models.CharField(_("region"), max_length=80, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name"]
        verbose_name = _("federation")
        verbose_name_plural = _("federations")

    def __str__(self) -> str:
        return self.name

    def is_officer(self, user: object) -> bool:
        pk = getattr(user, "pk", None)
        return pk is not None and self.officers.filter(user_id=pk).exists()


class Officer(models.Model):
    """A person who runs the federation: approves clubs, keeps the cards, sets the tiers
    and sanctions events."""

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="officers")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    since = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["federation", "user"], name="federation_one_officer_per_person"
            )
        ]

    def __str__(self) -> str:
        return str(self.user)


class MemberClub(models.Model):
    """A club's membership of the federation: it applies, an officer approves or refuses."""

    class Status(models.TextChoices):
        APPLIED = "applied", _("Applied")
        APPROVED = "approved", _("Member")
        REFUSED = "refused", _("Refused")

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="clubs")
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="federations")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.APPLIED)
    applied_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    applied_at = models.DateTimeField(default=timezone.now)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["club__name"]
        constraints = [
            models.UniqueConstraint(
                fields=["federation", "club"], name="federation_one_membership_per_club"
            )
        ]

    def __str__(self) -> str:
        return f"{self.club} ({self.get_status_display()})"


class Tier(models.Model):
    """An event tier (club, provincial, regional, national...) with its weight, and what a
    sanctioned competition's enrolment does with a player who holds no valid card."""

    class MissingCard(models.TextChoices):
        WARN = "warn", _("Enrol, with a warning")
        REFUSE = "refuse", _("Refuse the entry")

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="tiers")
    name = models.CharField(_("name"), max_length=60)
    weight = models.DecimalField(
        _("weight"), max_digits=6, decimal_places=2, default=Decimal("1.00")
    )
    missing_card = models.CharField(
        _("a player without a valid card"),
        max_length=8,
        choices=MissingCard.choices,
        default=MissingCard.REFUSE,
    )

    class Meta:
        ordering = ["weight", "name"]
        constraints = [
            models.UniqueConstraint(
                fields=["federation", "name"], name="federation_one_tier_per_name"
            )
        ]

    def __str__(self) -> str:
        return self.name


class CardSeason(models.Model):
    """A season of membership cards, as the federation's list gives them."""

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=60)
    starts = models.DateField(_("valid from"))
    ends = models.DateField(_("valid until"))

    class Meta:
        ordering = ["-starts"]
        constraints = [
            models.UniqueConstraint(
                fields=["federation", "name"], name="federation_one_card_season_per_name"
            ),
            models.CheckConstraint(
                condition=models.Q(ends__gte=models.F("starts")),
                name="federation_card_season_in_order",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Card(models.Model):
    """A membership card (the tessera): its number, the person, its validity; the player
    it was matched to by name in a member club, when there is one."""

    season = models.ForeignKey(CardSeason, on_delete=models.CASCADE, related_name="cards")
    number = models.CharField(_("card number"), max_length=40)
    name = models.CharField(_("name"), max_length=120)
    valid_from = models.DateField(_("valid from"))
    valid_until = models.DateField(_("valid until"))
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="cards"
    )

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(
                fields=["season", "number"], name="federation_one_card_per_number"
            )
        ]

    def __str__(self) -> str:
        return f"{self.number} {self.name}"


class Sanction(models.Model):
    """A competition sanctioned by the federation at a tier."""

    competition = models.OneToOneField(
        Competition, on_delete=models.CASCADE, related_name="sanction"
    )
    tier = models.ForeignKey(Tier, on_delete=models.PROTECT, related_name="sanctions")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.competition} ({self.tier})"
