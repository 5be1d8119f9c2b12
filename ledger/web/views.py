"""Pages. Thin: read through selectors, write through services."""

from __future__ import annotations

import csv
import re
from decimal import Decimal
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import connection
from django.db.models import Count, F, Prefetch
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.formats import get_format
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from ledger.clubs import services
from ledger.clubs.errors import LedgerError
from ledger.clubs.games import engine_available, meta
from ledger.clubs.models import (
    Club,
    Competition,
    Entry,
    Player,
    Rating,
    RatingChange,
    Result,
    Role,
    Seat,
)
from ledger.clubs.outcomes import KEYS, POINTS_LABEL, key_label, settings_for
from ledger.clubs.standings import last_round, settings_of, standings
from ledger.web.charts import rating_band


def home(request: HttpRequest) -> HttpResponse:
    clubs = Club.objects.annotate(members=Count("memberships", distinct=True)).prefetch_related(
        Prefetch(
            "competitions",
            queryset=Competition.objects.select_related("season").annotate(
                results_count=Count("results", distinct=True)
            ),
        )
    )
    return render(request, "web/home.html", {"clubs": clubs})


def competition(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    comp = get_object_or_404(
        Competition.objects.select_related("club", "season"), club__slug=club, slug=slug
    )
    latest = last_round(comp)
    as_of = _round_param(request, latest)
    rows = standings(comp, as_of_round=as_of, latest=latest)
    settings = settings_of(comp)
    show_match_points = "match_points" in settings.order
    ratings = (
        Rating.objects.filter(club=comp.club, game=comp.game, player__standings__competition=comp)
        .annotate(cautious=F("mu") - 3 * F("sigma"))
        .order_by("-cautious")
        .select_related("player")
    )
    blind = comp.confirmation == Competition.Confirmation.BLIND
    result_rows = _latest_results(comp, blind)
    can_score = comp.club.allows(request.user, "scorekeeper")
    return render(
        request,
        "web/competition.html",
        {
            "competition": comp,
            "game": meta(comp.game),
            "engine": engine_available(comp.game),
            "standings": bool(rows),
            "standings_rows": _display(
                rows, comp.club.slug, movement=bool(latest), match_points=show_match_points
            ),
            "show_match_points": show_match_points,
            "points_label": POINTS_LABEL.get(comp.game, _("Points")),
            "settings": settings,
            "ranking_keys": [key_label(k, comp.game) for k in settings.order],
            "can_organise": comp.club.allows(request.user, "organiser"),
            "rounds": list(range(1, latest + 1)) if latest else [],
            "as_of": as_of,
            "ratings": ratings[:TOP_RATINGS],
            "more_ratings": len(rows) > TOP_RATINGS,
            "results": result_rows,
            "can_score": can_score,
        },
    )


TOP_RATINGS = 10


def competition_ratings(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    """Every rating of the competition's players for its game, cautious rating first."""
    comp = _competition(club, slug)
    ratings = (
        Rating.objects.filter(club=comp.club, game=comp.game, player__standings__competition=comp)
        .annotate(cautious=F("mu") - 3 * F("sigma"))
        .order_by("-cautious")
        .select_related("player")
    )
    return render(request, "web/ratings.html", {"competition": comp, "ratings": ratings})


def _display(rows: list[Any], club: str, movement: bool, match_points: bool) -> SafeString:
    """The standings table's body, written in one pass. A league page has hundreds of rows;
    template tags per cell (URL reversal, number formatting, escaping) cost more than reading
    the standings themselves, so the rows are built here, every text escaped."""
    link = reverse("player", args=[club, 2**31 - 1]).replace(str(2**31 - 1), "{}")
    number = _number_format()
    awaiting = escape(_("Awaiting confirmation: not yet counted"))
    provisional = escape(_("provisional"))
    newcomer = escape(_("new"))
    out = []
    for row in rows:
        pending = (
            f' <small class="pending" title="{awaiting}">({provisional} {number(row.pending)})'
            "</small>"
            if row.pending
            else ""
        )
        opening = '<tr class="provisional">' if row.pending else "<tr>"
        cells = [
            f'{opening}<td class="num">{row.rank}</td>',
            f'<td><a href="{link.format(row.player_id)}">{escape(row.name)}</a>{pending}</td>',
            f'<td class="num">{row.played}</td><td class="num">{row.wins}</td>'
            f'<td class="num">{row.draws}</td><td class="num">{row.losses}</td>',
        ]
        if match_points:
            cells.append(
                f'<td class="num" data-value="{row.match_points:f}">{number(row.match_points)}</td>'
            )
        cells.append(f'<td class="num" data-value="{row.points:f}">{number(row.points)}</td>')
        if movement:
            moved = row.movement
            if moved is None:
                shown = f'<span title="{newcomer}">·</span>'
            elif moved > 0:
                shown = f'<span class="up">▲{moved}</span>'
            elif moved < 0:
                shown = f'<span class="down">▼{-moved}</span>'
            else:
                shown = "="
            cells.append(f'<td class="num movement" data-value="{moved or 0}">{shown}</td>')
        cells.append("</tr>\n")
        out.append("".join(cells))
    return mark_safe("".join(out))  # every text above is escaped


def _number_format() -> Any:
    """Points as the page's language writes them: up to two decimals, none when whole."""
    separator = get_format("DECIMAL_SEPARATOR")

    def write(value: Decimal) -> str:
        text = f"{value:.2f}".rstrip("0").rstrip(".")
        text = "0" if text in ("-0", "") else text
        return text.replace(".", separator)

    return write


def _latest_results(comp: Competition, blind: bool, count: int = 25) -> list[dict[str, Any]]:
    """The newest results with their seats, read as plain rows (two queries)."""
    results = list(
        Result.objects.filter(competition=comp)
        .order_by("-entered_at", "-id")
        .values("id", "table_id", "table__label", "status", "scores", "entered_at")[:count]
    )
    seats: dict[int, list[tuple[int, str]]] = {}
    for table_id, index, name in (
        Seat.objects.filter(table_id__in={r["table_id"] for r in results})
        .order_by("table_id", "index")
        .values_list("table_id", "index", "player__name")
    ):
        seats.setdefault(table_id, []).append((index, name))
    labels = dict(Result.Status.choices)
    rows = []
    for r in results:
        hidden = blind and r["status"] == Result.Status.PENDING
        scores = r["scores"] or []
        rows.append(
            {
                "pk": r["id"],
                "entered_at": r["entered_at"],
                "table": r["table__label"],
                "status": r["status"],
                "status_label": labels.get(r["status"], r["status"]),
                "seats": [
                    {
                        "name": name,
                        "points": "?" if hidden else scores[i] if i < len(scores) else "",
                    }
                    for i, name in seats.get(r["table_id"], [])
                ],
            }
        )
    return rows


def _round_param(request: HttpRequest, latest: int | None) -> int | None:
    value = request.GET.get("round", "")
    if not value:
        return None
    if not value.isdigit() or latest is None or not 1 <= int(value) <= latest:
        raise Http404(_("No such round."))
    return int(value)


def _competition(club: str, slug: str) -> Competition:
    return get_object_or_404(
        Competition.objects.select_related("club", "season"), club__slug=club, slug=slug
    )


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"[+-]?\d+(\.\d+)?")


def csv_cell(value: Any) -> Any:
    """A cell a spreadsheet will show as text, never run as a formula.

    Player names, table labels and sources are typed by people (or imported); one starting
    with = + - @ (or a tab or carriage return) would be evaluated by Excel or LibreOffice,
    so it gets a leading apostrophe. Plain numbers such as -3.00 stay numbers."""
    if not isinstance(value, str) or not value.startswith(_FORMULA_START):
        return value
    if _PLAIN_NUMBER.fullmatch(value):
        return value
    return "'" + value


class _SafeWriter:
    def __init__(self, response: HttpResponse) -> None:
        self._writer = csv.writer(response)

    def writerow(self, row: list[Any]) -> None:
        self._writer.writerow([csv_cell(v) for v in row])


def _csv_response(filename: str) -> tuple[HttpResponse, _SafeWriter]:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response, _SafeWriter(response)


def standings_csv(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    comp = _competition(club, slug)
    as_of = _round_param(request, last_round(comp))
    suffix = f"-round-{as_of}" if as_of else ""
    response, out = _csv_response(f"{comp.club.slug}-{comp.slug}-standings{suffix}.csv")
    out.writerow(
        [
            "rank",
            "player_id",
            "player",
            "played",
            "wins",
            "draws",
            "losses",
            "match_points",
            "points",
            "movement",
            "pending",
        ]
    )
    for row in standings(comp, as_of_round=as_of):
        out.writerow(
            [
                row.rank,
                row.player_id,
                row.name,
                row.played,
                row.wins,
                row.draws,
                row.losses,
                f"{row.match_points:f}",
                f"{row.points:f}",
                "" if row.movement is None else row.movement,
                f"{row.pending:f}",
            ]
        )
    return response


def journal_csv(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    comp = _competition(club, slug)
    response, out = _csv_response(f"{comp.club.slug}-{comp.slug}-journal.csv")
    out.writerow(
        [
            "sequence",
            "created_at",
            "result",
            "table",
            "seat",
            "player_id",
            "player",
            "points",
            "kind",
            "source",
            "prev_hash",
            "hash",
        ]
    )
    entries = (
        Entry.objects.filter(competition=comp)
        .select_related("player", "table")
        .order_by("sequence")
    )
    for e in entries.iterator(chunk_size=2000):
        out.writerow(
            [
                e.sequence,
                e.created_at.isoformat(),
                e.result_id,
                e.table.label,
                e.seat,
                e.player_id,
                e.player.name,
                f"{e.points:f}",
                e.kind,
                e.source,
                e.prev_hash,
                e.hash,
            ]
        )
    return response


def player(request: HttpRequest, club: str, player_id: int) -> HttpResponse:
    the_club = get_object_or_404(Club, slug=club)
    person = get_object_or_404(Player, pk=player_id, memberships__club=the_club)
    ratings = list(Rating.objects.filter(club=the_club, player=person).order_by("game"))
    charts = []
    for rating in ratings:
        history = list(
            RatingChange.objects.filter(club=the_club, player=person, game=rating.game)
            .order_by("at", "id")
            .values_list("mu", "sigma", "at")
        )
        band = rating_band([(m, sg, at.strftime("%Y-%m-%d")) for m, sg, at in history])
        charts.append({"rating": rating, "game": meta(rating.game).label, "band": band})
    entries = (
        Entry.objects.filter(club=the_club, player=person)
        .select_related("competition", "table")
        .order_by("-sequence")[:50]
    )
    return render(
        request,
        "web/player.html",
        {
            "club": the_club,
            "player": person,
            "charts": charts,
            "entries": entries,
            "opponents": _head_to_head(the_club, person),
        },
    )


def _head_to_head(club: Club, person: Player) -> list[dict[str, Any]]:
    """For every opponent: results that count played together, and the points each took."""
    counted = Entry.objects.filter(
        club=club, kind=Entry.Kind.CREDIT, result__status=Result.Status.ACCEPTED
    )
    mine = dict(counted.filter(player=person).values_list("result_id", "points"))
    if not mine:
        return []
    theirs = (
        counted.filter(result_id__in=list(mine))
        .exclude(player=person)
        .values_list("result_id", "player_id", "player__name", "points")
    )
    table: dict[int, dict[str, Any]] = {}
    for result_id, player_id, name, points in theirs:
        item = table.setdefault(
            player_id,
            {"id": player_id, "name": name, "met": 0, "won": 0, "lost": 0, "diff": Decimal(0)},
        )
        item["met"] += 1
        item["diff"] += mine[result_id] - points
        if mine[result_id] > points:
            item["won"] += 1
        elif mine[result_id] < points:
            item["lost"] += 1
    return sorted(table.values(), key=lambda i: (-i["met"], i["name"]))


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any failure to reach the database means "not healthy"
        return JsonResponse({"status": "unavailable", "database": str(exc)[:200]}, status=503)
    return JsonResponse({"status": "ok", "database": "ok"})


@login_required
def standings_settings(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    """The organiser's form for the points of a win, a draw and a loss and the ranking keys."""
    comp = _competition(club, slug)
    if not comp.club.allows(request.user, Role.ORGANISER):
        messages.error(request, _("Only the club's organisers change how standings are ranked."))
        return redirect("competition", club, slug)
    current = settings_of(comp)
    problem, field = "", ""
    values: dict[str, Any] = {
        "win": f"{current.win.normalize():f}",
        "draw": f"{current.draw.normalize():f}",
        "loss": f"{current.loss.normalize():f}",
        "order": list(current.order) + [""] * (len(KEYS) - len(current.order)),
    }
    if request.method == "POST":
        if request.POST.get("reset") == "1":
            chosen: dict[str, Any] = {}
        else:
            order = [k for k in request.POST.getlist("order") if k]
            chosen = {name: request.POST.get(name, "").strip() for name in ("win", "draw", "loss")}
            chosen["order"] = order
            values = {**chosen, "order": order + [""] * (len(KEYS) - len(order))}
        try:
            services.update_standings_settings(user=request.user, competition=comp, settings=chosen)
        except LedgerError as exc:
            problem = exc.message
            field = next(iter(exc.fields), "")
        else:
            messages.success(request, _("Standings settings saved; the table follows them now."))
            return redirect("competition", club, slug)
    return render(
        request,
        "web/standings_settings.html",
        {
            "competition": comp,
            "values": values,
            "keys": [(k, key_label(k, comp.game)) for k in KEYS],
            "problem": problem,
            "field": field,
            "defaults": settings_for(comp.game, None),
            "default_keys": [key_label(k, comp.game) for k in settings_for(comp.game, None).order],
        },
    )
