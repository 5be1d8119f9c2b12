"""Every scoring path of a scorekeeper's summary (tarocco.score.*, tarocco.summary.*)."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.core import RecordError
from games.core.cli import main
from games.tarocco import GAME


def rules(report: object) -> list[str]:
    return [v.rule for v in report.violations]  # type: ignore[attr-defined]


def test_score_solo_is_three_times_the_points_over_55() -> None:
    report = GAME.score({"outcome": "solo", "dealer": 3, "declarer": 1, "card_points": 61})
    assert report.valid and report.result is not None
    assert report.result["scores"] == [-6, 18, -6, -6]


def test_score_solo_70_matches_the_ledger_example() -> None:
    report = GAME.score({"outcome": "solo", "dealer": 3, "declarer": 0, "card_points": 70})
    assert report.result is not None and report.result["scores"] == [45, -15, -15, -15]


def test_score_pairs_dealer_pair_needs_55() -> None:
    report = GAME.score({"outcome": "pairs", "dealer": 3, "pair": [1, 3], "card_points": 59})
    assert report.result is not None and report.result["scores"] == [-4, 4, -4, 4]


def test_score_pairs_either_side_may_be_written() -> None:
    a = GAME.score({"outcome": "pairs", "dealer": 3, "pair": [0, 2], "card_points": 50})
    b = GAME.score({"outcome": "pairs", "dealer": 3, "pair": [1, 3], "card_points": 59})
    assert a.result is not None and b.result is not None
    assert a.result["scores"] == b.result["scores"]


def test_score_pairs_55_54_is_level() -> None:
    report = GAME.score({"outcome": "pairs", "dealer": 0, "pair": [0, 1], "card_points": 55})
    assert report.result is not None and report.result["scores"] == [0, 0, 0, 0]


def test_score_offer_moves_the_points_from_offerer_to_taker() -> None:
    report = GAME.score({"outcome": "offer", "dealer": 3, "offerer": 2, "taker": 0, "points": 6})
    assert report.result is not None and report.result["scores"] == [6, 0, -6, 0]


def test_score_offer_two_offers_taken_are_both_paid() -> None:
    summary = {
        "outcome": "offer",
        "dealer": 3,
        "offers": [
            {"offerer": 2, "taker": 0, "points": 6},
            {"offerer": 1, "taker": 3, "points": 2},
        ],
    }
    report = GAME.score(summary)
    assert report.result is not None and report.result["scores"] == [6, -2, -6, 2]


def test_score_abandoned_scores_nothing() -> None:
    report = GAME.score({"outcome": "abandoned", "dealer": 3})
    assert report.result is not None and report.result["scores"] == [0, 0, 0, 0]


def test_count_total_refuses_more_than_109_card_points() -> None:
    report = GAME.score({"outcome": "solo", "dealer": 3, "declarer": 1, "card_points": 140})
    assert not report.valid and rules(report) == ["tarocco.count.total"]


@pytest.mark.parametrize(
    "summary",
    [
        {"outcome": "solo", "dealer": 3, "declarer": 1, "card_points": 0},
        {"outcome": "solo", "dealer": 1, "declarer": 1, "card_points": 0},
        {"outcome": "pairs", "dealer": 3, "pair": [1, 3], "card_points": 0},
        {"outcome": "pairs", "dealer": 3, "pair": [0, 2], "card_points": 109},
        {"outcome": "pairs", "dealer": 0, "pair": [1, 3], "card_points": 109},
    ],
)
def test_the_side_that_took_the_monte_never_counts_zero(summary: dict[str, object]) -> None:
    report = GAME.score(summary)
    assert rules(report) == ["tarocco.summary.monte"]
    assert report.violations[0].where == {"field": "card_points"}


@given(st.integers(1, 108), st.integers(0, 3), st.integers(0, 3), st.sampled_from([1, 2, 3]))
def test_every_count_the_monte_allows_is_accepted(
    points: int, dealer: int, first: int, step: int
) -> None:
    pair = [first, (first + step) % 4]
    solo = {"outcome": "solo", "dealer": dealer, "declarer": first, "card_points": points}
    assert GAME.score(solo).valid
    assert GAME.score(
        {"outcome": "pairs", "dealer": dealer, "pair": pair, "card_points": points}
    ).valid


def test_summary_pair_refuses_one_seat_twice() -> None:
    report = GAME.score({"outcome": "pairs", "dealer": 3, "pair": [1, 1], "card_points": 40})
    assert rules(report) == ["tarocco.summary.pair"]


def test_summary_pair_that_is_not_two_seats_is_malformed() -> None:
    with pytest.raises(RecordError):
        GAME.score({"outcome": "pairs", "dealer": 3, "pair": [1], "card_points": 40})


def test_summary_seat_out_of_range() -> None:
    report = GAME.score({"outcome": "solo", "dealer": 3, "declarer": 4, "card_points": 40})
    assert rules(report) == ["tarocco.summary.seat"]


def test_bargain_offer_range_refuses_a_negative_offer() -> None:
    report = GAME.score({"outcome": "offer", "dealer": 3, "offerer": 2, "taker": 0, "points": -3})
    assert rules(report) == ["tarocco.bargain.offer_range"]


def test_bargain_piglio_nobody_takes_their_own_offer() -> None:
    report = GAME.score({"outcome": "offer", "dealer": 3, "offerer": 2, "taker": 2, "points": 3})
    assert rules(report) == ["tarocco.bargain.piglio"]


def test_solo_dealer_is_refused_only_under_dossena() -> None:
    summary = {"outcome": "solo", "dealer": 3, "declarer": 3, "card_points": 60}
    assert GAME.score(summary).valid
    assert rules(GAME.score({**summary, "ruleset": "dossena"})) == ["tarocco.solo.dealer"]


def test_claimed_score_that_is_wrong_is_named() -> None:
    summary = {"outcome": "solo", "dealer": 3, "declarer": 1, "card_points": 61}
    assert GAME.score({**summary, "claimed_scores": [-6, 18, -6, -6]}).valid
    wrong = GAME.score({**summary, "claimed_scores": [-6, 6, -6, 6]})
    assert rules(wrong) == ["tarocco.record.claimed_score"]


def test_set_dealer_rotation_and_cumulative_scores() -> None:
    hands = [
        {"outcome": "solo", "dealer": 3, "declarer": 1, "card_points": 61},
        {"outcome": "abandoned", "dealer": 0},
        {"outcome": "pairs", "dealer": 1, "pair": [1, 3], "card_points": 60},
    ]
    report = GAME.score({"hands": hands})
    assert report.valid and report.result is not None
    assert report.result["scores"] == [-11, 23, -11, -1]
    assert report.result["next_dealer"] == 2
    # V2 (Dossena): after an abandoned hand the same dealer deals again
    dossena = GAME.score({"hands": hands, "ruleset": "dossena"})
    assert rules(dossena) == ["tarocco.set.dealer"]


@given(
    st.integers(0, 3), st.integers(0, 3), st.integers(1, 108), st.sampled_from(["solo", "pairs"])
)
def test_scores_are_zero_sum(dealer: int, seat: int, points: int, outcome: str) -> None:
    summary: dict[str, object] = {"outcome": outcome, "dealer": dealer, "card_points": points}
    if outcome == "solo":
        summary["declarer"] = seat
    else:
        summary["pair"] = [
            seat,
            (seat + 1 + dealer) % 4 if (seat + 1 + dealer) % 4 != seat else (seat + 2) % 4,
        ]
    report = GAME.score(summary)
    assert report.result is not None and sum(report.result["scores"]) == 0


def test_cli_score_exits_1_on_an_impossible_summary_and_2_on_a_malformed_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    out = io.StringIO()
    monkeypatch.setattr(
        "sys.stdin", io.StringIO('{"outcome": "solo", "declarer": 1, "card_points": 61}')
    )
    assert main(["tarocco", "score", "-"], out) == 0
    assert json.loads(out.getvalue())["scores"] == [-6, 18, -6, -6]
    monkeypatch.setattr(
        "sys.stdin", io.StringIO('{"outcome": "solo", "declarer": 1, "card_points": 140}')
    )
    assert main(["tarocco", "score", "-"], io.StringIO()) == 1
    monkeypatch.setattr("sys.stdin", io.StringIO('{"outcome": "nothing"}'))
    assert main(["tarocco", "score", "-"], io.StringIO()) == 2
