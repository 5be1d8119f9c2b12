"""Failed logins are limited per account and per address without locking a whole club out,
and the address counted is the client's, not one it chose.

The probe's findings: after 10 wrong passwords from one address, the right password was
refused for every account behind that address (a whole club behind one router locked
out by one person); and any client could start its count again by sending
``X-Forwarded-For`` (uvicorn, as ``python -m ledger.serve`` ran it, believed the header
from any client on the machine, a local proxy's included)."""

from __future__ import annotations

import ipaddress
import os
import re
import shutil
import subprocess
import sys
import time

import pytest
import requests
from django.core.exceptions import ImproperlyConfigured
from django.test import Client, RequestFactory

from ledger.web.login import FAILURES_PER_MINUTE
from tests.hardening.reliability import ROOT
from tests.listening import listening_socket

ROUTER = "198.51.100.1"


@pytest.fixture(autouse=True)
def one_counting_window(monkeypatch):
    """Every test here runs inside one window of the counts (see test_security.py)."""
    from django_ratelimit import core

    end = int(time.time()) + 60
    monkeypatch.setattr(core, "_get_window", lambda value, period: end)


def _login(username: str, password: str, address: str = ROUTER, client: Client | None = None):
    return (client or Client()).post(
        "/login/",
        {"username": username, "password": password},
        REMOTE_ADDR=address,
        HTTP_ACCEPT_LANGUAGE="en",
    )


@pytest.fixture
def the_club_room(people, django_user_model):
    """Twelve members of the club, each with their own password, all behind one router."""
    names = [f"socio{n}" for n in range(12)]
    for name in names:
        django_user_model.objects.create_user(username=name, password="pw-" + name)
    return names


def test_a_club_behind_one_address_logs_in_while_one_person_keeps_typing_a_wrong_password(
    the_club_room,
):
    careless, *everyone_else = the_club_room
    for attempt in range(FAILURES_PER_MINUTE + 3):
        answer = _login(careless, "wrong")
        assert answer.status_code == (200 if attempt < FAILURES_PER_MINUTE else 429), attempt
    for name in everyone_else:
        client = Client()
        assert _login(name, "pw-" + name, client=client).status_code == 302, name
        assert "_auth_user_id" in client.session
    # The one who failed waits, behind the router or anywhere else, right password or not.
    waiting = Client()
    refused = _login(careless, "pw-" + careless, client=waiting)
    assert refused.status_code == 429
    assert "Too many failed logins" in refused.content.decode()
    assert "_auth_user_id" not in waiting.session
    assert _login(careless, "pw-" + careless, address="203.0.113.50").status_code == 429


def test_a_limited_address_gets_one_guess_per_account_and_then_waits(the_club_room):
    guessed = the_club_room[:3]
    for n in range(FAILURES_PER_MINUTE):
        _login(f"nobody{n}", "guess")
    for name in guessed:
        # One guess at an account that had not failed: wrong, so refused and counted ...
        assert _login(name, "guess").status_code == 429
        # ... and from now on that account is refused from here without a check.
        client = Client()
        assert _login(name, "pw-" + name, client=client).status_code == 429
        assert "_auth_user_id" not in client.session
    # From another address, those accounts (one failure each) are not held.
    assert _login(guessed[0], "pw-" + guessed[0], address="203.0.113.60").status_code == 302


def test_the_admin_login_lets_an_account_that_has_not_failed_through_a_limited_address(
    people, django_user_model
):
    django_user_model.objects.create_superuser(username="boss", password="pw-boss", email="")
    for n in range(FAILURES_PER_MINUTE):
        Client().post(
            "/admin/login/", {"username": f"nobody{n}", "password": "x"}, REMOTE_ADDR=ROUTER
        )
    wrong = Client().post(
        "/admin/login/", {"username": "boss", "password": "x"}, REMOTE_ADDR=ROUTER
    )
    assert wrong.status_code == 429
    refused = Client().post(
        "/admin/login/", {"username": "boss", "password": "pw-boss"}, REMOTE_ADDR=ROUTER
    )
    assert refused.status_code == 429
    django_user_model.objects.create_superuser(username="boss2", password="pw-boss2", email="")
    fine = Client().post(
        "/admin/login/", {"username": "boss2", "password": "pw-boss2"}, REMOTE_ADDR=ROUTER
    )
    assert fine.status_code == 302


# --- the client's address --------------------------------------------------------------------


def _address(settings, remote: str, forwarded: str | None, trusted: str = "") -> str:
    from ledger.web.addresses import client_address

    settings.LEDGER_TRUSTED_PROXIES = tuple(
        ipaddress.ip_network(n.strip(), strict=False) for n in trusted.split(",") if n.strip()
    )
    extra = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return client_address(RequestFactory().get("/", **extra))


