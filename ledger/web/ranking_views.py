"""The federation's rankings, public (no login): per game, the rating and the points
ranking as they stood at the end of any month, with the movement since the month before,
filtered by province and club, as CSV, an .xlsx or .ods workbook, a PDF or printed. Thin:
the rows come from ranking_selectors.py, written by the workers (rankings.py)."""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Callable
from decimal import Decimal
from html import escape
from typing import Any

from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.defaultfilters import floatformat
from django.template.loader import render_to_string
from django.utils import formats
from django.utils.http import urlencode
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from ledger.clubs.games import label as game_label
from ledger.clubs.transfer import sheets
from ledger.federation import ranking_selectors as selectors
from ledger.federation.models import Federation, RankingRow
from ledger.night import printing
from ledger.web.views import csv_cell

KINDS = {"rating": RankingRow.Kind.RATING, "points": RankingRow.Kind.POINTS}


def _title(kind: str) -> str:
    return _("Rating") if kind == RankingRow.Kind.RATING else _("Points ranking")


def _day(text: str) -> datetime.date | None:
    """A month (2026-10) or a day (2026-10-15, 15/10/2026) as typed; None when empty."""
    text = text.strip()
    if not text:
        return None
    for shape in ("%Y-%m", "%Y-%m-%d", "%d/%m/%Y"):
        try:
            return datetime.datetime.strptime(text, shape).date()
        except ValueError:
            continue
    raise Http404(_("Not a month or a day: %(v)s") % {"v": text})


def _read(request: HttpRequest, slug: str, game: str, kind: str, paged: bool) -> Any:
    """The table the request asks for: with every row for a file; with none for the page
    (its rows are read by ``_rows_html`` unless the cache has them)."""
    federation, state = selectors.find(slug, game)
    if federation is None:
        raise Http404(_("No such federation."))
    if kind not in KINDS or state is None:
        raise Http404(_("No such ranking."))
    query = request.GET
    # "as of" a day picks its month; the month list picks one too (the day wins if both).
    when = _day(query.get("as_of", "")) or _day(query.get("period", ""))
    club = query.get("club", "")
    page = query.get("page", "1")
    return selectors.ranking(
        federation,
        game,
        KINDS[kind],
        state=state,
        period=when,
        province=query.get("province", "").strip(),
        club=int(club) if club.isdigit() else None,
        search=query.get("q", "").strip()[:120] if paged else "",
        page=int(page) if page.isdigit() else 1,
        per_page=None,
        rows=not paged,
    )


def _rules(table: selectors.Ranking) -> list[str]:
    """How the table is made, in words (the page and the PDF say it)."""
    if table.kind == RankingRow.Kind.RATING:
        return [
            _(
                "Every sanctioned result of every member club, in the order the clubs "
                "recorded them, rated as the clubs rate theirs."
            ),
            _("The rating shown is the estimate less three times its uncertainty."),
        ]
    rules = table.rules
    return [
        ngettext(
            "The best result of the last %(m)d months counts.",
            "The best %(n)d results of the last %(m)d months count.",
            rules.best,
        )
        % {"n": rules.best, "m": rules.months},
        _("Points for each place in a competition: %(points)s, times its tier's weight.")
        % {"points": "-".join(rules.place_points or [])},
    ]


def _month(period: datetime.date | None) -> str:
    return formats.date_format(period, "YEAR_MONTH_FORMAT") if period else ""


def _filters(table: selectors.Ranking) -> dict[str, str]:
    """The filters of the files' links (the whole table, whoever was looked for)."""
    out = {}
    if table.period:
        out["period"] = table.period.strftime("%Y-%m")
    if table.province:
        out["province"] = table.province
    if table.club is not None:
        out["club"] = str(table.club)
    return out


def ranking_index(request: HttpRequest, slug: str) -> HttpResponse:
    federation = get_object_or_404(Federation, slug=slug)
    return render(
        request,
        "federation/rankings.html",
        {
            "federation": federation,
            "games": [(g, game_label(g)) for g in selectors.games(federation)],
        },
    )


#: How long a page's rows stay cached at most: the key follows the rankings' version, the
#: member clubs and the language; a person renamed shows within this time.
ROWS_CACHE_SECONDS = 600


def _rows_key(table: selectors.Ranking, page: int) -> str:
    clubs = [(c, n, table.provinces_of.get(c, "")) for c, n in table.clubs]
    made = repr(
        (
            table.federation.pk,
            table.federation.slug,
            table.game,
            table.kind,
            table.version,
            table.updated_at,
            table.period,
            table.province,
            table.club,
            table.search,
            page,
            clubs,
            get_language(),
        )
    )
    return "federation-ranking:" + hashlib.sha256(made.encode()).hexdigest()


def _rows_html(table: selectors.Ranking, page: int, filters: dict[str, str]) -> str:
    """The table's rows of the page and its pager, as HTML: read and written once per
    version of the rankings (and filters, page and language), then from the cache."""
    key = _rows_key(table, page)
    hit = cache.get(key)
    if hit is not None:
        html: str = hit
        return html
    selectors.fill(table, page, selectors.PER_PAGE)
    paged: dict[str, str | int] = {**filters}
    if table.search:
        paged["q"] = table.search
    html = render_to_string(
        "federation/ranking_rows.html",
        {
            "table": table,
            "body": _body(table.rows, selectors.person_links(table.federation)),
            "rating": table.kind == RankingRow.Kind.RATING,
            "previous": "?" + urlencode({**paged, "page": table.page - 1})
            if table.page > 1
            else "",
            "next": "?" + urlencode({**paged, "page": table.page + 1})
            if table.page < table.pages
            else "",
        },
    )
    cache.set(key, html, ROWS_CACHE_SECONDS)
    return html


