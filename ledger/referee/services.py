"""The referee desk's writes. Each public function is one transaction.

A ruling is written to the ledger as a correction, through the ledger's one way of
changing a written result (clubs.results.services.correct): the examined result is superseded (its
journal credits reversed, never edited), and a new version carrying the ruling's scores
(an artificial, weighted or split score as much as the rules'), the record and the
engine's verdict counts at once; a void ruling voids it through the same function.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.core import RecordError
from ledger.clubs import events
from ledger.clubs.errors import Conflict, Invalid, NotAllowed
from ledger.clubs.models import Competition, Dispute, Entry, Result, Role, Seat
from ledger.clubs.office.roles import require_role
from ledger.clubs.results import previews, selectors, services
from ledger.clubs.results.services import ROW_LOCK as _ROW
from ledger.clubs.scoring import MAX_POINTS, read_error_words
from ledger.referee import checking
from ledger.referee.models import ArtificialScores, Case

CENT = Decimal("0.01")
LEVELS = ("plus", "average", "minus")


def _points(value: Any, field: str) -> Decimal:
    try:
        point = Decimal(str(value).strip().replace(",", "."))
    except (InvalidOperation, ValueError):
        point = None
    if isinstance(value, bool) or point is None or not point.is_finite():
        raise Invalid(
            _("“%(v)s” is not a score: write a number.") % {"v": value},
            fields={field: [_("Not a number.")]},
        )
    if abs(point) >= MAX_POINTS:
        raise Invalid(
            _("%(v)s points is beyond any game's range.") % {"v": value},
            fields={field: [_("At most 999,999,999 points.")]},
        )
    return point.quantize(CENT, rounding=ROUND_HALF_UP)


def check_numbers(params: dict[str, Any]) -> None:
    """Refuse a ruling's numbers out of range before anything is written (no case is
    opened for a ruling that cannot be given)."""
    for key in ("scores", "seats", "outcomes"):
        value = params.get(key)
        items = value if isinstance(value, list) else [value]
        for item in items:
            if isinstance(item, int | float | Decimal) and not isinstance(item, bool):
                _points(item, key)
            elif isinstance(item, dict):
                check_numbers(item)


def _vector(values: Any, seats: int, field: str) -> list[Decimal]:
    if not isinstance(values, list | tuple) or len(values) != seats:
        raise Invalid(
            _("Give one score per seat: this table has %(n)d seats.") % {"n": seats},
            fields={field: [_("Expected %(n)d scores.") % {"n": seats}]},
        )
    return [_points(v, field) for v in values]


class _Levels:
    """The competition's artificial scores, read only when a ruling names one."""

    def __init__(self, competition: Competition) -> None:
        self.competition = competition
        self.found: ArtificialScores | None = None

    def value(self, level: str) -> Decimal:
        if self.found is None:
            self.found = ArtificialScores.for_competition(self.competition)
        return self.found.value(level)


def _reference(
    name: Any, case: Case, result: Result, artificial: _Levels, field: str
) -> list[Decimal] | Decimal:
    """A named score: the table's, the rules', or an artificial level (one number)."""
    if name == "table":
        return [Decimal(s) for s in result.scores]
    if name == "rules":
        verdict = case.verdict or {}
        if not verdict.get("complete") or not verdict.get("outcome"):
            raise Invalid(
                _("The rules give no score: the record does not reach the end of the hand."),
                fields={field: [_("Complete the record first.")]},
            )
        return [Decimal(s) for s in verdict["outcome"]["scores"]]
    if name == "remedy":
        remedy = (case.verdict or {}).get("remedy") or {}
        if not remedy.get("scores"):
            raise Invalid(
                _("There is no fault to remedy: the record is played by the rules."),
                fields={field: [_("Choose another score.")]},
            )
        return [Decimal(str(s)) for s in remedy["scores"]]
    if name in LEVELS:
        return artificial.value(name)
    raise Invalid(
        _("Unknown score “%(name)s”: use table, rules, plus, average, minus or numbers.")
        % {"name": name},
        fields={field: [_("Unknown score.")]},
    )


