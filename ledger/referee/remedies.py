"""The desk's default remedy for a fault, the same for every game (docs/referee.md,
"Remedies"): the offending side never ends better off than without the fault.

Without the fault the hand would have gone on from the position just before it, by the
rules. The desk plays that on with the game's own bot (legal moves only, a fixed seed, so
the same record always gives the same proposal) and compares:

* each seat of the offending side gets the lower of the score as played and the score
  without the fault;
* each other seat gets the higher of the two (the innocent side loses nothing by it);
* a hand the fault left unfinished (the replay stopped, or the innocent side's later steps
  no longer fit) is scored as without the fault.

After the first fault, what the innocent side did next is a consequence of it, not a new
fault of theirs (``consequences``). Nothing here writes; nothing here knows a particular
game: the sides are the ones the game's Outcome declares.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.core import RecordError, make_bot

BOT_SEED = 7919  # any fixed seed: the same record always gives the same proposal


def sides_of(outcome: Mapping[str, Any] | None, seats: int) -> list[int] | None:
    """Each seat's side as the Outcome declares it (``sides``, or ``detail.sides`` as lists
    of seats), or None when the game declares none (each seat plays for itself)."""
    if not outcome:
        return None
    sides = outcome.get("sides")
    if isinstance(sides, list | tuple) and len(sides) == seats:
        return [int(s) for s in sides]
    detail = outcome.get("detail")
    groups = detail.get("sides") if isinstance(detail, Mapping) else None
    if isinstance(groups, list) and groups:
        out = [-1] * seats
        for n, group in enumerate(groups):
            if isinstance(group, list):
                for seat in group:
                    if isinstance(seat, int) and 0 <= seat < seats:
                        out[seat] = n
        if all(s >= 0 for s in out):
            return out
    return None


def offending_seats(seat: int, sides: Sequence[int] | None, seats: int) -> list[int]:
    if sides is None or not 0 <= seat < len(sides):
        return [seat] if 0 <= seat < seats else []
    return [s for s in range(seats) if sides[s] == sides[seat]]


def without_fault(engine: Any, record: Mapping[str, Any], step: int) -> dict[str, Any] | None:
    """The Outcome (as JSON) of the hand played on by the rules from just before ``step``;
    None when it cannot be played on (an engine without a bot, a position it cannot read)."""
    kind = "heuristic" if "heuristic" in getattr(engine, "bots", {}) else "random"
    # chance the record does not give yet (a deal still to come) drawn from a fixed seed
    cut = engine.to_play_on(record, BOT_SEED)
    cut["actions"] = list(record.get("actions", []))[:step]
    cut.pop("claimed_scores", None)
    try:
        state = engine.start(cut)
        for i, raw in enumerate(cut["actions"]):
            seat, action = engine.decode_step(raw, f"actions[{i}]")
            state.apply_unchecked(seat, action)
        seats = int(engine.ruleset(record.get("ruleset") or None).seats)
        bots = [make_bot(engine, kind, BOT_SEED + i) for i in range(max(seats, 1))]
        limit = int(getattr(engine.info, "max_actions", 10000))
        moves = 0
        while not state.is_over():
            seat = state.to_act()
            if seat is None or moves > limit:
                return None
            state.apply_unchecked(seat, bots[seat % len(bots)].choose(state, seat))
            moves += 1
        found: dict[str, Any] = state.outcome().to_json()
    except (RecordError, ValueError, KeyError, IndexError, RuntimeError, AttributeError):
        return None
    return found


def propose(engine: Any, record: Mapping[str, Any], verdict: Mapping[str, Any]) -> dict[str, Any]:
    """The remedy for the verdict's first fault: per seat the score, the score as played
    (None when the hand did not reach its end), the score without the fault, and which
    seats offended. Empty when there is no fault at a step, or no way to play on."""
    faults = [v for v in verdict.get("violations", []) if isinstance(v.get("step"), int)]
    if not faults:
        return {}
    first = faults[0]
    clean = without_fault(engine, record, int(first["step"]))
    if clean is None:
        return {}
    played_outcome = verdict.get("outcome") if verdict.get("complete") else None
    clean_scores = [float(x) for x in clean["scores"]]
    seats = len(clean_scores)
    played = (
        [float(x) for x in played_outcome["scores"]]
        if played_outcome and len(played_outcome.get("scores", [])) == seats
        else None
    )
    sides = sides_of(played_outcome, seats) or sides_of(clean, seats)
    seat = first.get("seat")
    offenders = offending_seats(seat if isinstance(seat, int) else -1, sides, seats)
    scores = []
    for s in range(seats):
        if played is None:
            scores.append(clean_scores[s])
        elif s in offenders:
            scores.append(min(played[s], clean_scores[s]))
        else:
            scores.append(max(played[s], clean_scores[s]))
    return {
        "step": first["step"],
        "rule": first.get("rule", ""),
        "offenders": offenders,
        "sides": sides,
        "played": [_plain(x) for x in played] if played is not None else None,
        "clean": [_plain(x) for x in clean_scores],
        "scores": [_plain(x) for x in scores],
    }


def _plain(x: float) -> int | float:
    return int(x) if float(x).is_integer() else x


def consequences(violations: list[dict[str, Any]], offenders: Sequence[int]) -> None:
    """Mark what follows the first fault and was done by a seat of the innocent side as a
    consequence of it (``consequence``: the first fault's step), not a fault of theirs."""
    first = next((v for v in violations if isinstance(v.get("step"), int)), None)
    if first is None:
        return
    for v in violations:
        if v is first or not isinstance(v.get("step"), int) or v["step"] < first["step"]:
            continue
        seat = v.get("seat")
        if isinstance(seat, int) and seat not in offenders:
            v["consequence"] = first["step"]
