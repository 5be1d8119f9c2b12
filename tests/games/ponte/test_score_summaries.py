"""`score`: a scorekeeper's summary to the match result and the players' ranking, with every
tie-breaker path (victories, back-up box, ex aequo) and the impossible summaries."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core.cli import main
from games.ponte import GAME

T = ("calci", "calcesana", "mattaccini", "san_michele", "santa_maria", "satiri")
M = ("delfini", "dragoni", "leoni", "san_marco", "san_martino", "sant_antonio")


def summary(
    ruleset: str, winners: str, left: list[list[int]] | None = None, **extra: Any
) -> dict[str, Any]:
    """winners: one letter per challenge, t or m; magistrature in order."""
    rows = []
    for k, w in enumerate(winners):
        row: dict[str, Any] = {
            "tramontana": T[k],
            "mezzogiorno": M[k],
            "winner": "tramontana" if w == "t" else "mezzogiorno",
        }
        if left is not None:
            row["left"] = left[k]
        rows.append(row)
    return {"ruleset": ruleset, "challenges": rows, **extra}


def rules(report: Any) -> list[str]:
    return [v.rule for v in report.violations]


def test_match_four_two_players_four_of_six_wins() -> None:
    report = GAME.score(summary("2p-base", "tttmmt"))
    assert report.valid
    assert report.result is not None
    assert report.result["winner"] == "tramontana"
    assert report.result["sides"] == [4, 2]
    assert report.result["scores"] == [4, 2]
    assert report.result["winners"] == [0]


def test_match_tiebreak_decides_3_3() -> None:
    tb = {"tramontana": "calci", "mezzogiorno": "leoni", "winner": "mezzogiorno"}
    report = GAME.score(summary("2p-base", "tttmmm", tie_breaker=tb))
    assert report.valid
    assert report.result is not None
    assert report.result["winner"] == "mezzogiorno"
    assert report.result["scores"] == [3, 4]


def test_match_tiebreak_missing_at_3_3_is_a_violation() -> None:
    report = GAME.score(summary("2p-base", "tttmmm"))
    assert rules(report) == ["ponte.match.tiebreak"]
    assert report.result is not None and report.result["winner"] is None


def test_match_tiebreak_written_without_a_draw_is_a_violation() -> None:
    tb = {"tramontana": "calci", "mezzogiorno": "leoni", "winner": "mezzogiorno"}
    report = GAME.score(summary("2p-base", "ttttmm", tie_breaker=tb))
    assert "ponte.match.tiebreak" in rules(report)


def test_deploy_once_a_magistratura_written_twice() -> None:
    s = summary("2p-base", "tttmmt")
    s["challenges"][1]["tramontana"] = "calci"
    assert "ponte.deploy.once" in rules(GAME.score(s))


def test_summary_challenges_six_are_needed() -> None:
    assert "ponte.summary.challenges" in rules(GAME.score(summary("2p-base", "tttmm")))


def test_summary_challenges_stop_at_four_ends_at_the_fourth_win() -> None:
    ok = GAME.score(summary({"name": "2p-base", "stop_at_four": True}, "tttt"))  # type: ignore[arg-type]
    assert ok.valid
    late = GAME.score(summary({"name": "2p-base", "stop_at_four": True}, "ttttm"))  # type: ignore[arg-type]
    assert "ponte.summary.challenges" in rules(late)


def test_summary_left_in_chips_and_not_above_the_assignment() -> None:
    left = [[0, 0]] * 6
    bad = summary("2p-base", "tttmmt", left=[[2500, 0], *left[1:]])
    assert "ponte.summary.left" in rules(GAME.score(bad))
    sheet = dict(zip(T, (110000, 90000, 90000, 90000, 60000, 60000), strict=True))
    sheet |= dict(zip(M, (110000, 90000, 90000, 90000, 60000, 60000), strict=True))
    over = summary("2p-base", "tttmmt", left=[[0, 0]] * 4 + [[65000, 0], [0, 0]], assignments=sheet)
    assert rules(GAME.score(over)) == ["ponte.summary.left"]


@pytest.mark.parametrize(
    ("ruleset", "most"),
    [("2p-base", 110000), ("4p-base", 105000), ("2p-advanced", 450000), ("6p-expert", 230000)],
)
def test_summary_left_never_exceeds_what_a_sheet_can_give(ruleset: str, most: int) -> None:
    left = [[0, 0]] * 6
    fine = summary(ruleset, "tttmmt", left=[[0, most], *left[1:]])
    assert GAME.score(fine).valid, GAME.score(fine).violations
    over = summary(ruleset, "tttmmt", left=[[0, most + 5000], *left[1:]])
    report = GAME.score(over)
    assert rules(report) == ["ponte.summary.left"]
    assert report.violations[0].where == {"challenge": 0, "field": "left_m"}


def test_power_base_values_summary_sheet_is_checked() -> None:
    sheet = dict.fromkeys(T, 90000) | dict(
        zip(M, (110000, 90000, 90000, 90000, 60000, 60000), strict=True)
    )
    assert "ponte.power.base_values" in rules(
        GAME.score(summary("2p-base", "tttmmt", assignments=sheet))
    )


def test_power_total_advanced_summary_sheet_is_checked() -> None:
    sheet = dict.fromkeys(T, 80000) | dict.fromkeys(M[:5], 80000) | {"sant_antonio": 100000}
    found = rules(GAME.score(summary("2p-advanced", "tttmmt", assignments=sheet)))
    assert found == ["ponte.power.total"]


def test_rank_victories_four_players_the_winning_side_player_with_more_wins() -> None:
    # Tramontana East is seat 0 (calci, calcesana, mattaccini), West seat 1
    report = GAME.score(summary("4p-base", "tttmmt"))
    assert report.result is not None
    assert report.result["victories"] == [3, 1, 0, 2]
    ranking = report.result["ranking"]
    assert [(r["seat"], r["place"], r["by"]) for r in ranking[:2]] == [
        (0, 1, "victories"),
        (1, 2, "victories"),
    ]
    assert report.result["winners"] == [0]


def test_rank_power_equal_victories_the_fuller_backup_box() -> None:
    left = [[0, 0], [0, 0], [5000, 0], [0, 0], [20000, 0], [0, 0]]
    report = GAME.score(summary("4p-base", "ttmtmt", left=left))
    assert report.result is not None
    assert report.result["victories"][:2] == [2, 2]
    assert report.result["backup"][:2] == [5000, 20000]
    first = report.result["ranking"][0]
    assert (first["seat"], first["place"], first["by"]) == (1, 1, "power")
    assert report.result["winners"] == [1]


def test_rank_ex_aequo_equal_victories_and_box() -> None:
    left = [[0, 0], [0, 0], [5000, 0], [0, 0], [5000, 0], [0, 0]]
    report = GAME.score(summary("4p-base", "ttmtmt", left=left))
    assert report.result is not None
    assert report.result["winners"] == [0, 1]
    assert {r["by"] for r in report.result["ranking"][:2]} == {"ex_aequo"}


def test_rank_side_six_players_the_general_and_both_players_win() -> None:
    report = GAME.score(summary("6p-base", "mmmmtt"))
    assert report.result is not None
    assert report.result["winners"] == [3, 4, 5]
    assert report.result["scores"][3] == 4  # the General scores the side's challenges


def test_rank_side_three_players_the_lone_commander_wins_alone() -> None:
    report = GAME.score(summary("3p-base", "ttttmm"))
    assert report.result is not None
    assert report.result["winners"] == [0]
    allied = GAME.score(summary("3p-base", "mmmmtt"))
    assert allied.result is not None
    assert allied.result["winners"] == [1]  # delfini, dragoni, leoni: the East player, 3 wins


def test_match_tiebreak_player_four_players_the_one_with_more_victories() -> None:
    tb = {"tramontana": "satiri", "mezzogiorno": "leoni", "winner": "tramontana"}
    # seat 0 (East) won 2, seat 1 won 1: seat 0 must play it, satiri is seat 1's
    report = GAME.score(summary("4p-base", "ttmmmt", tie_breaker=tb))
    assert "ponte.match.tiebreak_player" in rules(report)


def test_cli_score_exit_codes(tmp_path: Path) -> None:
    out = io.StringIO()
    good = json.dumps(summary("2p-base", "tttmmt"))
    bad = json.dumps(summary("2p-base", "tttmmm"))
    path = str(tmp_path / "summaries.jsonl")
    with open(path, "w", encoding="utf-8") as f:
        f.write(good + "\n" + bad + "\n")
    assert main(["ponte", "score", path], out) == 1
    lines = [json.loads(x) for x in out.getvalue().splitlines()]
    assert [x["valid"] for x in lines] == [True, False]
    with open(path, "w", encoding="utf-8") as f:
        f.write('{"ruleset": "2p-base", "challenges": [{"tramontana": "leoni"}]}')
    assert main(["ponte", "score", path], io.StringIO()) == 2


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(["2p-base", "3p-expert", "4p-advanced", "6p-base"]),
    st.lists(st.sampled_from("tm"), min_size=6, max_size=6),
    st.lists(st.integers(0, 6), min_size=12, max_size=12),
    st.sampled_from(["tramontana", "mezzogiorno"]),
)
def test_rank_side_winners_always_come_from_the_winning_side(
    name: str, winners: list[str], chips: list[int], tb_winner: str
) -> None:
    left = [[chips[2 * k] * 5000, chips[2 * k + 1] * 5000] for k in range(6)]
    s = summary(name, "".join(winners), left=left)
    tie = winners.count("t") == 3
    if tie:
        s["tie_breaker"] = {"tramontana": "calci", "mezzogiorno": "delfini", "winner": tb_winner}
    report = GAME.score(s)
    assert report.result is not None
    result = report.result
    assert sum(result["sides"]) == 6 + tie
    assert sum(result["victories"]) == 6 + tie
    winning_side = result["winner"]
    assert winning_side == (
        "tramontana" if result["sides"][0] > result["sides"][1] else "mezzogiorno"
    )
    by_seat = {r["seat"]: r for r in result["ranking"]}
    assert set(by_seat) == set(range(GAME.ruleset(name).seats))
    assert result["winners"]
    assert all(by_seat[w]["side"] == winning_side for w in result["winners"])
    places = sorted(r["place"] for r in result["ranking"])
    assert places[0] == 1
    # the only possible complaint is the tie-breaker player with 3 or 4 players
    assert {v.rule for v in report.violations} <= {"ponte.match.tiebreak_player"}
