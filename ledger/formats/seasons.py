"""A club's season and its championship table.

A season groups a club's competitions of one game: its nights. The organiser declares how
its table is made (``Championship``): each night gives a player points for the place they
finished in (10-8-6-5-4-3-2-1, say; players sharing a place both take its points) or the
night's own points; the best N nights count (or all); a player is ranked once they have
played the minimum of nights; ties are broken by the tie-breaks in order; the top N qualify
for a final.

The table is read, never stored: each night's confirmed standings as its format ranks them
(``selectors.standings_for``: a result awaiting confirmation counts nowhere, a correction or
a void in any night moves the table at the next read), added up here. "As of" a night
reads the nights up to it; the movement column compares with the table after the night
before.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from django.db import transaction
from django.db.models import Min
from django.utils.translation import gettext as _

from ledger.clubs.errors import Invalid
from ledger.clubs.models import Club, Competition, Role, Season
from ledger.clubs.office.roles import require_role
from ledger.formats.models import Championship
from ledger.formats.selectors import standings_for

MAX_PLACES = 64
MAX_TIEBREAKS = 3


@dataclass(frozen=True)
class Night:
    """One competition of the season, in the season's order (by its first day)."""

    number: int
    competition: Competition
    day: datetime.date | None


@dataclass
class SeasonRow:
    """A player's line in the season's table."""

    rank: int | None  # None: not yet ranked (fewer nights than the minimum)
    player_id: int
    name: str
    total: Decimal  # the points of the nights counted
    nights: int  # nights played
    # Per night of the table: the points it gave (None: not played) and whether it counts.
    scores: list[Decimal | None] = field(default_factory=list)
    counted: list[bool] = field(default_factory=list)
    places: list[int | None] = field(default_factory=list)
    all_points: Decimal = Decimal(0)
    movement: int | None = None
    qualified: bool = False
    missing: int = 0  # nights still needed to be ranked

    def nightly(self) -> list[tuple[Decimal | None, bool]]:
        """Each night's points and whether they count, in the nights' order."""
        return list(zip(self.scores, self.counted, strict=True))


@dataclass
class SeasonTable:
    season: Season
    championship: Championship
    nights: list[Night]  # every night of the season
    as_of: int | None  # the night the table is as of (None: every night so far)
    shown: list[Night]  # the nights the table counts
    rows: list[SeasonRow]


def championship_of(season: Season) -> Championship:
    """The season's championship rules, the defaults when the organiser set none."""
    found = Championship.objects.filter(season=season).first()
    if found is not None:
        return found
    game = (
        Competition.objects.filter(season=season)
        .order_by("created_at")
        .values_list("game", flat=True)
    ).first() or ""
    return Championship(season=season, game=game, place_points=list(DEFAULT_PLACES))


DEFAULT_PLACES = ("10", "8", "6", "5", "4", "3", "2", "1")


def nights(season: Season, championship: Championship | None = None) -> list[Night]:
    """The season's competitions of its game, by their first day (the first round's date,
    else the day the competition was made), then as they were made."""
    championship = championship or championship_of(season)
    found = list(
        Competition.objects.filter(season=season, game=championship.game)
        .select_related("club", "season")
        .annotate(first_day=Min("rounds__played_on"))
    )

    def day(c: Any) -> datetime.date:
        first: datetime.date | None = c.first_day
        return first or c.created_at.date()

    found.sort(key=lambda c: (day(c), c.created_at, c.pk))
    return [Night(n, c, day(c)) for n, c in enumerate(found, start=1)]


def _points(row: dict[str, Any]) -> Decimal:
    value = row.get("points", row.get("score", 0))
    try:
        return Decimal(str(value))
    except InvalidOperation:
        return Decimal(0)


def night_results(competition: Competition) -> list[tuple[int, str, int, Decimal]]:
    """A night's confirmed standings: (player, name, place, points) per player who played
    in it (a night whose only result was voided leaves rows of nothing: nobody played it)."""
    return [
        (int(r["player"]), str(r["name"]), int(r["place"]), _points(r))
        for r in standings_for(competition)
        if r.get("played", 1)
    ]


def _score(championship: Championship, place: int, points: Decimal) -> Decimal:
    if championship.scoring == Championship.Scoring.POINTS:
        return points
    table = championship.place_points or []
    return Decimal(str(table[place - 1])) if 1 <= place <= len(table) else Decimal(0)


