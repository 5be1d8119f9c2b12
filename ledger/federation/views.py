"""The federation's office pages, phone-first: the federations (found one), a federation's
page (its member clubs, applications, tiers, card seasons, sanctioned competitions and
officers, each officer's form beside what it changes), and a season's cards with the import
of the federation's list. Thin: writes go through services.py and cards.py."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from ledger.clubs.errors import LedgerError
from ledger.clubs.models import Club, Competition, Membership, Role
from ledger.federation import cards, rankings, services
from ledger.federation.models import Card, CardSeason, Federation, MemberClub, Sanction, Tier
from ledger.hub import selectors as hub_selectors


def _problem(error: LedgerError) -> tuple[str, dict[str, str]]:
    fields = {
        name: str(errs[0] if isinstance(errs, list) and errs else errs)
        for name, errs in (error.fields or {}).items()
    }
    return error.message, fields


@never_cache
def federations(request: HttpRequest) -> HttpResponse:
    typed: dict[str, str] = {}
    problem, at = "", dict[str, str]()
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        typed = {"name": request.POST.get("name", ""), "region": request.POST.get("region", "")}
        try:
            made = services.found(user=request.user, name=typed["name"], region=typed["region"])
        except LedgerError as error:
            problem, at = _problem(error)
        else:
            messages.success(request, _("Federation %(name)s founded.") % {"name": made.name})
            return redirect("federation", made.slug)
    return render(
        request,
        "federation/list.html",
        {
            "federations": Federation.objects.all(),
            "typed": typed,
            "problem": problem,
            "at": at,
        },
        status=400 if problem else 200,
    )


def _organised_clubs(user: Any) -> list[Club]:
    if not user.is_authenticated:
        return []
    ids = Membership.objects.filter(player__user=user, role=Role.ORGANISER).values_list(
        "club_id", flat=True
    )
    return list(Club.objects.filter(pk__in=list(ids)).order_by("name"))


@never_cache
def federation(request: HttpRequest, slug: str) -> HttpResponse:
    the = get_object_or_404(Federation, slug=slug)
    officer = request.user.is_authenticated and (
        request.user.is_superuser or the.is_officer(request.user)
    )
    typed = {k: str(v) for k, v in request.POST.items() if k != "csrfmiddlewaretoken"}
    problem, at, form = "", dict[str, str](), request.POST.get("action", "")
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        try:
            said = _act(request, the, form)
        except LedgerError as error:
            problem, at = _problem(error)
        else:
            messages.success(request, said)
            return redirect("federation", the.slug)
    members = list(the.clubs.select_related("club"))
    approved = [m for m in members if m.status == MemberClub.Status.APPROVED]
    mine = _organised_clubs(request.user)
    synced = hub_selectors.syncs([m.club_id for m in approved])
    joined = {m.club_id for m in members if m.status != MemberClub.Status.REFUSED}
    return render(
        request,
        "federation/federation.html",
        {
            "federation": the,
            "officer": officer,
            "members": approved,
            # Each member club's journal as the hub holds it (a venue that syncs).
            "syncs": [(m, synced[m.club_id]) for m in approved if m.club_id in synced],
            "applications": [m for m in members if m.status == MemberClub.Status.APPLIED],
            "may_apply": [c for c in mine if c.pk not in joined],
            "tiers": list(the.tiers.all()),
            "missing_choices": Tier.MissingCard.choices,
            "seasons": list(the.seasons.all()),
            "sanctioned": list(
                Sanction.objects.filter(tier__federation=the)
                .select_related("competition__club", "tier")
                .order_by("competition__club__name", "competition__name")
            ),
            "competitions": list(
                Competition.objects.filter(club_id__in=[m.club_id for m in approved])
                .select_related("club")
                .order_by("club__name", "name")
            )
            if officer
            else [],
            "officers": list(the.officers.select_related("user")),
            "rules": rankings.rules_of(the.pk),
            "typed": typed,
            "problem": problem,
            "at": at,
            "form": form,
        },
        status=400 if problem else 200,
    )


def _date(text: str) -> Any:
    return cards.read_day(text) if text.strip() else None


def _act(request: HttpRequest, the: Federation, form: str) -> str:
    post, user = request.POST, request.user
    if form == "apply":
        club = get_object_or_404(Club, pk=post.get("club") or 0)
        services.apply(user=user, federation=the, club=club)
        return _("%(club)s has applied; an officer of the federation will decide.") % {
            "club": club.name
        }
    if form in ("approve", "refuse"):
        membership = get_object_or_404(MemberClub, pk=post.get("membership") or 0, federation=the)
        services.decide(user=user, membership=membership, approve=form == "approve")
        if form == "approve":
            return _("%(club)s is a member club.") % {"club": membership.club.name}
        return _("%(club)s's application was refused.") % {"club": membership.club.name}
    if form == "tier":
        tier = services.add_tier(
            user=user,
            federation=the,
            name=post.get("name", ""),
            weight=post.get("weight", ""),
            missing_card=post.get("missing_card", ""),
        )
        return _("Tier %(name)s added.") % {"name": tier.name}
    if form == "season":
        season = services.add_season(
            user=user,
            federation=the,
            name=post.get("name", ""),
            starts=_date(post.get("starts", "")),
            ends=_date(post.get("ends", "")),
        )
        return _("Card season %(name)s added: import its cards from its page.") % {
            "name": season.name
        }
    if form == "sanction":
        tier = get_object_or_404(Tier, pk=post.get("tier") or 0, federation=the)
        competition = get_object_or_404(Competition, pk=post.get("competition") or 0)
        services.sanction(user=user, tier=tier, competition=competition)
        return _("%(competition)s is sanctioned at the %(tier)s tier.") % {
            "competition": competition.name,
            "tier": tier.name,
        }
    if form == "rules":
        services.set_ranking_rules(
            user=user,
            federation=the,
            best=post.get("best", ""),
            months=post.get("months", ""),
            place_points=post.get("place_points", ""),
        )
        return _("The points ranking's rules are saved: the rankings are being rebuilt.")
    if form == "province":
        membership = get_object_or_404(MemberClub, pk=post.get("membership") or 0, federation=the)
        services.set_province(user=user, membership=membership, province=post.get("province", ""))
        return _("%(club)s's province is saved.") % {"club": membership.club.name}
    if form == "token":
        membership = get_object_or_404(MemberClub, pk=post.get("membership") or 0, federation=the)
        token = services.issue_upload_token(user=user, membership=membership)
        return _(
            "The upload token of %(club)s is %(token)s. Copy it now into the venue's office "
            "(Sync to the hub): the hub keeps only its fingerprint and cannot show it again."
        ) % {"club": membership.club.name, "token": token}
    if form == "officer":
        officer = services.add_officer(user=user, federation=the, username=post.get("username", ""))
        return _("%(user)s is an officer.") % {"user": officer.user.get_username()}
    raise LedgerError(_("Nothing to do."))


@login_required
@never_cache
def season(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    the = get_object_or_404(Federation, slug=slug)
    chosen = get_object_or_404(CardSeason, pk=pk, federation=the)
    officer = request.user.is_superuser or the.is_officer(request.user)
    problem, at = "", dict[str, str]()
    imported: cards.Imported | None = None
    if request.method == "POST":
        upload = request.FILES.get("file")
        try:
            if upload is None:
                raise LedgerError(
                    _("Choose the federation's list: CSV, .xlsx or .ods."),
                    fields={"file": [_("Required.")]},
                )
            imported = cards.import_cards(user=request.user, season=chosen, raw=upload.read())
        except LedgerError as error:
            problem, at = _problem(error)
        else:
            if not imported.errors:
                messages.success(
                    request,
                    _(
                        "%(understood)s: %(created)d cards added, %(updated)d brought up to "
                        "date, %(linked)d matched to a member club's player."
                    )
                    % {
                        "understood": imported.understood,
                        "created": imported.created,
                        "updated": imported.updated,
                        "linked": imported.linked,
                    },
                )
                return redirect("federation-season", the.slug, chosen.pk)
    today = timezone.localdate()
    listed = list(
        Card.objects.filter(season=chosen).select_related("player").order_by("number")[:500]
    )
    return render(
        request,
        "federation/season.html",
        {
            "federation": the,
            "season": chosen,
            "officer": officer,
            "cards": listed,
            "count": Card.objects.filter(season=chosen).count(),
            "valid": Card.objects.filter(
                season=chosen, valid_from__lte=today, valid_until__gte=today
            ).count(),
            "imported": imported,
            "problem": problem,
            "at": at,
        },
        status=400 if problem or (imported and imported.errors) else 200,
    )