def ruling_scores(case: Case, result: Result, kind: str, params: dict[str, Any]) -> list[Decimal]:
    """The per-seat points a ruling gives (Law 12 style), or an error saying what to fix."""
    seats = len(result.scores)
    artificial = _Levels(result.competition)

    def whole(name: Any, field: str) -> list[Decimal]:
        if isinstance(name, list):
            return _vector(name, seats, field)
        ref = _reference(name, case, result, artificial, field)
        return ref if isinstance(ref, list) else [ref] * seats

    if kind == Case.Kind.UPHELD:
        return whole("table", "kind")
    if kind == Case.Kind.VOID:
        return [Decimal(0).quantize(CENT)] * seats
    if kind == Case.Kind.ASSIGNED:
        return whole(params.get("scores", "rules"), "scores")
    if kind in (Case.Kind.ARTIFICIAL, Case.Kind.SPLIT):
        per_seat = params.get("seats")
        if not isinstance(per_seat, list) or len(per_seat) != seats:
            raise Invalid(
                _("Say for every seat which score it gets (%(n)d seats).") % {"n": seats},
                fields={"seats": [_("One choice per seat.")]},
            )
        out = []
        for i, choice in enumerate(per_seat):
            field = f"seats.{i}"
            if kind == Case.Kind.ARTIFICIAL and choice not in LEVELS:
                raise Invalid(
                    _("Seat %(i)d: an artificial score is average-plus, average or average-minus.")
                    % {"i": i + 1},
                    fields={field: [_("Choose plus, average or minus.")]},
                )
            if isinstance(choice, str) and choice not in ("table", "rules", "remedy", *LEVELS):
                out.append(_points(choice, field))
                continue
            if isinstance(choice, int | float) and not isinstance(choice, bool):
                out.append(_points(choice, field))
                continue
            ref = _reference(choice, case, result, artificial, field)
            out.append(ref[i] if isinstance(ref, list) else ref)
        return out
    if kind == Case.Kind.WEIGHTED:
        outcomes = params.get("outcomes")
        if not isinstance(outcomes, list) or len(outcomes) < 2:
            raise Invalid(
                _("A weighted score needs at least two outcomes, each with its weight."),
                fields={"outcomes": [_("Give two or more outcomes.")]},
            )
        total_weight = Decimal(0)
        sums = [Decimal(0)] * seats
        for n, item in enumerate(outcomes):
            field = f"outcomes.{n}"
            if not isinstance(item, dict):
                raise Invalid(_("Each outcome has scores and a weight."), fields={field: ["?"]})
            weight = _points(item.get("weight"), f"{field}.weight")
            if weight <= 0:
                raise Invalid(
                    _("Outcome %(n)d: a weight is more than zero.") % {"n": n + 1},
                    fields={f"{field}.weight": [_("Must be positive.")]},
                )
            vector = whole(item.get("scores"), f"{field}.scores")
            total_weight += weight
            sums = [s + weight * v for s, v in zip(sums, vector, strict=True)]
        return [(s / total_weight).quantize(CENT, rounding=ROUND_HALF_UP) for s in sums]
    raise Invalid(
        _("Unknown ruling “%(kind)s”.") % {"kind": kind},
        fields={"kind": [_("Choose one of: %(k)s.") % {"k": ", ".join(Case.Kind.values)}]},
    )


@transaction.atomic
def open_case(
    *,
    user: Any,
    competition: Competition,
    result: Result | None = None,
    record: dict[str, Any] | None = None,
) -> Case:
    """A case on the desk: from a result (its record and any open dispute come along) or
    fresh. Only referees open cases."""
    require_role(user, competition.club, Role.REFEREE)
    if result is not None and result.competition_id != competition.pk:
        raise Invalid(_("That result belongs to another competition."), fields={"result": ["?"]})
    if result is not None:
        earlier = Case.objects.filter(result=result, status=Case.Status.OPEN).first()
        if earlier is not None:
            # One open case per result: a new record replaces the one on the desk.
            if record and record != earlier.record:
                earlier.record = record
                _recheck(earlier)
            return earlier
    if result is not None and selectors.sealed_blind(result):
        # The case shows the record: opening it is opening the sealed first entry, written
        # down, and its referee can no longer be the blind second entry.
        services.open_sealed_result(
            user=user, result=result, reason=_("Case opened on the referee desk.")
        )
    if record is None:
        record = replayable(result.record if result is not None else None)
    dispute = None
    if result is not None:
        dispute = Dispute.objects.filter(result=result, ruling=Dispute.Ruling.OPEN).first()
    case = Case.objects.create(
        club=competition.club,
        competition=competition,
        result=result,
        dispute=dispute,
        game=competition.game,
        record=record,
        opened_by=user,
    )
    if record:
        _recheck(case)
    if result is not None:  # the players of the hand hear that a referee was called
        events.after_commit(events.REFEREE_CALL, case=case.pk)
    return case


