"""One result: its versions, confirmation (second person, blind re-entry, sign-off at the
table), disputes with both versions side by side, and corrections with a preview of what
they change downstream."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.dateparse import parse_date
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST
from django_ratelimit.core import get_usage

from ledger.clubs.errors import LedgerError, NotAllowed
from ledger.clubs.games import declared_facts
from ledger.clubs.models import Competition, Dispute, Player, Result, Role
from ledger.clubs.office.visibility import viewer_of
from ledger.clubs.results import selectors, services
from ledger.referee import services as referee
from ledger.referee.models import Case
from ledger.web.scoring_views import (
    WAITS,
    _detail,
    _entry_form,
    _evaluate,
    _forms,
    _mode,
    prefilled,
)


def _result(club: str, slug: str, pk: int) -> Result:
    return get_object_or_404(
        Result.objects.select_related(
            "competition__club", "table", "entered_by", "confirmed_by", "supersedes", "voided_by"
        ).prefetch_related("table__seats__player"),
        pk=pk,
        competition__club__slug=club,
        competition__slug=slug,
    )


def _versions(result: Result) -> list[Result]:
    """Every version of this result, oldest first."""
    chain = [result]
    while chain[0].supersedes_id:
        earlier = Result.objects.select_related("entered_by", "confirmed_by").get(
            pk=chain[0].supersedes_id
        )
        chain.insert(0, earlier)
    current = result
    while True:
        later = (
            Result.objects.select_related("entered_by", "confirmed_by")
            .filter(supersedes=current)
            .first()
        )
        if later is None:
            break
        chain.append(later)
        current = later
    return chain


def _seated(result: Result, user: Any) -> bool:
    return bool(
        getattr(user, "is_authenticated", False)
        and result.table.seats.filter(player__user=user).exists()
    )


def result_page(request: HttpRequest, club: str, slug: str, pk: int) -> HttpResponse:
    result = _result(club, slug, pk)
    competition = result.competition
    user = request.user
    mode = competition.confirmation
    pending = result.status == Result.Status.PENDING
    # Who must confirm and why; to whoever may not, why not (the rules of confirm_result).
    cannot_confirm = selectors.why_not_confirm(user, result) if pending else None
    may_confirm = pending and cannot_confirm is None
    if not user.is_authenticated:
        cannot_confirm = None  # a visitor is told who confirms, not asked to log in
    blind_form = None
    if may_confirm and mode == Competition.Confirmation.BLIND:
        blind_form, _seats = _forms(competition, result.table, None)
    dispute = Dispute.objects.filter(result=result).first()
    seats = list(result.table.seats.all())
    viewer = viewer_of(request)
    hide = not viewer.may_see(result)
    versions = _versions(result)
    for v in versions:
        v.hidden = not viewer.may_see(v)
    may_contest, contest_closed = referee.may_contest(user, result)
    # The cases on this result, and the ruling that wrote it (results and cases link both ways).
    cases = list(
        Case.objects.filter(result__in=[v.pk for v in versions]).select_related("correction")
    )
    return render(
        request,
        "web/result.html",
        {
            "result": result,
            "competition": competition,
            "seats": seats,
            "scored": _by_seat(seats, result.scores),
            # What happened, in words (the engine's detail: dealer, declarations, card
            # points, scontri, challenges, sfide), for whoever may see the scores.
            "detail": None if hide else _detail(competition.game, result.source, result.verdict),
            # What the scorekeeper declared, in words, as the game says it (GAME.describe:
            # dealer, bidding and card points; scontri; challenges; colours; sfide), for
            # whoever may see the scores: what the players who confirm it check.
            "declared": []
            if hide
            else declared_facts(
                competition.game,
                result.verdict,
                [s.player.name for s in sorted(seats, key=lambda s: s.index)],
            ),
            "names": [(s.index, s.player.name) for s in seats],
            # A forfeit: who did not play, and the referee's reason (never hidden: no
            # scores to seal, and the decision counts at once).
            "forfeit": _forfeit(result, seats),
            "waits": WAITS.get(mode) if pending else None,
            # Naming who may sign off tells who lost: only to those who may see the result.
            "who_confirms": selectors.who_confirms(result, reveal=not hide) if pending else "",
            "cannot_confirm": cannot_confirm,
            # Sign-off on this phone: each seated player types a PIN of their own.
            "pin_signers": selectors.pin_signers(result)
            if user.is_authenticated and not hide
            else [],
            "more_to_confirm": may_confirm
            and selectors.confirmable(user, competition).exclude(pk=result.pk).exists(),
            "versions": versions,
            "may_confirm": may_confirm and mode != Competition.Confirmation.BLIND,
            "blind_form": blind_form,
            # Sealed until confirmed: see ledger/clubs/office/visibility.py.
            "hide_scores": hide,
            "may_contest": may_contest,
            "contest_kept": getattr(request, "contest_error", ("", ""))[0],
            "contest_error": getattr(request, "contest_error", ("", ""))[1],
            "contest_closed": contest_closed,
            "contest_deadline": referee.contest_deadline(result),
            "cases": cases,
            "is_referee": competition.club.allows(user, Role.REFEREE),
            "may_correct": result.status in (Result.Status.ACCEPTED, Result.Status.PENDING)
            and competition.club.allows(user, Role.REFEREE),
            # Voiding: the organisers and referees, for any version that has not been
            # replaced or voided (services.void_result).
            "may_void": result.status in selectors.VOIDABLE
            and competition.club.allows(user, Role.REFEREE),
            "void_kept": getattr(request, "void_error", ("", ""))[0],
            "void_error": getattr(request, "void_error", ("", ""))[1],
            "void_preview": getattr(request, "void_preview", None),
            "dispute": dispute,
            "dispute_scores": _by_seat(seats, dispute.other_scores or [])
            if dispute and viewer.sees_every_result(result.club_id)
            else [],
            "may_rule": dispute is not None
            and dispute.ruling == Dispute.Ruling.OPEN
            and not any(c.status == Case.Status.OPEN for c in cases)
            and competition.club.allows(user, Role.REFEREE),
        },
    )


def _by_seat(seats: list[Any], scores: list[Any]) -> list[tuple[Any, Any]]:
    return [(s, scores[s.index] if s.index < len(scores) else "") for s in seats]


def pending_results(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    """The results of a competition waiting for confirmation that the visitor may confirm,
    ticked, confirmed together in one write: a night's (``?day=``) or an import's
    (``?imported=1``) at once."""
    competition = get_object_or_404(
        Competition.objects.select_related("club"), club__slug=club, slug=slug
    )
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    results = selectors.confirmable(request.user, competition)
    imported = request.GET.get("imported") == "1"
    if imported:
        results = results.filter(source=Result.Source.IMPORT)
    day = parse_date(request.GET.get("day") or "")
    if day:
        results = results.filter(entered_at__date=day)
    error = ""
    ticked: set[int] = set()
    if request.method == "POST":
        ticked = {int(i) for i in request.POST.getlist("results") if i.isdigit()}
        try:
            done = services.confirm_results(
                user=request.user, competition=competition, ids=sorted(ticked)
            )
        except LedgerError as exc:
            error = exc.message
        else:
            messages.success(
                request,
                ngettext(
                    "%(n)d result confirmed: it now counts in the standings.",
                    "%(n)d results confirmed: they now count in the standings.",
                    len(done),
                )
                % {"n": len(done)},
            )
            return redirect("competition", club=club, slug=slug)
    rows = list(results)
    viewer = viewer_of(request)
    for r in rows:
        r.hidden = not viewer.may_see(r)
        r.ticked = not ticked or r.pk in ticked
        r.named = [
            (
                s.player.name,
                "?" if r.hidden else (r.scores[s.index] if s.index < len(r.scores) else ""),
            )
            for s in r.table.seats.all()
        ]
    return render(
        request,
        "web/pending_results.html",
        {
            "competition": competition,
            "rows": rows,
            "error": error,
            "imported": imported,
            "day": day,
            "blind": competition.confirmation == Competition.Confirmation.BLIND,
        },
        status=400 if error else 200,
    )


@login_required
@require_POST
def set_pin(request: HttpRequest, club: str, player_id: int) -> HttpResponse:
    """A player sets or removes their own sign-off PIN from their page."""
    person = get_object_or_404(Player, pk=player_id, memberships__club__slug=club)
    try:
        services.set_signoff_pin(user=request.user, player=person, pin=request.POST.get("pin", ""))
    except LedgerError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            _("Your sign-off PIN is set.")
            if person.signoff_pin
            else _("Your sign-off PIN is removed."),
        )
    return redirect(reverse("player", args=[club, player_id]) + "#signoff-pin")


def _done(request: HttpRequest, result: Result) -> HttpResponse:
    c = result.competition
    return redirect("result", club=c.club.slug, slug=c.slug, pk=result.pk)


@login_required
@require_POST
def confirm(request: HttpRequest, club: str, slug: str, pk: int) -> HttpResponse:
    result = _result(club, slug, pk)
    try:
        services.confirm_result(user=request.user, result=result)
    except LedgerError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Result confirmed: it now counts in the standings."))
    return _done(request, result)


# Wrong sign-off PINs allowed per result and player, and per phone's address.
PIN_FAILURES = "5/15m"


def _pin_failures(request: HttpRequest, target: str, *, count: bool) -> int:
    worst = 0
    for group, key in (("signoff-pin", lambda g, r: target), ("signoff-pin-ip", "ip")):
        usage = get_usage(request, group=group, key=key, rate=PIN_FAILURES, increment=count)
        worst = max(worst, int(usage["count"]) if usage else 0)
    return worst


@login_required
@require_POST
def sign_with_pin(request: HttpRequest, club: str, slug: str, pk: int) -> HttpResponse:
    """A seated player confirms a pending result on the scorekeeper's phone with their PIN."""
    result = _result(club, slug, pk)
    player = next(
        (p for p in selectors.pin_signers(result) if str(p.pk) == request.POST.get("player")),
        None,
    )
    if player is None:
        typed = request.POST.get("player", "")
        chosen = (
            result.table.seats.select_related("player").filter(player_id=typed).first()
            if typed.isdigit()
            else None
        )
        if chosen is not None and result.status == Result.Status.PENDING:
            # A player of the table who may not sign it off: say why, in words.
            messages.error(
                request,
                _(
                    "%(name)s cannot sign this result off: it is in their favour, or their "
                    "side entered it, or they have no sign-off PIN. A player of the side it "
                    "went against signs it off."
                )
                % {"name": chosen.player.name},
            )
        else:
            messages.error(request, _("Choose who is signing the result off."))
        return _done(request, result)
    target = f"{result.pk}:{player.pk}"
    if _pin_failures(request, target, count=False) >= 5:
        messages.error(
            request,
            _(
                "Too many wrong PINs for %(name)s: wait a quarter of an hour, or confirm "
                "another way."
            )
            % {"name": player.name},
        )
        return _done(request, result)
    try:
        services.confirm_with_pin(result=result, player=player, pin=request.POST.get("pin", ""))
    except LedgerError as exc:
        if exc.status == 400:
            _pin_failures(request, target, count=True)
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            _("%(name)s signed the result off: it now counts in the standings.")
            % {"name": player.name},
        )
    return _done(request, result)


