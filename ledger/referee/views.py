"""The referee desk's pages: open a case (from a result or fresh), enter the hand (paste,
upload, or step by step with only legal choices), read the verdict on a timeline, rule."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ledger.clubs.errors import LedgerError
from ledger.clubs.models import Club, Competition, Membership, Result, Role
from ledger.referee import checking, services
from ledger.referee.models import ArtificialScores, Case

MAX_UPLOAD = 2_000_000


def _referee_clubs(user: Any) -> list[Club]:
    if user.is_superuser:
        return list(Club.objects.all())
    held = Membership.objects.filter(
        player__user=user, role__in=[Role.REFEREE, Role.ORGANISER]
    ).values_list("club_id", flat=True)
    return list(Club.objects.filter(pk__in=held))


@login_required
def desk(request: HttpRequest) -> HttpResponse:
    clubs = _referee_clubs(request.user)
    competitions = Competition.objects.filter(club__in=clubs).select_related("club")
    cases = Case.objects.filter(club__in=clubs).select_related(
        "competition__club", "result__table", "opened_by", "correction"
    )[:100]
    chosen_result = None
    chosen_competition = request.GET.get("competition", "")
    if request.GET.get("result", "").isdigit():
        chosen_result = (
            Result.objects.filter(pk=int(request.GET["result"]), club__in=clubs)
            .select_related("competition")
            .first()
        )
        if chosen_result is not None:
            chosen_competition = str(chosen_result.competition_id)
    return render(
        request,
        "referee/desk.html",
        {
            "clubs": clubs,
            "competitions": competitions,
            # The queue: the oldest call first.
            "open_cases": sorted(
                (c for c in cases if c.status == Case.Status.OPEN), key=lambda c: c.opened_at
            ),
            "ruled_cases": [c for c in cases if c.status == Case.Status.RULED],
            "chosen_result": chosen_result,
            "chosen_competition": chosen_competition,
            "organised": [c for c in clubs if c.allows(request.user, Role.ORGANISER)],
        },
    )


@login_required
@require_POST
def contest_window(request: HttpRequest, club: int) -> HttpResponse:
    found = get_object_or_404(Club, pk=club, pk__in=[c.pk for c in _referee_clubs(request.user)])
    try:
        services.set_contest_days(user=request.user, club=found, days=request.POST.get("days", ""))
    except LedgerError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            _("Results of %(club)s may now be contested for %(n)d days.")
            % {"club": found.name, "n": found.contest_days},
        )
    return redirect("referee:desk")


def _record_from(request: HttpRequest) -> dict[str, Any] | None:
    upload = request.FILES.get("file")
    if upload is not None:
        if upload.size is not None and upload.size > MAX_UPLOAD:
            raise LedgerError(_("The file is too large (2 MB at most)."))
        try:
            text = upload.read().decode("utf-8")
        except UnicodeDecodeError as exc:
            raise LedgerError(_("The file is not UTF-8 text.")) from exc
        return checking.parse_record(text)
    text = request.POST.get("record", "").strip()
    return checking.parse_record(text) if text else None


@login_required
@require_POST
def open_case(request: HttpRequest) -> HttpResponse:
    clubs = _referee_clubs(request.user)
    value = request.POST.get("competition", "")
    competition = Competition.objects.filter(
        pk=int(value) if value.isdigit() else 0, club__in=clubs
    ).first()
    if competition is None:
        messages.error(request, _("Choose a competition of a club where you referee."))
        return redirect("referee:desk")
    result = None
    wanted = request.POST.get("result", "").strip().lstrip("#")
    if wanted:
        result = Result.objects.filter(
            pk=int(wanted) if wanted.isdigit() else 0, competition=competition
        ).first()
        if result is None:
            messages.error(request, _("No result #%(n)s in that competition.") % {"n": wanted})
            return redirect("referee:desk")
    try:
        record = _record_from(request)
        case = services.open_case(
            user=request.user, competition=competition, result=result, record=record
        )
    except LedgerError as exc:
        messages.error(request, exc.message)
        return redirect("referee:desk")
    return redirect("referee:case", pk=case.pk)


def _case(request: HttpRequest, pk: int) -> Case:
    return get_object_or_404(
        Case.objects.select_related("competition__club", "result__table", "correction"),
        pk=pk,
        club__in=_referee_clubs(request.user),
    )


def _seat_names(case: Case, seats: int) -> list[str]:
    names = [_("Seat %(n)d") % {"n": i} for i in range(seats)]
    if case.result is not None:
        for seat in case.result.table.seats.select_related("player"):
            if seat.index < seats:
                names[seat.index] = f"{seat.index} · {seat.player.name}"
    return names


@login_required
def case_page(request: HttpRequest, pk: int) -> HttpResponse:
    case = _case(request, pk)
    verdict: dict[str, Any] | None = None
    error = ""
    if case.record:
        try:
            verdict = checking.check(case.game, case.record, case.competition.ruleset)
        except LedgerError as exc:
            error = exc.message
    build = (
        checking.builder(case.game, case.record, case.competition.ruleset)
        if case.record and case.status == Case.Status.OPEN
        else None
    )
    if case.result is not None:
        seats = len(case.result.scores)
    else:
        engine = checking.engine_for(case.game)
        seats = engine.ruleset(case.competition.ruleset or None).seats
    names = _seat_names(case, seats)
    artificial = ArtificialScores.for_competition(case.competition)
    table_scores = list(case.result.scores) if case.result is not None else []
    rules_scores = verdict["scores"] if verdict and verdict.get("scores") else None
    return render(
        request,
        "referee/case.html",
        {
            "case": case,
            "verdict": verdict,
            "error": error,
            "build": build,
            "names": names,
            "seat_rows": [
                {
                    "index": i,
                    "name": names[i],
                    "table": table_scores[i] if i < len(table_scores) else "",
                    "rules": rules_scores[i] if rules_scores else "",
                }
                for i in range(seats)
            ],
            "artificial": artificial,
            "record_text": json.dumps(case.record, indent=1) if case.record else "",
            "kinds": Case.Kind.choices,
            "ruled_rows": list(zip(names, (case.ruling or {}).get("scores", []), strict=False)),
        },
    )


def _back(case: Case, anchor: str = "") -> HttpResponse:
    response = redirect("referee:case", pk=case.pk)
    response["Location"] += anchor
    return response


@login_required
@require_POST
def set_record(request: HttpRequest, pk: int) -> HttpResponse:
    case = _case(request, pk)
    try:
        record = _record_from(request)
        if record is None:
            raise LedgerError(_("Paste the record or choose a file."))
        services.set_record(user=request.user, case=case, record=record)
    except LedgerError as exc:
        messages.error(request, exc.message)
    return _back(case, "#verdict")


@login_required
@require_POST
def deal(request: HttpRequest, pk: int) -> HttpResponse:
    case = _case(request, pk)
    seed = request.POST.get("seed", "").strip()
    try:
        if not seed.isdigit():
            raise LedgerError(_("The deal's seed is a whole number."))
        services.start_deal(user=request.user, case=case, seed=int(seed))
    except LedgerError as exc:
        messages.error(request, exc.message)
    return _back(case, "#builder")


@login_required
@require_POST
def step(request: HttpRequest, pk: int) -> HttpResponse:
    case = _case(request, pk)
    try:
        services.add_step(
            user=request.user,
            case=case,
            action=request.POST.get("action", ""),  # type: ignore[arg-type]
            as_played=request.POST.get("as_played") == "1",
        )
    except LedgerError as exc:
        messages.error(request, exc.message)
    return _back(case, "#builder")


@login_required
@require_POST
def undo(request: HttpRequest, pk: int) -> HttpResponse:
    case = _case(request, pk)
    try:
        services.undo_step(user=request.user, case=case)
    except LedgerError as exc:
        messages.error(request, exc.message)
    return _back(case, "#builder")


def _scores_spec(text: str) -> Any:
    """'rules', 'table', a level, or numbers separated by commas or spaces."""
    text = text.strip()
    if text in ("table", "rules", "plus", "average", "minus", ""):
        return text or "rules"
    # Italian decimals use a comma: "1,5 2,5" splits on spaces, "10,-10,10,-10" on commas.
    if ";" in text or any(c.isspace() for c in text):
        return [p for p in text.replace(";", " ").split() if p]
    return [p for p in text.split(",") if p]


def ruling_params(post: Any, kind: str, seats: int) -> dict[str, Any]:
    """The ruling's parameters from the form."""
    if kind == Case.Kind.ASSIGNED:
        return {"scores": _scores_spec(post.get("assigned", "rules"))}
    if kind == Case.Kind.ARTIFICIAL:
        return {"seats": [post.get(f"artificial_{i}", "average") for i in range(seats)]}
    if kind == Case.Kind.SPLIT:
        return {"seats": [post.get(f"split_{i}", "table").strip() for i in range(seats)]}
    if kind == Case.Kind.WEIGHTED:
        outcomes = []
        for n in range(4):
            weight = post.get(f"weight_{n}", "").strip()
            scores = post.get(f"outcome_{n}", "").strip()
            if weight or scores:
                outcomes.append({"weight": weight, "scores": _scores_spec(scores)})
        return {"outcomes": outcomes}
    return {}


