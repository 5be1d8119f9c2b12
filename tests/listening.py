"""Sockets for the servers a test starts: each held from the moment its port is chosen."""

from __future__ import annotations

import socket


def listening_socket() -> socket.socket:
    """A socket listening on a port of its own, for a server this process starts and hands
    it to (``python -m ledger.serve --fd``, gunicorn's ``--bind fd://``, an SMTP server's
    ``sock``): held from the moment it is chosen, no other program (another test run beside
    this one) can take the port before the server starts, after it is killed and before it
    starts again, nor answer in its place. A port picked free and closed again, then named
    to the server, can be taken by anyone in between."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(128)
    s.set_inheritable(True)
    return s
