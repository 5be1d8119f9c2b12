"""Writes and reads of competition formats. Writes are atomic and check roles; tables are
created only through clubs.services.create_table when a draw is published.

Rounds: the core has no service that creates a Round, so this app creates the Round row
when it drafts a round's draw (a round is not part of the journal).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from ledger.clubs import events
from ledger.clubs.errors import Conflict, Invalid
from ledger.clubs.games import meta, table_sizes
from ledger.clubs.journal import checkpoints
from ledger.clubs.models import Competition, Penalty, Player, Result, Role, Round, Seat, Table
from ledger.clubs.office.roles import require_role
from ledger.clubs.outcomes import WIN, outcomes
from ledger.clubs.projections.standings import settings_of
from ledger.clubs.results import services as core
from ledger.clubs.results.penalties import active_total as active_penalties
from ledger.formats.models import (
    Absence,
    Bye,
    Draw,
    Entrant,
    ForbiddenPair,
    FormatSettings,
    KnockoutMatch,
    Team,
)
from ledger.formats.pairing import groups, knockout, rotation, swiss, tiebreaks, trf
from ledger.formats.pairing.swiss import EXACT_MAX, key

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


def seat_choices(competition: Competition) -> tuple[int, ...]:
    """The table sizes the competition's draws seat: those its ruleset can be scored at."""
    return table_sizes(competition)


def table_size(competition: Competition, fs: FormatSettings | None = None) -> int:
    fs = fs or settings_for(competition)
    if fs.seats_per_table:
        return int(fs.seats_per_table)
    if competition.format == Format.TEAM:
        sizes = [t.members.count() for t in competition.teams.all()[:1]]
        return 2 * (sizes[0] if sizes else 1)
    return min(seat_choices(competition))


def two_sided(competition: Competition) -> bool:
    return table_size(competition) == 2 or competition.format == Format.TEAM


# --- settings, entries, absences, forbidden pairs, teams -------------------------------

SETTING_FIELDS = (
    "seats_per_table",
    "hands_per_table",
    "rounds",
    "cycles",
    "bye_points",
    "best_of",
    "exact_limit",
    "initial_side",
    "third_place",
)


@transaction.atomic
def update_settings(*, user: Any, competition: Competition, **values: Any) -> FormatSettings:
    require_role(user, competition.club, Role.ORGANISER)
    fs = settings_for(competition)
    unknown = set(values) - set(SETTING_FIELDS)
    if unknown:
        raise Invalid(
            _("Unknown settings: %(names)s.") % {"names": ", ".join(sorted(unknown))},
            fields={n: [_("Unknown setting.")] for n in unknown},
        )
    for name, value in values.items():
        setattr(fs, name, value)
    seats = int(fs.seats_per_table)
    if seats and seats not in seat_choices(competition) and competition.format != (Format.TEAM):
        allowed = ", ".join(str(n) for n in seat_choices(competition))
        raise Invalid(
            _("%(game)s is played by %(allowed)s players.")
            % {"game": meta(competition.game).label, "allowed": allowed},
            fields={"seats_per_table": [_("Choose one of %(a)s.") % {"a": allowed}]},
        )
    if int(fs.best_of) % 2 == 0:
        raise Invalid(
            _("A knockout match is best of an odd number of games."),
            fields={"best_of": [_("Give an odd number.")]},
        )
    if int(fs.cycles) not in (1, 2):
        raise Invalid(_("A round robin has 1 or 2 cycles."), fields={"cycles": ["1, 2"]})
    if fs.bye_points is not None and Decimal(fs.bye_points) < 0:
        raise Invalid(_("A bye is worth zero points or more."), fields={"bye_points": [">= 0"]})
    if not 0 <= int(fs.exact_limit) <= EXACT_MAX:
        raise Invalid(
            _("The exact FIDE Dutch pairing is for fields of up to %(max)s players.")
            % {"max": EXACT_MAX},
            fields={"exact_limit": [_("Give a number from 0 to %(max)s.") % {"max": EXACT_MAX}]},
        )
    if int(fs.initial_side) not in (0, 1):
        raise Invalid(_("Choose Tramontana or Mezzogiorno."), fields={"initial_side": ["0, 1"]})
    if int(fs.hands_per_table) < 1:
        raise Invalid(_("A table plays at least one hand."), fields={"hands_per_table": [">= 1"]})
    fs.third_place = bool(fs.third_place)
    fs.save()
    return fs


def _published_rounds(competition: Competition) -> int:
    top = Draw.objects.filter(
        round__competition=competition, status=Draw.Status.PUBLISHED
    ).aggregate(n=Max("round__number"))["n"]
    return int(top or 0)


#: The other apps' checks of a new entry (the federation's membership cards), each asked
#: before a player is entered; one that refuses raises a LedgerError saying why.
_entry_checks: list[Callable[[Competition, Player], None]] = []


def add_entry_check(check: Callable[[Competition, Player], None]) -> None:
    """Ask ``check`` too before each new entry (once, however often added)."""
    if check not in _entry_checks:
        _entry_checks.append(check)