def _movement(places: int | None, new: str) -> str:
    if places is None:
        return f'<span title="{new}">·</span>'
    if places > 0:
        return f'<span class="up">▲{places}</span>'
    if places < 0:
        return f'<span class="down">▼{-places}</span>'
    return "="


def _body(rows: list[selectors.Line], link: Callable[[int], str]) -> SafeString:
    """The table's rows as HTML, every text escaped: written here rather than by a
    template loop, which spent most of a page's time resolving each cell's variables."""
    new = escape(_("New in the table"))
    return mark_safe(  # every name escaped just here; the rest are numbers and our words
        "".join(
            f'<tr data-person="{r.person_id}"><td class="num rank">{r.rank}</td>'
            f'<td><a href="{escape(link(r.person_id))}">{escape(r.name)}</a> '
            f'<small class="muted">{escape(r.club_name)}</small></td>'
            f'<td class="num value"><strong>{floatformat(r.value, "-2")}</strong></td>'
            f'<td class="num results">{r.results}</td>'
            f'<td class="num movement">{_movement(r.movement, new)}</td></tr>\n'
            for r in rows
        )
    )


def _options(choices: list[tuple[str, str]], chosen: str) -> SafeString:
    """A select's options, every text escaped (a federation has hundreds of clubs: joined
    here, where the template's loop took a tenth of the page's time)."""
    return mark_safe(
        "".join(
            f'<option value="{escape(v)}"{" selected" if v == chosen else ""}>{escape(n)}</option>'
            for v, n in choices
        )
    )


def ranking_page(request: HttpRequest, slug: str, game: str, kind: str) -> HttpResponse:
    table = _read(request, slug, game, kind, paged=True)
    filters = _filters(table)
    page = request.GET.get("page", "1")
    rows = _rows_html(table, int(page) if page.isdigit() else 1, filters)
    months = [(p.strftime("%Y-%m"), _month(p)) for p in table.periods]
    return render(
        request,
        "federation/ranking.html",
        {
            "federation": table.federation,
            "table": table,
            "rows_html": mark_safe(rows),  # written by ranking_rows.html, every text escaped
            "kind": kind,
            "other": "points" if kind == "rating" else "rating",
            "title": _title(table.kind),
            "other_title": _title(KINDS["points" if kind == "rating" else "rating"]),
            "game": game,
            "game_label": game_label(game),
            "month": _month(table.period),
            "months": bool(months),
            "month_options": _options(months, filters.get("period", "")),
            "club_options": _options(
                [(str(c), n) for c, n in table.clubs], "" if table.club is None else str(table.club)
            ),
            "rules": _rules(table),
            "query": "?" + urlencode(filters) if filters else "",
            "filters": filters,
            "typed_as_of": request.GET.get("as_of", ""),
            "search": table.search,
        },
    )


def _export(table: selectors.Ranking) -> tuple[list[str], list[list[Any]]]:
    rating = table.kind == RankingRow.Kind.RATING
    header = [
        _("Place"),
        _("Person"),
        _("Club"),
        _("Province"),
        _("Rating") if rating else _("Points"),
        _("Results"),
        _("Places gained"),
    ]
    rows = [
        [
            r.rank,
            r.name,
            r.club_name,
            table.provinces_of.get(r.club_id, ""),
            r.value,
            r.results,
            r.movement if r.movement is not None else "",
        ]
        for r in table.rows
    ]
    return header, rows


def ranking_file(
    request: HttpRequest, slug: str, game: str, kind: str, ext: str = "csv"
) -> HttpResponse:
    """The whole table (every row, the filters applied) as CSV, .xlsx, .ods or PDF."""
    table = _read(request, slug, game, kind, paged=False)
    header, rows = _export(table)
    title = f"{table.federation.name} - {game_label(game)} - {_title(table.kind)}"
    if table.period:
        title += f" - {_month(table.period)}"
    name = f"{table.federation.slug}-{game}-{kind}"
    if table.period:
        name += "-" + table.period.strftime("%Y-%m")
    if ext == "pdf":
        plain = [[_plain(v) for v in r] for r in rows]
        body = printing.table_pdf(title, header, plain, notes=_rules(table))
        response = HttpResponse(body, content_type="application/pdf")
    elif ext == "csv":
        text = sheets.write_csv(header, [[csv_cell(v) for v in r] for r in rows])
        response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    elif ext in sheets.CONTENT_TYPES:
        body = sheets.write([sheets.Sheet(_title(table.kind), header, rows)], ext)
        response = HttpResponse(body, content_type=sheets.CONTENT_TYPES[ext])
    else:
        raise Http404(_("No such kind of file."))
    response["Content-Disposition"] = f'attachment; filename="{name}.{ext}"'
    return response


def _plain(value: Any) -> str:
    if isinstance(value, Decimal):
        return f"{value.normalize():f}" if value == value.to_integral() else f"{value:f}"
    return str(value)