def season_table(season: Season, as_of: int | None = None) -> SeasonTable:
    """The season's championship table after night ``as_of`` (None: all the nights so far),
    with each player's movement since the table after the night before."""
    championship = championship_of(season)
    every = nights(season, championship)
    upto = len(every) if as_of is None else as_of
    if not (as_of is None or 1 <= upto <= len(every)):
        raise Invalid(_("The season has no such night."))
    shown = every[:upto]
    results = [night_results(n.competition) for n in shown]
    rows = _table(championship, results)
    if upto > 1:
        before = {r.player_id: r.rank for r in _table(championship, results[:-1])}
        for row in rows:
            then = before.get(row.player_id)
            if row.rank is not None and then is not None:
                row.movement = then - row.rank
    return SeasonTable(season, championship, every, as_of, shown, rows)


def _table(
    championship: Championship, results: Sequence[list[tuple[int, str, int, Decimal]]]
) -> list[SeasonRow]:
    count = len(results)
    rows: dict[int, SeasonRow] = {}
    for n, night in enumerate(results):
        for player_id, name, place, points in night:
            row = rows.get(player_id)
            if row is None:
                row = rows[player_id] = SeasonRow(
                    None,
                    player_id,
                    name,
                    Decimal(0),
                    0,
                    [None] * count,
                    [False] * count,
                    [None] * count,
                )
            row.scores[n] = _score(championship, place, points)
            row.places[n] = place
            row.nights += 1
    best = championship.best_of
    minimum = championship.min_nights or 0
    for row in rows.values():
        played = sorted(
            ((s, -n) for n, s in enumerate(row.scores) if s is not None), reverse=True
        )  # the better score first; of two equal, the earlier night counts
        kept = played if not best else played[:best]
        for _score_value, minus_n in kept:
            row.counted[-minus_n] = True
        row.total = sum((s for s, _n in kept), Decimal(0))
        row.all_points = sum((s for s, _n in played), Decimal(0))
        row.missing = max(0, minimum - row.nights)
    ranked = [r for r in rows.values() if not r.missing]
    waiting = [r for r in rows.values() if r.missing]
    keyed = sorted(((_key(championship, r), r.name, r) for r in ranked), key=lambda k: (k[0], k[1]))
    previous: tuple[Any, ...] | None = None
    out: list[SeasonRow] = []
    for i, (key, _name, row) in enumerate(keyed):
        rank = out[-1].rank or 1 if key == previous else i + 1
        row.rank, previous = rank, key
        row.qualified = bool(championship.qualifiers) and rank <= (championship.qualifiers or 0)
        out.append(row)
    waiting.sort(key=lambda r: (r.missing, -r.total, r.name))
    return out + waiting


def _key(championship: Championship, row: SeasonRow) -> tuple[Any, ...]:
    """The sort key of a ranked row: the total, then each tie-break, all smaller-first."""
    key: list[Any] = [-row.total]
    for name in championship.tiebreaks or []:
        if name == Championship.Tiebreak.PLACES:
            # More firsts, then more seconds... (a fixed length: a shorter tuple would rank
            # one with fewer places above one with the same and a few more).
            places = [p for p in row.places if p is not None]
            key.append(tuple(-places.count(k) for k in range(1, MAX_PLACES + 1)))
        elif name == Championship.Tiebreak.BEST:
            counted = [
                s for s, c in zip(row.scores, row.counted, strict=True) if c and s is not None
            ]
            key.append(tuple(-s for s in sorted(counted, reverse=True)))
        elif name == Championship.Tiebreak.NIGHTS:
            key.append(-row.nights)
        elif name == Championship.Tiebreak.TOTAL:
            key.append(-row.all_points)
        elif name == Championship.Tiebreak.LAST:
            last = row.scores[-1] if row.scores else None
            key.append(-(last if last is not None else Decimal(-(10**12))))
    return tuple(key)


# --- the organiser's writes ----------------------------------------------------------------


@dataclass
class SeasonData:
    """What the season's form gives, in plain values (text as typed where it is parsed)."""

    name: str
    starts_on: datetime.date
    ends_on: datetime.date
    game: str
    scoring: str = Championship.Scoring.PLACES
    place_points: str = "-".join(DEFAULT_PLACES)
    best_of: int | None = None
    min_nights: int = 1
    tiebreaks: list[str] = field(default_factory=list)
    qualifiers: int | None = None
    nights: list[int] = field(default_factory=list)  # the competitions in the season


