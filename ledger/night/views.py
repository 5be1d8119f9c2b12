"""Pages of a tournament night: the organiser's hub, penalties, check-in (the venue's QR
code, the player's phone, the shared tablet), the round clock and the big screen,
replacements and re-seating, and the printables. Thin: reads and writes go through
ledger.night.services and ledger.clubs.results.penalties (the penalties' reads in
ledger.clubs.results.selectors)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from ledger.clubs.errors import LedgerError
from ledger.clubs.games import meta
from ledger.clubs.models import Competition, Penalty, Player, Role, Round, Table
from ledger.clubs.office.entrants import participants
from ledger.clubs.projections.standings import standings
from ledger.clubs.results import penalties
from ledger.clubs.results.selectors import active_total, zero_sum_check
from ledger.clubs.transfer import sheets
from ledger.formats import selectors
from ledger.formats.blockers import blockers, playing_round
from ledger.night import printing, schedule, services
from ledger.night.models import (
    CheckIn,
    ExtraTime,
    NightSettings,
    Replacement,
    ScheduledRound,
    Venue,
)
from ledger.signup import services as signup
from ledger.signup.models import Payment


def _competition(club: str, slug: str) -> Competition:
    return get_object_or_404(Competition.objects.select_related("club"), club__slug=club, slug=slug)


def _gate(request: HttpRequest, competition: Competition, role: str) -> HttpResponse | None:
    """None when the visitor holds ``role``; else the login page or a refusal."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not competition.club.allows(request.user, role):
        return render(request, "formats/forbidden.html", {"competition": competition}, status=403)
    return None


def _query(at: dict[str, Any]) -> str:
    venue = at.get("venue")
    return f"?venue={venue.pk}" if venue is not None else ""


def _here(request: HttpRequest, name: str, competition: Competition, *args: Any) -> str:
    return reverse(name, args=[competition.club.slug, competition.slug, *args])


# --- the hub ---


