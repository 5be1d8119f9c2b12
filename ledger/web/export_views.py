"""The club's export page, for its organisers: the whole club as one file (the format of
docs/export.md, without logins' secrets) and CSV extracts for spreadsheets."""

from __future__ import annotations

import csv
from collections.abc import Iterator
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from ledger.clubs.models import Club, Result, Role, Seat
from ledger.clubs.transfer import transfer
from ledger.web.views import csv_cell


def _club(request: HttpRequest, slug: str) -> Club:
    club = get_object_or_404(Club, slug=slug)
    if not club.allows(request.user, Role.ORGANISER):
        raise PermissionDenied(_("Only the club's organisers export its data."))
    return club


@login_required
@never_cache
def club_export(request: HttpRequest, club: str) -> HttpResponse:
    the_club = _club(request, club)
    return render(
        request,
        "web/club_export.html",
        {
            "club": the_club,
            "competitions": the_club.competitions.select_related("season").order_by("name"),
            "results": Result.objects.filter(club=the_club).count(),
        },
    )


def _attachment(response: StreamingHttpResponse, name: str) -> StreamingHttpResponse:
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@login_required
@never_cache
def club_export_file(request: HttpRequest, club: str) -> StreamingHttpResponse:
    the_club = _club(request, club)
    # Streamed from one snapshot of the club: memory does not grow with it.
    response = StreamingHttpResponse(
        transfer.export_lines(the_club, secrets=False), content_type="application/x-ndjson"
    )
    return _attachment(response, f"{the_club.slug}-{timezone.localdate():%Y-%m-%d}.jsonl")


class _Line:
    """A file-like object csv.writer writes one row into, read back at once."""

    def write(self, value: str) -> str:
        return value


def _result_rows(club: Club) -> Iterator[str]:
    out = csv.writer(_Line())
    yield out.writerow(
        [
            "result",
            "competition",
            "round",
            "table",
            "status",
            "source",
            "entered_at",
            "entered_by",
            "confirmed_by",
            "corrects",
            "reason",
            "seat",
            "player_id",
            "player",
            "points",
        ]
    )
    names: dict[int, dict[int, tuple[int | None, str]]] = {}
    player_id: int | None
    for table_id, index, player_id, name in Seat.objects.filter(
        table__competition__club=club
    ).values_list("table_id", "index", "player_id", "player__name"):
        names.setdefault(table_id, {})[index] = (player_id, name)
    results = (
        Result.objects.filter(club=club)
        .order_by("pk")
        .values_list(
            "pk",
            "competition__name",
            "table__round__number",
            "table_id",
            "table__label",
            "status",
            "source",
            "entered_at",
            "entered_by__username",
            "confirmed_by__username",
            "supersedes_id",
            "reason",
            "scores",
        )
    )
    for (
        pk,
        comp,
        rnd,
        table_id,
        label,
        status,
        source,
        at,
        by,
        confirmed,
        corrects,
        reason,
        scores,
    ) in results.iterator(chunk_size=2000):
        seated = names.get(table_id, {})
        for seat, points in enumerate(scores or []):
            player_id, name = seated.get(seat, (None, ""))
            row: list[Any] = [
                pk,
                comp,
                rnd or "",
                label,
                Result.Status(status).label if status in Result.Status.values else status,
                Result.Source(source).label if source in Result.Source.values else source,
                at.isoformat(),
                by or "",
                confirmed or "",
                corrects or "",
                reason,
                seat,
                player_id or "",
                name,
                points,
            ]
            yield out.writerow([csv_cell(str(v)) for v in row])


@login_required
@never_cache
def club_results_csv(request: HttpRequest, club: str) -> StreamingHttpResponse:
    the_club = _club(request, club)
    response = StreamingHttpResponse(_result_rows(the_club), content_type="text/csv; charset=utf-8")
    return _attachment(response, f"{the_club.slug}-results.csv")