@transaction.atomic
def enter_player(
    *, user: Any, competition: Competition, player: Player, rating: int = 0
) -> Entrant:
    """Enter a player; after round 1 is published this is a late entry from the next round."""
    require_role(user, competition.club, Role.ORGANISER)
    if not competition.club.memberships.filter(player=player).exists():
        raise Invalid(
            _("%(name)s is not a member of %(club)s.")
            % {"name": player.name, "club": competition.club.name},
            fields={"player": [_("Not a member.")]},
        )
    done = _published_rounds(competition)
    if done and competition.format in (Format.ROUND_ROBIN, Format.KNOCKOUT):
        raise Conflict(
            _("The schedule of this %(f)s is fixed once play starts: no late entries.")
            % {"f": competition.get_format_display()}
        )
    existing = Entrant.objects.filter(competition=competition, player=player).first()
    if existing:
        if existing.withdrawn_after is not None:
            raise Conflict(_("%(name)s withdrew and cannot re-enter.") % {"name": player.name})
        return existing
    for check in _entry_checks:
        check(competition, player)
    number = (
        Entrant.objects.filter(competition=competition).aggregate(n=Max("number"))["n"] or 0
    ) + 1
    return Entrant.objects.create(
        competition=competition,
        player=player,
        number=number,
        rating=rating,
        joined_round=done + 1,
    )


@transaction.atomic
def withdraw_player(*, user: Any, competition: Competition, player: Player) -> Entrant:
    """The player plays no round after the last published one."""
    require_role(user, competition.club, Role.ORGANISER)
    entrant = Entrant.objects.select_for_update().filter(competition=competition, player=player)
    found = entrant.first()
    if found is None:
        raise Invalid(_("%(name)s is not entered.") % {"name": player.name})
    if found.withdrawn_after is None:
        found.withdrawn_after = _published_rounds(competition)
        found.save(update_fields=["withdrawn_after"])
    return found


@transaction.atomic
def mark_absent(
    *, user: Any, competition: Competition, round_number: int, player: Player, absent: bool = True
) -> None:
    """A no-show or an announced absence for one round not yet published."""
    require_role(user, competition.club, Role.ORGANISER)
    if round_number <= _published_rounds(competition):
        raise Conflict(_("Round %(n)d is already published.") % {"n": round_number})
    if absent:
        Absence.objects.get_or_create(
            competition=competition, round_number=round_number, player=player
        )
    else:
        Absence.objects.filter(
            competition=competition, round_number=round_number, player=player
        ).delete()


@transaction.atomic
def forbid_pair(
    *,
    user: Any,
    competition: Competition,
    first: Player,
    second: Player,
    hard: bool = False,
    reason: str = "",
) -> ForbiddenPair:
    require_role(user, competition.club, Role.ORGANISER)
    if first.pk == second.pk:
        raise Invalid(_("Choose two different players."), fields={"second": [_("Same player.")]})
    a, b = sorted([first, second], key=lambda p: p.pk)
    pair, _created = ForbiddenPair.objects.update_or_create(
        competition=competition, first=a, second=b, defaults={"hard": hard, "reason": reason}
    )
    return pair


@transaction.atomic
def allow_pair(*, user: Any, pair: ForbiddenPair) -> None:
    require_role(user, pair.competition.club, Role.ORGANISER)
    pair.delete()


@transaction.atomic
def create_team(
    *, user: Any, competition: Competition, name: str, members: Sequence[Player]
) -> Team:
    require_role(user, competition.club, Role.ORGANISER)
    if competition.format != Format.TEAM:
        raise Invalid(_("Teams belong to team events."))
    if not name.strip():
        raise Invalid(_("Give the team a name."), fields={"name": [_("Required.")]})
    if len(members) not in (1, 2, 3):
        raise Invalid(
            _("A side has 1, 2 or 3 players."), fields={"members": [_("Give 1 to 3 players.")]}
        )
    sizes = {t.members.count() for t in competition.teams.all()}
    if sizes and len(members) not in sizes:
        raise Invalid(
            _("Every team in this event has %(n)d players.") % {"n": sizes.pop()},
            fields={"members": [_("Wrong number of players.")]},
        )
    if len(members) * 2 not in seat_choices(competition):
        raise Invalid(
            _("%(game)s has no table for two sides of %(n)d.")
            % {"game": meta(competition.game).label, "n": len(members)},
            fields={"members": [_("Wrong number of players.")]},
        )
    taken = Team.members.through.objects.filter(
        team__competition=competition, player__in=members
    ).exists()
    if taken:
        raise Invalid(_("A player can be in only one team."), fields={"members": ["?"]})
    number = (competition.teams.aggregate(n=Max("number"))["n"] or 0) + 1
    team = Team.objects.create(competition=competition, name=name.strip(), number=number)
    team.members.set(members)
    for p in members:
        if not Entrant.objects.filter(competition=competition, player=p).exists():
            enter_player(user=user, competition=competition, player=p)
    return team


# --- history ----------------------------------------------------------------------------


# --- what a table's results say: the engine's Outcome ----------------------------------


