"""San Marco reads its board actions one way (``decode``): replay, the tables and the CLI
alike. It reads back every action a game writes, refuses what is malformed with the step
named, and gives the shared action values the legal lists are made of."""

from __future__ import annotations

import json

import pytest

from games.core import RandomBot, RecordError, play
from games.sanmarco import GAME
from games.sanmarco.actions import decode, encode
from tests.games.sanmarco.helpers import BOARD_RULESETS

ODD_VALUES = (None, True, -1, 0, 2, 99, 1.0, "", "castello", "doge", ["castello"], {"a": 1})


def _read(raw: object) -> object:
    try:
        return GAME.decode_fast(raw)
    except RecordError:
        return None


def _played_actions() -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for name in BOARD_RULESETS:
        state = GAME.new_game(GAME.ruleset(name), 8)
        play(GAME, state, [RandomBot(3 + i) for i in range(state.ruleset.seats)])
        out.extend(json.loads(json.dumps(state.to_record()))["actions"])
    return out


def _mutations(raw: dict[str, object]) -> list[object]:
    out: list[object] = [raw, [raw], {**raw, "seat": True}, {**raw, "seat": "0"}]
    for key in [*raw, "take", "to", "from", "between", "do"]:
        for value in ODD_VALUES:
            out.append({**raw, key: value})
        out.append({k: v for k, v in raw.items() if k != key})
    out.append({**raw, "between": ["castello", "castello"]})
    out.append({**raw, "between": ["castello", "san_marco", "dorsoduro"]})
    return out


def test_replay_reads_exactly_what_the_step_reader_reads_and_writes_it_back_the_same() -> None:
    checked = 0
    for played in _played_actions():
        action = decode(played)
        assert {"seat": played["seat"], **encode(action)} == played
        for raw in _mutations(played):
            read = _read(raw)
            try:
                seat, action = GAME.decode_step(raw, "actions")
            except RecordError:
                assert read is None, raw
                continue
            assert read == (seat, action), raw
            checked += 1
    assert checked > 1000


def test_a_read_action_is_the_shared_value_a_legal_list_holds() -> None:
    for name in BOARD_RULESETS:
        state = GAME.new_game(GAME.ruleset(name), 4)
        for _ in range(60):
            seat = state.to_act()
            if seat is None:
                break
            legal = state.legal_actions(seat)
            for act in legal:
                if max(act.a, act.b, act.c) < 6:
                    assert any(decode(encode(act)) is x for x in legal), act
            state.apply_unchecked(seat, legal[0])


@pytest.mark.parametrize("bad", [{"seat": 0, "do": "pile", "pile": -1}, {"seat": 0, "do": "fly"}])
def test_a_malformed_action_is_refused_at_its_step(bad: dict[str, object]) -> None:
    record = json.loads(json.dumps(GAME.new_game(GAME.ruleset("base4"), 1).to_record()))
    record["actions"] = [bad]
    with pytest.raises(RecordError) as caught:
        GAME.validate(record)
    assert caught.value.path.startswith("actions[0]")


def test_chance_draws_exactly_what_randrange_and_randint_draw() -> None:
    import random

    from games.sanmarco.chance import below

    for seed in range(30):
        ours, theirs = random.Random(seed), random.Random(seed)
        for n in (1, 2, 3, 5, 6, 7, 8, 13, 28, 57, 64, 65):
            assert below(ours, n) == theirs.randrange(n)
            assert 1 + below(ours, 6) == theirs.randint(1, 6)


def test_a_seeded_deal_draws_what_randrange_draws_from_the_same_seed() -> None:
    from games.core import rng as make_rng
    from games.sanmarco.cards import ACTION_DECK
    from games.sanmarco.chance import Chance

    for seed in range(20):
        chance = Chance(seed, None)
        deck, discard = list(ACTION_DECK), [3, 1, 2]
        theirs = make_rng(seed, "sanmarco-chance")
        their_deck = list(ACTION_DECK)
        refilled = False
        for _ in range(9):  # 62 cards, then the discard comes back in order, then no more
            drawn = chance.cards("action_cards", deck, discard, 8)
            expected = []
            for _ in range(8):
                if not their_deck and not refilled:
                    their_deck.extend([1, 2, 3])
                    refilled = True
                if not their_deck:
                    break
                expected.append(their_deck.pop(theirs.randrange(len(their_deck))))
            assert drawn == expected
        assert refilled and not deck
