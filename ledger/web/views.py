"""Pages. Thin: read through selectors, write through services."""

from __future__ import annotations

import csv
import functools
import hashlib
import html
import json
import re
from collections.abc import Iterable
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any, cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.db import connection
from django.db.models import Count, Prefetch, Q
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.formats import date_format, get_format, localize
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import get_current_timezone_name, localtime
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from ledger.clubs import people
from ledger.clubs.errors import LedgerError, logged_unavailable
from ledger.clubs.games import engine_available, game_guide, meta, points_label, rule_book
from ledger.clubs.games import label as game_label
from ledger.clubs.journal import selectors as journal_reads
from ledger.clubs.models import (
    ROLE_RANK,
    Checkpoint,
    Club,
    Competition,
    Entry,
    Membership,
    Player,
    Rating,
    RatingChange,
    Result,
    Role,
    Round,
    Season,
    Seat,
    Standing,
    Table,
)
from ledger.clubs.office.visibility import SEALED, viewer_of
from ledger.clubs.outcomes import KEYS, Settings, key_label, settings_for
from ledger.clubs.projections.playerstats import games_played, last_night
from ledger.clubs.projections.standings import last_round, layout_sql, settings_of, standings
from ledger.clubs.results import services
from ledger.clubs.results.selectors import confirmable
from ledger.clubs.storage import rows as rows_module
from ledger.clubs.transfer import sheets
from ledger.federation import people as federation_people
from ledger.formats import selectors
from ledger.web.charts import rating_band


def club(request: HttpRequest, club: str) -> HttpResponse:
    """A club's own address: its place on the home page, where its competitions are."""
    found = get_object_or_404(Club, slug=club)
    return redirect(reverse("home") + f"#club-{found.slug}")


def home(request: HttpRequest) -> HttpResponse:
    clubs = Club.objects.annotate(
        members=Count("memberships", filter=Q(memberships__player__automated=False), distinct=True)
    ).prefetch_related(
        Prefetch(
            "competitions",
            queryset=Competition.objects.select_related("season").annotate(
                results_count=Count("results", distinct=True)
            ),
        ),
        "seasons",
    )
    roles = _roles_of(request.user)
    for c in clubs:
        held = roles.get(c.pk) or (Role.ORGANISER if request.user.is_superuser else None)
        # What the home page offers on each club's card (not fields).
        c.can_score = (  # type: ignore[attr-defined]  # the page's mark
            held is not None and ROLE_RANK[Role(held)] >= ROLE_RANK[Role.SCOREKEEPER]
        )
        c.can_organise = held == Role.ORGANISER  # type: ignore[attr-defined]  # the page's mark
    return render(request, "web/home.html", {"clubs": clubs})


def _roles_of(user: Any) -> dict[int, str]:
    if not user.is_authenticated:
        return {}
    return dict(Membership.objects.filter(player__user=user).values_list("club_id", "role"))


def game_rules(request: HttpRequest, game: str) -> HttpResponse:
    """A game's rule book: every rule its engine enforces, each with its id as an anchor, so
    that the reference beside a refused result's message opens the rule it names."""
    if not engine_available(game):
        raise Http404
    return render(
        request,
        "web/rules.html",
        {
            "game": game,
            "name": meta(game).label,
            "guide": game_guide(game),
            "rules": rule_book(game),
        },
    )


