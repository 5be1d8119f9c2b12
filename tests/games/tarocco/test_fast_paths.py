"""The engine's quick ways give what the plain ways give: the deal a seed makes, the discard
choices listed lazily, the shared action objects, the play fast path and the Outcome worked
out when first asked for."""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

import pytest

from games.core import RecordError, rng
from games.tarocco import GAME, Discard, Phase, Play, TaroccoState
from games.tarocco import cards as C
from games.tarocco.game import shuffled_pack
from games.tarocco.scoring import score_hand
from games.tarocco.state import SIGNALS, Bid, DiscardChoices

from .helpers import at_play, state

RULESETS = list(GAME.rulesets)


@pytest.mark.parametrize("seed", [*range(300), 9876543210, -7, 2**70])
def test_the_pack_a_seed_deals_is_the_seeded_shuffle_of_the_ordered_pack(seed: int) -> None:
    pack = list(range(C.PACK_SIZE))
    rng(seed, "deck").shuffle(pack)
    assert shuffled_pack(seed) == pack
    assert GAME.new_game(GAME.ruleset(), seed).deck == pack


def _at_discard(ruleset: str) -> TaroccoState:
    bids = [{"seat": 0, "bid": "tengo"}]
    if not GAME.ruleset(ruleset).tengo_closes:
        bids += [{"seat": x, "bid": "vado"} for x in (1, 2, 3)]
    s = state({}, [*bids, {"seat": 0, "solo": True}], ruleset=ruleset)
    assert s.phase is Phase.DISCARD and s.to_act() == 0
    return s


@pytest.mark.parametrize("ruleset", RULESETS)
def test_discard_choices_are_every_three_of_the_allowed_cards_in_order(ruleset: str) -> None:
    s = _at_discard(ruleset)
    legal = s.legal_actions(0)
    assert isinstance(legal, DiscardChoices)
    full = [Discard(t) for t in combinations(s.discardable(0), 3)]
    assert list(legal) == full and len(legal) == len(full)
    assert legal == full and legal == tuple(full) and full == legal
    assert legal != full[:-1] and legal != [*full[:-1], Discard((0, 1, 2))]
    for i in (0, 1, 17, len(full) - 1, -1, -len(full)):
        assert legal[i] == full[i]
    assert legal[3:9] == full[3:9] and legal[::-50] == full[::-50]
    with pytest.raises(IndexError):
        legal[len(full)]
    assert all(a in legal for a in full)
    assert legal.index(full[40]) == 40 and legal.count(full[40]) == 1


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_discard_is_among_the_choices_exactly_when_the_full_list_holds_it(ruleset: str) -> None:
    s = _at_discard(ruleset)
    legal = s.legal_actions(0)
    full = set(combinations(s.discardable(0), 3))
    hand = sorted(s.hands[0])
    others = [c for c in range(C.PACK_SIZE) if c not in hand]
    pool = hand + others[:4]
    chooser = random.Random(5)
    for _ in range(3000):
        cards = tuple(chooser.choice(pool) for _ in range(chooser.choice((2, 3, 3, 3, 4))))
        assert (Discard(cards) in legal) == (cards in full), cards
    a, b, c = next(iter(full))
    assert Discard((a, b, c)) in legal
    assert Discard((c, b, a)) not in legal  # the list holds each three once, in order
    assert Discard([a, b, c]) not in legal  # type: ignore[arg-type]
    assert Play(a) not in legal and Bid("vado") not in legal


def test_the_legal_lists_handed_out_are_the_callers_own() -> None:
    s = GAME.new_game(GAME.ruleset(), 4)
    seat = s.to_act()
    assert seat is not None
    first = s.legal_actions(seat)
    assert isinstance(first, list)
    before = list(first)
    first.clear()
    assert s.legal_actions(seat) == before
    assert before[:2] == [Bid("vado"), Bid("tengo")]
    assert before[2:] == [Bid("offro", x) for x in range(1, GAME.ruleset().max_offer + 1)]


def _every_play(s: TaroccoState, seat: int) -> list[Play]:
    return [Play(c, sig) for c in range(C.PACK_SIZE) for sig in (None, *SIGNALS, "nonsense")]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_play_is_legal_exactly_when_check_finds_nothing(ruleset: str) -> None:
    chooser = random.Random(ruleset)
    played = 0
    for seed in range(12):
        s = GAME.new_game(GAME.ruleset(ruleset), seed)
        while not s.is_over():
            seat = s.to_act()
            assert seat is not None
            legal = s.legal_actions(seat)
            if s.phase is Phase.BARGAIN and chooser.random() < 0.5:
                action: Any = Bid("tengo")
            else:
                action = legal[chooser.randrange(len(legal))]
            if s.phase is Phase.PLAY:
                played += 1
                allowed = set(legal)
                assert len(allowed) == len(legal)
                for play in _every_play(s, seat):
                    assert (play in allowed) == (s.check(seat, play) == []), play
                for other in range(4):
                    if other != seat:
                        assert s.legal_actions(other) == []
            s.apply_unchecked(seat, action)
    assert played > 100


def test_the_play_fast_path_refuses_what_the_long_way_refuses() -> None:
    s = at_play({0: "SK T5", 1: "S5 T6"}, leader=0)
    with pytest.raises(RecordError):
        s.apply_unchecked(0, Play(C.BY_CODE["S5"]))  # not held
    with pytest.raises(RecordError):
        s.apply_unchecked(1, Play(C.BY_CODE["S5"]))  # not the seat's turn
    assert s.hands[0] == [C.BY_CODE["SK"], C.BY_CODE["T5"]] and s.trick == []
    s.apply_unchecked(0, Play(C.BY_CODE["SK"], "knock"))
    assert s.trick == [(0, C.BY_CODE["SK"])] and s.signals == [(1, 0, "knock")]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_outcome_is_worked_out_once_asked_and_scores_the_summary(ruleset: str) -> None:
    for seed in range(30):
        s = GAME.new_game(GAME.ruleset(ruleset), seed)
        chooser = random.Random(seed)
        while not s.is_over():
            with pytest.raises(ValueError):
                s.outcome()
            seat = s.to_act()
            assert seat is not None
            legal = s.legal_actions(seat)
            s.apply_unchecked(seat, legal[chooser.randrange(len(legal))])
        out = s.outcome()
        assert out is s.outcome()
        assert list(out.scores) == score_hand(s.summary())
        assert s.termination is not None and out.termination == s.termination.value
