"""The federation's writes, each atomic: a federation founded (its founder its first
officer), officers added, clubs applying and approved or refused, tiers, card seasons, and
competitions sanctioned at a tier."""

from __future__ import annotations

from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from ledger.clubs.errors import Conflict, Invalid
from ledger.clubs.models import Club, Competition, Role
from ledger.clubs.office.roles import require_role
from ledger.federation import listening
from ledger.federation.models import (
    CardSeason,
    Federation,
    MemberClub,
    Officer,
    RankingRules,
    RankingState,
    Sanction,
    Tier,
)
from ledger.federation.roles import require_officer
from ledger.formats.seasons import parse_place_points
from ledger.hub import services as hub_services


@transaction.atomic
def found(*, user: Any, name: str, region: str = "") -> Federation:
    """A new federation; the person who founds it is its first officer."""
    name = name.strip()
    if not getattr(user, "is_authenticated", False):
        raise Invalid(_("Log in to found a federation."))
    if not name:
        raise Invalid(_("Give the federation a name."), fields={"name": [_("Required.")]})
    slug = slugify(name)[:60] or "federazione"
    if Federation.objects.filter(slug=slug).exists():
        raise Invalid(
            _("A federation named like this exists already."),
            fields={"name": [_("Choose another name.")]},
        )
    federation = Federation.objects.create(name=name[:120], slug=slug, region=region.strip()[:80])
    Officer.objects.create(federation=federation, user=user)
    return federation


@transaction.atomic
def add_officer(*, user: Any, federation: Federation, username: str) -> Officer:
    require_officer(user, federation)
    person = get_user_model().objects.filter(username=username.strip()).first()
    if person is None:
        raise Invalid(
            _("Nobody logs in as “%(u)s”.") % {"u": username.strip()},
            fields={"username": [_("No such login.")]},
        )
    officer, _made = Officer.objects.get_or_create(federation=federation, user=person)
    return officer


@transaction.atomic
def apply(*, user: Any, federation: Federation, club: Club) -> MemberClub:
    """A club's organiser asks for the club to join; an officer decides."""
    require_role(user, club, Role.ORGANISER)
    known = MemberClub.objects.select_for_update().filter(federation=federation, club=club).first()
    if known is not None:
        if known.status == MemberClub.Status.REFUSED:
            known.status = MemberClub.Status.APPLIED
            known.applied_by, known.applied_at = user, timezone.now()
            known.decided_by, known.decided_at = None, None
            known.save()
        return known
    return MemberClub.objects.create(federation=federation, club=club, applied_by=user)


@transaction.atomic
def decide(*, user: Any, membership: MemberClub, approve: bool) -> MemberClub:
    require_officer(user, membership.federation)
    locked = MemberClub.objects.select_for_update().get(pk=membership.pk)
    if locked.status != MemberClub.Status.APPLIED:
        raise Conflict(
            _("%(club)s's application was decided already.") % {"club": locked.club.name}
        )
    locked.status = MemberClub.Status.APPROVED if approve else MemberClub.Status.REFUSED
    locked.decided_by, locked.decided_at = user, timezone.now()
    locked.save(update_fields=["status", "decided_by", "decided_at"])
    if approve:  # its sanctioned results, if it has any, now count
        listening.after_commit_rebuild(locked.federation_id)
    return locked


def _weight(text: str) -> Decimal:
    try:
        weight = Decimal(str(text).strip().replace(",", "."))
    except InvalidOperation:
        weight = Decimal(-1)
    if not weight.is_finite() or weight <= 0 or weight >= 10_000 or weight != round(weight, 2):
        raise Invalid(
            _("A tier's weight is a number above zero, with at most two decimals."),
            fields={"weight": [_("Not a weight: “%(v)s”.") % {"v": text}]},
        )
    return weight


@transaction.atomic
def add_tier(
    *, user: Any, federation: Federation, name: str, weight: str, missing_card: str
) -> Tier:
    require_officer(user, federation)
    name = name.strip()
    if not name:
        raise Invalid(_("Give the tier a name."), fields={"name": [_("Required.")]})
    if missing_card not in Tier.MissingCard.values:
        raise Invalid(
            _("Choose what a player without a card meets."), fields={"missing_card": ["?"]}
        )
    value = _weight(weight)
    try:
        with transaction.atomic():
            return Tier.objects.create(
                federation=federation, name=name[:60], weight=value, missing_card=missing_card
            )
    except IntegrityError as exc:
        raise Invalid(
            _("The federation has a tier with this name already."),
            fields={"name": [_("Choose another name.")]},
        ) from exc