def replayable(record: Any) -> dict[str, Any]:
    """A result's record as the case's starting point: a whole record (deal and steps); a
    summary has no hand to replay, so the case starts from an empty deal."""
    if isinstance(record, dict) and ("deal" in record or "actions" in record):
        return dict(record)
    return {}


def _recheck(case: Case) -> None:
    try:
        verdict = checking.check(case.game, case.record, case.competition.ruleset)
    except Invalid as exc:
        verdict = {"error": exc.message}
    verdict.pop("timeline", None)
    case.verdict = verdict
    case.save(update_fields=["record", "verdict"])


def _editable(user: Any, case: Case) -> Case:
    locked = (
        Case.objects.select_for_update(**_ROW).select_related("competition__club").get(pk=case.pk)
    )
    require_role(user, locked.competition.club, Role.REFEREE)
    if locked.status != Case.Status.OPEN:
        raise Conflict(_("This case is closed: the ruling was given."))
    return locked


@transaction.atomic
def set_record(*, user: Any, case: Case, record: dict[str, Any]) -> Case:
    """Replace the case's record (pasted or uploaded) and check it again."""
    case = _editable(user, case)
    # refuse what cannot be read
    checking.check(case.game, record, case.competition.ruleset, remedy=False)
    case.record = record
    case.later = []
    case.save(update_fields=["later"])
    _recheck(case)
    return case


@transaction.atomic
def start_deal(*, user: Any, case: Case, seed: int) -> Case:
    """A fresh deal from the engine's seed, to enter the play step by step."""
    case = _editable(user, case)
    engine = checking.engine_for(case.game)
    ruleset = engine.ruleset(case.competition.ruleset or None)
    record = engine.new_game(ruleset, seed).to_record()
    record["actions"] = []
    case.record = record
    case.later = []
    case.save(update_fields=["later"])
    _recheck(case)
    return case


@transaction.atomic
def add_step(*, user: Any, case: Case, action: dict[str, Any], as_played: bool) -> Case:
    """Append one action. Unless the referee records what was really played, only a legal
    choice is accepted."""
    case = _editable(user, case)
    action = checking.decode_one(case.game, action)
    state = checking.builder(case.game, case.record, case.competition.ruleset)
    if state["error"]:
        raise Invalid(state["error"], fields={"record": [state["error"]]})
    if state["over"]:
        raise Invalid(_("The hand is over: no more steps."), fields={"action": ["?"]})
    broken = checking.breaches(case.game, case.record, case.competition.ruleset, action)
    if broken and not as_played:
        raise Invalid(
            _(
                "That is not a legal choice now: %(rules)s Record it as it happened to enter "
                "it anyway; the verdict will mark the fault."
            )
            % {"rules": checking.rules_in_words(case.game, broken)},
            fields={"action": [_("Not legal here.")]},
        )
    record = dict(case.record)
    record["actions"] = [*record.get("actions", []), action]
    case.record = record
    later = list(case.later or [])
    # The next step set aside entered again is taken from them; another step (what really
    # happened there) leaves them to be put back after it, or dropped.
    case.later = later[1:] if later and later[0] == action else later
    _recheck(case)
    case.save(update_fields=["later"])
    return case


@transaction.atomic
def undo_step(*, user: Any, case: Case) -> Case:
    case = _editable(user, case)
    record = dict(case.record)
    if record.get("actions"):
        return _cut(case, len(record["actions"]) - 1)
    return case


def _cut(case: Case, keep: int) -> Case:
    record = dict(case.record)
    actions = list(record.get("actions", []))
    record["actions"] = actions[:keep]
    case.later = [*actions[keep:], *(case.later or [])]
    case.record = record
    _recheck(case)
    case.save(update_fields=["later"])
    return case


@transaction.atomic
def go_to_step(*, user: Any, case: Case, step: Any) -> Case:
    """Back to just before step ``step`` (counted from 1): the steps from it on are set
    aside, to be put back or replaced. Past the end, the steps set aside come back up to it."""
    case = _editable(user, case)
    total = len(case.record.get("actions", [])) if case.record else 0
    later = list(case.later or [])
    text = str(step).strip()
    if not text.isdigit() or not 1 <= int(text) <= total + len(later) + 1:
        raise Invalid(
            _("Write a step number from 1 to %(n)d.") % {"n": total + len(later) + 1},
            fields={"step": [_("No such step.")]},
        )
    wanted = int(text) - 1
    if wanted <= total:
        return _cut(case, wanted)
    return _put_back(case, wanted - total)


