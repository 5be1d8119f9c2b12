"""What a message says, in its reader's language: a title and a few lines for each kind,
from the facts the event left (ledger/notify/hearing.py)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.conf import settings
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext


@dataclass
class Said:
    title: str
    lines: list[str]
    url: str


def when(facts: dict[str, Any]) -> str:
    """The round's start in the club's time zone, or its day, in the reader's format."""
    if facts.get("starts_at"):
        moment = timezone.localtime(datetime.fromisoformat(facts["starts_at"]))
        return formats.date_format(moment, "DATETIME_FORMAT")
    if facts.get("played_on"):
        return formats.date_format(date.fromisoformat(facts["played_on"]), "DATE_FORMAT")
    return ""


def absolute(path: str) -> str:
    return f"{settings.LEDGER_SITE_URL}{path}" if path.startswith("/") else path


def say(kind: str, facts: dict[str, Any]) -> Said:
    """One event's message, in the active language."""
    maker = SAYINGS.get(kind, _generic)
    return maker(facts)


def _seat(facts: dict[str, Any]) -> Said:
    title = _("%(competition)s, round %(round)s: table %(table)s, seat %(seat)s") % facts
    lines = [
        _("Round %(round)s of %(competition)s is drawn.") % facts,
        _("Your place: table %(table)s, seat %(seat)s.") % facts,
    ]
    if facts.get("opponents"):
        lines.append(
            ngettext(
                "Your opponent: %(names)s.", "Your opponents: %(names)s.", len(facts["opponents"])
            )
            % {"names": ", ".join(facts["opponents"])}
        )
    start = when(facts)
    if start:
        lines.append(_("Start: %(when)s.") % {"when": start})
    if facts.get("venue"):
        lines.append(_("Where: %(venue)s.") % facts)
    return Said(title, lines, absolute(facts.get("path", "/")))


def _bye(facts: dict[str, Any]) -> Said:
    title = _("%(competition)s, round %(round)s: you have a bye") % facts
    lines = [_("Round %(round)s of %(competition)s is drawn and you sit it out.") % facts]
    if facts.get("points"):
        lines.append(_("The bye counts %(points)s points.") % facts)
    return Said(title, lines, absolute(facts.get("path", "/")))


def _confirm(facts: dict[str, Any]) -> Said:
    title = _("%(competition)s, table %(table)s: a result waits for your confirmation") % facts
    lines = [
        _("A result of table %(table)s of %(competition)s waits to be confirmed.") % facts,
        _("Type it again without looking at the first entry, on its page.")
        if facts.get("blind")
        else _("Check it and confirm it on its page, or sign it off with your PIN."),
    ]
    return Said(title, lines, absolute(facts.get("path", "/")))


def _changed(facts: dict[str, Any]) -> Said:
    change = facts.get("change")
    if change == "voided":
        title = _("%(competition)s, table %(table)s: your result was voided") % facts
        first = _("A result of yours at table %(table)s of %(competition)s was voided.") % facts
    elif change == "contested":
        title = _("%(competition)s, table %(table)s: your result is contested") % facts
        first = _("A result of yours at table %(table)s of %(competition)s is contested.") % facts
    else:
        title = _("%(competition)s, table %(table)s: your result was corrected") % facts
        first = _("A result of yours at table %(table)s of %(competition)s was corrected.") % facts
    lines = [first]
    if facts.get("reason"):
        lines.append(_("Why: %(reason)s") % facts)
    return Said(title, lines, absolute(facts.get("path", "/")))


def _referee(facts: dict[str, Any]) -> Said:
    if facts.get("change") == "called":
        title = _("%(competition)s, table %(table)s: a referee is called") % facts
        lines = [
            _("A referee is looking at a result of yours at table %(table)s of %(competition)s.")
            % facts
        ]
    else:
        title = _("%(competition)s, table %(table)s: the referee's ruling") % facts
        lines = [
            _("The referee ruled on a result of yours at table %(table)s of %(competition)s.")
            % facts
        ]
        if facts.get("reason"):
            lines.append(_("The referee's note: %(reason)s") % facts)
    return Said(title, lines, absolute(facts.get("path", "/")))


def _announcement(facts: dict[str, Any]) -> Said:
    title = f"{facts.get('club', '')}: {facts.get('title', '')}"
    return Said(title, str(facts.get("text", "")).splitlines(), absolute(facts.get("path", "/")))


def _turn(facts: dict[str, Any]) -> Said:
    title = _("Your turn at %(table)s") % facts
    lines = [_("The game at %(table)s waits for your move.") % facts]
    return Said(title, lines, absolute(facts.get("path", "/")))


def _place(facts: dict[str, Any]) -> Said:
    title = _("%(competition)s: you have a place") % facts
    lines = [
        _("A place has come free in %(competition)s and it is yours: you are registered.") % facts,
        _(
            "If you can no longer come, withdraw on the sign-up page so the next person waiting "
            "gets the place."
        ),
    ]
    return Said(title, lines, absolute(facts.get("path", "/")))


def _generic(facts: dict[str, Any]) -> Said:
    return Said(
        str(facts.get("title", "")), list(facts.get("lines", [])), absolute(facts.get("path", "/"))
    )


SAYINGS = {
    "seat": _seat,
    "bye": _bye,
    "confirm": _confirm,
    "changed": _changed,
    "referee": _referee,
    "announcement": _announcement,
    "turn": _turn,
    "place": _place,
}


def in_language(language: str, kind: str, facts: dict[str, Any]) -> Said:
    with translation.override(language):
        return say(kind, facts)


def kind_label(kind: str) -> str:
    from ledger.notify.models import Kind

    return str(Kind(kind).label) if kind in Kind.values else kind
