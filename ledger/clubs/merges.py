"""Merging two players found to be one person, and undoing it (docs/federation.md, "People
and merges"). A merge is a line of the people's journal (``Merge``), appended, never edited:
the duplicate's memberships and login move to the person kept, and every projection that
counts them (the standings, the per-round totals, the ratings) is rebuilt from the journal,
which keeps naming the player each line was written for. Undoing it is a line of its own
that puts the memberships and the login back and rebuilds the same projections, so they are
exactly what they were before the merge."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db import models, transaction
from django.db.models import Count
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ledger.clubs import events, people, ratings
from ledger.clubs.models import (
    ROLE_RANK,
    Club,
    Competition,
    Entry,
    Membership,
    Merge,
    Player,
    Result,
    Role,
    Seat,
)
from ledger.clubs.projections.projections import rebuild_standings

# The rows of apps above this one that name a player, in words where their model gives none
# (by label: this layer imports none of them).
OTHER_NAMES = {
    "formats.Team": gettext_lazy("teams"),
    "signup.SignUp": gettext_lazy("sign-ups"),
    "federation.Card": gettext_lazy("membership cards"),
    "notify.PushSubscription": gettext_lazy("phones receiving notifications"),
}


class Refused(Exception):
    """A merge (or its undoing) that cannot be done, said in words."""


@dataclass
class ClubShare:
    """What one club holds of the duplicate: their membership, results and journal lines."""

    club: Club
    member: bool = False
    results: int = 0
    lines: int = 0
    ratings: int = 0


@dataclass
class Preview:
    """Everything a merge of ``merged`` into ``into`` moves or counts again, and why it
    would be refused (``refusal`` empty when it may go ahead)."""

    merged: Player
    into: Player
    clubs: list[ClubShare] = field(default_factory=list)
    # Other rows naming the duplicate, by kind in words: (kind, how many).
    others: list[tuple[str, int]] = field(default_factory=list)
    login_moves: bool = False
    refusal: str = ""


def refusal(merged: Player, into: Player) -> str:
    """Why these two players cannot be merged, in words; empty when they can."""
    if merged.pk == into.pk:
        return _("A player cannot be merged into themselves.")
    if merged.automated or into.automated:
        return _("A bot or the digital referee is nobody's duplicate.")
    for who in (merged, into):
        if people.is_merged(who.pk):
            return _("%(name)s was already merged into someone else.") % {"name": who.name}
    if merged.user_id and into.user_id:
        return _(
            "Both %(a)s and %(b)s have their own login, and a person keeps one: one of them "
            "must stop using theirs (an administrator removes it) before they can be merged."
        ) % {"a": merged.name, "b": into.name}
    shared = Seat.objects.filter(player=merged).values("table_id")
    if Seat.objects.filter(player=into, table_id__in=shared).exists():
        return _("%(a)s and %(b)s sat at the same table, so they are two people, not one.") % {
            "a": merged.name,
            "b": into.name,
        }
    return ""


def preview(merged: Player, into: Player) -> Preview:
    """What the merge would move, per club, without writing anything."""
    found = Preview(merged=merged, into=into, refusal=refusal(merged, into))
    shares: dict[int, ClubShare] = {}

    def share(club_id: int) -> ClubShare:
        if club_id not in shares:
            shares[club_id] = ClubShare(club=Club.objects.get(pk=club_id))
        return shares[club_id]

    for club_id in Membership.objects.filter(player=merged).values_list("club_id", flat=True):
        share(club_id).member = True
    for row in (
        Entry.objects.filter(player=merged)
        .values("club_id")
        .annotate(lines=Count("id"), results=Count("result_id", distinct=True))
    ):
        s = share(row["club_id"])
        s.lines, s.results = row["lines"], row["results"]
    for club_id, n in (
        merged.ratings.values("club_id").annotate(n=Count("id")).values_list("club_id", "n")
    ):
        share(club_id).ratings = n
    found.clubs = sorted(shares.values(), key=lambda s: s.club.name)
    found.login_moves = bool(merged.user_id) and not into.user_id
    # Counted per club above, or rebuilt from the journal (not moved).
    counted = {
        "clubs.Membership",
        "clubs.Entry",
        "clubs.Rating",
        "clubs.RatingChange",
        "clubs.Standing",
        "clubs.Merge",
    }
    for relation in Player._meta.related_objects:
        model = relation.related_model
        if not isinstance(model, type) or not issubclass(model, models.Model):
            continue
        if model._meta.label in counted or relation.many_to_many:
            continue
        name = relation.field.name
        n = model._default_manager.filter(**{name: merged.pk}).count()
        if n:
            named = OTHER_NAMES.get(model._meta.label, model._meta.verbose_name_plural)
            found.others.append((str(named), n))
    found.others.sort()
    return found


def _counting(player_ids: list[int]) -> list[Competition]:
    """The competitions whose journal names any of these players."""
    return list(
        Competition.objects.filter(
            pk__in=Entry.objects.filter(player_id__in=player_ids).values("competition_id")
        ).order_by("pk")
    )


def _rebuild(competitions: list[Competition]) -> None:
    """Rebuild every projection that counts these competitions' players, from the journal
    as the people's journal now maps it: each one's standings and per-round totals, and each
    club's ratings for each game played there."""
    for competition in competitions:
        rebuild_standings(competition)
    for club_id, game in sorted({(c.club_id, c.game) for c in competitions}):
        ratings.recompute(club_id, game)


