"""Browser tests: a real server (`python -m ledger.serve`, as `make run` starts it: one
process serving the pages and the live tables' WebSockets, on a fresh SQLite database with
the demo club)
driven by Debian's Chromium through Playwright.

Without Chromium they are skipped with a message; REQUIRE_BROWSER=1 turns that into a
failure. They run in the SQLite pass of `make test` only: the server keeps its own SQLite
database whatever the pass, so on PostgreSQL they would only repeat themselves (tests/conftest.py
leaves them out of that pass with every other test that cannot touch the database).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.listening import listening_socket

ROOT = Path(__file__).resolve().parents[2]
#: Where the browser tests leave screenshots for a person to look at, when LEDGER_SHOTS names a
#: folder; otherwise none are taken (a test run writes nothing outside its own clone).
SHOTS = Path(os.environ["LEDGER_SHOTS"]) if os.environ.get("LEDGER_SHOTS") else None
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
    reason = None
    if CHROMIUM is None:
        if os.environ.get("REQUIRE_BROWSER") == "1":
            return  # let the fixture fail loudly
        reason = "Chromium is not installed (apt-get install chromium): browser tests SKIPPED"
        print(f"\n!!! {reason}\n", file=sys.stderr)
    elif os.environ.get("DATABASE_URL", "").startswith("postgres"):
        reason = "browser tests run once, in the SQLite pass"
    if reason:
        for item in items:
            if "tests/browser" in str(item.fspath):
                item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture(scope="session")
def server_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment of the server's process: its own database under a fresh folder.
    A test that needs rows of its own runs `manage.py` with it (see `manage`)."""
    var = tmp_path_factory.mktemp("var")
    env = {
        **os.environ,
        "LEDGER_VAR_DIR": str(var),
        "DATABASE_URL": f"sqlite:///{var / 'ledger.sqlite3'}",
        # The site's settings with a cheap password hash (server_settings.py).
        "DJANGO_SETTINGS_MODULE": "tests.browser.server_settings",
    }
    env.pop("CELERY_BROKER_URL", None)
    return env


def screenshot(target: Any, name: str, *, failing: bool = False, **options: Any) -> None:
    """A screenshot of a page or a part of it into SHOTS, when screenshots are asked for. One
    taken as a test fails (``failing``) is always kept, in var/screenshots if not asked for."""
    folder = SHOTS or (ROOT / "var" / "screenshots" if failing else None)
    if folder is None:
        return
    folder.mkdir(parents=True, exist_ok=True)
    target.screenshot(path=str(folder / name), **options)


def manage(env: dict[str, str], *args: str) -> str:
    """Run a management command against the browser server's database."""
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    if done.returncode:
        # The command's own words, so a failed set-up says what it met.
        raise AssertionError(
            f"manage.py {args[0]} ended with {done.returncode}:\n{done.stderr[-4000:]}"
        )
    return done.stdout


@pytest.fixture(scope="session")
def server(server_env: dict[str, str], migrated_sqlite: Path) -> Iterator[str]:
    env = server_env
    python = sys.executable
    # `make run`: migrate (the session's migrated copy, tests/conftest.py), then the demo club.
    shutil.copy(migrated_sqlite, Path(env["LEDGER_VAR_DIR"]) / "ledger.sqlite3")
    subprocess.run(
        [python, "manage.py", "seed_demo", "--demo", "--password", "pisa-demo-2026"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        timeout=300,
    )
    held = listening_socket()
    port = held.getsockname()[1]
    fd = held.fileno()
    process = subprocess.Popen(
        [python, "-m", "ledger.serve", "--fd", str(fd), "--workers", "1", "--no-access-log"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        pass_fds=(fd,),
    )
    # The server has its own copy: this one would only keep the port open after it stops.
    held.close()
    url = f"http://127.0.0.1:{port}"
    try:
        # A busy machine (a second test run beside this one) was seen to need 14 s to start
        # the server: wait up to a minute, and say so if it exits instead.
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(url + "/healthz", timeout=1)
                break
            except OSError:
                if process.poll() is not None:
                    raise RuntimeError(f"the server exited with {process.returncode}") from None
                if time.monotonic() > deadline:
                    raise RuntimeError("the server did not start within 60 s") from None
                time.sleep(0.1)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)  # a loaded machine may take a while to stop the workers
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if CHROMIUM is None:
        pytest.fail("REQUIRE_BROWSER=1 but Chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        instance = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        yield instance
        instance.close()


def refusals(page: Any) -> list[str]:
    """What the page's Content-Security-Policy refused (the console's messages), collected
    from now on: a page that needs an inline script or an onclick= breaks under the policy.
    Also htmx's complaints that a selector a form names (its target, what it includes)
    matches nothing on the page: a control wired to nothing."""
    found: list[str] = []
    page.on(
        "console",
        lambda m: (
            found.append(m.text)
            if "Content Security Policy" in m.text or "returned no matches" in m.text
            else None
        ),
    )
    return found


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(locale="it-IT", viewport={"width": 1200, "height": 900})
    page = context.new_page()
    page.set_default_timeout(10_000)
    refused = refusals(page)
    yield page
    context.close()
    assert not refused, "the page's console complained:\n" + "\n".join(refused)


def log_in(page: Any, server: str) -> None:
    page.goto(server + "/login/")
    page.fill("#id_username", "demo")
    page.fill("#id_password", "pisa-demo-2026")
    page.click("button[type=submit]")
    page.wait_for_url(server + "/")
