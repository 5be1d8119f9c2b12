"""Capture rules: colour, square, value, the # cards, the higher card, equal cards."""

from __future__ import annotations

import pytest

from games.cardchess import GAME
from games.cardchess import cards as C

from .helpers import record

T = C.tables(C.PUBLISHED_ROOKS)


def why(card: str, target: str) -> str | None:
    return T.why_not[C.BY_CODE[card]][C.BY_CODE[target]]


def test_blue_takes_green_and_green_takes_blue() -> None:
    assert why("bNl", "gP4l") is None
    assert why("gNl", "bP4l") is None


def test_a_card_of_the_pieces_own_colour_never_captures_it() -> None:
    assert why("bQ", "bP1l") == "cardchess.capture.colour"


@pytest.mark.parametrize(
    ("card", "target", "rule"),
    [
        ("bNl", "gP2l", None),
        ("bNl", "gK", None),
        ("bNl", "gP2d", "cardchess.capture.square"),
        ("bNd", "gP2d", None),
        ("bNd", "gBl", "cardchess.capture.square"),
        ("bK", "gNd", None),
        ("bK", "gNl", None),
    ],
)
def test_light_takes_light_or_white_dark_takes_dark_or_white_white_takes_all(
    card: str, target: str, rule: str | None
) -> None:
    assert why(card, target) == rule


def test_a_card_needs_a_value_equal_or_above_the_piece() -> None:
    assert why("bP3l", "gP3l") is None
    assert why("bP2l", "gP3l") == "cardchess.capture.value"
    assert why("bK", "gBl") == "cardchess.capture.value"
    assert why("bQ", "gBl") is None


def test_hash_cards_take_only_pawns_and_hash_cards() -> None:
    assert why("bC", "gP4d") is None
    assert why("bG", "gC") is None
    assert why("bC", "gNl") == "cardchess.capture.hash"
    assert why("bG", "gK") == "cardchess.capture.hash"


def test_pawns_never_take_hash_cards_but_other_pieces_do() -> None:
    assert why("gP4l", "bC") == "cardchess.capture.hash"
    assert why("gP1d", "bG") == "cardchess.capture.hash"
    assert why("gNl", "bC") is None
    assert why("gK", "bG") is None


def test_the_published_rooks_are_blue_6_and_green_5_and_it_is_an_option() -> None:
    assert T.value[C.BY_CODE["bRl"]] == 6 and T.value[C.BY_CODE["gRl"]] == 5
    assert why("gRl", "bRl") == "cardchess.capture.value"
    even = C.tables((6, 6))
    assert even.why_not[C.BY_CODE["gRl"]][C.BY_CODE["bRl"]] is None
    assert GAME.ruleset({"name": "2p", "rook_values": [6, 6]}).rook_values == (6, 6)


# seat 0 gets the first four cards, seat 1 the next four, then three table cards
HANDS = ["bNl", "bP1d", "bQ", "bP2l", "gNd", "gP1l", "gC", "gP3d"]
TABLE = ["gP4d", "bC", "gP2l"]
PLAYS = [
    {"seat": 0, "play": ["bNl", "bP1d", "bQ"]},
    {"seat": 1, "play": ["gNd", "gP1l", "gC"]},
]


def test_the_right_resolution_is_valid() -> None:
    actions = [
        *PLAYS,
        {"seat": 0, "resolve": 0, "taker": None},
        {"seat": 0, "resolve": 1, "taker": None},
        {"seat": 0, "resolve": 2, "taker": 0},
    ]
    verdict = GAME.validate(record(HANDS + TABLE, actions))
    assert verdict.valid, verdict.to_json()


def test_a_capture_the_square_rule_forbids_is_found() -> None:
    actions = [*PLAYS, {"seat": 0, "resolve": 0, "taker": 0}]
    verdict = GAME.validate(record(HANDS + TABLE, actions))
    assert [v.rule for v in verdict.violations] == ["cardchess.capture.square"]
    assert verdict.violations[0].step == 2


