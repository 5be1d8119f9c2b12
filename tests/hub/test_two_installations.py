"""Two installations on this machine, each a real server with its own database and key:
the venue (the demo club on SQLite) sends its journal with `manage.py sync_to_hub` to the
hub's address; the hub's federation page then shows the club's last sync, lines and head,
and a second sync sends nothing."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.hub.conftest import ROOT, VENUE_KEY, Venue
from tests.listening import listening_socket

HUB_KEY = "3c" * 32
SERVE = [sys.executable, "-m", "ledger.serve", "--workers", "1", "--no-access-log"]

HUB_SETUP = """
from django.contrib.auth import get_user_model
from ledger.clubs.models import Club
from ledger.federation import services as federation
from ledger.federation.models import MemberClub
officer = get_user_model().objects.create_user("officer", password="pw-officer-2026")
club = Club.objects.create(pk=CLUB, slug=SLUG, name=NAME)
fed = federation.found(user=officer, name="Federazione toscana", region="Toscana")
member = MemberClub.objects.create(
    federation=fed, club=club, status="approved", applied_by=officer, decided_by=officer)
print(federation.issue_upload_token(user=officer, membership=member))
"""


def _env(db: Path, key: str) -> dict[str, str]:
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{db}",
        "LEDGER_VAR_DIR": str(db.parent / "var"),
        "LEDGER_SIGNING_KEY": key,
        "ENGINES_PURE_PYTHON": "1",
    }
    for name in ("LEDGER_SIGNING_KEY_FILE", "CELERY_BROKER_URL", "DJANGO_HTTPS"):
        env.pop(name, None)
    return env


def _run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.fixture
def servers(tmp_path: Path, venue: Venue, migrated_sqlite: Path) -> Iterator[dict[str, object]]:
    (tmp_path / "venue").mkdir()
    (tmp_path / "hub").mkdir()
    venue_db, hub_db = tmp_path / "venue" / "ledger.sqlite3", tmp_path / "hub" / "ledger.sqlite3"
    shutil.copy(venue.db, venue_db)
    shutil.copy(migrated_sqlite, hub_db)
    venue_env, hub_env = _env(venue_db, VENUE_KEY), _env(hub_db, HUB_KEY)
    made = _run(
        hub_env,
        "shell",
        "-c",
        f"CLUB={venue.club}\nSLUG={venue.slug!r}\nNAME={venue.name!r}\n{HUB_SETUP}",
    )
    assert made.returncode == 0, made.stderr[-2000:]
    token = made.stdout.strip().splitlines()[-1]
    processes, urls = [], []
    try:
        for env in (venue_env, hub_env):
            # Each server is handed a socket this process already listens on (as the browser
            # tests' server is): a port picked free, closed, then named to the server could
            # be taken meanwhile by a run beside this one.
            held = listening_socket()
            port, fd = held.getsockname()[1], held.fileno()
            try:
                processes.append(
                    subprocess.Popen(
                        [*SERVE, "--fd", str(fd)],
                        cwd=ROOT,
                        env=env,
                        stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL,
                        pass_fds=(fd,),
                    )
                )
            finally:
                held.close()  # the server has its own copy
            urls.append(f"http://127.0.0.1:{port}")
        deadline = time.monotonic() + 60
        for process, url in zip(processes, urls, strict=True):
            while True:
                try:
                    urllib.request.urlopen(url + "/healthz", timeout=1)
                    break
                except OSError:
                    assert process.poll() is None, "a server exited"
                    assert time.monotonic() < deadline, "a server did not start within 60 s"
                    time.sleep(0.1)
        yield {
            "venue_env": venue_env,
            "hub_env": hub_env,
            "venue_url": urls[0],
            "hub_url": urls[1],
            "token": token,
        }
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)


def test_a_venue_syncs_to_a_hub_running_on_another_port_with_its_own_database(
    servers: dict[str, object], venue: Venue
) -> None:
    venue_env = dict(servers["venue_env"])  # type: ignore[call-overload]
    hub_env = dict(servers["hub_env"])  # type: ignore[call-overload]
    hub_url, token = str(servers["hub_url"]), str(servers["token"])
    # The venue's own server is up, serving its club's pages from its database.
    page = urllib.request.urlopen(f"{servers['venue_url']}/c/{venue.slug}/", timeout=30)
    assert page.status == 200

    sync = _run(
        {**venue_env, "LEDGER_HUB_TOKEN": token},
        "sync_to_hub",
        venue.slug,
        "--url",
        hub_url,
        "--chunk",
        "25",
    )
    assert sync.returncode == 0, sync.stderr[-2000:]
    said = sync.stdout.splitlines()
    # 72 lines in chunks of 25: 25, 50, 72.
    assert said[:4] == [
        "0 / 72 lines sent, chunk 0 of 3",
        "25 / 72 lines sent, chunk 1 of 3",
        "50 / 72 lines sent, chunk 2 of 3",
        "72 / 72 lines sent, chunk 3 of 3",
    ]
    assert f"up to line 72 (head {venue.hashes[72][:12]})" in said[4]

    # The hub says so to the venue's token, and on its federation's page.
    request = urllib.request.Request(
        f"{hub_url}/hub/sync/{venue.slug}/head/", headers={"Authorization": f"Bearer {token}"}
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        assert json.loads(answer.read()) == {"length": 72, "head": venue.hashes[72]}
    html = urllib.request.urlopen(f"{hub_url}/federations/federazione-toscana/", timeout=30)
    row = re.search(r'<tr id="sync-circolo-pisano">.*?</tr>', html.read().decode(), re.S)
    assert row is not None
    assert venue.hashes[72][:12] in row.group(0) and ">72<" in row.group(0)

    # Again: nothing to send, nothing changes (the address and token are kept at the venue).
    again = _run(venue_env, "sync_to_hub", venue.slug)
    assert again.returncode == 0, again.stderr[-2000:]
    assert again.stdout.splitlines()[0] == "0 / 0 lines sent, chunk 0 of 0"

    # The hub's copy holds the venue's chain, sealed again with the hub's own key.
    checked = _run(hub_env, "verify_ledger")
    assert checked.returncode == 0, checked.stdout + checked.stderr
