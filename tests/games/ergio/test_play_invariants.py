"""Whole games with bots: invariants after every action, record round-trips, hidden views."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import RandomBot, play
from games.ergio import GAME, End
from games.ergio import cards as C
from games.ergio.bots import HeuristicBot
from games.ergio.state import ErGioState, Phase, side_of

RULESETS = list(GAME.rulesets)


def full_decks(state: ErGioState) -> Counter[int]:
    return Counter(C.deck(0, state.ruleset.advanced) + C.deck(1, state.ruleset.advanced))


def check_invariants(state: ErGioState) -> None:
    # card conservation across decks, hands, field, Arno, pile, kept and the bridge
    assert state.all_cards() == full_decks(state)
    for side in (0, 1):
        for unit, cards in state.field[side].items():
            assert C.unit_side(unit, side)
            if unit < C.UNIT_CEL:
                # one tris per magistratura: at most four cards, never four combattenti
                assert len(cards) <= 4
                assert not (len(cards) == 4 and all(C.IS_FIGHTER[c] for c in cards))
                assert all(C.UNIT_OF[c] in (unit, -1) for c in cards)
            assert unit in state.shown[side]
    for seat, hand in enumerate(state.hands):
        assert all(C.SIDE_OF[c] == side_of(seat) for c in hand)


def play_checked(name: str, seed: int, heuristic: bool) -> ErGioState:
    ruleset = GAME.ruleset(name)
    state = GAME.new_game(ruleset, seed)
    kind = HeuristicBot if heuristic else RandomBot
    bots = [kind(seed * 13 + i) for i in range(ruleset.seats)]
    for _ in range(GAME.info.max_actions):
        seat = state.to_act()
        if seat is None:
            break
        action = bots[seat].choose(state, seat)
        assert state.check(seat, action) == []  # bots only ever play legal actions
        if isinstance(action, End) and state.phase == Phase.CORTEO:
            assert not state.over_limit(seat)  # hand limit at the end of every turn
        state.apply_unchecked(seat, action)
        check_invariants(state)
    assert state.is_over()
    return state


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(RULESETS), st.integers(0, 10_000), st.booleans())
def test_every_ruleset_keeps_its_invariants_after_every_action(
    name: str, seed: int, heuristic: bool
) -> None:
    play_checked(name, seed, heuristic)


@pytest.mark.parametrize("name", RULESETS)
@pytest.mark.parametrize("heuristic", [False, True])
def test_record_round_trip_validates_and_scores_the_same(name: str, heuristic: bool) -> None:
    for seed in range(8):
        state = play_checked(name, seed, heuristic)
        record = json.loads(json.dumps(state.to_record()))
        verdict = GAME.validate(record)
        assert verdict.valid, verdict.to_json()["violations"][:3]
        assert verdict.outcome == state.outcome()
        summary = json.loads(json.dumps(state.summary()))
        report = GAME.score(summary)
        assert report.valid, report.violations
        assert report.result == state.outcome().detail


@pytest.mark.parametrize("name", RULESETS)
def test_view_never_shows_the_other_sides_hand_or_face_down_cards(name: str) -> None:
    ruleset = GAME.ruleset(name)
    state = GAME.new_game(ruleset, 5)
    bots = [HeuristicBot(i) for i in range(ruleset.seats)]
    for _ in range(GAME.info.max_actions):
        seat = state.to_act()
        if seat is None:
            break
        for viewer in range(ruleset.seats):
            view = state.view(viewer)
            text = json.dumps(view)
            assert "deal" not in view
            if state.phase == Phase.BATTLE:
                # face-down cards of the other side appear only as a count
                other = 1 - side_of(viewer)
                assert isinstance(view["battle"]["face_down"][other], int)
                for cards in state.bridge[other].values():
                    for c in cards:
                        assert view["battle"]["mine"] is None or C.CODES[c] not in str(
                            view["battle"]["mine"]
                        )
            for s, hand in enumerate(state.hands):
                if side_of(s) != side_of(viewer) and hand:
                    assert view["hand_sizes"][s] == len(hand)
            assert view["hand"] is not None
            mine = Counter(view["hand"])
            if ruleset.multi and state.phase != Phase.CORTEO:
                own = Counter(C.CODES[c] for c in state.pool(side_of(viewer)))
            else:
                own = Counter(C.CODES[c] for c in state.hands[viewer])
            assert mine == own
            del text
        state.apply_unchecked(seat, bots[seat].choose(state, seat))


def test_heuristic_beats_random_more_often_than_not() -> None:
    wins = 0
    for seed in range(30):
        state = GAME.new_game(GAME.ruleset("base"), seed)
        play(GAME, state, [HeuristicBot(seed), RandomBot(seed)])
        wins += 0 in state.outcome().winners
    assert wins > 15
