"""``X-Forwarded-Proto`` is believed only from the proxies ``LEDGER_TRUSTED_PROXIES`` names.

Django's ``SECURE_PROXY_SSL_HEADER`` read the header from anyone: a client speaking plain
HTTP to the web process could say ``X-Forwarded-Proto: https`` and be taken for HTTPS (no
redirect to HTTPS, secure cookies set over plain HTTP). Now the site reads the scheme a
trusted proxy passed on (ledger/web/addresses.py), and the header from anyone else counts
for nothing.
"""

from __future__ import annotations

import ipaddress

import pytest
from django.test import Client, RequestFactory

from ledger.web.addresses import FORWARDED_PROTO, ForwardedProtoMiddleware

PROXY = "10.0.0.5"


@pytest.fixture
def behind_https(settings):
    """Production's settings with DJANGO_HTTPS=1 and one trusted proxy."""
    settings.SECURE_PROXY_SSL_HEADER = (FORWARDED_PROTO, "https")
    settings.SECURE_SSL_REDIRECT = True
    settings.LEDGER_TRUSTED_PROXIES = (ipaddress.ip_network(PROXY),)
    return settings


def _secure(remote: str, proto: str | None) -> bool:
    extra = {"REMOTE_ADDR": remote}
    if proto is not None:
        extra["HTTP_X_FORWARDED_PROTO"] = proto
    request = RequestFactory().get("/", **extra)
    seen = []
    ForwardedProtoMiddleware(lambda r: seen.append(r.is_secure()))(request)  # type: ignore[arg-type,func-returns-value]
    return seen[0]


def test_the_forwarded_scheme_counts_only_from_a_trusted_proxy(behind_https):
    assert _secure(PROXY, "https")
    assert not _secure(PROXY, "http")
    assert not _secure(PROXY, None)
    # Anyone else: the header is the client's own word, and counts for nothing.
    assert not _secure("203.0.113.7", "https")
    assert not _secure("10.0.0.6", "https")
    # The proxy nearest to us writes the last value; what the client put before it is not
    # believed.
    assert not _secure(PROXY, "https, http")
    assert _secure(PROXY, "http, https")


def test_without_trusted_proxies_no_one_s_forwarded_scheme_counts(behind_https):
    behind_https.LEDGER_TRUSTED_PROXIES = ()
    assert not _secure(PROXY, "https")
    assert not _secure("127.0.0.1", "https")


def test_a_client_cannot_name_the_trusted_key_itself(behind_https):
    # The key the setting names is not an HTTP_ key: a header cannot reach it, and a value
    # already there (from the server's environment, say) is dropped before it is read.
    request = RequestFactory().get("/", REMOTE_ADDR="203.0.113.7")
    request.META[FORWARDED_PROTO] = "https"
    seen = []
    ForwardedProtoMiddleware(lambda r: seen.append(r.is_secure()))(request)  # type: ignore[arg-type,func-returns-value]
    assert seen == [False]


@pytest.mark.django_db
def test_a_plain_request_saying_https_is_still_sent_to_https_unless_a_proxy_said_so(
    behind_https,
):
    client = Client()
    spoofed = client.get("/healthz", REMOTE_ADDR="203.0.113.7", HTTP_X_FORWARDED_PROTO="https")
    assert spoofed.status_code == 301
    assert spoofed["Location"].startswith("https://")
    proxied = client.get("/healthz", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_PROTO="https")
    assert proxied.status_code == 200
