"""Score entry at the table: pick or open a table, type the summary, see the engine's
score while typing (htmx), then record it. A form token doubles as the idempotency key,
so a double tap or a resent form never records a hand twice."""

from __future__ import annotations

import re
import uuid
from decimal import Decimal
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_stubs_ext import StrOrPromise

from ledger.clubs.errors import LedgerError
from ledger.clubs.games import (
    declared_facts,
    engine_available,
    hand_words,
    meta,
    plain_scores,
    reader_language,
    with_players,
)
from ledger.clubs.models import Competition, Player, Result, Role, Table
from ledger.clubs.office.visibility import viewer_of
from ledger.clubs.outcomes import WIN, outcomes
from ledger.clubs.results import selectors, services
from ledger.clubs.scoring import score_result
from ledger.web.forms import (
    MODES,
    DeclaredSummaryForm,
    EntryForm,
    JsonSummaryForm,
    ManualScoresForm,
    NewTableForm,
    RecordForm,
    Seats,
    row_place,
    summary_form_class,
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
    members = list(
        Player.objects.filter(memberships__club=competition.club, automated=False).order_by("name")
    )
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
    tables = _natural_order(
        list(competition.tables.select_related("round").prefetch_related("seats__player")[:30])
    )
    return render(
        request,
        "web/score/choose_table.html",
        {"competition": competition, "tables": tables, "form": form},
    )


def _natural_order(tables: list[Any]) -> list[Any]:
    """The latest round's tables first, each round's in the order people count them
    ("Tavolo 2" before "Tavolo 10"); tables outside any round after them."""

    def key(table: Any) -> tuple[Any, ...]:
        number = table.round.number if table.round_id else 0
        parts = re.split(r"(\d+)", table.label.casefold())
        label = tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in parts if p)
        return (-number, label, table.pk)

    return sorted(tables, key=key)


def _at_a_glance(
    competition: Competition, table: Table, seats: list[Any], viewer: Any
) -> dict[str, Any]:
    """The night at the table: each seat's running total over the hands recorded so far
    (results being corrected or contested left out; sealed ones counted but not shown), the
    hand about to be played of the competition's fixed number, and who deals it."""
    from ledger.formats.models import FormatSettings

    played = list(
        table.results.filter(status__in=(Result.Status.ACCEPTED, Result.Status.PENDING)).order_by(
            "-entered_at", "-pk"
        )
    )
    totals = [Decimal(0)] * len(seats)
    # Games each seat won, by the Outcome's winners: points level can still be a win (an
    # Er Giò match at 3-3 decided by the Bella Nazionale).
    won = [0] * len(seats)
    sealed = waiting = 0
    for result in played:
        if not viewer.may_see(result):
            sealed += 1
            continue
        waiting += result.status == Result.Status.PENDING
        for i, points in enumerate(result.scores[: len(totals)]):
            try:
                totals[i] += Decimal(str(points))
            except ArithmeticError:
                continue
        for i, said in enumerate(outcomes(result.scores, result.verdict)[: len(won)]):
            won[i] += said == WIN
    fixed = FormatSettings.objects.filter(competition=competition).first()
    hands = fixed.hands_per_table if fixed is not None else 1
    names = dict(seats)
    following = _next_dealer(played)
    one, several = hand_words(competition.game)
    return {
        "totals": [
            (names[i], f"{t.normalize():f}", won[i]) for i, t in enumerate(totals) if i in names
        ]
        if played
        else [],
        "played": len(played),
        "hands": hands if hands > 1 else 0,
        "next_hand": len(played) + 1,
        "over": hands > 1 and len(played) >= hands,
        "sealed": sealed,
        "waiting": waiting,
        "dealer": names.get(following) if following is not None else None,
        "hand_word": one,
        # The word as the count beside it wants it ("2 smazzate", "1 smazzata"): a plural
        # message takes one name in both of its forms.
        "hands_noun": one if hands == 1 else several,
        "played_noun": one if len(played) == 1 else several,
    }


