"""What a game calls one result of a table, for templates: ``{{ competition.game|hand_word }}``
("smazzata" at Tarocco, "game" at most games) and ``|hands_word`` for several."""

from __future__ import annotations

from django import template
from django.urls import NoReverseMatch, reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from ledger.clubs.games import engine_available, game_of_rule, hand_words, reader_language

register = template.Library()


@register.filter
def hand_word(game: str) -> str:
    return hand_words(game)[0]


@register.filter
def hands_word(game: str) -> str:
    return hand_words(game)[1]


@register.filter
def rule_ref(rule_id: str) -> SafeString:
    """A rule id as a small reference beside a message's words, linked to the rule's text
    on the game's rules page: ``{{ violation.rule|rule_ref }}``."""
    game = game_of_rule(str(rule_id or ""))
    try:
        url = reverse("game-rules", args=[game]) if engine_available(game) else ""
    except NoReverseMatch:
        url = ""
    if not url:
        return format_html('<small class="rule-ref">{}</small>', rule_id)
    return format_html(
        '<a href="{}#{}" title="{}" class="rule-ref">{}</a>',
        url,
        rule_id,
        _("The rule in the game's rule book"),
        rule_id,
    )


@register.filter
def said(message: object) -> str:
    """An engine's message ({"it": ..., "en": ...}) in the reader's language."""
    if not isinstance(message, dict):
        return str(message or "")
    return str(message.get(reader_language()) or message.get("en") or "")
