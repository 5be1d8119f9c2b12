"""`make bench` / `make bench-quick`: every figure measured side by side in one run.

Writes bench/results.json (figures, ratios and the machine they were measured on) and prints
a table. The ledger figures need PostgreSQL: a scratch database ``ledger_bench`` is created
on the server of TEST_DATABASE_URL and dropped afterwards.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GOALS = {
    "vs_python_chess": 10.0,
    "vs_openspiel_hearts": 1.0,
    "validate_ms_p50": 1.0,
    "api.vs_raw_psycopg": 0.25,
    "api.results_per_s": 500.0,
    "standings.p50_ms": 30.0,
    "standings.speedup_vs_journal": 50.0,
    "swiss.players_1000_s": 2.0,
    # The exact FIDE Dutch pairing of a 200-player field, one round (issue 21).
    "swiss.dutch_200_s": 2.0,
    # A club of 1,000,000 journal lines exported, and imported, in under 60 s each.
    "export.lines_per_s": 1_000_000 / 60,
    "import.lines_per_s": 1_000_000 / 60,
    "ruling.p50_ms": 50.0,
    # The federation at scale (issue 42, bench/federation_bench.py): 300 clubs, 30,000
    # people, 5,000,000 journal lines. A ranking page cold and warm, a club's month of
    # 10,000 lines uploaded and applied, every ranking rebuilt by two workers; and a whole
    # club of 1,000,000 lines imported (import.seconds, bench/transfer_bench.py).
    "federation.ranking_rating_cold_p50_ms": 50.0,
    "federation.ranking_rating_warm_p50_ms": 50.0,
    "federation.upload_s": 10.0,
    "federation.rebuild_two_workers_s": 600.0,
    "import.seconds": 60.0,
    # A move reaches the three other seats and a spectator of a digital table (issue 19).
    "play.move_push_p50_ms": 150.0,
    # The strong bots against the heuristic ones (issue 25): the lower end of the margin's
    # 95% interval above 0, over at least 1,000 seeded games per game.
    "bots.strong_margin_ci_low": 0.0,
    "bots.games": 1000,
}


def machine() -> str:
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{platform.node()} · {cpu or platform.processor()} · {os.cpu_count()} cores · "
        f"Python {platform.python_version()} · {platform.system()} {platform.release()}"
    )


def engines(quick: bool, out: dict[str, Any]) -> None:
    """Each engine's random games against python-chess's (and Tarocco's against OpenSpiel
    hearts'), side by side: the two take turns in short slices, and a ratio is the median
    of the slices' ratios, so that a machine whose speed drifts during the run (a shared
    virtual machine's did by a factor of two between minutes) weighs on both alike."""
    from bench import engines as e
    from games.core import registry

    seconds = 1.0 if quick else 4.0
    slices = 4 if quick else 8
    chess_rates: list[float] = []
    hearts_rates: list[float] = []

    def side_by_side(slug: str, name: str | None = None) -> dict[str, float]:
        ours: list[dict[str, float]] = []
        vs_chess: list[float] = []
        vs_hearts: list[float] = []
        for _ in range(slices):
            chess = e.python_chess(seconds / slices)
            figures = e.random_games(slug, seconds / slices, name)
            ours.append(figures)
            if chess:
                chess_rates.append(chess["actions_per_s"])
                vs_chess.append(figures["actions_per_s"] / chess["actions_per_s"])
            if slug == "tarocco" and name is None:
                hearts = e.openspiel_hearts(seconds / slices)
                if hearts:
                    hearts_rates.append(hearts["games_per_s"])
                    vs_hearts.append(figures["games_per_s"] / hearts["games_per_s"])
        result = {
            "games_per_s": statistics.median(f["games_per_s"] for f in ours),
            "actions_per_s": statistics.median(f["actions_per_s"] for f in ours),
        }
        if vs_chess:
            result["vs_python_chess"] = statistics.median(vs_chess)
        if vs_hearts:
            result["vs_openspiel_hearts"] = statistics.median(vs_hearts)
        return result

    for slug in registry.available():
        figures = side_by_side(slug)
        for figure, value in figures.items():
            out[f"engine.{slug}.{figure}"] = value
        out[f"engine.{slug}.validate_ms_p50"] = e.validate_p50_ms(slug, 20 if quick else 200)
    # San Marco's default ruleset is the short scoring round: the board game is measured apart
    for name in ("base4", "variant3-board"):
        key = f"engine.sanmarco.{name}"
        for figure, value in side_by_side("sanmarco", name).items():
            out[f"{key}.{figure}"] = value
        out[f"{key}.validate_ms_p50"] = e.validate_p50_ms("sanmarco", 10 if quick else 50, name)
        # replay's short cut (``replay_run``, the board's one fast twin of its legal list,
        # docs/benchmarks.md): kept only while the long way is 1.3 times slower or more
        out[f"{key}.validate_ms_p50_long_way"] = e.validate_p50_ms(
            "sanmarco", 10 if quick else 50, name, short_cut=False
        )
        # the same validation from the board's source (ENGINES_PURE_PYTHON=1, games/compiled.py)
        out[f"{key}.validate_ms_p50_pure_python"] = e.validate_p50_ms_pure_python(
            "sanmarco", 10 if quick else 50, name
        )
    # Er Giò's direct check of one action (``_is_legal``), its one fast twin of the legal
    # list: kept only while asking the list is 1.3 times slower or more
    for name in ("base", "advanced", "4p"):
        out[f"engine.ergio.{name}.check_vs_list"] = e.check_vs_list(
            "ergio", 500 if quick else 5000, name
        )
    out["engine.compiled"] = e.compiled_modules()
    # what compiling gained for the games whose playouts are compiled to reach 10x python-chess
    if chess_rates:
        for slug in ("ergio", "cardchess"):
            out[f"engine.{slug}.vs_python_chess_pure_python"] = e.vs_python_chess_pure_python(
                slug, seconds, slices
            )
    if chess_rates:
        out["peer.python_chess.actions_per_s"] = statistics.median(chess_rates)
        out["peer.python_chess.actions_per_s_min"] = min(chess_rates)
        out["peer.python_chess.actions_per_s_max"] = max(chess_rates)
    if hearts_rates:
        out["peer.openspiel_hearts.games_per_s"] = statistics.median(hearts_rates)


def ledger(quick: bool, out: dict[str, Any]) -> None:
    import psycopg

    base = os.environ.get("TEST_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    admin = base.replace("postgres://", "postgresql://", 1)
    scratch = base.rsplit("/", 1)[0] + "/ledger_bench"
    try:
        with psycopg.connect(admin, autocommit=True, connect_timeout=3) as conn:
            conn.execute("DROP DATABASE IF EXISTS ledger_bench WITH (FORCE)")
            conn.execute("CREATE DATABASE ledger_bench")
    except psycopg.OperationalError as exc:
        print(f"!! PostgreSQL not reachable at {base}: ledger figures skipped ({exc})")
        return
    os.environ["DATABASE_URL"] = scratch
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ledger.settings")
    os.environ["DJANGO_ALLOWED_HOSTS"] = "testserver,127.0.0.1,localhost"
    import django

    django.setup()
    from django.core.management import call_command

    from bench import ledger_bench as lb

    try:
        call_command("migrate", verbosity=0)
        players, entries = (100, 50_000) if quick else (500, 1_000_000)
        t0 = time.perf_counter()
        league = lb.build_league(players, entries)
        out["standings.players"] = players
        out["standings.entries"] = entries
        out["standings.setup_s"] = time.perf_counter() - t0
        out.update(lb.standings_page(league, 15 if quick else 40))
        out.update(lb.api_writes(scratch, 4.0 if quick else 16.0))
        out.update(lb.rulings(league, 15 if quick else 40))
    finally:
        from django.db import connections

        connections.close_all()
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute("DROP DATABASE IF EXISTS ledger_bench WITH (FORCE)")


def transfer(quick: bool, out: dict[str, Any]) -> None:
    """A club's export and import (bench/transfer_bench.py), in processes of their own."""
    from bench import transfer_bench

    try:
        out.update(transfer_bench.run(50_000 if quick else 1_000_000))
    except Exception as exc:  # PostgreSQL missing, say: the other figures still count
        print(f"!! export/import figures skipped: {exc}")


def federation(quick: bool, out: dict[str, Any]) -> None:
    """A federation generated on PostgreSQL, measured (bench/federation_bench.py), in a
    process of its own."""
    from bench import federation_bench

    try:
        out.update(federation_bench.run(quick))
    except Exception as exc:  # PostgreSQL missing, say: the other figures still count
        print(f"!! federation figures skipped: {exc}")


def play(quick: bool, out: dict[str, Any]) -> None:
    """The digital tables' live push (bench/play_bench.py), against a server of its own."""
    from bench import play_bench

    try:
        out.update(play_bench.run(60 if quick else 300))
    except Exception as exc:  # the other figures still count
        print(f"!! move push figures skipped: {exc}")


def swiss(quick: bool, out: dict[str, Any]) -> None:
    try:
        from bench.formats import bench_dutch, bench_swiss
    except ImportError:
        return
    out["swiss.players_1000_s"] = bench_swiss(1000)
    out.update(bench_dutch(quick))


def bots(quick: bool, out: dict[str, Any]) -> None:
    """The strong bots against the heuristic ones (bench/bots_bench.py), on both cores."""
    from bench import bots_bench

    out.update(bots_bench.run(quick))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--output", default=str(ROOT / "bench" / "results.json"))
    parser.add_argument(
        "--only",
        default="",
        help=(
            "sections to run, comma-separated (engines, ledger, transfer, federation, play, "
            "swiss, bots): their figures replace those in --output, the others are kept, "
            "and 'sections' says when each was measured"
        ),
    )
    args = parser.parse_args()
    out: dict[str, Any] = {}
    started = time.perf_counter()
    sections = {
        "engines": engines,
        "ledger": ledger,
        "transfer": transfer,
        "federation": federation,
        "play": play,
        "swiss": swiss,
        "bots": bots,
    }
    chosen = [name.strip() for name in args.only.split(",") if name.strip()] or list(sections)
    unknown = sorted(set(chosen) - set(sections))
    if unknown:
        parser.error(f"no such section: {', '.join(unknown)}")
    for name in chosen:
        sections[name](args.quick, out)
    measured_at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    mode = "quick" if args.quick else "full"
    kept: dict[str, Any] = {}
    when = {name: f"{measured_at} ({mode})" for name in chosen}
    if args.only and Path(args.output).exists():
        kept = json.loads(Path(args.output).read_text())
        earlier = kept.pop("sections", None) or {
            name: f"{kept.get('measured_at')} ({kept.get('mode')})" for name in sections
        }
        when = {**earlier, **when}
        prefixes = {
            "engines": ("engine.", "peer."),
            "ledger": ("standings.", "api.", "ruling."),
            "transfer": ("transfer.", "export.", "import."),
            "federation": ("federation.",),
        }
        for name in chosen:
            for key in [k for k in kept if k.startswith(prefixes.get(name, (f"{name}.",)))]:
                kept.pop(key)
    report = {
        **kept,
        "machine": machine(),
        "measured_at": measured_at,
        "mode": mode if not kept else "sections measured apart: see sections",
        "seconds": round(time.perf_counter() - started, 1),
        "goals": GOALS,
        "sections": when,
        # Every figure at the top level under its dotted name (engine.tarocco.games_per_s).
        **{k: round(v, 4) if isinstance(v, float) else v for k, v in out.items()},
    }
    Path(args.output).write_text(json.dumps(report, indent=2, sort_keys=True) + "\n")
    width = max(len(k) for k in out) if out else 10
    print(f"\n{'figure':<{width}}  value")
    for key in sorted(out):
        value = out[key]
        shown = f"{value:,.3f}" if isinstance(value, float) else str(value)
        print(f"{key:<{width}}  {shown}")
    print(f"\nmachine: {report['machine']}\nwritten: {args.output}")


if __name__ == "__main__":
    main()
