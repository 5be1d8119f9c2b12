"""Upload a file of results; watch its progress; read the refused rows."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django_htmx.middleware import HtmxDetails

from ledger.clubs.errors import LedgerError
from ledger.clubs.models import Club, Competition, ImportJob, Player, Role
from ledger.clubs.transfer import sheets
from ledger.clubs.transfer.imports import confirm_job, create_job, discard_job
from ledger.clubs.transfer.selectors import in_words, template_rows


def _club(request: HttpRequest, slug: str) -> Club:
    club = get_object_or_404(Club, slug=slug)
    if not club.allows(request.user, Role.SCOREKEEPER):
        raise PermissionDenied(_("Only the club's scorekeepers import results."))
    return club


@login_required
def upload(request: HttpRequest, club: str) -> HttpResponse:
    the_club = _club(request, club)
    error = ""
    if request.method == "POST":
        upload = request.FILES.get("file")
        if upload is None:
            error = _("Choose a file: CSV, Excel (.xlsx), LibreOffice (.ods) or JSONL.")
        else:
            try:
                job = create_job(
                    user=request.user,
                    club=the_club,
                    filename=upload.name or "upload",
                    raw=upload.read(),
                    fmt=request.POST.get("format") or None,
                    preview=True,
                )
            except LedgerError as exc:
                error = exc.message
            else:
                # The page says what it read of the file; the rows are applied once the
                # scorekeeper confirms it (job, below).
                return redirect("import-job", club=club, pk=job.pk)
    recent = ImportJob.objects.filter(club=the_club).defer("content")[:20]
    return render(
        request,
        "web/imports.html",
        {"club": the_club, "jobs": recent, "error": error, "guides": _guides(the_club)},
    )


def _guides(club: Club) -> list[dict[str, Any]]:
    """For each competition of the club: its plain columns with an example value of each, as
    the page's column guide shows them beside the template to download."""
    out = []
    for competition in Competition.objects.filter(club=club).order_by("name"):
        rows = template_rows(competition, _names(club, competition))
        example = rows[1] if len(rows) > 1 else [""] * len(rows[0])
        out.append(
            {
                "competition": competition,
                "columns": list(zip(rows[0][4:], example[4:], strict=True)),
            }
        )
    return out


def _players(club: Club, competition: Competition) -> list[Player]:
    """The competition's players who are members of the club (those seated at its tables),
    by name; the club's members when the competition has none yet."""
    members = Player.objects.filter(memberships__club=club, automated=False)
    seated = members.filter(seats__table__competition=competition).distinct().order_by("name")
    return list(seated) or list(members.distinct().order_by("name"))


def _names(club: Club, competition: Competition) -> list[str]:
    from ledger.web.scoring_views import _seats_for

    seats = _seats_for(competition)
    return [p.name for p in _players(club, competition)[:seats]]


# What each of the file's own columns holds, for the notes sheet of a template (the page's
# column guide says the same).
def _notes() -> list[tuple[str, str]]:
    return [
        ("competition", _("The competition, as in the template.")),
        (
            "table",
            _(
                "The table's name; with the same players, rows with the same name go to the "
                "same table."
            ),
        ),
        ("players", _("The players' names in seat order, separated by |.")),
        (
            "key",
            _("Any text unique to the row: importing the same file again records nothing twice."),
        ),
        (
            "scores",
            _("Only for a game without a rules engine: each seat's points, separated by |."),
        ),
        (
            "record",
            _("Advanced: the whole summary or record as JSON, instead of the game's columns."),
        ),
        (
            "void",
            _(
                "To void a result instead (entered twice, a game never played): its number in "
                "void and why in reason; such a row needs only the competition besides. Only "
                "referees and organisers may."
            ),
        ),
    ]


@login_required
def template(request: HttpRequest, club: str, slug: str, kind: str = "csv") -> HttpResponse:
    """A competition's import template: its plain columns and example rows with the
    competition's players, as CSV, or as an .xlsx or .ods workbook whose other sheets list
    the players and explain each column in the reader's language."""
    the_club = _club(request, club)
    competition = get_object_or_404(Competition, club=the_club, slug=slug)
    rows = template_rows(competition, _names(the_club, competition))
    filename = f"{competition.slug}-template.{kind}"
    if kind == "csv":
        out = io.StringIO()
        csv.writer(out).writerows(rows)
        response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
    else:
        header, examples = rows[0], rows[1:]
        game_columns = header[4:]
        typed = [
            [*row[:4], *[int(c) if _WHOLE.match(c) else c for c in row[4:]]] for row in examples
        ]
        shown = dict(zip(header, examples[0], strict=True)) if examples else {}
        notes = [
            *[(name, words, shown.get(name, "")) for name, words in _notes()],
            *[
                (
                    name,
                    _(
                        "One of the game's own columns, named as in its notation: a row of a "
                        "list is numbered from 1; a cell holding several values separates "
                        "them with |; seats are counted from 0."
                    ),
                    shown.get(name, ""),
                )
                for name in game_columns
            ],
        ]
        players = _players(the_club, competition)
        body = sheets.write(
            [
                sheets.Sheet(_("Results"), header, typed),
                sheets.Sheet(
                    _("Players"),
                    [_("Name"), _("Number")],
                    [(p.name, p.pk) for p in players],
                ),
                sheets.Sheet(_("Notes"), [_("Column"), _("What it holds"), _("Example")], notes),
            ],
            kind,
        )
        response = HttpResponse(body, content_type=sheets.CONTENT_TYPES[kind])
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


_WHOLE = re.compile(r"^-?\d{1,15}$")


class _HtmxRequest(HttpRequest):
    htmx: HtmxDetails  # set by django_htmx's middleware


@login_required
def job(request: _HtmxRequest, club: str, pk: int) -> HttpResponse:
    the_club = _club(request, club)
    import_job = get_object_or_404(ImportJob.objects.defer("content"), pk=pk, club=the_club)
    if request.method == "POST" and import_job.status == ImportJob.Status.PREVIEW:
        if request.POST.get("confirm"):
            if confirm_job(user=request.user, job=import_job):
                messages.info(request, _("Import started."))
        else:
            discard_job(user=request.user, job=import_job)
            messages.info(request, _("The file was put aside; nothing was imported."))
            return redirect("import", club=club)
        return redirect("import-job", club=club, pk=import_job.pk)
    template = "web/import_progress.html" if request.htmx else "web/import_job.html"
    return render(
        request,
        template,
        {"club": the_club, "job": import_job, "understood": in_words(import_job.understood)},
    )
