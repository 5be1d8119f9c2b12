"""The referee's check and the legal-action list are one rule set: on the board, an action is
refused by ``check`` exactly when it is missing from ``legal_actions`` (check asks the list),
and replay's short cut (``apply_if_legal``, which judges one action directly) applies exactly
what the list holds."""

from __future__ import annotations

import copy
import io
import itertools
import json
import pickle
import random
from typing import Any

import pytest

from games.core import RecordError
from games.core.engine import ReplayFault
from games.sanmarco import GAME
from games.sanmarco.actions import KINDS, Act, decode
from games.sanmarco.board import MAX_BRIDGES
from games.sanmarco.table import BoardState
from tests.games.sanmarco.helpers import BOARD_RULESETS, fields


def _candidates() -> list[Act]:
    """Every kind of action with parameters in and around their ranges."""
    return [
        Act(do, a, b, c)
        for do, a, b, c in itertools.product(KINDS, range(-1, 11), range(-1, 7), (-1, 0, 3, 9))
    ]


CANDIDATES = _candidates()
CARD_KINDS = ("bridge", "district", "transfer", "banish", "doge", "stop", "skip")


@pytest.mark.parametrize("name", BOARD_RULESETS)
def test_check_refuses_exactly_the_actions_legal_actions_leaves_out(name: str) -> None:
    chooser = random.Random(name)
    for seed in (1, 2):
        state = GAME.new_game(GAME.ruleset(name), seed)
        assert isinstance(state, BoardState)
        step = 0
        while not state.is_over():
            seat = state.to_act()
            assert seat is not None
            legal = state.legal_actions(seat)
            if step % 9 == 0:
                allowed = set(legal)
                for action in CANDIDATES:
                    refused = bool(state.check(seat, action))
                    assert refused == (action not in allowed), (state.phase, action)
            state.apply_unchecked(seat, legal[chooser.randrange(len(legal))])
            step += 1


def test_may_decline_lets_a_card_be_set_aside_only_when_held() -> None:
    state = GAME.new_game(GAME.ruleset({"name": "base4", "may_decline": True}), 5)
    chooser = random.Random(5)
    while state.phase != "resolve" or state.pending is not None:
        seat = state.to_act()
        legal = state.legal_actions(seat)
        state.apply_unchecked(seat, legal[chooser.randrange(len(legal))])
    seat = state.to_act()
    held = set(state.holding)
    for card in range(10):
        refused = [v.rule for v in state.check(seat, Act("skip", card))]
        assert refused == ([] if card in held else ["sanmarco.base.card_held"])


def _copy(state: BoardState) -> BoardState:
    """An independent copy of a state, as deepcopy makes but in a third of its time (this test
    copies the state for every legal action it tries), sharing what every game on the same
    board shares: the board and the memo of reaches (a cache that grows with every game the
    process has played, which a copy of it would make slower and slower)."""
    shared = {id(state.board): state.board, id(state._reach_memo): state._reach_memo}
    out = io.BytesIO()
    pickler = pickle.Pickler(out, pickle.HIGHEST_PROTOCOL)
    pickler.persistent_id = lambda obj: id(obj) if id(obj) in shared else None  # type: ignore[method-assign]
    pickler.dump(state)
    unpickler = pickle.Unpickler(io.BytesIO(out.getvalue()))
    unpickler.persistent_load = shared.__getitem__  # type: ignore[method-assign]
    copied = unpickler.load()
    assert isinstance(copied, BoardState)
    return copied


def _variants(state: BoardState, chooser: random.Random) -> list[BoardState]:
    """The state as played, with every bridge on the board, and with an empty supply: the
    cases where a card's moves change shape (taking a bridge over, moving an own aristocrat)."""
    full = _copy(state)
    sites = full.board.sites
    while len(full.bridges) < MAX_BRIDGES:
        site = chooser.randrange(len(sites))
        if full.on_site(site) < full.board.per_site:
            full.bridges.append([site, chooser.randrange(len(full.kinds))])
    empty = _copy(state)
    colour = empty.acting_colour()
    assert colour is not None
    empty.supply[colour] = 0
    return [state, full, empty]


@pytest.mark.parametrize("name", BOARD_RULESETS)
def test_check_matches_legal_actions_with_a_full_board_and_an_empty_supply(name: str) -> None:
    chooser = random.Random(f"{name}-cards")
    cards = [a for a in CANDIDATES if a.do in CARD_KINDS]
    state = GAME.new_game(GAME.ruleset(name), 4)
    assert isinstance(state, BoardState)
    seen = 0
    while not state.is_over():
        seat = state.to_act()
        assert seat is not None
        legal = state.legal_actions(seat)
        if state.phase in ("resolve", "setup") and state.pending is None:
            seen += 1
            if seen % 2 == 0:
                for variant in _variants(state, chooser):
                    allowed = set(variant.legal_actions(seat))
                    for action in cards:
                        refused = bool(variant.check(seat, action))
                        assert refused == (action not in allowed), (variant.phase, action)
        state.apply_unchecked(seat, legal[chooser.randrange(len(legal))])


def _snapshot(state: BoardState) -> str:
    """Everything a state holds, chance's draws and generator included, as text (but the board
    and the memo of reaches, which every game on the board shares)."""
    shared = ("chance", "board", "_reach_memo")
    kept = {k: v for k, v in fields(state).items() if k not in shared}
    rng = state.chance.rng
    return repr((sorted(kept.items()), state.chance.used, rng.getstate() if rng else None))


def _common(state: BoardState) -> bool:
    """Replay's short cut is taken here for every legal action (and only for them): in every
    phase but variant 2's neutral returns."""
    return state.phase != "neutral"