def hub(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    competition = _competition(club, slug)
    organiser = competition.club.allows(request.user, Role.ORGANISER)
    current = playing_round(competition)
    number = services.checkin_round(competition)
    seen = services.attendance(competition, number) if organiser else None
    return render(
        request,
        "night/hub.html",
        {
            "competition": competition,
            "organiser": organiser,
            "referee": competition.club.allows(request.user, Role.REFEREE),
            "current": current,
            "clock": services.clock_state(current),
            "blockers": blockers(competition) if organiser else [],
            "checkin_round": number,
            "seen": seen,
            "venues": schedule.venues_of(competition),
        },
    )


@require_http_methods(["GET", "POST"])
def night_settings(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    competition = _competition(club, slug)
    refused = _gate(request, competition, Role.ORGANISER)
    if refused:
        return refused
    rules = services.settings_for(competition)
    errors: dict[str, Any] = {}
    values: dict[str, Any] = {
        "round_minutes": rules.round_minutes,
        "at_time": rules.at_time,
        "substitute_points": rules.substitute_points,
        "substitute_fixed": rules.substitute_fixed,
        "penalties_in_ratings": competition.club.penalties_in_ratings,
    }
    if request.method == "POST":
        post = request.POST
        values = {
            "round_minutes": post.get("round_minutes", ""),
            "at_time": post.get("at_time", ""),
            "substitute_points": post.get("substitute_points", ""),
            "substitute_fixed": post.get("substitute_fixed", ""),
            "penalties_in_ratings": post.get("penalties_in_ratings") == "1",
        }
        try:
            services.update_settings(user=request.user, competition=competition, **values)
        except LedgerError as error:
            messages.error(request, error.message)
            errors = error.fields or {}
        else:
            messages.success(request, _("Settings saved."))
            return redirect(_here(request, "night-settings", competition))
    return render(
        request,
        "night/settings.html",
        {
            "competition": competition,
            "values": values,
            "errors": errors,
            "at_time_choices": NightSettings.AtTime.choices,
            "substitute_choices": NightSettings.SubstitutePoints.choices,
        },
        status=400 if errors else 200,
    )


# --- penalties ---


def _members(competition: Competition) -> list[Player]:
    return list(
        Player.objects.filter(memberships__club=competition.club).order_by("name").distinct()
    )


@require_http_methods(["GET", "POST"])
def penalty_page(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    competition = _competition(club, slug)
    referee = competition.club.allows(request.user, Role.REFEREE)
    errors: dict[str, Any] = {}
    typed: dict[str, str] = {}
    if request.method == "POST":
        refused = _gate(request, competition, Role.REFEREE)
        if refused:
            return refused
        post = request.POST
        try:
            if post.get("action") == "cancel":
                penalty = get_object_or_404(
                    Penalty, pk=post.get("penalty") or 0, competition=competition
                )
                penalties.cancel_penalty(
                    user=request.user, penalty=penalty, reason=post.get("cancel_reason", "")
                )
                messages.success(
                    request,
                    (
                        _("The carried score of %(name)s is cancelled: its points are taken back.")
                        if penalty.carried
                        else _("The penalty of %(name)s is cancelled: the points are given back.")
                    )
                    % {"name": penalty.player.name},
                )
                return redirect(_here(request, "night-penalties", competition))
            typed = {k: post.get(k, "") for k in ("player", "points", "reason", "table")}
            player = Player.objects.filter(
                pk=typed["player"] if typed["player"].isdigit() else 0,
                memberships__club=competition.club,
            ).first()
            table = None
            if typed["table"].isdigit():
                table = Table.objects.filter(pk=typed["table"], competition=competition).first()
            if player is None:
                raise LedgerError(
                    _("Choose the player."), fields={"player": [_("Choose the player.")]}
                )
            current = playing_round(competition)
            penalty = penalties.give_penalty(
                user=request.user,
                competition=competition,
                player=player,
                points=typed["points"],
                reason=typed["reason"],
                round=table.round if table and table.round else current,
                table=table,
            )
            messages.success(
                request,
                _("Penalty recorded: %(name)s %(points)s.")
                % {"name": player.name, "points": f"{penalty.points.normalize():f}"},
            )
            return redirect(_here(request, "night-penalties", competition))
        except LedgerError as error:
            messages.error(request, error.message)
            errors = error.fields or {}
    current = playing_round(competition)
    return render(
        request,
        "night/penalties.html",
        {
            "competition": competition,
            "referee": referee,
            # Only the competition's own people: a penalty to anyone else is refused.
            "members": list(participants(competition)) if referee else [],
            "tables": list(Table.objects.filter(round=current).order_by("id")) if current else [],
            "penalties": Penalty.objects.filter(competition=competition).select_related(
                "player", "table", "round"
            ),
            "check": zero_sum_check(competition),
            "zero_sum": meta(competition.game).zero_sum,
            "errors": errors,
            "typed": typed,
        },
        status=400 if errors else 200,
    )


# --- check-in ---


@require_http_methods(["GET", "POST"])
def checkin_list(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    competition = _competition(club, slug)
    refused = _gate(request, competition, Role.ORGANISER)
    if refused:
        return refused
    number = services.checkin_round(competition)
    if request.method == "POST":
        post = request.POST
        try:
            action = post.get("action", "")
            if action == "draw":
                draw = services.draw_checked_in(user=request.user, competition=competition)
                messages.success(
                    request,
                    _("Round %(n)d drafted with the players checked in: check it, then publish.")
                    % {"n": draw.round.number},
                )
                return redirect(reverse("formats-manage", args=[club, slug]) + "#draft")
            player = get_object_or_404(
                Player, pk=post.get("player") or 0, memberships__club=competition.club
            )
            if action == "in":
                services.check_in(
                    user=request.user,
                    competition=competition,
                    round_number=number,
                    player=player,
                    how=CheckIn.How.ORGANISER,
                )
            elif action == "out":
                services.undo_check_in(
                    user=request.user, competition=competition, round_number=number, player=player
                )
        except LedgerError as error:
            messages.error(request, error.message)
        return redirect(
            _here(request, "night-checkin", competition) + _query(_at(request, competition))
        )
    token = services.checkin_token(competition, number)
    venue = request.build_absolute_uri(
        _here(request, "night-checkin-self", competition, number, token)
    )
    return render(
        request,
        "night/checkin.html",
        {
            "competition": competition,
            "number": number,
            "seen": services.attendance(competition, number),
            "venue_url": venue,
            "venue_qr": printing.qr_png_uri(venue),
            "blockers": blockers(competition),
            # The fees still due of those who signed up (ledger/signup), paid at the door.
            "fees_due": sorted(
                (s for s in signup.fees_of(competition).values() if s.owed > 0),
                key=lambda s: s.name,
            ),
            "methods": Payment.Method.choices,
            # Where and when the round checked in for is played (its schedule), if set.
            "slot": ScheduledRound.objects.filter(competition=competition, number=number)
            .select_related("venue")
            .first(),
            **_at(request, competition),
        },
    )


def venue_code(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    """The QR code to show at the venue (a page of its own, for a screen or a print)."""
    competition = _competition(club, slug)
    refused = _gate(request, competition, Role.ORGANISER)
    if refused:
        return refused
    number = services.checkin_round(competition)
    token = services.checkin_token(competition, number)
    venue = request.build_absolute_uri(
        _here(request, "night-checkin-self", competition, number, token)
    )
    return render(
        request,
        "night/venue_code.html",
        {"competition": competition, "number": number, "venue_qr": printing.qr_png_uri(venue)},
    )


@require_http_methods(["GET", "POST"])
def checkin_self(
    request: HttpRequest, club: str, slug: str, number: int, token: str
) -> HttpResponse:
    """Where the venue's QR code leads: signed in, the player confirms they are here."""
    competition = _competition(club, slug)
    if not services.token_matches(competition, number, token):
        raise Http404(_("This check-in code is not valid."))
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    player = getattr(request.user, "player", None)
    checked = None
    problem = ""
    if player is not None:
        checked = CheckIn.objects.filter(
            competition=competition, round_number=number, player=player
        ).first()
    if request.method == "POST" and player is not None:
        try:
            checked = services.check_in(
                user=request.user,
                competition=competition,
                round_number=number,
                player=player,
                how=CheckIn.How.PHONE,
            )
        except LedgerError as error:
            problem = error.message
    elif player is None:
        problem = _("Your login is not linked to a player: ask the organiser.")
    return render(
        request,
        "night/checkin_self.html",
        {
            "competition": competition,
            "number": number,
            "player": player,
            "checked": checked,
            "problem": problem,
        },
        status=400 if problem and request.method == "POST" else 200,
    )


def tablet(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    """A shared tablet at the door: every name not yet here as a large button."""
    competition = _competition(club, slug)
    refused = _gate(request, competition, Role.ORGANISER)
    if refused:
        return refused
    number = services.checkin_round(competition)
    return render(
        request,
        "night/tablet.html",
        {
            "competition": competition,
            "number": number,
            "seen": services.attendance(competition, number),
        },
    )


@require_http_methods(["GET", "POST"])
def tablet_confirm(request: HttpRequest, club: str, slug: str, player_id: int) -> HttpResponse:
    """The second step at the tablet: the name large, "Yes, I am" far from "Not me"."""
    competition = _competition(club, slug)
    refused = _gate(request, competition, Role.ORGANISER)
    if refused:
        return refused
    number = services.checkin_round(competition)
    player = get_object_or_404(Player, pk=player_id, memberships__club=competition.club)
    if request.method == "POST":
        try:
            services.check_in(
                user=request.user,
                competition=competition,
                round_number=number,
                player=player,
                how=CheckIn.How.TABLET,
            )
            messages.success(
                request, _("Welcome, %(name)s: you are checked in.") % {"name": player.name}
            )
        except LedgerError as error:
            messages.error(request, error.message)
        return redirect(_here(request, "night-tablet", competition))
    return render(
        request,
        "night/tablet_confirm.html",
        {
            "competition": competition,
            "number": number,
            "player": player,
            # Their fee, if they signed up and it is still due: paid here at the door.
            "fee": signup.fees_of(competition).get(player.pk),
            "methods": Payment.Method.choices,
        },
    )


# --- the clock and the big screen ---


def _venue(request: HttpRequest, competition: Competition) -> Venue | None:
    """The venue the page is filtered to (``?venue=``, one of the club's), or None."""
    value = request.GET.get("venue", "")
    if not value:
        return None
    if not value.isdigit():
        raise Http404(_("No such venue."))
    return get_object_or_404(Venue, pk=int(value), club=competition.club)


def _at(request: HttpRequest, competition: Competition) -> dict[str, Any]:
    """What every night page filtered per venue shows: the venue chosen and the others."""
    return {"venue": _venue(request, competition), "venues": schedule.venues_of(competition)}


def _playing(competition: Competition, venue: Venue | None) -> Round | None:
    """The round being played (at the venue, when the page is filtered to one)."""
    if venue is not None:
        return schedule.round_at(competition, venue)
    return playing_round(competition)


def _round(competition: Competition, number: int | None, venue: Venue | None = None) -> Round:
    if number is None:
        found = _playing(competition, venue)
        if found is None:
            raise Http404(_("No round is published yet."))
        return found
    if number not in selectors.published_numbers(competition):
        raise Http404(_("Round %(n)d is not published.") % {"n": number})
    return get_object_or_404(Round, competition=competition, number=number)


@require_http_methods(["GET", "POST"])
def clock_page(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    competition = _competition(club, slug)
    refused = _gate(request, competition, Role.ORGANISER)
    if refused:
        return refused
    at = _at(request, competition)
    rnd = _playing(competition, at["venue"])
    if request.method == "POST" and rnd is not None:
        post = request.POST
        try:
            if post.get("action") == "extra":
                table = get_object_or_404(Table, pk=post.get("table") or 0, round=rnd)
                extra = services.give_extra_time(
                    user=request.user,
                    table=table,
                    minutes=post.get("minutes", ""),
                    reason=post.get("reason", ""),
                )
                messages.success(
                    request,
                    _("%(table)s: %(n)d extra minutes.")
                    % {"table": table.label, "n": extra.minutes},
                )
            else:
                services.clock_action(
                    user=request.user,
                    rnd=rnd,
                    action=post.get("action", ""),
                    minutes=post.get("minutes"),
                )
        except LedgerError as error:
            messages.error(request, error.message)
        return redirect(_here(request, "night-clock", competition) + _query(at))
    extras = {e.table_id: e for e in ExtraTime.objects.filter(table__round=rnd)} if rnd else {}
    tables = list(Table.objects.filter(round=rnd).order_by("id")) if rnd else []
    return render(
        request,
        "night/clock.html",
        {
            "competition": competition,
            "round": rnd,
            "clock": services.clock_state(rnd),
            "settings": services.settings_for(competition),
            "tables": [(t, extras.get(t.pk)) for t in tables],
            **at,
        },
    )


def _screen_data(competition: Competition, rnd: Round) -> dict[str, Any]:
    view = selectors.round_view(competition, rnd.number) or {"tables": []}
    extras = dict(ExtraTime.objects.filter(table__round=rnd).values_list("table_id", "minutes"))
    state = services.clock_state(rnd)
    tables = []
    for t in view["tables"]:
        extra = extras.get(t["id"], 0)
        left = state["left"] + extra * 60 if state else None
        text = services.clock_text(max(left, 0)) if left is not None else ""
        tables.append({**t, "extra": extra, "left": left, "left_text": text})
    return {"state": state, "tables": tables, "view": view}


@never_cache
def screen(request: HttpRequest, club: str, slug: str, number: int | None = None) -> HttpResponse:
    """The big screen (a laptop or a TV): the time left, large, with the pairings."""
    competition = _competition(club, slug)
    rnd = _round(competition, number, _venue(request, competition))
    data = _screen_data(competition, rnd)
    return render(
        request,
        "night/screen.html",
        {
            "competition": competition,
            "round": rnd,
            "clock": data["state"],
            "tables": data["tables"],
            "byes": data["view"].get("byes", []),
            "clock_url": _here(request, "night-clock-json", competition, rnd.number),
        },
    )


@never_cache
def clock_json(request: HttpRequest, club: str, slug: str, number: int) -> JsonResponse:
    """The clock for pages that count down: seconds left now, per table with its extra."""
    competition = _competition(club, slug)
    rnd = _round(competition, number, _venue(request, competition))
    data = _screen_data(competition, rnd)
    state = data["state"]
    return JsonResponse(
        {
            "state": state["state"] if state else "none",
            "left": state["left"] if state else None,
            "tables": {
                str(t["id"]): {"left": t["left"], "extra": t["extra"]} for t in data["tables"]
            },
        }
    )


# --- replacements and re-seating ---


@require_http_methods(["GET", "POST"])
def table_page(request: HttpRequest, club: str, slug: str, table: int) -> HttpResponse:
    """A table for the organiser: who sat where in every hand, replace a player, re-seat."""
    competition = _competition(club, slug)
    refused = _gate(request, competition, Role.ORGANISER)
    if refused:
        return refused
    found = get_object_or_404(
        Table.objects.prefetch_related("seats__player"), pk=table, competition=competition
    )
    errors: dict[str, Any] = {}
    typed: dict[str, str] = {}
    preview = None
    order: list[int] = []
    if request.method == "POST":
        post = request.POST
        try:
            if post.get("action") == "replace":
                fields = ("seat", "substitute", "new_name", "from_hand")
                typed = {k: post.get(k, "") for k in fields}
                sub = post.get("substitute", "")
                substitute = None
                if sub.isdigit():
                    substitute = get_object_or_404(
                        Player, pk=sub, memberships__club=competition.club
                    )
                from_hand = post.get("from_hand", "").strip()
                done = services.replace_player(
                    user=request.user,
                    table=found,
                    seat=int(post.get("seat") or -1),
                    substitute=substitute,
                    new_name=post.get("new_name", ""),
                    from_hand=int(from_hand) if from_hand.isdigit() else None,
                )
                messages.success(
                    request,
                    _("%(sub)s replaces %(old)s from hand %(n)d.")
                    % {"sub": done.substitute.name, "old": done.replaced.name, "n": done.from_hand},
                )
                return redirect(_here(request, "night-table", competition, found.pk))
            order = [int(v) for v in post.getlist("order") if v.isdigit()]
            if post.get("action") == "preview":
                preview = services.reseat_preview(found, order, user=request.user)
            elif post.get("action") == "reseat":
                services.reseat(user=request.user, table=found, order=order)
                messages.success(request, _("The table is re-seated and its hands moved with it."))
                return redirect(_here(request, "night-table", competition, found.pk))
        except LedgerError as error:
            messages.error(request, error.message)
            errors = error.fields or {}
    seats = list(found.seats.all())
    taken = {s.player_id for s in seats} | services.busy_in_round(found)
    hands = services.hands_of(found)
    return render(
        request,
        "night/table.html",
        {
            "competition": competition,
            "table": found,
            "seats": seats,
            "order": order or [s.player_id for s in seats],
            "by_hand": services.seating_by_hand(found),
            "next_hand": len(hands) + 1,
            "replacements": Replacement.objects.filter(table=found).select_related(
                "replaced", "substitute"
            ),
            # Nobody already at this table or at another table of its round.
            "members": [m for m in _members(competition) if m.pk not in taken],
            "preview": preview,
            "errors": errors,
            "typed": typed,
            "settings": services.settings_for(competition),
            "clock": services.clock_state(found.round, found) if found.round else None,
        },
        status=400 if errors else 200,
    )


def tables_page(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    competition = _competition(club, slug)
    refused = _gate(request, competition, Role.ORGANISER)
    if refused:
        return refused
    at = _at(request, competition)
    rnd = _playing(competition, at["venue"])
    if rnd is None and at["venue"] is not None:
        tables: Any = []
    elif rnd is not None:
        tables = Table.objects.filter(round=rnd).prefetch_related("seats__player").order_by("id")
    else:
        tables = Table.objects.filter(competition=competition).prefetch_related("seats__player")[
            :50
        ]
    return render(
        request,
        "night/tables.html",
        {"competition": competition, "round": rnd, "tables": tables, **at},
    )


# --- printables ---


def _printable(
    request: HttpRequest, competition: Competition, kind: str, context: dict[str, Any]
) -> HttpResponse:
    context = {**_at(request, competition), **context}
    if request.GET.get("format") == "pdf":
        data = printing.pdf(kind, competition, context)
        response = HttpResponse(data, content_type="application/pdf")
        drawn = context.get("round")
        number = drawn.number if drawn else ""
        response["Content-Disposition"] = (
            f'attachment; filename="{competition.slug}-{kind}{number}.pdf"'
        )
        return response
    return render(request, f"night/print_{kind}.html", {"competition": competition, **context})


def _table_rows(request: HttpRequest, competition: Competition, rnd: Round) -> list[dict[str, Any]]:
    view = selectors.round_view(competition, rnd.number) or {"tables": []}
    rows = []
    for t in view["tables"]:
        url = request.build_absolute_uri(_here(request, "score-entry", competition, t["id"]))
        rows.append({**t, "url": url, "qr_png": printing.qr_png_uri(url)})
    return rows


def print_pairings(
    request: HttpRequest, club: str, slug: str, number: int | None = None
) -> HttpResponse:
    competition = _competition(club, slug)
    rnd = _round(competition, number, _venue(request, competition))
    view = selectors.round_view(competition, rnd.number) or {}
    kind = request.GET.get("format", "")
    if kind in ("csv", sheets.XLSX, sheets.ODS):
        return _pairings_table(competition, rnd, view, kind)
    return _printable(
        request,
        competition,
        "pairings",
        {
            "round": rnd,
            "tables": _table_rows(request, competition, rnd),
            "byes": view.get("byes", []),
            "sitting_out": view.get("sitting_out", []),
        },
    )


def _pairings_table(
    competition: Competition, rnd: Round, view: dict[str, Any], kind: str
) -> HttpResponse:
    """A round's draw as a table, one row per seat (seats counted from 1), then the byes and
    those sitting out; with the points of the hands played so far."""
    header = ["round", "table", "seat", "player_id", "player", "points", "hands", "winner"]
    rows: list[list[Any]] = []
    for t in view.get("tables", []):
        for s in t["seats"]:
            rows.append(
                [
                    rnd.number,
                    t["label"],
                    s["index"] + 1,
                    s["player"],
                    s["name"],
                    Decimal(s["points"]) if s["points"] is not None else None,
                    t["hands"],
                    "yes" if s["winner"] else "",
                ]
            )
    for label, people in (
        (_("Bye"), view.get("byes", [])),
        (_("Sitting out"), view.get("sitting_out", [])),
    ):
        for p in people:
            rows.append([rnd.number, label, None, p["player"], p["name"], None, None, ""])
    filename = f"{competition.club.slug}-{competition.slug}-pairings-round-{rnd.number}.{kind}"
    if kind == "csv":
        response = HttpResponse(
            sheets.write_csv(header, rows), content_type="text/csv; charset=utf-8"
        )
    else:
        title = _("Round %(n)d") % {"n": rnd.number}
        body = sheets.write([sheets.Sheet(title, header, rows)], kind)
        response = HttpResponse(body, content_type=sheets.CONTENT_TYPES[kind])
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def print_tents(
    request: HttpRequest, club: str, slug: str, number: int | None = None
) -> HttpResponse:
    competition = _competition(club, slug)
    rnd = _round(competition, number, _venue(request, competition))
    return _printable(
        request,
        competition,
        "tents",
        {"round": rnd, "tables": _table_rows(request, competition, rnd)},
    )


def print_sheets(
    request: HttpRequest, club: str, slug: str, number: int | None = None
) -> HttpResponse:
    competition = _competition(club, slug)
    rnd = _round(competition, number, _venue(request, competition))
    hands = selectors.settings_for(competition).hands_per_table
    return _printable(
        request,
        competition,
        "sheets",
        {
            "round": rnd,
            "tables": _table_rows(request, competition, rnd),
            "fields": printing.summary_fields(competition),
            "hands": list(range(1, max(hands, 1) + 1)),
        },
    )


def print_standings(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    competition = _competition(club, slug)
    rows = standings(competition)
    fines = active_total(competition, carried=False)
    return _printable(
        request,
        competition,
        "standings",
        {
            "round": None,
            "rows": rows,
            "fines": {pid: pts for pid, pts in fines.items() if pts != Decimal(0)},
        },
    )


# --- the event's schedule: days, venues, rounds ---


def _parsed_slots(request: HttpRequest, competition: Competition) -> list[schedule.SlotData]:
    """The schedule form's rows (``number``, ``day-N``, ``time-N``, ``venue-N`` per round)
    as typed; Invalid at the field for a day or time that is not one."""
    from datetime import date, time

    slots = []
    for value in request.POST.getlist("number"):
        if not value.isdigit():
            continue
        n = int(value)
        day_text = request.POST.get(f"day-{n}", "").strip()
        time_text = request.POST.get(f"time-{n}", "").strip()
        venue_text = request.POST.get(f"venue-{n}", "").strip()
        try:
            day = date.fromisoformat(day_text) if day_text else None
        except ValueError:
            raise LedgerError(
                _("Round %(n)d: “%(value)s” is not a day.") % {"n": n, "value": day_text},
                fields={f"day-{n}": [_("A day, such as 2026-05-16.")]},
            ) from None
        try:
            starts = time.fromisoformat(time_text) if time_text else None
        except ValueError:
            raise LedgerError(
                _("Round %(n)d: “%(value)s” is not a time.") % {"n": n, "value": time_text},
                fields={f"time-{n}": [_("A time, such as 09:30.")]},
            ) from None
        venue = None if not venue_text else (0 if venue_text == "new" else int(venue_text))
        slots.append(schedule.SlotData(n, day, starts, venue))
    return slots


@require_http_methods(["GET", "POST"])
def schedule_page(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    """The event's schedule for everyone (each day, its venues and the rounds played there,
    of this competition and of the stages linked to it); the organiser sets each round's
    day, start and venue here."""
    competition = _competition(club, slug)
    organiser = competition.club.allows(request.user, Role.ORGANISER)
    errors: dict[str, list[str]] = {}
    problem = ""
    if request.method == "POST":
        if not organiser:
            return render(
                request, "formats/forbidden.html", {"competition": competition}, status=403
            )
        try:
            schedule.save_schedule(
                user=request.user,
                competition=competition,
                slots=_parsed_slots(request, competition),
                new_venue=request.POST.get("new_venue", ""),
            )
        except LedgerError as error:
            problem = error.message
            errors = {k: [str(p) for p in v] for k, v in error.fields.items()}
        else:
            messages.success(request, _("The schedule is saved."))
            return redirect(_here(request, "night-schedule", competition))
    rows = schedule.slots_of(competition)
    # One more round than the schedule knows, to plan ahead (a knockout before its entrants).
    following = max((s.number for s in rows), default=0) + 1
    rows.append(schedule.Slot(competition, following, None, None, None, False))
    if request.method == "POST":
        typed = {
            n: (
                request.POST.get(f"day-{n}", ""),
                request.POST.get(f"time-{n}", ""),
                request.POST.get(f"venue-{n}", ""),
            )
            for n in (s.number for s in rows)
        }
    else:
        typed = {
            s.number: (
                s.day.isoformat() if s.day else "",
                s.starts_at.strftime("%H:%M") if s.starts_at else "",
                str(s.venue.pk) if s.venue else "",
            )
            for s in rows
        }
    return render(
        request,
        "night/schedule.html",
        {
            "competition": competition,
            "organiser": organiser,
            "days": schedule.schedule(competition),
            "rows": [(s, *typed.get(s.number, ("", "", ""))) for s in rows],
            "club_venues": Venue.objects.filter(club=competition.club),
            "new_venue": request.POST.get("new_venue", ""),
            "problem": problem,
            "errors": errors,
        },
        status=400 if problem else 200,
    )
