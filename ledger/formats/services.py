"""Writes of competition formats (the services, as HackSoft's Django styleguide has them):
draws made, checked, adjusted and published, players entered and withdrawn, forfeits, rounds
added. Each is atomic and checks roles; tables are created only through
clubs.results.services.create_table when a draw is published. What the pages read is in
ledger/formats/selectors.py, which this module imports and which never imports it.

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
from ledger.clubs.models import Competition, Player, Result, Role, Round, Table
from ledger.clubs.office.roles import require_role
from ledger.clubs.results import services as core
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
from ledger.formats.pairing import groups, knockout, rotation, swiss, tiebreaks
from ledger.formats.pairing.swiss import EXACT_MAX, key
from ledger.formats.selectors import (
    History,
    Progress,
    bracket_size,
    hands_and_forfeits,
    history,
    match_winner,
    planned_rounds,
    progress,
    published_rounds,
    scaled_games,
    settings_for,
    swiss_scale,
    table_size,
)

Format = Competition.Format


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
    if seats and seats not in table_sizes(competition) and competition.format != (Format.TEAM):
        allowed = ", ".join(str(n) for n in table_sizes(competition))
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
    done = published_rounds(competition)
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
        found.withdrawn_after = published_rounds(competition)
        found.save(update_fields=["withdrawn_after"])
    return found


@transaction.atomic
def mark_absent(
    *, user: Any, competition: Competition, round_number: int, player: Player, absent: bool = True
) -> None:
    """A no-show or an announced absence for one round not yet published."""
    require_role(user, competition.club, Role.ORGANISER)
    if round_number <= published_rounds(competition):
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
    if len(members) * 2 not in table_sizes(competition):
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
        if len(entrants) < min(table_sizes(competition)):
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
        allowed=table_sizes(competition),
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
            allowed=table_sizes(competition),
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
        undecided = [m for m in previous if match_winner(competition, m) is None]
        if undecided:
            raise Conflict(
                _(
                    "%(n)d matches of the previous round have no winner yet: their results are "
                    "missing, or they ended level. A referee names the winner of a level or "
                    "forfeited match on the bracket page."
                )
                % {"n": len(undecided)}
            )
        if number - 1 >= knockout.rounds_needed(bracket_size(list(matches))):
            raise Conflict(_("The knockout is over."))
        if len(previous) <= 1:
            raise Conflict(_("The knockout is over."))
        winners = [match_winner(competition, m) for m in previous]
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


def _knockout_still_in(competition: Competition, number: int) -> set[int] | None:
    """Knockout: the players who play round ``number`` (the winners of the round before);
    None for other formats and for the first round, where every entrant plays."""
    if competition.format != Format.KNOCKOUT or number == 1:
        return None
    previous = KnockoutMatch.objects.filter(competition=competition, stage=number - 1)
    return {w for m in previous if (w := match_winner(competition, m)) is not None}


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
    allowed = table_sizes(competition)
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
    ledger's one write path (``clubs.results.services.record_forfeit``), so the journal, the
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
