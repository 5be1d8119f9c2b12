"""The federation's rankings, public (no login): per game, the rating and the points
ranking as they stood at the end of any month, with the movement since the month before,
filtered by province and club, as CSV, an .xlsx or .ods workbook, a PDF or printed. Thin:
the rows come from ranking_selectors.py, written by the workers (rankings.py)."""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import formats
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

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
    federation = get_object_or_404(Federation, slug=slug)
    if kind not in KINDS or game not in selectors.games(federation):
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
        period=when,
        province=query.get("province", "").strip(),
        club=int(club) if club.isdigit() else None,
        page=int(page) if page.isdigit() else 1,
        per_page=selectors.PER_PAGE if paged else None,
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


def ranking_page(request: HttpRequest, slug: str, game: str, kind: str) -> HttpResponse:
    table = _read(request, slug, game, kind, paged=True)
    filters = _filters(table)
    rows = [(r, selectors.person_link(table.federation, r)) for r in table.rows]
    return render(
        request,
        "federation/ranking.html",
        {
            "federation": table.federation,
            "table": table,
            "rows": rows,
            "kind": kind,
            "other": "points" if kind == "rating" else "rating",
            "title": _title(table.kind),
            "other_title": _title(KINDS["points" if kind == "rating" else "rating"]),
            "game": game,
            "game_label": game_label(game),
            "month": _month(table.period),
            "months": [(p.strftime("%Y-%m"), _month(p)) for p in table.periods],
            "rules": _rules(table),
            "query": "?" + urlencode(filters) if filters else "",
            "filters": filters,
            "typed_as_of": request.GET.get("as_of", ""),
            "previous": "?" + urlencode({**filters, "page": table.page - 1})
            if table.page > 1
            else "",
            "next": "?" + urlencode({**filters, "page": table.page + 1})
            if table.page < table.pages
            else "",
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
            r.person.name,
            r.club.name,
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
