"""The referee desk's pages: open a case (from a result or fresh), enter the hand (paste,
upload, or step by step with only legal choices), read the verdict on a timeline, rule."""

from __future__ import annotations

import inspect
import json
import re
from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.core import RecordError
from games.core import tabledeal as game_tabledeal
from ledger.clubs.errors import Invalid, LedgerError
from ledger.clubs.models import Club, Competition, Membership, Result, Role
from ledger.clubs.results import selectors as clubs_selectors
from ledger.clubs.results import services as clubs_services
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
    kept = getattr(request, "open_kept", None) or {}
    chosen_competition = request.GET.get("competition", "") or (kept.get("post") or {}).get(
        "competition", ""
    )
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
            "open_error": kept.get("error", ""),
            "open_place": kept.get("place") or {},
            "kept_record": (kept.get("post") or {}).get("record", ""),
            "kept_start": (kept.get("post") or {}).get("start", "record"),
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


def _paste_place(text: str, exc: BaseException) -> dict[str, Any]:
    """Where in a pasted record the error is: its line, that line's text and a caret under
    the column (a JSON error), so the referee sees the place without counting."""
    cause = exc.__cause__
    line = getattr(cause, "lineno", None)
    column = getattr(cause, "colno", None)
    if not isinstance(line, int) or not isinstance(column, int):
        return {}
    lines = text.splitlines() or [""]
    shown = lines[line - 1] if 0 < line <= len(lines) else ""
    start = max(0, column - 40)
    return {
        "line": line,
        "column": column,
        "text": shown[start : start + 80],
        "caret": " " * (column - 1 - start) + "^",
    }


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
            request.open_kept = {  # type: ignore[attr-defined]  # kept on the request for the page drawn next
                "error": _("No result #%(n)s in that competition.") % {"n": wanted},
                "post": request.POST,
            }
            response = desk(request)
            response.status_code = 400
            return response
    start = request.POST.get("start", "record")
    try:
        record = _record_from(request)
        if record is None and start == "cards":
            record = {}  # the real table's deal, not the recorded one
        case = services.open_case(
            user=request.user, competition=competition, result=result, record=record
        )
    except LedgerError as exc:
        request.open_kept = {  # type: ignore[attr-defined]  # kept on the request for the page drawn next
            "error": exc.message,
            "post": request.POST,
            "place": _paste_place(request.POST.get("record", ""), exc),
        }
        response = desk(request)
        response.status_code = 400
        return response
    if start == "cards" and not record and game_tabledeal.for_game(case.game):
        return redirect("referee:cards", pk=case.pk)
    return redirect("referee:case", pk=case.pk)


def _case(request: HttpRequest, pk: int) -> Case:
    return get_object_or_404(
        Case.objects.select_related("competition__club", "result__table", "correction"),
        pk=pk,
        club__in=_referee_clubs(request.user),
    )


def _seat_names(case: Case, seats: int) -> list[str]:
    names = [_("Seat %(n)d") % {"n": i + 1} for i in range(seats)]
    if case.result is not None:
        for seat in case.result.table.seats.select_related("player"):
            if seat.index < seats:
                names[seat.index] = seat.player.name
    return names


def _seats_of(case: Case) -> int:
    if case.result is not None:
        return len(case.result.scores)
    engine = checking.engine_for(case.game)
    return int(engine.ruleset(case.competition.ruleset or None).seats)