def accepted_hands(table_ids: Sequence[int]) -> list[tuple[int, list[Any], list[str]]]:
    """(table, scores, each seat's win, draw or loss) of every accepted result of those
    tables, in the order they were recorded: one query. Win, draw and loss come from the
    Outcome kept in the result's verdict (``clubs.outcomes``), so a hand the rules decide
    with the points level (a Bella Nazionale at 3-3, a deciding sfida, San Marco's
    tie-break) is the win it is; only the Outcome's winners are read from the verdict."""
    return hands_and_forfeits(table_ids)[0]


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


def _team_of(competition: Competition) -> dict[int, int]:
    """Player id -> the id of the first member of their team (a team is paired as that
    player: its first member's seat decides its side)."""
    out: dict[int, int] = {}
    for team in competition.teams.prefetch_related("members"):
        members = sorted(m.pk for m in team.members.all())
        for m in members:
            out[m] = members[0]
    return out


# --- drafting a round --------------------------------------------------------------------


def next_round_number(competition: Competition) -> int:
    draft = Draw.objects.filter(round__competition=competition, status=Draw.Status.DRAFT).first()
    if draft:
        return int(draft.round.number)
    top = Round.objects.filter(competition=competition).aggregate(n=Max("number"))["n"] or 0
    return int(top) + 1


def present_players(competition: Competition, round_number: int) -> list[Entrant]:
    absent = set(
        Absence.objects.filter(competition=competition, round_number=round_number).values_list(
            "player_id", flat=True
        )
    )
    return [
        e
        for e in Entrant.objects.filter(competition=competition).select_related("player")
        if e.plays_in(round_number) and e.player_id not in absent
    ]


@dataclass
class Drafted:
    tables: list[list[int]]
    byes: list[int] = field(default_factory=list)
    sitting_out: list[int] = field(default_factory=list)
    engine: str = ""
    matches: list[int | None] = field(default_factory=list)


@transaction.atomic
def generate_round(*, user: Any, competition: Competition) -> Draw:
    """Draft the next round's pairings or seatings (or redraft the current draft)."""
    require_role(user, competition.club, Role.ORGANISER)
    Competition.objects.select_for_update().get(pk=competition.pk)  # one drafter at a time
    number = next_round_number(competition)
    fs = settings_for(competition)
    _beyond_plan(competition, fs, number)
    entrants = present_players(competition, number)
    if competition.format == Format.TEAM:
        drafted = _draft_team(competition, fs, number, entrants)
    elif competition.format == Format.KNOCKOUT:
        drafted = _draft_knockout(competition, number, entrants)
    else:
        if len(entrants) < min(seat_choices(competition)):
            raise Invalid(
                _("Only %(n)d players are entered and present: not enough for a table.")
                % {"n": len(entrants)}
            )
        if competition.format == Format.ROUND_ROBIN:
            drafted = _draft_round_robin(competition, fs, number)
        elif competition.format == Format.SWISS:
            drafted = _draft_swiss(competition, fs, number, entrants)
        else:
            drafted = _draft_league(competition, fs, number, entrants)
    rnd, _created = Round.objects.get_or_create(competition=competition, number=number)
    draw, _created = Draw.objects.get_or_create(round=rnd)
    if draw.status == Draw.Status.PUBLISHED:
        raise Conflict(_("Round %(n)d is already published.") % {"n": number})
    draw.tables = [
        {
            "label": str(i),
            "players": t,
            "match": drafted.matches[i - 1] if drafted.matches else None,
        }
        for i, t in enumerate(drafted.tables, start=1)
    ]
    draw.byes = drafted.byes
    draw.sitting_out = drafted.sitting_out
    draw.engine = drafted.engine
    draw.generated_by = user
    draw.generated_at = timezone.now()
    draw.save()
    return draw


def _forbidden(competition: Competition) -> tuple[set[tuple[int, int]], set[tuple[int, int]]]:
    hard: set[tuple[int, int]] = set()
    soft: set[tuple[int, int]] = set()
    for a, b, is_hard in ForbiddenPair.objects.filter(competition=competition).values_list(
        "first_id", "second_id", "hard"
    ):
        (hard if is_hard else soft).add(key(a, b))
    return hard, soft


def _draft_league(
    competition: Competition, fs: FormatSettings, number: int, entrants: list[Entrant]
) -> Drafted:
    h = history(competition, before_round=number)
    hard, soft = _forbidden(competition)
    met: Counter[tuple[int, int]] = Counter(h.met)
    # Forbidden pairs look like pairs that met very often: the search keeps them apart.
    for pair in hard:
        met[pair] += 50
    for pair in soft:
        met[pair] += 3
    seating = rotation.league_night(
        [e.player_id for e in entrants],
        size=table_size(competition, fs),
        allowed=seat_choices(competition),
        met=met,
        seat_counts=h.seat_counts,
        sat_out=h.sat_out,
        seed=number,
    )
    return Drafted(seating.tables, sitting_out=seating.sitting_out, engine=seating.source)


