"""Who a player now is, read through the people's journal of merges (ledger/clubs/people.py)."""

from __future__ import annotations

import pytest

from ledger.clubs import people
from ledger.clubs.models import Merge, Player

pytestmark = pytest.mark.django_db


def _players(*names: str) -> list[Player]:
    return [Player.objects.create(name=n) for n in names]


def test_an_unmerged_player_is_themselves() -> None:
    (a,) = _players("Anna")
    assert people.canonical_ids([a.pk]) == {a.pk: a.pk}
    assert people.canonical(a.pk) == a.pk
    assert people.same_person_ids(a.pk) == [a.pk]


def test_a_merged_player_counts_as_the_one_they_were_merged_into_through_a_chain() -> None:
    a, b, c, d = _players("A", "B", "C", "D")
    Merge.objects.create(merged=b, into=a)
    Merge.objects.create(merged=a, into=c)  # the survivor was merged again since
    assert people.canonical_ids([a.pk, b.pk, c.pk, d.pk]) == {
        a.pk: c.pk,
        b.pk: c.pk,
        c.pk: c.pk,
        d.pk: d.pk,
    }
    assert people.same_person_ids(b.pk) == [c.pk, *sorted([a.pk, b.pk])]
    assert people.is_merged(b.pk) and not people.is_merged(c.pk)


def test_an_undone_merge_makes_two_people_again() -> None:
    a, b = _players("A", "B")
    merge = Merge.objects.create(merged=b, into=a)
    assert people.canonical(b.pk) == a.pk
    Merge.objects.create(act=Merge.Act.UNDO, merged=b, into=a, undoes=merge)
    assert people.canonical_ids([a.pk, b.pk]) == {a.pk: a.pk, b.pk: b.pk}
    assert people.same_person_ids(a.pk) == [a.pk]


def test_many_ids_are_read_in_one_go() -> None:
    players = _players(*[f"P{i}" for i in range(600)])
    Merge.objects.create(merged=players[1], into=players[0])
    found = people.canonical_ids(p.pk for p in players)
    assert found[players[1].pk] == players[0].pk
    assert sum(1 for k, v in found.items() if k != v) == 1


def test_a_merge_line_is_never_edited_nor_removed() -> None:
    a, b = _players("A", "B")
    merge = Merge.objects.create(merged=b, into=a)
    with pytest.raises(PermissionError):
        merge.save()
    with pytest.raises(PermissionError):
        Merge.objects.filter(pk=merge.pk).update(into=b)
    with pytest.raises(PermissionError):
        merge.delete()