@login_required
def case_page(request: HttpRequest, pk: int) -> HttpResponse:
    case = _case(request, pk)
    # The case shows a sealed blind first entry: each referee who reads it is written down
    # and can no longer be its blind second entry (ledger/clubs/office/visibility.py).
    if (
        case.result is not None
        and clubs_selectors.sealed_blind(case.result)
        and not case.result.openings.filter(opened_by_id=request.user.pk).exists()
    ):
        clubs_services.open_sealed_result(
            user=request.user, result=case.result, reason=_("Case page read.")
        )
    verdict: dict[str, Any] | None = None
    error = ""
    seats = _seats_of(case)
    names = _seat_names(case, seats)
    if case.record:
        try:
            kept_remedy = (case.verdict or {}).get("remedy")
            verdict = checking.check(
                case.game,
                case.record,
                case.competition.ruleset,
                names,
                remedy=kept_remedy if isinstance(kept_remedy, dict) else True,
            )
        except LedgerError as exc:
            error = exc.message
    dealing = game_tabledeal.for_game(case.game)
    build = (
        checking.builder(case.game, case.record, case.competition.ruleset, names)
        if case.record and case.status == Case.Status.OPEN
        else None
    )
    chance_kept = getattr(request, "chance_kept", None) or {}
    if build and build.get("chance"):
        for f in build["chance"]["fields"]:
            f["kept"] = (chance_kept.get("values") or {}).get(f["name"], "")
    artificial = ArtificialScores.for_competition(case.competition)
    table_scores = list(case.result.scores) if case.result is not None else []
    rules_scores = verdict["scores"] if verdict and verdict.get("scores") else None
    remedy = (verdict or {}).get("remedy") or {}
    differs = bool(
        rules_scores
        and table_scores
        and [_number(x) for x in rules_scores] != [_number(x) for x in table_scores]
    )
    kept = getattr(request, "ruling_kept", None) or {}
    record_kept = getattr(request, "record_kept", None) or {}
    post = kept.get("post") or {}
    fields = kept.get("fields") or {}
    weights = [
        {
            "n": n,
            "weight": post.get(f"weight_{n}", ""),
            "outcome": post.get(f"outcome_{n}", ""),
            "error": fields.get(f"outcomes.{n}.weight", "")
            or fields.get(f"outcomes.{n}.scores", "")
            or fields.get(f"outcomes.{n}", ""),
        }
        for n in range(3)
    ]
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
                    "remedy": remedy["scores"][i] if remedy else "",
                    "clean": remedy["clean"][i] if remedy else "",
                    "offender": bool(remedy) and i in remedy.get("offenders", []),
                    "split": post.get(f"split_{i}", "table"),
                    "split_number": post.get(f"split_number_{i}", ""),
                    "artificial": post.get(f"artificial_{i}", "average"),
                    "assigned_number": post.get(f"assigned_number_{i}", ""),
                    "error": fields.get(f"seats.{i}", ""),
                }
                for i in range(seats)
            ],
            "kept": {
                "kind": post.get("kind", ""),
                "note": post.get("note", ""),
                "assigned": post.get("assigned", "remedy" if remedy else "rules"),
                "error": kept.get("error", ""),
                "fields": fields,
            },
            "weights": weights,
            "preview": kept.get("preview"),
            "preview_standings": kept.get("standings"),
            "split_choices": [
                ("table", _("as recorded at the table")),
                ("rules", _("by the rules")),
                *([("remedy", _("the remedy for the fault"))] if remedy else []),
                ("plus", _("average-plus")),
                ("average", _("average")),
                ("minus", _("average-minus")),
                ("number", _("a number…")),
            ],
            "artificial": artificial,
            "record_text": record_kept["text"]
            if record_kept
            else (json.dumps(case.record, indent=1) if case.record else ""),
            "record_error": record_kept.get("error", ""),
            "record_place": record_kept.get("place") or {},
            "kinds": Case.Kind.choices,
            "remedy": remedy,
            "differs": differs,
            # A game whose deals are asked for as they come offers its own link when one is
            # due; the picker's link opens a case with no deal yet.
            "by_cards": _offers_deal(dealing, case)
            and (getattr(dealing, "KIND", "cards") != "dealt" or not case.record),
            "entry_kept": getattr(request, "entry_kept", None) or {},
            "chance_kept": chance_kept,
            "later": len(case.later or []),
            "later_next": checking.step_words(case.game, case.later[0], names)
            if case.later and isinstance(case.later[0], dict)
            else "",
            "steps_done": len((case.record or {}).get("actions", [])),
            "titles": _titles(dealing, checking.language(), case),
            "ruled_rows": list(zip(names, (case.ruling or {}).get("scores", []), strict=False)),
        },
    )