@transaction.atomic
def put_back(*, user: Any, case: Case, count: int | None = None) -> Case:
    """The steps set aside entered again as they were (all of them when count is None)."""
    case = _editable(user, case)
    later = list(case.later or [])
    return _put_back(case, len(later) if count is None else count)


@transaction.atomic
def drop_later(*, user: Any, case: Case, count: int | None = None) -> Case:
    """Forget the steps set aside (the next ``count``, or all), e.g. one replaced by what
    really happened there."""
    case = _editable(user, case)
    later = list(case.later or [])
    case.later = [] if count is None else later[count:]
    case.save(update_fields=["later"])
    return case


def _put_back(case: Case, count: int) -> Case:
    later = list(case.later or [])
    record = dict(case.record)
    record["actions"] = [*record.get("actions", []), *later[:count]]
    case.record = record
    case.later = later[count:]
    _recheck(case)
    case.save(update_fields=["later"])
    return case


@transaction.atomic
def link_result(*, user: Any, case: Case, result: Result) -> Case:
    case = _editable(user, case)
    if result.competition_id != case.competition_id:
        raise Invalid(_("That result belongs to another competition."), fields={"result": ["?"]})
    case.result = result
    case.dispute = Dispute.objects.filter(result=result, ruling=Dispute.Ruling.OPEN).first()
    case.save(update_fields=["result", "dispute"])
    return case


@transaction.atomic
def rule(
    *,
    user: Any,
    case: Case,
    kind: str,
    params: dict[str, Any] | None = None,
    note: str = "",
) -> Result:
    """Give the ruling: a correction with the verdict attached is written to the ledger, an
    open dispute on the result is closed, and the case is closed. Returns the new version."""
    case = _editable(user, case)
    if case.result_id is None:
        raise Invalid(
            _("Link the case to a result of the ledger before ruling."),
            fields={"result": [_("Required to rule.")]},
        )
    old = Result.objects.select_related("competition").get(pk=case.result_id)
    params = params or {}
    if kind == Case.Kind.VOID:
        return _void(user, case, old, params, note)
    # A result's scores and verdict never change once written: read unlocked, they are
    # what ``services.correct`` finds under its lock (which refuses a result corrected or
    # voided meanwhile).
    scores = ruling_scores(case, old, kind, params)
    verdict = dict(case.verdict or {})
    if not case.record and [Decimal(x) for x in old.scores] == scores:
        # A summary's case has no record to replay: a ruling that leaves its points keeps
        # the result's own verdict, whose Outcome says who won by the rules (a level Er Giò
        # match won on the Bella Nazionale stays a win, not a draw).
        verdict = dict(old.verdict or {})
    verdict["ruling"] = {
        "kind": kind,
        "params": params,
        "scores": [f"{s:f}" for s in scores],
        "case": case.pk,
        "note": note,
    }
    record = case.record or old.record
    label = str(Case.Kind(kind).label)
    new = services.correct(
        user=user,
        result=old,
        version=services.Version(
            source=Result.Source.FULL_RECORD if record.get("actions") else Result.Source.MANUAL,
            record=record,
            scores=scores,
            verdict=verdict,
        ),
        reason=f"{label}: {note}" if note else label,
        event="result.ruled",
        ruling=(
            Dispute.Ruling.FIRST if kind == Case.Kind.UPHELD else Dispute.Ruling.NEW,
            note or label,
        ),
    )
    case.status = Case.Status.RULED
    case.kind = kind
    case.ruling = verdict["ruling"]
    case.note = note
    case.ruled_by = user
    case.ruled_at = new.confirmed_at
    case.correction = new
    case.save(
        update_fields=["status", "kind", "ruling", "note", "ruled_by", "ruled_at", "correction"]
    )
    return new