MODE_LABELS = {
    "form": gettext_lazy("Summary"),
    "record": gettext_lazy("Full record"),
    "json": gettext_lazy("Summary as JSON (advanced)"),
}


def _mode(request: HttpRequest) -> str:
    mode = request.POST.get("mode") or request.GET.get("mode") or "form"
    return mode if mode in MODE_LABELS else "form"


def _entry_form(
    competition: Competition, table: Table, request: HttpRequest, mode: str
) -> tuple[EntryForm, Seats]:
    """The score-entry page's form for this game and mode, bound to the request's input."""
    posted = request.method == "POST"
    return _build(
        competition,
        table,
        request.POST if posted else None,
        request.FILES if posted else None,
        MODES.get(mode) or summary_form_class(competition.game),
    )


def _forms(competition: Competition, table: Table, data: Any) -> tuple[EntryForm, Seats]:
    """The game's summary form for the result pages (blind re-entry, correction), which lay
    it out with its own ``entry_template`` as the score-entry page does."""
    return _build(competition, table, data, None, summary_form_class(competition.game))


def prefilled(competition: Competition, table: Table, result: Any) -> tuple[EntryForm, str]:
    """The entry form filled in with a recorded result, as the scorekeeper would have typed
    it, and its mode: the game's own form when its fields give the same scores back, else the
    summary (or record) as JSON. A correction starts from here."""
    from django.http import QueryDict

    record = result.record if isinstance(result.record, dict) else {}
    scores = list(result.scores or [])
    choices: list[tuple[str, type[EntryForm]]]
    if result.source == "full_record":
        choices = [("record", RecordForm)]
    elif result.source == "summary":
        choices = [("form", summary_form_class(competition.game))]
        choices.append(("json", JsonSummaryForm))
    else:
        choices = [("form", ManualScoresForm)]
    form: EntryForm | None = None
    for mode, form_class in choices:
        empty, _seats = _build(competition, table, None, None, form_class)
        data = empty.data_for(record, scores)
        if data is None:
            continue
        posted = QueryDict(mutable=True)
        for name, value in data.items():
            if isinstance(value, list):
                posted.setlist(name, [str(v) for v in value])
            elif value is not None:
                posted[name] = str(value)
        form, _seats = _build(competition, table, posted, None, form_class)
        if _gives_back(competition, table, form, scores):
            return form, mode
    if form is None:
        form, _seats = _build(competition, table, None, None, choices[0][1])
    return form, choices[-1][0]


def _gives_back(competition: Competition, table: Table, form: EntryForm, scores: list[Any]) -> bool:
    """Whether the filled-in form scores as the recorded result did."""
    outcome = _evaluate(competition, table, form, preview=True)
    given = outcome.get("scores")
    if given is None:
        return False
    try:
        return [Decimal(str(s)) for s in given] == [Decimal(str(s)) for s in scores]
    except ArithmeticError:
        return False


def _build(
    competition: Competition,
    table: Table,
    data: Any,
    files: Any,
    form_class: type[EntryForm],
) -> tuple[EntryForm, Seats]:
    seats = [(s.index, s.player.name) for s in table.seats.all()]
    if plain_scores(competition.game):
        return ManualScoresForm(data, seats=seats), seats
    from games.core import RecordError, registry

    engine = registry.get(competition.game)
    try:
        ruleset = engine.ruleset(competition.ruleset or None)
    except RecordError:
        # The form still opens; scoring then says what is wrong with the ruleset.
        ruleset = engine.ruleset(None)
    if not competition.ruleset and ruleset.seats != len(seats):
        # A competition that names no ruleset plays each table by the game's own preset
        # for that many players (a cardChess night of two, three and four at a table).
        for name in engine.rulesets:
            preset = engine.ruleset({"name": name})
            if preset.seats == len(seats):
                ruleset = preset
                break
    if issubclass(form_class, DeclaredSummaryForm) and engine.summary_form(ruleset) is None:
        form_class = JsonSummaryForm  # a ruleset whose summaries are typed as JSON only
    return form_class(data, files, seats=seats, ruleset=ruleset), seats


