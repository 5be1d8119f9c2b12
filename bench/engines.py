"""Engine speed through the public API, side by side with python-chess and OpenSpiel."""

from __future__ import annotations

import importlib
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from games.core import registry

ROOT = Path(__file__).resolve().parent.parent


def random_games(slug: str, seconds: float, ruleset_name: str | None = None) -> dict[str, float]:
    """Whole random games (deal included) for about ``seconds``: games/s and actions/s."""
    game = registry.get(slug)
    ruleset = game.ruleset(ruleset_name)
    chooser = random.Random(7)
    games = actions = 0
    start = time.perf_counter()
    seed = 0
    while time.perf_counter() - start < seconds:
        state = game.new_game(ruleset, seed)
        seed += 1
        while not state.is_over():
            seat = state.to_act()
            assert seat is not None
            legal = state.legal_actions(seat)
            state.apply_unchecked(seat, legal[chooser.randrange(len(legal))])
            actions += 1
        games += 1
    elapsed = time.perf_counter() - start
    return {"games_per_s": games / elapsed, "actions_per_s": actions / elapsed}


def validate_p50_ms(
    slug: str, records: int, ruleset_name: str | None = None, short_cut: bool = True
) -> float:
    """The median time to validate a random game's record; ``short_cut=False`` replays every
    action the long way (read, ``check``, ``apply_unchecked``) even where the game has a
    ``replay_run``."""
    game = registry.get(slug)
    ruleset = game.ruleset(ruleset_name)
    chooser = random.Random(11)
    samples = []
    for seed in range(records):
        state = game.new_game(ruleset, 10_000 + seed)
        while not state.is_over():
            seat = state.to_act()
            assert seat is not None
            legal = state.legal_actions(seat)
            state.apply_unchecked(seat, legal[chooser.randrange(len(legal))])
        record = json.loads(json.dumps(state.to_record()))
        kept = game.replay_short_cut
        game.replay_short_cut = short_cut
        try:
            t0 = time.perf_counter()
            verdict = game.validate(record)
            samples.append(time.perf_counter() - t0)
        finally:
            game.replay_short_cut = kept
        assert verdict.valid, (slug, seed)
    return statistics.median(samples) * 1000


def check_vs_list(slug: str, positions: int, ruleset_name: str | None = None) -> float:
    """How many times longer asking ``legal_actions`` whether it holds an action takes than
    ``check`` judging that one action, over the positions of random games (each legal
    action played is asked both ways): what a game's direct check of one action saves."""
    game = registry.get(slug)
    ruleset = game.ruleset(ruleset_name)
    chooser = random.Random(13)
    by_list = by_check = 0.0
    seen, seed = 0, 0
    while seen < positions:
        state = game.new_game(ruleset, 20_000 + seed)
        seed += 1
        while not state.is_over() and seen < positions:
            seat = state.to_act()
            assert seat is not None
            action = chooser.choice(state.legal_actions(seat))
            # each way asked once, of its own copy (a state may keep what it listed)
            one, other = state.clone(), state.clone()
            t0 = time.perf_counter()
            listed = action in one.legal_actions(seat)
            t1 = time.perf_counter()
            legal = not other.check(seat, action)
            t2 = time.perf_counter()
            assert listed and legal, (slug, seed)
            by_list += t1 - t0
            by_check += t2 - t1
            seen += 1
            state.apply_unchecked(seat, action)
    return by_list / by_check


def validate_p50_ms_pure_python(slug: str, records: int, ruleset_name: str | None = None) -> float:
    """``validate_p50_ms`` in a process that imports every engine module from its source."""
    return _from_source(
        "import sys; from bench import engines; "
        f"print(engines.validate_p50_ms({slug!r}, {records}, {ruleset_name!r}))"
    )


def _from_source(code: str) -> float:
    """The number ``code`` prints last, run in a process that imports every engine module
    from its source (ENGINES_PURE_PYTHON=1, games/compiled.py)."""
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**os.environ, "ENGINES_PURE_PYTHON": "1"},
        capture_output=True,
        text=True,
        check=True,
    )
    return float(done.stdout.split()[-1])


def vs_python_chess_pure_python(slug: str, seconds: float, slices: int) -> float:
    """The side-by-side ratio to python-chess's actions per second (as ``run.engines``
    measures it) in a process that imports every engine module from its source: what the
    compiled modules gained."""
    return _from_source(
        "import statistics; from bench import engines as e; ratios = []\n"
        f"for _ in range({slices}):\n"
        f"    chess = e.python_chess({seconds / slices})\n"
        f"    ours = e.random_games({slug!r}, {seconds / slices})\n"
        "    ratios.append(ours['actions_per_s'] / chess['actions_per_s'])\n"
        "print(statistics.median(ratios))"
    )


def compiled_modules() -> list[str]:
    """The engine modules this process runs compiled (games/compiled.py)."""
    from games.compiled import MODULES, is_compiled, module_name

    return [m for m in MODULES if is_compiled(importlib.import_module(module_name(m)))]


def python_chess(seconds: float) -> dict[str, float] | None:
    try:
        import chess
    except ImportError:
        return None
    chooser = random.Random(3)
    games = moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        board = chess.Board()
        while not board.is_game_over(claim_draw=False):
            legal = list(board.legal_moves)
            board.push(legal[chooser.randrange(len(legal))])
            moves += 1
        games += 1
    elapsed = time.perf_counter() - start
    return {"games_per_s": games / elapsed, "actions_per_s": moves / elapsed}


def openspiel_hearts(seconds: float) -> dict[str, float] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game: Any = pyspiel.load_game("hearts")
    chooser = random.Random(5)
    games = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[chooser.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[chooser.randrange(len(legal))])
            actions += 1
        games += 1
    elapsed = time.perf_counter() - start
    return {"games_per_s": games / elapsed, "actions_per_s": actions / elapsed}
