"""FIDE Dutch pairings (C.04.3): the rule examples as fixtures, the side allocation that
ranks by score first, the initial side, the fallback's absolute colour rules, and the TRF
export read back by caissify-pairings' checker."""

from __future__ import annotations

from typing import Any

import pytest
from caissify_pairings.fpc import check_trf
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.clubs.models import Table
from ledger.clubs.results import services as core
from ledger.formats import selectors, services
from ledger.formats.pairing import swiss
from ledger.formats.pairing.swiss import Seated, SwissPlayer, allocate, key, preference
from tests.formats.conftest import enter, make_competition

# A round of history: (seat 0, seat 1, points of seat 0) per game; (player, None, points)
# for a bye. Players not named in a round did not play it (absent).
Round = list[tuple[int, int | None, float]]


def field_from(history: list[Round], present: list[int]) -> tuple[list[SwissPlayer], set]:
    """The pairing's view of an event, the way the service builds it from its rounds."""
    players = {p: SwissPlayer(id=p, number=p, rating=3000 - p) for p in present}
    everyone = {p for r in history for g in r for p in g[:2] if p is not None} | set(present)
    score = dict.fromkeys(everyone, 0.0)
    sides: dict[int, list[int]] = {p: [] for p in everyone}
    floats: dict[int, list[str]] = {p: [] for p in everyone}
    byes = dict.fromkeys(everyone, 0)
    met: set = set()
    for games in history:
        before = dict(score)
        for a, b, points in games:
            if b is None:
                byes[a] += 1
                score[a] += points
                floats[a].append("down")
                continue
            met.add(key(a, b))
            sides[a].append(0)
            sides[b].append(1)
            score[a] += points
            score[b] += 1 - points
            for me, other in ((a, b), (b, a)):
                diff = before[me] - before[other]
                floats[me].append("down" if diff > 0 else "up" if diff < 0 else "none")
    for p, player in players.items():
        player.score, player.sides, player.floats, player.byes = (
            score[p],
            sides[p],
            floats[p],
            byes[p],
        )
    return list(players.values()), met


# The Dutch rules' examples for criteria C5 and C9 of the 2025 text, as bbpPairings keeps
# them in its test folder (dutch_2025_C5, dutch_2025_C9): six and five players, 3 rounds.
EXAMPLES = {
    "C5: the bye goes to the lowest score; 4 is absent in round 3": (
        [
            [(1, 4, 1), (5, 2, 0), (3, 6, 1)],
            [(2, 1, 0), (4, 3, 0), (6, 5, 0)],
        ],
        [1, 2, 3, 5, 6],
        3,
        {(1, 5), (3, 2)},
        6,
    ),
    "C9: the bye to the player with fewest unplayed games; 5 missed round 1": (
        [[(1, 3, 1), (4, 2, 0)]],
        [1, 2, 3, 4, 5],
        2,
        {(2, 1), (3, 5)},
        4,
    ),
}


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_the_dutch_rule_examples_are_paired_as_the_rules_say(name: str) -> None:
    history, present, number, pairs, bye = EXAMPLES[name]
    players, met = field_from(history, present)
    result = swiss.pair_swiss(players, met=met, round_number=number, total_rounds=3)
    assert set(result.pairs) == pairs  # sides included: (Tramontana, Mezzogiorno)
    assert result.bye == bye
    assert result.engine == "dutch" and not result.repaired


def test_the_same_wish_goes_to_the_higher_score_before_the_lower_pairing_number() -> None:
    # Both played Tramontana once: both mildly want Mezzogiorno. Player 2 leads on score.
    first, leader = Seated((0,), 0.0, 1), Seated((0,), 1.0, 2)
    assert allocate(leader, first) is False  # the leader gets Mezzogiorno
    assert allocate(first, leader) is True
    players = [
        SwissPlayer(id=1, number=1, score=0.0, sides=[0], floats=["none"]),
        SwissPlayer(id=2, number=2, score=1.0, sides=[0], floats=["none"]),
    ]
    result = swiss.pair_swiss(players, round_number=2, total_rounds=3)
    assert result.pairs == [(1, 2)]


