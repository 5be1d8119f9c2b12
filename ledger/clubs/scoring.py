"""The bridge between the ledger and the rules engines.

A result arrives as a summary (what a scorekeeper types), a full record (every action), a
finished digital game, or plain per-seat scores. Where the game's engine exists, it decides
the per-seat points and refuses what the rules say cannot be; plain scores are accepted
only for games that have no engine yet.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from django.utils.translation import gettext as _

from games.core import UNFINISHED, RecordError, registry
from ledger.clubs.errors import Invalid, RuleViolation
from ledger.clubs.games import engine_available, plain_scores, reader_language


@dataclass(frozen=True)
class Scored:
    scores: list[Decimal]
    verdict: dict[str, Any] | None
    finished: bool = True


def check_ruleset(game: str, spec: Any) -> str | None:
    """None when the engine accepts this ruleset spec, else what to fix."""
    if not engine_available(game):
        return None
    engine = registry.get(game)
    try:
        engine.ruleset(spec or None)
    except RecordError as exc:
        return engine.read_error(exc).get(reader_language())
    return None


def read_error_words(
    game: str,
    exc: RecordError,
    data: Any,
    names: Callable[[], Sequence[str]] | None,
    *,
    record: bool,
) -> str:
    """What the engine could not read, in the reader's words: the place as the game names
    it, each seat by its player where the table's names are known (games/core/explain.py)."""
    return (
        registry.get(game)
        .read_error(exc, data, names() if names is not None else None, record=record)
        .get(reader_language())
    )


def _message(violations: Sequence[Mapping[str, Any]]) -> str:
    language = reader_language()
    first = violations[0]
    text = first["message"].get(language) or first["message"].get("en", "")
    more = len(violations) - 1
    suffix = _(" (and %(n)d more)") % {"n": more} if more > 0 else ""
    # The rule's words only: its id stays in the violations, shown beside them as a reference.
    return f"{text}{suffix}"


MAX_POINTS = Decimal(10**9)


def _as_points(values: Sequence[Any], seats: int, field: str) -> list[Decimal]:
    if len(values) != seats:
        raise Invalid(
            _("Give one score per seat: this table has %(n)d seats.") % {"n": seats},
            fields={
                field: [_("Expected %(n)d scores, got %(got)d.") % {"n": seats, "got": len(values)}]
            },
        )
    out = []
    for i, value in enumerate(values):
        if isinstance(value, bool):
            value = None
        point: Decimal | None
        try:
            point = Decimal(str(value))
            if not point.is_finite() or point != point.quantize(Decimal("0.01")):
                point = None
        except (InvalidOperation, ValueError):
            point = None
        if point is None:
            raise Invalid(
                _("Seat %(seat)d: a score is a number with at most two decimals.")
                % {"seat": i + 1},
                fields={field: {str(i): [_("Not a valid score: “%(v)s”.") % {"v": value}]}},
            )
        if abs(point) >= MAX_POINTS:
            # The journal keeps ten digits before the point; no game comes near it.
            raise Invalid(
                _("Seat %(seat)d: %(v)s points is beyond any game's range.")
                % {"seat": i + 1, "v": value},
                fields={field: {str(i): [_("At most 999,999,999 points.")]}},
            )
        out.append(point)
    return out


