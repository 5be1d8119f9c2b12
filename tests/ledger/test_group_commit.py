"""Group commit: concurrent writes of one process share transactions, and nothing about the
journal, the standings or the ratings can tell that they did."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection, connections

from ledger.clubs import ratings
from ledger.clubs.journal.journal import verify_chain
from ledger.clubs.models import Competition, Entry, Membership, Player, Rating, Result
from ledger.clubs.projections.standings import journal_totals
from ledger.clubs.results import services
from ledger.clubs.storage import groupcommit

NEEDS_PG = "threads writing at once need PostgreSQL"


class WatchedQueue(list[Any]):
    """Group commit's queue, telling a test each time a write joins it: the test waits for
    the writes it started to be queued, not for a time it guesses they take (a loaded
    machine can take longer to start a thread than any guess)."""

    def __init__(self) -> None:
        super().__init__()
        self.grew = threading.Condition()

    def append(self, item: Any) -> None:
        with self.grew:
            super().append(item)
            self.grew.notify_all()

    def wait_for(self, n: int) -> None:
        with self.grew:
            assert self.grew.wait_for(lambda: len(self) >= n, timeout=300), len(self)


@pytest.fixture
def queue(monkeypatch: pytest.MonkeyPatch) -> WatchedQueue:
    watched = WatchedQueue()
    monkeypatch.setattr(groupcommit, "_queue", watched)
    return watched


def test_every_write_is_answered_and_later_arrivals_are_batched_together(queue):
    batches: list[list[int]] = []
    started = threading.Event()

    def run(writes: Any) -> bool:
        batches.append(list(writes))
        started.set()
        if len(batches) == 1:
            # A slow commit: the other five queue up meanwhile.
            queue.wait_for(5)
        return True

    answers: dict[int, bool] = {}

    def request(n: int) -> None:
        answers[n] = groupcommit.submit(n, run)

    first = threading.Thread(target=request, args=(0,))
    first.start()
    started.wait()
    others = [threading.Thread(target=request, args=(n,)) for n in range(1, 6)]
    for t in others:
        t.start()
    for t in [first, *others]:
        t.join()
    assert answers == dict.fromkeys(range(6), True)
    assert batches[0] == [0]
    assert sorted(n for batch in batches[1:] for n in batch) == [1, 2, 3, 4, 5]
    assert len(batches) == 2, "the five that waited should share the next batch"


def test_a_failed_batch_tells_every_request_to_write_alone():
    def run(writes: Any) -> bool:
        return False

    assert groupcommit.submit("w", run) is False
    # The leader gave its place back: the next write leads at once.
    assert groupcommit.submit("w", lambda writes: True) is True


def _seated(people: Any, n: int) -> tuple[Competition, list[Any]]:
    competition = Competition.objects.create(
        club=people.club, name="Batches", slug="batches", game="tarocco"
    )
    players = [Player.objects.create(name=f"B{i}") for i in range(4 * n)]
    for p in players:
        Membership.objects.create(club=people.club, player=p)
    tables = [
        services.create_table(
            user=people.users["organiser"],
            competition=competition,
            label=f"B{i}",
            players=players[4 * i : 4 * i + 4],
        )
        for i in range(n)
    ]
    return competition, tables


def _hand(n: int) -> dict[str, Any]:
    return {"outcome": "solo", "dealer": 3, "declarer": n % 4, "card_points": 40 + n % 40}


def test_a_batch_with_a_repeated_key_writes_nothing_and_each_write_then_stands_alone(people):
    competition, (table,) = _seated(people, 1)
    user = people.users["scorekeeper"]
    writes = [
        services._prepare(user, table, "summary", _hand(n), None, None, "same-key", "f", False)
        for n in range(2)
    ]
    assert services._write_batch(writes) is False
    assert not Result.objects.filter(competition=competition).exists()
    assert not Entry.objects.filter(competition=competition).exists()
    _first, created = services._write_alone(writes[0], people.club.pk)
    assert created
    with pytest.raises(services.Conflict):  # same key, another body
        writes[1].result.fingerprint = "g"
        services._write_alone(writes[1], people.club.pk)
    assert Result.objects.filter(competition=competition).count() == 1
    assert verify_chain(people.club) == []


@pytest.mark.skipif(connection.vendor != "postgresql", reason=NEEDS_PG)
@pytest.mark.usefixtures("transactional_db")
def test_writes_committed_in_batches_match_the_journal_replayed_one_by_one(people, monkeypatch):
    competition, tables = _seated(people, 8)
    user = people.users["scorekeeper"]
    sizes: list[int] = []
    original = services._write_batch

    def counted(writes: Any) -> bool:
        sizes.append(len(writes))
        return original(writes)

    monkeypatch.setattr(services, "_write_batch", counted)
    barrier = threading.Barrier(len(tables))
    problems: list[str] = []

    def scorekeeper(i: int) -> None:
        try:
            barrier.wait()
            for n in range(15):
                services.record_result(
                    user=user, table=tables[i], source="summary", record=_hand(n + i)
                )
        except Exception as exc:
            problems.append(repr(exc))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=scorekeeper, args=(i,)) for i in range(len(tables))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert problems == []
    assert Result.objects.filter(competition=competition).count() == 120
    assert sum(sizes) == 120
    assert max(sizes) > 1, "eight writers at once never shared a transaction"
    assert verify_chain(people.club) == []
    totals = journal_totals(competition)
    standings = {s.player_id: s for s in competition.standings.all()}
    assert {p: (t.points, t.played) for p, t in totals.items()} == {
        p: (s.points, s.played) for p, s in standings.items()
    }
    batched = {
        r.player_id: (r.mu, r.sigma, r.results)
        for r in Rating.objects.filter(club=people.club, game="tarocco")
    }
    ratings.recompute(people.club.pk, "tarocco")
    replayed = {
        r.player_id: (r.mu, r.sigma, r.results)
        for r in Rating.objects.filter(club=people.club, game="tarocco")
    }
    assert batched.keys() == replayed.keys()
    for player, (mu, sigma, n) in batched.items():
        assert replayed[player][0] == pytest.approx(mu)
        assert replayed[player][1] == pytest.approx(sigma)
        assert replayed[player][2] == n


def test_a_broken_batch_raises_its_error_in_every_request_of_it(queue):
    started, release = threading.Event(), threading.Event()
    outcomes: dict[str, Any] = {}

    def slow_ok(writes: Any) -> bool:
        started.set()
        release.wait()
        return True

    def broken(writes: Any) -> bool:
        raise ConnectionError("database went away")

    def request(name: str, run: Any) -> None:
        try:
            outcomes[name] = groupcommit.submit(name, run)
        except ConnectionError as exc:
            outcomes[name] = exc

    first = threading.Thread(target=request, args=("first", slow_ok))
    first.start()
    started.wait()
    # Two more queue up behind the first batch; the first of them leads with `broken`.
    second = threading.Thread(target=request, args=("second", broken))
    second.start()
    queue.wait_for(1)
    third = threading.Thread(target=request, args=("third", broken))
    third.start()
    queue.wait_for(2)
    release.set()
    for t in (first, second, third):
        t.join()
    assert outcomes["first"] is True
    assert isinstance(outcomes["second"], ConnectionError)
    assert isinstance(outcomes["third"], ConnectionError)


def test_a_table_loaded_for_a_write_has_its_competition_club_and_seats(people):
    competition, (table,) = _seated(people, 1)
    competition.ruleset = {"variant": "x"}
    competition.save(update_fields=["ruleset"])
    loaded = services.table_for_write(table.pk)
    assert loaded is not None
    assert (loaded.pk, loaded.label) == (table.pk, table.label)
    assert loaded.competition.game == "tarocco"
    assert loaded.competition.ruleset == {"variant": "x"}
    assert loaded.competition.club.name == people.club.name
    assert loaded.seated == dict(table.seats.values_list("index", "player_id"))
    # Fields not loaded are read when asked for.
    assert loaded.competition.slug == "batches"
    assert services.table_for_write(10**9) is None


def test_the_tables_read_for_a_write_brings_the_writers_role_in_the_club(
    people, django_assert_num_queries
):
    from django.contrib.auth import get_user_model

    _competition, (table,) = _seated(people, 1)
    stranger = get_user_model().objects.create_user("no-membership", "", "no-membership-pw")
    for user, role in [
        (people.users["scorekeeper"], "scorekeeper"),
        (people.users["referee"], "referee"),
        (stranger, None),
    ]:
        loaded = services.table_for_write(table.pk, user)
        assert loaded is not None
        club = loaded.competition.club
        with django_assert_num_queries(0):
            assert club.role_of(user) == role
        # The same answer as the club's own query.
        assert club.role_of(user) == type(club).objects.get(pk=club.pk).role_of(user)


@pytest.mark.skipif(connection.vendor != "postgresql", reason=NEEDS_PG)
@pytest.mark.usefixtures("transactional_db")
def test_corrections_and_new_results_for_the_same_players_at_once_never_deadlock(people):
    # New results take the standings rows, the ratings rows and the club's journal head in
    # that order; a correction journals its reversal and new credits in one write, in the
    # same order, so neither can hold what the other waits for.
    competition, tables = _seated(people, 4)
    scorekeeper, referee = people.users["scorekeeper"], people.users["referee"]
    done = [
        services.record_result(user=scorekeeper, table=t, source="summary", record=_hand(i))[0]
        for i, t in enumerate(tables)
    ]
    barrier = threading.Barrier(len(tables) + 1)
    problems: list[str] = []

    def writer(i: int) -> None:
        try:
            barrier.wait()
            for n in range(12):
                services.record_result(
                    user=scorekeeper, table=tables[i], source="summary", record=_hand(n + i)
                )
        except Exception as exc:
            problems.append(repr(exc))
        finally:
            connections.close_all()

    def corrector() -> None:
        try:
            barrier.wait()
            for n in range(12):
                old = done[n % len(done)]
                done[n % len(done)] = services.supersede_result(
                    user=referee,
                    result=Result.objects.get(pk=old.pk),
                    source="summary",
                    record=_hand(n + 1),
                    reason="recount",
                )
        except Exception as exc:
            problems.append(repr(exc))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(len(tables))]
    threads.append(threading.Thread(target=corrector))
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert problems == []
    assert Result.objects.filter(competition=competition).count() == 4 + 48 + 12
    assert verify_chain(people.club) == []
    totals = journal_totals(competition)
    standings = {s.player_id: s for s in competition.standings.all()}
    assert {p: (t.points, t.played) for p, t in totals.items()} == {
        p: (s.points, s.played) for p, s in standings.items()
    }


@pytest.mark.skipif(connection.vendor != "postgresql", reason=NEEDS_PG)
@pytest.mark.usefixtures("transactional_db")
def test_the_write_path_keeps_its_statements_prepared_on_postgresql(people, settings):
    competition, (table,) = _seated(people, 1)

    def prepared() -> set[str]:
        with connection.cursor() as cursor:
            cursor.execute("SELECT statement FROM pg_prepared_statements")
            return {row[0] for row in cursor.fetchall()}

    user = people.users["scorekeeper"]
    for n in range(2):
        services.record_result(user=user, table=table, source="summary", record=_hand(n))
    statements = prepared()
    for table_name in ("clubs_standing", "clubs_rating"):
        assert any(s.startswith(f'INSERT INTO "{table_name}"') for s in statements), table_name
    # The results travel with the count of their tables' places, in one statement.
    assert any(
        s.startswith('WITH w0 AS (UPDATE "clubs_table"') and 'INSERT INTO "clubs_result"' in s
        for s in statements
    )
    # The club's journal head is locked and read in one prepared statement that carries
    # the new ratings and their history too; the sealed lines are then chained by the
    # database, in one prepared call.
    (head,) = [s for s in statements if "journal_head FROM" in s and "FOR NO KEY UPDATE" in s]
    assert head.startswith('WITH w0 AS (INSERT INTO "clubs_rating"')
    assert 'w1 AS (INSERT INTO "clubs_ratingchange"' in head
    assert [s for s in statements if "FROM ledger_append(" in s]

    settings.LEDGER_PREPARED_STATEMENTS = False
    connection.close()  # a new connection, with nothing prepared yet
    services.record_result(user=user, table=table, source="summary", record=_hand(3))
    assert prepared() == set()
    assert Result.objects.filter(competition=competition).count() == 3
