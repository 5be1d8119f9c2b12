"""How a round was drawn, in words: the draft page says "Drawn by: the FIDE Dutch system",
never the name the pairing code gives its engine ("dutch", "casual", "team dutch")."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

register = template.Library()

ENGINES = {
    "dutch": gettext_lazy("the FIDE Dutch system"),
    "casual": gettext_lazy("a quick Swiss pairing (a field too large for the exact system)"),
    "berger": gettext_lazy("Berger tables"),
    "groups": gettext_lazy("groups"),
    "knockout": gettext_lazy("the bracket"),
    "movement": gettext_lazy("a fixed movement of the tables"),
    "search": gettext_lazy("a search for opponents not yet met"),
}


@register.filter
def drawn_by(engine: str) -> str:
    """The words for an engine's name as a draft records it, with "team " before it for a
    team event and " (repaired)" after it when the draw mended a pairing."""
    name = (engine or "").strip()
    team = name.startswith("team ")
    name = name.removeprefix("team ")
    repaired = name.endswith(" (repaired)")
    name = name.removesuffix(" (repaired)")
    words = str(ENGINES.get(name, name.replace("_", " ")))
    if team:
        words = _("teams, by %(how)s") % {"how": words}
    if repaired:
        words = _("%(how)s, some pairs then redone to keep the pairing rules") % {"how": words}
    return words