def _draft_round_robin(competition: Competition, fs: FormatSettings, number: int) -> Drafted:
    from caissify_pairings.engines.round_robin import (
        RoundRobinEngine,
    )

    if table_size(competition, fs) != 2:
        raise Invalid(_("A round robin is for two-sided games (tables of two)."))
    # The schedule is fixed for the players entered before round 1, absent or not.
    entrants = list(Entrant.objects.filter(competition=competition, joined_round=1))
    n = len(entrants)
    total = (n - 1 + n % 2) * fs.cycles
    if number > total:
        raise Conflict(_("The round robin is complete after %(n)d rounds.") % {"n": total})
    players = [
        {"id": e.player_id, "starting_number": e.number, "name": str(e.player_id)} for e in entrants
    ]
    out = RoundRobinEngine(
        players=players,
        previous_pairings=set(),
        round_number=number,
        total_rounds=total,
        cycles=fs.cycles,
    ).generate_pairings()
    tables = [[r["white_id"], r["black_id"]] for r in out if r.get("black_id") is not None]
    resting = [r["white_id"] for r in out if r.get("black_id") is None]
    return Drafted(tables, sitting_out=resting, engine="berger")


def _swiss_players(
    ids_numbers: list[tuple[int, int, int]],
    h: History,
    number: int,
    scale: tiebreaks.Scale = tiebreaks.CHESS,
    bye: float = 1.0,
) -> list[swiss.SwissPlayer]:
    """The pairing's view of the field. Scores are the standings' points, counted in wins
    (a win 1, a loss 0, a draw and a bye what part of a win the scale makes them), which is
    the scale the Dutch rules are written in and ranks the field as the standings do; a
    penalty that stands takes its points off as the standings take them (a penalty of a
    win's worth is one win less)."""
    games = scaled_games(h.games, scale, bye)
    per_win = scale.win - scale.loss
    scores: dict[int, float] = defaultdict(float)
    before: dict[tuple[int, int], float] = {}
    rounds = sorted({g.round for g in games})
    for r in rounds:
        for g in games:
            if g.round == r:
                before[(g.a, r)] = scores[g.a]
                if g.b is not None:
                    before[(g.b, r)] = scores[g.b]
        for g in games:
            if g.round == r:
                scores[g.a] += scale.share(g.score_a)
                if g.b is not None:
                    scores[g.b] += scale.share(g.score_b)
    floats: dict[int, list[str]] = defaultdict(list)
    for r in rounds:
        for g in games:
            if g.round != r:
                continue
            if g.b is None:
                floats[g.a].append("down")
                continue
            if g.forfeit:
                # Unplayed: a point won without a game floats down, as a bye does.
                floats[g.a].append("down" if g.score_a > g.score_b else "none")
                floats[g.b].append("down" if g.score_b > g.score_a else "none")
                continue
            sa, sb = before[(g.a, r)], before[(g.b, r)]
            floats[g.a].append("down" if sa > sb else "up" if sa < sb else "none")
            floats[g.b].append("down" if sb > sa else "up" if sb < sa else "none")
    return [
        swiss.SwissPlayer(
            id=pid,
            score=scores[pid] + (float(h.fines.get(pid, 0)) / per_win if per_win else 0.0),
            rating=rating,
            number=num,
            sides=list(h.sides.get(pid, [])),
            floats=floats[pid],
            byes=h.byes[pid],
        )
        for pid, num, rating in ids_numbers
    ]


def _draft_swiss(
    competition: Competition, fs: FormatSettings, number: int, entrants: list[Entrant]
) -> Drafted:
    h = history(competition, before_round=number)
    hard, soft = _forbidden(competition)
    size = table_size(competition, fs)
    if size != 2:
        points = {p: float(v) for p, v in h.points.items()}
        met: Counter[tuple[int, int]] = Counter(h.met)
        for pair in hard:
            met[pair] += 50
        for pair in soft:
            met[pair] += 3
        grouping = groups.group_swiss(
            [(e.player_id, points.get(e.player_id, 0.0)) for e in entrants],
            size=size,
            allowed=seat_choices(competition),
            met=met,
            seat_counts=h.seat_counts,
            sat_out=h.sat_out,
        )
        return Drafted(grouping.tables, sitting_out=grouping.sitting_out, engine="groups")
    scale, bye = swiss_scale(competition, fs)
    players = _swiss_players(
        [(e.player_id, e.number, e.rating) for e in entrants], h, number, scale, bye
    )
    result = swiss.pair_swiss(
        players,
        met=h.met.keys(),
        round_number=number,
        total_rounds=fs.rounds or number,
        hard_forbidden=hard,
        soft_forbidden=soft,
        exact_limit=fs.exact_limit,
        initial_side=fs.initial_side,
    )
    return Drafted(
        [list(p) for p in result.pairs],
        byes=[result.bye] if result.bye is not None else [],
        engine=result.engine + (" (repaired)" if result.repaired else ""),
    )


