"""The match result and the players' ranking, from a finished state or a scorekeeper's summary.

The ranking by mode (``ponte.rank.*``): the side that won; on a side of two players, the one
with more victories, then the fuller back-up box, then ex aequo; with six players the whole
winning side (its General too) shares first place. Summary format: docs/notation/ponte.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.core import Outcome, RecordError, Text, Violation, read, rule_broken
from games.core.text import seat_no
from games.ponte.model import (
    MAG_INDEX,
    MAGISTRATURE,
    SIDES,
    Layout,
    PonteRuleset,
    Termination,
    layout_for,
    mag_label,
    quarter_mags,
    quarter_of,
    side_mags,
    side_of,
)
from games.ponte.rules import BOOK

JSON = Any


def seat_scores(
    layout: Layout, seats: int, seat_wins: Sequence[int], sides: Sequence[int]
) -> list[int]:
    """Points per seat: a seat commanding a whole side (or its General) scores the side's
    challenges; a player sharing a side scores the challenges its magistrature won."""
    out = []
    for seat in range(seats):
        side = layout.side_of_seat(seat)
        whole = (layout.generals is not None and seat in layout.generals) or not layout.split(side)
        out.append(sides[side] if whole else seat_wins[seat])
    return out


def rank_match(
    ruleset: PonteRuleset,
    layout: Layout,
    winner_side: int,
    seat_wins: Sequence[int],
    seat_backup: Sequence[int],
    sides: Sequence[int],
) -> dict[str, JSON]:
    seats = ruleset.seats
    scores = seat_scores(layout, seats, seat_wins, sides)
    ranking: list[dict[str, JSON]] = []
    place = 1
    for side in (winner_side, 1 - winner_side):
        members = layout.side_seats(side)
        if layout.generals is not None or not layout.split(side):
            # ponte.rank.side: the whole side shares the place
            for seat in members:
                ranking.append({"seat": seat, "side": SIDES[side], "place": place, "by": "side"})
            place += len(members)
            continue
        # ponte.rank.victories, then ponte.rank.power: within a side of two players, more
        # victories first, then the fuller back-up box; ponte.rank.ex_aequo: level on both, the
        # place is shared.
        keyed = sorted(members, key=lambda s: (-seat_wins[s], -seat_backup[s], s))
        for seat in keyed:
            ahead = sum(
                1
                for o in members
                if (seat_wins[o], seat_backup[o]) > (seat_wins[seat], seat_backup[seat])
            )
            tied = [
                o
                for o in members
                if o != seat
                and (seat_wins[o], seat_backup[o]) == (seat_wins[seat], seat_backup[seat])
            ]
            other = next(o for o in members if o != seat)
            if tied:
                by = "ex_aequo"  # ponte.rank.ex_aequo
            elif seat_wins[other] != seat_wins[seat]:
                by = "victories"  # ponte.rank.victories
            else:
                by = "power"  # ponte.rank.power
            ranking.append(
                {
                    "seat": seat,
                    "side": SIDES[side],
                    "place": place + ahead,
                    "by": by,
                    "victories": seat_wins[seat],
                    "backup": seat_backup[seat],
                }
            )
        place += len(members)
    winners = sorted(r["seat"] for r in ranking if r["place"] == 1)
    return {"scores": scores, "winners": winners, "ranking": ranking}


def match_outcome(
    ruleset: PonteRuleset,
    layout: Layout,
    ranked: Mapping[str, Any],
    played: int,
    tie_breaker: bool,
    detail: Mapping[str, JSON],
) -> Outcome:
    """The Outcome of a match, from a record and a summary alike: the ranking's places,
    the winning side's first-placed seats, and why the match ended."""
    termination = (
        Termination.TIE_BREAKER
        if tie_breaker
        else Termination.FOUR_REACHED
        if played < ruleset.challenges
        else Termination.CHALLENGES
    )
    places = [0] * ruleset.seats
    for row in ranked["ranking"]:
        places[row["seat"]] = row["place"]
    return Outcome(
        tuple(ranked["scores"]),
        termination.value,
        tuple(ranked["winners"]),
        detail,
        tuple(places),
        tuple(layout.side_of_seat(s) for s in range(ruleset.seats)),
    )


# --- power sheets ------------------------------------------------------------------------


def pools(ruleset: PonteRuleset) -> list[tuple[int, ...]]:
    if ruleset.seats == 2:
        return [tuple(side_mags(s)) for s in (0, 1)]
    return [tuple(quarter_mags(q)) for q in range(4)]


