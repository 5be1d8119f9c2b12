"""Login guessing is slowed down, no secret lives in the repository, and the production
settings pass Django's deploy check."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client

from ledger.web.login import FAILURES_PER_MINUTE

ROOT = Path(__file__).resolve().parents[2]


# --- login rate limit ---------------------------------------------------------------------


@pytest.fixture(autouse=True)
def one_counting_window(monkeypatch):
    """The failures are counted per minute-long window of the clock; a test of a dozen
    logins on a slow machine could straddle two windows and see its count start again.
    Each test here runs inside one window, which ends a minute after it starts."""
    import time

    from django_ratelimit import core

    end = int(time.time()) + 60
    monkeypatch.setattr(core, "_get_window", lambda value, period: end)


def _login(client: Client, password: str, address: str = "203.0.113.7"):
    return client.post(
        "/login/",
        {"username": "organiser", "password": password},
        REMOTE_ADDR=address,
        HTTP_ACCEPT_LANGUAGE="en",
    )


def test_failed_logins_are_limited_per_address_with_a_clear_message(people):
    client = Client()
    for _ in range(FAILURES_PER_MINUTE):
        assert _login(client, "guess").status_code == 200  # the form again, with its error
    blocked = _login(client, "pw-organiser")  # even the right password waits now
    assert blocked.status_code == 429
    assert "Too many failed logins" in blocked.content.decode()
    assert "_auth_user_id" not in client.session
    # Another address is not affected (for another account: this one waits too).
    other = Client().post(
        "/login/", {"username": "member", "password": "pw-member"}, REMOTE_ADDR="198.51.100.9"
    )
    assert other.status_code == 302


def test_the_admin_login_shares_the_limit(people, django_user_model):
    django_user_model.objects.create_superuser(username="boss", password="pw-boss", email="")
    client = Client()
    for _ in range(FAILURES_PER_MINUTE):
        wrong = client.post(
            "/admin/login/", {"username": "boss", "password": "guess"}, REMOTE_ADDR="203.0.113.8"
        )
        assert wrong.status_code == 200
    blocked = client.post(
        "/admin/login/", {"username": "boss", "password": "pw-boss"}, REMOTE_ADDR="203.0.113.8"
    )
    assert blocked.status_code == 429
    assert "_auth_user_id" not in client.session
    django_user_model.objects.create_superuser(username="boss2", password="pw-boss2", email="")
    other = Client().post(
        "/admin/login/", {"username": "boss2", "password": "pw-boss2"}, REMOTE_ADDR="198.51.100.1"
    )
    assert other.status_code == 302
    # The account itself waits, from any address.
    again = Client().post(
        "/admin/login/", {"username": "boss", "password": "pw-boss"}, REMOTE_ADDR="198.51.100.2"
    )
    assert again.status_code == 429


def test_failed_logins_are_limited_per_account_from_any_address(people):
    for n in range(FAILURES_PER_MINUTE):
        assert _login(Client(), "guess", address=f"203.0.113.{n + 20}").status_code == 200
    blocked = _login(Client(), "pw-organiser", address="198.51.100.77")
    assert blocked.status_code == 429
    # Another account from that address is not affected.
    other = Client().post(
        "/login/",
        {"username": "member", "password": "pw-member"},
        REMOTE_ADDR="198.51.100.77",
    )
    assert other.status_code == 302


def test_the_login_count_is_shared_by_every_process(people, settings):
    """The count lives in the "limits" cache: Redis with CACHE_URL, else files that every
    process of the machine reads; a second connection to it (as another process makes)
    sees the failures the first counted."""
    from django.core.cache import caches

    assert "LocMem" not in settings.CACHES["limits"]["BACKEND"]
    assert settings.RATELIMIT_USE_CACHE == "limits"
    for _ in range(FAILURES_PER_MINUTE):
        _login(Client(), "guess")
    other_process = caches.create_connection("limits")
    keys = (
        [k for k in other_process._list_cache_files()]
        if hasattr(other_process, "_list_cache_files")
        else []
    )
    assert keys or settings.CACHES["limits"]["BACKEND"].endswith("RedisCache")
    assert _login(Client(), "pw-organiser").status_code == 429


def test_successful_logins_do_not_count_towards_the_limit(people):
    for _ in range(FAILURES_PER_MINUTE + 5):
        assert _login(Client(), "pw-organiser").status_code == 302


# --- no secret in the repository ----------------------------------------------------------

# Built from pieces so that this file does not match its own patterns.
_BEGIN = "-----" + "BEGIN"
SECRET_PATTERNS = {
    "a private key": re.compile(
        _BEGIN + r" (?:RSA |EC |DSA |OPENSSH |PGP |ENCRYPTED )?PRIVATE KEY"
    ),
    "an AWS access key": re.compile(r"\bAKIA[0-9A-Z]{16}\b"),
    "a hard-coded SECRET_KEY": re.compile(
        r"""^\s*SECRET_KEY\s*=\s*(?:r|b)?["'][^"']{8,}["']""", re.MULTILINE
    ),
    "Django's generated insecure key": re.compile("django-" + r"insecure-[^\s\"']{10,}"),
    "a GitHub token": re.compile(r"\bgh[pousr]_[A-Za-z0-9]{30,}\b"),
    "a Slack token": re.compile(r"\bxox[abpr]-[A-Za-z0-9-]{10,}\b"),
}


def _tracked_files() -> list[Path]:
    out = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode()
    return [ROOT / name for name in out.split("\0") if name]


def test_no_tracked_file_holds_a_private_key_or_a_hard_coded_secret():
    files = _tracked_files()
    assert len(files) > 100, "git ls-files found too little: is this a checkout?"
    found = []
    for path in files:
        if not path.is_file() or path.stat().st_size > 2_000_000:
            continue
        text = path.read_bytes().decode("utf-8", errors="ignore")
        for what, pattern in SECRET_PATTERNS.items():
            if pattern.search(text):
                found.append(f"{path.relative_to(ROOT)}: {what}")
    assert found == []


def test_the_scan_would_catch_a_planted_key():
    planted = "\n".join(
        [
            'SECRET_KEY = "' + "abcdefghij" * 5 + '"',
            _BEGIN + " RSA PRIVATE KEY-----",
            "AKIA" + "ABCDEFGHIJKLMNOP",
        ]
    )
    hits = {what for what, pattern in SECRET_PATTERNS.items() if pattern.search(planted)}
    assert hits == {"a hard-coded SECRET_KEY", "a private key", "an AWS access key"}


def test_the_key_files_the_service_makes_are_not_tracked():
    ignored = subprocess.run(
        ["git", "check-ignore", "-q", "var/secret_key"], cwd=ROOT, check=False
    ).returncode
    assert ignored == 0, "var/ must stay out of git: the generated secret key lives there"


def _settings_value(name: str, env: dict[str, str]) -> str:
    run = subprocess.run(
        [
            sys.executable,
            "-c",
            "import django; django.setup(); from django.conf import settings; "
            f"print(settings.{name})",
        ],
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "ledger.settings"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    return run.stdout.strip()


def test_the_secret_key_comes_from_the_environment_or_a_file_made_at_install(tmp_path):
    base = {k: v for k, v in os.environ.items() if k != "DJANGO_SECRET_KEY"}
    base["LEDGER_VAR_DIR"] = str(tmp_path)
    from_env = _settings_value("SECRET_KEY", {**base, "DJANGO_SECRET_KEY": "from-the-env-" * 4})
    assert from_env == "from-the-env-" * 4
    made = _settings_value("SECRET_KEY", base)
    assert len(made) >= 50
    assert (tmp_path / "secret_key").read_text().strip() == made
    assert oct((tmp_path / "secret_key").stat().st_mode & 0o777) == "0o600"


# --- deploy check ---------------------------------------------------------------------------


def _check(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", "check", *args, "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize("database", ["sqlite", "postgres"])
def test_the_deploy_check_is_clean_with_a_full_production_environment(tmp_path, database):
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.update(
        DJANGO_SECRET_KEY="p" * 30 + "-a-long-random-production-key-0123456789",
        DJANGO_HTTPS="1",
        DJANGO_ALLOWED_HOSTS="ledger.example.org,www.ledger.example.org",
        DJANGO_CSRF_TRUSTED_ORIGINS="https://ledger.example.org",
        DJANGO_STATIC_MANIFEST="1",
        CACHE_URL="redis://127.0.0.1:6379/1",
        CELERY_BROKER_URL="redis://127.0.0.1:6379/0",
        CHANNEL_REDIS_URL="redis://127.0.0.1:6379/2",
        LEDGER_VAR_DIR=str(tmp_path),
    )
    if database == "postgres":
        env["DATABASE_URL"] = "postgres://ledger:secret@db.example.org:5432/ledger"
    else:
        env.pop("DATABASE_URL", None)
    run = _check(env, "--deploy")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "no issues" in run.stdout


def test_the_development_defaults_still_pass_the_ordinary_check(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    # The defaults: no database, cache, broker nor channel layer named (a test run may name
    # a Redis channel layer for its own live tests).
    for name in ("DATABASE_URL", "CACHE_URL", "CELERY_BROKER_URL", "CHANNEL_REDIS_URL"):
        env.pop(name, None)
    env["LEDGER_VAR_DIR"] = str(tmp_path)
    run = _check(env)
    assert run.returncode == 0, run.stdout + run.stderr


# --- import jobs are for scorekeepers and up ----------------------------------------------


def test_plain_members_cannot_read_import_jobs_through_the_api(people):
    from ledger.clubs.models import ImportJob

    job = ImportJob.objects.create(
        club=people.club,
        user=people.users["scorekeeper"],
        filename="night.csv",
        format="csv",
        content="secret,row",
        errors=[{"line": 2, "message": "secret row"}],
    )
    for who, sees in (("member", False), ("stranger", False), ("scorekeeper2", True)):
        api = people.client(who)
        listed = api.get("/api/v1/imports/").content.decode()
        assert ("night.csv" in listed) is sees, who
        assert (api.get(f"/api/v1/imports/{job.pk}/").status_code == 200) is sees, who
