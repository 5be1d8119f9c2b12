"""Where a webhook may deliver: the checks of an address (https, a host, no user name, not
this machine nor a private network unless the settings allow it) and of every address its
host's name resolves to. A leaf: the club's model checks an address with it when a webhook
is saved, and the deliveries (ledger/clubs/webhooks.py) before each connection."""

from __future__ import annotations

import ipaddress
import socket
import urllib.parse

from django.conf import settings
from django.utils.translation import gettext as _


class Refused(Exception):
    """An address a delivery may not go to, with the reason in the reader's language."""


def _allowed_address(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if getattr(settings, "LEDGER_WEBHOOKS_ALLOW_PRIVATE", False):
        return not ip.is_unspecified and not ip.is_multicast
    return ip.is_global and not (
        ip.is_loopback
        or ip.is_private
        or ip.is_link_local
        or ip.is_multicast
        or ip.is_reserved
        or ip.is_unspecified
    )


def check_url(url: str) -> tuple[str, str, int, str]:
    """The scheme, host, port and path of an address a delivery may go to, or Refused.
    An address given as a number is checked here; a name is checked once resolved."""
    try:
        parts = urllib.parse.urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise Refused(_("This is not a web address.")) from exc
    scheme = parts.scheme.lower()
    allowed = (
        ("https", "http") if getattr(settings, "LEDGER_WEBHOOKS_ALLOW_HTTP", False) else ("https",)
    )
    if scheme not in allowed:
        raise Refused(_("A webhook's address must start with https://."))
    host = (parts.hostname or "").rstrip(".")
    if not host:
        raise Refused(_("This address names no host."))
    if parts.username or parts.password:
        raise Refused(_("An address with a user name or password is not accepted."))
    try:
        literal = ipaddress.ip_address(host)
    except ValueError:
        literal = None
        local = host.lower() == "localhost" or host.lower().endswith(".localhost")
        if local and not getattr(settings, "LEDGER_WEBHOOKS_ALLOW_PRIVATE", False):
            raise Refused(_("This address points at this machine.")) from None
    if literal is not None and not _allowed_address(literal):
        raise Refused(_("This address is not on the public internet."))
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return scheme, host, port or (443 if scheme == "https" else 80), path


def resolve(host: str, port: int) -> str:
    """The address to connect to: the host's first, once every address it resolves to
    has been checked (a name that also resolves to a private address is refused)."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as exc:
        raise Refused(_("The host's name does not resolve: %(e)s") % {"e": exc}) from exc
    addresses = [str(info[4][0]) for info in found]
    for address in addresses:
        if not _allowed_address(ipaddress.ip_address(address.split("%")[0])):
            raise Refused(
                _("%(host)s resolves to %(ip)s, which is not on the public internet.")
                % {"host": host, "ip": address}
            )
    if not addresses:
        raise Refused(_("The host's name does not resolve."))
    return addresses[0]