def _void(user: Any, case: Case, old: Result, params: dict[str, Any], note: str) -> Result:
    """A void ruling: the result is voided through the ledger's one way of voiding
    (clubs.results.services.void_result: its credits reversed, no new result, an open dispute
    closed), so nothing is left that a standings table or a pairing could count."""
    label = str(Case.Kind.VOID.label)
    voided = services.void_result(
        user=user, result=old, reason=f"{label}: {note}" if note else label
    )
    case.status = Case.Status.RULED
    case.kind = Case.Kind.VOID
    case.ruling = {
        "kind": Case.Kind.VOID.value,
        "params": params,
        "scores": [],
        "case": case.pk,
        "note": note,
    }
    case.note = note
    case.ruled_by = user
    case.ruled_at = voided.voided_at
    case.save(update_fields=["status", "kind", "ruling", "note", "ruled_by", "ruled_at"])
    return voided


def preview_rule(
    *,
    user: Any,
    case: Case,
    kind: str,
    params: dict[str, Any] | None = None,
    note: str = "",
) -> dict[str, Any]:
    """What the ruling would write, without writing it: ``rule`` itself runs in a savepoint
    that is rolled back (ledger/clubs/results/previews.py). ``lines``: per seat, the player, the
    points reversed and credited as the journal got them, and the change; ``rows`` and the
    rest: the standings people read for the competition's format, before and after."""
    if case.result_id is None:
        raise Invalid(
            _("Link the case to a result of the ledger before ruling."),
            fields={"result": [_("Required to rule.")]},
        )
    old_id = case.result_id
    competition = Result.objects.select_related("competition").get(pk=old_id).competition

    def apply() -> list[dict[str, Any]]:
        new = rule(user=user, case=case, kind=kind, params=params, note=note)
        written = Entry.objects.filter(result_id__in=[old_id, new.pk])
        reversed_: dict[int, Decimal] = {}
        credited: dict[int, Decimal] = {}
        for entry in written.filter(result_id=old_id, kind=Entry.Kind.REVERSAL):
            reversed_[entry.seat] = entry.points
        if new.pk != old_id:  # a void ruling writes no new version
            for entry in written.filter(result_id=new.pk, kind=Entry.Kind.CREDIT):
                credited[entry.seat] = entry.points
        names = dict(
            Seat.objects.filter(table_id=new.table_id).values_list("index", "player__name")
        )
        return [
            {
                "name": names.get(i, _("Seat %(n)d") % {"n": i + 1}),
                "reversal": reversed_.get(i),
                "credit": credited.get(i),
                "change": reversed_.get(i, Decimal(0)) + credited.get(i, Decimal(0)),
            }
            for i in range(len(new.scores))
        ]

    found = previews.preview(competition, apply)
    found["lines"] = found.pop("made")
    return found


def set_artificial(
    *, user: Any, competition: Competition, values: Sequence[Any]
) -> ArtificialScores:
    """An organiser defines what average-plus, average and average-minus are worth."""
    require_role(user, competition.club, Role.ORGANISER)
    plus, average, minus = (_points(v, n) for v, n in zip(values, LEVELS, strict=True))
    if not plus >= average >= minus:
        raise Invalid(
            _("Average-plus must be at least average, and average at least average-minus."),
            fields={"average": [_("Out of order.")]},
        )
    with transaction.atomic():
        row, _created = ArtificialScores.objects.update_or_create(
            competition=competition,
            defaults={
                "average_plus": plus,
                "average": average,
                "average_minus": minus,
                "updated_at": timezone.now(),
            },
        )
    return row


def _seated_user(result: Result, user: Any) -> bool:
    return bool(
        getattr(user, "is_authenticated", False)
        and Seat.objects.filter(table_id=result.table_id, player__user=user).exists()
    )


def contest_deadline(result: Result) -> Any:
    """Until when a result may be contested: the club's window, counted from when the
    result began to count (or from its entry while it waits for confirmation)."""
    start = result.confirmed_at or result.entered_at
    return start + timedelta(days=result.club.contest_days)


def may_contest(user: Any, result: Result) -> tuple[bool, str]:
    """Whether this user may call the referee on this result now, and if not, why (in words;
    empty when the user has no say at all)."""
    if not getattr(user, "is_authenticated", False):
        return False, ""
    if not (_seated_user(result, user) or result.club.allows(user, Role.SCOREKEEPER)):
        return False, ""
    if result.status not in (Result.Status.PENDING, Result.Status.ACCEPTED):
        return False, ""
    if Case.objects.filter(result=result, status=Case.Status.OPEN).exists():
        return False, ""
    if timezone.now() > contest_deadline(result):
        return False, _(
            "The time to contest this result has passed (%(n)d days after it began to count)."
        ) % {"n": result.club.contest_days}
    return True, ""


