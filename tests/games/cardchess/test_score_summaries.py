"""`python -m games cardchess score`: one sfida from captured cards, a whole game from points."""

from __future__ import annotations

import io
import json

import pytest

from games.cardchess import GAME
from games.cardchess import cards as C
from games.core import RecordError
from games.core.cli import main


def test_pawn_castle_and_ghost_queen_1_king_5_other_pieces_2() -> None:
    assert C.sfida_points([C.BY_CODE[c] for c in ["bP4l", "gC", "bG"]]) == (3, 0)
    assert C.sfida_points([C.BY_CODE[c] for c in ["gK"]]) == (5, 0)
    assert C.sfida_points([C.BY_CODE[c] for c in ["bNl", "gRd", "bBl", "gQ"]]) == (8, 0)


def test_king_queen_and_castle_of_one_colour_make_a_reame_of_10() -> None:
    result = GAME.score({"captured": [["bK", "bQ", "bC", "gP1l"], ["gK", "gNl"]]}).result
    assert result is not None
    assert result["points"] == [19, 7] and result["reami"] == [1, 0]
    assert result["gold"] == 0 and result["scores"] == [19, 7]


def test_a_reame_needs_the_castle_not_the_ghost_queen() -> None:
    result = GAME.score({"captured": [["bK", "bQ", "bG"], []]}).result
    assert result is not None and result["reami"] == [0, 0]


def test_two_reami_are_worth_20() -> None:
    cards = ["bK", "bQ", "bC", "gK", "gQ", "gC"]
    result = GAME.score({"captured": [cards, []]}).result
    assert result is not None and result["reami"] == [2, 0]
    assert result["points"][0] == 5 + 2 + 1 + 5 + 2 + 1 + 20


def test_a_tied_sfida_takes_no_gold() -> None:
    result = GAME.score({"captured": [["bK"], ["gK"]]}).result
    assert result is not None and result["gold"] is None and result["tie"] is True


def test_more_cards_than_the_deck_holds_is_found() -> None:
    report = GAME.score({"captured": [["bK"], ["bK"]]})
    assert [v.rule for v in report.violations] == ["cardchess.deal.composition"]
    ok = GAME.score({"players": 3, "captured": [["bK"], ["bK"], []]})
    assert ok.valid


def test_two_players_game_ends_when_the_four_gold_cards_are_taken() -> None:
    summary = {"sfide": [[20, 10], [5, 5], [12, 14], [30, 2], [9, 1]], "gold": [3, 1]}
    report = GAME.score(summary)
    assert report.valid
    result = report.result
    assert result is not None
    assert result["gold"] == [3, 1] and result["winner"] == 0 and result["complete"]
    assert [s["gold"] for s in result["sfide"]] == [0, None, 1, 0, 0]


def test_a_two_two_split_is_a_draw() -> None:
    result = GAME.score({"sfide": [[2, 1], [1, 2], [2, 1], [1, 2]]}).result
    assert result is not None and result["winner"] is None and result["complete"]


def test_a_wrong_gold_count_in_a_summary_is_found() -> None:
    report = GAME.score({"sfide": [[20, 10], [12, 14], [30, 2], [9, 1]], "gold": [2, 2]})
    assert [v.rule for v in report.violations] == ["cardchess.gold.count"]


def test_a_sfida_after_the_end_is_found() -> None:
    report = GAME.score({"sfide": [[2, 1], [2, 1], [2, 1], [2, 1], [2, 1]]})
    assert [v.rule for v in report.violations] == ["cardchess.game.end"]


def test_impossible_sfida_points_are_found() -> None:
    report = GAME.score({"sfide": [[60, 30]]})
    assert [v.rule for v in report.violations] == ["cardchess.score.total"]


def test_three_players_first_to_three_gold_wins() -> None:
    result = GAME.score({"players": 3, "sfide": [[5, 1, 1], [6, 1, 1], [7, 1, 1]]}).result
    assert result is not None and result["winner"] == 0 and result["termination"] == "three_gold"


def test_four_players_level_on_gold_play_a_deciding_sfida() -> None:
    sfide = [[9, 0, 0, 0], [0, 9, 0, 0], [0, 0, 9, 0], [0, 0, 0, 9]] * 2
    result = GAME.score({"players": 4, "sfide": [*sfide, [1, 1, 1, 1], [1, 4, 1, 1]]}).result
    assert result is not None
    assert result["gold"] == [2, 2, 2, 2]
    assert result["winner"] == 1 and result["termination"] == "deciding_sfida"
    assert result["sfide"][-1]["deciding"] is True


@pytest.mark.parametrize(
    "summary",
    [
        {"captured": [["bK"]]},
        {"captured": [["xK"], []]},
        {"players": 5, "sfide": [[1] * 5]},
        {"sfide": [[1, "2"]]},
        {"sfide": []},
        {"nothing": True},
    ],
)
def test_malformed_summaries_are_record_errors(summary: dict[str, object]) -> None:
    with pytest.raises(RecordError):
        GAME.score(summary)


def test_the_score_command_answers_with_the_gold_and_the_winner(tmp_path: object) -> None:
    path = f"{tmp_path}/game.jsonl"
    with open(path, "w") as f:
        f.write(json.dumps({"sfide": [[20, 10], [12, 14], [30, 2], [9, 1]]}) + "\n")
        f.write(json.dumps({"captured": [["bK", "bQ", "bC"], ["gK"]]}) + "\n")
    out = io.StringIO()
    assert main(["cardchess", "score", path], out) == 0
    game, sfida = [json.loads(line) for line in out.getvalue().splitlines()]
    assert game["winner"] == 0 and game["scores"] == [3, 1]
    assert sfida["reami"] == [1, 0] and sfida["gold"] == 0


def test_deal_composition_four_players_accept_any_value_1_pawn_as_the_one_taken_out() -> None:
    pawns = ["bP1l", "bP1d", "gP1l", "gP1d"]
    for missing in pawns:  # two decks less one value-1 pawn, whichever it was
        captured = [p for p in pawns for _ in range(2)]
        captured.remove(missing)
        report = GAME.score({"players": 4, "captured": [captured, [], [], []]}, "4p")
        assert report.valid, (missing, report.violations)
    every = [p for p in pawns for _ in range(2)]
    report = GAME.score({"players": 4, "captured": [every, [], [], []]}, "4p")
    assert [v.rule for v in report.violations] == ["cardchess.deal.composition"]