def parse_place_points(text: str) -> list[str]:
    """Points per place as typed ("10-8-6-5-4-3-2-1", or with spaces, commas or
    semicolons between), as decimal texts; Invalid at the field otherwise."""
    parts = [p for p in text.replace(",", " ").replace(";", " ").replace("-", " ").split() if p]
    if not parts:
        raise Invalid(
            _("Give the points of each place, best first, such as 10-8-6-5-4-3-2-1."),
            fields={"place_points": [_("Give at least the points of the first place.")]},
        )
    if len(parts) > MAX_PLACES:
        raise Invalid(
            _("At most %(n)d places score points.") % {"n": MAX_PLACES},
            fields={"place_points": [_("At most %(n)d places.") % {"n": MAX_PLACES}]},
        )
    out = []
    for part in parts:
        try:
            value = Decimal(part.replace(",", "."))
        except InvalidOperation:
            value = Decimal(-1)
        if not value.is_finite() or value < 0 or value != value.quantize(Decimal("0.01")):
            raise Invalid(
                _("“%(value)s” is not a number of points.") % {"value": part},
                fields={
                    "place_points": [
                        _("“%(value)s” is not a number of points: write numbers such as 10 or 7.5.")
                        % {"value": part}
                    ]
                },
            )
        out.append(f"{value.normalize():f}")
    return out


@transaction.atomic
def save_season(*, user: Any, club: Club, data: SeasonData, season: Season | None = None) -> Season:
    """Make a season (or change one) with its championship's rules and its nights: the
    competitions of the club chosen, all of the season's game."""
    require_role(user, club, Role.ORGANISER)
    name = data.name.strip()
    if not name:
        raise Invalid(_("Give the season a name."), fields={"name": [_("A name is needed.")]})
    if data.ends_on < data.starts_on:
        raise Invalid(
            _("A season cannot end before it starts."),
            fields={"ends_on": [_("A season cannot end before it starts.")]},
        )
    clash = Season.objects.filter(club=club, name=name)
    if season is not None:
        clash = clash.exclude(pk=season.pk)
    if clash.exists():
        raise Invalid(
            _("The club already has a season called %(name)s.") % {"name": name},
            fields={"name": [_("Another season has this name.")]},
        )
    if not data.game:
        raise Invalid(_("Choose the season's game."), fields={"game": [_("Choose a game.")]})
    if data.scoring not in Championship.Scoring.values:
        raise Invalid(_("Choose how a night scores."), fields={"scoring": [_("Choose one.")]})
    places = data.scoring == Championship.Scoring.PLACES
    points = parse_place_points(data.place_points) if places or data.place_points.strip() else []
    tiebreaks = [t for t in data.tiebreaks if t]
    if any(t not in Championship.Tiebreak.values for t in tiebreaks) or len(set(tiebreaks)) != len(
        tiebreaks
    ):
        raise Invalid(
            _("Each tie-break can be chosen once."),
            fields={"tiebreaks": [_("Each tie-break can be chosen once.")]},
        )
    chosen = list(Competition.objects.filter(club=club, pk__in=data.nights))
    other = [c for c in chosen if c.game != data.game]
    if other:
        raise Invalid(
            _("A season's nights are all of its game: %(names)s is of another game.")
            % {"names": ", ".join(c.name for c in other)},
            fields={"nights": [_("Only competitions of the season's game.")]},
        )
    if data.best_of is not None and data.best_of < 1:
        raise Invalid(
            _("Count at least one night, or leave it empty to count them all."),
            fields={"best_of": [_("At least 1, or empty.")]},
        )
    if season is None:
        season = Season.objects.create(
            club=club, name=name, starts_on=data.starts_on, ends_on=data.ends_on
        )
    else:
        season.name, season.starts_on, season.ends_on = name, data.starts_on, data.ends_on
        season.save(update_fields=["name", "starts_on", "ends_on"])
    Championship.objects.update_or_create(
        season=season,
        defaults={
            "game": data.game,
            "scoring": data.scoring,
            "place_points": points,
            "best_of": data.best_of,
            "min_nights": max(0, data.min_nights),
            "tiebreaks": tiebreaks,
            "qualifiers": data.qualifiers or None,
        },
    )
    Competition.objects.filter(season=season).exclude(pk__in=[c.pk for c in chosen]).update(
        season=None
    )
    Competition.objects.filter(pk__in=[c.pk for c in chosen]).update(season=season)
    return season
