"""The club's back office, for its organisers: competitions made and changed, players
enrolled by picking members or by pasting names, members added, their roles, and logins
by invitation. Every write here is one transaction; the pages only call these."""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from ledger.clubs.errors import Conflict, Invalid
from ledger.clubs.games import engine_available, meta, presets
from ledger.clubs.models import (
    Club,
    Competition,
    Invitation,
    Membership,
    Player,
    Role,
    token_digest,
)
from ledger.clubs.outcomes import SettingsError, clean_settings
from ledger.clubs.scoring import check_ruleset
from ledger.clubs.services import require_role

INVITATION_DAYS = 14
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


# Addresses under /c/<club>/ that are pages of the club, never a competition's short name.
RESERVED = {"office", "members", "tokens", "import", "export", "p", "competitions"}


def _unique_slug(club: Club, name: str, exclude: int | None = None) -> str:
    base = (slugify(name) or "gara")[:44]
    if base in RESERVED:
        base += "-1"
    taken = set(
        Competition.objects.filter(club=club, slug__startswith=base)
        .exclude(pk=exclude)
        .values_list("slug", flat=True)
    )
    slug, n = base, 2
    while slug in taken:
        slug, n = f"{base}-{n}", n + 1
    return slug


def _check(club: Club, data: CompetitionData) -> dict[str, Any]:
    """The ruleset spec, or Invalid naming the field to fix."""
    name = data.name.strip()
    if not name:
        raise Invalid(_("Give the competition a name."), fields={"name": [_("Required.")]})
    if data.game not in dict(Competition._meta.get_field("game").choices or []):
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
    return {"ruleset": ruleset, "points": points}


def _format_settings(user: Any, competition: Competition, data: CompetitionData) -> None:
    from ledger.formats import services as formats

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
        if name and name.casefold() not in seen:
            seen.add(name.casefold())
            out.append(name)
    return out


@dataclass
class Matched:
    known: list[Player]
    new: list[str]


def match_names(club: Club, names: list[str]) -> Matched:
    """The club's members with these names (letter case aside), and the names that are not."""
    if len(names) > MAX_PASTED:
        raise Invalid(
            _("Paste at most %(n)d names at a time.") % {"n": MAX_PASTED},
            fields={"names": [_("Too many names.")]},
        )
    members: dict[str, Player] = {}
    for player in Player.objects.filter(memberships__club=club, automated=False).order_by("id"):
        members.setdefault(player.name.casefold(), player)
    known = [members[n.casefold()] for n in names if n.casefold() in members]
    new = [n for n in names if n.casefold() not in members]
    return Matched(known, new)


@transaction.atomic
def enrol(
    *, user: Any, competition: Competition, players: list[Player], new_names: list[str] = ()
) -> list[Any]:
    """Enter these members, and first make players and members of the new names. All or
    nothing: one refused entry leaves everything as it was."""
    from ledger.formats import services as formats

    require_role(user, competition.club, Role.ORGANISER)
    chosen = list(players)
    for name in new_names:
        chosen.append(_new_member(competition.club, name))
    entered = []
    for player in chosen:
        entered.append(formats.enter_player(user=user, competition=competition, player=player))
    return entered


def _new_member(club: Club, name: str, role: str = Role.MEMBER) -> Player:
    name = " ".join(name.split())
    if not name:
        raise Invalid(_("Give the person's name."), fields={"name": [_("Required.")]})
    player = Player.objects.create(name=name[:120])
    Membership.objects.create(club=club, player=player, role=role)
    return player


# --- members ---------------------------------------------------------------------------


@transaction.atomic
def add_member(*, user: Any, club: Club, name: str, role: str = Role.MEMBER) -> Player:
    require_role(user, club, Role.ORGANISER)
    if role not in Role.values:
        raise Invalid(_("Choose a role."), fields={"role": [_("Choose a role.")]})
    clean = " ".join(name.split())
    if clean and Player.objects.filter(memberships__club=club, name__iexact=clean).exists():
        message = _("%(name)s is already a member.") % {"name": clean}
        raise Invalid(message, fields={"name": [message]})
    return _new_member(club, clean, role)


