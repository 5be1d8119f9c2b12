"""Pages of the digital tables. Thin: read through selectors, write through services.

The board of a seat is one htmx fragment: it polls while others are to act and stops
polling on the seat's own turn (nothing can change until it moves), so a player's focus is
never taken away while choosing.
"""

from __future__ import annotations

import json
from typing import Any, cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.core import registry
from games.core import words as game_words
from ledger.clubs.errors import Invalid, LedgerError
from ledger.clubs.games import has_strong_bot, meta, presets, reader_language
from ledger.clubs.models import Club, Competition, Role, Table
from ledger.play import boards, clocks, dealcheck, drawings, live, selectors, services
from ledger.play.models import GameTable, PlaySeat
from ledger.play.replay import bot_kinds, engine, replay

# Past this many choices the actions are offered as one list instead of one button each.
MAX_BUTTONS = 40
OTHER_SEATS = ["heuristic", "strong", "random", "open"]
# The button of a choice offered item by item (pick_of), by the action's key.
PICK_LABELS = {"discard": gettext_lazy("Discard them")}


def _table(pk: int) -> GameTable:
    return get_object_or_404(
        GameTable.objects.select_related("club", "competition", "result__competition"), pk=pk
    )


def action_label(action: dict[str, Any], game: str = "", names: list[str] | None = None) -> str:
    """An action in words, as players say it, from the game's own words module
    (games/<slug>/words.py) in the page's language, a seat it names said by its player's
    name (``names``, by seat); the bare notation only for a game that declares no words."""
    words = game_words.for_game(game) if game else None
    if words is not None:
        return str(words.action(action, services.language(), names))
    parts = []
    for key, value in action.items():
        if isinstance(value, list):
            value = " ".join(str(v) for v in value)
        elif isinstance(value, dict):
            value = " ".join(f"{k}={v}" for k, v in value.items())
        parts.append(f"{key} {value}")
    return " · ".join(parts)


