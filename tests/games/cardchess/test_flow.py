"""Deals, turns, the reshuffle, the last turn, the end of a sfida and the gold cards."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from games.cardchess import GAME, CardChessState, Play, Resolve
from games.cardchess import cards as C
from games.cardchess.bots import HeuristicBot
from games.core import RandomBot

from .helpers import deck_with, record


def step(state: CardChessState, bots: list[Any]) -> None:
    seat = state.to_act()
    assert seat is not None
    state.apply_unchecked(seat, bots[seat].choose(state, seat))


def test_the_deck_is_the_published_list() -> None:
    deck = Counter(C.CODES[c] for c in GAME.ruleset("2p").deck())
    assert sum(deck.values()) == 38
    assert deck["bC"] == deck["gC"] == 2
    for colour in "bg":
        for card in ("G", "K", "Q", "Nl", "Nd", "Rl", "Rd", "Bl", "Bd"):
            assert deck[colour + card] == 1
        for v in range(1, 5):
            assert deck[f"{colour}P{v}l"] == deck[f"{colour}P{v}d"] == 1


def test_three_players_merge_two_decks_and_four_drop_a_value_1_pawn() -> None:
    assert len(GAME.ruleset("3p").deck()) == 76
    four = Counter(C.CODES[c] for c in GAME.ruleset("4p").deck())
    assert sum(four.values()) == 75 and four["bP1l"] == 1 and four["gP1l"] == 2
    assert GAME.ruleset("3p").gold == GAME.ruleset("4p").gold == 8
    assert GAME.ruleset("2p").gold == 4


@pytest.mark.parametrize(("name", "pile"), [("2p", 27), ("3p", 61), ("4p", 56)])
def test_four_cards_each_and_three_face_up_on_the_table(name: str, pile: int) -> None:
    state = GAME.new_game(GAME.ruleset(name), 5)
    assert all(len(h) == 4 for h in state.b.hands)
    assert len(state.b.table) == 3
    assert len(state.b.pile) == pile


def test_the_deal_follows_the_deck_order() -> None:
    prefix = ["bK", "bQ", "bC", "bG", "gK", "gQ", "gC", "gG", "bP1l", "gP1l", "bNl"]
    state = GAME.start(record(prefix, []))
    assert [C.CODES[c] for c in state.b.hands[0]] == prefix[:4]
    assert [C.CODES[c] for c in state.b.hands[1]] == prefix[4:8]
    assert [C.CODES[c] for c in state.b.table] == prefix[8:]


def test_each_player_keeps_one_card_in_hand() -> None:
    prefix = ["bK", "bQ", "bC", "bG", "gK", "gQ", "gC", "gG", "bP1l", "gP1l", "bNl"]
    short = record(prefix, [{"seat": 0, "play": ["bK", "bQ", None]}])
    assert [v.rule for v in GAME.validate(short).violations] == ["cardchess.play.count"]
    state = GAME.start(record(prefix, []))
    assert state.must_play(0) == 3
    assert all(sum(c >= 0 for c in a.cards) == 3 for a in state.legal_actions(0))


def test_a_card_not_in_hand_cannot_be_played() -> None:
    prefix = ["bK", "bQ", "bC", "bG", "gK", "gQ", "gC", "gG", "bP1l", "gP1l", "bNl"]
    verdict = GAME.validate(record(prefix, [{"seat": 0, "play": ["bK", "bQ", "gK"]}]))
    rules = [v.rule for v in verdict.violations]
    assert rules == ["cardchess.play.in_hand", "cardchess.record.impossible"]


def test_plays_go_in_seat_order_and_the_dealer_reveals() -> None:
    prefix = ["bK", "bQ", "bC", "bG", "gK", "gQ", "gC", "gG", "bP1l", "gP1l", "bNl"]
    verdict = GAME.validate(record(prefix, [{"seat": 1, "play": ["gK", "gQ", "gC"]}]))
    assert verdict.violations[0].rule == "cardchess.turn.order"
    actions = [
        {"seat": 0, "play": ["bK", "bQ", "bC"]},
        {"seat": 1, "play": ["gK", "gQ", "gC"]},
        {"seat": 0, "resolve": 1, "taker": None},
    ]
    verdict = GAME.validate(record(prefix, actions))
    assert verdict.violations[0].rule == "cardchess.resolve.order"


def _play_until(state: CardChessState, done: Any, seed: int = 1) -> None:
    bots = [RandomBot(seed + i) for i in range(state.n)]
    for _ in range(GAME.info.max_actions):
        if done(state):
            return
        step(state, bots)
    raise AssertionError("never reached")


def test_the_discards_are_reshuffled_once_and_dealt_table_first_one_at_a_time() -> None:
    state = GAME.new_game(GAME.ruleset("2p"), 4)
    _play_until(state, lambda s: s.b.reshuffled)
    order = state.deals[0].reshuffle
    assert order is not None
    kept = [h[0] for h in state.b.hands]  # the card each player kept from the last turn
    assert state.b.table[0] == order[0]
    assert state.b.hands[0] == [kept[0], order[1], order[4], order[7]][: len(state.b.hands[0])]
    assert state.b.hands[1][1] == order[2]
    assert state.b.table[1] == order[3]


def test_the_sfida_ends_when_the_reshuffled_deck_is_used_up() -> None:
    state = GAME.new_game(GAME.ruleset("2p"), 9)
    _play_until(state, lambda s: s.b.reshuffled)
    _play_until(state, lambda s: len(s.results) == 1)
    assert state.sfida == 1 and not state.b.reshuffled


def test_the_short_last_turn_keeps_one_card_and_the_kept_card_is_discarded() -> None:
    seen_short = 0
    for seed in range(30):
        state = GAME.new_game(GAME.ruleset("2p"), seed)
        bots = [RandomBot(seed), RandomBot(seed + 1)]
        while not state.is_over() and state.sfida == 0:
            board = state.b
            if state.resolve_at < 0 and board.last_turn:
                for s in range(2):
                    h, k = len(board.hands[s]), len(board.table)
                    if board.plays[s] is None:
                        assert state.must_play(s) == max(0, min(k, h - 1))
                        # the discards come in threes, so the one-at-a-time deal always
                        # leaves each hand one card more than the table
                        assert h == k + 1
                        seen_short += k < 3
            step(state, bots)
            if state.b is not board:  # the sfida closed: hands were emptied into the discards
                assert all(not h for h in board.hands)
                total = Counter(board.discard)
                for cs in board.captured:
                    total.update(cs)
                assert total == Counter(state.ruleset.deck())
    assert seen_short > 0


def test_three_players_last_turn_is_three_cards_each_and_four_on_the_table() -> None:
    state = GAME.new_game(GAME.ruleset("3p"), 2)
    _play_until(state, lambda s: s.b.last_turn and s.resolve_at < 0)
    assert len(state.b.table) == 4
    assert all(len(h) == 4 for h in state.b.hands)
    assert len(state.b.pile) == 0
    assert state.must_play(0) == 4


def test_four_players_end_with_a_short_last_turn() -> None:
    state = GAME.new_game(GAME.ruleset("4p"), 2)
    _play_until(state, lambda s: s.b.last_turn and s.resolve_at < 0)
    assert len(state.b.table) == 3 and all(len(h) == 3 for h in state.b.hands)
    assert state.must_play(0) == 3


def test_no_reshuffle_with_three_or_four_players() -> None:
    for name in ("3p", "4p"):
        state = GAME.new_game(GAME.ruleset(name), 3)
        _play_until(state, lambda s: s.is_over())
        assert all(d.reshuffle is None for d in state.deals)


def test_two_players_play_until_the_four_gold_cards_are_taken() -> None:
    for seed in range(20):
        state = GAME.new_game(GAME.ruleset("2p"), seed)
        _play_until(state, lambda s: s.is_over(), seed)
        out = state.outcome()
        assert sum(out.scores) == 4
        assert out.termination == "gold_taken"
        ties = [r for r in out.detail["sfide"] if r["gold"] is None]
        assert all(len(set(r["points"])) == 1 for r in ties)
        if out.scores[0] != out.scores[1]:
            assert out.winners == (0 if out.scores[0] > out.scores[1] else 1,)
        else:
            assert out.winners == ()


@pytest.mark.parametrize("name", ["3p", "4p"])
def test_the_first_to_three_gold_cards_wins(name: str) -> None:
    for seed in range(10):
        state = GAME.new_game(GAME.ruleset(name), seed)
        _play_until(state, lambda s: s.is_over(), seed)
        out = state.outcome()
        if out.termination == "three_gold":
            assert out.scores[out.winners[0]] == 3 and sum(out.scores) <= 8
        else:
            assert out.termination == "deciding_sfida"


def test_a_wrong_gold_count_is_found() -> None:
    state = GAME.new_game(GAME.ruleset("2p"), 7)
    _play_until(state, lambda s: s.is_over())
    rec = state.to_record()
    right = list(state.outcome().scores)
    assert GAME.validate({**rec, "claimed_scores": right}).valid
    wrong = [right[0] + 1, right[1] - 1]
    verdict = GAME.validate({**rec, "claimed_scores": wrong})
    assert [v.rule for v in verdict.violations] == ["cardchess.gold.count"]


def test_a_typed_record_without_seed_waits_for_its_next_deal() -> None:
    state = GAME.new_game(GAME.ruleset("2p"), 7)
    _play_until(state, lambda s: s.is_over())
    rec = state.to_record()
    del rec["seed"]
    rec["deal"]["sfide"] = rec["deal"]["sfide"][:1]
    verdict = GAME.validate(rec)
    assert not verdict.complete
    assert verdict.violations[-1].rule == "cardchess.record.impossible"


def test_a_deck_that_is_not_the_rulesets_is_a_record_error() -> None:
    from games.core import RecordError

    rec = record([], [])
    rec["deal"]["sfide"][0]["deck"][0] = "gQ"
    with pytest.raises(RecordError, match="deck"):
        GAME.start(rec)


def test_views_hide_other_hands_and_face_down_cards() -> None:
    state = GAME.new_game(GAME.ruleset("2p"), 1)
    bots = [HeuristicBot(1), HeuristicBot(2)]
    step(state, bots)  # seat 0 places its cards face down
    other = state.view(1)
    assert "hand" in other and other["hand"] == [C.CODES[c] for c in state.b.hands[1]]
    assert other["plays"][0] == [True, True, True]
    mine = state.view(0)
    assert all(isinstance(c, str) for c in mine["plays"][0])
    spectator = state.view(None)
    assert spectator["hand"] is None
    assert "deck" not in str(spectator) and spectator["pile"] == 27


def test_resolve_and_play_encode_and_decode() -> None:
    for action in (Play((C.BY_CODE["bK"], -1, C.BY_CODE["gC"])), Resolve(2, None), Resolve(0, 1)):
        assert GAME.decode_action({"seat": 0, **GAME.encode_action(action)}) == action


def test_records_round_trip_from_a_typed_deal() -> None:
    state = GAME.new_game(GAME.ruleset("3p"), 12)
    _play_until(state, lambda s: s.is_over())
    rec = state.to_record()
    del rec["seed"]
    replayed = GAME.start(rec)
    for raw in rec["actions"]:
        replayed.apply(*GAME.decode_step(raw, "a"))
    assert replayed.to_record() == rec
    assert replayed.outcome() == state.outcome()


def test_deck_with_helper_builds_a_full_deck() -> None:
    assert len(deck_with(["bK"])) == 38


def test_a_reshuffle_that_is_not_the_discard_pile_stops_the_replay() -> None:
    state = GAME.new_game(GAME.ruleset("2p"), 4)
    _play_until(state, lambda s: s.b.reshuffled)
    rec = state.to_record()
    del rec["seed"]
    rec["deal"]["sfide"][0]["reshuffle"] = rec["deal"]["sfide"][0]["reshuffle"][1:]
    verdict = GAME.validate(rec)
    assert verdict.violations[-1].rule == "cardchess.record.impossible"
    assert "reshuffle" in verdict.violations[-1].message["en"]


def test_four_players_level_at_two_gold_each_play_a_deciding_sfida() -> None:
    state = GAME.new_game(GAME.ruleset("4p"), 0)
    bots = [RandomBot(0 * 7 + i) for i in range(4)]
    while not state.is_over():
        step(state, bots)
    out = state.outcome()
    assert out.termination == "deciding_sfida"
    assert out.scores == (2, 2, 2, 2)
    last = out.detail["sfide"][-1]
    assert last["deciding"] and last["gold"] is None
    assert out.winners == (last["points"].index(max(last["points"])),)


def test_counting_only_table_pieces_is_an_option() -> None:
    ruleset = GAME.ruleset({"name": "2p", "counted": "table"})
    state = GAME.new_game(ruleset, 3)
    bots = [RandomBot(1), RandomBot(2)]
    board = state.b
    while state.b is board:
        step(state, bots)
    expected = [C.sfida_points(p)[0] for p in board.pieces]
    assert state.results[0].points == expected
    everything = [C.sfida_points(cs)[0] for cs in board.captured]
    assert expected != everything
