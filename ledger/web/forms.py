"""Score-entry forms: one per game where a summary has fields, JSON otherwise.

Each form turns what the scorekeeper typed into the game's summary (docs/notation/), which
the engine then scores; nothing here computes points.
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from ledger.clubs.models import Player


class SeatChoiceField(forms.TypedChoiceField):
    def __init__(self, seats: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(choices=[("", "—"), *seats], coerce=int, empty_value=None, **kwargs)


class TaroccoSummaryForm(forms.Form):
    OUTCOMES = [
        ("solo", _("Solo: one against three")),
        ("pairs", _("Pairs: two against two")),
        ("offer", _("Offer accepted")),
        ("abandoned", _("Abandoned: nobody played")),
    ]
    outcome = forms.ChoiceField(label=_("Outcome of the bidding"), choices=OUTCOMES)
    dealer = forms.TypedChoiceField(label=_("Dealer"), coerce=int)
    declarer = forms.TypedChoiceField(
        label=_("Soloist"), coerce=int, required=False, empty_value=None
    )
    partner_a = forms.TypedChoiceField(
        label=_("Pair: first player"), coerce=int, required=False, empty_value=None
    )
    partner_b = forms.TypedChoiceField(
        label=_("Pair: second player"), coerce=int, required=False, empty_value=None
    )
    card_points = forms.IntegerField(
        label=_("Card points of the soloist or of the pair"),
        required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    offerer = forms.TypedChoiceField(
        label=_("Who offered"), coerce=int, required=False, empty_value=None
    )
    taker = forms.TypedChoiceField(
        label=_("Who took the offer"), coerce=int, required=False, empty_value=None
    )
    points = forms.IntegerField(
        label=_("Points offered"),
        required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )

    def __init__(self, *args: Any, seats: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "—"), *seats]
        for name in ("declarer", "partner_a", "partner_b", "offerer", "taker"):
            self.fields[name].choices = choices
        self.fields["dealer"].choices = seats
        self.fields["dealer"].initial = seats[-1][0]

    def summary(self) -> dict[str, Any]:
        data = self.cleaned_data
        outcome = data["outcome"]
        summary: dict[str, Any] = {"outcome": outcome, "dealer": data["dealer"]}
        needed: dict[str, list[str]] = {
            "solo": ["declarer", "card_points"],
            "pairs": ["partner_a", "partner_b", "card_points"],
            "offer": ["offerer", "taker", "points"],
            "abandoned": [],
        }
        missing = [n for n in needed[outcome] if data.get(n) is None]
        if missing:
            for name in missing:
                self.add_error(name, _("Needed for this outcome."))
            raise forms.ValidationError(_("Fill in the fields marked for this outcome."))
        if outcome == "solo":
            summary.update(declarer=data["declarer"], card_points=data["card_points"])
        elif outcome == "pairs":
            summary.update(
                pair=[data["partner_a"], data["partner_b"]], card_points=data["card_points"]
            )
        elif outcome == "offer":
            summary.update(offerer=data["offerer"], taker=data["taker"], points=data["points"])
        return summary


class JsonSummaryForm(forms.Form):
    summary_json = forms.CharField(
        label=_("Summary (JSON, as in the game's notation)"),
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false", "class": "mono"}),
    )

    def __init__(self, *args: Any, seats: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)

    def summary(self) -> dict[str, Any]:
        try:
            value = json.loads(self.cleaned_data["summary_json"])
        except json.JSONDecodeError as exc:
            self.add_error("summary_json", _("Not valid JSON: %(e)s") % {"e": exc.msg})
            raise forms.ValidationError(_("Fix the JSON.")) from exc
        if not isinstance(value, dict):
            self.add_error("summary_json", _("A summary is a JSON object: { … }."))
            raise forms.ValidationError(_("Fix the JSON."))
        return value


class ManualScoresForm(forms.Form):
    """For a game whose engine has not landed: the points of each seat."""

    def __init__(self, *args: Any, seats: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for index, name in seats:
            self.fields[f"seat_{index}"] = forms.DecimalField(
                label=name,
                max_digits=12,
                decimal_places=2,
                widget=forms.NumberInput(attrs={"inputmode": "decimal", "step": "any"}),
            )

    def scores(self) -> list[Any]:
        return [self.cleaned_data[name] for name in self.fields]


SUMMARY_FORMS: dict[str, type[forms.Form]] = {"tarocco": TaroccoSummaryForm}


class NewTableForm(forms.Form):
    label = forms.CharField(label=_("Table name"), max_length=40)

    def __init__(self, *args: Any, members: list[Player], seats: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "—")] + [(p.pk, p.name) for p in members]
        for i in range(seats):
            self.fields[f"seat_{i}"] = forms.TypedChoiceField(
                label=_("Seat %(n)d") % {"n": i}, choices=choices, coerce=int
            )

    def player_ids(self) -> list[int]:
        return [v for k, v in self.cleaned_data.items() if k.startswith("seat_")]