@login_required
@require_POST
def reenter(request: HttpRequest, club: str, slug: str, pk: int) -> HttpResponse:
    result = _result(club, slug, pk)
    form, _seats = _forms(result.competition, result.table, request.POST)
    outcome = _evaluate(result.competition, result.table, form)
    if "scores" not in outcome:
        messages.error(
            request,
            outcome.get("problem") or _("The re-entry is incomplete: fill in every field."),
        )
        return _done(request, result)
    try:
        _r, dispute = services.reenter_result(
            user=request.user,
            result=result,
            source=outcome["source"],
            record=outcome["record"],
            scores=outcome["explicit"],
            scored=outcome["scored"],
        )
    except LedgerError as exc:
        messages.error(request, exc.message)
    else:
        if dispute is None:
            messages.success(request, _("The two entries agree: the result now counts."))
        else:
            messages.warning(
                request, _("The two entries differ: a referee will decide between them.")
            )
    return _done(request, result)


@login_required
@require_POST
def contest(request: HttpRequest, club: str, slug: str, pk: int) -> HttpResponse:
    """Call the referee: a case opens on the referees' queue with this result linked."""
    result = _result(club, slug, pk)
    reason = request.POST.get("reason", "")
    try:
        referee.contest(user=request.user, result=result, reason=reason)
    except NotAllowed as exc:
        messages.error(request, exc.message)
        return _done(request, result)
    except LedgerError as exc:
        # The page again, with the reason kept and the error at its field.
        return _with_contest_error(request, result, reason, exc.message)
    messages.warning(request, _("The referee is called: the case is on the referees' queue."))
    return _done(request, result)


