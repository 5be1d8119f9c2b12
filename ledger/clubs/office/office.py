"""The club's back office, for its organisers: members added, their roles, and logins by
invitation. Every write here is one transaction; the pages only call these. The
competitions' own office (made, changed, players enrolled) is ledger/formats/office.py,
which builds on this one."""

from __future__ import annotations

import re
import secrets
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ledger.clubs import people
from ledger.clubs.errors import Conflict, Invalid
from ledger.clubs.models import (
    Club,
    Invitation,
    Membership,
    Player,
    Role,
    token_digest,
)
from ledger.clubs.office.roles import require_role

INVITATION_DAYS = 14


def new_member(club: Club, name: str, role: str = Role.MEMBER) -> Player:
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
    return new_member(club, clean, role)


@transaction.atomic
def add_existing_member(
    *, user: Any, club: Club, player: Player, role: str = Role.MEMBER
) -> Player:
    """A person who already plays (in another club, say) becomes a member here too: the
    same player, no new one (the "did you mean" of the members' page)."""
    require_role(user, club, Role.ORGANISER)
    if role not in Role.values:
        raise Invalid(_("Choose a role."), fields={"role": [_("Choose a role.")]})
    person = Player.objects.get(pk=people.canonical(player.pk))
    _membership, made = Membership.objects.get_or_create(
        club=club, player=person, defaults={"role": role}
    )
    if not made:
        message = _("%(name)s is already a member.") % {"name": person.name}
        raise Invalid(message, fields={"name": [message]})
    return person


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