def _titles(dealing: Any, lang: str, case: Case) -> dict[str, str]:
    """The picker's title and links in the game's words (for this ruleset when it says)."""
    said = getattr(dealing, "titles", None)
    if said is None:
        return {}
    if len(inspect.signature(said).parameters) > 1:
        return dict(said(lang, _ruleset_of(case)))
    return dict(said(lang))


def _offers_deal(dealing: Any, case: Case) -> bool:
    """Whether the game has a deal to tap for this competition's ruleset."""
    if dealing is None:
        return False
    offers = getattr(dealing, "offers_deal", None)
    if offers is None:
        return True
    if len(inspect.signature(offers).parameters) > 1:  # it looks at the record too
        return bool(offers(_ruleset_of(case), case.record or {}))
    return bool(offers(_ruleset_of(case)))


def _number(value: Any) -> Any:
    try:
        return Decimal(str(value))
    except (InvalidOperation, ValueError):
        return value


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
        # The page again with the paste kept and the error beside it, at its place.
        text = request.POST.get("record", "")
        request.record_kept = {  # type: ignore[attr-defined]  # kept on the request for the page drawn next
            "text": text,
            "error": exc.message,
            "place": _paste_place(text, exc),
        }
        response = case_page(request, pk)
        response.status_code = 400
        return response
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


def _placed(post: Any, places: list[dict[str, Any]]) -> dict[str, list[str]]:
    return {
        p["key"]: [c for c in post.get(f"place_{p['key']}", "").split(",") if c.strip()]
        for p in places
    }


def _ruleset_of(case: Case) -> Any:
    return checking.engine_for(case.game).ruleset(case.competition.ruleset or None)


def _place_error(p: dict[str, Any], cards: list[str], twice: list[str], over: list[str]) -> str:
    """What is wrong with one place of the picker, in words, or ""."""
    if twice:
        return _("Given twice: %(cards)s.") % {"cards": ", ".join(twice)}
    if over:
        return _("Given more often than the pack holds it: %(cards)s.") % {"cards": ", ".join(over)}
    size, most = p.get("size"), p.get("max")
    if size is not None and len(cards) != size:
        if len(cards) < size:
            return _("%(has)d cards of %(size)d: %(n)d still to give.") % {
                "has": len(cards),
                "size": size,
                "n": size - len(cards),
            }
        return _("%(has)d cards: only %(size)d go here.") % {"has": len(cards), "size": size}
    if most is not None and len(cards) > most:
        return _("%(has)d cards: at most %(size)d go here.") % {"has": len(cards), "size": most}
    return ""