@login_required
@require_POST
def rule(request: HttpRequest, pk: int) -> HttpResponse:
    case = _case(request, pk)
    kind = request.POST.get("kind", "")
    seats = len(case.result.scores) if case.result is not None else 0
    try:
        new = services.rule(
            user=request.user,
            case=case,
            kind=kind,
            params=ruling_params(request.POST, kind, seats),
            note=request.POST.get("note", "").strip(),
        )
    except LedgerError as exc:
        messages.error(request, exc.message)
        return _back(case, "#ruling")
    messages.success(
        request,
        _("Ruling recorded as correction #%(n)d; the earlier version is kept.") % {"n": new.pk},
    )
    return _back(case, "#ruled")


@login_required
@require_POST
def link(request: HttpRequest, pk: int) -> HttpResponse:
    case = _case(request, pk)
    wanted = request.POST.get("result", "").strip().lstrip("#")
    result = Result.objects.filter(
        pk=int(wanted) if wanted.isdigit() else 0, competition=case.competition
    ).first()
    try:
        if result is None:
            raise LedgerError(_("No result #%(n)s in this competition.") % {"n": wanted})
        services.link_result(user=request.user, case=case, result=result)
    except LedgerError as exc:
        messages.error(request, exc.message)
    return _back(case, "#ruling")


@login_required
def artificial(request: HttpRequest, competition: int) -> HttpResponse:
    comp = get_object_or_404(
        Competition.objects.select_related("club"),
        pk=competition,
        club__in=_referee_clubs(request.user),
    )
    current = ArtificialScores.for_competition(comp)
    if request.method == "POST":
        values = [request.POST.get(n, "") for n in ("average_plus", "average", "average_minus")]
        try:
            services.set_artificial(user=request.user, competition=comp, values=values)
        except LedgerError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("Artificial scores saved."))
            return redirect("referee:artificial", competition=comp.pk)
    return render(request, "referee/artificial.html", {"competition": comp, "artificial": current})