def _explained(
    violations: list[dict[str, Any]] | None, game: str, form: EntryForm
) -> list[dict[str, Any]]:
    """Each violation with its message in the reader's language, each seat it counts named by
    who sits there ("posto 2 (Bruno)"), and the row it is placed at
    in words ("Scontro 2") when the game's form has rows."""
    language = reader_language()
    names = [name for _index, name in sorted(form.seats)]
    out = []
    for v in violations or []:
        message = v.get("message") or {}
        where = v.get("where") or {}
        at = row_place(game, form.ruleset, where)
        text = with_players(message.get(language) or message.get("en", ""), names)
        out.append({**v, "text": text, "at": at})
    return out


def _evaluate(
    competition: Competition, table: Table, form: EntryForm, *, preview: bool = False
) -> dict[str, Any]:
    """What the engine would record, without recording anything. The preview also scores a
    game not over yet (the score so far), saying that it cannot be recorded as it is."""
    # "errors" is kept for the result pages' templates, which list them by field.
    if not form.is_valid():
        return {"problems": form.problems(), "errors": form.errors}
    try:
        record = form.record()
    except ValidationError as exc:
        problem = " ".join(exc.messages)
        return {"problems": form.problems(), "errors": form.errors, "problem": problem}
    explicit = form.scores() if isinstance(form, ManualScoresForm) else None
    try:
        scored = score_result(
            game=competition.game,
            ruleset=competition.ruleset,
            seats=table.seats.count(),
            source=form.source,
            record=record,
            explicit=explicit,
            unfinished=preview,
            names=lambda: [
                s.player.name for s in table.seats.select_related("player").order_by("index")
            ],
        )
    except LedgerError as exc:
        violations = _explained(exc.violations, competition.game, form)
        for v in violations:
            # A rule broken by one field (the summary's path the game names, as its form
            # declares it) is shown beside that field too, in words, its rule id beside them
            # as a small reference.
            field = _field_of(form, v.get("where") or {})
            if field is not None:
                form.add_error(field, v["text"])
                form.fields[field].rule_ref = v["rule"]  # type: ignore[attr-defined]  # a mark for the template
        return {"problem": exc.message, "violations": violations}
    return {
        "scores": scored.scores,
        # the engine's answer, handed to the write so that the engine runs once a submit
        "scored": scored,
        "source": form.source,
        "record": record,
        "explicit": explicit,
        "detail": _detail(competition.game, form.source, scored.verdict),
        # what the scorekeeper typed, in words, as the game says it
        "declared": declared_facts(
            competition.game,
            scored.verdict,
            [s.player.name for s in sorted(table.seats.all(), key=lambda s: s.index)],
        ),
        "unfinished": not scored.finished,
    }


def _field_of(form: EntryForm, where: dict[str, Any]) -> str | None:
    """The form's field a violation names, if it is on the page."""
    if isinstance(form, DeclaredSummaryForm):
        return form.field_at(where)
    field = where.get("field")
    return field if isinstance(field, str) and field in form.fields else None


