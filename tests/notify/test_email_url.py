"""The SMTP server is named by one URL in the environment (EMAIL_URL)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from ledger.env import env_email


def test_an_smtp_url_names_host_port_login_and_starttls(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EMAIL_URL", "smtp://club%40mail.it:se%2Fgreto@mail.example.org:587?tls=1")
    found = env_email("EMAIL_URL")
    assert found["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert (found["EMAIL_HOST"], found["EMAIL_PORT"]) == ("mail.example.org", 587)
    assert (found["EMAIL_HOST_USER"], found["EMAIL_HOST_PASSWORD"]) == ("club@mail.it", "se/greto")
    assert found["EMAIL_USE_TLS"] is True and found["EMAIL_USE_SSL"] is False


def test_smtps_is_tls_from_the_first_byte_on_its_own_port(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EMAIL_URL", "smtps://mail.example.org")
    found = env_email("EMAIL_URL")
    assert found["EMAIL_PORT"] == 465 and found["EMAIL_USE_SSL"] is True


def test_without_a_url_messages_are_printed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("EMAIL_URL", raising=False)
    assert env_email("EMAIL_URL")["EMAIL_BACKEND"].endswith("console.EmailBackend")


def test_a_url_of_another_kind_stops_the_service_with_its_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("EMAIL_URL", "imap://mail.example.org")
    with pytest.raises(ImproperlyConfigured, match="EMAIL_URL"):
        env_email("EMAIL_URL")
