"""The competitions' back office, for a club's organisers: a competition made and changed
(its game, ruleset, points and format settings), and players enrolled by picking members or
by pasting names. Every write here is one transaction; the pages only call these. The
club's members, roles and invitations are ledger/clubs/office/office.py."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from ledger.clubs.errors import Conflict, Invalid
from ledger.clubs.games import engine_available, meta, presets
from ledger.clubs.models import Club, Competition, Membership, Player, Role, Season
from ledger.clubs.office.office import new_member
from ledger.clubs.office.roles import require_role
from ledger.clubs.outcomes import SettingsError, clean_settings
from ledger.clubs.scoring import check_ruleset
from ledger.formats import services as formats
from ledger.formats.models import Championship
from ledger.formats.names import close_matches, name_key

MAX_PASTED = 400


@dataclass
class CompetitionData:
    """What the competition form gives: everything an organiser chooses, in plain values."""

    name: str
    game: str
    preset: str = ""
    format: str = Competition.Format.LEAGUE
    confirmation: str = Competition.Confirmation.NONE
    seats_per_table: int = 0
    hands_per_table: int = 1
    rounds: int = 0
    points: dict[str, str] = field(default_factory=dict)
    # Whether the people's results at digital tables with bots count (never the bots').
    bot_tables_count: bool = False
    # The club's season the competition counts in (its id), or None.
    season: int | None = None


# Addresses under /c/<club>/ that are pages of the club, never a competition's short name.
RESERVED = {"office", "members", "tokens", "import", "export", "p", "competitions", "seasons"}


def _unique_slug(club: Club, name: str, exclude: int | None = None) -> str:
    base = (slugify(name) or "gara")[:44]
    if base in RESERVED:
        base += "-1"
    same_start = Competition.objects.filter(club=club, slug__startswith=base)
    if exclude is not None:
        same_start = same_start.exclude(pk=exclude)
    taken = set(same_start.values_list("slug", flat=True))
    slug, n = base, 2
    while slug in taken:
        slug, n = f"{base}-{n}", n + 1
    return slug


def _check(club: Club, data: CompetitionData) -> dict[str, Any]:
    """The ruleset spec, or Invalid naming the field to fix."""
    name = data.name.strip()
    if not name:
        raise Invalid(_("Give the competition a name."), fields={"name": [_("Required.")]})
    if not engine_available(data.game):
        raise Invalid(_("Choose a game."), fields={"game": [_("Choose a game.")]})
    if data.format not in Competition.Format.values:
        raise Invalid(_("Choose a format."), fields={"format": [_("Choose a format.")]})
    if data.confirmation not in Competition.Confirmation.values:
        raise Invalid(_("Choose how results are confirmed."), fields={"confirmation": ["?"]})
    ruleset: dict[str, Any] = {}
    if engine_available(data.game):
        known = {p.name: p for p in presets(data.game)}
        if data.preset not in known:
            raise Invalid(
                _("Choose one of the rulesets of %(game)s.") % {"game": meta(data.game).label},
                fields={"preset": [_("Choose one of the rulesets of this game.")]},
            )
        ruleset = {"name": data.preset}
        problem = check_ruleset(data.game, ruleset)
        if problem:
            raise Invalid(problem, fields={"preset": [problem]})
        seats = known[data.preset].seats
        if data.seats_per_table and data.seats_per_table != seats and data.format != "team":
            message = _("This ruleset is for tables of %(n)d.") % {"n": seats}
            raise Invalid(message, fields={"seats_per_table": [message]})
    try:
        points = clean_settings({k: v for k, v in data.points.items() if str(v).strip() != ""})
    except SettingsError as exc:
        raise Invalid(str(exc), fields={exc.field: [str(exc)]}) from exc
    season = None
    if data.season:
        season = Season.objects.filter(club=club, pk=data.season).first()
        if season is None:
            raise Invalid(_("Choose one of the club's seasons."), fields={"season": ["?"]})
        game = Championship.objects.filter(season=season).values_list("game", flat=True).first()
        if game and game != data.game:
            message = _("The season %(name)s is of another game.") % {"name": season.name}
            raise Invalid(message, fields={"season": [message]})
    return {"ruleset": ruleset, "points": points, "season": season}


def _format_settings(user: Any, competition: Competition, data: CompetitionData) -> None:
    values: dict[str, Any] = {
        "seats_per_table": data.seats_per_table,
        "hands_per_table": data.hands_per_table,
    }
    if data.format in (Competition.Format.SWISS, Competition.Format.TEAM):
        values["rounds"] = data.rounds
    formats.update_settings(user=user, competition=competition, **values)


@transaction.atomic
def create_competition(*, user: Any, club: Club, data: CompetitionData) -> Competition:
    require_role(user, club, Role.ORGANISER)
    checked = _check(club, data)
    competition = Competition.objects.create(
        club=club,
        name=data.name.strip(),
        slug=_unique_slug(club, data.name),
        game=data.game,
        ruleset=checked["ruleset"],
        format=data.format,
        confirmation=data.confirmation,
        standings_settings=checked["points"],
        bot_tables_count=data.bot_tables_count,
        season=checked["season"],
    )
    _format_settings(user, competition, data)
    return competition


def _started(competition: Competition) -> bool:
    return competition.tables.exists() or competition.rounds.exists()


@transaction.atomic
def update_competition(
    *, user: Any, competition: Competition, data: CompetitionData
) -> Competition:
    competition = Competition.objects.select_for_update().get(pk=competition.pk)
    require_role(user, competition.club, Role.ORGANISER)
    checked = _check(competition.club, data)
    if _started(competition):
        # Tables already drawn and scored under these: changing them would rewrite history.
        for name, new in (
            ("game", data.game),
            ("format", data.format),
            ("ruleset", checked["ruleset"]),
        ):
            if getattr(competition, name) != new:
                message = _("Play has started: the game, the ruleset and the format stay.")
                raise Conflict(message, fields={"preset" if name == "ruleset" else name: [message]})
    competition.name = data.name.strip()
    competition.game = data.game
    competition.ruleset = checked["ruleset"]
    competition.format = data.format
    competition.confirmation = data.confirmation
    competition.bot_tables_count = data.bot_tables_count
    competition.season = checked["season"]
    # The ranking order is set on its own page; this form sets the points only.
    kept = {k: v for k, v in competition.standings_settings.items() if k == "order"}
    competition.standings_settings = {**kept, **checked["points"]}
    competition.save()
    _format_settings(user, competition, data)
    return competition


# --- enrolment -------------------------------------------------------------------------


def pasted_names(text: str) -> list[str]:
    """One name a line; blank lines, list numbers and repeats dropped, spaces tidied."""
    out: list[str] = []
    seen: set[str] = set()
    for line in text.splitlines():
        name = re.sub(r"^\s*(\d+[.)]|[-*•])\s*", "", line)
        name = " ".join(name.split())[:120]
        key = name_key(name) or name.casefold()
        if name and key not in seen:
            seen.add(key)
            out.append(name)
    return out


@dataclass(frozen=True)
class Suggestion:
    """A person a typed name may mean: a member of the club, or a person of another club
    of its federations (``where``: those clubs' names)."""

    player: Player
    where: str = ""

    @property
    def label(self) -> str:
        return f"{self.player.name} ({self.where})" if self.where else self.player.name


@dataclass
class Matched:
    known: list[Player]
    new: list[str]
    # Each new name with the members' names close to it: the "did you mean" to ask.
    asked: list[tuple[str, list[str]]] = field(default_factory=list)
    # Each new name with the people it may mean, here or in the federation's other clubs
    # (the same name first): "did you mean" as choices.
    offered: list[tuple[str, list[Suggestion]]] = field(default_factory=list)


def match_names(club: Club, names: list[str], elsewhere: Sequence[Suggestion] = ()) -> Matched:
    """The club's members with these names (letter case, accents, apostrophes and the order
    of the words aside: ledger/formats/names.py), and the names that are not, each with the
    people it may mean: members with a close name, and ``elsewhere`` (the people of the other
    clubs of the club's federations) with the same or a close name."""
    if len(names) > MAX_PASTED:
        raise Invalid(
            _("Paste at most %(n)d names at a time.") % {"n": MAX_PASTED},
            fields={"names": [_("Too many names.")]},
        )
    members: dict[str, Player] = {}
    for player in Player.objects.filter(memberships__club=club, automated=False).order_by("id"):
        members.setdefault(name_key(player.name), player)
    known = [members[name_key(n)] for n in names if name_key(n) in members]
    new = [n for n in names if name_key(n) not in members]
    everyone = [(p.name, p.name) for p in members.values()]
    close_here = [(p.name, Suggestion(p)) for p in members.values()]
    others = [(s.player.name, s) for s in elsewhere]
    offered = []
    for n in new:
        same = [s for other, s in others if name_key(other) == name_key(n)]
        near = close_matches(n, close_here) + close_matches(n, others)
        offered.append((n, same + [s for s in near if s not in same]))
    return Matched(known, new, [(n, close_matches(n, everyone)) for n in new], offered)


@transaction.atomic
def enrol(
    *,
    user: Any,
    competition: Competition,
    players: list[Player],
    new_names: Sequence[str] = (),
    joining: Sequence[Player] = (),
) -> list[Any]:
    """Enter these members, and first make players and members of the new names, and
    members of the club of ``joining`` (people of another club a "did you mean" chose). All
    or nothing: one refused entry leaves everything as it was."""
    require_role(user, competition.club, Role.ORGANISER)
    chosen = list(players)
    for player in joining:
        Membership.objects.get_or_create(club=competition.club, player=player)
        if player not in chosen:
            chosen.append(player)
    for name in new_names:
        chosen.append(new_member(competition.club, name))
    entered = []
    for player in chosen:
        entered.append(formats.enter_player(user=user, competition=competition, player=player))
    return entered
