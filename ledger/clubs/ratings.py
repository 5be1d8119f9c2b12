"""Ratings with openskill's Plackett-Luce model (Weng & Lin).

Every accepted result is one rated match in which each seat is ranked by the points the
journal gave it, the engine's Outcome breaking ties where the game separates seats level on
points (a deciding sfida, a tie-break); seats still level tie. That is the natural
reading for Er Giò, the Bridge's Game, San Marco and 3D cardChess (two sides, or a
free-for-all of three or four).
For Tarocco it is the four-way treatment: a soloist who wins 18 while the others lose 6 each
ranks first against three tied players, instead of being fed to the model as a team of one
against a team of three (openskill adds a team's ratings, so a lone soloist would look far
weaker than he is and every win would be overrated). A pair that wins ties for first. See
docs/ratings.md.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from decimal import Decimal
from typing import Any

from django.db import connection, transaction
from django.db.models import Min
from django.utils import timezone
from openskill.models import PlackettLuce

from ledger.clubs import people
from ledger.clubs.models import Club, Entry, Penalty, Rating, RatingChange, Result
from ledger.clubs.outcomes import standing_order
from ledger.clubs.storage import rows

MODEL = PlackettLuce()
_TAU_SQUARED = MODEL.tau * MODEL.tau
_BETA_SQUARED = MODEL.beta**2
_KAPPA = MODEL.kappa


def rate(ratings: Sequence[Sequence[float]], scores: Sequence[float]) -> list[tuple[float, float]]:
    """``MODEL.rate`` of one match of single players, on plain floats: each player's
    (mu, sigma, ...) before and (mu, sigma) after, seats in order, higher score better.
    The same arithmetic in the same order as openskill's Plackett-Luce (its defaults: no
    margin, no balance, no weights, sigma not limited), so the same values to the last bit
    (tests/ledger/test_ratings_fast.py), several times faster: no rating objects made,
    copied and named for every match of a replay of millions."""
    k = len(ratings)
    if k == 2:
        return _rate_two(ratings[0], ratings[1], scores[0], scores[1])
    # Each sigma widened by tau; the seats ranked (0 best, equal scores share a rank) and
    # taken best first, a stable sort, as openskill orders the teams it computes on.
    negated = [-s for s in scores]
    first: dict[float, int] = {}
    for index, value in enumerate(sorted(negated)):
        first.setdefault(value, index)
    ranks = [first[v] for v in negated]
    order = sorted(range(k), key=ranks.__getitem__)
    mus = [float(ratings[i][0]) for i in order]
    sigmas = [math.sqrt(float(ratings[i][1]) * float(ratings[i][1]) + _TAU_SQUARED) for i in order]
    rank = [ranks[i] for i in order]
    squared = [s**2 for s in sigmas]
    collective = 0.0
    for v in squared:
        collective += v + _BETA_SQUARED
    c = math.sqrt(collective)
    strength = [math.exp(m / c) for m in mus]
    sum_q = [0.0] * k
    for i in range(k):
        for q in range(k):
            if rank[i] >= rank[q]:
                sum_q[q] += strength[i]
    shared = [rank.count(r) for r in rank]
    rated: list[tuple[float, float]] = [(0.0, 0.0)] * k
    for i in range(k):
        omega = delta = 0.0
        mine = strength[i]
        for q in range(k):
            x = mine / sum_q[q]
            if rank[q] <= rank[i]:
                delta += x * (1 - x) / shared[q]
                if q == i:
                    omega += (1 - x) / shared[q]
                else:
                    omega -= x / shared[q]
        omega *= squared[i] / c
        delta *= squared[i] / c**2
        delta *= math.sqrt(squared[i]) / c
        sigma = sigmas[i]
        share = sigma**2 / squared[i]
        mu = mus[i] + share * omega
        sigma *= math.sqrt(max(1 - share * delta, _KAPPA))
        rated[order[i]] = (mu, sigma)
    return rated


def _rate_two(
    one: Sequence[float], other: Sequence[float], score: float, other_score: float
) -> list[tuple[float, float]]:
    """``rate`` of two players, its loops unrolled (the same operations in the same order:
    most matches of most games are two sides)."""
    swap = other_score > score
    level = other_score == score
    if swap:
        one, other = other, one
    m0, m1, s0, s1 = float(one[0]), float(other[0]), float(one[1]), float(other[1])
    s0 = math.sqrt(s0 * s0 + _TAU_SQUARED)
    s1 = math.sqrt(s1 * s1 + _TAU_SQUARED)
    q0, q1 = s0**2, s1**2
    c = math.sqrt((q0 + _BETA_SQUARED) + (q1 + _BETA_SQUARED))
    e0, e1 = math.exp(m0 / c), math.exp(m1 / c)
    both = e0 + e1
    x0, x1 = e0 / both, e1 / both
    if level:
        # One shared rank: each compared with both, halved.
        omega0 = (1 - x0) / 2 - x0 / 2
        delta0 = x0 * (1 - x0) / 2 + x0 * (1 - x0) / 2
        omega1 = -(x1 / 2) + (1 - x1) / 2
        delta1 = x1 * (1 - x1) / 2 + x1 * (1 - x1) / 2
    else:
        # The winner against both; the loser against both and against itself alone.
        omega0, delta0 = 1 - x0, x0 * (1 - x0)
        alone = e1 / e1
        omega1 = -x1 + (1 - alone)
        delta1 = x1 * (1 - x1) + alone * (1 - alone)
    rated = []
    for m, s, q, omega, delta in ((m0, s0, q0, omega0, delta0), (m1, s1, q1, omega1, delta1)):
        omega *= q / c
        delta *= q / c**2
        delta *= math.sqrt(q) / c
        share = s**2 / q
        rated.append((m + share * omega, s * math.sqrt(max(1 - share * delta, _KAPPA))))
    return rated[::-1] if swap else rated


def rate_result(result: Result, seats: dict[int, int], at: Any) -> None:
    """Fold one accepted result into its club's ratings for the game (inside the caller's
    transaction, so ratings never disagree with the journal that produced them)."""
    rows.flush(rate_results([(result, seats)], at))


def rate_results(
    items: Sequence[tuple[Result, dict[int, int]]],
    at: Any,
    ready: Callable[[], None] | None = None,
) -> list[rows.Statement]:
    """Fold accepted results, in order, into their clubs' ratings: three statements for the
    whole batch, whatever its size. Each player's row is locked from the first of them to
    the commit, so a later write for the same player rates after this one. ``ready`` is
    called once the first of them is answered, before the results' ids are read (a write
    whose results' ids come back with that answer gives them their ids there).

    The other two are returned, not run: the caller runs them (``rows.flush``) or has them
    travel with its next statement (``rows.run``'s ``first``), which must not write a
    rating. The rows they write are locked by the first, so where they run in that
    statement does not matter."""
    pending: list[rows.Statement] = []
    matches: dict[tuple[int, str], list[tuple[Result, list[int], list[float]]]] = {}
    # Each seat is rated as the person its player now is (ledger/clubs/people.py).
    person = people.canonical_ids({p for _r, seats in items for p in seats.values()})
    for result, seats in items:
        players = [person[seats[i]] for i in sorted(seats)]
        if len(set(players)) < len(players):
            continue  # one person in two seats: nothing to rate between them
        points = standing_order(result.scores, result.verdict)
        if len(players) < 2 or (len(set(points)) < 2 and len(players) > 2):
            # A hand where everybody scored the same tells nothing about skill.
            continue
        key = (result.club_id, result.competition.game)
        matches.setdefault(key, []).append((result, players, points))
    table = connection.ops.quote_name(Rating._meta.db_table)
    for (club_id, game), played in sorted(matches.items()):
        everyone = sorted({p for _r, players, _s in played for p in players})
        # Every player's row, created at the model's prior if new, and locked until the
        # commit: a later write for the same player waits, so ratings follow the journal.
        current = {
            pid: [mu, sigma, n]
            for pid, mu, sigma, n in rows.insert(
                Rating,
                ("club_id", "game", "player_id", "mu", "sigma", "results", "updated_at"),
                [[club_id, game, p, MODEL.mu, MODEL.sigma, 0, at] for p in everyone],
                suffix=f"ON CONFLICT (club_id, game, player_id) DO UPDATE SET "
                f"results = {table}.results RETURNING player_id, mu, sigma, results",
            )
        }
        if ready is not None:
            ready()
        changes: list[Any] = []
        for result, players, points in played:
            rated = rate([current[p] for p in players], points)
            for player_id, (mu, sigma) in zip(players, rated, strict=True):
                current[player_id] = [mu, sigma, current[player_id][2] + 1]
                changes.append([club_id, game, player_id, result.pk, mu, sigma, at])
        # One upsert for every player and one insert for the history, in plain SQL: the
        # ORM's bulk_update spends more time building its CASE expressions than the
        # database spends running them.
        pending += [
            rows.insertion(
                Rating,
                ("club_id", "game", "player_id", "mu", "sigma", "results", "updated_at"),
                [[club_id, game, p, *current[p], at] for p in everyone],
                suffix="ON CONFLICT (club_id, game, player_id) DO UPDATE SET "
                "mu = excluded.mu, sigma = excluded.sigma, results = excluded.results, "
                "updated_at = excluded.updated_at",
            ),
            rows.insertion(
                RatingChange,
                ("club_id", "game", "player_id", "result_id", "mu", "sigma", "at"),
                changes,
            ),
        ]
    return pending


def counting_results(club_id: int, game: str) -> Iterable[tuple[Result, Any]]:
    """The results that count now (accepted, not corrected), in journal order."""
    firsts = (
        Entry.objects.filter(club_id=club_id, competition__game=game, kind=Entry.Kind.CREDIT)
        .values("result_id")
        .annotate(first=Min("sequence"), at=Min("created_at"))
        .order_by("first")
    )
    ids = [(row["result_id"], row["at"]) for row in firsts]
    results = Result.objects.select_related("competition").in_bulk([i for i, _ in ids])
    for result_id, at in ids:
        result = results[result_id]
        if result.status == Result.Status.ACCEPTED:
            yield result, at


def _replay(
    club_id: int,
    game: str,
    state: dict[int, list[Any]],
    since: int = 0,
    through: int | None = None,
) -> tuple[list[list[Any]], int]:
    """Rate, in journal order and in memory, the counting results whose first credit line
    is after ``since`` (and at or before ``through``), on top of ``state`` (player id ->
    [mu, sigma, results], changed in place). Returns the history rows and the count. A few
    queries whatever the number of results: no per-result query, no lock."""
    firsts = Entry.objects.filter(
        club_id=club_id,
        competition__game=game,
        kind=Entry.Kind.CREDIT,
        sequence__gt=since,
        result__isnull=False,
    )
    if through is not None:
        firsts = firsts.filter(sequence__lte=through)
    order = list(
        firsts.values("result_id")
        .annotate(first=Min("sequence"), at=Min("created_at"))
        .order_by("first")
        .values_list("result_id", "at")
    )
    if not order:
        return [], 0
    wanted = Result.objects.filter(
        pk__in=firsts.values("result_id"), status=Result.Status.ACCEPTED
    ).values_list("pk", "scores", "verdict")
    counting = {pk: (scores, verdict) for pk, scores, verdict in wanted}
    # Who sat where in each hand, as the journal credited it (a table's seats may have
    # changed since: a replacement, a re-seat).
    seats: dict[int, dict[int, int]] = {}
    credited = list(firsts.values_list("result_id", "seat", "player_id"))
    # Each seat rated as the person its player now is (ledger/clubs/people.py).
    person = people.canonical_ids({p for _r, _s, p in credited})
    for result_id, seat, player_id in credited:
        seats.setdefault(result_id, {})[seat] = person[player_id]
    adjusted = rating_adjustments(club_id, game)
    history: list[list[Any]] = []
    count = 0
    for result_id, at in order:
        if result_id not in counting:
            continue
        scores, verdict = counting[result_id]
        seated = seats.get(result_id, {})
        players = [seated[i] for i in sorted(seated)]
        fines = adjusted.get(result_id)
        if fines:
            # The club counts penalties in the ratings: ranked with the penalty taken off.
            scores = [
                f"{Decimal(x) + fines.get(seated.get(i, 0), Decimal(0)):f}"
                for i, x in enumerate(scores)
            ]
        points = standing_order(scores, verdict)
        if len(players) < 2 or (len(set(points)) < 2 and len(players) > 2):
            continue
        if len(set(players)) < len(players):
            continue
        for p in players:
            state.setdefault(p, [MODEL.mu, MODEL.sigma, 0])
        for player_id, (mu, sigma) in zip(
            players, rate([state[p] for p in players], points), strict=True
        ):
            state[player_id] = [mu, sigma, state[player_id][2] + 1]
            history.append([player_id, result_id, mu, sigma, at])
        count += 1
    return history, count


def recompute(club_id: int, game: str) -> int:
    """Replay the journal into one game's ratings in one club (after a correction: ratings
    depend on the order of every later result). Returns the number of results rated.

    The replay is computed first, with no lock, up to the journal's length at that moment.
    Then, in one short transaction, the rating rows of every player it knows are locked
    (made where missing) by one upsert in player order, the order in which every write's
    own upsert takes them, so that neither ever waits for the other in a circle; the
    results written meanwhile are folded in, and the rows and their history are written.
    Writes to the club go on meanwhile; none waits for the replay's computing. A player
    first rated by a write that lands during the replay, with nobody the replay knows,
    keeps the rating that write gave them (the same, since it depends on no one else)."""
    through = Club.objects.filter(pk=club_id).values_list("journal_length", flat=True).first()
    if through is None:
        return 0
    state: dict[int, list[Any]] = {}
    history, count = _replay(club_id, game, state, through=through)
    known = set(
        Rating.objects.filter(club_id=club_id, game=game).values_list("player_id", flat=True)
    )
    table = connection.ops.quote_name(Rating._meta.db_table)
    with transaction.atomic():
        at = timezone.now()
        held = sorted(known | set(state))
        if held:
            rows.insert(
                Rating,
                ("club_id", "game", "player_id", "mu", "sigma", "results", "updated_at"),
                [[club_id, game, p, MODEL.mu, MODEL.sigma, 0, at] for p in held],
                suffix=f"ON CONFLICT (club_id, game, player_id) DO UPDATE SET "
                f"results = {table}.results",
            )
        later, more = _replay(club_id, game, state, since=through)
        mine = set(held)
        gone = mine - set(state)
        if gone:
            Rating.objects.filter(club_id=club_id, game=game, player_id__in=gone).delete()
        written = sorted(mine & set(state))
        if written:
            rows.insert(
                Rating,
                ("club_id", "game", "player_id", "mu", "sigma", "results", "updated_at"),
                [[club_id, game, p, *state[p], at] for p in written],
                suffix="ON CONFLICT (club_id, game, player_id) DO UPDATE SET "
                "mu = excluded.mu, sigma = excluded.sigma, results = excluded.results, "
                "updated_at = excluded.updated_at",
            )
        RatingChange.objects.filter(club_id=club_id, game=game).delete()
        RatingChange.objects.bulk_create(
            [
                RatingChange(
                    club_id=club_id, game=game, player_id=p, result_id=r, mu=mu, sigma=sg, at=t
                )
                for p, r, mu, sg, t in history + later
            ],
            batch_size=2000,
        )
    return count + more


def rating_adjustments(club_id: int, game: str) -> dict[int, dict[int, Decimal]]:
    """For a club that counts penalties in the ratings: result id -> {player id: points},
    each standing penalty given at a table applied to the last hand that table recorded
    before it (or its first hand, if it was given before any)."""
    penalties = list(
        Penalty.objects.filter(
            club_id=club_id,
            competition__game=game,
            cancelled_at__isnull=True,
            table__isnull=False,
            club__penalties_in_ratings=True,
        ).values_list("table_id", "player_id", "points", "given_at")
    )
    if not penalties:
        return {}
    hands: dict[int, list[tuple[Any, int]]] = defaultdict(list)
    for table_id, pk, at in (
        Result.objects.filter(table_id__in={p[0] for p in penalties}, status=Result.Status.ACCEPTED)
        .order_by("entered_at", "pk")
        .values_list("table_id", "pk", "entered_at")
    ):
        hands[table_id].append((at, pk))
    out: dict[int, dict[int, Decimal]] = defaultdict(lambda: defaultdict(Decimal))
    person = people.canonical_ids({p[1] for p in penalties})
    for table_id, player_id, points, given_at in penalties:
        player_id = person[player_id]
        recorded = hands.get(table_id)
        if not recorded:
            continue
        before = [pk for at, pk in recorded if at <= given_at]
        target = before[-1] if before else recorded[0][1]
        out[target][player_id] += points
    return {k: dict(v) for k, v in out.items()}
