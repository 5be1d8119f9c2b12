"""The strong bots' strength: seeded games, the strong bot in each seat in turn against
heuristic bots, each game paired with the same deal played by heuristic bots only.

``bots.<game>.strong_margin`` is the strong bot's mean points per game minus the heuristic
bot's in the same seat of the same deal (the paired difference), ``..._ci_low`` the lower end
of its 95% confidence interval (normal approximation), ``bots.<game>.games`` how many games
the figure rests on. The search uses a fixed number of drawn deals per move (``DEALS``, no
clock), so a figure is reproducible from its seeds; the tables' bots think up to
``games.core.search.DEFAULT_BUDGET`` seconds instead. Each game has a wall-clock allowance:
the seeds are played in order on every core, and the games finished when it runs out are
the ones counted (fewer than asked for on a slow or busy machine: the figure says so).
"""

from __future__ import annotations

import importlib
import math
import multiprocessing
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GAMES = ("tarocco", "ergio", "cardchess", "ponte")
#: Drawn deals per move in the bench (each candidate action is played once in each).
DEALS = {"tarocco": 12, "ergio": 2, "cardchess": 8, "ponte": 1}
#: Games asked for, and the most seconds of wall clock each game's figure may take: a game
#: stops at WANTED games, so the allowances bound a slow machine (a 2-core Xeon VM needed
#: about 300, 125, 130 and 72 s for 1,000 games of each) and cost a fast one nothing.
WANTED = 1000
ALLOWANCE_S = {"tarocco": 480.0, "ergio": 240.0, "cardchess": 240.0, "ponte": 180.0}


def _play(slug: str, seed: int, deals: int) -> tuple[float, float]:
    """One deal twice: the strong bot in seat ``seed % seats``, then a heuristic bot there.
    The seat's points both times."""
    from games.core import registry

    game = registry.get(slug)
    bots = importlib.import_module(f"games.{slug}.bots")
    ruleset = game.ruleset(None)
    seat = seed % ruleset.seats
    points = []
    for strong in (True, False):
        state = game.new_game(ruleset, seed)
        players: list[Any] = [bots.HeuristicBot(seed * 10 + i) for i in range(ruleset.seats)]
        if strong:
            players[seat] = bots.strong_bot(seed, playouts=deals, budget=None)
        for _ in range(game.info.max_actions):
            who = state.to_act()
            if who is None:
                break
            state.apply_unchecked(who, players[who].choose(state, who))
        points.append(float(state.outcome().scores[seat]))
    return points[0], points[1]


def _job(args: tuple[str, int, int]) -> tuple[float, float]:
    return _play(*args)


def margin(
    slug: str, wanted: int, deals: int, allowance_s: float, processes: int = 2
) -> dict[str, Any]:
    """Play seeds 0, 1, 2... on ``processes`` cores until ``wanted`` games or the allowance."""
    started = time.perf_counter()
    diffs: list[float] = []
    strong_pts: list[float] = []
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(processes) as pool:
        jobs = ((slug, seed, deals) for seed in range(wanted))
        for strong, heuristic in pool.imap(_job, jobs, chunksize=1):
            diffs.append(strong - heuristic)
            strong_pts.append(strong)
            if time.perf_counter() - started > allowance_s:
                pool.terminate()
                break
    n = len(diffs)
    mean = statistics.fmean(diffs) if diffs else 0.0
    sd = statistics.stdev(diffs) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n) if n > 1 else math.inf
    key = f"bots.{slug}"
    return {
        f"{key}.strong_margin": mean,
        f"{key}.strong_margin_ci_low": mean - half,
        f"{key}.strong_mean_points": statistics.fmean(strong_pts) if strong_pts else 0.0,
        f"{key}.games": n,
        f"{key}.games_wanted": wanted,
        f"{key}.deals_per_move": deals,
        f"{key}.seconds": time.perf_counter() - started,
    }


def run(quick: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for slug in GAMES:
        wanted = 40 if quick else WANTED
        allowance = 20.0 if quick else ALLOWANCE_S[slug]
        figures = margin(slug, wanted, DEALS[slug], allowance)
        out.update(figures)
        print(
            f"bots {slug}: margin {figures[f'bots.{slug}.strong_margin']:+.2f} "
            f"(95% CI low {figures[f'bots.{slug}.strong_margin_ci_low']:+.2f}) over "
            f"{figures[f'bots.{slug}.games']} games in {figures[f'bots.{slug}.seconds']:.0f} s"
        )
    return out


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser()
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=WANTED)
    parser.add_argument("--deals", type=int)
    parser.add_argument("--seconds", type=float)
    parser.add_argument("--processes", type=int, default=2)
    a = parser.parse_args()
    seconds = a.seconds or ALLOWANCE_S[a.game]
    result = margin(a.game, a.games, a.deals or DEALS[a.game], seconds, a.processes)
    for k, v in result.items():
        print(k, round(v, 3) if isinstance(v, float) else v)
