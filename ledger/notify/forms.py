"""The person's choices: address, language and, for each kind, the channels it comes by."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from ledger.notify.models import Announcement, Channel, Kind, Preferences


def field_name(kind: str, channel: str) -> str:
    return f"{kind}__{channel}"


class PreferencesForm(forms.Form):
    email = forms.EmailField(
        label=_("E-mail address for the messages"),
        required=False,
        max_length=254,
        help_text=_("Empty: the address of your login."),
    )
    language = forms.ChoiceField(label=_("Language of the messages"), choices=settings.LANGUAGES)

    def __init__(self, *args: Any, preferences: Preferences | None = None, **kwargs: Any) -> None:
        initial: dict[str, object] = {
            "email": preferences.email if preferences else "",
            "language": preferences.language if preferences else settings.LANGUAGE_CODE,
        }
        for kind in Kind.values:
            for channel in Channel.values:
                initial[field_name(kind, channel)] = preferences is None or preferences.wants(
                    kind, channel
                )
        kwargs.setdefault("initial", initial)
        super().__init__(*args, **kwargs)
        for kind in Kind:
            for channel in Channel:
                self.fields[field_name(kind.value, channel.value)] = forms.BooleanField(
                    label=f"{kind.label}: {channel.label}", required=False
                )

    def rows(self) -> list[tuple[str, list[forms.BoundField]]]:
        """The grid the page draws: one row per kind, one box per channel."""
        return [
            (str(kind.label), [self[field_name(kind.value, c)] for c in Channel.values])
            for kind in Kind
        ]

    def muted(self) -> list[str]:
        return [
            f"{kind}:{channel}"
            for kind in Kind.values
            for channel in Channel.values
            if not self.cleaned_data.get(field_name(kind, channel))
        ]


class AnnouncementForm(forms.ModelForm[Announcement]):
    class Meta:
        model = Announcement
        fields = ["title", "text"]
        widgets = {"text": forms.Textarea(attrs={"rows": 4, "maxlength": 2000})}