@login_required
def deal_cards(request: HttpRequest, pk: int) -> HttpResponse:
    """The real table, by tapping each place's cards (no JSON, no seed): Tarocco's deal,
    Er Giò's laid Corteo and hands..., as the game declares them."""
    case = _case(request, pk)
    dealing = checking.tabledeal_for(case.game)
    if not _offers_deal(dealing, case):
        messages.info(request, _("This game is entered step by step: there is no deal to tap."))
        return _back(case, "#builder")
    if getattr(dealing, "KIND", "cards") == "sheets":
        return _sheets_page(request, case, dealing)
    lang = checking.language()
    ruleset = _ruleset_of(case)
    names = _seat_names(case, _seats_of(case))
    dealt = getattr(dealing, "KIND", "cards") == "dealt"  # each deal asked for as it comes
    if dealt:
        record = checking.with_ruleset(case.record or {}, case.competition.ruleset)
        places = dealing.places(lang, names, ruleset, record)
        pack = dealing.pack(lang, ruleset, record)
        if not places:
            messages.info(request, _("No cards are waiting to be dealt now."))
            return _back(case, "#builder")
    else:
        places = dealing.places(lang, names, ruleset)
        pack = dealing.pack(lang, ruleset)
    copies = {c["code"]: int(c.get("copies", 1)) for g in pack for c in g["cards"]}
    opener = dealing.opener(lang, names)
    errors: dict[str, str] = {}
    problem = ""
    if request.method == "POST":
        placed = _placed(request.POST, places)
        dealer = request.POST.get("dealer", "")
        given: dict[str, int] = {}
        for p in places:
            cards = placed[p["key"]]
            over = []
            for c in cards:
                given[c] = given.get(c, 0) + 1
                if given[c] > copies.get(c, 1) and c not in over:
                    over.append(c)
            found = _place_error(
                p,
                cards,
                [c for c in over if copies.get(c, 1) == 1],
                [checking.card_name(case.game, c, lang) for c in over if copies.get(c, 1) > 1],
            )
            if found:
                errors[p["key"]] = found
        if opener is not None and not dealer.isdigit():
            errors["dealer"] = str(opener.get("missing") or _("Say who dealt."))
        if not errors:
            try:
                if dealt:
                    services.set_dealt(user=request.user, case=case, placed=placed)
                else:
                    services.set_deal(user=request.user, case=case, dealer=dealer, placed=placed)
            except Invalid as exc:
                at = next((k for k in exc.fields if k in placed or k == "dealer"), "")
                if at:
                    errors[at] = exc.message
                problem = exc.message
            except LedgerError as exc:
                problem = exc.message
            else:
                case.refresh_from_db()
                after = checking.builder(case.game, case.record, case.competition.ruleset)
                if after.get("over"):
                    messages.success(
                        request,
                        _(
                            "Deal saved: the steps entered reach the end of the hand; read "
                            "the verdict."
                        ),
                    )
                    return _back(case, "#verdict")
                messages.success(request, _("Deal saved: now enter the play, step by step."))
                return _back(case, "#builder")
        if not problem and errors:
            problem = _("The deal is not complete: see the places marked below.")
    else:
        placed, dealer = {}, ""
        record = case.record or {}
        existing = record.get("deal")
        found_dealer = -1
        if dealt:
            pass  # a deal not yet said: nothing placed
        elif hasattr(dealing, "placed_from_record") and record:
            found_dealer, placed = dealing.placed_from_record(record)
        elif isinstance(existing, dict) and hasattr(dealing, "placed_from"):
            found_dealer, placed = dealing.placed_from(existing)
        dealer = str(found_dealer) if found_dealer >= 0 else ""
    for p in places:
        p["cards"] = placed.get(p["key"], [])
        p["error"] = errors.get(p["key"], "")
    for group in pack:
        for c in group["cards"]:
            # places on a drawn board are tapped by their names, not as cards
            c["svg"] = "" if group.get("board") else checking.face(case.game, c["code"], lang)
    return render(
        request,
        "referee/deal.html",
        {
            "case": case,
            "places": places,
            "pack": pack,
            "dealer": dealer,
            "dealer_error": errors.get("dealer", ""),
            "opener": opener,
            "problem": problem,
            "card_names": {c["code"]: c["name"] for g in pack for c in g["cards"]},
            "card_units": {c["code"]: c.get("unit", "") for g in pack for c in g["cards"]},
            "card_shorts": {c["code"]: c.get("short", c["name"]) for g in pack for c in g["cards"]},
            "sided": any(g.get("side") for g in pack),
            "titles": _titles(dealing, lang, case),
            "dealt": dealt,
            "heading": dealing.heading(record, lang) if dealt else "",
            "faces": any(c["svg"] for g in pack for c in g["cards"]),
        },
        status=400 if problem else 200,
    )


