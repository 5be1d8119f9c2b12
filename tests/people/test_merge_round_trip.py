"""A merge counts both players' lines as one person's in every projection, and its undoing
gives back exactly what was there before (ledger/clubs/merges.py)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from ledger.clubs import events, merges, people
from ledger.clubs.models import (
    Club,
    Competition,
    Entry,
    Membership,
    Merge,
    Player,
    Rating,
    RatingChange,
    RoundTotal,
    Standing,
)
from ledger.clubs.results.penalties import give_penalty
from ledger.clubs.results.services import create_table
from tests.ledger.helpers import record

pytestmark = pytest.mark.django_db


def snapshot() -> dict[str, Any]:
    """Every projection row and every row a merge moves, ids and clocks aside."""
    return {
        "standings": sorted(
            Standing.objects.values_list(
                "competition_id", "player_id", "points", "played", "wins", "draws", "losses"
            )
        ),
        "round_totals": sorted(
            RoundTotal.objects.values_list(
                "competition_id", "round_key", "player_id", "points", "played", "wins"
            )
        ),
        "ratings": sorted(
            (c, g, p, round(mu, 9), round(s, 9), n)
            for c, g, p, mu, s, n in Rating.objects.values_list(
                "club_id", "game", "player_id", "mu", "sigma", "results"
            )
        ),
        "rating_changes": sorted(
            (p, r, round(mu, 9), round(s, 9))
            for p, r, mu, s in RatingChange.objects.values_list(
                "player_id", "result_id", "mu", "sigma"
            )
        ),
        "memberships": sorted(
            Membership.objects.values_list("id", "club_id", "player_id", "role", "joined_at")
        ),
        "logins": sorted(Player.objects.values_list("id", "user_id")),
    }


@pytest.fixture
def night(people: Any, manual_competition: Competition, other_club: Club) -> dict[str, Any]:
    """Anna against Bruno, then "Niccolo" (typed without the accent) against Bruno twice,
    and Niccolò, a member of another club too, against Carla: Niccolo is Niccolò."""
    club = manual_competition.club
    anna, bruno, carla = people.extra[:3]
    nicc = Player.objects.create(name="Niccolò Della Gherardesca")
    dup = Player.objects.create(name="Niccolo Della Gherardesca")
    Membership.objects.create(club=club, player=nicc)
    Membership.objects.create(club=other_club, player=nicc, role="organiser")
    Membership.objects.create(club=club, player=dup, role="scorekeeper")
    user = people.users["organiser"]

    def play(a: Player, b: Player, label: str, scores: list[int]) -> None:
        table = create_table(user=user, competition=manual_competition, label=label, players=[a, b])
        record(people, table, scores)

    play(anna, bruno, "T1", [10, -10])
    play(dup, bruno, "T2", [7, -7])
    play(dup, bruno, "T3", [-3, 3])
    play(nicc, carla, "T4", [5, -5])
    give_penalty(user=user, competition=manual_competition, player=dup, points=2, reason="Late")
    return {"nicc": nicc, "dup": dup, "user": user, "competition": manual_competition}


def test_after_a_merge_both_players_lines_count_as_one_persons(night: dict[str, Any]) -> None:
    nicc, dup, comp = night["nicc"], night["dup"], night["competition"]
    lines_before = list(
        Entry.objects.order_by("club_id", "sequence").values_list("player_id", "hash")
    )
    merges.merge(by=night["user"], merged=dup, into=nicc)

    row = Standing.objects.get(competition=comp, player=nicc)
    # By hand: 5 (T4) + 7 (T2) - 3 (T3) - 2 (the penalty) = 7, from three games, two won.
    assert (row.points, row.played, row.wins, row.losses) == (Decimal("7.00"), 3, 2, 1)
    assert not Standing.objects.filter(player=dup).exists()
    assert Rating.objects.get(player=nicc).results == 3
    assert not Rating.objects.filter(player=dup).exists()
    # The journal is untouched: the same lines, naming the same players.
    assert (
        list(Entry.objects.order_by("club_id", "sequence").values_list("player_id", "hash"))
        == lines_before
    )
    # The person keeps the higher of the two roles in the club, and one membership there.
    assert Membership.objects.get(club=comp.club, player=nicc).role == "scorekeeper"
    assert not Membership.objects.filter(player=dup).exists()
    assert people.canonical(dup.pk) == nicc.pk


def test_undoing_a_merge_restores_every_projection_row_exactly(night: dict[str, Any]) -> None:
    before = snapshot()
    line = merges.merge(by=night["user"], merged=night["dup"], into=night["nicc"])
    assert snapshot() != before
    merges.undo(by=night["user"], line=line)
    assert snapshot() == before
    assert list(Merge.objects.order_by("pk").values_list("act", "undoes_id")) == [
        ("merge", None),
        ("undo", line.pk),
    ]


def test_a_merge_moves_the_login_of_the_one_who_had_it(night: dict[str, Any], people: Any) -> None:
    nicc, dup = night["nicc"], night["dup"]
    login = people.users["stranger"]
    Player.objects.filter(pk=dup.pk).update(user=login)
    dup.refresh_from_db()
    line = merges.merge(by=night["user"], merged=dup, into=nicc)
    assert Player.objects.get(pk=nicc.pk).user_id == login.pk
    merges.undo(by=night["user"], line=line)
    assert Player.objects.get(pk=dup.pk).user_id == login.pk
    assert Player.objects.get(pk=nicc.pk).user_id is None


def test_two_people_each_with_a_login_are_not_merged_and_told_why(people: Any) -> None:
    a, b = people.players["member"], people.players["referee"]
    with pytest.raises(merges.Refused, match="own login"):
        merges.merge(by=people.users["organiser"], merged=a, into=b)
    assert not Merge.objects.exists()


def test_two_players_who_sat_at_one_table_are_two_people(
    night: dict[str, Any], people: Any
) -> None:
    bruno = people.extra[1]
    with pytest.raises(merges.Refused, match="same table"):
        merges.merge(by=night["user"], merged=night["dup"], into=bruno)


def test_a_merge_and_its_undoing_are_told_after_the_commit(
    night: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    heard: list[dict[str, Any]] = []

    def listen(sender: Any, **kw: Any) -> None:
        heard.append(kw)

    events.happened.connect(listen)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            line = merges.merge(by=night["user"], merged=night["dup"], into=night["nicc"])
        with django_capture_on_commit_callbacks(execute=True):
            merges.undo(by=night["user"], line=line)
    finally:
        events.happened.disconnect(listen)
    said = [
        (k["kind"], k["merge"], k["undone"]) for k in heard if k["kind"] == events.PEOPLE_MERGED
    ]
    assert said == [(events.PEOPLE_MERGED, line.pk, False), (events.PEOPLE_MERGED, line.pk, True)]


def test_a_later_merge_of_the_same_person_is_undone_first(
    night: dict[str, Any], people: Any
) -> None:
    first = merges.merge(by=night["user"], merged=night["dup"], into=night["nicc"])
    merges.merge(by=night["user"], merged=night["nicc"], into=people.extra[5])
    with pytest.raises(merges.Refused, match="undo that merge first"):
        merges.undo(by=night["user"], line=first)


def test_a_result_recorded_for_the_duplicate_after_the_merge_counts_for_the_person(
    night: dict[str, Any], people: Any
) -> None:
    nicc, dup, comp = night["nicc"], night["dup"], night["competition"]
    table = create_table(
        user=night["user"], competition=comp, label="T9", players=[dup, people.extra[3]]
    )
    merges.merge(by=night["user"], merged=dup, into=nicc)
    record(people, table, [4, -4])
    assert Standing.objects.get(competition=comp, player=nicc).points == Decimal("11.00")
    assert not Standing.objects.filter(player=dup).exists()


def test_a_club_with_a_merge_moves_to_another_installation_counting_the_same_people(
    night: dict[str, Any], migrated_sqlite: Any, tmp_path: Any
) -> None:
    import io
    import shutil

    from ledger.clubs.transfer import transfer
    from tests.ledger.test_export import manage

    merges.merge(by=night["user"], merged=night["dup"], into=night["nicc"])
    out = io.BytesIO()
    transfer.write_export(night["competition"].club, out, secrets=True)
    path, there = tmp_path / "club.jsonl", tmp_path / "there.sqlite3"
    path.write_bytes(out.getvalue())
    shutil.copy(migrated_sqlite, there)
    # The import proves the standings and ratings it rebuilds equal the file's: through
    # the merge it carries, both players' lines count as the person's there too.
    manage(there, "import_club", str(path))
    assert "intact" in manage(there, "verify_ledger")