@transaction.atomic
def contest(*, user: Any, result: Result, reason: str) -> Case:
    """A player seated at the table, or a scorekeeper, calls the referee on a result, in any
    confirmation mode, within the club's window. A pending result waits (it is disputed); an
    accepted one keeps counting until the ruling. Either way a case opens on the referees'
    queue with the result and its record linked."""
    locked = (
        Result.objects.select_for_update(**_ROW)
        .select_related("club", "competition")
        .get(pk=result.pk)
    )
    if not (_seated_user(locked, user) or locked.club.allows(user, Role.SCOREKEEPER)):
        raise NotAllowed(
            _("Only a player seated at this table or a scorekeeper may contest the result.")
        )
    reason = reason.strip()
    if not reason:
        raise Invalid(
            _("Say what is wrong with the result, for the referee."),
            fields={"reason": [_("Required.")]},
        )
    earlier = Case.objects.filter(result=locked, status=Case.Status.OPEN).first()
    if earlier is not None:
        raise Conflict(
            _("This result is already before the referee (case %(n)d).") % {"n": earlier.pk}
        )
    if locked.status not in (Result.Status.PENDING, Result.Status.ACCEPTED):
        raise Conflict(
            _("This result is %(s)s: only the version that counts can be contested.")
            % {"s": locked.get_status_display()}
        )
    if timezone.now() > contest_deadline(locked):
        raise Conflict(
            _("The time to contest this result has passed (%(n)d days after it began to count).")
            % {"n": locked.club.contest_days}
        )
    dispute = None
    if locked.status == Result.Status.PENDING:
        dispute = services.dispute_result(user=user, result=locked, reason=reason)
    case = Case.objects.create(
        club=locked.club,
        competition=locked.competition,
        result=locked,
        dispute=dispute,
        game=locked.competition.game,
        record=replayable(locked.record),
        reason=reason,
        opened_by=user,
    )
    if case.record:
        _recheck(case)
    return case


@transaction.atomic
def set_contest_days(*, user: Any, club: Any, days: Any) -> None:
    """An organiser sets how many days a result may be contested after it counts."""
    require_role(user, club, Role.ORGANISER)
    text = str(days).strip()
    if not text.isdigit() or not 1 <= int(text) <= 365:
        raise Invalid(
            _("Write a number of days between 1 and 365."),
            fields={"contest_days": [_("Between 1 and 365.")]},
        )
    club.contest_days = int(text)
    club.save(update_fields=["contest_days"])


@transaction.atomic
def set_deal(*, user: Any, case: Case, dealer: Any, placed: dict[str, list[str]]) -> Case:
    """A real table's deal, card by card (see games/core/tabledeal.py). The steps already
    entered stay (a game may keep only some: Er Giò's battle); the record is checked again."""
    case = _editable(user, case)
    dealing = checking.tabledeal_for(case.game)
    engine = checking.engine_for(case.game)
    try:
        seat = int(dealer)
    except (TypeError, ValueError):
        seat = -1
    try:
        ruleset = engine.ruleset(case.competition.ruleset or None)
        deal = dealing.deal(seat, placed, ruleset)
        state = engine.start(checking.with_ruleset({"deal": deal}, case.competition.ruleset))
    except RecordError as exc:
        raise Invalid(str(exc), fields={exc.path or "deal": [str(exc)]}) from exc
    record = state.to_record()
    earlier = case.record or {}
    kept_chance = getattr(dealing, "kept_chance", None)
    if kept_chance is not None and earlier:
        record["deal"] = kept_chance(earlier, record["deal"])
    keep = getattr(dealing, "kept_actions", None)
    record["actions"] = list(keep(earlier) if keep else earlier.get("actions", []))
    case.record = record
    _recheck(case)
    return case