def score_result(
    *,
    game: str,
    ruleset: Any,
    seats: int,
    source: str,
    record: Any,
    explicit: Sequence[Any] | None,
    unfinished: bool = False,
    names: Callable[[], Sequence[str]] | None = None,
) -> Scored:
    """Per-seat points for a result, or an error that says what to fix. A summary of a game
    that is not over yet is refused, unless ``unfinished`` allows it (the live preview shows
    the score so far while the scorekeeper types). ``names`` gives the players' names by seat,
    asked for only when a message must name a seat."""
    if source == "forfeit":
        # A forfeit has no game to score: a referee records it (services.record_forfeit).
        raise Invalid(
            _("A forfeit is recorded by a referee from the table's page, with its reason."),
            fields={"source": [_("Use 'summary', 'full_record' or 'manual'.")]},
        )
    written = _as_points(explicit, seats, "scores") if explicit is not None else None
    if not engine_available(game) or source == "manual":
        if not plain_scores(game):
            raise Invalid(
                _(
                    "Results of this game are checked by its rules engine: "
                    "send a summary or a full record."
                ),
                fields={"source": [_("Use 'summary' or 'full_record'.")]},
            )
        if written is None:
            raise Invalid(
                _("Give the points of every seat in 'scores'."),
                fields={"scores": [_("This field is required for this game.")]},
            )
        if not engine_available(game):
            return Scored(written, None)
        # A game whose summary is the points themselves: its engine still scores them,
        # so the standings read its Outcome as for every other game.
        plain = [int(p) if p == p.to_integral_value() else float(p) for p in written]
        try:
            report = registry.get(game).score({"scores": plain}, ruleset or None)
        except RecordError as exc:
            said = read_error_words(game, exc, {"scores": plain}, names, record=False)
            raise Invalid(said, fields={"scores": [said]}) from exc
        if report.violations:
            found = [v.to_json() for v in report.violations]
            raise RuleViolation(
                _message(found), fields={"scores": [_message(found)]}, violations=found
            )
        return Scored(written, report.to_json())

    engine = registry.get(game)
    if not isinstance(record, Mapping) or not record:
        raise Invalid(
            _("Send the game's record: a JSON object (see the game's notation)."),
            fields={"record": [_("Expected a JSON object.")]},
        )
    verdict: dict[str, Any] | None
    finished = True
    try:
        if source == "summary":
            report = engine.score(record, ruleset or None)
            verdict = report.to_json()
            if report.violations:
                found = [v.to_json() for v in report.violations]
                raise RuleViolation(
                    _message(found), fields={"record": [_message(found)]}, violations=found
                )
            if report.outcome is None:
                raise Invalid(
                    _("The record stops before the game is over: give every action to the end."),
                    fields={"record": [_("Incomplete game.")]},
                )
            if report.outcome.termination == UNFINISHED and not unfinished:
                raise Invalid(
                    _(
                        "This game is not over yet: by its rules nobody has won it. "
                        "Record it once it is finished, with every round played."
                    ),
                    fields={"record": [_("The game is not finished.")]},
                )
            computed = list(report.outcome.scores)
            finished = report.outcome.termination != UNFINISHED
        else:
            checked = engine.validate(_with_ruleset(record, ruleset))
            verdict = checked.to_json()
            if checked.violations:
                found = [v.to_json() for v in checked.violations]
                raise RuleViolation(
                    _message(found), fields={"record": [_message(found)]}, violations=found
                )
            if checked.outcome is None:
                raise Invalid(
                    _("The record stops before the game is over: give every action to the end."),
                    fields={"record": [_("Incomplete game.")]},
                )
            computed = list(checked.outcome.scores)
    except RecordError as exc:
        said = read_error_words(game, exc, record, names, record=source != "summary")
        raise Invalid(
            _("The record cannot be read: %(error)s") % {"error": said},
            fields={"record": [said]},
        ) from exc
    scores = _as_points(computed, seats, "record")
    if written is not None and written != scores:
        # seat by seat, counted from 1: "seat 1: 12, seat 2: -4" (never a list)
        shown = ", ".join(
            _("seat %(seat)d: %(points)s") % {"seat": i + 1, "points": f"{s.normalize():f}"}
            for i, s in enumerate(scores)
        )
        raise RuleViolation(
            _("The scores written do not match the rules: they should be %(due)s.")
            % {"due": shown},
            fields={"scores": [_("Should be %(due)s.") % {"due": shown}]},
        )
    return Scored(scores, verdict, finished)


def _with_ruleset(record: Mapping[str, Any], ruleset: Any) -> Mapping[str, Any]:
    """The competition's ruleset applies unless the record names its own."""
    if ruleset and "ruleset" not in record:
        return {**record, "ruleset": ruleset}
    return record