def refused(form: EntryForm, outcome: dict[str, Any]) -> None:
    """After a refused submit: each message once, at the field it is about (a broken rule
    placed at a row goes to that row's first field; one with no place, and a problem that no
    field shows, goes at the top of the form), and the cursor moved to the first of them.
    The preview then repeats none of it."""
    for v in outcome.get("violations") or []:
        where = v.get("where") or {}
        if _field_of(form, where) is not None:
            continue  # already at its field
        row = form.row_for(where) if isinstance(form, DeclaredSummaryForm) else None
        if row is not None and row.fields:
            # the row's field the game names (a scontro's force), else its first field
            named = where.get("field")
            name = named if named in row.fields else next(iter(row.fields))
            row.add_error(name, v["text"])
            row.fields[name].rule_ref = v["rule"]  # type: ignore[attr-defined]  # a mark for the template
        else:
            form.add_error(None, v["text"])
            form.top_rules = [*getattr(form, "top_rules", []), v["rule"]]  # type: ignore[attr-defined]  # a mark for the template
    placed = bool(form.errors) or any(
        f.errors or formset.non_form_errors() for formset in form.formsets() for f in formset.forms
    )
    if not placed and outcome.get("problem"):
        form.add_error(None, outcome["problem"])
    # The cursor goes to the first field in error (the page's script focuses the top message
    # when no field is to blame).
    widgets = [f.widget for f in form.fields.values()]
    bad = [form[n] for n in form.fields if n in form.errors]
    for formset in form.formsets():
        for row in formset.forms:
            widgets += [f.widget for f in row.fields.values()]
            bad += [row[n] for n in row.fields if n in row.errors]
    for widget in widgets:
        widget.attrs.pop("autofocus", None)
    if bad:
        bad[0].field.widget.attrs["autofocus"] = True
    outcome.clear()
    outcome["refused"] = True


def _detail(game: str, source: str, verdict: dict[str, Any] | None) -> dict[str, Any] | None:
    """The engine's answer for the preview, shaped like a summary's answer."""
    if verdict is None:
        return None
    if source == "summary":
        return verdict
    outcome = verdict.get("outcome") or {}
    detail = outcome.get("detail")
    return detail if isinstance(detail, dict) else None


# The results that take a place at a table (ledger/clubs/results/services.py ``_check_room``).
COUNTING = (Result.Status.PENDING, Result.Status.ACCEPTED, Result.Status.DISPUTED)


@login_required
def score_entry(request: HttpRequest, club: str, slug: str, table: int) -> HttpResponse:
    competition = _competition(request, club, slug)
    table_obj = get_object_or_404(
        Table.objects.prefetch_related("seats__player"), pk=table, competition=competition
    )
    mode = _mode(request)
    form, seats = _entry_form(competition, table_obj, request, mode)
    outcome: dict[str, Any] = {}
    # A result kept on the phone while offline is sent later with its Idempotency-Key (the
    # form's token when it was typed): however often it is sent, it is recorded once.
    key = request.headers.get("Idempotency-Key", "").strip()
    token = key[:64] or request.POST.get("form_token") or uuid.uuid4().hex
    queued = request.method == "POST" and "application/json" in request.headers.get("Accept", "")
    if request.method == "POST":
        outcome = _evaluate(competition, table_obj, form)
        if "scores" not in outcome:
            refused(form, outcome)
            if queued:
                return _refused_json(form)
        else:
            try:
                _result, created = services.record_result(
                    user=request.user,
                    table=table_obj,
                    source=outcome["source"],
                    record=outcome["record"],
                    scores=outcome["explicit"],
                    idempotency_key=f"form-{token}",
                    fingerprint=f"form-{token}",
                    scored=outcome["scored"],
                )
            except LedgerError as exc:
                outcome = {
                    "problem": exc.message,
                    "violations": _explained(exc.violations, competition.game, form),
                }
                refused(form, outcome)
                if queued:
                    return _refused_json(form)
            else:
                if queued:
                    page = reverse("result", args=[club, slug, _result.pk])
                    state = "recorded" if created else "already"
                    return JsonResponse({"status": state, "result": _result.pk, "url": page})
                if created and _result.status == Result.Status.PENDING:
                    messages.success(request, WAITS[competition.confirmation])
                elif created:
                    messages.success(request, _("Result recorded."))
                else:
                    # The same form sent again (a second tap, Back and Record): the first
                    # result, as it was recorded.
                    messages.info(request, _("This result was already recorded."))
                    return redirect("result", club=club, slug=slug, pk=_result.pk)
                target = reverse("score-entry", args=[club, slug, table_obj.pk])
                return redirect(target + (f"?mode={mode}" if mode != "form" else ""))
    recent = list(table_obj.results.order_by("-entered_at", "-pk")[:10])
    viewer = viewer_of(request)
    for r in recent:
        # sealed until confirmed (ledger/clubs/office/visibility.py)
        r.hidden = not viewer.may_see(r)
    if not form.is_bound and isinstance(form, DeclaredSummaryForm):
        # A field that follows the last result (the next hand's dealer) starts where the
        # engine said it goes.
        for declared in form.declaration.fields():
            following = _following(recent, declared.follows) if declared.follows else None
            if following in {index for index, _name in seats}:
                form.fields[declared.name].initial = following
    sign_off = competition.confirmation == Competition.Confirmation.OPPONENTS
    qr = _qr_svg(request.build_absolute_uri()) if sign_off else ""
    engine = not plain_scores(competition.game)
    from ledger.night.services import clock_state

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
            "engine": engine,
            "mode": mode,
            "game": competition.game,
            "modes": list(MODE_LABELS.items()) if engine else [],
            "qr": qr,
            "clock": clock_state(table_obj.round, table_obj) if table_obj.round_id else None,
            "to_confirm": selectors.confirmable(request.user, competition).count(),
            "glance": _at_a_glance(competition, table_obj, seats, viewer),
            # A table with its games played offers no form: its results are to be opened. A
            # result sent to it anyway is refused at the form, with what was typed kept.
            "full": request.method != "POST"
            and table_obj.capacity is not None
            and table_obj.games >= table_obj.capacity,
            "counted": [r for r in recent if r.status in COUNTING],
            "can_referee": competition.club.allows(request.user, Role.REFEREE),
            "knockout_table": competition.format == Competition.Format.KNOCKOUT,
        },
    )