def test_the_stronger_wish_and_alternation_come_before_rank() -> None:
    # E.2: an absolute wish (two Tramontana running) beats a mild one, whatever the rank.
    assert allocate(Seated((1, 0), 2.0, 1), Seated((0, 0), 0.0, 9)) is True
    # E.3: same wishes, the last round they differed decides: each takes the other side.
    assert allocate(Seated((0, 1, 0), 1.0, 1), Seated((1, 0, 0), 1.0, 2)) is True
    assert preference((0, 0)) == (1, swiss.ABSOLUTE)
    assert preference((0, 1, 0)) == (1, swiss.STRONG)
    assert preference(()) == (None, swiss.NONE)


@pytest.mark.parametrize("initial", [0, 1])
def test_the_initial_side_seats_the_top_seed_and_alternates_down_the_boards(initial: int) -> None:
    players = [SwissPlayer(id=i, number=i, rating=2000 - i) for i in range(1, 7)]
    result = swiss.pair_swiss(players, round_number=1, total_rounds=5, initial_side=initial)
    top_side = {pair: pair.index(min(pair)) for pair in result.pairs}
    boards = sorted(result.pairs, key=min)
    assert [tuple(sorted(b)) for b in boards] == [(1, 4), (2, 5), (3, 6)]
    assert [top_side[b] for b in boards] == [initial, 1 - initial, initial]


@st.composite
def fields_with_sides(draw: st.DrawFn) -> tuple[list[SwissPlayer], set]:
    n = draw(st.integers(4, 24))
    players = [
        SwissPlayer(
            id=i,
            number=i,
            score=draw(st.sampled_from([0.0, 1.0, 2.0])),
            sides=draw(st.lists(st.integers(0, 1), min_size=2, max_size=3)),
        )
        for i in range(1, n + 1)
    ]
    pairs = [(a, b) for a in range(1, n + 1) for b in range(a + 1, n + 1)]
    met = set(draw(st.lists(st.sampled_from(pairs), max_size=n)))
    return players, met


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fields_with_sides(), st.sampled_from([0, 80]))
def test_no_engine_breaks_an_absolute_colour_rule_that_can_be_kept(
    field: tuple, limit: int
) -> None:
    players, met = field
    seated = swiss._seated(players)
    clash = swiss._clashes(seated, last_round=False, top=0)
    result = swiss.pair_swiss(players, met=met, round_number=4, total_rounds=9, exact_limit=limit)
    ids = [p.id for p in players]
    without = {p.id for p in players if p.byes == 0} or None
    if swiss.legal_pairing_exists(ids, met | clash, without):
        assert not [p for p in result.pairs if key(*p) in clash]
        for a, b in result.pairs:  # and each side goes to whoever must have it
            want_a, strength_a = preference(seated[a].sides)
            want_b, strength_b = preference(seated[b].sides)
            if strength_a == swiss.ABSOLUTE:
                assert want_a == 0
            if strength_b == swiss.ABSOLUTE:
                assert want_b == 1


@pytest.mark.django_db
def test_the_trf_export_of_a_swiss_passes_the_libraries_checker(
    club: Any, people: Any, points_game: str
) -> None:
    comp = make_competition(club, "swiss")
    enter(people, comp, 9)
    services.update_settings(user=people.users["organiser"], competition=comp, rounds=4)
    for number in range(1, 5):
        draw = services.generate_round(user=people.users["organiser"], competition=comp)
        services.publish_draw(user=people.users["organiser"], draw=draw)
        for i, table in enumerate(Table.objects.filter(round=draw.round).order_by("id")):
            scores = [[3, 1], [1, 3], [2, 2]][(i + number) % 3]
            core.record_result(
                user=people.users["scorekeeper"], table=table, source="manual", scores=scores
            )
    report = check_trf(selectors.trf_export(comp))
    assert report["summary"]["rounds_checked"] == 4
    assert report["summary"]["total_discrepancies"] == 0, report["rounds"]
