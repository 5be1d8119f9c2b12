"""Pages of an event's sign-up: the public page where people register themselves (and
withdraw), the organiser's list (settings, waiting list, payments, closing), the payment
buttons the check-in pages post to, and the treasurer's reports per event and per season.
Thin: writes go through ledger/signup/services.py, the reports through treasury.py."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from ledger.clubs.errors import LedgerError
from ledger.clubs.models import Club, Competition, Role, Season
from ledger.clubs.transfer import sheets
from ledger.signup import services, treasury
from ledger.signup.forms import PaymentForm, PersonForm, RegistrationForm
from ledger.signup.models import Payment, Registration, SignUp


def _competition(club: str, slug: str) -> Competition:
    return get_object_or_404(Competition.objects.select_related("club"), club__slug=club, slug=slug)


def _gate(request: HttpRequest, competition: Competition) -> HttpResponse | None:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not competition.club.allows(request.user, Role.ORGANISER):
        return render(request, "signup/forbidden.html", {"competition": competition}, status=403)
    return None


def _errors_into(form: Any, error: LedgerError) -> None:
    placed = False
    for name, errs in (error.fields or {}).items():
        if name in form.fields:
            for message in errs if isinstance(errs, list) else [errs]:
                form.add_error(name, str(message))
            placed = True
    if not placed:
        form.add_error(None, error.message)


def _registration(competition: Competition) -> Registration | None:
    return Registration.objects.filter(competition=competition).first()


def _args(competition: Competition) -> list[str]:
    return [competition.club.slug, competition.slug]


# --- the event's page: people sign themselves up ---------------------------------------


@never_cache
@require_http_methods(["GET", "POST"])
def signup_page(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    competition = _competition(club, slug)
    registration = _registration(competition)
    form = PersonForm(request.POST or None)
    near: list[str] = []
    status = 200
    mine = None
    if registration is not None and request.user.is_authenticated:
        mine = (
            registration.signups.exclude(status=SignUp.Status.WITHDRAWN)
            .filter(user=request.user)
            .first()
        )
    if request.method == "POST" and registration is not None:
        if request.POST.get("action") == "withdraw" and mine is not None:
            try:
                services.withdraw(user=request.user, signup=mine)
                messages.success(request, _("You have withdrawn from %(e)s.") % {"e": competition})
            except LedgerError as error:
                messages.error(request, error.message)
            return redirect(reverse("signup", args=_args(competition)))
        if form.is_valid():
            data = form.cleaned_data
            person = services.Person(
                name=data["name"],
                email=data["email"],
                card=data["card"],
                junior=data["junior"],
                not_them=data["not_them"],
            )
            try:
                done = services.sign_up(user=request.user, competition=competition, person=person)
            except services.DidYouMean as error:
                near = error.names
                _errors_into(form, error)
                status = 400
            except LedgerError as error:
                _errors_into(form, error)
                status = error.status
            else:
                if done.status == SignUp.Status.REGISTERED:
                    text = _("%(name)s, you are registered for %(e)s.")
                else:
                    text = _("%(name)s, the event is full: you are on the waiting list.")
                messages.success(request, text % {"name": done.name, "e": competition.name})
                return redirect(reverse("signup", args=_args(competition)) + f"?done={done.pk}")
        else:
            status = 400
    signups = list(registration.signups.all()) if registration is not None else []
    return render(
        request,
        "signup/signup.html",
        {
            "competition": competition,
            "registration": registration,
            "open": registration is not None and registration.is_open(),
            "form": form,
            "near": near,
            "mine": mine,
            "registered": [s for s in signups if s.status == SignUp.Status.REGISTERED],
            "waiting": [s for s in signups if s.status == SignUp.Status.WAITING],
            "left": services.places_left(registration) if registration is not None else None,
            "organiser": competition.club.allows(request.user, Role.ORGANISER),
            "needs_name": not getattr(getattr(request.user, "player", None), "pk", None),
            "needs_email": not request.user.is_authenticated,
        },
        status=status,
    )


# --- the organiser's list ----------------------------------------------------------------


def _initial(registration: Registration | None) -> dict[str, Any]:
    if registration is None:
        return {"who": Registration.Who.MEMBERS, "fee": "0"}
    return {
        "who": registration.who,
        "cap": registration.cap,
        "opens_at": registration.opens_at,
        "closes_at": registration.closes_at,
        "card_required": registration.card_required,
        "fee": registration.fee,
        "fee_member": registration.fee_member,
        "fee_junior": registration.fee_junior,
    }


@never_cache
@require_http_methods(["GET", "POST"])
def manage(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    competition = _competition(club, slug)
    refused = _gate(request, competition)
    if refused:
        return refused
    registration = _registration(competition)
    action = request.POST.get("action", "") if request.method == "POST" else ""
    settings_form = RegistrationForm(
        request.POST if action == "settings" else None, initial=_initial(registration)
    )
    add_form = PersonForm(request.POST if action == "add" else None, prefix="add")
    near: list[str] = []
    status = 200
    here = reverse("signup-manage", args=_args(competition))
    if action == "settings":
        if settings_form.is_valid():
            data = settings_form.cleaned_data
            try:
                services.save_registration(
                    user=request.user,
                    competition=competition,
                    data=services.Settings(
                        who=data["who"],
                        cap=data["cap"],
                        opens_at=data["opens_at"],
                        closes_at=data["closes_at"],
                        card_required=data["card_required"],
                        fee=data["fee"],
                        fee_member=data["fee_member"],
                        fee_junior=data["fee_junior"],
                    ),
                )
                messages.success(request, _("Registration saved."))
                return redirect(here)
            except LedgerError as error:
                _errors_into(settings_form, error)
        status = 400
    elif action == "add":
        if add_form.is_valid():
            data = add_form.cleaned_data
            try:
                done = services.sign_up(
                    user=request.user,
                    competition=competition,
                    person=services.Person(
                        name=data["name"],
                        email=data["email"],
                        card=data["card"],
                        junior=data["junior"],
                        not_them=data["not_them"],
                    ),
                    by_organiser=True,
                )
                messages.success(
                    request,
                    _("%(name)s added (%(status)s).")
                    % {"name": done.name, "status": done.get_status_display().lower()},
                )
                return redirect(here)
            except services.DidYouMean as error:
                near = error.names
                _errors_into(add_form, error)
            except LedgerError as error:
                _errors_into(add_form, error)
        status = 400
    elif action in ("withdraw", "move-up", "close"):
        try:
            if action == "close":
                players = services.close_registration(user=request.user, competition=competition)
                messages.success(
                    request,
                    _("Registration closed: %(n)d entrants in the competition.")
                    % {"n": len(players)},
                )
            else:
                signup = get_object_or_404(
                    SignUp, pk=request.POST.get("signup") or 0, registration=registration
                )
                if action == "withdraw":
                    moved = services.withdraw(user=request.user, signup=signup)
                    messages.success(request, _("%(name)s withdrawn.") % {"name": signup.name})
                    for m in moved:
                        messages.info(
                            request,
                            _("%(name)s moves up from the waiting list.") % {"name": m.name},
                        )
                else:
                    services.move_up(user=request.user, signup=signup)
                    messages.success(request, _("%(name)s has a place.") % {"name": signup.name})
        except LedgerError as error:
            messages.error(request, error.message)
        return redirect(here)
    rows = list(services.fees_of_all(registration)) if registration is not None else []
    return render(
        request,
        "signup/manage.html",
        {
            "competition": competition,
            "registration": registration,
            "settings_form": settings_form,
            "add_form": add_form,
            "near": near,
            "registered": [s for s in rows if s.status == SignUp.Status.REGISTERED],
            "waiting": [s for s in rows if s.status == SignUp.Status.WAITING],
            "withdrawn": [s for s in rows if s.status == SignUp.Status.WITHDRAWN],
            "left": services.places_left(registration) if registration is not None else None,
            "methods": Payment.Method.choices,
            "log": list(registration.log.select_related("signup", "by").order_by("-pk")[:30])
            if registration is not None
            else [],
        },
        status=status,
    )


def _back(request: HttpRequest, default: str) -> str:
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return default


@require_POST
def payment(request: HttpRequest, club: str, slug: str, pk: int) -> HttpResponse:
    """A payment or a refund, from the organiser's list or the check-in pages."""
    competition = _competition(club, slug)
    refused = _gate(request, competition)
    if refused:
        return refused
    signup = get_object_or_404(SignUp, pk=pk, registration__competition=competition)
    form = PaymentForm(request.POST)
    back = _back(request, reverse("signup-manage", args=_args(competition)))
    if not form.is_valid():
        for errs in form.errors.values():
            messages.error(request, f"{signup.name}: {' '.join(str(e) for e in errs)}")
        return redirect(back)
    data = form.cleaned_data
    try:
        if request.POST.get("action") == "refund":
            done = services.refund(
                user=request.user, signup=signup, method=data["method"], amount=data["amount"]
            )
            text = _("%(amount)s € given back to %(name)s (%(method)s).")
        else:
            done = services.pay(
                user=request.user, signup=signup, method=data["method"], amount=data["amount"]
            )
            text = _("%(amount)s € paid by %(name)s (%(method)s).")
        messages.success(
            request,
            text
            % {
                "amount": abs(done.amount),
                "name": signup.name,
                "method": done.get_method_display().lower(),
            },
        )
    except LedgerError as error:
        messages.error(request, error.message)
    return redirect(back)