def _draft_team(
    competition: Competition, fs: FormatSettings, number: int, entrants: list[Entrant]
) -> Drafted:
    """Teams are paired as Swiss sides; team A takes the even seats, team B the odd ones
    (seat parity is the side at Er Giò and the Bridge's Game)."""
    teams = list(competition.teams.prefetch_related("members"))
    if len(teams) < 2:
        raise Invalid(_("A team event needs at least two teams."))
    present = {e.player_id for e in entrants}
    members = {t.pk: sorted(m.pk for m in t.members.all()) for t in teams}
    playing = [t for t in teams if all(m in present for m in members[t.pk])]
    lead = {t.pk: members[t.pk][0] for t in teams}
    team_of_lead = {lead[t.pk]: t for t in teams}
    h = history(competition, before_round=number)
    scale, bye = swiss_scale(competition, fs)
    players = _swiss_players([(lead[t.pk], t.number, 0) for t in playing], h, number, scale, bye)
    met = {key(a, b) for a, b in h.met if a in team_of_lead and b in team_of_lead}
    result = swiss.pair_swiss(
        players,
        met=met,
        round_number=number,
        total_rounds=fs.rounds or number,
        exact_limit=fs.exact_limit,
        initial_side=fs.initial_side,
    )
    tables = []
    for a, b in result.pairs:
        ma, mb = members[team_of_lead[a].pk], members[team_of_lead[b].pk]
        seats = [p for pair in zip(ma, mb, strict=True) for p in pair]
        tables.append(seats)
    byes = []
    if result.bye is not None:
        byes = [result.bye]
    out = [p for t in teams if t not in playing for p in members[t.pk] if p in present]
    return Drafted(tables, byes=byes, sitting_out=out, engine="team " + result.engine)


def _draft_knockout(competition: Competition, number: int, entrants: list[Entrant]) -> Drafted:
    matches = KnockoutMatch.objects.filter(competition=competition)
    if number == 1:
        if len(entrants) < 2:
            raise Invalid(_("A knockout needs at least two players."))
        seeded = [e.player_id for e in sorted(entrants, key=lambda e: (-e.rating, e.number))]
        slots = knockout.first_round(seeded)
        pairs = [(s.a, s.b) for s in slots]
    else:
        previous = list(matches.filter(stage=number - 1).order_by("slot"))
        undecided = [m for m in previous if _match_winner(competition, m) is None]
        if undecided:
            raise Conflict(
                _(
                    "%(n)d matches of the previous round have no winner yet: their results are "
                    "missing, or they ended level. A referee names the winner of a level or "
                    "forfeited match on the bracket page."
                )
                % {"n": len(undecided)}
            )
        if number - 1 >= knockout.rounds_needed(_bracket_size(list(matches))):
            raise Conflict(_("The knockout is over."))
        if len(previous) <= 1:
            raise Conflict(_("The knockout is over."))
        winners = [_match_winner(competition, m) for m in previous]
        pairs = [(winners[i], winners[i + 1]) for i in range(0, len(winners), 2)]
        if len(previous) == 2 and settings_for(competition).third_place:
            # The final, and beside it the semi-finals' losers play for third place.
            losers = [
                m.second_id if w == m.first_id else m.first_id
                for m, w in zip(previous, winners, strict=True)
            ]
            if all(losers):
                pairs.append((losers[0], losers[1]))
    tables: list[list[int]] = []
    byes: list[int] = []
    slots_out: list[int | None] = []
    for slot, (a, b) in enumerate(pairs):
        if a is None or b is None:
            alone = a if a is not None else b
            if alone is not None:
                byes.append(alone)
            continue
        tables.append([a, b])
        slots_out.append(slot)  # the match for third place, if any, is the final's slot 1
    # The "match" of a table is its slot; byes advance as walkovers at publication.
    return Drafted(tables, byes=byes, engine="knockout", matches=slots_out)


#: The bracket slot of the match for third place, in the final's round (the final is slot 0).
THIRD_PLACE_SLOT = 1


def third_place_match(matches: Sequence[KnockoutMatch], stages: int) -> KnockoutMatch | None:
    """The match for third place among a knockout's matches: the final round's second slot."""
    return next((m for m in matches if m.stage == stages and m.slot == THIRD_PLACE_SLOT), None)


def _knockout_still_in(competition: Competition, number: int) -> set[int] | None:
    """Knockout: the players who play round ``number`` (the winners of the round before);
    None for other formats and for the first round, where every entrant plays."""
    if competition.format != Format.KNOCKOUT or number == 1:
        return None
    previous = KnockoutMatch.objects.filter(competition=competition, stage=number - 1)
    return {w for m in previous if (w := _match_winner(competition, m)) is not None}


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


def _match_winner(competition: Competition, match: KnockoutMatch) -> int | None:
    hands, forfeits = hands_and_forfeits([t.pk for t in match.tables.all()])
    return _decided(match, hands, settings_for(competition).best_of, forfeits)


# --- editing and publishing ---------------------------------------------------------------


@dataclass
class Warning:
    code: str
    message: str
    table: str | None = None