def _sheets_page(request: HttpRequest, case: Case, dealing: Any) -> HttpResponse:
    """A game entered from its paper rather than its cards (the Bridge's Game's power sheets
    and strategy cards): one labelled field per number, errors at the field, all kept."""
    lang = checking.language()
    ruleset = _ruleset_of(case)
    names = _seat_names(case, _seats_of(case))
    form = dealing.sheets(lang, names, ruleset)
    opener = dealing.opener(lang, names)
    errors: dict[str, str] = {}
    problem = ""
    if request.method == "POST":
        post = request.POST
        first = post.get("dealer", "")
        quarter = post.get("quarter", "")
        powers: dict[str, int] = {}
        values = {
            m["key"]: post.get(f"power_{m['key']}", "") for sh in form["sheets"] for m in sh["mags"]
        }
        for key, text in values.items():
            read = dealing.power(text)
            if read is None:
                errors[f"power_{key}"] = (
                    _("Write the power of this magistratura.")
                    if not text.strip()
                    else _("“%(text)s” is not a power: write it as on the sheet, e.g. 85000.")
                    % {"text": text}
                )
            else:
                powers[key] = read
        strategy: dict[str, Any] = {}
        for block in form["strategy"]:
            if block["kind"] == "each":
                chosen = [post.get(f"{block['key']}_{m['key']}", "") for m in block["mags"]]
                for m, value in zip(block["mags"], chosen, strict=True):
                    if not value.isdigit():
                        errors[f"{block['key']}_{m['key']}"] = _("Choose its card.")
                    elif chosen.count(value) > 1:
                        errors[f"{block['key']}_{m['key']}"] = _(
                            "This card is held by another magistratura too."
                        )
                if not any(k.startswith(block["key"]) for k in errors):
                    strategy[block["key"]] = [int(v) for v in chosen]
            else:
                ticked = post.getlist(block["key"])
                if len(ticked) != 3 or not all(t.isdigit() for t in ticked):
                    errors[block["key"]] = _("Tick the three cards (you ticked %(n)d).") % {
                        "n": len(ticked)
                    }
                else:
                    strategy[block["key"]] = [int(t) for t in ticked]
        if not first.isdigit():
            errors["dealer"] = str(opener["missing"])
        if not errors:
            try:
                services.set_sheets(
                    user=request.user,
                    case=case,
                    first=int(first),
                    quarter=quarter or None,
                    powers=powers,
                    strategy=strategy,
                )
            except LedgerError as exc:
                problem = exc.message
                for key in exc.fields:
                    errors.setdefault(str(key), exc.message)
            else:
                messages.success(request, _("Sheets saved: now enter the play, step by step."))
                return _back(case, "#builder")
        if not problem:
            problem = _("Some answers are missing or unreadable: see the fields marked below.")
        kept: dict[str, Any] = {"first": first, "quarter": quarter, "values": values, "post": post}
    else:
        found = dealing.from_record(case.record or {})
        kept = {
            "first": str(found["first"]) if found["first"] >= 0 else "",
            "quarter": found["quarter"],
            "values": {k: str(v) for k, v in found["powers"].items()},
            "post": None,
            "perms": found["perms"],
        }
    for sheet in form["sheets"]:
        for m in sheet["mags"]:
            m["value"] = kept["values"].get(m["key"], "")
            m["error"] = errors.get(f"power_{m['key']}", "")
    for block in form["strategy"]:
        side = int(block["key"][-1])
        if block["kind"] == "each":
            for i, m in enumerate(block["mags"]):
                if kept["post"] is not None:
                    m["value"] = kept["post"].get(f"{block['key']}_{m['key']}", "")
                elif case.record:
                    m["value"] = str(kept["perms"][side][i])
                else:
                    m["value"] = ""
                m["error"] = errors.get(f"{block['key']}_{m['key']}", "")
        else:
            if kept["post"] is not None:
                block["ticked"] = kept["post"].getlist(block["key"])
            elif case.record:
                block["ticked"] = [str(x) for x in kept["perms"][side][:3]]
            else:
                block["ticked"] = []
            block["error"] = errors.get(block["key"], "")
    return render(
        request,
        "referee/sheets.html",
        {
            "case": case,
            "form": form,
            "opener": opener,
            "first": kept["first"],
            "quarter": kept["quarter"],
            "dealer_error": errors.get("dealer", ""),
            "problem": problem,
            "titles": dealing.titles(lang),
        },
        status=400 if problem else 200,
    )


@login_required
@require_POST
def drawn(request: HttpRequest, pk: int) -> HttpResponse:
    """The cards a side drew after a scontro, tapped by the referee (or its deck ran out)."""
    case = _case(request, pk)
    try:
        services.add_drawn(
            user=request.user,
            case=case,
            side=request.POST.get("side", ""),
            cards=request.POST.getlist("cards"),
            dry=request.POST.get("dry") == "1",
        )
    except LedgerError as exc:
        messages.error(request, exc.message)
    return _back(case, "#builder")


