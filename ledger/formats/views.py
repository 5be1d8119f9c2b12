"""Pages of competition formats: the organiser's round page, public round pages, a screen
view, Swiss tiebreaks, the TRF file and the knockout bracket. Thin: reads through
services' selectors, writes through services."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods

from ledger.clubs.errors import Invalid, LedgerError
from ledger.clubs.games import hand_words
from ledger.clubs.models import Competition, Player, Role, Season, Table
from ledger.formats import selectors, services, stages
from ledger.formats.blockers import blockers
from ledger.formats.models import Draw, Entrant, ForbiddenPair, KnockoutMatch


def _competition(club: str, slug: str) -> Competition:
    return get_object_or_404(Competition.objects.select_related("club"), club__slug=club, slug=slug)


def _int(value: Any, name: str) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise LedgerError(
            _("%(name)s must be a whole number.") % {"name": name}, fields={name: ["?"]}
        ) from None


def _player(competition: Competition, value: Any, name: str = "player") -> Player:
    pk = _int(value, name)
    player = Player.objects.filter(pk=pk, memberships__club=competition.club).first()
    if player is None:
        raise LedgerError(_("Choose a member of the club."), fields={name: ["?"]})
    return player


@require_http_methods(["GET", "POST"])
def manage(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    competition = _competition(club, slug)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not competition.club.allows(request.user, Role.ORGANISER):
        return render(
            request,
            "formats/forbidden.html",
            {"competition": competition},
            status=403,
        )
    if request.method == "POST":
        try:
            note = _act(request, competition)
            if note:
                messages.success(request, note)
        except LedgerError as error:
            messages.error(request, error.message)
            if request.POST.get("action") == "settings":
                # The settings form again, as typed, with the error at its field.
                context = _manage_context(competition)
                context["typed"].update(_typed_settings(request.POST))
                context["setting_errors"] = {name: [error.message] for name in error.fields or {}}
                return render(request, "formats/manage.html", context, status=400)
        anchor = request.POST.get("anchor", "")
        return redirect(reverse("formats-manage", args=[club, slug]) + anchor)
    return render(request, "formats/manage.html", _manage_context(competition))


#: The settings' names as the form labels them, for an error that names its field.
SETTING_LABELS = {
    "seats_per_table": gettext_lazy("Seats per table"),
    "rounds": gettext_lazy("Rounds"),
    "bye_points": gettext_lazy("Points for a bye"),
    "exact_limit": gettext_lazy("Exact FIDE Dutch up to"),
    "initial_side": gettext_lazy("Top seed's side in round 1"),
    "cycles": gettext_lazy("Cycles"),
    "best_of": gettext_lazy("Best of"),
    "third_place": gettext_lazy("Match for third place"),
}


def _setting_label(competition: Competition, name: str) -> str:
    if name == "hands_per_table":  # labelled with the game's own word ("Smazzate per tavolo")
        return _("%(words)s per table") % {"words": hand_words(competition.game)[1].capitalize()}
    return str(SETTING_LABELS.get(name, name))


def _typed_settings(post: Any) -> dict[str, Any]:
    """The settings as typed (whole numbers read as such, so that a choice stays chosen)."""
    typed: dict[str, Any] = {}
    for name in services.SETTING_FIELDS:
        if name in post:
            value = post[name].strip()
            typed[name] = int(value) if value.lstrip("-").isdigit() else value
    return typed


def _act(request: HttpRequest, competition: Competition) -> str:
    post = request.POST
    user = request.user
    action = post.get("action", "")
    if action == "settings":
        values: dict[str, Any] = {}
        for name in services.SETTING_FIELDS:
            if name == "bye_points" and name in post and post[name].strip() == "":
                values[name] = None  # empty: a bye is worth a win
            elif post.get(name, "") != "":
                if name == "bye_points":
                    try:
                        values[name] = Decimal(post[name])
                    except InvalidOperation:
                        raise LedgerError(
                            _("Points for a bye: give a number."), fields={name: ["?"]}
                        ) from None
                else:
                    try:
                        values[name] = int(post[name])
                    except ValueError:
                        raise LedgerError(
                            _("%(label)s: give a whole number.")
                            % {"label": _setting_label(competition, name)},
                            fields={name: ["?"]},
                        ) from None
        services.update_settings(user=user, competition=competition, **values)
        return _("Settings saved.")
    if action == "enter":
        player = _player(competition, post.get("player"))
        rating = _int(post.get("rating") or 0, "rating")
        services.enter_player(user=user, competition=competition, player=player, rating=rating)
        return _("%(name)s is entered.") % {"name": player.name}
    if action == "withdraw":
        player = _player(competition, post.get("player"))
        services.withdraw_player(user=user, competition=competition, player=player)
        return _("%(name)s is withdrawn.") % {"name": player.name}
    if action == "absent":
        player = _player(competition, post.get("player"))
        services.mark_absent(
            user=user,
            competition=competition,
            round_number=_int(post.get("round"), "round"),
            player=player,
            absent=post.get("absent", "1") == "1",
        )
        return _("Attendance updated.")
    if action == "forbid":
        first = _player(competition, post.get("first"), "first")
        second = _player(competition, post.get("second"), "second")
        services.forbid_pair(
            user=user,
            competition=competition,
            first=first,
            second=second,
            hard=post.get("hard") == "1",
            reason=post.get("reason", "")[:120],
        )
        return _("Pairing rule saved.")
    if action == "allow":
        pair = get_object_or_404(
            ForbiddenPair, pk=_int(post.get("pair"), "pair"), competition=competition
        )
        services.allow_pair(user=user, pair=pair)
        return _("Pairing rule removed.")
    if action == "team":
        members = [_player(competition, v, "members") for v in post.getlist("members") if v]
        services.create_team(
            user=user, competition=competition, name=post.get("name", ""), members=members
        )
        return _("Team created.")
    if action == "extend":
        rounds = _int(post.get("rounds") or 1, "rounds")
        done = services.extend_rounds(user=user, competition=competition, rounds=rounds)
        if competition.format == Competition.Format.ROUND_ROBIN:
            return _("The return cycle is added: %(n)d rounds are planned.") % {"n": done.planned}
        return ngettext(
            "%(added)d round added: %(n)d rounds are planned.",
            "%(added)d rounds added: %(n)d rounds are planned.",
            rounds,
        ) % {"added": rounds, "n": done.planned}
    if action == "generate":
        draw = services.generate_round(user=user, competition=competition)
        return _("Round %(n)d drafted: check it, adjust it, then publish.") % {
            "n": draw.round.number
        }
    draft = Draw.objects.filter(round__competition=competition, status=Draw.Status.DRAFT).first()
    if draft is None:
        raise LedgerError(_("There is no draft round: generate one first."))
    if action == "swap":
        first_id = _int(post.get("first"), "first")
        second_id = _int(post.get("second"), "second")
        if first_id == second_id:
            raise LedgerError(_("Choose two different players to swap."))
        warnings = services.swap_players(user=user, draw=draft, first=first_id, second=second_id)
        return _("Swapped.") + (
            " " + _("%(n)d warnings: see the draft.") % {"n": len(warnings)} if warnings else ""
        )
    if action == "publish":
        warnings = services.check_draw(competition, draft)
        if warnings and post.get("confirm") != "1":
            raise LedgerError(
                ngettext(
                    "This draft has a warning: tick “publish anyway” to publish it.",
                    "This draft has %(n)d warnings: tick “publish anyway” to publish it.",
                    len(warnings),
                )
                % {"n": len(warnings)}
            )
        services.publish_draw(user=user, draw=draft)
        return _("Round %(n)d is published: its tables are open for results.") % {
            "n": draft.round.number
        }
    raise LedgerError(_("Unknown action."))


def _manage_context(competition: Competition) -> dict[str, Any]:
    fs = selectors.settings_for(competition)
    entrants = list(
        Entrant.objects.filter(competition=competition).select_related("player").order_by("number")
    )
    entered = {e.player_id for e in entrants}
    members = list(
        Player.objects.filter(memberships__club=competition.club, automated=False)
        .order_by("name")
        .distinct()
    )
    draft = (
        Draw.objects.filter(round__competition=competition, status=Draw.Status.DRAFT)
        .select_related("round")
        .first()
    )
    next_number = services.next_round_number(competition)
    absent = set(
        competition.absences.filter(round_number=next_number).values_list("player_id", flat=True)
    )
    draft_view = selectors.round_view(competition, draft.round.number) if draft else None
    warnings = services.check_draw(competition, draft) if draft else []
    numbers = selectors.published_numbers(competition)
    in_draft: list[dict[str, Any]] = []
    if draft_view:
        for t in draft_view["tables"]:
            for s in t["seats"]:
                in_draft.append(
                    {
                        "player": s["player"],
                        "label": f"{s['name']} ({_('table')} {t['label']}, {s['index'] + 1})",
                    }
                )
        for b in draft_view["byes"]:
            in_draft.append({"player": b["player"], "label": f"{b['name']} ({_('bye')})"})
        for b in draft_view["sitting_out"]:
            in_draft.append({"player": b["player"], "label": f"{b['name']} ({_('sits out')})"})
    return {
        "competition": competition,
        "settings": fs,
        "typed": {name: getattr(fs, name) for name in services.SETTING_FIELDS},
        "setting_errors": {},
        "table_size": selectors.table_size(competition, fs),
        "entrants": entrants,
        "candidates": [m for m in members if m.pk not in entered],
        "members": members,
        "next_number": next_number,
        "absent": absent,
        "draft": draft_view,
        "warnings": warnings,
        "in_draft": in_draft,
        "rounds": numbers,
        "forbidden": ForbiddenPair.objects.filter(competition=competition).select_related(
            "first", "second"
        ),
        "teams": competition.teams.prefetch_related("members"),
        "is_team": competition.format == Competition.Format.TEAM,
        "two_sided": selectors.table_size(competition, fs) == 2,
        "scale": selectors.swiss_scale(competition, fs),
        "progress": selectors.progress(competition),
        # Why the next round cannot start yet (results missing, disputes, check-in).
        "blockers": [] if draft else blockers(competition),
    }


def round_page(
    request: HttpRequest, club: str, slug: str, number: int | None = None
) -> HttpResponse:
    competition = _competition(club, slug)
    numbers = selectors.published_numbers(competition)
    if number is None:
        if not numbers:
            return render(
                request, "formats/round.html", {"competition": competition, "round": None}
            )
        number = numbers[-1]
    if number not in numbers:
        raise Http404(_("Round %(n)d is not published.") % {"n": number})
    view = selectors.round_view(competition, number)
    context = {
        "competition": competition,
        "round": view,
        "rounds": numbers,
        "two_sided": all(len(t["seats"]) == 2 for t in view["tables"]) if view else False,
        "is_organiser": competition.club.allows(request.user, Role.ORGANISER),
        "can_referee": competition.club.allows(request.user, Role.REFEREE),
        "hands": selectors.settings_for(competition).hands_per_table,
    }
    if request.headers.get("HX-Request"):
        return render(request, "formats/_tables.html", context)
    template = "formats/screen.html" if request.GET.get("screen") else "formats/round.html"
    return render(request, template, context)


def tiebreaks_page(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    competition = _competition(club, slug)
    return render(
        request,
        "formats/tiebreaks.html",
        {
            "competition": competition,
            # A Swiss at tables of three or more ranks by the game's points (its table is
            # the competition page's), not by pairs' tiebreaks.
            "rows": selectors.swiss_standings(competition)
            if selectors.has_swiss_table(competition)
            else [],
            "by_points": competition.format == Competition.Format.SWISS
            and selectors.table_size(competition) != 2,
            "scale": selectors.swiss_scale(competition),
        },
    )


def trf_file(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    competition = _competition(club, slug)
    response = HttpResponse(
        selectors.trf_export(competition), content_type="text/plain; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{competition.slug}.trf"'
    return response


def bracket_page(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    competition = _competition(club, slug)
    can_decide = competition.club.allows(request.user, Role.REFEREE)
    if request.method == "POST":
        if not can_decide:
            raise PermissionDenied(_("Only the club's referees name a match's winner."))
        match = get_object_or_404(
            KnockoutMatch, pk=request.POST.get("match") or 0, competition=competition
        )
        winner = Player.objects.filter(pk=request.POST.get("winner") or 0).first()
        try:
            if winner is None:
                raise Invalid(_("Choose the winner."))
            services.set_match_winner(
                user=request.user,
                match=match,
                winner=winner,
                reason=request.POST.get("reason", ""),
            )
        except LedgerError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(
                request,
                _("%(name)s goes through, by the referee's decision.") % {"name": winner.name},
            )
        return redirect("formats-bracket", club, slug)
    stages = selectors.bracket_view(competition)
    for stage in stages:
        stage["title"] = selectors.stage_title(stage["stage"], stage["players"])
        for cell in stage["matches"]:
            for side in cell["sides"]:
                if "from" in side and not side["player"]:
                    side["name"] = _("winner of %(round)s, match %(n)d") % {
                        "n": side["from"],
                        "round": stages[stage["stage"] - 2]["title"] if stage["stage"] > 1 else "",
                    }
    return render(
        request,
        "formats/bracket.html",
        {
            "competition": competition,
            "stages": stages,
            "can_decide": can_decide,
            "champion": selectors.champion(competition) if stages else None,
        },
    )


@require_http_methods(["GET", "POST"])
def decide_page(request: HttpRequest, club: str, slug: str, table: int) -> HttpResponse:
    """A referee decides a table without its games: a forfeit (who did not play, and why),
    or, at a knockout match, the winner named by the referee with the reason. Reached from
    the table's score-entry page and the round page."""
    competition = _competition(club, slug)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not competition.club.allows(request.user, Role.REFEREE):
        raise PermissionDenied(_("Only the club's referees record a forfeit."))
    found = get_object_or_404(
        Table.objects.select_related("round", "competition"), pk=table, competition=competition
    )
    seats = list(found.seats.select_related("player").order_by("index"))
    match = KnockoutMatch.objects.filter(competition=competition, tables=found).first()
    typed: dict[str, Any] = {"forfeited": [], "reason": "", "winner": "", "decision_reason": ""}
    errors: dict[str, list[str]] = {}
    status = 200
    if request.method == "POST":
        action = request.POST.get("action", "forfeit")
        typed = {
            "forfeited": request.POST.getlist("forfeited"),
            "reason": request.POST.get("reason", ""),
            "winner": request.POST.get("winner", ""),
            "decision_reason": request.POST.get("decision_reason", ""),
        }
        try:
            if action == "winner" and match is not None:
                winner = Player.objects.filter(
                    pk__in=[match.first_id, match.second_id], pk=_int(typed["winner"], "winner")
                ).first()
                if winner is None:
                    raise Invalid(_("Choose the winner."), fields={"winner": [_("Choose one.")]})
                services.set_match_winner(
                    user=request.user, match=match, winner=winner, reason=typed["decision_reason"]
                )
                note = _("%(name)s goes through, by the referee's decision.") % {
                    "name": winner.name
                }
            else:
                chosen = [_int(v, "forfeited") for v in typed["forfeited"]]
                services.record_forfeit(
                    user=request.user, table=found, forfeited=chosen, reason=typed["reason"]
                )
                note = _("The forfeit is recorded.")
        except LedgerError as error:
            messages.error(request, error.message)
            errors = {
                ("decision_reason" if action == "winner" and k == "reason" else k): [error.message]
                for k in (error.fields or {"reason": []})
            }
            status = 400
        else:
            messages.success(request, note)
            if found.round is not None and competition.format == Competition.Format.KNOCKOUT:
                return redirect("formats-bracket", club, slug)
            if found.round is not None:
                return redirect("formats-round", club, slug, found.round.number)
            return redirect("score-entry", club, slug, found.pk)
    return render(
        request,
        "formats/decide.html",
        {
            "competition": competition,
            "table": found,
            "seats": seats,
            "match": match,
            "typed": typed,
            "errors": errors,
            "knockout": match is not None,
        },
        status=status,
    )


