"""The address of the client a request comes from, as the rate limits count it.

``X-Forwarded-For`` is believed only from the proxies ``LEDGER_TRUSTED_PROXIES`` names:
from anyone else it is a header the client chose, and believing it let any client start
its count of failed logins again by sending a new address each time. Behind trusted
proxies, the header is read from its right end (the hop nearest to us) and the first
address that is not one of those proxies is the client: what a client writes to the left
of it cannot move the count.

``X-Forwarded-Proto`` likewise: ``ForwardedProtoMiddleware`` passes it on to Django's
``SECURE_PROXY_SSL_HEADER`` only when the connection comes from a trusted proxy, so that a
client cannot have a plain-HTTP request taken for HTTPS (secure cookies sent over it, the
redirect to HTTPS skipped).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable, Iterable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from ledger.env import Network

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


def _address(text: str) -> Address | None:
    try:
        return ipaddress.ip_address(text.strip())
    except ValueError:
        return None


def _trusted(address: Address, proxies: Iterable[Network]) -> bool:
    return any(address.version == net.version and address in net for net in proxies)


def client_address(request: HttpRequest) -> str:
    peer_text = str(request.META.get("REMOTE_ADDR") or "")
    proxies = settings.LEDGER_TRUSTED_PROXIES
    peer = _address(peer_text)
    if peer is None or not proxies or not _trusted(peer, proxies):
        return peer_text
    hops = [h for h in str(request.META.get("HTTP_X_FORWARDED_FOR", "")).split(",") if h.strip()]
    client = peer
    for hop in reversed(hops):
        address = _address(hop)
        if address is None:
            break  # what the last trusted hop passed on cannot be read: stop at that hop
        client = address
        if not _trusted(address, proxies):
            break
    return str(client)


# The request's key ``SECURE_PROXY_SSL_HEADER`` names (ledger/settings.py): not an HTTP_
# key, so no client can send it; only the middleware below sets it.
FORWARDED_PROTO = "LEDGER_FORWARDED_PROTO"


def from_trusted_proxy(request: HttpRequest) -> bool:
    """Whether the connection comes from one of the proxies ``LEDGER_TRUSTED_PROXIES``
    names."""
    proxies = settings.LEDGER_TRUSTED_PROXIES
    peer = _address(str(request.META.get("REMOTE_ADDR") or ""))
    return peer is not None and bool(proxies) and _trusted(peer, proxies)


class ForwardedProtoMiddleware:
    """The scheme a trusted proxy says the client used (``X-Forwarded-Proto``, its last
    value: the one the proxy nearest to us wrote), for Django's ``SECURE_PROXY_SSL_HEADER``;
    from anyone else the header is ignored and the connection's own scheme counts. First
    in the list, before the security middleware's redirect to HTTPS."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request.META.pop(FORWARDED_PROTO, None)
        said = str(request.META.get("HTTP_X_FORWARDED_PROTO") or "")
        if said and from_trusted_proxy(request):
            request.META[FORWARDED_PROTO] = said.rsplit(",", 1)[-1].strip().lower()
        return self.get_response(request)