# --- the treasurer's reports -------------------------------------------------------------


def _download(report: treasury.Report, kind: str, filename: str, club: Club) -> HttpResponse:
    if kind == "csv":
        response = HttpResponse(treasury.as_csv(report), content_type="text/csv; charset=utf-8")
    elif kind == "pdf":
        response = HttpResponse(treasury.as_pdf(report, club.name), content_type="application/pdf")
    elif kind in sheets.CONTENT_TYPES:
        response = HttpResponse(
            treasury.as_workbook(report, kind), content_type=sheets.CONTENT_TYPES[kind]
        )
    else:
        raise Http404(_("No such kind of file."))
    response["Content-Disposition"] = f'attachment; filename="{filename}.{kind}"'
    return response


@never_cache
def report(request: HttpRequest, club: str, slug: str, kind: str = "") -> HttpResponse:
    competition = _competition(club, slug)
    refused = _gate(request, competition)
    if refused:
        return refused
    the_report = treasury.event_report(competition)
    if kind:
        name = f"{competition.club.slug}-{competition.slug}-fees"
        return _download(the_report, kind, name, competition.club)
    return render(
        request,
        "signup/report.html",
        {
            "competition": competition,
            "club": competition.club,
            "report": the_report,
            "season": competition.season,
            "kinds": ["csv", "xlsx", "ods", "pdf"],
        },
    )


@never_cache
def season_report(request: HttpRequest, club: str, season: int, kind: str = "") -> HttpResponse:
    the_club = get_object_or_404(Club, slug=club)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not the_club.allows(request.user, Role.ORGANISER):
        return render(request, "signup/forbidden.html", {"club": the_club}, status=403)
    the_season = get_object_or_404(Season, pk=season, club=the_club)
    the_report = treasury.season_report(the_season)
    if kind:
        name = f"{the_club.slug}-{the_season.name}-fees"
        return _download(the_report, kind, name, the_club)
    return render(
        request,
        "signup/report.html",
        {
            "club": the_club,
            "report": the_report,
            "season": the_season,
            "kinds": ["csv", "xlsx", "ods", "pdf"],
        },
    )