def printables_page(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    """The sheets a night needs, each a page whose print layout is the sheet."""
    competition = _competition(club, slug)
    numbers = selectors.published_numbers(competition)
    return render(
        request,
        "formats/printables.html",
        {
            "competition": competition,
            "latest": numbers[-1] if numbers else None,
            "swiss": competition.format in (Competition.Format.SWISS, Competition.Format.TEAM),
            "knockout": competition.format == Competition.Format.KNOCKOUT,
        },
    )


# --- a stage of an event ------------------------------------------------------------------


def _decimal_or_none(value: str, name: str) -> Decimal | None:
    text = (value or "").strip().replace(",", ".")
    if not text:
        return None
    try:
        found = Decimal(text)
    except InvalidOperation:
        found = Decimal("NaN")
    if not found.is_finite():
        raise LedgerError(
            _("“%(value)s” is not a number.") % {"value": value},
            fields={name: [_("A number, such as 12 or 7.5.")]},
        )
    return found


@require_http_methods(["GET", "POST"])
def stage_page(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    """Where a stage's players come from, who advances with which seed (the preview), and
    the one button that enters them once the earlier stages are over."""
    competition = _competition(club, slug)
    organiser = competition.club.allows(request.user, Role.ORGANISER)
    stage = stages.stage_of(competition)
    typed: dict[str, Any] = {}
    errors: dict[str, list[str]] = {}
    if request.method == "POST":
        if not organiser:
            raise PermissionDenied(_("Only the club's organisers change a stage."))
        try:
            if request.POST.get("action") == "advance":
                typed["tied"] = [v for v in request.POST.getlist("tied") if v.isdigit()]
                chosen = stages.advance(
                    user=request.user,
                    competition=competition,
                    tied={int(v) for v in typed["tied"]},
                )
                messages.success(
                    request,
                    ngettext(
                        "%(n)d player advanced into %(name)s.",
                        "%(n)d players advanced into %(name)s.",
                        len(chosen),
                    )
                    % {"n": len(chosen), "name": competition.name},
                )
                return redirect("formats-stage", club, slug)
            typed = {k: request.POST.get(k, "") for k in ("rule", "count", "threshold", "season")}
            typed["sources"] = request.POST.getlist("sources")
            typed["carry_over"] = bool(request.POST.get("carry_over"))
            sources = list(
                Competition.objects.filter(
                    club=competition.club, pk__in=[int(v) for v in typed["sources"] if v.isdigit()]
                )
            )
            season = (
                Season.objects.filter(club=competition.club, pk=int(typed["season"])).first()
                if typed["season"].isdigit()
                else None
            )
            count = (typed["count"] or "").strip()
            stages.make_stage(
                user=request.user,
                competition=competition,
                sources=sources,
                season=season,
                rule=typed["rule"],
                count=_int(count, "count") if count else None,
                threshold=_decimal_or_none(typed["threshold"], "threshold"),
                carry_over=typed["carry_over"],
            )
            messages.success(request, _("The stage is saved: check who advances below."))
            return redirect("formats-stage", club, slug)
        except LedgerError as error:
            errors = {name: [str(p) for p in problems] for name, problems in error.fields.items()}
            if not errors:
                errors = {"form": [error.message]}
            elif error.message:
                errors.setdefault("form", [error.message])
    tied_typed = {int(v) for v in typed.get("tied", [])}
    preview = stages.candidates(stage, tied_typed) if stage is not None else []
    if stage is not None and set(typed) <= {"tied"}:
        typed = {
            "rule": stage.rule,
            "count": "" if stage.count is None else str(stage.count),
            "threshold": "" if stage.threshold is None else f"{stage.threshold.normalize():f}",
            "season": str(stage.season_id or ""),
            "sources": [str(pk) for pk in stage.sources.values_list("pk", flat=True)],
            "carry_over": stage.carry_over,
            "tied": [str(p) for p in tied_typed],
        }
    return render(
        request,
        "formats/stage.html",
        {
            "competition": competition,
            "stage": stage,
            "organiser": organiser,
            "preview": preview,
            "ties": stages.ties(stage) if stage is not None and not stage.advanced_at else [],
            "advanced": list(stage.advanced.select_related("player")) if stage else [],
            "blocked": stages.blocked(stage) if stage is not None else "",
            "described": stages.describe(stage) if stage is not None else "",
            "carries": stage is not None and stages.carries(stage),
            "typed": typed or {"rule": "top", "sources": []},
            "errors": errors,
            "rules": stages.Stage.Rule.choices,
            "others": Competition.objects.filter(club=competition.club)
            .exclude(pk=competition.pk)
            .order_by("-created_at"),
            "seasons": Season.objects.filter(club=competition.club),
        },
        status=400 if errors else 200,
    )
