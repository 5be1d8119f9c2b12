"""The address of the client a request comes from, as the rate limits count it.

``X-Forwarded-For`` is believed only from the proxies ``LEDGER_TRUSTED_PROXIES`` names:
from anyone else it is a header the client chose, and believing it let any client start
its count of failed logins again by sending a new address each time. Behind trusted
proxies, the header is read from its right end (the hop nearest to us) and the first
address that is not one of those proxies is the client: what a client writes to the left
of it cannot move the count.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

from django.conf import settings
from django.http import HttpRequest

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