def service_worker(request: HttpRequest) -> HttpResponse:
    """The score-entry pages' service worker (static/web/score-sw.js), served from the site's
    root so that it may keep the tables' entry pages for when the phone is offline."""
    from django.contrib.staticfiles import finders

    path = finders.find("web/score-sw.js")
    with open(str(path), encoding="utf-8") as handle:
        body = handle.read()
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response


# What the scorekeeper is told when a result is recorded but does not count yet.
WAITS: dict[str, StrOrPromise] = {
    Competition.Confirmation.NONE: gettext_lazy("Result recorded."),
    Competition.Confirmation.SECOND_PERSON: gettext_lazy(
        "Result recorded: it waits for another scorekeeper or a referee to confirm it, and "
        "counts in the standings once confirmed."
    ),
    Competition.Confirmation.BLIND: gettext_lazy(
        "Result recorded: it waits for a second scorekeeper to type it again without seeing "
        "it, and counts once the two agree."
    ),
    Competition.Confirmation.OPPONENTS: gettext_lazy(
        "Result recorded: it waits for the other players to sign it off (the code below), "
        "and counts once they confirm."
    ),
}


def _refused_json(form: EntryForm) -> JsonResponse:
    """A queued result the server refuses: what to fix, in words, for the phone to show."""
    problems = [f"{where}: {what}" if where else what for where, what in form.problems()]
    return JsonResponse({"status": "refused", "problems": problems}, status=422)


def _next_dealer(recent: list[Any]) -> int | None:
    """The seat that deals next, as the engine gave it with the table's latest result."""
    return _following(recent, "next_dealer")


def _following(recent: list[Any], key: str) -> int | None:
    """A seat the engine gave under ``key`` with the table's latest result."""
    if not recent:
        return None
    verdict = recent[0].verdict if isinstance(recent[0].verdict, dict) else {}
    # A summary's verdict holds it at the top; a full record's in its outcome's detail.
    following = verdict.get(key)
    if following is None:
        detail = (verdict.get("outcome") or {}).get("detail")
        following = detail.get(key) if isinstance(detail, dict) else None
    return following if isinstance(following, int) and not isinstance(following, bool) else None


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
    form, seats = _entry_form(competition, table_obj, request, _mode(request))
    outcome = (
        _evaluate(competition, table_obj, form, preview=True) if request.method == "POST" else {}
    )
    return render(
        request,
        "web/score/preview.html",
        {"outcome": outcome, "seats": seats, "form": form, "game": competition.game},
    )