def competition(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    comp = _competition_for_page(club, slug, request.user)
    latest = comp.latest_round
    as_of = _round_param(request, latest)
    settings = settings_of(comp)
    show_match_points = "match_points" in settings.order
    # Results awaiting confirmation are sealed to all but the club's referees and
    # organisers here (ledger/clubs/office/visibility.py).
    reveal = viewer_of(request).sees_pending_of(comp)
    table, count, results = _tables(comp, settings, as_of, latest, show_match_points, reveal)
    can_score = comp.club.allows(request.user, "scorekeeper")
    # A Swiss has one table: every entrant, byes counted, the tiebreaks in it, on the same
    # points the pairing uses.
    swiss = selectors.has_swiss_table(comp)
    swiss_rows = selectors.swiss_standings(comp, as_of) if swiss else []
    # A knockout ranks by the round reached and names its champion; a competition that
    # played its planned rounds says so (read only once it has rounds).
    knockout_rows = (
        selectors.knockout_standings(comp, as_of)
        if comp.format == Competition.Format.KNOCKOUT and latest
        else []
    )
    progress = selectors.progress(comp) if latest else None
    return render(
        request,
        "web/competition.html",
        {
            "swiss": swiss,
            "swiss_rows": swiss_rows,
            "knockout_rows": knockout_rows,
            "champion": next((r for r in knockout_rows if r["champion"]), None),
            "concluded": progress is not None and progress.concluded and not as_of,
            "swiss_scale": selectors.swiss_scale(comp) if swiss else None,
            "competition": comp,
            "game": meta(comp.game),
            "engine": engine_available(comp.game),
            "standings": bool(count),
            "standings_rows": table,
            "show_match_points": show_match_points,
            "points_label": points_label(comp.game),
            "settings": settings,
            "ranking_keys": [key_label(k, comp.game) for k in settings.order],
            "can_organise": comp.club.allows(request.user, "organiser"),
            "rounds": list(range(1, latest + 1)) if latest else [],
            "as_of": as_of,
            "ratings": _rating_rows(_ratings_of(comp, TOP_RATINGS), comp.club.slug),
            "more_ratings": count > TOP_RATINGS,
            "results": results,
            "can_score": can_score,
            # Results waiting for this visitor's confirmation: one page confirms them together.
            "to_confirm": confirmable(request.user, comp).count()
            if request.user.is_authenticated
            else 0,
            "feed_url": request.build_absolute_uri(
                reverse("checkpoint-feed", args=[comp.club.slug])
            ),
        },
    )


def _competition_for_page(club: str, slug: str, user: Any) -> Competition:
    """The competition with what its page shows of it, its club and season, its last round
    with tables and the visitor's role in the club: one prepared plain statement, as every
    visit reads it (the ORM's query cost four times as much, most of it building the SQL).
    Any field not read here is read from the database if something asks for it."""
    sql, plan = _competition_sql()
    member = getattr(user, "is_authenticated", False) and not user.is_superuser
    found = rows_module.run(sql, [user.pk if member else None, club, slug])
    if not found:
        raise Http404("No such competition.")
    row, at = found[0], 0
    built: dict[Any, Any] = {}
    for model, fields in plan:
        values = row[at : at + len(fields)]
        at += len(fields)
        if model is Season and values[0] is None:
            built[model] = None
        else:
            built[model] = rows_module.instance(model, fields, values)
    comp: Competition = built[Competition]
    owner: Club = built[Club]
    Competition.club.field.set_cached_value(comp, owner)
    Competition.season.field.set_cached_value(comp, built[Season])
    comp.latest_round = row[-4]
    if member:
        owner.known_roles = {user.pk: row[-3]}
    signed_at = row[-1]
    if isinstance(signed_at, str):
        signed_at = parse_datetime(signed_at)
        if signed_at is not None and timezone.is_naive(signed_at):
            signed_at = timezone.make_aware(signed_at, UTC)
    owner.signed = {"length": row[-2], "at": signed_at} if row[-2] is not None else None
    return comp


@functools.cache
def _competition_sql() -> tuple[str, list[tuple[Any, list[Any]]]]:
    wanted = {
        Competition: [
            "id",
            "club_id",
            "season_id",
            "name",
            "slug",
            "game",
            "format",
            "confirmation",
            "standings_settings",
        ],
        Club: ["id", "name", "slug", "journal_length", "journal_head"],
        Season: ["id", "name"],
    }
    aliases = {Competition: "c", Club: "k", Season: "s"}
    quote = connection.ops.quote_name
    plan, columns = [], []
    for model, names in wanted.items():
        fields = [f for f in model._meta.concrete_fields if f.attname in names]
        plan.append((model, fields))
        columns += [f"{aliases[model]}.{quote(cast(str, f.column))}" for f in fields]
    table = {
        m: quote(m._meta.db_table) for m in (Competition, Club, Season, Round, Table, Checkpoint)
    }
    sql = (
        f"SELECT {', '.join(columns)}, "
        f"(SELECT r.number FROM {table[Round]} r WHERE r.competition_id = c.id AND EXISTS "
        f"(SELECT 1 FROM {table[Table]} t WHERE t.round_id = r.id) "
        "ORDER BY r.number DESC LIMIT 1), "
        # The visitor's role (NULL for no one): the parameter is the user's id or NULL.
        f"({Club.ROLE_QUERY.format(club='c.club_id', user='%s')}), "
        # The club's latest signed checkpoint, for the line under the standings.
        f"(SELECT cp.length FROM {table[Checkpoint]} cp WHERE cp.club_id = k.id "
        "ORDER BY cp.length DESC LIMIT 1), "
        f"(SELECT cp.signed_at FROM {table[Checkpoint]} cp WHERE cp.club_id = k.id "
        "ORDER BY cp.length DESC LIMIT 1) "
        f"FROM {table[Competition]} c JOIN {table[Club]} k ON k.id = c.club_id "
        f"LEFT JOIN {table[Season]} s ON s.id = c.season_id "
        "WHERE k.slug = %s AND c.slug = %s"
    )
    return sql, plan


def _tables(
    comp: Competition,
    settings: Settings,
    as_of: int | None,
    latest: int | None,
    match_points: bool,
    reveal: bool,
) -> tuple[SafeString, int, SafeString]:
    """The standings table's rows as HTML and how many there are, and the latest results'
    rows as HTML.

    Both are cached together under a key made of everything they show: the competition's
    data as one query reads it now (``_content_version``), the club's journal (the movement
    since the previous round), the last round, the ranking settings, the confirmation mode,
    the addresses in the links, the language and the time zone. Nothing has to invalidate
    the cache and no write pays for it: any change to what the tables show makes a new key.
    A hit costs that one query instead of four and skips ranking and writing the rows. The
    views as of a past round aggregate the journal and are not cached here."""
    if as_of is not None:
        return (
            *_standings_table(comp, as_of, latest, match_points, reveal),
            _results_table(comp, reveal),
        )
    club = comp.club
    version = _content_version(comp)
    key = "competition-tables:" + _digest(
        comp.pk,
        comp.slug,
        club.slug,
        club.journal_length,
        club.journal_head,
        latest,
        settings,
        comp.confirmation,
        reveal,
        get_language(),
        get_current_timezone_name(),
        version,
    )
    hit = cache.get(key)
    if hit is not None:
        table, count, results = hit
        return mark_safe(table), count, mark_safe(results)  # written below, every text escaped
    table, count = _standings_table(comp, None, latest, match_points, reveal)
    results = _results_table(comp, reveal)
    # Kept only if nothing changed while the tables were read: otherwise newer rows would
    # sit under the older data's key, to be shown should the data ever read the same again.
    if _content_version(comp) == version:
        cache.set(key, (str(table), count, str(results)), TABLES_CACHE_SECONDS)
    return table, count, results


TABLES_CACHE_SECONDS = 3600
LATEST_RESULTS = 25


def _standings_table(
    comp: Competition, as_of: int | None, latest: int | None, match_points: bool, reveal: bool
) -> tuple[SafeString, int]:
    rows = standings(
        comp,
        as_of_round=as_of,
        latest=latest,
        head=comp.club.journal_length,
        with_pending=reveal,
    )
    return _display(rows, comp.club.slug, bool(latest), match_points), len(rows)


def _content_version(comp: Competition) -> str:
    """A digest of the competition's data that its standings table and latest results show,
    read as text in one query: each standing with its player's name, the pending results,
    the latest results with their tables' labels, the seats of both with the players'
    names, and which round each table is in (the movement column depends on it). Names,
    labels and scores go with their lengths, so no two different sets of data read the
    same. (SQLite aggregates in no guaranteed order: another order would only cost a cache
    miss.)"""
    # Through the write path's runner: on PostgreSQL the statement stays prepared, which
    # spares the planning that otherwise costs as much as running it.
    found = rows_module.run(
        _content_sql(connection.vendor),
        [comp.pk, LATEST_RESULTS, comp.pk, Result.Status.PENDING.value, comp.pk, comp.pk, comp.pk],
    )
    return _digest(found[0])


@functools.cache
def _content_sql(vendor: str) -> str:
    """The query of ``_content_version`` in the database's own dialect."""
    if vendor == "postgresql":
        aggregate = "COALESCE(string_agg({}, ';' ORDER BY {}), '')"
    else:
        aggregate = "COALESCE(group_concat({}, ';'), '')"

    def text(column: str) -> str:
        return f"LENGTH(CAST({column} AS TEXT)) || ',' || CAST({column} AS TEXT)"

    standings_rows = aggregate.format(
        f"s.player_id || ',' || {text('p.name')} || ',' || CAST(s.points AS TEXT) || ','"
        " || s.played || ',' || s.wins || ',' || s.draws || ',' || s.losses",
        "s.player_id",
    )
    waiting_rows = aggregate.format(f"id || ',' || table_id || ',' || {text('scores')}", "id")
    newest_rows = aggregate.format(
        "r.id || ',' || r.table_id || ',' || r.status || ',' || CAST(r.entered_at AS TEXT)"
        f" || ',' || {text('r.label')} || ',' || {text('r.scores')}",
        "r.id",
    )
    seat_rows = aggregate.format(
        f"st.table_id || ',' || st.\"index\" || ',' || st.player_id || ',' || {text('p.name')}",
        'st.table_id, st."index"',
    )
    result, standing = Result._meta.db_table, Standing._meta.db_table
    player, table, seat = Player._meta.db_table, Table._meta.db_table, Seat._meta.db_table
    tables = "SELECT table_id FROM newest UNION SELECT table_id FROM waiting"
    # The labels and seats of a few tables looked up by their keys, whatever the planner
    # thinks of the tables' sizes (it hashed all of a league's tables and seats, 1 ms).
    seated = f"= ANY(ARRAY({tables}))" if vendor == "postgresql" else f"IN ({tables})"
    parts = f"""
          (SELECT {standings_rows} FROM {standing} s JOIN {player} p ON p.id = s.player_id
            WHERE s.competition_id = %s),
          (SELECT {waiting_rows} FROM waiting),
          (SELECT {newest_rows} FROM (SELECT n.*, (SELECT label FROM {table} WHERE id = n.table_id)
            AS label FROM newest n) r),
          (SELECT {seat_rows} FROM {seat} st JOIN {player} p ON p.id = st.player_id
            WHERE st.table_id {seated}),
          ({layout_sql(vendor)})"""
    if vendor == "postgresql":
        # One digest of the parts (each part's length first) instead of the parts' text:
        # the page's data is 30 kB of text for a league, read on every visit.
        lengthened = ", ".join(f"length(x{n}) || ':' || x{n}" for n in range(5))
        # (OFFSET 0: the parts are computed once, not once per mention.)
        parts = (
            f"md5(concat_ws('|', {lengthened})) "
            f"FROM (SELECT {parts} OFFSET 0) x(x0, x1, x2, x3, x4)"
        )
    return f"""
        WITH newest AS (
            SELECT id, table_id, status, scores, entered_at FROM {result}
             WHERE competition_id = %s ORDER BY entered_at DESC, id DESC LIMIT %s
        ), waiting AS (
            SELECT id, table_id, scores FROM {result} WHERE competition_id = %s AND status = %s
        )
        SELECT {parts}
    """


def _digest(*parts: Any) -> str:
    return hashlib.blake2b(repr(parts).encode(), digest_size=20).hexdigest()


TOP_RATINGS = 10


def competition_ratings(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    """Every rating of the competition's players for its game, cautious rating first."""
    comp = _competition(club, slug)
    return render(
        request,
        "web/ratings.html",
        {"competition": comp, "ratings": _rating_rows(_ratings_of(comp), comp.club.slug)},
    )


def _ratings_of(comp: Competition, limit: int = 2**31 - 1) -> list[tuple[Any, ...]]:
    """The ratings in the competition's game of the players in its standings, cautious
    rating first: (player id, name, mu, sigma, results rated). One plain statement, kept
    prepared on PostgreSQL: the competition page reads it on every visit."""
    return rows_module.run(_ratings_sql(), [comp.club_id, comp.game, comp.pk, limit])


@functools.cache
def _ratings_sql() -> str:
    rating, player = Rating._meta.db_table, Player._meta.db_table
    standing = Standing._meta.db_table
    return f"""
        SELECT r.player_id, p.name, r.mu, r.sigma, r.results
          FROM {rating} r JOIN {player} p ON p.id = r.player_id
         WHERE r.club_id = %s AND r.game = %s AND NOT p.automated AND EXISTS (
               SELECT 1 FROM {standing} s WHERE s.competition_id = %s AND s.player_id = r.player_id
         )
         ORDER BY r.mu - 3 * r.sigma DESC, r.player_id
         LIMIT %s
    """


def _display(rows: list[Any], club: str, movement: bool, match_points: bool) -> SafeString:
    """The standings table's body, written in one pass. A league page has hundreds of rows;
    template tags per cell (URL reversal, number formatting, escaping) cost more than reading
    the standings themselves, so the rows are built here, every text escaped (with the
    standard library's html.escape, which is what Django's escape calls)."""
    link = reverse("player", args=[club, 2**31 - 1]).replace(str(2**31 - 1), "{}")
    number = _number_format()
    awaiting = html.escape(_("Awaiting confirmation: not yet counted"))
    provisional = html.escape(_("provisional"))
    new = html.escape(_("new"))
    newcomer = f'<td class="num movement" data-value="0"><span title="{new}">·</span></td>'
    out = []
    for row in rows:
        if row.pending:
            opening = '<tr class="provisional">'
            pending = (
                f' <small class="pending" title="{awaiting}">'
                f"({provisional} {number(row.pending)})</small>"
            )
        else:
            opening, pending = "<tr>", ""
        if match_points:
            mp = row.match_points
            shown_mp = f'<td class="num" data-value="{mp:f}">{number(mp)}</td>'
        else:
            shown_mp = ""
        if not movement:
            moved = ""
        elif row.movement is None:
            moved = newcomer
        elif row.movement > 0:
            moved = (
                f'<td class="num movement" data-value="{row.movement}">'
                f'<span class="up">▲{row.movement}</span></td>'
            )
        elif row.movement < 0:
            moved = (
                f'<td class="num movement" data-value="{row.movement}">'
                f'<span class="down">▼{-row.movement}</span></td>'
            )
        else:
            moved = '<td class="num movement" data-value="0">=</td>'
        out.append(
            f'{opening}<td class="num">{row.rank}</td>'
            f'<td><a href="{link.format(row.player_id)}">{html.escape(row.name)}</a>{pending}</td>'
            f'<td class="num">{row.played}</td><td class="num">{row.wins}</td>'
            f'<td class="num">{row.draws}</td><td class="num">{row.losses}</td>{shown_mp}'
            f'<td class="num" data-value="{row.points:f}">{number(row.points)}</td>{moved}</tr>\n'
        )
    return mark_safe("".join(out))  # every text above is escaped


def _number_format() -> Any:
    """Points as the page's language writes them: up to two decimals, none when whole."""
    separator = get_format("DECIMAL_SEPARATOR")

    def write(value: Decimal) -> str:
        text = f"{value:.2f}".rstrip("0").rstrip(".")
        text = "0" if text in ("-0", "") else text
        return text.replace(".", separator)

    return write


def _rating_rows(ratings: Any, club: str) -> SafeString:
    """The ratings table's body, written in one pass like the standings (template tags per
    cell cost more than the rest of the cached competition page): estimate ± uncertainty
    and the cautious value with one decimal in the page's language, every text escaped."""
    link = reverse("player", args=[club, 2**31 - 1]).replace(str(2**31 - 1), "{}")
    separator = get_format("DECIMAL_SEPARATOR")

    def one(value: float) -> str:
        return f"{value:.1f}".replace(".", separator)

    return mark_safe(
        "".join(
            f'<tr><td><a href="{link.format(player)}">{html.escape(name)}</a></td>'
            f'<td class="num">{one(mu)} ± {one(sigma)}</td>'
            f'<td class="num">{one(mu - 3 * sigma)}</td><td class="num">{results}</td></tr>\n'
            for player, name, mu, sigma, results in ratings
        )
    )  # every text above is escaped


def _results_table(comp: Competition, reveal: bool, count: int = LATEST_RESULTS) -> SafeString:
    """The newest results with their seats as table rows, read in one prepared plain
    statement (a row per seat) and written in one pass like the standings, every text
    escaped."""
    found = rows_module.run(_results_sql(), [comp.pk, count])
    if not found:
        return mark_safe("")
    labels = {value: escape(label) for value, label in Result.Status.choices}
    link = reverse("result", args=[comp.club.slug, comp.slug, 2**31 - 1]).replace(
        str(2**31 - 1), "{}"
    )
    language, zone = get_language(), get_current_timezone_name()
    out: list[str] = []
    shown: list[str] = []

    def close(result: tuple[Any, ...]) -> None:
        result_id, table_label, status, entered_at = result
        status = escape(status)
        if isinstance(entered_at, str):
            entered_at = parse_datetime(entered_at)
        if timezone.is_naive(entered_at):  # SQLite keeps UTC without a zone
            entered_at = timezone.make_aware(entered_at, UTC)
        when = _short_datetime(entered_at, language, zone)
        out.append(
            f'<tr class="status-{status}">'
            f'<td><a href="{link.format(result_id)}">{when}</a></td>'
            f"<td>{escape(table_label)}</td><td>{' · '.join(shown)}</td>"
            f"<td>{labels.get(result[2], status)}</td></tr>\n"
        )
        shown.clear()

    current: tuple[Any, ...] | None = None
    scores: list[Any] = []
    hidden = False
    for result_id, table_label, status, raw_scores, entered_at, index, name in found:
        if current is None or current[0] != result_id:
            if current is not None:
                close(current)
            current = (result_id, table_label, status, entered_at)
            scores = (json.loads(raw_scores) if isinstance(raw_scores, str) else raw_scores) or []
            hidden = not reveal and status in SEALED
        if index is None:
            continue  # a table with no seats
        score = "?" if hidden else escape(localize(scores[index])) if index < len(scores) else ""
        shown.append(f'<span class="seat">{escape(name)} <b>{score}</b></span>')
    if current is not None:
        close(current)
    return mark_safe("".join(out))  # every text above is escaped


@functools.cache
def _results_sql() -> str:
    """The newest results of a competition (parameters: the competition, how many), each
    with its table's label and a row per seat in order (the seat's index and player's
    name; NULL for a table with no seats)."""
    result, table = Result._meta.db_table, Table._meta.db_table
    seat, player = Seat._meta.db_table, Player._meta.db_table
    return f"""
        WITH newest AS (
            SELECT id, table_id, status, scores, entered_at FROM {result}
             WHERE competition_id = %s ORDER BY entered_at DESC, id DESC LIMIT %s
        )
        SELECT n.id, t.label, n.status, n.scores, n.entered_at, st."index", p.name
          FROM newest n JOIN {table} t ON t.id = n.table_id
          LEFT JOIN {seat} st ON st.table_id = n.table_id
          LEFT JOIN {player} p ON p.id = st.player_id
         ORDER BY n.entered_at DESC, n.id DESC, st."index"
    """


@functools.lru_cache(maxsize=1024)
def _short_datetime(moment: datetime, language: str, zone: str) -> str:
    """A result's time as the page's language and time zone write it, escaped: formatting a
    date costs more than reading it, and a page shows the same few dozen on every visit.
    Called with the active language and time zone, which are part of the cache key."""
    return escape(date_format(localtime(moment), "SHORT_DATETIME_FORMAT"))


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


def _csv_text(value: Any) -> Any:
    """A typed value as the CSV exports write it: decimals in full, floats short."""
    if value is None:
        return ""
    if isinstance(value, Decimal):
        return f"{value:f}"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, datetime):
        return value.isoformat()
    return value


def _table_response(
    filename: str, kind: str, title: str, header: list[str], rows: Iterable[list[Any]]
) -> HttpResponse:
    """A table as CSV, or as an .xlsx or .ods workbook (numbers as numbers, the header row
    frozen, the columns as wide as their cells)."""
    if kind == "csv":
        response, out = _csv_response(f"{filename}.csv")
        out.writerow(header)
        for row in rows:
            out.writerow([_csv_text(v) for v in row])
        return response
    if kind not in sheets.CONTENT_TYPES:
        raise Http404(_("No such kind of file."))
    body = sheets.write([sheets.Sheet(title, header, rows)], kind)
    response = HttpResponse(body, content_type=sheets.CONTENT_TYPES[kind])
    response["Content-Disposition"] = f'attachment; filename="{filename}.{kind}"'
    return response


def _standings_export(
    request: HttpRequest, comp: Competition, as_of: int | None
) -> tuple[list[str], list[list[Any]]]:
    """The standings as a table of typed values (as of a round, or now): a knockout's, a
    Swiss table's or the points table."""
    knockout_rows = (
        selectors.knockout_standings(comp, as_of)
        if comp.format == Competition.Format.KNOCKOUT
        else []
    )
    if knockout_rows:
        # A knockout's table: the round each player reached, the champion first.
        header = ["rank", "player_id", "player", "round_reached", "played", "won", "out"]
        return header, [
            [
                r["place"],
                r["player"],
                r["name"],
                r["round"],
                r["played"],
                r["won"],
                "yes" if r["out"] else "no",
            ]
            for r in knockout_rows
        ]
    if selectors.has_swiss_table(comp):
        header = [
            "rank",
            "player_id",
            "player",
            "played",
            "wins",
            "draws",
            "losses",
            "byes",
            "forfeits_won",
            "forfeits_lost",
            "points",
            "buchholz",
            "median_buchholz",
            "sonneborn_berger",
        ]
        return header, [
            [
                r["rank"],
                r["player"],
                r["name"],
                r["played"],
                r["wins"],
                r["draws"],
                r["losses"],
                r["byes"],
                r["forfeit_wins"],
                r["forfeit_losses"],
                float(r["score"]),
                float(r["buchholz"]),
                float(r["median_buchholz"]),
                float(r["sonneborn_berger"]),
            ]
            for r in selectors.swiss_standings(comp, as_of)
        ]
    header = [
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
    reveal = viewer_of(request).sees_pending_of(comp)
    return header, [
        [
            row.rank,
            row.player_id,
            row.name,
            row.played,
            row.wins,
            row.draws,
            row.losses,
            row.match_points,
            row.points,
            row.movement,
            row.pending,
        ]
        for row in standings(comp, as_of_round=as_of, with_pending=reveal)
    ]


def standings_csv(request: HttpRequest, club: str, slug: str, kind: str = "csv") -> HttpResponse:
    """The standings (as of ``?round=``) as CSV, or as an .xlsx or .ods workbook."""
    comp = _competition(club, slug)
    as_of = _round_param(request, last_round(comp))
    suffix = f"-round-{as_of}" if as_of else ""
    header, rows = _standings_export(request, comp, as_of)
    title = _("Standings") if as_of is None else _("Standings, round %(n)d") % {"n": as_of}
    return _table_response(
        f"{comp.club.slug}-{comp.slug}-standings{suffix}", kind, title, header, rows
    )


JOURNAL_HEADER = [
    "sequence",
    "created_at",
    "result",
    "table",
    "seat",
    "player_id",
    "player",
    "points",
    "kind",
    "what",
    "source",
    "prev_hash",
    "hash",
]


def journal_csv(request: HttpRequest, club: str, slug: str, kind: str = "csv") -> HttpResponse:
    """The competition's journal, every entry in its order, as CSV, .xlsx or .ods."""
    comp = _competition(club, slug)
    entries = (
        Entry.objects.filter(competition=comp)
        .select_related("player", "table")
        .order_by("sequence")
    )
    rows = (
        [
            e.sequence,
            localtime(e.created_at) if kind != "csv" else e.created_at.isoformat(),
            e.result_id,
            e.table.label if e.table is not None else "",  # a penalty away from a table
            e.seat,
            e.player_id,
            e.player.name,
            e.points,
            e.kind,
            # The kind in the reader's words beside its stable code.
            e.get_kind_display(),
            e.source,
            e.prev_hash,
            e.hash,
        ]
        for e in entries.iterator(chunk_size=2000)
    )
    return _table_response(
        f"{comp.club.slug}-{comp.slug}-journal", kind, _("Journal"), JOURNAL_HEADER, rows
    )


def player(request: HttpRequest, club: str, player_id: int) -> HttpResponse:
    the_club = get_object_or_404(Club, slug=club)
    now_is = people.canonical(player_id)
    if now_is != player_id:
        # A player merged into another counts as them: their page is the person's.
        return redirect("player", the_club.slug, now_is)
    person = get_object_or_404(Player, pk=player_id, memberships__club=the_club, automated=False)
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
        Entry.objects.filter(club=the_club, player_id__in=people.same_person_ids(person.pk))
        .select_related("competition", "table", "penalty")
        .order_by("-sequence")[:50]
    )
    from ledger.clubs.results.selectors import for_player
    from ledger.night.services import tonight_for

    return render(
        request,
        "web/player.html",
        {
            "club": the_club,
            "player": person,
            "penalties": list(for_player(person, the_club)),
            "tonight": tonight_for(person, the_club.pk),
            "charts": charts,
            "entries": entries,
            "opponents": _head_to_head(the_club, person),
            "seats": selectors.seats_this_round(the_club.pk, person),
            "practice": _practice_games(the_club, person),
            "stats_games": [(g, game_label(g)) for g in games_played(the_club, person)],
            "last_night": last_night(the_club, person),
            "federations": federation_people.federations_of(the_club),
        },
    )


def _practice_games(club: Club, person: Player) -> list[Any]:
    """The player's digital games that count nowhere (with bots, or a chosen deal), newest
    first: kept and replayable, never in a competition."""
    from ledger.play.models import GameTable

    return list(
        GameTable.objects.filter(club=club, practice=True, seats__player=person)
        .distinct()
        .order_by("-created_at")[:30]
    )


def _head_to_head(club: Club, person: Player) -> list[dict[str, Any]]:
    """For every opponent in every game: results that count played together, and the points
    each took. Points of different games are never added together."""
    counted = Entry.objects.filter(
        club=club, kind=Entry.Kind.CREDIT, result__status=Result.Status.ACCEPTED
    )
    mine = dict(counted.filter(player=person).values_list("result_id", "points"))
    if not mine:
        return []
    theirs = (
        counted.filter(result_id__in=list(mine))
        .exclude(player=person)
        .values_list(
            "result_id", "player_id", "player__name", "points", "result__competition__game"
        )
    )
    table: dict[tuple[str, int], dict[str, Any]] = {}
    for result_id, player_id, name, points, game in theirs:
        item = table.setdefault(
            (game, player_id),
            {
                "id": player_id,
                "name": name,
                "game": str(meta(game).label),
                "met": 0,
                "won": 0,
                "lost": 0,
                "diff": Decimal(0),
            },
        )
        item["met"] += 1
        item["diff"] += mine[result_id] - points
        if mine[result_id] > points:
            item["won"] += 1
        elif mine[result_id] < points:
            item["lost"] += 1
    return sorted(table.values(), key=lambda i: (i["game"], -i["met"], i["name"]))


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any failure to reach the database means "not healthy"
        answer = JsonResponse({"status": "unavailable", "database": str(exc)[:200]}, status=503)
        return logged_unavailable(request, answer, exc)
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


def checkpoint_feed(request: HttpRequest, club: str) -> JsonResponse:
    """The club's signed checkpoints, public: keep a copy, and check the journal against it
    later with ``manage.py verify_ledger --checkpoints``."""
    owner = get_object_or_404(Club, slug=club)
    response = JsonResponse(journal_reads.feed(owner), json_dumps_params={"indent": 1})
    response["Access-Control-Allow-Origin"] = "*"
    return response
