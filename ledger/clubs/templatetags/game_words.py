"""What a game calls one result of a table, for templates: ``{{ competition.game|hand_word }}``
("smazzata" at Tarocco, "game" at most games) and ``|hands_word`` for several."""

from __future__ import annotations

from django import template

from ledger.clubs.games import hand_words

register = template.Library()


@register.filter
def hand_word(game: str) -> str:
    return hand_words(game)[0]


@register.filter
def hands_word(game: str) -> str:
    return hand_words(game)[1]