@login_required
@require_POST
def chance(request: HttpRequest, pk: int) -> HttpResponse:
    """Chance that fell at the table, said in the game's own terms (San Marco's role draw,
    the distributor's cards, a die): refused at its field in words, everything kept."""
    case = _case(request, pk)
    values = {
        k.removeprefix("chance_"): str(v)
        for k, v in request.POST.items()
        if k.startswith("chance_")
    }
    try:
        services.set_chance(user=request.user, case=case, values=values)
    except LedgerError as exc:
        fields = getattr(exc, "fields", None) or {}
        request.chance_kept = {  # type: ignore[attr-defined]  # kept on the request for the page drawn next
            "values": values,
            "error": exc.message,
            "field": next(iter(fields), ""),
        }
        response = case_page(request, pk)
        response.status_code = 400
        return response
    return _back(case, "#builder")


def _entry_step(request: HttpRequest, pk: int, case: Case) -> HttpResponse:
    """A step typed in the game's own number form (San Marco's points): refused with the
    rule it breaks in words, everything typed kept, and a button to record it as it was."""
    values = {
        k.removeprefix("entry_"): v for k, v in request.POST.items() if k.startswith("entry_")
    }
    as_played = request.POST.get("as_played") == "1"
    dealing = checking.tabledeal_for(case.game)
    kept: dict[str, Any] = {"values": values, "error": "", "field": "", "why": ""}
    try:
        try:
            action = dealing.number_step(values)
        except RecordError as exc:
            kept["field"] = exc.path or "points"
            raise Invalid(
                _("Write the points as a whole number.")
                if kept["field"] == "points"
                else _("Choose the colour."),
                fields={kept["field"]: ["?"]},
            ) from exc
        broken = checking.breaches(case.game, case.record, case.competition.ruleset, action)
        if broken and not as_played:
            kept["why"] = checking.rules_in_words(case.game, broken)
            kept["field"] = "points"
            raise Invalid(
                _("Not a legal entry now: %(rules)s") % {"rules": kept["why"]},
                fields={"action": ["?"]},
            )
        services.add_step(user=request.user, case=case, action=action, as_played=as_played)
    except LedgerError as exc:
        kept["error"] = exc.message
        request.entry_kept = kept  # type: ignore[attr-defined]  # kept on the request for the page drawn next
        response = case_page(request, pk)
        response.status_code = 400
        return response
    return _back(case, "#builder")


