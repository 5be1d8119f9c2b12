"""Seeded bot smazzate for every ruleset: conservation, the 109 total, replay and
round-trip through the notation; views that never leak a hidden card."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from games.core import RandomBot, play
from games.tarocco import GAME, HeuristicBot, Phase, TaroccoState
from games.tarocco import cards as C

RULESETS = list(GAME.rulesets)


def bots(kind: str, seed: int) -> list[Any]:
    make = RandomBot if kind == "random" else HeuristicBot
    return [make(seed * 31 + i) for i in range(4)]


def visible_codes(obj: Any) -> set[str]:
    if isinstance(obj, str):
        return {obj} if obj in C.BY_CODE else set()
    if isinstance(obj, dict):
        return set().union(*(visible_codes(v) for v in obj.values())) if obj else set()
    if isinstance(obj, list):
        return set().union(*(visible_codes(v) for v in obj)) if obj else set()
    return set()


def hidden_from(s: TaroccoState, seat: int) -> set[str]:
    hidden = {c for other in range(4) if other != seat for c in s.hands[other]}
    if s.phase == Phase.BARGAIN:
        hidden |= set(s.deck[40:])
    elif s.monte_taker is None:
        hidden |= set(s.monte)
    elif seat != s.monte_taker:
        hidden |= set(s.discard)
    if s.monte_shown:
        hidden -= set(s.monte)
    if s.called is not None:
        hidden.discard(s.called)
    if seat == s.dealer and s.ruleset.dealer_sees_bottom:
        hidden.discard(s.deck[-1])
    return set(C.codes(hidden))


def check_playout(ruleset: str, kind: str, seed: int, watch_views: bool = False) -> str:
    rs = GAME.ruleset(ruleset)
    s = GAME.new_game(rs, seed)
    players = bots(kind, seed)
    for _ in range(GAME.info.max_actions):
        seat = s.to_act()
        if seat is None:
            break
        if watch_views:
            for viewer in range(4):
                leaked = visible_codes(s.view(viewer)) & hidden_from(s, viewer)
                assert not leaked, (viewer, leaked, s.phase)
        s.apply_unchecked(seat, players[seat].choose(s, seat))
        assert Counter(s.cards_in_play()) == Counter(range(63))
    assert s.is_over()
    out = s.outcome()
    assert sum(out.scores) == 0
    if out.termination in ("solo", "pairs"):
        assert sum(out.detail["card_points"]) == C.TOTAL_POINTS
        assert len(s.tricks) == 15 and all(len(h) == 0 for h in s.hands)
    record = json.loads(json.dumps(s.to_record()))
    verdict = GAME.validate(record)
    assert verdict.valid and verdict.complete and verdict.outcome == out
    replayed = GAME.start(record)
    for raw in record["actions"]:
        replayed.apply_unchecked(*GAME.decode_step(raw, "actions"))
    assert replayed.to_record() == record
    report = GAME.score({**out.detail["summary"], "ruleset": record["ruleset"]})
    assert report.valid and report.result is not None
    assert tuple(report.result["scores"]) == out.scores
    return out.termination


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("kind", ["random", "heuristic"])
def test_seeded_bot_smazzate_conserve_cards_total_109_and_round_trip(
    ruleset: str, kind: str
) -> None:
    seen = Counter(check_playout(ruleset, kind, seed) for seed in range(150))
    assert seen["solo"] + seen["pairs"] > 0


@pytest.mark.soak
@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("kind", ["random", "heuristic"])
def test_thousands_of_bot_smazzate_per_ruleset(ruleset: str, kind: str) -> None:
    for seed in range(3000):
        check_playout(ruleset, kind, seed)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_views_never_show_another_hand_the_monte_or_a_discard_not_made(ruleset: str) -> None:
    for seed in range(12):
        check_playout(ruleset, "heuristic", seed, watch_views=True)
        check_playout(ruleset, "random", seed, watch_views=True)


def test_the_heuristic_bot_plays_the_hand_more_than_it_abandons() -> None:
    seen: Counter[str] = Counter()
    for seed in range(200):
        s = GAME.new_game(GAME.ruleset(), seed)
        play(GAME, s, bots("heuristic", seed))
        seen[s.outcome().termination] += 1
    assert seen["solo"] + seen["pairs"] > 100


def test_the_heuristic_side_beats_random_opponents_on_average() -> None:
    total = 0
    for seed in range(200):
        s = GAME.new_game(GAME.ruleset(), seed)
        players = bots("random", seed)
        players[0] = players[2] = HeuristicBot(seed)
        play(GAME, s, players)
        scores = s.outcome().scores
        total += scores[0] + scores[2]
    assert total > 0


OPTIONS = [
    {"fuggitivo_last_trick": "forbidden"},
    {"fuggitivo_exchange": False},
    {"discard_forbidden": "kings"},
    {"discard_forbidden": "counting"},
    {"tengo_closes": False, "must_overtrump": True},
]


@pytest.mark.parametrize("option", OPTIONS, ids=[",".join(o) for o in OPTIONS])
def test_every_open_option_plays_to_the_end_and_validates(option: dict[str, Any]) -> None:
    rs = GAME.ruleset({"name": "dummett-mcleod", **option})
    for seed in range(80):
        s = GAME.new_game(rs, seed)
        mixed = [RandomBot(seed * 4 + i) if i % 2 else HeuristicBot(seed * 4 + i) for i in range(4)]
        play(GAME, s, mixed)
        record = json.loads(json.dumps(s.to_record()))
        assert record["ruleset"] == {**GAME.ruleset("dummett-mcleod").to_json(), **option}
        verdict = GAME.validate(record)
        assert verdict.valid and verdict.outcome == s.outcome()
        if s.outcome().termination in ("solo", "pairs"):
            assert sum(s.outcome().detail["card_points"]) == C.TOTAL_POINTS
