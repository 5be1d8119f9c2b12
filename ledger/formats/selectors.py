"""Reads of the competition formats for the pages and the API (the selectors, as HackSoft's
Django styleguide has them): a round's draw as the pages show it, the Swiss and knockout
tables, the bracket, where a player sits tonight, how far a competition has got, its TRF
export, and the settings and history the draw manager reads. Nothing here writes; the writes
(draws made, adjusted and published, players entered, forfeits, rounds added) are in
ledger/formats/services.py, which imports these and is imported by none of them."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import Max, Q
from django.utils.translation import gettext as _

from ledger.clubs.games import table_sizes
from ledger.clubs.models import Competition, Penalty, Player, Result, Seat, Table
from ledger.clubs.outcomes import WIN, outcomes
from ledger.clubs.projections.standings import settings_of
from ledger.clubs.results.selectors import active_total as active_penalties
from ledger.formats.models import (
    Absence,
    Bye,
    Draw,
    Entrant,
    FormatSettings,
    KnockoutMatch,
)
from ledger.formats.pairing import knockout, tiebreaks, trf
from ledger.formats.pairing.swiss import key

Format = Competition.Format


def settings_for(competition: Competition) -> FormatSettings:
    found, _created = FormatSettings.objects.get_or_create(competition=competition)
    return found


def swiss_scale(
    competition: Competition, fs: FormatSettings | None = None
) -> tuple[tiebreaks.Scale, float]:
    """The one points scale of a Swiss: the standings' points for a win, a draw and a loss
    (the competition's "Points and ranking"), and what a bye is worth on it (the format
    setting; empty is a win). The standings, the tiebreaks and the pairing all read it."""
    fs = fs or settings_for(competition)
    chosen = settings_of(competition)
    scale = tiebreaks.Scale(float(chosen.win), float(chosen.draw), float(chosen.loss))
    bye = scale.win if fs.bye_points is None else float(fs.bye_points)
    return scale, bye


def scaled_games(
    games: Iterable[tiebreaks.Game], scale: tiebreaks.Scale, bye: float
) -> list[tiebreaks.Game]:
    """History's games (results 1, ½, 0) as points on the scale, byes at the bye's worth."""
    return [
        tiebreaks.Game(g.round, g.a, None, bye)
        if g.b is None
        else tiebreaks.Game(
            g.round, g.a, g.b, scale.result(g.score_a), scale.result(g.score_b), g.forfeit
        )
        for g in games
    ]


def table_size(competition: Competition, fs: FormatSettings | None = None) -> int:
    fs = fs or settings_for(competition)
    if fs.seats_per_table:
        return int(fs.seats_per_table)
    if competition.format == Format.TEAM:
        sizes = [t.members.count() for t in competition.teams.all()[:1]]
        return 2 * (sizes[0] if sizes else 1)
    return min(table_sizes(competition))


def two_sided(competition: Competition) -> bool:
    return table_size(competition) == 2 or competition.format == Format.TEAM


def published_rounds(competition: Competition) -> int:
    top = Draw.objects.filter(
        round__competition=competition, status=Draw.Status.PUBLISHED
    ).aggregate(n=Max("round__number"))["n"]
    return int(top or 0)


Forfeits = dict[int, tuple[list[int], str]]


def hands_and_forfeits(
    table_ids: Sequence[int],
) -> tuple[list[tuple[int, list[Any], list[str]]], Forfeits]:
    """``accepted_hands``, and the tables decided by a forfeit (table -> the seats that
    forfeited, the reason), from the same query. A forfeit's seats read as lost and the
    others' as won, so a match read from the hands has the winner the forfeit gives; a
    format that must not count the table as a game played (colours, who met whom) asks
    the second answer."""
    if not table_ids:
        return [], {}
    rows = (
        Result.objects.filter(table_id__in=table_ids, status=Result.Status.ACCEPTED)
        .order_by("id")
        .values_list(
            "table_id",
            "scores",
            "verdict__outcome__winners",
            "verdict__forfeit__seats",
            "verdict__forfeit__reason",
        )
    )
    out = []
    forfeits: Forfeits = {}
    for table_id, scores, winners, lost, reason in rows:
        verdict: dict[str, Any] | None = None
        if isinstance(lost, list):
            verdict = {"forfeit": {"seats": lost}}
            forfeits[int(table_id)] = ([int(s) for s in lost], str(reason or ""))
        elif isinstance(winners, list):
            verdict = {"outcome": {"winners": winners}}
        out.append((int(table_id), list(scores), outcomes(scores, verdict)))
    return out, forfeits


def side_result(seat_outcomes: Sequence[str]) -> tuple[float, float]:
    """One hand at a table of two sides as (first side, second side), 1 a win, ½ a draw, 0
    a loss: a side won when one of its seats won and none of the other side's did (the side
    of a seat is its parity, as in the two-sided games and team events)."""
    first = any(o == WIN for o in seat_outcomes[0::2])
    second = any(o == WIN for o in seat_outcomes[1::2])
    if first and not second:
        return 1.0, 0.0
    if second and not first:
        return 0.0, 1.0
    return 0.5, 0.5


def match_result(hands: Sequence[tuple[float, float]]) -> tuple[float, float]:
    """A table's match from its hands (``hands_per_table`` of them, each a ``side_result``):
    the side that won more hands wins it; as many hands won on each side is a draw."""
    first = sum(a for a, _b in hands)
    second = sum(b for _a, b in hands)
    if first > second:
        return 1.0, 0.0
    if second > first:
        return 0.0, 1.0
    return 0.5, 0.5


@dataclass
class History:
    met: Counter[tuple[int, int]] = field(default_factory=Counter)
    seat_counts: Counter[tuple[int, int]] = field(default_factory=Counter)
    sides: dict[int, list[int]] = field(default_factory=lambda: defaultdict(list))
    opponents_by_round: dict[tuple[int, int], int] = field(default_factory=dict)
    byes: Counter[int] = field(default_factory=Counter)
    sat_out: Counter[int] = field(default_factory=Counter)
    games: list[tiebreaks.Game] = field(default_factory=list)
    points: dict[int, Decimal] = field(default_factory=dict)  # summed ledger points
    fines: dict[int, Decimal] = field(default_factory=dict)  # standing penalties' points
    # Tables decided by a forfeit: table -> the players (entrants) who forfeited.
    forfeits: dict[int, list[int]] = field(default_factory=dict)


def history(competition: Competition, before_round: int | None = None) -> History:
    """Who met whom, seats taken, byes, and the match results of published rounds.

    A few queries whatever the size: seats, accepted results and byes are each read once."""
    h = History()
    draws = Draw.objects.filter(round__competition=competition, status=Draw.Status.PUBLISHED)
    if before_round is not None:
        draws = draws.filter(round__number__lt=before_round)
    for _number, out in draws.values_list("round__number", "sitting_out"):
        for p in out:
            h.sat_out[p] += 1
    seats = Seat.objects.filter(
        table__competition=competition, table__round__draw__status=Draw.Status.PUBLISHED
    )
    if before_round is not None:
        seats = seats.filter(table__round__number__lt=before_round)
    tables: dict[int, list[tuple[int, int]]] = defaultdict(list)
    table_round: dict[int, int] = {}
    # A substitute's seat counts for the entrant it was drawn for (``Seat.stands_for``):
    # the pairings, the Swiss table and the bracket are of entrants.
    for table_id, rnd, index, player, drawn_for in seats.values_list(
        "table_id", "table__round__number", "index", "player_id", "stands_for_id"
    ).order_by("table__round__number", "table_id", "index"):
        tables[table_id].append((index, drawn_for or player))
        table_round[table_id] = rnd
    sums: dict[int, list[Decimal]] = {}
    hands: dict[int, list[list[str]]] = defaultdict(list)
    read, forfeits = hands_and_forfeits(list(tables))
    for table_id, scores, seat_outcomes in read:
        acc = sums.setdefault(table_id, [Decimal(0)] * len(scores))
        for i, s in enumerate(scores):
            if i < len(acc):
                acc[i] += Decimal(s)
        hands[table_id].append(seat_outcomes)
    team_event = competition.format == Format.TEAM
    for table_id, seated in tables.items():
        players = [p for _i, p in seated]
        rnd = table_round[table_id]
        if table_id in forfeits:
            # Nobody played: no meeting, no seat or side taken; the points stand (a win for
            # who came, a loss for who did not), read as an unplayed game.
            lost = set(forfeits[table_id][0])
            h.forfeits[table_id] = sorted(p for i, p in seated if i in lost)
            if len(players) == 2 or team_event:
                a, b = players[0], players[1]
                sides_lost = (
                    any(i in lost for i, _p in seated if i % 2 == 0),
                    any(i in lost for i, _p in seated if i % 2 == 1),
                )
                h.games.append(
                    tiebreaks.Game(
                        rnd,
                        a,
                        b,
                        0.0 if sides_lost[0] else 1.0,
                        0.0 if sides_lost[1] else 1.0,
                        forfeit=True,
                    )
                )
            continue
        for index, p in seated:
            h.seat_counts[(p, index)] += 1
            h.points[p] = h.points.get(p, Decimal(0)) + (
                sums[table_id][index] if table_id in sums and index < len(sums[table_id]) else 0
            )
        for i, a in enumerate(players):
            for b in players[i + 1 :]:
                h.met[key(a, b)] += 1
        if len(players) == 2 or team_event:
            a, b = players[0], players[1]
            h.sides[a].append(0)
            h.sides[b].append(1)
            h.opponents_by_round[(a, rnd)] = b
            h.opponents_by_round[(b, rnd)] = a
            if hands.get(table_id):
                # Who won comes from each hand's Outcome, never from the points' sums.
                score_a, score_b = match_result([side_result(o) for o in hands[table_id]])
                h.games.append(tiebreaks.Game(rnd, a, b, score_a, score_b))
    # Penalties that stand count in the points the next seating reads.
    fines = Penalty.objects.filter(competition=competition, cancelled_at__isnull=True)
    if before_round is not None:
        fines = fines.filter(Q(round__isnull=True) | Q(round__number__lt=before_round))
    for player_id, fine in fines.values_list("player_id", "points"):
        h.points[player_id] = h.points.get(player_id, Decimal(0)) + fine
        h.fines[player_id] = h.fines.get(player_id, Decimal(0)) + fine
    byes = Bye.objects.filter(competition=competition)
    if before_round is not None:
        byes = byes.filter(round_number__lt=before_round)
    for player_id, rnd, points in byes.values_list("player_id", "round_number", "points"):
        h.byes[player_id] += 1
        h.games.append(tiebreaks.Game(rnd, player_id, None, float(points)))
    return h


#: The bracket slot of the match for third place, in the final's round (the final is slot 0).
THIRD_PLACE_SLOT = 1


def third_place_match(matches: Sequence[KnockoutMatch], stages: int) -> KnockoutMatch | None:
    """The match for third place among a knockout's matches: the final round's second slot."""
    return next((m for m in matches if m.stage == stages and m.slot == THIRD_PLACE_SLOT), None)


def match_games(
    match: KnockoutMatch, hands: Sequence[tuple[int, list[Any], list[str]]]
) -> list[tuple[float, float]]:
    """The games of a knockout match as (first player, second player), 1 a win, ½ a draw,
    0 a loss, from each accepted result's Outcome at the match's tables (``hands``: what
    ``accepted_hands`` read, of these tables or more)."""
    seat_of = {
        table.pk: {seat.entrant_id: seat.index for seat in table.seats.all()}
        for table in match.tables.all()
    }
    games: list[tuple[float, float]] = []
    for table_id, _scores, seat_outcomes in hands:
        seats = seat_of.get(table_id)
        if seats is None or match.first_id not in seats or match.second_id not in seats:
            continue
        a, b = seat_outcomes[seats[match.first_id]], seat_outcomes[seats[match.second_id]]
        if a == WIN and b != WIN:
            games.append((1.0, 0.0))
        elif b == WIN and a != WIN:
            games.append((0.0, 1.0))
        else:
            games.append((0.5, 0.5))
    return games


def match_winner(competition: Competition, match: KnockoutMatch) -> int | None:
    hands, forfeits = hands_and_forfeits([t.pk for t in match.tables.all()])
    return _decided(match, hands, settings_for(competition).best_of, forfeits)


# --- reads ----------------------------------------------------------------------------------


def swiss_standings(competition: Competition, as_of: int | None = None) -> list[dict[str, Any]]:
    """The Swiss table: every entrant (or team), byes included, ranked by points on the
    competition's scale, then Buchholz, median Buchholz and Sonneborn-Berger. ``as_of``: after
    that round. The competition page, the tiebreak page and the CSV show these rows."""
    h = history(competition, before_round=None if as_of is None else as_of + 1)
    rounds = as_of or published_rounds(competition)
    scale, bye = swiss_scale(competition)
    if competition.format == Format.TEAM:
        # A team is scored as its first member, who takes its first seat at every table.
        names = {}
        for team in competition.teams.prefetch_related("members"):
            members = sorted(m.pk for m in team.members.all())
            if members:
                names[members[0]] = team.name
    else:
        entrants = Entrant.objects.filter(competition=competition).select_related("player")
        names = {
            e.player_id: e.player.name
            for e in entrants
            if as_of is None or e.joined_round <= max(as_of, 1)
        }
    games = scaled_games(h.games, scale, bye)
    scored = tiebreaks.table(games, list(names), rounds, scale)
    # A penalty that stands takes its points from the player's score (not from the
    # opponents' tiebreaks).
    for player_id, points in active_penalties(competition, as_of).items():
        if player_id in scored:
            scored[player_id].score += float(points)
    lines = tiebreaks.ranked(scored)
    places = tiebreaks.places(lines)
    out = []
    for place, line in zip(places, lines, strict=True):
        out.append(
            {
                "rank": place,
                "player": line.player,
                "name": names.get(line.player, str(line.player)),
                "score": line.score,
                "played": line.played,
                "wins": line.wins,
                "draws": line.draws,
                "losses": line.losses,
                "buchholz": line.buchholz,
                "median_buchholz": line.median_buchholz,
                "sonneborn_berger": line.sonneborn_berger,
                "byes": line.byes,
                "forfeit_wins": line.forfeit_wins,
                "forfeit_losses": line.forfeit_losses,
            }
        )
    return out


def trf_export(competition: Competition) -> str:
    """The Swiss as a TRF16 file a pairing program accepts: every published round's games
    (forfeits and byes in the standard's codes), ``XXR`` the planned rounds (the published
    ones when the competition is open-ended), and who is kept out of the next round (an
    announced absence, a withdrawal) marked in its column."""
    h = history(competition)
    entrants = list(
        Entrant.objects.filter(competition=competition).select_related("player").order_by("number")
    )
    players = [trf.TrfPlayer(e.player_id, e.player.name, max(e.rating, 0)) for e in entrants]
    known = {p.id for p in players}
    scale, bye = swiss_scale(competition)
    # TRF results are wins, draws and losses; a bye is written by what part of a win it is.
    games = [
        tiebreaks.Game(g.round, g.a, None, scale.share(bye)) if g.b is None else g
        for g in h.games
        if g.a in known and (g.b is None or g.b in known)
    ]
    published = published_rounds(competition)
    planned = planned_rounds(competition) or published
    following = published + 1
    absent: dict[int, set[int]] = {}
    if planned and following <= planned:
        away = set(
            Absence.objects.filter(competition=competition, round_number=following).values_list(
                "player_id", flat=True
            )
        )
        absent[following] = {e.player_id for e in entrants if not e.plays_in(following)} | away
    return trf.export(competition.name, players, games, max(planned, 1), absent)


def round_view(competition: Competition, number: int) -> dict[str, Any] | None:
    """A round as the public and organiser pages show it, each table with its points and
    who won it (from the Outcomes). A fixed number of queries for a published round whatever
    its size: the draw, the names, its tables with seats, the waiting and the accepted
    results."""
    draw = (
        Draw.objects.select_related("round")
        .filter(round__competition=competition, round__number=number)
        .first()
    )
    if draw is None:
        return None
    ids = {p for t in draw.tables for p in t["players"]} | set(draw.byes) | set(draw.sitting_out)
    names = dict(Player.objects.filter(pk__in=ids).values_list("pk", "name"))
    tables: list[dict[str, Any]] = []
    if draw.status == Draw.Status.PUBLISHED:
        rows = (
            Table.objects.filter(round=draw.round).prefetch_related("seats__player").order_by("id")
        )
        results: dict[int, list[Result]] = defaultdict(list)
        waiting = (Result.Status.PENDING, Result.Status.DISPUTED)
        for r in Result.objects.filter(table__round=draw.round, status__in=waiting).only(
            "table_id"
        ):
            results[r.table_id].append(r)
        hands: dict[int, list[tuple[list[Any], list[str]]]] = defaultdict(list)
        read, forfeits = hands_and_forfeits([t.pk for t in rows])
        for table_id, scores, seat_outcomes in read:
            hands[table_id].append((scores, seat_outcomes))
        for table in rows:
            seats = list(table.seats.all())
            totals = [Decimal(0)] * len(seats)
            won = [0] * len(seats)
            accepted = len(hands.get(table.pk, []))
            pending = len(results.get(table.pk, []))
            for scores, seat_outcomes in hands.get(table.pk, []):
                for i, s in enumerate(scores[: len(seats)]):
                    totals[i] += Decimal(s)
                for i, o in enumerate(seat_outcomes[: len(seats)]):
                    won[i] += o == WIN
            # Who won the table: at a table of two sides the side that won more hands
            # (each hand's winners are its Outcome's, so 3-3 with a Bella Nazionale is a
            # win); at a larger table whoever won the most hands.
            forfeit = forfeits.get(table.pk)
            if not accepted:
                winners: list[int] = []
            elif forfeit is not None:
                winners = [i for i in range(len(seats)) if i not in forfeit[0]]
            elif len(seats) == 2 or competition.format == Format.TEAM:
                first, second = match_result([side_result(o) for _s, o in hands[table.pk]])
                winners = [i for i in range(len(seats)) if (first, second)[i % 2] == 1.0]
            else:
                most = max(won)
                winners = [i for i, w in enumerate(won) if most and w == most]
                if len(winners) == len(seats):
                    winners = []
            tables.append(
                {
                    "id": table.pk,
                    "label": table.label,
                    "seats": [
                        {
                            "index": s.index,
                            "player": s.player_id,
                            "name": s.player.name,
                            "points": f"{totals[i]:f}" if accepted else None,
                            "won": won[i] if accepted else None,
                            "winner": i in winners,
                        }
                        for i, s in enumerate(seats)
                    ],
                    "hands": accepted,
                    "pending": pending,
                    "totals": [f"{t:f}" for t in totals] if accepted else None,
                    "winners": [seats[i].player.name for i in winners],
                    "drawn": bool(accepted) and not winners and forfeit is None,
                    # Decided without a game: who did not play, and the referee's reason.
                    "forfeit": None
                    if forfeit is None
                    else {
                        "names": [seats[i].player.name for i in forfeit[0] if i < len(seats)],
                        "reason": forfeit[1],
                        "double": len(forfeit[0]) == len(seats),
                    },
                }
            )
    else:
        for t in draw.tables:
            tables.append(
                {
                    "id": None,
                    "label": t["label"],
                    "seats": [
                        {
                            "index": i,
                            "player": p,
                            "name": names.get(p, str(p)),
                            "points": None,
                            "won": None,
                            "winner": False,
                        }
                        for i, p in enumerate(t["players"])
                    ],
                    "hands": 0,
                    "pending": 0,
                    "totals": None,
                    "winners": [],
                    "drawn": False,
                    "forfeit": None,
                }
            )
    return {
        "draw": draw,
        "number": number,
        "status": draw.status,
        "engine": draw.engine,
        "tables": tables,
        "byes": [{"player": p, "name": names.get(p, str(p))} for p in draw.byes],
        "sitting_out": [{"player": p, "name": names.get(p, str(p))} for p in draw.sitting_out],
    }


def published_numbers(competition: Competition) -> list[int]:
    return list(
        Draw.objects.filter(round__competition=competition, status=Draw.Status.PUBLISHED)
        .order_by("round__number")
        .values_list("round__number", flat=True)
    )


def current_round(competition: Competition) -> int | None:
    numbers = published_numbers(competition)
    return numbers[-1] if numbers else None


def bracket_view(competition: Competition) -> list[dict[str, Any]]:
    """The knockout as a tree: every round of the bracket, those still to come included,
    each with its matches in slot order. A match not drawn yet shows the players already
    through to it and, for the others, the match whose winner will come. Reads the
    matches, their tables and accepted results in a few queries whatever the size."""
    matches = list(
        KnockoutMatch.objects.filter(competition=competition)
        .select_related("first", "second", "winner")
        .prefetch_related("tables__seats")
    )
    if not matches:
        return []
    size = bracket_size(matches)
    stages = knockout.rounds_needed(size)
    at = {(m.stage, m.slot): m for m in matches}
    names: dict[int | None, str] = {
        p.pk: p.name for m in matches for p in (m.first, m.second) if p is not None
    }
    hands, forfeits = hands_and_forfeits([t.pk for m in matches for t in m.tables.all()])
    best_of = settings_for(competition).best_of
    winners: dict[tuple[int, int], int | None] = {}

    def drawn(m: KnockoutMatch, cell: dict[str, Any]) -> list[dict[str, Any]]:
        games = match_games(m, hands)
        won = _decided(m, hands, best_of, forfeits)
        forfeit = forfeit_of(m, forfeits)
        cell["forfeit"] = None
        if forfeit is not None:
            cell["forfeit"] = {
                "player": forfeit[0],
                "name": names.get(forfeit[0], "") if forfeit[0] else "",
                "reason": forfeit[1],
            }
        winners[(m.stage, m.slot)] = won
        wins = [sum(1 for a, b in games if a > b), sum(1 for a, b in games if b > a)]
        cell["bye"] = m.second_id is None
        cell["match"] = m.pk
        cell["by_referee"] = bool(m.winner_id) and m.second_id is not None
        cell["reason"] = m.reason
        # Level after its games: a referee names the winner.
        cell["undecided"] = won is None and m.first_id is not None and m.second_id is not None
        cell["players"] = [(pid, names.get(pid, "")) for pid in (m.first_id, m.second_id)]
        return [
            {
                "player": pid,
                "name": names.get(pid, "") if pid else "",
                "bye": pid is None,
                "won": won is not None and won == pid,
                "out": won is not None and pid is not None and won != pid,
                "games": wins[i] if games and m.second_id else None,
            }
            for i, pid in enumerate((m.first_id, m.second_id))
        ]

    out: list[dict[str, Any]] = []
    for stage in range(1, stages + 1):
        count = size >> stage
        cells: list[dict[str, Any]] = []
        for slot in range(count):
            m = at.get((stage, slot))
            cell: dict[str, Any] = {"slot": slot, "number": slot + 1, "drawn": m is not None}
            sides: list[dict[str, Any]] = []
            if m is not None:
                sides = drawn(m, cell)
            else:
                winners[(stage, slot)] = None
                for feeder in (2 * slot, 2 * slot + 1):
                    through = winners.get((stage - 1, feeder))
                    sides.append(
                        {
                            "player": through,
                            "name": names.get(through, "") if through else "",
                            "from": feeder + 1,
                            "won": False,
                            "out": False,
                            "games": None,
                        }
                    )
                cell["bye"] = False
            cell["sides"] = sides
            cells.append(cell)
        remaining = size >> (stage - 1)
        round_: dict[str, Any] = {"stage": stage, "players": remaining, "matches": cells}
        third = third_place_match(matches, stages) if stage == stages else None
        if third is not None:
            cell = {"slot": third.slot, "number": third.slot + 1, "drawn": True}
            cell["sides"] = drawn(third, cell)
            round_["third_place"] = cell
        out.append(round_)
    return out


def seats_this_round(club_id: int, player: Player) -> list[dict[str, Any]]:
    """Where a player sits in the latest published round of each competition of the club
    they are entered in: table and seat, a bye, or sitting out. A competition whose latest
    round does not name them (knocked out, withdrawn) is left out."""
    entries = Entrant.objects.filter(player=player, competition__club_id=club_id).select_related(
        "competition", "competition__club"
    )
    out: list[dict[str, Any]] = []
    for entry in entries:
        competition = entry.competition
        draw = (
            Draw.objects.filter(round__competition=competition, status=Draw.Status.PUBLISHED)
            .select_related("round")
            .order_by("-round__number")
            .first()
        )
        if draw is None:
            continue
        where: dict[str, Any] = {"competition": competition, "round": draw.round.number}
        for t in draw.tables:
            if player.pk in t["players"]:
                seat = t["players"].index(player.pk)
                where.update(
                    table=t["label"],
                    seat=seat + 1,
                    side=(_("Tramontana") if seat == 0 else _("Mezzogiorno"))
                    if len(t["players"]) == 2
                    else "",
                    against=[p for p in t["players"] if p != player.pk],
                )
                break
        else:
            if player.pk in draw.byes:
                where["bye"] = True
            elif player.pk in draw.sitting_out:
                where["sitting_out"] = True
            else:
                continue
        out.append(where)
    names = dict(
        Player.objects.filter(pk__in={p for w in out for p in w.get("against", [])}).values_list(
            "pk", "name"
        )
    )
    for w in out:
        w["against"] = [names.get(p, "") for p in w.get("against", [])]
    return out


def has_swiss_table(competition: Competition) -> bool:
    """Whether the competition's standings are the Swiss table: a Swiss or team event run
    through its rounds here (with entrants). One that only records results at tables set up
    by hand keeps the journal's standings, and so does a Swiss at tables of three or more
    (Tarocco's): it is seated by the game's points, and its table ranks by them."""
    if competition.format not in (Format.SWISS, Format.TEAM):
        return False
    if competition.format == Format.SWISS and table_size(competition) != 2:
        return False
    return Entrant.objects.filter(competition=competition).exists()


def standings_for(competition: Competition, as_of: int | None = None) -> list[dict[str, Any]]:
    """The standings people read for this competition, as its format ranks them: one row
    per player (or team), best first, each with its ``place`` (shared by rows the format
    cannot separate: 1, 2, 2, 4), ``player`` and ``name``, and the format's own columns.

    A Swiss or team event run through its rounds here: its one table (``swiss_standings``:
    points on the competition's scale, byes, Buchholz, median Buchholz, Sonneborn-Berger).
    A knockout: by the round reached (``knockout_standings``). Anything else (league nights,
    a round robin, tables set up by hand): the journal's standings (``clubs.standings``).
    ``as_of``: after that round."""
    if has_swiss_table(competition):
        return [{**row, "place": row["rank"]} for row in swiss_standings(competition, as_of)]
    if competition.format == Format.KNOCKOUT:
        found = knockout_standings(competition, as_of)
        if found:
            return found
    from ledger.clubs.projections.standings import standings

    return [{**row.as_json(), "place": row.rank} for row in standings(competition, as_of)]


def stage_title(stage: int, players: int) -> str:
    """A knockout round's name: by how many players it starts with."""
    if players == 2:
        return _("Final")
    if players == 4:
        return _("Semi-finals")
    if players == 8:
        return _("Quarter-finals")
    return _("Round %(n)d") % {"n": stage}


def bracket_size(matches: Sequence[KnockoutMatch]) -> int:
    first = [m for m in matches if m.stage == 1]
    return 2 * max(len(first), max(m.slot for m in first) + 1 if first else 1)


def forfeit_of(match: KnockoutMatch, forfeits: Forfeits) -> tuple[int | None, str] | None:
    """The forfeit that decided a match: (who forfeited, the reason), or None."""
    for table in match.tables.all():
        if table.pk in forfeits:
            lost, reason = forfeits[table.pk]
            seat_of = {seat.index: seat.entrant_id for seat in table.seats.all()}
            gone = [seat_of.get(i) for i in lost]
            return (gone[0] if len(gone) == 1 else None), reason
    return None


def _decided(
    match: KnockoutMatch,
    hands: Sequence[tuple[int, list[Any], list[str]]],
    best_of: int,
    forfeits: Forfeits | None = None,
) -> int | None:
    """Who goes through from a match: the referee's decision, the only player of a bye, the
    player who came when the other forfeited, or whoever first won a majority of its
    best-of games by their Outcomes; None while open."""
    if match.winner_id:
        return int(match.winner_id)
    if match.second_id is None:
        return int(match.first_id) if match.first_id else None
    if match.first_id is None:
        return int(match.second_id)
    forfeit = forfeit_of(match, forfeits or {})
    if forfeit is not None:
        gone = forfeit[0]
        if gone == match.first_id:
            return int(match.second_id)
        if gone == match.second_id:
            return int(match.first_id)
        return None
    side = knockout.match_winner(match_games(match, hands), best_of)
    if side is None:
        return None
    return int(match.first_id if side == 0 else match.second_id)


def knockout_standings(competition: Competition, as_of: int | None = None) -> list[dict[str, Any]]:
    """A knockout ranked by the round each player reached: the champion 1, the finalist 2,
    the semi-finalists 3, the quarter-finalists 5 and so on, players knocked out in the same
    round sharing the place; while the bracket is played, those still in rank above those
    out in the same round. Every player of the bracket is listed, one who lost by forfeit
    too. Empty before the first round is published. ``as_of``: after that round."""
    chosen = KnockoutMatch.objects.filter(competition=competition)
    if as_of is not None:
        chosen = chosen.filter(stage__lte=as_of)
    matches = list(chosen.select_related("first", "second").prefetch_related("tables__seats"))
    if not matches:
        return []
    stages = knockout.rounds_needed(bracket_size(matches))
    hands, forfeits = hands_and_forfeits([t.pk for m in matches for t in m.tables.all()])
    best_of = settings_for(competition).best_of
    reached: dict[int, int] = {}
    out: set[int] = set()
    names: dict[int, str] = {}
    won: Counter[int] = Counter()
    played: Counter[int] = Counter()
    third = third_place_match(matches, stages)
    podium: dict[int, int] = {}  # the match for third place: its winner 1, its loser 0
    if third is not None:
        decided = _decided(third, hands, best_of, forfeits)
        if decided is not None:
            other = third.second_id if decided == third.first_id else third.first_id
            podium = {decided: 1, int(other or 0): 0}
            played[decided] += 1
            played[int(other or 0)] += 1
            won[decided] += 1
    for m in sorted(matches, key=lambda m: (m.stage, m.slot)):
        if m is third:
            continue
        for seated in (m.first, m.second):
            if seated is not None:
                names[seated.pk] = seated.name
                reached[seated.pk] = max(reached.get(seated.pk, 0), m.stage)
        winner = _decided(m, hands, best_of, forfeits)
        if winner is None:
            continue
        reached[winner] = max(reached[winner], m.stage + 1)
        loser = m.second_id if winner == m.first_id else m.first_id
        if loser is not None:
            out.add(int(loser))
            played[winner] += 1
            played[int(loser)] += 1
            won[winner] += 1
    keys = {p: (reached[p], p not in out, podium.get(p, 0)) for p in reached}
    rows = []
    for p in sorted(reached, key=lambda p: (tuple(-int(v) for v in keys[p]), names[p])):
        champion = reached[p] > stages
        stage = min(reached[p], stages)
        if champion:
            label = _("Champion")
        elif p in podium:
            label = _("Third place") if podium[p] else _("Fourth place")
        else:
            label = stage_title(stage, 2 ** (stages - stage + 1))
        rows.append(
            {
                "place": 1 + sum(1 for other in keys.values() if other > keys[p]),
                "player": p,
                "name": names[p],
                "reached": reached[p],
                "round": label,
                "champion": champion,
                "out": p in out,
                "played": played[p],
                "won": won[p],
            }
        )
    for row in rows:
        row["rank"] = row["place"]
    return rows


def champion(competition: Competition) -> dict[str, Any] | None:
    """The knockout's champion (their standings row), once the final has a winner."""
    if competition.format != Format.KNOCKOUT:
        return None
    rows = knockout_standings(competition)
    return rows[0] if rows and rows[0]["champion"] else None


# --- planned rounds: when a competition is over, and extending it -------------------------


def planned_rounds(competition: Competition, fs: FormatSettings | None = None) -> int | None:
    """How many rounds the competition plans: the Swiss's, team event's or league's
    ``rounds`` setting (None when it is 0, open-ended), a round robin's Berger schedule
    (every entrant of round 1 met once a cycle), a knockout's bracket (the rounds to a
    final). None while nothing tells (a knockout or round robin without two entrants)."""
    fs = fs or settings_for(competition)
    if competition.format == Format.KNOCKOUT:
        matches = list(KnockoutMatch.objects.filter(competition=competition, stage=1))
        size = (
            len(matches) * 2 if matches else Entrant.objects.filter(competition=competition).count()
        )
        return knockout.rounds_needed(size) if size >= 2 else None
    if competition.format == Format.ROUND_ROBIN:
        n = Entrant.objects.filter(competition=competition, joined_round=1).count()
        return (n - 1 + n % 2) * int(fs.cycles) if n >= 2 else None
    return int(fs.rounds) or None


@dataclass(frozen=True)
class Progress:
    """Where a competition stands against its plan."""

    planned: int | None  # None: open-ended
    published: int  # rounds published so far
    all_drawn: bool  # every planned round is published: no further round is offered
    concluded: bool  # ...and every table has its results (a knockout: the final is won)
    can_extend: bool  # the organiser may add rounds (not a knockout; a round robin once)


def progress(competition: Competition) -> Progress:
    fs = settings_for(competition)
    planned = planned_rounds(competition, fs)
    published = published_rounds(competition)
    all_drawn = planned is not None and published >= planned
    if competition.format == Format.KNOCKOUT:
        concluded = (
            all_drawn and champion(competition) is not None and _third_place_over(competition)
        )
    else:
        concluded = all_drawn and not _tables_short(competition, int(fs.hands_per_table))
    if competition.format == Format.KNOCKOUT:
        can_extend = False
    elif competition.format == Format.ROUND_ROBIN:
        can_extend = int(fs.cycles) == 1
    else:
        can_extend = planned is not None
    return Progress(planned, published, all_drawn, concluded, can_extend)


def _third_place_over(competition: Competition) -> bool:
    """Whether the match for third place, when the knockout has one, has its winner."""
    matches = list(KnockoutMatch.objects.filter(competition=competition))
    third = third_place_match(matches, knockout.rounds_needed(bracket_size(matches)))
    return third is None or match_winner(competition, third) is not None


def _tables_short(competition: Competition, hands: int) -> bool:
    """Whether a table of a published round has fewer accepted results than its hands (a
    table decided by a forfeit has all it will ever have)."""
    from django.db.models import Count

    accepted = Q(results__status=Result.Status.ACCEPTED)
    return (
        Table.objects.filter(competition=competition, round__draw__status=Draw.Status.PUBLISHED)
        .annotate(
            n=Count("results", filter=accepted),
            forfeits=Count("results", filter=accepted & Q(results__source=Result.Source.FORFEIT)),
        )
        .filter(n__lt=hands, forfeits=0)
        .exists()
    )