@login_required
@require_POST
def step(request: HttpRequest, pk: int) -> HttpResponse:
    case = _case(request, pk)
    if request.POST.get("entry") == "1":
        return _entry_step(request, pk, case)
    action: Any = request.POST.get("action", "")
    cards = request.POST.getlist("cards")
    try:
        if cards or request.POST.get("card_set"):
            dealing = checking.tabledeal_for(case.game)
            state = checking.builder(case.game, case.record, case.competition.ruleset)
            if state["seat"] is None:
                raise LedgerError(_("The hand is over: no more steps."))
            want = int(request.POST.get("card_set") or 0)
            if len(cards) != want:
                raise Invalid(
                    _("Tick %(n)d cards (you ticked %(k)d).") % {"n": want, "k": len(cards)},
                    fields={"cards": [_("Wrong number of cards.")]},
                )
            action = dealing.card_set_step(state["seat"], cards)
        services.add_step(
            user=request.user,
            case=case,
            action=action,
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


@login_required
@require_POST
def go_to(request: HttpRequest, pk: int) -> HttpResponse:
    """Back to any step of the timeline (the later steps set aside), or forward again."""
    case = _case(request, pk)
    try:
        # a step's own button on the timeline sends its number beside the empty field
        wanted = next((v for v in request.POST.getlist("step") if v.strip()), "")
        services.go_to_step(user=request.user, case=case, step=wanted)
    except LedgerError as exc:
        messages.error(request, exc.message)
    return _back(case, "#builder")


@login_required
@require_POST
def put_back(request: HttpRequest, pk: int) -> HttpResponse:
    case = _case(request, pk)
    count = 1 if request.POST.get("one") == "1" else None
    try:
        if request.POST.get("drop") == "1":
            services.drop_later(user=request.user, case=case, count=count)
        else:
            services.put_back(user=request.user, case=case, count=count)
    except LedgerError as exc:
        messages.error(request, exc.message)
    return _back(case, "#builder")


NAMED = ("table", "rules", "plus", "average", "minus")


def _numbers(text: str) -> list[str]:
    """Per-seat numbers as a person types them: "2, 4", "2; 4", "2 4", "1,5 -1,5" (an
    Italian decimal comma) or "10,-10" (commas only, no decimals)."""
    text = text.strip()
    if not text:
        return []
    parts = [p for p in re.split(r"\s*;\s*|,\s+|\s+", text) if p]
    if len(parts) == 1 and text.count(",") >= 1 and "." not in text and len(text.split(",")) > 2:
        parts = [p for p in text.split(",") if p]
    return [p.strip().rstrip(",") for p in parts]


# The named scores as a person may type them, in either language.
ALIASES = {
    "remedy": "remedy",
    "rimedio": "remedy",
    "table": "table",
    "tavolo": "table",
    "rules": "rules",
    "regole": "rules",
    "plus": "plus",
    "average": "average",
    "media": "average",
    "minus": "minus",
}


def _scores_spec(text: str) -> Any:
    """A named score ('rules', 'table', a level) or numbers per seat."""
    text = text.strip()
    if not text:
        return "rules"
    if text.lower() in ALIASES:
        return ALIASES[text.lower()]
    return _numbers(text)


def _seat_choice(post: Any, prefix: str, i: int, default: str) -> Any:
    """One seat's choice: a named score, or the number typed beside it."""
    choice = post.get(f"{prefix}_{i}", default).strip()
    if choice == "number":
        return post.get(f"{prefix}_number_{i}", "").strip()
    return choice


def ruling_params(post: Any, kind: str, seats: int) -> dict[str, Any]:
    """The ruling's parameters from the form."""
    if kind == Case.Kind.ASSIGNED:
        if post.get("assigned", "rules") == "number":
            return {"scores": [post.get(f"assigned_number_{i}", "").strip() for i in range(seats)]}
        return {"scores": _scores_spec(post.get("assigned", "rules"))}
    if kind == Case.Kind.ARTIFICIAL:
        return {"seats": [post.get(f"artificial_{i}", "average") for i in range(seats)]}
    if kind == Case.Kind.SPLIT:
        return {"seats": [_seat_choice(post, "split", i, "table") for i in range(seats)]}
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
        if kind not in Case.Kind.values:
            raise Invalid(_("Choose the kind of ruling."), fields={"kind": [_("Choose one.")]})
        if request.POST.get("confirm") != "1":
            # The last step: the journal lines about to be written, nothing written yet.
            if case.result is None:
                raise Invalid(
                    _("Link the case to a result of the ledger before ruling."),
                    fields={"result": [_("Required to rule.")]},
                )
            params = ruling_params(request.POST, kind, seats)
            services.check_numbers(params)
            # The ruling itself, written and rolled back: what it shows is what it writes.
            shown = services.preview_rule(
                user=request.user,
                case=case,
                kind=kind,
                params=params,
                note=request.POST.get("note", "").strip(),
            )
            request.ruling_kept = {  # type: ignore[attr-defined]  # kept on the request for the page drawn next
                "post": request.POST,
                "preview": shown["lines"],
                "standings": shown,
            }
            return case_page(request, pk)
        new = services.rule(
            user=request.user,
            case=case,
            kind=kind,
            params=ruling_params(request.POST, kind, seats),
            note=request.POST.get("note", "").strip(),
        )
    except LedgerError as exc:
        # The page again with everything typed kept and the error beside its field.
        fields = getattr(exc, "fields", None) or {}
        request.ruling_kept = {  # type: ignore[attr-defined]  # kept on the request for the page drawn next
            "post": request.POST,
            "error": exc.message,
            "fields": {k: " ".join(str(m) for m in v) for k, v in fields.items()},
        }
        response = case_page(request, pk)
        response.status_code = 400
        return response
    if new.status == Result.Status.VOIDED:
        messages.success(
            request,
            _("Ruling recorded: result #%(n)d is voided and no longer counts; it stays visible.")
            % {"n": new.pk},
        )
    else:
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