@login_required
@require_POST
def void(request: HttpRequest, club: str, slug: str, pk: int) -> HttpResponse:
    """An organiser or referee voids the result with a reason (entered twice, the wrong
    table, a game that never happened): it stays visible, marked voided, and counts no
    more."""
    result = _result(club, slug, pk)
    reason = request.POST.get("reason", "")
    try:
        if request.POST.get("preview") == "1":
            # void_result itself, rolled back: the page shows what voiding would change.
            shown = services.preview_void(user=request.user, result=result, reason=reason)
            request.void_preview = shown  # type: ignore[attr-defined]  # kept on the request for the page drawn next
            request.void_error = (reason, "")  # type: ignore[attr-defined]  # kept on the request for the page drawn next
            return result_page(request, club, slug, pk)
        services.void_result(user=request.user, result=result, reason=reason)
    except NotAllowed as exc:
        messages.error(request, exc.message)
        return _done(request, result)
    except LedgerError as exc:
        # The page again, with the reason kept and the error at its field.
        request.void_error = (reason, exc.message)  # type: ignore[attr-defined]  # kept on the request for the page drawn next
        response = result_page(request, club, slug, pk)
        response.status_code = 400
        return response
    messages.success(
        request, _("Result voided: it no longer counts, and it stays visible with the reason.")
    )
    return _done(request, result)