def check_sheet(
    ruleset: PonteRuleset, mags: Sequence[int], values: Sequence[int]
) -> list[Violation]:
    """A whole power sheet (one side with two players, else one quarter), as written."""
    names = ", ".join(mag_label(MAGISTRATURE[m]) for m in mags)
    where = Text(f"Foglio di {names}", f"Sheet of {names}")
    found: list[Violation] = []
    if ruleset.mode == "base":
        fixed = ruleset.base_side_powers if len(mags) == 6 else ruleset.base_quarter_powers
        if sorted(values) != sorted(fixed):
            found.append(
                rule_broken(
                    BOOK,
                    "ponte.power.base_values",
                    f"{where.it}: scritto {_ks(sorted(values))}; dovuto {_ks(sorted(fixed))}.",
                    f"{where.en}: written {_ks(sorted(values))}; due {_ks(sorted(fixed))}.",
                )
            )
        return found
    total = ruleset.side_total if len(mags) == 6 else ruleset.quarter_total
    if any(v % ruleset.chip for v in values):
        found.append(rule_broken(BOOK, "ponte.power.step", where.it, where.en))
    if any(v < ruleset.min_power for v in values):
        found.append(rule_broken(BOOK, "ponte.power.minimum", where.it, where.en))
    if sum(values) != total:
        found.append(
            rule_broken(
                BOOK,
                "ponte.power.total",
                f"{where.it}: somma {sum(values)}.",
                f"{where.en}: adds up to {sum(values)}.",
            )
        )
    return found


def most_power(ruleset: PonteRuleset) -> dict[int, int]:
    """The most power any sheet of the ruleset can give each magistratura (ponte.summary.left
    without the sheets written): Base, the greatest fixed value; otherwise the sheet's total
    less the minimum every other magistratura of the sheet must have."""
    most: dict[int, int] = {}
    for mags in pools(ruleset):
        if ruleset.mode == "base":
            fixed = ruleset.base_side_powers if len(mags) == 6 else ruleset.base_quarter_powers
            top = max(fixed)
        else:
            total = ruleset.side_total if len(mags) == 6 else ruleset.quarter_total
            top = total - (len(mags) - 1) * ruleset.min_power
        most.update((m, top) for m in mags)
    return most


# --- summaries ---------------------------------------------------------------------------


def _mag(raw: Any, side: int, path: str) -> int:
    if not isinstance(raw, str) or raw not in MAG_INDEX or side_of(MAG_INDEX[raw]) != side:
        names = ", ".join(MAGISTRATURE[m] for m in side_mags(side))
        raise RecordError(f"expected a magistratura of {SIDES[side]}: {names}", path=path)
    return MAG_INDEX[raw]


