"""The ratings' own Plackett-Luce on plain floats (ledger/clubs/ratings.rate) gives the
values openskill's model gives, to the last bit, for every shape of match the service rates:
two sides, three or four players, wins, ties and placings."""

from __future__ import annotations

import random

from ledger.clubs.ratings import MODEL, rate


def _openskill(
    ratings: list[tuple[float, float]], scores: list[float]
) -> list[tuple[float, float]]:
    teams = [[MODEL.create_rating(list(r))] for r in ratings]
    return [(t[0].mu, t[0].sigma) for t in MODEL.rate(teams, scores=scores)]


def test_the_fast_rating_gives_openskills_values_to_the_last_bit() -> None:
    rng = random.Random(42)
    for _ in range(3000):
        k = rng.choice([2, 2, 3, 4])
        ratings = [(rng.uniform(-10, 60), rng.uniform(0.3, 9)) for _ in range(k)]
        if rng.random() < 0.3:
            ratings[0] = (MODEL.mu, MODEL.sigma)
        scores = [float(rng.choice([-3, -1, 0, 1, 2, 3])) for _ in range(k)]
        if rng.random() < 0.2:
            scores = [-float(1 + rng.randrange(k)) for _ in range(k)]  # an Outcome's places
        assert rate(ratings, scores) == _openskill(ratings, scores), (ratings, scores)


def test_a_draw_and_a_win_move_two_players_as_openskill_does() -> None:
    fresh = (MODEL.mu, MODEL.sigma)
    assert rate([fresh, fresh], [0.0, 0.0]) == _openskill([fresh, fresh], [0.0, 0.0])
    assert rate([fresh, (30.0, 4.0)], [3.0, -3.0]) == _openskill([fresh, (30.0, 4.0)], [3.0, -3.0])
    assert rate([fresh, (30.0, 4.0)], [-1.0, 1.0]) == _openskill([fresh, (30.0, 4.0)], [-1.0, 1.0])


def test_a_rating_carried_with_more_than_mu_and_sigma_is_read_by_its_first_two() -> None:
    # The federation keeps [mu, sigma, results, club] per person and rates those lists.
    held = [[25.0, 8.0, 3, 7], [27.5, 6.5, 9, 8]]
    assert rate(held, [1.0, -1.0]) == _openskill([(25.0, 8.0), (27.5, 6.5)], [1.0, -1.0])
