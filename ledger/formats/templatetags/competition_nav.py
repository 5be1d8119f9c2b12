"""The navigation every page of a competition carries: the public pages for everyone, the
score entry for scorekeepers, and the organiser's pages for organisers. The links depend
on the format (a bracket for a knockout, tiebreaks for a Swiss) and on the reader's role,
which the club reads once per request (Club.role_of keeps it)."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils.translation import gettext as _

from ledger.clubs.models import Competition, Role

register = template.Library()

Format = Competition.Format


@register.inclusion_tag("formats/_nav_links.html", takes_context=True)
def competition_nav(
    context: dict[str, Any], competition: Competition, current: str = ""
) -> dict[str, Any]:
    request = context.get("request")
    user = getattr(request, "user", None)
    club = competition.club
    args = [club.slug, competition.slug]
    links: list[tuple[str, str, str]] = [
        ("standings", _("Standings"), reverse("competition", args=args)),
        ("rounds", _("Rounds"), reverse("formats-round-latest", args=args)),
    ]
    if competition.format == Format.KNOCKOUT:
        links.append(("bracket", _("Bracket"), reverse("formats-bracket", args=args)))
    if competition.format in (Format.SWISS, Format.TEAM):
        links.append(("tiebreaks", _("Tiebreaks"), reverse("formats-tiebreaks", args=args)))
    links.append(("ratings", _("Ratings"), reverse("competition-ratings", args=args)))
    links.append(("printables", _("Printables"), reverse("formats-printables", args=args)))
    links.append(("night", _("Tournament night"), reverse("night-hub", args=args)))
    links.append(("schedule", _("Schedule"), reverse("night-schedule", args=args)))
    links.append(("penalties", _("Penalties"), reverse("night-penalties", args=args)))
    links.append(("signup", _("Sign-up"), reverse("signup", args=args)))
    staff: list[tuple[str, str, str]] = []
    if user is not None and club.allows(user, Role.SCOREKEEPER):
        staff.append(("score", _("Record a result"), reverse("choose-table", args=args)))
    organiser = user is not None and club.allows(user, Role.ORGANISER)
    if organiser:
        manage = reverse("formats-manage", args=args)
        staff += [
            ("edit", _("Edit the competition"), reverse("office-competition-edit", args=args)),
            ("enrol", _("Enrol players"), reverse("office-enrol", args=args)),
            ("signup-manage", _("Sign-up list and fees"), reverse("signup-manage", args=args)),
            ("fees", _("Treasurer's report"), reverse("signup-report", args=args)),
            ("draw", _("Draw and entrants"), manage),
            ("settings", _("Format settings"), manage + "#settings"),
            ("stage", _("Stage of an event"), reverse("formats-stage", args=args)),
            (
                "standings-settings",
                _("Points and ranking"),
                reverse("standings-settings", args=args),
            ),
            ("import", _("Import results"), reverse("import", args=[club.slug])),
            ("members", _("Members"), reverse("office-members", args=[club.slug])),
            ("tokens", _("API tokens"), reverse("club-tokens", args=[club.slug])),
            ("export", _("Export and backup"), reverse("club-export", args=[club.slug])),
            ("checkin", _("Check-in"), reverse("night-checkin", args=args)),
            ("clock", _("Round clock"), reverse("night-clock", args=args)),
            ("tables", _("Tables: replace a player, re-seat"), reverse("night-tables", args=args)),
            ("webhooks", _("Webhook deliveries"), reverse("webhook-log", args=[club.slug])),
        ]
    return {
        "links": [
            {"key": k, "label": label, "url": u, "current": k == current} for k, label, u in links
        ],
        "staff": [
            {"key": k, "label": label, "url": u, "current": k == current} for k, label, u in staff
        ],
        "organiser": organiser,
        # On a phone the staff's pages fold under one line naming the page open now.
        "staff_current": next((label for k, label, _u in staff if k == current), ""),
    }
