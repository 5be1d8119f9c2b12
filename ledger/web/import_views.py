"""Upload a file of results; watch its progress; read the refused rows."""

from __future__ import annotations

import csv
import io
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from ledger.clubs import jobs
from ledger.clubs.errors import LedgerError
from ledger.clubs.imports import create_job, in_words, template_rows
from ledger.clubs.models import Club, Competition, ImportJob, Player, Role


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


def _names(club: Club, competition: Competition) -> list[str]:
    from ledger.web.scoring_views import _seats_for

    seats = _seats_for(competition)
    members = Player.objects.filter(memberships__club=club, automated=False).order_by("name")
    return [p.name for p in members[:seats]]


@login_required
def template(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    """A competition's import template: a CSV with its plain columns and example rows."""
    the_club = _club(request, club)
    competition = get_object_or_404(Competition, club=the_club, slug=slug)
    out = io.StringIO()
    csv.writer(out).writerows(template_rows(competition, _names(the_club, competition)))
    response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{competition.slug}-template.csv"'
    return response


@login_required
def job(request: HttpRequest, club: str, pk: int) -> HttpResponse:
    the_club = _club(request, club)
    import_job = get_object_or_404(ImportJob.objects.defer("content"), pk=pk, club=the_club)
    if request.method == "POST" and import_job.status == ImportJob.Status.PREVIEW:
        if request.POST.get("confirm"):
            # Only the job still waiting moves on: a second click queues nothing twice.
            queued = ImportJob.objects.filter(
                pk=import_job.pk, status=ImportJob.Status.PREVIEW
            ).update(status=ImportJob.Status.QUEUED)
            if queued:
                transaction.on_commit(lambda: jobs.delay(jobs.RUN_IMPORT, import_job.pk))
                messages.info(request, _("Import started."))
        else:
            ImportJob.objects.filter(pk=import_job.pk, status=ImportJob.Status.PREVIEW).delete()
            messages.info(request, _("The file was put aside; nothing was imported."))
            return redirect("import", club=club)
        return redirect("import-job", club=club, pk=import_job.pk)
    template = "web/import_progress.html" if request.htmx else "web/import_job.html"
    return render(
        request,
        template,
        {"club": the_club, "job": import_job, "understood": in_words(import_job.understood)},
    )
