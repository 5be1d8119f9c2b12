"""``python -m ledger.serve``: the web process (pages, API and live tables) under uvicorn.

Several worker processes only with a shared channel layer (CHANNEL_REDIS_URL): in memory,
a move made in one process would never reach a socket held by another, so without Redis one
process serves everything (its threads still serve many requests at once).
"""

from __future__ import annotations

import argparse
import os
import socket
import sys
from typing import Any

import uvicorn

from ledger.env import env_networks


def workers_for(requested: int, shared_layer: bool) -> int:
    return max(1, requested) if shared_layer else 1


def proxy_options() -> dict[str, Any]:
    """uvicorn's options for the proxies' headers: read only from the trusted proxies, as
    the site reads them (ledger/web/addresses.py)."""
    trusted = [str(net) for net in env_networks("LEDGER_TRUSTED_PROXIES")]
    if not trusted:
        return {"proxy_headers": False}
    return {"proxy_headers": True, "forwarded_allow_ips": trusted}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    parser.add_argument("--workers", type=int, default=int(os.environ.get("WEB_CONCURRENCY", "2")))
    parser.add_argument("--log-level", default=os.environ.get("WEB_LOG_LEVEL", "info"))
    parser.add_argument("--no-access-log", action="store_true")
    parser.add_argument(
        "--fd",
        type=int,
        default=None,
        help="serve on this listening socket, bound by the process that started this one "
        "(one worker; --host and --port are then ignored): a test suite hands over a port it "
        "holds, so that no other program can take it between its choice and the server's start",
    )
    args = parser.parse_args(argv)
    shared = bool(os.environ.get("CHANNEL_REDIS_URL"))
    workers = workers_for(args.workers, shared)
    if workers < args.workers:
        print(
            f"ledger.serve: one process, not {args.workers}: without CHANNEL_REDIS_URL the live "
            "tables' notices stay inside one process (docs/operations.md)",
            file=sys.stderr,
        )
    options: dict[str, Any] = dict(
        loop="uvloop",
        http="httptools",
        ws="websockets-sansio",
        lifespan="on",
        log_level=args.log_level,
        access_log=not args.no_access_log,
        # X-Forwarded-For and -Proto are believed only from LEDGER_TRUSTED_PROXIES (none by
        # default; uvicorn's own default believed any client on this machine).
        **proxy_options(),
        # On a restart the open sockets are closed after this long; browsers reconnect.
        timeout_graceful_shutdown=10,
    )
    if args.fd is not None:
        # The socket's own family (uvicorn's --fd would take it for a Unix socket).
        held = socket.socket(fileno=args.fd)
        uvicorn.Server(uvicorn.Config("ledger.asgi:application", **options)).run(sockets=[held])
        return
    uvicorn.run(
        "ledger.asgi:application", host=args.host, port=args.port, workers=workers, **options
    )


if __name__ == "__main__":
    main()
