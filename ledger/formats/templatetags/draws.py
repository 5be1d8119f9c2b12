"""How a round was drawn, in words: the draft page says "Drawn by: the FIDE Dutch system",
never the name the pairing code gives its engine ("dutch", "casual", "team dutch", "search",
"knockout + by hand")."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

register = template.Library()

ENGINES = {
    "dutch": gettext_lazy("the FIDE Dutch system"),
    "casual": gettext_lazy("a quick Swiss pairing (a field too large for the exact system)"),
    "berger": gettext_lazy("Berger tables"),
    "groups": gettext_lazy("tables of players close on points"),
    "knockout": gettext_lazy("the bracket"),
    "movement": gettext_lazy("a fixed movement of the tables"),
    "search": gettext_lazy("a search for opponents not yet met"),
    "": gettext_lazy("the organiser, by hand"),
}
#: What a draw records once the organiser changed it (``services.adjust_draw``).
BY_HAND = "by hand"


@register.filter
def drawn_by(engine: str) -> str:
    """The words for an engine's name as a draft records it, with "team " before it for a
    team event and " (repaired)" after it when the draw mended a pairing."""
    name = (engine or "").strip()
    by_hand = name == BY_HAND or name.endswith(" + " + BY_HAND)
    if by_hand:
        name = name.removesuffix(BY_HAND).removesuffix(" + ").strip()
    team = name.startswith("team ")
    name = name.removeprefix("team ")
    repaired = name.endswith(" (repaired)")
    name = name.removesuffix(" (repaired)")
    # A name the table above does not know is never shown as it is written in the code.
    words = str(ENGINES.get(name, gettext_lazy("the club's own draw")))
    if team:
        words = _("teams, by %(how)s") % {"how": words}
    if repaired:
        words = _("%(how)s, some pairs then redone to keep the pairing rules") % {"how": words}
    if by_hand and name:
        words = _("%(how)s, then changed by hand") % {"how": words}
    return words
