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

from collections.abc import Callable, Iterable, Sequence
from decimal import Decimal
from typing import Any

from django.db import connection, transaction
from django.db.models import Min
from openskill.models import PlackettLuce

from ledger.clubs import rows
from ledger.clubs.models import Entry, Rating, RatingChange, Result
from ledger.clubs.outcomes import standing_order

MODEL = PlackettLuce()


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
    for result, seats in items:
        players = [seats[i] for i in sorted(seats)]
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
            teams = [[MODEL.create_rating(current[p][:2])] for p in players]
            rated = MODEL.rate(teams, scores=points)
            for player_id, team in zip(players, rated, strict=True):
                estimate = team[0]
                current[player_id] = [estimate.mu, estimate.sigma, current[player_id][2] + 1]
                changes.append(
                    [club_id, game, player_id, result.pk, estimate.mu, estimate.sigma, at]
                )
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


@transaction.atomic
def recompute(club_id: int, game: str) -> int:
    """Throw the ratings of one game in one club away and replay the journal. Returns the
    number of results rated."""
    from ledger.clubs.penalties import rating_adjustments

    Rating.objects.filter(club_id=club_id, game=game).delete()
    RatingChange.objects.filter(club_id=club_id, game=game).delete()
    adjusted = rating_adjustments(club_id, game)
    count = 0
    for result, at in counting_results(club_id, game):
        # Who sat where in this hand, as the journal credited it (a table's seats may have
        # changed since: a replacement, a re-seat).
        seats = dict(
            Entry.objects.filter(result=result, kind=Entry.Kind.CREDIT).values_list(
                "seat", "player_id"
            )
        )
        fines = adjusted.get(result.pk)
        if fines:
            # The club counts penalties in the ratings: ranked with the penalty taken off.
            result.scores = [
                f"{Decimal(s) + fines.get(seats.get(i, 0), Decimal(0)):f}"
                for i, s in enumerate(result.scores)
            ]
        rate_result(result, seats, at)
        count += 1
    return count