def check_draw(competition: Competition, draw: Draw) -> list[Warning]:
    """What an organiser should know before publishing: repeats, forbidden pairs, side
    imbalance, unseated players. Errors that cannot be published are refused by
    ``adjust_draw``; these are warnings."""
    number = draw.round.number
    h = history(competition, before_round=number)
    hard, soft = _forbidden(competition)
    names = dict(
        Player.objects.filter(entries_in__competition=competition).values_list("pk", "name")
    )
    out: list[Warning] = []
    for t in draw.tables:
        ps = t["players"]
        for i, a in enumerate(ps):
            for b in ps[i + 1 :]:
                k = key(a, b)
                if h.met.get(k):
                    out.append(
                        Warning(
                            "repeat",
                            _("%(a)s and %(b)s have already met %(n)d times.")
                            % {"a": names.get(a, a), "b": names.get(b, b), "n": h.met[k]}
                            if h.met[k] > 1
                            else _("%(a)s and %(b)s have already met.")
                            % {"a": names.get(a, a), "b": names.get(b, b)},
                            t["label"],
                        )
                    )
                if k in hard:
                    out.append(
                        Warning(
                            "forbidden",
                            _("%(a)s and %(b)s must never be paired.")
                            % {"a": names.get(a, a), "b": names.get(b, b)},
                            t["label"],
                        )
                    )
                elif k in soft:
                    out.append(
                        Warning(
                            "avoid",
                            _("%(a)s and %(b)s should not be paired.")
                            % {"a": names.get(a, a), "b": names.get(b, b)},
                            t["label"],
                        )
                    )
        if len(ps) == 2:
            for seat, p in enumerate(ps):
                sides = [*h.sides.get(p, []), seat]
                diff = sides.count(0) - sides.count(1)
                if abs(diff) > 1:
                    out.append(
                        Warning(
                            "sides",
                            _("%(p)s would have %(n)d more games as %(side)s than as %(other)s.")
                            % {
                                "p": names.get(p, p),
                                "n": abs(diff),
                                "side": _("Tramontana") if diff > 0 else _("Mezzogiorno"),
                                "other": _("Mezzogiorno") if diff > 0 else _("Tramontana"),
                            },
                            t["label"],
                        )
                    )
                elif len(sides) >= 3 and sides[-1] == sides[-2] == sides[-3]:
                    out.append(
                        Warning(
                            "sides",
                            _("%(p)s would sit as %(side)s three rounds running.")
                            % {
                                "p": names.get(p, p),
                                "side": _("Tramontana") if seat == 0 else _("Mezzogiorno"),
                            },
                            t["label"],
                        )
                    )
        else:
            for seat, p in enumerate(ps):
                here = h.seat_counts.get((p, seat), 0)
                least = min(h.seat_counts.get((p, s), 0) for s in range(len(ps)))
                if here - least >= 2:
                    out.append(
                        Warning(
                            "seats",
                            _("%(p)s has sat in seat %(s)d %(n)d times more than in another.")
                            % {"p": names.get(p, p), "s": seat + 1, "n": here - least},
                            t["label"],
                        )
                    )
    for p in draw.byes:
        if h.byes.get(p):
            out.append(Warning("bye", _("%(p)s already had a bye.") % {"p": names.get(p, p)}))
    seated = {p for t in draw.tables for p in t["players"]} | set(draw.byes) | set(draw.sitting_out)
    if competition.format != Format.ROUND_ROBIN:
        still_in = _knockout_still_in(competition, number)
        for e in present_players(competition, number):
            if still_in is not None and e.player_id not in still_in:
                continue  # knocked out: no table is expected
            if e.player_id not in seated:
                out.append(
                    Warning(
                        "unseated",
                        _("%(p)s is present but has no table.") % {"p": e.player.name},
                    )
                )
    return out


@transaction.atomic
def adjust_draw(
    *,
    user: Any,
    draw: Draw,
    tables: Sequence[Sequence[int]],
    byes: Iterable[int] = (),
    sitting_out: Iterable[int] = (),
) -> list[Warning]:
    """Replace a draft by hand. Refuses what cannot be played (a player twice, a table of
    the wrong size, someone not entered); returns the warnings for the rest."""
    draw = Draw.objects.select_for_update().select_related("round__competition").get(pk=draw.pk)
    competition = draw.round.competition
    require_role(user, competition.club, Role.ORGANISER)
    if draw.status != Draw.Status.DRAFT:
        raise Conflict(_("A published round cannot be changed; correct its results instead."))
    byes, sitting_out = list(byes), list(sitting_out)
    entered = set(
        Entrant.objects.filter(competition=competition).values_list("player_id", flat=True)
    )
    everyone = [p for t in tables for p in t] + byes + sitting_out
    twice = sorted({p for p in everyone if everyone.count(p) > 1})
    if twice:
        names = ", ".join(Player.objects.filter(pk__in=twice).values_list("name", flat=True))
        raise Invalid(
            _("A player can have only one place in a round: %(names)s.") % {"names": names},
            fields={"tables": [_("Seated twice: %(n)s") % {"n": names}]},
        )
    strangers = sorted(set(everyone) - entered)
    if strangers:
        raise Invalid(
            _("Not entered in this competition: %(ids)s.")
            % {"ids": ", ".join(str(s) for s in strangers)},
            fields={"tables": [_("Enter them first.")]},
        )
    allowed = seat_choices(competition)
    for i, t in enumerate(tables, start=1):
        if len(t) not in allowed:
            raise Invalid(
                _("Table %(t)d has %(n)d players; %(game)s is played by %(allowed)s.")
                % {
                    "t": i,
                    "n": len(t),
                    "game": meta(competition.game).label,
                    "allowed": ", ".join(str(a) for a in allowed),
                },
                fields={"tables": {str(i): [_("Wrong number of players.")]}},
            )
    old = {tuple(t["players"]): t.get("match") for t in draw.tables}
    # A table keeps its bracket slot: by its players, else by its place in the list.
    by_place = [t.get("match") for t in draw.tables] if len(draw.tables) == len(tables) else []
    draw.tables = [
        {
            "label": str(i),
            "players": list(t),
            "match": old.get(tuple(t), by_place[i - 1] if by_place else None),
        }
        for i, t in enumerate(tables, start=1)
    ]
    draw.byes = byes
    draw.sitting_out = sitting_out
    draw.engine = (draw.engine.split(" + ")[0] + " + by hand") if draw.engine else "by hand"
    draw.save()
    return check_draw(competition, draw)