def score_summary(
    ruleset: PonteRuleset, summary: Mapping[str, Any]
) -> tuple[dict[str, JSON], list[Violation]]:
    layout = layout_for(ruleset)
    found: list[Violation] = []
    raw_assign = summary.get("assignments")
    assigned: dict[int, int] = {}
    if raw_assign is not None:
        if not isinstance(raw_assign, Mapping):
            raise RecordError('expected {"calci": 110000, ...}', path="assignments")
        for name, value in raw_assign.items():
            if name not in MAG_INDEX:
                raise RecordError(f"unknown magistratura {name!r}", path="assignments")
            assigned[MAG_INDEX[name]] = read.whole(value, f"assignments.{name}")
        for mags in pools(ruleset):
            if all(m in assigned for m in mags):
                found += check_sheet(ruleset, mags, [assigned[m] for m in mags])
    most = most_power(ruleset)
    raw = summary.get("challenges")
    if not isinstance(raw, list) or not raw:
        raise RecordError(
            'expected a list of challenges: [{"tramontana": "calci", "mezzogiorno": "leoni", '
            '"winner": "tramontana", "left": [15000, 0]}, ...]',
            path="challenges",
        )
    sides = [0, 0]
    seat_wins = [0] * ruleset.seats
    backup = [0] * 12
    used: set[int] = set()
    rows: list[dict[str, JSON]] = []
    for k, ch in enumerate(raw):
        path = f"challenges[{k}]"
        if not isinstance(ch, Mapping):
            raise RecordError("expected an object", path=path)
        pair = [_mag(ch.get(SIDES[s]), s, f"{path}.{SIDES[s]}") for s in (0, 1)]
        winner = read.side(ch.get("winner"), f"{path}.winner")
        left_raw = ch.get("left", [0, 0])
        if not isinstance(left_raw, list) or len(left_raw) != 2:
            raise RecordError("expected [tramontana left, mezzogiorno left]", path=f"{path}.left")
        left = [read.whole(v, f"{path}.left[{i}]") for i, v in enumerate(left_raw)]
        for s, mag in enumerate(pair):
            if mag in used:
                found.append(
                    rule_broken(
                        BOOK,
                        "ponte.deploy.once",
                        f"{mag_label(MAGISTRATURE[mag])} di nuovo.",
                        f"{mag_label(MAGISTRATURE[mag])} again.",
                        challenge=k,
                    )
                )
            used.add(mag)
            cap = assigned.get(mag, most[mag])
            if left[s] < 0 or left[s] % ruleset.chip or left[s] > cap:
                found.append(
                    rule_broken(
                        BOOK,
                        "ponte.summary.left",
                        f"{mag_label(MAGISTRATURE[mag])}: {left[s]} rimasti, da 0 a {cap} a "
                        f"passi di {ruleset.chip}.",
                        f"{mag_label(MAGISTRATURE[mag])}: {left[s]} left, from 0 to {cap} in "
                        f"steps of {ruleset.chip}.",
                        challenge=k,
                        field=("left_t", "left_m")[s],
                    )
                )
            backup[mag] += left[s]
        sides[winner] += 1
        seat_wins[layout.owners[quarter_of(pair[winner])]] += 1
        rows.append(
            {
                "tramontana": MAGISTRATURE[pair[0]],
                "mezzogiorno": MAGISTRATURE[pair[1]],
                "winner": SIDES[winner],
                "left": left,
            }
        )
        if ruleset.stop_at_four and max(sides) >= ruleset.to_win and k < len(raw) - 1:
            found.append(
                rule_broken(
                    BOOK,
                    "ponte.summary.challenges",
                    f"Partita chiusa a quattro dopo la sfida {k + 1}.",
                    f"The match stopped at four after challenge {k + 1}.",
                )
            )
            break
    expected = ruleset.challenges
    stopped = ruleset.stop_at_four and max(sides) >= ruleset.to_win
    if len(rows) != expected and not stopped:
        found.append(
            rule_broken(
                BOOK,
                "ponte.summary.challenges",
                f"{len(rows)} sfide, non {expected}.",
                f"{len(rows)} challenges, not {expected}.",
            )
        )

    def seat_backup(seat: int) -> int:
        if layout.generals is not None and seat in layout.generals:
            side = layout.generals.index(seat)
            return sum(backup[m] for m in side_mags(side))
        return sum(backup[m] for m in range(12) if layout.owners[quarter_of(m)] == seat)

    backups = [seat_backup(s) for s in range(ruleset.seats)]
    tb_raw = summary.get("tie_breaker")
    tie = sides[0] == sides[1]
    tie_row: dict[str, JSON] | None = None
    if tb_raw is not None:
        if not isinstance(tb_raw, Mapping):
            raise RecordError("expected an object or null", path="tie_breaker")
        pair = [_mag(tb_raw.get(SIDES[s]), s, f"tie_breaker.{SIDES[s]}") for s in (0, 1)]
        tb_winner = read.side(tb_raw.get("winner"), "tie_breaker.winner")
        if not tie:
            found.append(
                rule_broken(
                    BOOK,
                    "ponte.match.tiebreak",
                    f"Spareggio scritto sul {sides[0]}-{sides[1]}.",
                    f"A tie breaker written at {sides[0]}-{sides[1]}.",
                )
            )
        else:
            for s in (0, 1):
                if layout.generals is not None or not layout.split(s):
                    continue
                due = _tiebreak_player(layout, s, seat_wins, backups)
                if layout.owners[quarter_of(pair[s])] != due:
                    found.append(
                        rule_broken(
                            BOOK,
                            "ponte.match.tiebreak_player",
                            f"Per {mag_label(SIDES[s])} tocca al posto {seat_no(due)}.",
                            f"For {mag_label(SIDES[s])} seat {seat_no(due)} plays it.",
                        )
                    )
            sides[tb_winner] += 1
            seat_wins[layout.owners[quarter_of(pair[tb_winner])]] += 1
        tie_row = {
            "tramontana": MAGISTRATURE[pair[0]],
            "mezzogiorno": MAGISTRATURE[pair[1]],
            "winner": SIDES[tb_winner],
        }
    elif tie:
        found.append(
            rule_broken(
                BOOK,
                "ponte.match.tiebreak",
                f"Sul {sides[0]}-{sides[1]} manca lo spareggio.",
                f"At {sides[0]}-{sides[1]} the tie breaker is missing.",
            )
        )
    result: dict[str, JSON] = {
        "mode": ruleset.mode,
        "players": ruleset.seats,
        "sides": sides,
        "challenges": rows,
        "tie_breaker": tie_row,
        "victories": seat_wins,
        "backup": backups,
    }
    if sides[0] == sides[1]:
        result.update(winner=None, scores=seat_scores(layout, ruleset.seats, seat_wins, sides))
        result.update(winners=[], ranking=[])
        return result, found
    winner_side = 0 if sides[0] > sides[1] else 1
    ranked = rank_match(ruleset, layout, winner_side, seat_wins, backups, sides)
    result["winner"] = SIDES[winner_side]
    result.update(ranked)
    return result, found


def _tiebreak_player(layout: Layout, side: int, wins: Sequence[int], backup: Sequence[int]) -> int:
    east, west = layout.owners[2 * side], layout.owners[2 * side + 1]
    return max((east, west), key=lambda s: (wins[s], backup[s], s == east))


def _ks(values: Sequence[int]) -> str:
    """Powers one after another, as a sheet lists them: "60000, 90000, 110000"."""
    return ", ".join(str(v) for v in values)
