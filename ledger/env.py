"""Typed settings helpers: read the environment, fail loudly on a value that makes no sense."""

from __future__ import annotations

import ipaddress
import os

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool = False) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r}: use 1/0, true/false, yes/no or on/off")


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r}: expected a whole number") from None


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def env_networks(name: str) -> tuple[Network, ...]:
    """A comma-separated list of addresses and networks (``10.0.0.5, 172.16.0.0/12,
    ::1``); an address is a network of one. Nothing by default."""
    networks = []
    for item in env_list(name, []):
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            raise ImproperlyConfigured(
                f"{name}: {item!r} is neither an IP address nor a network such as 10.0.0.0/8"
            ) from None
    return tuple(networks)


def env_email(name: str) -> dict[str, object]:
    """Django's mail settings from one URL: ``smtp://user:password@host:25`` (plain, or
    STARTTLS with ``?tls=1``), ``smtps://host:465`` (TLS from the first byte), ``console:``
    (messages printed, for a laptop) or ``file:///path`` (one file per message). Unset: the
    console."""
    from urllib.parse import parse_qs, unquote, urlsplit

    raw = os.environ.get(name, "").strip()
    if not raw:
        return {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}
    url = urlsplit(raw)
    if url.scheme == "console":
        return {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}
    if url.scheme == "file":
        return {
            "EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
            "EMAIL_FILE_PATH": unquote(url.path),
        }
    if url.scheme not in ("smtp", "smtps") or not url.hostname:
        raise ImproperlyConfigured(
            f"{name}={raw!r}: use smtp://host:port, smtps://host:port, console: or file:///path"
        )
    query = {k: v[-1] for k, v in parse_qs(url.query).items()}
    try:
        port = url.port or (465 if url.scheme == "smtps" else 25)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r}: the port is not a number") from None
    return {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": url.hostname,
        "EMAIL_PORT": port,
        "EMAIL_HOST_USER": unquote(url.username or ""),
        "EMAIL_HOST_PASSWORD": unquote(url.password or ""),
        "EMAIL_USE_SSL": url.scheme == "smtps",
        "EMAIL_USE_TLS": url.scheme == "smtp" and query.get("tls", "").lower() in _TRUE,
        "EMAIL_TIMEOUT": int(query.get("timeout", "10")),
    }
