"""San Marco's two-player scoring: variant 3's formula and tie-break, variants 1 and 2."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.core import RandomBot, RecordError, play
from games.core.cli import main
from games.sanmarco import GAME, final_v3

points = st.integers(min_value=0, max_value=300)


def test_the_rules_example_gives_58_and_59_and_player_two_wins() -> None:
    report = GAME.score({"variant": 3, "points": [[55, 66], [57, 61]]})
    assert report.valid
    result = report.result
    assert result is not None
    assert result["final"] == [58, 59]
    assert result["scores"] == [58, 59]
    assert result["winner"] == 1
    assert result["tie_break"] is None
    assert result["players"][0]["mean"] == 60
    assert result["players"][0]["deduction"] == 2
    assert result["players"][1]["deduction"] == 0


def test_the_mean_is_rounded_down() -> None:
    assert final_v3(60, 61) == 60
    assert final_v3(0, 1) == 0


def test_one_point_off_for_every_full_five_points_apart() -> None:
    assert final_v3(50, 54) == 52
    assert final_v3(50, 55) == 51
    assert final_v3(50, 59) == 53
    assert final_v3(50, 60) == 53


def test_tie_goes_to_the_player_whose_weaker_colour_is_stronger() -> None:
    a, b = [59, 59], [58, 61]
    assert final_v3(*a) == final_v3(*b) == 59
    result = GAME.score({"variant": 3, "points": [a, b]}).result
    assert result is not None
    assert result["winner"] == 0
    assert result["tie_break"] == "weaker_colour"
    assert [r["place"] for r in result["ranking"]] == [1, 2]


def test_a_full_tie_stands_with_no_winner() -> None:
    result = GAME.score({"variant": 3, "points": [[50, 60], [60, 50]]}).result
    assert result is not None
    assert result["winner"] is None
    assert result["tie_break"] == "tie_stands"


@given(points, points)
def test_the_final_score_never_exceeds_the_better_colour(a: int, b: int) -> None:
    assert final_v3(a, b) <= max(a, b)
    assert final_v3(a, b) >= min(a, b)


@given(points, points)
def test_the_final_score_is_symmetric_in_the_colours(a: int, b: int) -> None:
    assert final_v3(a, b) == final_v3(b, a)


@given(points, points, points, points)
def test_swapping_the_players_swaps_the_result(a: int, b: int, c: int, d: int) -> None:
    one = GAME.score({"variant": 3, "points": [[a, b], [c, d]]}).result
    two = GAME.score({"variant": 3, "points": [[d, c], [b, a]]}).result
    assert one is not None and two is not None
    assert one["final"] == two["final"][::-1]
    assert (one["winner"], two["winner"]) in ((None, None), (0, 1), (1, 0))


def test_negative_points_are_impossible() -> None:
    report = GAME.score({"variant": 3, "points": [[-1, 60], [50, 50]]})
    assert not report.valid
    assert report.violations[0].rule == "sanmarco.score.non_negative"


@pytest.mark.parametrize(
    ("ruleset", "summary", "field"),
    [
        ("variant3", {"variant": 3, "points": [[300, 60], [50, 50]]}, "p0_0"),
        ("variant3-board", {"variant": 3, "points": [[60, 50], [50, 201]]}, "p1_1"),
        ("variant1", {"variant": 1, "points": [40, 201]}, "p1"),
        ("variant1", {"variant": 1, "points": [40, 20], "ghosts": [300, 0]}, "ghost0"),
        ("variant2", {"variant": 2, "points": [40, 20], "neutral": 250}, "neutral"),
        ("variant2-board", {"variant": 2, "points": [201, 20]}, "p0"),
        ("base3", {"players": 3, "points": [40, 20, 300]}, None),
    ],
)
def test_every_variant_refuses_a_colour_above_the_tables_cap(
    ruleset: str, summary: dict[str, object], field: str | None
) -> None:
    report = GAME.score(summary, ruleset)
    assert [v.rule for v in report.violations] == ["sanmarco.entry.range"]
    assert report.outcome is None
    assert report.violations[0].where.get("field") == field


def test_a_rulesets_own_cap_bounds_the_summary() -> None:
    summary = {"variant": 3, "points": [[200, 60], [50, 50]]}
    assert GAME.score(summary, "variant3").valid
    lower = {"name": "variant3", "variant": 3, "max_points": 150}
    assert [v.rule for v in GAME.score(summary, lower).violations] == ["sanmarco.entry.range"]


@given(st.integers(0, 200), st.integers(0, 200), st.integers(0, 200), st.integers(0, 200))
def test_every_colour_within_the_cap_is_accepted(a: int, b: int, c: int, d: int) -> None:
    assert GAME.score({"variant": 3, "points": [[a, b], [c, d]]}, "variant3").valid


@pytest.mark.parametrize(
    "summary",
    [
        {"variant": 4, "points": [1, 2]},
        {"variant": 3, "points": [55, 66]},
        {"variant": 3, "points": [[55, "66"], [57, 61]]},
        {"variant": 1, "points": [1, 2, 3]},
        {"variant": 2, "points": [1, 2], "passages": [{"limits": [10]}]},
        {"points": [1, 2]},
    ],
)
def test_malformed_summaries_are_record_errors(summary: dict[str, object]) -> None:
    with pytest.raises(RecordError):
        GAME.score(summary)


def test_variant_1_records_the_ghosts_and_ranks_them_with_the_players() -> None:
    result = GAME.score({"variant": 1, "points": [70, 64], "ghosts": [72, 40]}).result
    assert result is not None
    assert result["scores"] == [70, 64]
    assert result["ghosts"] == [72, 40]
    assert result["winner"] == 0
    assert [(r["who"], r["index"], r["place"]) for r in result["ranking"]] == [
        ("ghost", 0, 1),
        ("player", 0, 2),
        ("player", 1, 3),
        ("ghost", 1, 4),
    ]


def test_variant_1_equal_active_players_stay_tied() -> None:
    result = GAME.score({"variant": 1, "points": [60, 60]}).result
    assert result is not None
    assert result["winner"] is None and result["tie_break"] == "tie_stands"
    assert [r["place"] for r in result["ranking"]] == [1, 1]


def test_variant_2_ranks_the_neutral_colour_but_it_never_wins() -> None:
    result = GAME.score({"variant": 2, "points": [50, 61], "neutral": 80}).result
    assert result is not None
    assert result["winner"] == 1
    assert result["ranking"][0] == {"who": "neutral", "index": 0, "points": 80, "place": 1}


def test_variant_2_a_passage_ends_only_when_a_player_reaches_10_limit_points() -> None:
    report = GAME.score({"variant": 2, "points": [50, 60], "passages": [{"limits": [9, 8]}]})
    assert [v.rule for v in report.violations] == ["sanmarco.v2.round_end"]
    ok = GAME.score({"variant": 2, "points": [50, 60], "passages": [{"limits": [10, 8]}]})
    assert ok.valid


def test_variant_2_no_extra_round_after_the_limit() -> None:
    report = GAME.score({"variant": 2, "points": [50, 60], "passages": [{"limits": [19, 4]}]})
    assert [v.rule for v in report.violations] == ["sanmarco.v2.no_extra_round"]


def test_variant_2_the_player_under_10_gets_the_gap_as_bonus() -> None:
    summary = {"variant": 2, "points": [50, 60], "passages": [{"limits": [12, 7], "bonus": [0, 5]}]}
    report = GAME.score(summary)
    assert report.valid
    assert report.result is not None
    assert report.result["passages"][0]["bonus_due"] == [0, 5]
    wrong = GAME.score({**summary, "passages": [{"limits": [12, 7], "bonus": [0, 3]}]})
    assert [v.rule for v in wrong.violations] == ["sanmarco.v2.bonus"]


def test_the_score_command_prints_final_and_winner(tmp_path: object) -> None:
    import io

    out = io.StringIO()
    path = f"{tmp_path}/s.json"
    with open(path, "w") as f:
        json.dump({"variant": 3, "points": [[55, 66], [57, 61]]}, f)
    assert main(["sanmarco", "score", path], out) == 0
    answer = json.loads(out.getvalue())
    assert answer["final"] == [58, 59] and answer["winner"] == 1 and answer["scores"] == [58, 59]


@pytest.mark.parametrize("name", ["variant1", "variant2", "variant3"])
def test_the_scoring_round_ends_in_the_variants_score(name: str) -> None:
    state = GAME.new_game(GAME.ruleset(name), 1)
    play(GAME, state, [RandomBot(1), RandomBot(2)])
    result = state.outcome().detail
    assert list(state.outcome().scores) == result["scores"]