def _with_contest_error(
    request: HttpRequest, result: Result, reason: str, message: str
) -> HttpResponse:
    request.contest_error = (reason, message)  # type: ignore[attr-defined]  # kept on the request for the page drawn next
    c = result.competition
    response = result_page(request, c.club.slug, c.slug, result.pk)
    response.status_code = 400
    return response


@login_required
@require_POST
def rule(request: HttpRequest, club: str, slug: str, pk: int) -> HttpResponse:
    result = _result(club, slug, pk)
    dispute = get_object_or_404(Dispute, result=result)
    try:
        counting = services.rule_dispute(
            user=request.user,
            dispute=dispute,
            ruling=request.POST.get("ruling", ""),
            note=request.POST.get("note", ""),
        )
    except LedgerError as exc:
        messages.error(request, exc.message)
        return _done(request, result)
    messages.success(request, _("Ruling recorded."))
    return _done(request, counting)


@login_required
def correct(request: HttpRequest, club: str, slug: str, pk: int) -> HttpResponse:
    """An organiser or referee replaces a result; the page first shows what changes."""
    result = _result(club, slug, pk)
    competition = result.competition
    if not competition.club.allows(request.user, Role.REFEREE):
        messages.error(request, _("Only the club's referees and organisers correct results."))
        return _done(request, result)
    if request.method == "POST":
        mode = _mode(request)
        form, seats = _entry_form(competition, result.table, request, mode)
    else:
        # The correction starts from the result being corrected, as it was typed.
        form, mode = prefilled(competition, result.table, result)
        seats = [(s.index, s.player.name) for s in result.table.seats.all()]
    reason = request.POST.get("reason", "").strip()
    outcome: dict[str, Any] = {}
    preview: dict[str, Any] | None = None
    if request.method == "POST":
        outcome = _evaluate(competition, result.table, form)
        if "scores" in outcome and not reason:
            outcome = {"problem": _("Say why the result is corrected: the reason is kept.")}
        if "scores" in outcome:
            kwargs = {
                "user": request.user,
                "result": result,
                "source": outcome["source"],
                "record": outcome["record"],
                "scores": outcome["explicit"],
                "scored": outcome["scored"],
            }
            try:
                if request.POST.get("apply") == "1":
                    new = services.supersede_result(**kwargs, reason=reason)
                    messages.success(request, _("Correction applied; the old version is kept."))
                    return _done(request, new)
                preview = services.preview_correction(**kwargs, reason=reason)
            except LedgerError as exc:
                outcome = {"problem": exc.message, "violations": exc.violations}
    return render(
        request,
        "web/correct.html",
        {
            "result": result,
            "competition": competition,
            "form": form,
            "seats": seats,
            "mode": mode,
            "scored": _by_seat(list(result.table.seats.all()), result.scores),
            "reason": reason,
            "outcome": outcome,
            "preview": preview,
        },
    )


def _forfeit(result: Result, seats: Any) -> dict[str, Any] | None:
    found = (result.verdict or {}).get("forfeit") if isinstance(result.verdict, dict) else None
    if not isinstance(found, dict):
        return None
    lost = {int(i) for i in found.get("seats") or [] if isinstance(i, int)}
    ordered = sorted(seats, key=lambda s: s.index)
    return {
        "names": [s.player.name for s in ordered if s.index in lost],
        "double": len(lost) == len(ordered),
        "reason": str(found.get("reason") or ""),
    }
