"""The sign-up's forms: the organiser's registration settings, a person signing up, a
payment. They read and check the typed values; ledger/signup/services.py writes."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from ledger.signup.models import Payment, Registration


def _money_field(label: Any, required: bool = True, help_text: Any = "") -> forms.DecimalField:
    return forms.DecimalField(
        label=label,
        required=required,
        min_value=Decimal(0),
        max_value=Decimal("9999.99"),
        decimal_places=2,
        max_digits=9,
        help_text=help_text,
        localize=True,
        widget=forms.TextInput(attrs={"inputmode": "decimal", "size": 8}),
    )


class RegistrationForm(forms.Form):
    who = forms.ChoiceField(label=_("Who may register"), choices=Registration.Who.choices)
    cap = forms.IntegerField(
        label=_("Places"),
        required=False,
        min_value=1,
        max_value=10000,
        help_text=_("Above this number people join the waiting list. Empty: no limit."),
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "size": 5}),
    )
    opens_at = forms.DateTimeField(
        label=_("Opens"),
        required=False,
        help_text=_("Empty: now."),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    closes_at = forms.DateTimeField(
        label=_("Closes"),
        required=False,
        help_text=_("Empty: when you close it."),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    card_required = forms.BooleanField(label=_("Membership card required"), required=False)
    fee = _money_field(_("Fee (€)"))
    fee_member = _money_field(_("Members' fee (€)"), False, _("Empty: the full fee."))
    fee_junior = _money_field(_("Juniors' fee (€)"), False, _("Empty: the full fee."))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        opens, closes = data.get("opens_at"), data.get("closes_at")
        if opens and closes and closes <= opens:
            self.add_error("closes_at", _("Registration closes after it opens."))
        return data


class PersonForm(forms.Form):
    name = forms.CharField(label=_("First name and surname"), max_length=120, required=False)
    email = forms.EmailField(label=_("E-mail"), required=False)
    card = forms.CharField(label=_("Membership card number"), max_length=40, required=False)
    junior = forms.BooleanField(label=_("Junior"), required=False)
    not_them = forms.BooleanField(label=_("No, I am someone else"), required=False)


class PaymentForm(forms.Form):
    method = forms.ChoiceField(label=_("Method"), choices=Payment.Method.choices)
    amount = _money_field(_("Amount (€)"), False, _("Empty: what is still due."))
