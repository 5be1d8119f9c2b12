"""A form's and a serializer's field for a game: its choices are the games installed, read
each time a form or a serializer is made (ledger/clubs/games.py), never a list kept here."""

from __future__ import annotations

from typing import Any

from django import forms
from rest_framework import serializers

from ledger.clubs.games import game_choices


class GameFormField(forms.ChoiceField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=game_choices, **kwargs)


class GameSerializerField(serializers.ChoiceField):
    """Each serializer gets its own copy of its fields (made anew from these arguments), so
    the choices are those installed when it is made."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.pop("choices", None)
        super().__init__(choices=game_choices(), **kwargs)