@transaction.atomic
def swap_players(*, user: Any, draw: Draw, first: int, second: int) -> list[Warning]:
    """Swap two players' places in a draft (tables, byes or sitting out)."""

    def swap(x: int) -> int:
        return second if x == first else first if x == second else x

    tables = [[swap(p) for p in t["players"]] for t in draw.tables]
    return adjust_draw(
        user=user,
        draw=draw,
        tables=tables,
        byes=[swap(p) for p in draw.byes],
        sitting_out=[swap(p) for p in draw.sitting_out],
    )


@transaction.atomic
def publish_draw(*, user: Any, draw: Draw) -> Draw:
    """Create the round's tables through the core and freeze the draw."""
    draw = Draw.objects.select_for_update().select_related("round__competition").get(pk=draw.pk)
    competition = draw.round.competition
    require_role(user, competition.club, Role.ORGANISER)
    if draw.status != Draw.Status.DRAFT:
        raise Conflict(_("Round %(n)d is already published.") % {"n": draw.round.number})
    number = draw.round.number
    players = Player.objects.in_bulk([p for t in draw.tables for p in t["players"]])
    fs = settings_for(competition)
    created: list[Table] = []
    for t in draw.tables:
        # A table's label is stored: it is written in the site's language, whichever
        # language the organiser who publishes reads, so that every table of the club is
        # named alike.
        with translation.override(settings.LANGUAGE_CODE):
            label = _("R%(r)d · table %(t)s") % {"r": number, "t": t["label"]}
        created.append(
            core.create_table(
                user=user,
                competition=competition,
                label=label,
                players=[players[p] for p in t["players"]],
                round=draw.round,
            )
        )
    points = (
        Decimal(str(swiss_scale(competition, fs)[1]))
        if competition.format in (Format.SWISS, Format.TEAM)
        else Decimal(0)
    )
    for p in draw.byes:
        if competition.format != Format.KNOCKOUT:
            Bye.objects.create(
                competition=competition, round_number=number, player_id=p, points=points
            )
    if competition.format == Format.KNOCKOUT:
        _publish_knockout(competition, draw, created)
    draw.status = Draw.Status.PUBLISHED
    draw.published_at = timezone.now()
    draw.save(update_fields=["status", "published_at"])
    # The round before has ended: its journal is signed once this commits.
    before = (
        Round.objects.filter(competition=competition, number__lt=number)
        .order_by("-number")
        .values_list("pk", flat=True)
        .first()
    )
    if before is not None:
        checkpoints.round_ended(before)
    if draw.round.played_on is None:
        draw.round.played_on = timezone.localdate()
        draw.round.save(update_fields=["played_on"])
    # The players drawn hear of their seats once this commits (ledger/notify).
    events.after_commit(events.ROUND_PUBLISHED, draw=draw.pk)
    return draw


def _publish_knockout(competition: Competition, draw: Draw, created: list[Table]) -> None:
    """One match per bracket slot, so that the winners of slots 2k and 2k+1 meet in the
    next round: the draft's tables carry their slot; byes take the slots left, in order
    (the draft lists them in slot order)."""
    number = draw.round.number
    used = {t["match"] for t in draw.tables if t.get("match") is not None}
    total = len(draw.tables) + len(draw.byes)
    free = iter(s for s in range(total) if s not in used)
    taken: set[int] = set()
    for t, table in zip(draw.tables, created, strict=True):
        slot = t.get("match")
        if slot is None or slot in taken:
            slot = next(free)
        taken.add(slot)
        a, b = t["players"]
        match = KnockoutMatch.objects.create(
            competition=competition, stage=number, slot=slot, first_id=a, second_id=b
        )
        match.tables.add(table)
    for p in draw.byes:
        KnockoutMatch.objects.create(
            competition=competition, stage=number, slot=next(free), first_id=p, winner_id=p
        )


