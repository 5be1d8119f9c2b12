"""The digital tables' live push: from a move's POST to its arrival at the three other seats
and a spectator, each holding a WebSocket on the table (ledger/play/live.py).

A server of the site's own (`python -m ledger.serve`: two processes sharing the local Redis
as their channel layer when one answers, else one process with the in-memory layer) on a
scratch SQLite database. Four people sit at each Tarocco table; the seat to act posts a
random legal move through the API, and the clock runs until every other socket (the three
seats' and the spectator's) has the notice of that move (``play.move_push_*``) and, for
``play.move_seen_*``, until each of them has also fetched its own view of the table, as a
browser does before showing the move.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TABLES = 24


def setup() -> dict[str, Any]:
    """Run in the server's environment: a club, four members with tokens, tables of four."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from ledger.clubs.models import ApiToken, Club, Membership, Player
    from ledger.play import services

    club = Club.objects.create(name="Push bench", slug="push-bench", city="Pisa")
    users, tokens = [], []
    for i in range(4):
        user = get_user_model().objects.create_user(f"pusher{i}", "", "pw-not-used-1234")
        Membership.objects.create(club=club, player=Player.objects.create(name=f"P{i}", user=user))
        users.append(user)
        tokens.append(ApiToken.mint(user=user, club=club, scope="member", name="push")[1])
    tables = []
    for _n in range(TABLES):
        table = services.create_table(
            user=users[0], club=club, game="tarocco", seats=["me", "open", "open", "open"]
        )
        for user in users[1:]:
            services.join(user=user, table=table, invite=table.invite)
        seats = {s.user_id: s.index for s in table.seats.all()}
        tables.append({"id": table.pk, "seats": [seats[u.pk] for u in users]})
    return {"tokens": tokens, "tables": tables}


def _http(base: str, method: str, path: str, token: str | None, body: Any = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Token {token}"
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, headers=headers, method=method)
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def hear(
    base: str, ws: Any, pk: int, target: int, token: str | None, spectator: bool, t0: float
) -> tuple[float, float, Any]:
    """Wait for the notice of the move numbered ``target``, then fetch this listener's own
    view, as a browser would: the times from ``t0`` to each, and the view."""
    while True:
        notice = json.loads(await asyncio.wait_for(ws.recv(), 30))
        if notice["moves"] >= target:
            break
    heard = time.perf_counter() - t0
    path = f"/api/v1/play/tables/{pk}/" if spectator else f"/api/v1/play/tables/{pk}/view/"
    loop = asyncio.get_running_loop()
    view = await loop.run_in_executor(None, _http, base, "GET", path, token)
    return heard, time.perf_counter() - t0, view


async def _measure(base: str, plan: dict[str, Any], moves: int) -> tuple[list[float], list[float]]:
    import websockets

    loop = asyncio.get_running_loop()
    tokens = plan["tokens"]
    push: list[float] = []
    seen: list[float] = []
    # A random legal move, the same run after run (the first one is always a pass, and a
    # game that everyone passes is over after four moves).
    rng = random.Random(7)
    ws_base = base.replace("http://", "ws://")
    for table in plan["tables"]:
        pk = table["id"]
        token_of = {seat: tokens[i] for i, seat in enumerate(table["seats"])}
        # Four seats and a spectator (no token: the public table).
        listeners = {seat: token_of[seat] for seat in range(4)} | {"spectator": None}
        sockets = {
            who: await websockets.connect(f"{ws_base}/ws/play/{pk}/", origin=base)
            for who in listeners
        }
        for ws in sockets.values():
            json.loads(await ws.recv())  # the table as it is on connecting
        views = {
            seat: await loop.run_in_executor(
                None, _http, base, "GET", f"/api/v1/play/tables/{pk}/view/", token_of[seat]
            )
            for seat in range(4)
        }
        done = False
        while not done and len(push) < moves:
            acting = next(s for s, v in views.items() if v["your_turn"])
            target = views[acting]["moves"] + 1
            action = rng.choice(views[acting]["legal_actions"])
            others = [w for w in sockets if w != acting]

            t0 = time.perf_counter()
            posted = loop.run_in_executor(
                None,
                _http,
                base,
                "POST",
                f"/api/v1/play/tables/{pk}/act/",
                token_of[acting],
                {"action": action},
            )
            results = await asyncio.gather(
                *(
                    hear(base, sockets[w], pk, target, listeners[w], w == "spectator", t0)
                    for w in others
                )
            )
            views[acting] = await posted
            push.append(max(r[0] for r in results) * 1000)
            seen.append(max(r[1] for r in results) * 1000)
            for who, (_h, _s, view) in zip(others, results, strict=True):
                if who != "spectator":
                    views[who] = view
            done = views[acting].get("outcome") is not None
        for ws in sockets.values():
            await ws.close()
        if len(push) >= moves:
            break
    return push, seen


def run(moves: int = 200) -> dict[str, float]:
    from bench.ledger_bench import _free_port, local_redis

    with tempfile.TemporaryDirectory(prefix="push-bench-") as var:
        env = {
            **os.environ,
            "LEDGER_VAR_DIR": var,
            "DATABASE_URL": f"sqlite:///{var}/ledger.sqlite3",
            "DJANGO_SETTINGS_MODULE": "ledger.settings",
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        }
        env.pop("CELERY_BROKER_URL", None)
        redis_url = env.get("CHANNEL_REDIS_URL") or local_redis()
        if redis_url:
            env["CHANNEL_REDIS_URL"] = redis_url
        else:
            env.pop("CHANNEL_REDIS_URL", None)
        python = sys.executable
        subprocess.run(
            [python, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True
        )
        plan = json.loads(
            subprocess.run(
                [python, "-m", "bench.play_bench", "--setup"],
                cwd=ROOT,
                env=env,
                check=True,
                capture_output=True,
                text=True,
            )
            .stdout.strip()
            .splitlines()[-1]
        )
        port = _free_port()
        workers = "2" if redis_url else "1"
        server = subprocess.Popen(
            [
                python,
                "-m",
                "ledger.serve",
                "--port",
                str(port),
                "--workers",
                workers,
                "--log-level",
                "warning",
                "--no-access-log",
            ],
            cwd=ROOT,
            env=env,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(150):
                try:
                    urllib.request.urlopen(base + "/healthz", timeout=1)
                    break
                except OSError:
                    time.sleep(0.2)
            push, seen = asyncio.run(_measure(base, plan, moves))
        finally:
            server.terminate()
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
    return {
        "play.move_push_p50_ms": statistics.median(push),
        "play.move_push_p99_ms": _percentile(push, 0.99),
        "play.move_seen_p50_ms": statistics.median(seen),
        "play.move_seen_p99_ms": _percentile(seen, 0.99),
        "play.move_push_moves": len(push),
        "play.move_push_web_processes": int(workers),
    }


if __name__ == "__main__":
    if "--setup" in sys.argv:
        print(json.dumps(setup()))
    else:
        print(json.dumps(run(int(sys.argv[1]) if len(sys.argv) > 1 else 60), indent=2))