def pick_of(legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    """When the choice is a few items out of many (the monte's discard: three cards of a
    hand, hundreds of combinations), the items to tick instead of every combination: the
    one key every legal action has, how many items it takes and the items it may take. None
    for any other choice, which is offered action by action."""
    if len(legal) <= MAX_BUTTONS or any(len(a) != 1 for a in legal):
        return None
    keys = {next(iter(a)) for a in legal}
    if len(keys) != 1:
        return None
    key = keys.pop()
    chosen = [a[key] for a in legal]
    if not all(isinstance(c, list) and all(isinstance(x, str) for x in c) for c in chosen):
        return None
    sizes = {len(c) for c in chosen}
    if len(sizes) != 1:
        return None
    return {
        "key": key,
        "label": PICK_LABELS.get(key, key),
        "count": sizes.pop(),
        "items": list(dict.fromkeys(x for c in chosen for x in c)),
    }


def _named_pick(game: str, pick: dict[str, Any] | None) -> dict[str, Any] | None:
    if pick is not None:
        pick["items"] = card_names(game, pick["items"])
    return pick


def _by_seat(names: dict[int, str]) -> list[str]:
    return [names.get(i, "") for i in range(max(names, default=-1) + 1)]


def _move_log(
    table: GameTable, names: dict[int, str], viewer: int, last: int | None = None
) -> list[dict[str, Any]]:
    """Every move so far (the ``last`` ones only, if given) as a score sheet: who, and what
    they did in words. While the game runs, another seat's move is said only if the game
    declares its kind public (a bid, a card played face up); any other (a discard, a
    face-down play, written points) waits for the end of the game."""
    info = engine(table.game).info
    return [
        {
            "step": step + 1,
            "name": names.get(s, ""),
            "label": action_label(a, table.game, _by_seat(names))
            if table.over or s == viewer or info.is_public(a)
            else _("a move (shown when the game is over)"),
        }
        for step, s, a in services.moves_of(table, last=last)
    ]


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _view_rows(
    view: dict[str, Any], game: str = "", names: list[str] | None = None
) -> list[tuple[str, str]]:
    words = game_words.for_game(game) if game else None
    if words is not None:
        return list(words.state(view, services.language(), names))
    hidden = {"hand", "game", "seat"}
    return [(k, _compact(v)) for k, v in view.items() if k not in hidden and v not in (None, [])]


def card_names(game: str, codes: Any) -> list[dict[str, str]]:
    """Cards of a hand as {"code", "name"}: the name in words for the page, the code only
    in attributes the page's script reads."""
    words = game_words.for_game(game)
    lang = services.language()
    if boards.has_faces(game):
        return [boards.card(game, str(c), lang) for c in (codes or [])]
    return [
        {"code": str(c), "name": str(words.card(c, lang)) if words is not None else str(c)}
        for c in (codes or [])
    ]


def _result_url(table: GameTable) -> str | None:
    result = table.result
    if result is None:
        return None
    return reverse("result", args=[table.club.slug, result.competition.slug, result.pk])


def _board_context(
    request: HttpRequest,
    table: GameTable,
    error: str = "",
    violations: Any = None,
    show_hint: bool = False,
) -> dict[str, Any]:
    seat = services.seat_of(table, request.user)
    # Each seat's presence, for those the table's socket would tell it (its seats and the
    # club's members), while the game is on.
    live_watcher = not table.over and (
        seat is not None or bool(live.may_watch(table.pk, request.user))
    )
    context: dict[str, Any] = {
        "table": table,
        "seats": selectors.seat_rows(table, request.user if live_watcher else None),
        "seat": seat,
        "error": error,
        "violations": violations or [],
        "game_label": meta(table.game).label,
        "result_url": _result_url(table),
        "is_creator": table.created_by_id == getattr(request.user, "pk", None),
        "bot_kinds": bot_kinds(table.game),
        "fair": selectors.fairness(table),
        # The moves of the state the board shows (the page's script keeps the newest
        # board by it); the row's count until a state is read below.
        "shown_moves": table.moves_count,
    }
    context["clocks"] = clocks.shown(table, [s["name"] for s in context["seats"]], timezone.now())
    context["on_flag"] = engine(table.game).info.on_flag
    context["clock_minutes"] = table.clock_seconds // 60
    if table.clock_flagged is not None and context["seats"]:
        context["flagged_name"] = context["seats"][table.clock_flagged]["name"]
        context["flag_abandons"] = table.status == GameTable.Status.ABANDONED
    if seat is not None and table.practice and table.status == GameTable.Status.PLAYING:
        asked = services.pending_takeback(table)
        context["takeback"] = {
            "can_ask": asked is None and services.can_take_back(table, seat),
            "asked": asked,
            "mine": asked is not None and asked.seat == seat.index,
            "answered": asked is not None and str(seat.index) in asked.answers,
            "asker": context["seats"][asked.seat]["name"] if asked is not None else "",
        }
    if seat is not None and seat.player_id is not None:
        context["history_url"] = reverse("player", args=[table.club.slug, seat.player_id])
    if seat is not None and table.status != GameTable.Status.WAITING:
        payload = selectors.seat_payload(table, seat)
        names = {s["index"]: s["name"] for s in context["seats"]}
        by_seat = _by_seat(names)
        actions = [
            {"json": _compact(a), "label": action_label(a, table.game, by_seat)}
            for a in payload["legal_actions"]
        ]
        to_act = payload["to_act"]
        view = payload["view"] if isinstance(payload["view"], dict) else {}
        lang = services.language()
        choice = (
            boards.choices(table.game, view, payload["legal_actions"], lang, by_seat)
            if boards.has_faces(table.game)
            else None
        )
        context.update(
            tableau=boards.board(
                table.game,
                view,
                lang,
                [s["name"] for s in context["seats"]],
                viewer=seat.index,
                to_act=to_act,
            ),
            drawing=drawings.drawing(table.game, view, lang, [s["name"] for s in context["seats"]]),
            choice=choice,
            slots=boards.slots(table.game, view, payload["legal_actions"], lang)
            if payload["your_turn"]
            else None,
            number=boards.number(table.game, payload["legal_actions"], view, lang)
            if payload["your_turn"]
            else None,
            others=choice["others"] if choice is not None else actions,
            moves_log=_move_log(table, names, seat.index),
            payload=payload,
            hand=card_names(table.game, boards.hand_of(table.game, view))
            if boards.hand_of(table.game, view) is not None
            else None,
            rows=_view_rows(payload["view"], table.game, by_seat)
            if isinstance(payload["view"], dict)
            else [],
            actions=actions,
            pick=_named_pick(table.game, pick_of(payload["legal_actions"])),
            as_list=len(actions) > MAX_BUTTONS,
            # One id for one turn, however often the board is drawn again (the poll, the
            # live refresh, a forced move playing itself): a move sent from an older copy
            # of this turn is the move already made, never a second one or a refusal. The
            # count is the shown state's, not the table row's, which a bot's move made
            # since the row was read leaves behind.
            move_id=f"web-{seat.index}-{payload['moves']}",
            shown_moves=payload["moves"],
            to_act_name=names.get(to_act, "") if to_act is not None else "",
            scores=payload["outcome"]["scores"] if payload["outcome"] else None,
        )
        if payload["your_turn"] and table.practice:
            # Hints only where nothing counts; on a first game of this game, on every turn.
            context["guided"] = selectors.first_game(table, request.user)
            context["hints"] = True
            found = selectors.hint(table, seat, lang) if show_hint or context["guided"] else None
            if found is not None:
                context["hint"] = {
                    "label": action_label(found["action"], table.game, by_seat),
                    "why": found["why"],
                    "rule": found["rule"],
                }
    if seat is None and table.status == GameTable.Status.PLAYING:
        # A spectator sees the public table (the engine's view of no seat), never a hand.
        shown, context["shown_moves"] = services.replayed(table)
        public = shown.view(None)
        context["public_rows"] = _view_rows(
            public, table.game, [s["name"] for s in context["seats"]]
        )
        context["public_tableau"] = boards.board(
            table.game,
            public,
            services.language(),
            [s["name"] for s in context["seats"]],
            to_act=public.get("to_act") if isinstance(public, dict) else None,
        )
        context["public_drawing"] = drawings.drawing(
            table.game, public, services.language(), [s["name"] for s in context["seats"]]
        )
    presence = {s["index"]: s["presence"] for s in context["seats"]}
    for drawn in (context.get("tableau"), context.get("public_tableau")):
        for row in drawn["seats"] if drawn else []:
            row["presence"] = presence.get(row["seat"], "")
    context["polling"] = not table.over and not context.get("payload", {}).get("your_turn")
    if table.status == GameTable.Status.WAITING and context["is_creator"]:
        context["invite_url"] = request.build_absolute_uri(selectors.invite_path(table))
    return context


def _creatable(user: Any) -> tuple[list[Club], list[Competition]]:
    clubs = list(Club.objects.filter(memberships__player__user=user).distinct())
    competitions = [
        c
        for c in Competition.objects.filter(club__in=clubs).select_related("club")
        if c.club.allows(user, Role.SCOREKEEPER) and c.game in registry.available()
    ]
    return clubs, competitions


def _scheduled(user: Any) -> list[Table]:
    """Recent tables of competitions where this user sits, of games with an engine."""
    return list(
        Table.objects.filter(seats__player__user=user, competition__game__in=registry.available())
        .select_related("competition__club")
        .order_by("-created_at")[:30]
    )


def _choices() -> list[dict[str, Any]]:
    """Each game with its rulesets in words (the labels the game declares), default first."""
    language = reader_language()
    out = []
    for slug in registry.available():
        out.append(
            {
                "slug": slug,
                "label": meta(slug).label,
                "strong": has_strong_bot(slug),
                "rulesets": [
                    {"value": f"{slug}:{p.name}", "name": p.label, "seats": p.seats}
                    for p in presets(slug, language)
                ],
            }
        )
    return out


# What the new table's form shows before anything is typed (the lobby's defaults).
FORM_DEFAULTS = {
    "club": "",
    "ruleset": "",
    "competition": "",
    "others": "heuristic",
    "clock": "",
    "move_seconds": "30",
    "game_minutes": "10",
    "increment": "5",
    "deal": "",
    "label": "",
}


def _lobby_context(request: HttpRequest) -> dict[str, Any]:
    clubs, competitions = _creatable(request.user)
    tables = (
        GameTable.objects.filter(seats__user=request.user.pk)
        .select_related("club")
        .distinct()
        .order_by("-created_at")[:30]
    )
    mine = set(GameTable.objects.filter(seats__user=request.user.pk).values_list("pk", flat=True))
    in_clubs = GameTable.objects.filter(club__in=clubs).exclude(pk__in=mine).select_related("club")
    open_tables = [
        {"table": t, "join": selectors.invite_path(t)}
        for t in in_clubs.filter(
            status=GameTable.Status.WAITING,
            ledger_table__isnull=True,
            seats__kind=PlaySeat.Kind.OPEN,
        )
        .distinct()
        .order_by("-created_at")[:20]
    ]
    to_watch = list(in_clubs.filter(status=GameTable.Status.PLAYING).order_by("-last_move_at")[:20])
    games = _choices()
    return {
        "clubs": clubs,
        "competitions": competitions,
        "games": games,
        "strong_games": [g["label"] for g in games if g["strong"]],
        "tables": tables,
        "open_tables": open_tables,
        "to_watch": to_watch,
        "scheduled": _scheduled(request.user),
        "other_seats": OTHER_SEATS,
        "typed": dict(FORM_DEFAULTS),
        "field_errors": {},
    }


@login_required
def lobby(request: HttpRequest) -> HttpResponse:
    return render(request, "play/lobby.html", _lobby_context(request))


def _refused_form(request: HttpRequest, error: LedgerError) -> HttpResponse:
    """The lobby again with what was typed in the new table's form and the error at its
    field (or above the form when it is no one field's)."""
    context = _lobby_context(request)
    context["typed"].update(
        {k: str(request.POST.get(k, "")) for k in FORM_DEFAULTS if k in request.POST}
    )
    fields = {
        name: " ".join(str(m) for m in (said if isinstance(said, list) else [said]))
        for name, said in (getattr(error, "fields", None) or {}).items()
        if name in FORM_DEFAULTS
    }
    context["field_errors"] = fields
    context["form_error"] = "" if fields else error.message
    return render(request, "play/lobby.html", context, status=400)


@login_required
@require_POST
def create(request: HttpRequest) -> HttpResponse:
    data = request.POST
    try:
        club = Club.objects.filter(pk=int(data.get("club", "0") or 0)).first()
        competition = None
        if data.get("competition"):
            competition = Competition.objects.filter(pk=int(data["competition"])).first()
        if data.get("ledger_table"):
            sitting = Table.objects.select_related("competition__club").get(
                pk=int(data["ledger_table"])
            )
            table = services.create_table(
                user=request.user,
                club=sitting.competition.club,
                game=sitting.competition.game,
                seats=[],
                ledger_table=sitting,
            )
            return redirect("play-table", pk=table.pk)
        if club is None:
            raise Invalid(_("Choose a club."), fields={"club": [_("Choose a club.")]})
        if competition is not None:
            game, ruleset = competition.game, competition.ruleset or None
        else:
            game, _sep, name = data.get("ruleset", "").partition(":")
            if game not in registry.available() or name not in registry.get(game).rulesets:
                said = _("Choose a game and its ruleset.")
                raise Invalid(said, fields={"ruleset": [said]})
            ruleset = {"name": name}
        seats_n = registry.get(game).ruleset(ruleset).seats
        other = data.get("others", "heuristic")
        if other not in ("open", *bot_kinds(game)):
            said = _("%(game)s has no strong bot: choose heuristic or random bots.") % {
                "game": registry.get(game).info.name.get((get_language() or "it")[:2])
            }
            raise Invalid(said, fields={"others": [said]})
        clock = _clock_from(data)
        deal = data.get("deal", "").strip()
        if deal and not deal.isdigit():
            said = _("A deal number is made of digits only.")
            raise Invalid(said, fields={"deal": [said]})
        table = services.create_table(
            user=request.user,
            club=club,
            game=game,
            seats=["me"] + [other] * (seats_n - 1),
            ruleset=ruleset,
            competition=competition,
            label=data.get("label", "").strip(),
            seed=int(deal) if deal else None,
            practice=bool(deal),
            clock=clock,
        )
    except LedgerError as exc:
        return _refused_form(request, exc)
    except (ValueError, Table.DoesNotExist) as exc:
        messages.error(request, str(exc))
        return redirect("play-home")
    return redirect("play-table", pk=table.pk)


def _clock_from(data: Any) -> dict[str, Any] | None:
    """The clock chosen in the new table's form: none, per move (seconds a turn) or per
    game (minutes a seat, seconds added after each move)."""
    kind = data.get("clock", "")
    if not kind:
        return None

    def number(field: str) -> int:
        typed = (data.get(field, "") or "").strip()
        if not typed.isdigit():
            said = _("The clock's times are whole numbers.")
            raise Invalid(said, fields={field: [said]})
        return int(typed)

    if kind == "move":
        return {"kind": kind, "seconds": number("move_seconds"), "increment": 0}
    return {
        "kind": kind,
        "seconds": number("game_minutes") * 60,
        "increment": number("increment"),
    }


def table_page(request: HttpRequest, pk: int) -> HttpResponse:
    table = _table(pk)
    if not table.over and services.enforce_clock(table):
        table = _table(pk)
    context = _board_context(request, table)
    # Only who may hold the table's socket gets the live script; others see the board poll.
    context["watch_live"] = not table.over and bool(live.may_watch(table.pk, request.user))
    return render(request, "play/table.html", context)


def board(request: HttpRequest, pk: int) -> HttpResponse:
    table = _table(pk)
    if not table.over:
        services.expire_stale_tables_for(table)
        services.enforce_clock(table)
        table.refresh_from_db()
    return render(request, "play/_board.html", _board_context(request, table))


@login_required
@require_POST
def act(request: HttpRequest, pk: int) -> HttpResponse:
    table = _table(pk)
    error, violations = "", None
    try:
        slotted = boards.compose_slots(table.game, request.POST) or boards.compose_number(
            table.game, request.POST
        )
        if slotted is not None:
            action = slotted
        elif "pick" in request.POST:
            # The ticked items of a choice offered item by item (see pick_of).
            action = {request.POST["pick"]: request.POST.getlist("item")}
        else:
            action = boards.merge_options(
                table.game, json.loads(request.POST.get("action", "")), request.POST
            )
        services.act(
            user=request.user,
            table=table,
            action=action,
            move_id=request.POST.get("move_id") or None,
        )
    except json.JSONDecodeError:
        error = _("Choose one of the actions offered.")
    except LedgerError as exc:
        error, violations = exc.message, exc.violations
    table.refresh_from_db()
    if request.headers.get("HX-Request"):
        return render(
            request, "play/_board.html", _board_context(request, table, error, violations)
        )
    if error:
        messages.error(request, error)
    return redirect("play-table", pk=table.pk)


def _board_answer(request: HttpRequest, table: GameTable, error: str = "") -> HttpResponse:
    """The board after a write from it: drawn in place for htmx, else the page again."""
    table.refresh_from_db()
    if request.headers.get("HX-Request"):
        return render(request, "play/_board.html", _board_context(request, table, error))
    if error:
        messages.error(request, error)
    return redirect("play-table", pk=table.pk)


@login_required
def hint(request: HttpRequest, pk: int) -> HttpResponse:
    """The board with a hint: the heuristic bot's move for your turn and why (practice)."""
    table = _table(pk)
    if request.headers.get("HX-Request"):
        return render(request, "play/_board.html", _board_context(request, table, show_hint=True))
    context = _board_context(request, table, show_hint=True)
    context["watch_live"] = not table.over and bool(live.may_watch(table.pk, request.user))
    return render(request, "play/table.html", context)


@login_required
@require_POST
def takeback(request: HttpRequest, pk: int) -> HttpResponse:
    """Ask to take back your last move (practice tables), or answer the others' request."""
    table = _table(pk)
    error = ""
    try:
        answer = request.POST.get("answer", "")
        if answer:
            services.answer_takeback(user=request.user, table=table, agree=answer == "yes")
        else:
            services.ask_takeback(user=request.user, table=table)
    except LedgerError as exc:
        error = exc.message
    return _board_answer(request, table, error)


@login_required
@require_POST
def again(request: HttpRequest, pk: int) -> HttpResponse:
    """Another game at a finished table: the same seats and settings, a new deal."""
    table = _table(pk)
    try:
        new = services.play_again(user=request.user, table=table)
    except LedgerError as exc:
        messages.error(request, exc.message)
        return redirect("play-table", pk=table.pk)
    return redirect("play-table", pk=new.pk)


@login_required
@require_POST
def bots(request: HttpRequest, pk: int) -> HttpResponse:
    table = _table(pk)
    try:
        services.fill_with_bots(
            user=request.user, table=table, kind=request.POST.get("kind", "heuristic")
        )
    except LedgerError as exc:
        messages.error(request, exc.message)
    return redirect("play-table", pk=table.pk)


def join(request: HttpRequest, pk: int, invite: str) -> HttpResponse:
    table = _table(pk)
    if invite != table.invite:
        raise Http404
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{reverse('login')}?next={request.path}")
        try:
            services.join(user=request.user, table=table, invite=invite)
        except LedgerError as exc:
            messages.error(request, exc.message)
            return redirect(request.path)
        return redirect("play-table", pk=table.pk)
    return render(
        request,
        "play/join.html",
        {
            "table": table,
            "seats": selectors.seat_rows(table),
            "game_label": meta(table.game).label,
            "seated": services.seat_of(table, request.user),
        },
    )


def replay_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The finished game move by move: every hand is public once it is over."""
    table = _table(pk)
    if not table.over:
        messages.info(request, _("A game can be replayed once it is over."))
        return redirect("play-table", pk=table.pk)
    voided = services.voided_steps(table)
    moves: list[tuple[int, Any, str]] = [
        (seat, action, bot)
        for step, seat, action, bot in table.moves.order_by("step").values_list(
            "step", "seat", "action", "bot"
        )
        if step not in voided  # taken back at a practice table
    ]
    try:
        step = max(0, min(int(request.GET.get("step", len(moves))), len(moves)))
    except ValueError:
        step = len(moves)
    deal = cast(dict[str, Any], table.deal)  # a table is dealt when it is made
    state = replay(table.game, deal, [(s, a) for s, a, _b in moves[:step]])
    seats = selectors.seat_rows(table)
    views = [
        {
            "seat": seat,
            "hand": card_names(table.game, boards.hand_of(table.game, state.view(seat["index"]))),
        }
        for seat in seats
    ]
    names = {s["index"]: s["name"] for s in seats}
    log = [
        {
            "step": i + 1,
            "seat": s,
            "name": names.get(s, ""),
            "label": action_label(a, table.game, _by_seat(names)),
            "bot": b,
        }
        for i, (s, a, b) in enumerate(moves)
    ]
    return render(
        request,
        "play/replay.html",
        {
            "table": table,
            "game_label": meta(table.game).label,
            "step": step,
            "total": len(moves),
            "views": views,
            "rows": _view_rows(state.view(None), table.game, _by_seat(names)),
            "tableau": boards.board(
                table.game,
                state.view(None),
                services.language(),
                [s["name"] for s in seats],
                to_act=state.to_act() if not state.is_over() else None,
            ),
            "drawing": drawings.drawing(
                table.game, state.view(None), services.language(), [s["name"] for s in seats]
            ),
            "log": log,
            "last": log[step - 1] if step else None,
            "outcome": state.outcome().to_json() if state.is_over() else None,
            "final": [
                (names.get(i, ""), score)
                for i, score in enumerate(state.outcome().scores if state.is_over() else [])
            ],
            "result_url": _result_url(table),
            "fair": selectors.fairness(table),
            "deal_check": dealcheck.data(
                table,
                selectors.full_record(table),
                [names.get(i, "") for i in range(len(seats))],
                services.language(),
            ),
        },
    )


def verify_deal(request: HttpRequest, pk: int) -> HttpResponse:
    """The single-file verifier (Python's standard library only) of a finished game's deal."""
    table = _table(pk)
    if not table.over:
        return JsonResponse(
            {"error": {"code": "conflict", "message": _("The deal is checked once it is over.")}},
            status=409,
        )
    response = HttpResponse(
        dealcheck.VERIFIER.read_text(encoding="utf-8"), content_type="text/x-python"
    )
    response["Content-Disposition"] = 'attachment; filename="verify_deal.py"'
    return response


def record(request: HttpRequest, pk: int) -> HttpResponse:
    table = _table(pk)
    if not table.over:
        return JsonResponse(
            {"error": {"code": "conflict", "message": _("The record is shown once it is over.")}},
            status=409,
        )
    # with what a deal check needs beside it (San Marco: the order of its chance)
    found = dealcheck.checked_record(table.game, selectors.full_record(table))
    response = JsonResponse(found, json_dumps_params={"indent": 2})
    response["Content-Disposition"] = f'attachment; filename="{table.game}-{table.pk}.json"'
    return response
