"""Score entry at the table: pick or open a table, type the summary, see the engine's
score while typing (htmx), then record it. A form token doubles as the idempotency key,
so a double tap or a resent form never records a hand twice."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from ledger.clubs import services
from ledger.clubs.errors import LedgerError
from ledger.clubs.games import engine_available, meta
from ledger.clubs.models import Competition, Player, Role, Table
from ledger.clubs.scoring import score_result
from ledger.web.forms import (
    SUMMARY_FORMS,
    JsonSummaryForm,
    ManualScoresForm,
    NewTableForm,
)


def _competition(request: HttpRequest, club: str, slug: str) -> Competition:
    competition = get_object_or_404(
        Competition.objects.select_related("club"), club__slug=club, slug=slug
    )
    if not competition.club.allows(request.user, Role.SCOREKEEPER):
        raise PermissionDenied(_("Only the club's scorekeepers record results."))
    return competition


def _seats_for(competition: Competition) -> int:
    if engine_available(competition.game):
        from games.core import registry

        seats: int = registry.get(competition.game).ruleset(competition.ruleset or None).seats
        return seats
    return meta(competition.game).seat_counts[0]


@login_required
def choose_table(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    competition = _competition(request, club, slug)
    members = list(Player.objects.filter(memberships__club=competition.club).order_by("name"))
    seats = _seats_for(competition)
    form = NewTableForm(request.POST or None, members=members, seats=seats)
    if request.method == "POST" and form.is_valid():
        by_id = {p.pk: p for p in members}
        try:
            table = services.create_table(
                user=request.user,
                competition=competition,
                label=form.cleaned_data["label"],
                players=[by_id[i] for i in form.player_ids()],
            )
        except LedgerError as exc:
            form.add_error(None, exc.message)
        else:
            return redirect("score-entry", club=club, slug=slug, table=table.pk)
    tables = competition.tables.prefetch_related("seats__player")[:30]
    return render(
        request,
        "web/score/choose_table.html",
        {"competition": competition, "tables": tables, "form": form},
    )


def _forms(competition: Competition, table: Table, data: Any) -> tuple[Any, list[tuple[int, str]]]:
    seats = [(s.index, f"{s.index} · {s.player.name}") for s in table.seats.all()]
    if not engine_available(competition.game):
        return ManualScoresForm(data, seats=seats), seats
    form_class = SUMMARY_FORMS.get(competition.game, JsonSummaryForm)
    return form_class(data, seats=seats), seats


def _evaluate(competition: Competition, table: Table, form: Any) -> dict[str, Any]:
    """What the engine would record, without recording anything."""
    if not form.is_valid():
        return {"errors": form.errors}
    try:
        if isinstance(form, ManualScoresForm):
            source, record, explicit = "manual", {}, form.scores()
        else:
            source, record, explicit = "summary", form.summary(), None
        scored = score_result(
            game=competition.game,
            ruleset=competition.ruleset,
            seats=table.seats.count(),
            source=source,
            record=record,
            explicit=explicit,
        )
    except LedgerError as exc:
        return {"problem": exc.message, "violations": exc.violations}
    except Exception as exc:  # a ValidationError raised by form.summary()
        if hasattr(exc, "messages"):
            return {"errors": form.errors, "problem": " ".join(exc.messages)}
        raise
    return {"scores": scored.scores, "source": source, "record": record, "explicit": explicit}


@login_required
def score_entry(request: HttpRequest, club: str, slug: str, table: int) -> HttpResponse:
    competition = _competition(request, club, slug)
    table_obj = get_object_or_404(
        Table.objects.prefetch_related("seats__player"), pk=table, competition=competition
    )
    form, seats = _forms(competition, table_obj, request.POST or None)
    outcome: dict[str, Any] = {}
    token = request.POST.get("form_token") or uuid.uuid4().hex
    if request.method == "POST":
        outcome = _evaluate(competition, table_obj, form)
        if "scores" in outcome:
            try:
                _result, created = services.record_result(
                    user=request.user,
                    table=table_obj,
                    source=outcome["source"],
                    record=outcome["record"],
                    scores=outcome["explicit"],
                    idempotency_key=f"form-{token}",
                    fingerprint=f"form-{token}",
                )
            except LedgerError as exc:
                outcome = {"problem": exc.message, "violations": exc.violations}
            else:
                if created:
                    messages.success(request, _("Result recorded."))
                else:
                    messages.info(request, _("This result was already recorded."))
                return redirect("score-entry", club=club, slug=slug, table=table_obj.pk)
    recent = table_obj.results.order_by("-entered_at")[:10]
    sign_off = competition.confirmation == Competition.Confirmation.OPPONENTS
    qr = _qr_svg(request.build_absolute_uri()) if sign_off else ""
    return render(
        request,
        "web/score/entry.html",
        {
            "competition": competition,
            "table": table_obj,
            "form": form,
            "seats": seats,
            "outcome": outcome,
            "token": token,
            "recent": recent,
            "engine": engine_available(competition.game),
            "qr": qr,
            "blind": competition.confirmation == Competition.Confirmation.BLIND,
        },
    )


def _qr_svg(url: str) -> str:
    """The table's own address as an inline SVG QR code, for a phone at the table."""
    import io

    import segno

    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", xmldecl=False, svgns=True, scale=4)
    return out.getvalue().decode()


@login_required
def score_preview(request: HttpRequest, club: str, slug: str, table: int) -> HttpResponse:
    competition = _competition(request, club, slug)
    table_obj = get_object_or_404(
        Table.objects.prefetch_related("seats__player"), pk=table, competition=competition
    )
    form, seats = _forms(competition, table_obj, request.POST)
    outcome = _evaluate(competition, table_obj, form)
    return render(
        request,
        "web/score/preview.html",
        {"outcome": outcome, "seats": seats, "form": form},
    )
