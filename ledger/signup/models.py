"""Sign-up for an event and its fees: a competition's registration (dates, cap, who may
register, the fees), the people signed up (registered or waiting, in the order they came),
the money paid and refunded (append-only lines, exact euros), and the log of every change."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledger.clubs.models import Competition, Player


class Registration(models.Model):
    """An event's registration, as its organiser opened it."""

    class Who(models.TextChoices):
        MEMBERS = "members", _("The club's members")
        LOGIN = "login", _("Anyone with a login")
        ANYONE = "anyone", _("Anyone with a name and an e-mail address")

    competition = models.OneToOneField(
        Competition, on_delete=models.CASCADE, related_name="registration"
    )
    opens_at = models.DateTimeField(_("opens"), default=timezone.now)
    closes_at = models.DateTimeField(_("closes"), null=True, blank=True)
    cap = models.PositiveIntegerField(
        _("places"), null=True, blank=True, help_text=_("Empty: no limit.")
    )
    who = models.CharField(_("who may register"), max_length=8, choices=Who.choices)
    card_required = models.BooleanField(_("membership card required"), default=False)
    fee = models.DecimalField(_("fee (€)"), default=Decimal(0), max_digits=9, decimal_places=2)
    fee_member = models.DecimalField(
        _("members' fee (€)"),
        null=True,
        blank=True,
        help_text=_("Empty: the full fee."),
        max_digits=9,
        decimal_places=2,
    )
    fee_junior = models.DecimalField(
        _("juniors' fee (€)"),
        null=True,
        blank=True,
        help_text=_("Empty: the full fee."),
        max_digits=9,
        decimal_places=2,
    )
    closed_at = models.DateTimeField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    def __str__(self) -> str:
        return f"registration for {self.competition}"

    def is_open(self, now: datetime | None = None) -> bool:
        at = now or timezone.now()
        return (
            self.closed_at is None
            and self.opens_at <= at
            and (self.closes_at is None or at < self.closes_at)
        )


class SignUp(models.Model):
    """One person signed up: registered, waiting for a place, or withdrawn."""

    class Status(models.TextChoices):
        REGISTERED = "registered", _("Registered")
        WAITING = "waiting", _("Waiting list")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    class Rate(models.TextChoices):
        FULL = "full", _("Full fee")
        MEMBER = "member", _("Member")
        JUNIOR = "junior", _("Junior")

    registration = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="signups")
    number = models.PositiveIntegerField(_("number"))  # the order people came in
    name = models.CharField(_("name"), max_length=120)
    # The name as ledger/formats/names.py matches people: one person, one sign-up.
    key = models.CharField(max_length=240, editable=False)
    email = models.EmailField(_("e-mail"), blank=True)
    card = models.CharField(_("membership card"), max_length=40, blank=True)
    junior = models.BooleanField(_("junior"), default=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="signups"
    )
    status = models.CharField(_("status"), max_length=10, choices=Status.choices)
    rate = models.CharField(_("rate"), max_length=8, choices=Rate.choices, default=Rate.FULL)
    fee = models.DecimalField(_("fee (€)"), max_digits=9, decimal_places=2)
    created_at = models.DateTimeField(default=timezone.now)
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    # Set by the reads that sum the payments (services.fees_of).
    paid_sum: Decimal | None
    owed: Decimal

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["registration", "number"], name="signup_number_once"),
            # The database itself refuses a second sign-up of one person.
            models.UniqueConstraint(
                fields=["registration", "key"],
                condition=~Q(status="withdrawn"),
                name="signup_one_per_person",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Payment(models.Model):
    """Money in (a positive amount) or back out (a refund, negative). Never changed or
    deleted: a mistake is put right by a refund line."""

    class Method(models.TextChoices):
        CASH = "cash", _("Cash")
        CARD = "card", _("Card")
        TRANSFER = "transfer", _("Bank transfer")

    signup = models.ForeignKey(SignUp, on_delete=models.PROTECT, related_name="payments")
    amount = models.DecimalField(_("amount (€)"), max_digits=9, decimal_places=2)
    method = models.CharField(_("method"), max_length=8, choices=Method.choices)
    at = models.DateTimeField(default=timezone.now)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"{self.amount} {self.method} for {self.signup}"


class LogLine(models.Model):
    """The registration's log, append-only: who changed what, when."""

    class What(models.TextChoices):
        OPENED = "opened", _("Registration opened")
        CHANGED = "changed", _("Registration changed")
        CLOSED = "closed", _("Registration closed")
        REGISTERED = "registered", _("Registered")
        WAITING = "waiting", _("Joined the waiting list")
        MOVED_UP = "moved_up", _("Moved up from the waiting list")
        WITHDRAWN = "withdrawn", _("Withdrew")
        FEE = "fee", _("Fee changed")
        PAID = "paid", _("Paid")
        REFUNDED = "refunded", _("Refunded")

    registration = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="log")
    signup = models.ForeignKey(
        SignUp, null=True, blank=True, on_delete=models.CASCADE, related_name="log"
    )
    what = models.CharField(max_length=10, choices=What.choices)
    detail = models.CharField(max_length=300, blank=True)
    at = models.DateTimeField(default=timezone.now)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"{self.what} {self.detail}"
