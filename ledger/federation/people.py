"""One person across the federation's clubs (docs/federation.md, "People and merges"): the
people a club's "did you mean" may point to in the other member clubs, the likely duplicates
an officer reviews (the same name by the matcher, or the same card number), the officer's
merge and its undoing, and a person's results across the clubs. The merge itself, and who a
player now is, live in the clubs (ledger/clubs/merges.py, ledger/clubs/people.py)."""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from ledger.clubs import merges, people
from ledger.clubs.errors import Conflict, Invalid
from ledger.clubs.models import Club, Entry, Membership, Merge, Player, Result, Standing
from ledger.federation import name_index
from ledger.federation.cards import valid_card
from ledger.federation.models import Card, Federation, MemberClub
from ledger.federation.roles import require_officer
from ledger.formats.names import close_matches, name_key

# How many likely duplicates the officers' page shows at once.
SHOWN_PAIRS = 50


@dataclass
class Known:
    """A person of the federation, with the clubs they are a member of (by name)."""

    player: Player
    clubs: list[str] = field(default_factory=list)

    @property
    def label(self) -> str:
        where = ", ".join(self.clubs)
        return f"{self.player.name} ({where})" if where else self.player.name


def member_club_ids(federation: Federation) -> list[int]:
    return list(
        MemberClub.objects.filter(
            federation=federation, status=MemberClub.Status.APPROVED
        ).values_list("club_id", flat=True)
    )


def federations_of(club: Club) -> list[Federation]:
    """The federations this club is an approved member of."""
    return list(
        Federation.objects.filter(
            clubs__club=club, clubs__status=MemberClub.Status.APPROVED
        ).order_by("name")
    )


def people_of(club_ids: list[int], only: Iterable[int] | None = None) -> dict[int, Known]:
    """The people who are members of these clubs (bots and referees aside), each with the
    names of those of these clubs they belong to; of the players ``only`` names, when given.
    Merged duplicates hold no membership."""
    found: dict[int, Known] = {}
    rows = Membership.objects.filter(club_id__in=club_ids, player__automated=False)
    if only is not None:
        rows = rows.filter(player_id__in=sorted(set(only)))
    rows = rows.select_related("player", "club").order_by("player__name", "player_id", "club__name")
    for m in rows:
        known = found.setdefault(m.player_id, Known(m.player))
        known.clubs.append(m.club.name)
    return found


def nearby(club: Club, names: Iterable[str]) -> list[Known]:
    """The people of the other member clubs of this club's federations who are not members
    here and whom these names typed in this club may mean: the database is asked for the
    few with the same name or a word alike (name_index.py), never for everyone."""
    others: set[int] = set()
    for federation in federations_of(club):
        others.update(member_club_ids(federation))
    others.discard(club.pk)
    if not others:
        return []
    maybe = name_index.candidates(names, others)
    if not maybe:
        return []
    here = set(
        Membership.objects.filter(club=club, player_id__in=maybe).values_list(
            "player_id", flat=True
        )
    )
    return [k for pid, k in people_of(sorted(others), maybe).items() if pid not in here]


def suggestions_for(name: str, candidates: list[Known]) -> list[Known]:
    """The candidates this name may mean: the same name (case, accents, apostrophes and
    word order aside) first, then the close ones."""
    key = name_key(name)
    same = [k for k in candidates if key and name_key(k.player.name) == key]
    close = close_matches(name, [(k.player.name, k) for k in candidates])
    return same + [k for k in close if k not in same]


# --- likely duplicates -------------------------------------------------------------------


@dataclass
class Pair:
    """Two players who may be one person: who would be kept, who merged into them, why
    they look alike, and what the merge would move."""

    keep: Known
    merge: Known
    why: str
    preview: merges.Preview


def _lines(ids: list[int]) -> dict[int, int]:
    return dict(
        Entry.objects.filter(player_id__in=ids)
        .values("player_id")
        .annotate(n=Count("id"))
        .values_list("player_id", "n")
    )