def record_forfeit(*, user: Any, table: Table, forfeited: Sequence[int], reason: str) -> Result:
    """A referee decides a table that was not played, in any format: the seats in
    ``forfeited`` did not come (every seat: a double forfeit). The result goes through the
    ledger's one write path (``clubs.services.record_forfeit``), so the journal, the
    standings and every format read it as it is: a win for who came and a loss for who did
    not, never a game played (no meeting, no side for the Swiss's next pairing).

    In a team event a seat's whole side forfeits with it (its side is the seat's parity). A
    knockout match needs a winner, so a double forfeit is refused there, and so is a forfeit
    once the next round is drawn with the match's players in it."""
    competition = table.competition
    seats = sorted({int(s) for s in forfeited})
    if competition.format == Format.TEAM:
        size = table.seats.count()
        sides = {s % 2 for s in seats}
        seats = [i for i in range(size) if i % 2 in sides]
    if competition.format == Format.KNOCKOUT:
        match = KnockoutMatch.objects.filter(competition=competition, tables=table).first()
        if match is not None:
            if len(seats) >= 2:
                raise Invalid(
                    _(
                        "A knockout match needs a winner: choose the player who did not play. "
                        "If neither came, a referee names who goes through on the bracket."
                    ),
                    fields={"forfeited": [_("Choose one player.")]},
                )
            _refuse_when_next_round_drawn(match)
    return core.record_forfeit(user=user, table=table, forfeited=seats, reason=reason)


def _refuse_when_next_round_drawn(match: KnockoutMatch) -> None:
    later = KnockoutMatch.objects.filter(competition=match.competition, stage=match.stage + 1)
    if later.filter(
        Q(first_id__in=(match.first_id, match.second_id))
        | Q(second_id__in=(match.first_id, match.second_id))
    ).exists():
        raise Conflict(_("The next round is already drawn with this match's winner in it."))


@transaction.atomic
def set_match_winner(
    *, user: Any, match: KnockoutMatch, winner: Player, reason: str = ""
) -> KnockoutMatch:
    """A referee's decision (a tie-break game played off the books, a match left level),
    with its reason kept and shown on the bracket. A forfeit is recorded at the match's
    table instead (``record_forfeit``)."""
    require_role(user, match.competition.club, Role.REFEREE)
    if winner.pk not in (match.first_id, match.second_id):
        raise Invalid(
            _("The winner must be one of the two players of the match."),
            fields={"winner": [_("Choose one of the two players.")]},
        )
    why = (reason or "").strip()
    if len(why) > 500:
        raise Invalid(_("Keep the reason to 500 characters."), fields={"reason": [_("Too long.")]})
    _refuse_when_next_round_drawn(match)
    match.winner = winner
    match.reason = why
    match.save(update_fields=["winner", "reason"])
    return match


# --- reads ----------------------------------------------------------------------------------


def swiss_standings(competition: Competition, as_of: int | None = None) -> list[dict[str, Any]]:
    """The Swiss table: every entrant (or team), byes included, ranked by points on the
    competition's scale, then Buchholz, median Buchholz and Sonneborn-Berger. ``as_of``: after
    that round. The competition page, the tiebreak page and the CSV show these rows."""
    h = history(competition, before_round=None if as_of is None else as_of + 1)
    rounds = as_of or _published_rounds(competition)
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
    published = _published_rounds(competition)
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
    size = _bracket_size(matches)
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


def _bracket_size(matches: Sequence[KnockoutMatch]) -> int:
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
    stages = knockout.rounds_needed(_bracket_size(matches))
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
    published = _published_rounds(competition)
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
    third = third_place_match(matches, knockout.rounds_needed(_bracket_size(matches)))
    return third is None or _match_winner(competition, third) is not None


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


def _beyond_plan(competition: Competition, fs: FormatSettings, number: int) -> None:
    """Refuse to draw past the planned rounds: going on is the organiser's explicit
    extension (``extend_rounds``), never one more press of "draw"."""
    planned = planned_rounds(competition, fs)
    if planned is None or number <= planned:
        return
    if competition.format == Format.KNOCKOUT:
        raise Conflict(_("The knockout is over: its final is the last round."))
    if competition.format == Format.ROUND_ROBIN and int(fs.cycles) == 1:
        raise Conflict(
            _(
                "The round robin is complete after %(n)d rounds. To play the return games, "
                "add the second cycle first."
            )
            % {"n": planned}
        )
    if competition.format == Format.ROUND_ROBIN:
        raise Conflict(_("The round robin is complete after %(n)d rounds.") % {"n": planned})
    raise Conflict(
        _(
            "All %(n)d planned rounds are drawn: the competition ends there. To go on, add "
            "rounds first."
        )
        % {"n": planned}
    )


@transaction.atomic
def extend_rounds(*, user: Any, competition: Competition, rounds: int = 1) -> Progress:
    """The organiser goes on past the plan: ``rounds`` more Swiss, team or league rounds,
    or a round robin's return cycle. A knockout ends with its final."""
    require_role(user, competition.club, Role.ORGANISER)
    fs = FormatSettings.objects.select_for_update().get(pk=settings_for(competition).pk)
    if competition.format == Format.KNOCKOUT:
        raise Conflict(_("A knockout ends with its final: it has no rounds to add."))
    if competition.format == Format.ROUND_ROBIN:
        if int(fs.cycles) != 1:
            raise Conflict(_("This round robin already plays both cycles."))
        fs.cycles = 2
    else:
        if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= 20:
            raise Invalid(
                _("Add from 1 to 20 rounds."), fields={"rounds": [_("Give a number from 1 to 20.")]}
            )
        if not fs.rounds:
            raise Conflict(
                _("This competition has no planned number of rounds: every round can be drawn.")
            )
        fs.rounds = int(fs.rounds) + rounds
    fs.save(update_fields=["rounds", "cycles"])
    return progress(competition)
