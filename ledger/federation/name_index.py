"""The players' names as the matcher reads them (ledger/formats/names.py), kept in the
database (``PersonName``: the key; ``NameWord``: its words) so that the federation's "did
you mean", its people search and its likely duplicates ask for the few people a name may
mean, however many the member clubs have, and compare only those in Python.

Kept by a player's save (``on_player_saved``); players written in bulk (an import, a
generator) are caught up at the next read, which costs two counts when nothing is missing.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.db.models import Count, Exists, OuterRef, Q, QuerySet

from ledger.clubs.models import Membership, Player
from ledger.federation.models import NameWord, PersonName
from ledger.formats.names import name_key

#: At most this many people a typed name is compared with beyond those with its very key
#: (the people sharing one of its words first, then those with a word beginning alike).
CANDIDATES = 300
#: A word's first letters that make another word a candidate ("nicolo" for "niccolo").
PREFIX = 3
CHUNK = 5000


def index(players: Iterable[tuple[int, str]]) -> int:
    """Write the key and the words of each of these players (id, name), in place of any
    they had. Returns how many."""
    made = [(int(pid), name, name_key(name)) for pid, name in players]
    with transaction.atomic():
        for at in range(0, len(made), CHUNK):
            part = made[at : at + CHUNK]
            ids = [pid for pid, _n, _k in part]
            PersonName.objects.filter(player_id__in=ids).delete()
            NameWord.objects.filter(player_id__in=ids).delete()
            PersonName.objects.bulk_create(
                [
                    PersonName(player_id=pid, name=name[:120], key=key[:240])
                    for pid, name, key in part
                ]
            )
            NameWord.objects.bulk_create(
                [
                    NameWord(player_id=pid, word=word[:120])
                    for pid, _name, key in part
                    for word in sorted(set(key.split()))
                ]
            )
    return len(made)


def catch_up() -> int:
    """Index the players that have no key yet (written in bulk). Two counts when none."""
    if Player.objects.count() == PersonName.objects.count():
        return 0
    missing = Player.objects.filter(
        ~Exists(PersonName.objects.filter(player_id=OuterRef("pk")))
    ).values_list("pk", "name")
    return index(list(missing))


def on_player_saved(sender: Any, instance: Player, update_fields: Any = None, **_: Any) -> None:
    """A player made or renamed: their key follows (a save of other fields changes none)."""
    if update_fields is not None and "name" not in update_fields:
        return
    index([(instance.pk, instance.name)])


def _people(club_ids: Iterable[int]) -> QuerySet[Membership, Any]:
    return Membership.objects.filter(club_id__in=list(club_ids), player__automated=False).values(
        "player_id"
    )


def candidates(names: Iterable[str], club_ids: Iterable[int]) -> list[int]:
    """The people of these clubs whom these names may mean: those with the same key, then
    up to CANDIDATES sharing a word of one of them or a word beginning alike."""
    catch_up()
    keys = {k for k in (name_key(n) for n in names) if k}
    words = {w for k in keys for w in k.split()}
    if not words:
        return []
    people = _people(club_ids)
    found = set(
        PersonName.objects.filter(key__in=keys, player_id__in=people).values_list(
            "player_id", flat=True
        )
    )
    near = NameWord.objects.filter(player_id__in=people)
    shared = set(
        near.filter(word__in=words)
        .values_list("player_id", flat=True)
        .distinct()
        .order_by("player_id")[:CANDIDATES]
    )
    alike = Q()
    for w in words:
        if len(w) >= PREFIX:
            alike |= Q(word__startswith=w[:PREFIX])
    room = CANDIDATES - len(shared)
    if alike and room > 0:
        shared |= set(
            near.filter(alike)
            .exclude(player_id__in=shared)
            .values_list("player_id", flat=True)
            .distinct()
            .order_by("player_id")[:room]
        )
    return sorted(found | shared)


def search(text: str, club_ids: Iterable[int], limit: int) -> list[int]:
    """The people of these clubs with a word of their name beginning with each word typed
    (case, accents and apostrophes aside), at most ``limit``."""
    catch_up()
    typed = name_key(text).split()
    if not typed:
        return []
    found = Player.objects.filter(pk__in=_people(club_ids))
    for w in typed:
        found = found.filter(pk__in=NameWord.objects.filter(word__startswith=w).values("player_id"))
    return list(found.order_by("name", "pk").values_list("pk", flat=True)[:limit])


def same_key_groups(club_ids: Iterable[int]) -> list[int]:
    """The people of these clubs who share their key with another of them."""
    catch_up()
    people = _people(club_ids)
    mine = PersonName.objects.filter(player_id__in=people).exclude(key="")
    shared = mine.values("key").annotate(n=Count("player_id")).filter(n__gt=1).values("key")
    return list(mine.filter(key__in=shared).values_list("player_id", flat=True))
