"""Settings come from the environment; production settings pass Django's deploy check."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from ledger.env import env_bool, env_int

ROOT = Path(__file__).resolve().parents[2]


def test_a_nonsense_boolean_fails_loudly(monkeypatch):
    monkeypatch.setenv("X_FLAG", "perhaps")
    with pytest.raises(ImproperlyConfigured, match="X_FLAG"):
        env_bool("X_FLAG")


def test_a_nonsense_number_fails_loudly(monkeypatch):
    monkeypatch.setenv("X_NUM", "ten")
    with pytest.raises(ImproperlyConfigured, match="X_NUM"):
        env_int("X_NUM", 1)


def test_debug_is_off_unless_asked_for():
    from django.conf import settings

    assert os.environ.get("DJANGO_DEBUG") is None
    assert settings.DEBUG is False


def test_the_deploy_check_is_clean_with_production_settings(tmp_path):
    env = {
        **os.environ,
        "DJANGO_SECRET_KEY": "x" * 20 + "-production-secret-key-for-the-deploy-check-0123456789",
        "DJANGO_HTTPS": "1",
        "DJANGO_ALLOWED_HOSTS": "ledger.example.org",
        "LEDGER_VAR_DIR": str(tmp_path),
    }
    env.pop("DJANGO_DEBUG", None)
    # One process, no broker, cache nor channel layer named (a test run may name a Redis
    # channel layer for its own live tests: with it, production also names a shared cache).
    for name in ("CACHE_URL", "CELERY_BROKER_URL", "CHANNEL_REDIS_URL"):
        env.pop(name, None)
    run = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "no issues" in run.stdout