@transaction.atomic
def set_role(*, user: Any, club: Club, membership_id: int, role: str) -> Membership:
    require_role(user, club, Role.ORGANISER)
    if role not in Role.values:
        raise Invalid(_("Choose a role."), fields={"role": [_("Choose a role.")]})
    # Locked in one order so that two organisers demoting each other cannot both pass.
    rows = list(Membership.objects.select_for_update().filter(club=club).order_by("id"))
    found = next((m for m in rows if m.pk == membership_id), None)
    if found is None:
        raise Invalid(_("Choose a member of the club."), fields={"role": ["?"]})
    organisers = [m for m in rows if m.role == Role.ORGANISER]
    if found.role == Role.ORGANISER and role != Role.ORGANISER and len(organisers) == 1:
        message = _("The club needs an organiser: name another one first.")
        raise Conflict(message, fields={"role": [message]})
    found.role = role
    found.save(update_fields=["role"])
    return found


@transaction.atomic
def invite(
    *, user: Any, club: Club, player: Player | None = None, name: str = "", role: str = Role.MEMBER
) -> tuple[Invitation, str]:
    """An invitation and its key (the only moment the key exists: only its digest is kept)."""
    require_role(user, club, Role.ORGANISER)
    if player is not None:
        membership = Membership.objects.filter(club=club, player=player).first()
        if membership is None:
            raise Invalid(_("Choose a member of the club."), fields={"player": ["?"]})
        if player.user_id is not None:
            message = _("%(name)s can already log in.") % {"name": player.name}
            raise Conflict(message, fields={"player": [message]})
        name, role = player.name, membership.role
    name = " ".join(name.split())
    if not name:
        raise Invalid(_("Give the person's name."), fields={"name": [_("Required.")]})
    if role not in Role.values:
        raise Invalid(_("Choose a role."), fields={"role": [_("Choose a role.")]})
    key = secrets.token_urlsafe(24)
    invitation = Invitation.objects.create(
        club=club,
        player=player,
        name=name[:120],
        role=role,
        digest=token_digest(key),
        created_by=user,
        expires_at=timezone.now() + timedelta(days=INVITATION_DAYS),
    )
    return invitation, key


def find_invitation(key: str) -> Invitation | None:
    found = (
        Invitation.objects.select_related("club", "player").filter(digest=token_digest(key)).first()
    )
    return found if found is not None and found.open else None


@transaction.atomic
def accept_invitation(*, key: str, user: Any = None, username: str = "", password: str = "") -> Any:
    """Accept: a visitor chooses a login name and a password; a person already logged in
    joins the club with their own player. Returns the login."""
    invitation = (
        Invitation.objects.select_for_update(of=("self",))
        .select_related("club", "player")
        .filter(digest=token_digest(key))
        .first()
    )
    if invitation is None or not invitation.open:
        raise Conflict(_("This invitation has been used or has expired: ask for a new one."))
    club = invitation.club
    if user is not None and getattr(user, "is_authenticated", False):
        player = Player.objects.filter(user=user).first()
        if invitation.player is not None and player is not None and player != invitation.player:
            raise Conflict(
                _("This invitation is for %(name)s: log out to accept it.")
                % {"name": invitation.name}
            )
        if player is None:
            player = invitation.player or Player.objects.create(name=invitation.name)
            player.user = user
            player.save(update_fields=["user"])
        login = user
    else:
        login = _new_login(username, password, invitation)
        player = invitation.player or Player.objects.create(name=invitation.name)
        player.user = login
        player.save(update_fields=["user"])
    Membership.objects.get_or_create(club=club, player=player, defaults={"role": invitation.role})
    invitation.accepted_at = timezone.now()
    invitation.accepted_by = login
    invitation.save(update_fields=["accepted_at", "accepted_by"])
    return login


def _new_login(username: str, password: str, invitation: Invitation) -> Any:
    users = get_user_model()
    username = username.strip()
    if not username or not re.fullmatch(r"[\w.@+-]{1,150}", username):
        message = _("Letters, digits and . @ + - _ only, no spaces.")
        raise Invalid(message, fields={"username": [message]})
    if users.objects.filter(username__iexact=username).exists():
        message = _("This login name is taken: choose another.")
        raise Invalid(message, fields={"username": [message]})
    candidate = users(username=username, first_name=invitation.name[:150])
    try:
        validate_password(password, candidate)
    except ValidationError as exc:
        raise Invalid(" ".join(exc.messages), fields={"password": list(exc.messages)}) from exc
    candidate.set_password(password)
    try:
        with transaction.atomic():
            candidate.save()
    except IntegrityError:
        message = _("This login name is taken: choose another.")
        raise Invalid(message, fields={"username": [message]}) from None
    return candidate