@pytest.mark.parametrize("name", BOARD_RULESETS)
def test_replays_short_cut_applies_exactly_what_check_allows_as_apply_unchecked_does(
    name: str,
) -> None:
    chooser = random.Random(f"{name}-quick")
    for seed in (1, 2):
        state = GAME.new_game(GAME.ruleset(name), seed)
        assert isinstance(state, BoardState)
        seats = state.ruleset.seats
        step = 0
        while not state.is_over():
            seat = state.to_act()
            assert seat is not None
            legal = state.legal_actions(seat)
            if step % 7 == 0:
                common = _common(state)
                before = _snapshot(state)
                allowed = set(legal)
                for action in CANDIDATES:
                    if action not in allowed:  # refused: nothing applied, nothing changed
                        assert not state.apply_if_legal(seat, action), (state.phase, action)
                for other in range(-1, seats + 1):
                    if other != seat:
                        for action in legal:
                            assert not state.apply_if_legal(other, action), (other, action)
                assert _snapshot(state) == before
                for action in legal:
                    quick = _copy(state)
                    taken = quick.apply_if_legal(seat, action)
                    assert taken or not common, (state.phase, action)
                    if taken:
                        slow = _copy(state)
                        assert slow.check(seat, action) == []
                        slow.apply_unchecked(seat, action)
                        assert _snapshot(quick) == _snapshot(slow), (state.phase, action)
                    else:
                        assert _snapshot(quick) == before
            state.apply_unchecked(seat, legal[chooser.randrange(len(legal))])
            step += 1


def _records_with_faults(name: str) -> list[dict[str, Any]]:
    """Played records, and the same records with an action here and there made odd: another
    seat, another offer, a value of the wrong type, a field missing, not an object at all; and
    with chance that the seed does not draw, or that runs out (with and without the seed)."""
    chooser = random.Random(f"{name}-faults")
    out = []
    for seed in (3, 4):
        state = GAME.new_game(GAME.ruleset(name), seed)
        while not state.is_over():
            seat = state.to_act()
            assert seat is not None
            legal = state.legal_actions(seat)
            state.apply_unchecked(seat, legal[chooser.randrange(len(legal))])
        record = json.loads(json.dumps(state.to_record()))
        out.append(record)
        for faults in (1, 1, 1, 2, 2, 3):
            odd = copy.deepcopy(record)
            for _ in range(faults):
                step = chooser.randrange(len(odd["actions"]))
                raw = record["actions"][step]
                key = chooser.choice([*raw, "pile"])
                odd["actions"][step] = chooser.choice(
                    [
                        {**raw, "seat": (raw["seat"] + 1) % 4},
                        {**raw, "seat": True},
                        {**raw, key: chooser.choice((None, True, -1, 0, 1, 2, 3, 7, 1.0, "0"))},
                        {k: v for k, v in raw.items() if k != key},
                        [raw],
                    ]
                )
            out.append(odd)
        for kind, drawn in record["deal"]["chance"].items():
            if len(drawn) < 2:
                continue
            i = chooser.randrange(len(drawn))
            other = copy.deepcopy(record)
            other["deal"]["chance"][kind][i] = next(x for x in drawn if x != drawn[i])
            short = copy.deepcopy(record)
            del short["deal"]["chance"][kind][i:]
            unseeded = copy.deepcopy(short)
            del unseeded["deal"]["seed"]
            out.extend((other, short, unseeded))
    return out


@pytest.mark.parametrize("name", BOARD_RULESETS)
def test_replays_run_applies_what_the_one_reader_and_short_cut_apply_one_by_one(
    name: str,
) -> None:
    for record in _records_with_faults(name):
        actions = record["actions"]
        try:
            run, one = GAME.start(record), GAME.start(record)
        except RecordError:  # chance refused at set-up, before any action
            continue
        assert isinstance(run, BoardState) and isinstance(one, BoardState)
        i = 0
        while i < len(actions):
            fault = None
            try:
                done = run.replay_run(actions, i)
            except ReplayFault as exc:  # a legal action that chance cannot follow
                done, fault = exc.step - i, str(exc.error)
            n, error = 0, None
            while i + n < len(actions):  # the same actions, one call each
                raw = actions[i + n]
                if type(raw) is not dict or type(raw.get("seat")) is not int:
                    break
                try:
                    seat, action = raw["seat"], decode(raw)
                except RecordError:
                    break
                try:
                    if not one.apply_if_legal(seat, action):
                        break
                except RecordError as exc:
                    error = str(exc)
                    break
                n += 1
            assert (done, fault) == (n, error), i
            assert _snapshot(run) == _snapshot(one), (i, done, n)
            if fault is not None:
                break
            i += done
            if i == len(actions):
                break
            try:  # the long way, as replay takes it
                seat, action = GAME.decode_step(actions[i], "actions")
                for state in (run, one):
                    state.apply_unchecked(seat, action)
            except RecordError:
                break
            i += 1


@pytest.mark.parametrize("name", BOARD_RULESETS)
def test_replay_gives_the_same_verdict_without_its_short_cut(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def verdict(record: dict[str, Any]) -> Any:
        try:
            return GAME.validate(record)
        except RecordError as exc:  # an action that cannot be read: its place and why
            return str(exc)

    records = _records_with_faults(name)
    quick = [verdict(r) for r in records]
    monkeypatch.setattr(GAME, "replay_short_cut", False)
    slow = [verdict(r) for r in records]
    assert quick == slow
    kinds = {"unread" if isinstance(v, str) else "valid" if v.valid else "invalid" for v in slow}
    assert kinds == {"unread", "valid", "invalid"}