def _serial(value: Any) -> str:
    return value.isoformat() if hasattr(value, "isoformat") else str(value)


def merge(*, by: Any, merged: Player, into: Player, on_behalf_of: str = "") -> Merge:
    """Merge ``merged`` into ``into``: from now on one person, ``into``. Refused (``Refused``,
    in words) for the reasons ``refusal`` gives. One transaction."""
    with transaction.atomic():
        both = Player.objects.select_for_update().filter(pk__in=[merged.pk, into.pk])
        locked = {p.pk: p for p in both}
        merged, into = locked[merged.pk], locked[into.pk]
        why = refusal(merged, into)
        if why:
            raise Refused(why)
        kept = dict(Membership.objects.filter(player=into).values_list("club_id", "role"))
        moves: list[dict[str, Any]] = []
        for m in Membership.objects.filter(player=merged).order_by("pk"):
            record = {
                "id": m.pk,
                "club": m.club_id,
                "role": m.role,
                "joined_at": _serial(m.joined_at),
                "how": "dropped" if m.club_id in kept else "moved",
            }
            if m.club_id in kept and ROLE_RANK[Role(m.role)] > ROLE_RANK[Role(kept[m.club_id])]:
                # The person keeps the higher of their two roles in a club.
                record["into_role"] = kept[m.club_id]
                Membership.objects.filter(club_id=m.club_id, player=into).update(role=m.role)
            moves.append(record)
        dropped = [r["id"] for r in moves if r["how"] == "dropped"]
        Membership.objects.filter(pk__in=dropped).delete()
        Membership.objects.filter(pk__in=[r["id"] for r in moves if r["how"] == "moved"]).update(
            player=into
        )
        login = merged.user_id if merged.user_id and not into.user_id else None
        if login is not None:
            Player.objects.filter(pk=merged.pk).update(user=None)
            Player.objects.filter(pk=into.pk).update(user_id=login)
        counting = _counting([merged.pk, into.pk])
        line = Merge(
            act=Merge.Act.MERGE,
            merged=merged,
            into=into,
            by=by if getattr(by, "pk", None) else None,
            on_behalf_of=on_behalf_of,
            moved={
                "memberships": moves,
                "login": login,
                "clubs": sorted({c.club_id for c in counting}),
            },
        )
        line.save()
        _rebuild(counting)
        events.after_commit(events.PEOPLE_MERGED, merge=line.pk, undone=False)
    return line


def undo_refusal(line: Merge) -> str:
    """Why this merge cannot be undone now, in words; empty when it can."""
    if line.act != Merge.Act.MERGE:
        return _("Only a merge can be undone.")
    if Merge.objects.filter(undoes=line).exists():
        return _("This merge was undone already.")
    later = (
        Merge.objects.filter(act=Merge.Act.MERGE, undoing__isnull=True, pk__gt=line.pk)
        .filter(
            models.Q(merged_id__in=[line.merged_id, line.into_id])
            | models.Q(into_id__in=[line.merged_id, line.into_id])
        )
        .select_related("merged", "into")
        .first()
    )
    if later is not None:
        return _("%(a)s was merged into %(b)s since: undo that merge first.") % {
            "a": later.merged.name,
            "b": later.into.name,
        }
    return ""


def undo(*, by: Any, line: Merge, on_behalf_of: str = "") -> Merge:
    """Undo a merge: the two players are two people again, exactly as before it."""
    with transaction.atomic():
        Player.objects.select_for_update().filter(pk__in=[line.merged_id, line.into_id]).count()
        why = undo_refusal(line)
        if why:
            raise Refused(why)
        counting = _counting([line.merged_id, line.into_id])
        moved = line.moved or {}
        for record in moved.get("memberships", []):
            if "into_role" in record:
                Membership.objects.filter(club_id=record["club"], player_id=line.into_id).update(
                    role=record["into_role"]
                )
            if record["how"] == "moved":
                back = Membership.objects.filter(
                    pk=record["id"], club_id=record["club"], player_id=line.into_id
                ).update(player_id=line.merged_id, role=record["role"])
                if back:
                    continue
            if Membership.objects.filter(club_id=record["club"], player_id=line.merged_id).exists():
                continue
            free = not Membership.objects.filter(pk=record["id"]).exists()
            Membership.objects.create(
                pk=record["id"] if free else None,
                club_id=record["club"],
                player_id=line.merged_id,
                role=record["role"],
                joined_at=parse_datetime(record["joined_at"]) or timezone.now(),
            )
        login = moved.get("login")
        if login and Player.objects.filter(pk=line.into_id, user_id=login).exists():
            Player.objects.filter(pk=line.into_id).update(user=None)
            Player.objects.filter(pk=line.merged_id).update(user_id=login)
        undoing = Merge(
            act=Merge.Act.UNDO,
            merged_id=line.merged_id,
            into_id=line.into_id,
            undoes=line,
            by=by if getattr(by, "pk", None) else None,
            on_behalf_of=on_behalf_of,
            moved={"clubs": sorted({c.club_id for c in counting})},
        )
        undoing.save()
        _rebuild(counting)
        events.after_commit(events.PEOPLE_MERGED, merge=line.pk, undone=True)
    return undoing


def pending_for(player: Player) -> int:
    """How many results waiting for confirmation seat this player (shown beside a merge)."""
    return (
        Result.objects.filter(
            status__in=[Result.Status.PENDING, Result.Status.DISPUTED],
            table__seats__player=player,
        )
        .distinct()
        .count()
    )
