"""A cardChess hint: positions set from the capture rules, the move the hint suggests and its
reason, naming the rule it rests on."""

from __future__ import annotations

from games.cardchess import GAME
from games.cardchess import cards as C
from games.core.hints import hint, rule_of


def _position(hand: list[str], table: list[str]) -> object:
    state = GAME.new_game(GAME.ruleset(), 5)
    state.b.hands[0] = [C.BY_CODE[c] for c in hand]
    state.b.table = [C.BY_CODE[c] for c in table]
    assert state.to_act() == 0
    return state


def test_the_hint_puts_the_one_card_able_to_capture_under_its_piece() -> None:
    # Blue takes green only (cardchess.capture.colour); a dark square takes dark or white
    # (cardchess.capture.square); a green 3 on a light square takes the blue light 2.
    state = _position(["gP3l", "gP1d", "gP2d", "gP4d"], ["bP2l", "gP1l", "gC"])
    action, why = hint(GAME, state, 0, 9)
    assert action.cards[0] == C.BY_CODE["gP3l"]
    assert C.BY_CODE["gP3l"] not in action.cards[1:]
    assert why.en.startswith("Green Pawn 3 (light square) under blue Pawn 2 (light square) can")
    assert "worth 1 point" in why.en and "può catturarlo" in why.it
    assert rule_of(why) == "cardchess.capture.higher"


def test_with_no_capture_the_hint_keeps_the_card_worth_most_points() -> None:
    # Dark blue cards never take green pieces on light squares; a Knight is worth 2 points,
    # a pawn 1 (cardchess.score.points): the Knight stays in hand.
    state = _position(["bP1d", "bP2d", "bNd", "bP3d"], ["gP1l", "gP2l", "gNl"])
    action, why = hint(GAME, state, 0, 9)
    assert C.BY_CODE["bNd"] not in action.cards
    assert "keep blue Knight (dark square) in hand" in why.en
    assert "tieni in mano Cavallo blu (casa scura)" in why.it
    assert rule_of(why) == "cardchess.play.count"