@transaction.atomic
def add_season(
    *, user: Any, federation: Federation, name: str, starts: date | None, ends: date | None
) -> CardSeason:
    require_officer(user, federation)
    name = name.strip()
    problems: dict[str, list[str]] = {}
    if not name:
        problems["name"] = [_("Required.")]
    if starts is None:
        problems["starts"] = [_("A day, as dd/mm/yyyy.")]
    if ends is None:
        problems["ends"] = [_("A day, as dd/mm/yyyy.")]
    if starts and ends and ends < starts:
        problems["ends"] = [_("The season ends before it starts.")]
    if problems:
        raise Invalid(_("The season cannot be made as written."), fields=problems)
    assert starts is not None and ends is not None  # checked just above
    if CardSeason.objects.filter(federation=federation, name=name).exists():
        raise Invalid(
            _("The federation has a season with this name already."),
            fields={"name": [_("Choose another name.")]},
        )
    return CardSeason.objects.create(
        federation=federation, name=name[:60], starts=starts, ends=ends
    )


@transaction.atomic
def sanction(*, user: Any, tier: Tier, competition: Competition) -> Sanction:
    """Sanction a competition of a member club at ``tier`` (or move it to that tier)."""
    federation = tier.federation
    require_officer(user, federation)
    if not MemberClub.objects.filter(
        federation=federation, club_id=competition.club_id, status=MemberClub.Status.APPROVED
    ).exists():
        raise Invalid(
            _("%(club)s is not a member club of %(federation)s.")
            % {"club": competition.club.name, "federation": federation.name},
            fields={"competition": [_("Not a member club's competition.")]},
        )
    other = Sanction.objects.filter(competition=competition).exclude(tier__federation=federation)
    if other.exists():
        raise Conflict(_("This competition is sanctioned by another federation."))
    done, _made = Sanction.objects.update_or_create(
        competition=competition, defaults={"tier": tier, "by": user, "at": timezone.now()}
    )
    listening.after_commit_rebuild(federation.pk, competition.game)
    return done


@transaction.atomic
def set_province(*, user: Any, membership: MemberClub, province: str) -> MemberClub:
    """Where a member club plays, as the federation groups its clubs (the rankings' filter)."""
    require_officer(user, membership.federation)
    membership.province = " ".join(province.split())[:60]
    membership.save(update_fields=["province"])
    # The rankings' pages are cached under their version: a club's province is part of them.
    RankingState.objects.filter(federation_id=membership.federation_id).update(
        version=F("version") + 1
    )
    return membership


def issue_upload_token(*, user: Any, membership: MemberClub) -> str:
    """A new upload token for a member club's venue (ledger/hub): shown once. Its first
    upload registers the key the venue signs with, so issuing it vouches for that key."""
    require_officer(user, membership.federation)
    if membership.status != MemberClub.Status.APPROVED:
        raise Invalid(_("Only a member club sends its results to the hub."))
    return hub_services.issue_token(club=membership.club, user=user)


def _count(text: str, field: str, low: int, high: int, what: str) -> int:
    value = str(text).strip()
    if not value.isdigit() or not low <= int(value) <= high:
        raise Invalid(
            what, fields={field: [_("A whole number from %(a)d to %(b)d.") % {"a": low, "b": high}]}
        )
    return int(value)


@transaction.atomic
def set_ranking_rules(
    *, user: Any, federation: Federation, best: str, months: str, place_points: str
) -> RankingRules:
    """The points ranking's rules: the best results counted, the months they are counted
    over, the points of each place (before the tier's weight). The rankings are rebuilt."""
    require_officer(user, federation)
    counted = _count(best, "best", 1, 999, _("Count at least one result."))
    window = _count(months, "months", 1, 120, _("Count the results of 1 to 120 months."))
    points = parse_place_points(place_points)
    rules, _made = RankingRules.objects.update_or_create(
        federation=federation,
        defaults={"best": counted, "months": window, "place_points": points},
    )
    listening.after_commit_rebuild(federation.pk)
    return rules