@transaction.atomic
def add_drawn(*, user: Any, case: Case, side: str, cards: list[str], dry: bool = False) -> Case:
    """The cards a side drew at the table after a scontro, asked for as they come (the
    engine cannot know them); fewer than asked means its deck ran out."""
    case = _editable(user, case)
    dealing = checking.tabledeal_for(case.game)
    asked = getattr(dealing, "pending", None)
    engine = checking.engine_for(case.game)
    full = checking.with_ruleset(case.record or {}, case.competition.ruleset)
    try:
        state = engine.start(full)
        for step, raw in enumerate(full.get("actions", [])):
            seat, action = engine.decode_step(raw, f"actions[{step}]")
            state.apply_unchecked(seat, action)
    except RecordError as exc:
        said = read_error_words(case.game, exc, full, None, record=True)
        raise Invalid(said, fields={"record": [said]}) from exc
    wanted = asked(full, state.view(None), checking.language()) if asked is not None else None
    if wanted is None or wanted["side"] != side:
        raise Invalid(_("No cards are waiting to be drawn now."), fields={"cards": ["?"]})
    left = dict(wanted["copies"])
    for code in cards:
        if left.get(code, 0) <= 0:
            raise Invalid(
                _("%(card)s is not among the cards that side could draw.")
                % {"card": checking.card_name(case.game, code, checking.language())},
                fields={"cards": ["?"]},
            )
        left[code] -= 1
    if len(cards) > wanted["count"] or (not dry and len(cards) != wanted["count"]):
        raise Invalid(
            _("Tick %(n)d cards (you ticked %(k)d), or say the deck had run out.")
            % {"n": wanted["count"], "k": len(cards)},
            fields={"cards": [_("Wrong number of cards.")]},
        )
    record = dealing.with_drawn(case.record, side, cards, dry=dry)
    case.record = record
    _recheck(case)
    return case


@transaction.atomic
def set_sheets(
    *,
    user: Any,
    case: Case,
    first: int,
    quarter: str | None,
    powers: dict[str, int],
    strategy: dict[str, Any],
) -> Case:
    """A game entered from its paper (the Bridge's Game's power sheets and strategy cards,
    as its tabledeal module reads them): the sheets as written become the record's first steps; the
    steps entered after them stay. A sheet that breaks a rule is kept as written: the
    verdict names the fault."""
    case = _editable(user, case)
    dealing = checking.tabledeal_for(case.game)
    engine = checking.engine_for(case.game)
    try:
        ruleset = engine.ruleset(case.competition.ruleset or None)
        made = dealing.record(first, quarter, powers, strategy, ruleset)
        record = dealing.with_sheets(case.record or {}, made)
        record = checking.with_ruleset(record, case.competition.ruleset)
        engine.start(record)
    except RecordError as exc:
        raise Invalid(str(exc), fields={exc.path or "deal": [str(exc)]}) from exc
    case.record = record
    _recheck(case)
    return case


@transaction.atomic
def set_chance(*, user: Any, case: Case, values: dict[str, str]) -> Case:
    """Chance that fell at the table, asked for when the play reached it (San Marco's role
    draw, the distributor's cards, a die), written into the record; the steps stay."""
    case = _editable(user, case)
    dealing = checking.tabledeal_for(case.game)
    said = getattr(dealing, "chance_apply", None)
    if said is None:
        raise Invalid(_("No chance is waiting to be said now."), fields={"chance": ["?"]})
    record = checking.with_ruleset(case.record or {}, case.competition.ruleset)
    try:
        record = said(record, values)
    except RecordError as exc:
        field = str(exc.path or "chance")
        raise Invalid(_chance_words(field), fields={field: [_chance_words(field)]}) from exc
    case.record = record
    _recheck(case)
    return case


def _chance_words(field: str) -> str:
    """What is wrong with one answer about chance, in words."""
    if field in ("die",):
        return _("A die shows a whole number from 1 to 6.")
    if field.startswith("limit"):
        return _("A limit card is worth 1, 2 or 3, and the limit deck must still hold it.")
    if field.startswith("action"):
        return _("Choose a card the action deck still holds.")
    if field == "roles":
        return _("Choose one of the draws the rules allow.")
    return _("No chance is waiting to be said now.")


@transaction.atomic
def set_dealt(*, user: Any, case: Case, placed: dict[str, list[str]]) -> Case:
    """The cards of the deal the desk asked for (cardChess: a turn's deal, the first deal of
    a sfida, the cards after a reshuffle), tapped by the referee; the steps stay."""
    case = _editable(user, case)
    dealing = checking.tabledeal_for(case.game)
    engine = checking.engine_for(case.game)
    try:
        ruleset = engine.ruleset(case.competition.ruleset or None)
        record = checking.with_ruleset(case.record or {}, case.competition.ruleset)
        record = dealing.apply(record, placed, ruleset)
        engine.start(record)
    except RecordError as exc:
        raise Invalid(str(exc), fields={exc.path or "deal": [str(exc)]}) from exc
    case.record = record
    _recheck(case)
    return case