def likely_duplicates(federation: Federation, limit: int = SHOWN_PAIRS) -> list[Pair]:
    """Pairs of the federation's people with the same name by the matcher (in any clubs,
    the same one included), or linked to cards of the same number. The database names the
    people sharing a name key; only they and the card holders are read."""
    clubs = member_club_ids(federation)
    linked = Card.objects.filter(season__federation=federation, player__isnull=False)
    canonical = people.canonical_ids(set(linked.values_list("player_id", flat=True)))
    everyone = people_of(clubs, [*name_index.same_key_groups(clubs), *canonical.values()])
    found: dict[frozenset[int], str] = {}
    by_key: dict[str, list[int]] = defaultdict(list)
    for pid, known in everyone.items():
        key = name_key(known.player.name)
        if key:
            by_key[key].append(pid)
    for ids in by_key.values():
        for a, b in itertools.pairwise(ids):
            found.setdefault(frozenset((a, b)), _("the same name"))
    by_number: dict[str, set[int]] = defaultdict(set)
    for number, pid in linked.values_list("number", "player_id"):
        if pid is not None and canonical[pid] in everyone:
            by_number[number].add(canonical[pid])
    for number, holders in sorted(by_number.items()):
        ordered = sorted(holders)
        for a, b in itertools.pairwise(ordered):
            found.setdefault(frozenset((a, b)), _("the same card number, %(n)s") % {"n": number})
    ids = sorted({pid for pair in found for pid in pair})
    lines = _lines(ids)

    def first(pid: int) -> tuple[int, int, int]:
        p = everyone[pid].player
        # The one kept: who has a login, then who has more results, then who came first.
        return (0 if p.user_id else 1, -lines.get(pid, 0), pid)

    pairs: list[Pair] = []
    for pair, why in sorted(found.items(), key=lambda item: sorted(item[0])):
        keep, other = sorted(pair, key=first)
        k, m = everyone[keep], everyone[other]
        pairs.append(Pair(k, m, why, merges.preview(m.player, k.player)))
        if len(pairs) >= limit:
            break
    return pairs


def standing_merges(federation: Federation) -> list[Merge]:
    """The merges in force whose person is one of the federation's, newest first."""
    everyone = Membership.objects.filter(
        club_id__in=member_club_ids(federation), player__automated=False
    ).values("player_id")
    return list(
        Merge.objects.filter(
            act=Merge.Act.MERGE, undoing__isnull=True, into_id__in=everyone
        ).select_related("merged", "into", "by")
    )


# --- the officers' writes ----------------------------------------------------------------


def _one_of(federation: Federation, player_id: int) -> Player:
    clubs = member_club_ids(federation)
    player = Player.objects.filter(pk=player_id, memberships__club_id__in=clubs).first()
    if player is None:
        raise Invalid(
            _("Choose two people of the federation's member clubs."),
            fields={"merge": [_("Not a person of the federation.")]},
        )
    return player


@transaction.atomic
def merge_people(*, user: Any, federation: Federation, merged_id: int, into_id: int) -> Merge:
    """An officer merges a duplicate into the person kept (ledger/clubs/merges.py)."""
    require_officer(user, federation)
    merged, into = _one_of(federation, merged_id), _one_of(federation, into_id)
    try:
        return merges.merge(by=user, merged=merged, into=into, on_behalf_of=federation.name)
    except merges.Refused as refused:
        raise Conflict(str(refused), fields={"merge": [str(refused)]}) from refused


@transaction.atomic
def undo_merge(*, user: Any, federation: Federation, merge_id: int) -> Merge:
    require_officer(user, federation)
    line = next((m for m in standing_merges(federation) if m.pk == merge_id), None)
    if line is None:
        raise Invalid(_("This merge is not one of the federation's, or was undone already."))
    try:
        return merges.undo(by=user, line=line, on_behalf_of=federation.name)
    except merges.Refused as refused:
        raise Conflict(str(refused)) from refused


# --- a person's page ---------------------------------------------------------------------


@dataclass
class Played:
    """One result of the person's, in one of the federation's clubs."""

    result: Result
    points: Decimal


@dataclass
class Person:
    known: Known
    # The other players counted as this person (merged into them).
    also: list[Player]
    played: list[Played]
    standings: list[Standing]
    card: Card | None
    cards: list[Card]


def person(federation: Federation, player_id: int, shown: int = 200) -> Person | None:
    """A person's results across the federation's clubs, their standings and their card;
    None for someone who is no person of the federation. A merged player's page is their
    person's."""
    pid = people.canonical(player_id)
    clubs = member_club_ids(federation)
    found = people_of(clubs, [pid]).get(pid)
    if found is None:
        return None
    ids = people.same_person_ids(pid)
    lines = (
        Entry.objects.filter(
            player_id__in=ids, club_id__in=clubs, kind=Entry.Kind.CREDIT, result__isnull=False
        )
        .filter(Q(result__status=Result.Status.ACCEPTED))
        .select_related("result__competition__club", "result__table")
        .order_by("-created_at", "-id")[:shown]
    )
    played = [Played(line.result, line.points) for line in lines if line.result is not None]
    standings = list(
        Standing.objects.filter(player_id=pid, competition__club_id__in=clubs)
        .select_related("competition__club")
        .order_by("competition__club__name", "competition__name")
    )
    cards = list(
        Card.objects.filter(season__federation=federation, player_id__in=ids)
        .select_related("season")
        .order_by("-valid_until")
    )
    return Person(
        known=found,
        also=list(Player.objects.filter(pk__in=ids[1:]).order_by("pk")),
        played=played,
        standings=standings,
        card=valid_card(federation.pk, found.player, timezone.localdate()),
        cards=cards,
    )