def test_a_capture_the_hash_rule_forbids_is_found() -> None:
    actions = [
        *PLAYS,
        {"seat": 0, "resolve": 0, "taker": None},
        {"seat": 0, "resolve": 1, "taker": 1},
    ]
    verdict = GAME.validate(record(HANDS + TABLE, actions))
    assert [v.rule for v in verdict.violations] == ["cardchess.capture.hash"]


def test_a_capture_by_the_pieces_own_colour_is_found() -> None:
    actions = [
        *PLAYS,
        {"seat": 0, "resolve": 0, "taker": None},
        {"seat": 0, "resolve": 1, "taker": 0},
    ]
    verdict = GAME.validate(record(HANDS + TABLE, actions))
    assert [v.rule for v in verdict.violations] == ["cardchess.capture.colour"]


def test_a_missed_capture_is_found() -> None:
    actions = [
        *PLAYS,
        {"seat": 0, "resolve": 0, "taker": None},
        {"seat": 0, "resolve": 1, "taker": None},
        {"seat": 0, "resolve": 2, "taker": None},
    ]
    verdict = GAME.validate(record(HANDS + TABLE, actions))
    assert [v.rule for v in verdict.violations] == ["cardchess.capture.missed"]


def _contest(card0: str, card1: str, target: str, taker: int | None) -> list[str]:
    hands = [card0, "bP1d", "bP2d", "bP3d", card1, "gP1d", "gP2d", "gP3d"]
    table = [target, "bP4d", "gP4d"]
    actions = [
        {"seat": 0, "play": [card0, "bP1d", "bP2d"]},
        {"seat": 1, "play": [card1, "gP1d", "gP2d"]},
        {"seat": 0, "resolve": 0, "taker": taker},
    ]
    verdict = GAME.validate(record(hands + table, actions))
    return [v.rule for v in verdict.violations]


def test_the_higher_capturing_card_takes() -> None:
    assert _contest("bP3l", "bK", "gP2l", 1) == []
    assert _contest("bP3l", "bK", "gP2l", 0) == ["cardchess.capture.higher"]


def test_equal_capturing_cards_take_nothing() -> None:
    assert _contest("bNl", "bK", "gP2l", None) == []
    assert _contest("bNl", "bK", "gP2l", 0) == ["cardchess.capture.equal"]


def test_a_number_beats_a_hash_card_in_a_contest() -> None:
    assert _contest("bC", "bP1l", "gP1l", 1) == []
    assert _contest("bC", "bP1l", "gP1l", 0) == ["cardchess.capture.higher"]


def test_a_card_that_cannot_capture_does_not_compete() -> None:
    # seat 1's green queen is the highest card, but of the piece's colour
    assert _contest("bP3l", "gQ", "gP2l", 0) == []


def test_a_seat_with_no_card_there_cannot_take() -> None:
    hands = HANDS
    actions = [
        *PLAYS,
        {"seat": 0, "resolve": 0, "taker": 3},
    ]
    verdict = GAME.validate(record(hands + TABLE, actions))
    assert verdict.violations[0].rule == "cardchess.capture.no_card"


def test_the_capturer_gains_the_piece_and_every_card_played_on_it() -> None:
    actions = [
        *PLAYS,
        {"seat": 0, "resolve": 0, "taker": None},
        {"seat": 0, "resolve": 1, "taker": None},
        {"seat": 0, "resolve": 2, "taker": 0},
    ]
    state = GAME.start(record(HANDS + TABLE, actions))
    for raw in actions:
        state.apply(*GAME.decode_step(raw, "a"))
    assert sorted(C.CODES[c] for c in state.b.captured[0]) == sorted(["gP2l", "bQ", "gC"])
    assert sorted(C.CODES[c] for c in state.b.discard) == sorted(
        ["gP4d", "bNl", "gNd", "bC", "bP1d", "gP1l"]
    )