def test_x_forwarded_for_is_believed_only_from_a_trusted_proxy(settings):
    assert _address(settings, "203.0.113.7", "192.0.2.99") == "203.0.113.7"  # trust none
    assert _address(settings, "203.0.113.7", "192.0.2.99", "10.0.0.0/8") == "203.0.113.7"
    assert _address(settings, "10.1.2.3", "192.0.2.99", "10.0.0.0/8") == "192.0.2.99"
    # What the client wrote to the left of the proxies' own hops changes nothing.
    assert _address(settings, "10.1.2.3", "1.2.3.4, 192.0.2.99", "10.0.0.0/8") == "192.0.2.99"
    assert (
        _address(settings, "10.1.2.3", "1.2.3.4, 192.0.2.99, 10.9.9.9", "10.0.0.0/8, ::1")
        == "192.0.2.99"
    )
    # An unreadable hop stops the walk at the last proxy that passed it on.
    assert _address(settings, "10.1.2.3", "192.0.2.99, junk", "10.0.0.0/8") == "10.1.2.3"
    assert _address(settings, "10.1.2.3", None, "10.0.0.0/8") == "10.1.2.3"
    assert _address(settings, "::1", "2001:db8::5", "::1") == "2001:db8::5"


def test_a_forged_x_forwarded_for_does_not_reset_the_count_of_a_client(settings, people):
    for n in range(FAILURES_PER_MINUTE):
        Client().post(
            "/login/",
            {"username": f"nobody{n}", "password": "guess"},
            REMOTE_ADDR="203.0.113.7",
            HTTP_X_FORWARDED_FOR=f"192.0.2.{n}",
        )
    again = Client().post(
        "/login/",
        {"username": "nobody0", "password": "guess"},
        REMOTE_ADDR="203.0.113.7",
        HTTP_X_FORWARDED_FOR="192.0.2.200",
    )
    assert again.status_code == 429


def test_the_trusted_proxies_setting_refuses_what_is_not_an_address(monkeypatch):
    from ledger.env import env_networks

    monkeypatch.setenv("LEDGER_TRUSTED_PROXIES", "10.0.0.0/8, 127.0.0.1, ::1")
    assert [str(n) for n in env_networks("LEDGER_TRUSTED_PROXIES")] == [
        "10.0.0.0/8",
        "127.0.0.1/32",
        "::1/128",
    ]
    monkeypatch.setenv("LEDGER_TRUSTED_PROXIES", "10.0.0.0/8, the-proxy")
    with pytest.raises(ImproperlyConfigured, match="the-proxy"):
        env_networks("LEDGER_TRUSTED_PROXIES")
    monkeypatch.delenv("LEDGER_TRUSTED_PROXIES")
    assert env_networks("LEDGER_TRUSTED_PROXIES") == ()


@pytest.fixture
def served(tmp_path, migrated_sqlite):
    """``python -m ledger.serve`` as the Procfile runs it, on a fresh install's database."""
    shutil.copy(migrated_sqlite, tmp_path / "ledger.sqlite3")
    held = listening_socket()
    port, fd = held.getsockname()[1], held.fileno()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "LEDGER_"))}
    env.pop("DATABASE_URL", None)
    env.pop("CACHE_URL", None)
    env.update(
        DATABASE_URL=f"sqlite:///{tmp_path / 'ledger.sqlite3'}",
        LEDGER_VAR_DIR=str(tmp_path / "var"),
        DJANGO_SECRET_KEY="login-limits-test-only-" + "k" * 40,
        WEB_THREADS="2",
        LEDGER_GC_FREEZE="0",
        ENGINES_PURE_PYTHON="1",
    )
    log = (tmp_path / "serve.log").open("wb")
    # ledger.serve's own main, in one process, with the counts' window held for the test's
    # minute as the other tests here hold it (a slow machine could straddle two windows).
    program = (
        "import time; from django_ratelimit import core; end = int(time.time()) + 120; "
        "core._get_window = lambda value, period: end; "
        f"from ledger.serve import main; main(['--fd', '{fd}', '--no-access-log'])"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", program],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        pass_fds=(fd,),
    )
    held.close()  # the server has its own copy
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                if requests.get(url + "/healthz", timeout=2).status_code == 200:
                    break
            except requests.RequestException:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(
                    "ledger.serve did not start:\n" + (tmp_path / "serve.log").read_text()
                )
            time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)  # a loaded machine may take a while to stop it
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        log.close()


def test_a_client_of_the_served_site_cannot_reset_its_count_with_x_forwarded_for(served):
    session = requests.Session()
    page = session.get(served + "/login/", timeout=10).text
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert token, "no CSRF token on the login page"

    def attempt(username: str, forged: str) -> int:
        return session.post(
            served + "/login/",
            data={"username": username, "password": "guess", "csrfmiddlewaretoken": token[1]},
            headers={"X-Forwarded-For": forged, "Referer": served + "/login/"},
            timeout=10,
        ).status_code

    for n in range(FAILURES_PER_MINUTE):
        assert attempt(f"nobody{n}", f"192.0.2.{n}") == 200
    # A second guess at an account already tried, "from" an address never seen: the count
    # is this client's, so it waits.
    assert attempt("nobody0", "192.0.2.250") == 429
