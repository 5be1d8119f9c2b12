"""A written result is changed in one way only: a correction, a ruling on a dispute, the
referee desk's ruling, a void and a hand written again for other seats all go through
``clubs.services.correct`` (docs/ledger.md, "Changing a written result"), and each leaves
the journal, the standings and its dispute as that function says."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from ledger.clubs.journal.journal import verify_chain
from ledger.clubs.models import Dispute, Entry, Result, Standing, Table
from ledger.clubs.projections.projections import rebuild_standings
from ledger.clubs.results import services
from ledger.referee import services as desk
from tests.ledger.helpers import record, use

pytestmark = pytest.mark.django_db


@pytest.fixture
def through(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, str]]:
    """Each call of ``services.correct``: the result it changed and the event it announced."""
    calls: list[tuple[int, str]] = []
    real = services.correct

    def spied(**kwargs: Any) -> Result:
        calls.append((kwargs["result"].pk, kwargs["event"]))
        return real(**kwargs)

    monkeypatch.setattr(services, "correct", spied)
    return calls


def _standings(table: Table) -> dict[int, Decimal]:
    return dict(
        Standing.objects.filter(competition=table.competition).values_list("player_id", "points")
    )


def _credits(result: Result) -> list[tuple[int, int, Decimal]]:
    return list(
        result.entries.filter(kind=Entry.Kind.CREDIT)
        .order_by("seat")
        .values_list("seat", "player_id", "points")
    )


def _journal_agrees(table: Table) -> None:
    kept = _standings(table)
    rebuild_standings(table.competition)
    assert _standings(table) == kept
    assert not verify_chain(table.competition.club)


def test_a_correction_goes_through_the_one_path(people: Any, manual_table: Table, through: Any):
    old = record(people, manual_table, [10, 2])
    new = services.supersede_result(
        user=people.users["referee"], result=old, source="manual", scores=[0, 9], reason="Foglio"
    )
    assert through == [(old.pk, "result.corrected")]
    assert [p for _s, _p, p in _credits(new)] == [0, 9]
    assert sorted(_standings(manual_table).values()) == [0, 9]
    _journal_agrees(manual_table)


def test_a_ruling_on_a_dispute_goes_through_the_one_path_and_closes_it(
    people: Any, manual_table: Table, through: Any
):
    use(manual_table.competition, "second_person")
    old = record(people, manual_table, [5, 1])
    dispute = services.dispute_result(user=people.users["scorekeeper2"], result=old, reason="No")
    new = services.rule_dispute(
        user=people.users["referee"],
        dispute=dispute,
        ruling=Dispute.Ruling.NEW,
        note="Rivisto",
        source="manual",
        scores=[1, 5],
    )
    assert through == [(old.pk, "result.ruled")]
    dispute.refresh_from_db()
    assert dispute.ruling == Dispute.Ruling.NEW and dispute.note == "Rivisto"
    assert new.supersedes_id == old.pk and new.status == Result.Status.ACCEPTED
    # The disputed version credited nothing: nothing of it is reversed.
    assert not Entry.objects.filter(result=old).exists()
    assert [p for _s, _p, p in _credits(new)] == [1, 5]
    _journal_agrees(manual_table)


def test_the_desks_ruling_goes_through_the_one_path(people: Any, manual_table: Table, through: Any):
    old = record(people, manual_table, [4, 0])
    case = desk.open_case(
        user=people.users["referee"], competition=manual_table.competition, result=old
    )
    new = desk.rule(
        user=people.users["referee"], case=case, kind="assigned", params={"scores": ["3", "1"]}
    )
    assert through == [(old.pk, "result.ruled")]
    reversed_ = Entry.objects.filter(result=old, kind=Entry.Kind.REVERSAL)
    assert sorted(reversed_.values_list("points", flat=True)) == [-4, 0]
    assert [p for _s, _p, p in _credits(new)] == [3, 1]
    _journal_agrees(manual_table)


def test_a_void_goes_through_the_one_path(people: Any, manual_table: Table, through: Any):
    old = record(people, manual_table, [6, 2])
    voided = services.void_result(user=people.users["referee"], result=old, reason="Doppio")
    assert through == [(old.pk, "result.voided")]
    assert voided.pk == old.pk and voided.status == Result.Status.VOIDED
    assert not Result.objects.filter(supersedes=old).exists()
    assert set(_standings(manual_table).values()) == {0}
    _journal_agrees(manual_table)


def test_a_hand_written_again_for_other_seats_goes_through_the_one_path(
    people: Any, manual_table: Table, through: Any
):
    old = record(people, manual_table, [7, 1])
    (a, _x), (b, _y) = ((p, x) for _s, p, x in _credits(old))
    new = services.rewrite_result(
        user=people.users["organiser"],
        result=old,
        lines=[(0, b, Decimal(7)), (1, a, Decimal(1))],
        reason="Posti scambiati",
    )
    assert through == [(old.pk, "result.corrected")]
    assert new.scores == old.scores and new.supersedes_id == old.pk
    assert _credits(new) == [(0, b, Decimal(7)), (1, a, Decimal(1))]
    _journal_agrees(manual_table)


def test_a_result_changed_once_is_not_changed_again_by_any_path(
    people: Any, manual_table: Table
) -> None:
    from ledger.clubs.errors import Conflict

    old = record(people, manual_table, [3, 3])
    services.void_result(user=people.users["referee"], result=old, reason="Doppio")
    with pytest.raises(Conflict):
        services.supersede_result(
            user=people.users["referee"], result=old, source="manual", scores=[1, 2]
        )
    with pytest.raises(Conflict):
        services.void_result(user=people.users["referee"], result=old, reason="Ancora")
    assert Result.objects.filter(supersedes=old).count() == 0
