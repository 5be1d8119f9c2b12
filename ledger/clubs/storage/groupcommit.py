"""Group commit: requests of one process that write at the same moment share a transaction.

A result costs the database a few statements and a flush to disk at commit, and it holds
its club's journal head (the hash chain is one line per club) from its last statements to
the commit. When several arrive
together, the first becomes the leader: it takes every write queued at that moment and
commits them as one batch, while the others wait for that commit. Nobody is answered before
their result is durable, and a batch that fails as a whole (a reused idempotency key, say)
is not retried as a batch: each request then writes alone and gets its own answer. When
the batch's transaction breaks for any other reason (the database went away), every request
in it fails as its own would have, and the client's retry decides.

Turned off with LEDGER_GROUP_COMMIT=0 (then every request commits on its own).
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable, Sequence
from typing import Any

from django.conf import settings


def enabled() -> bool:
    return bool(getattr(settings, "LEDGER_GROUP_COMMIT", True))


class _Ticket:
    __slots__ = ("done", "error", "event", "lead", "write")

    def __init__(self, write: Any) -> None:
        self.write = write
        self.event = threading.Event()
        self.lead = False
        self.done = False
        self.error: BaseException | None = None


_lock = threading.Lock()
_queue: list[_Ticket] = []
_busy = False


def submit(write: Any, run: Callable[[Sequence[Any]], bool]) -> bool:
    """Have ``write`` written in a batch by ``run`` (which commits a batch and says whether
    it succeeded). True once it is committed; False when the caller must write it alone;
    the batch's error, raised, when ``run`` raised one."""
    global _busy
    ticket = _Ticket(write)
    with _lock:
        _queue.append(ticket)
        if _busy:
            leader = False
        else:
            _busy = leader = True
    if not leader:
        ticket.event.wait()
        if not ticket.lead:
            if ticket.error is not None:
                # The batch's transaction broke (the database went away, say): this request
                # gets the same error its own transaction would have met.
                raise copy.copy(ticket.error)
            return ticket.done
    # The leader takes everything queued now, its own write included.
    with _lock:
        batch = list(_queue)
        _queue.clear()
    ok, error = False, None
    try:
        ok = run([t.write for t in batch])
    except BaseException as exc:
        error = exc
        raise
    finally:
        with _lock:
            if _queue:
                # Writes that arrived meanwhile: the first of them leads the next batch.
                _queue[0].lead = True
                _queue[0].event.set()
            else:
                _busy = False
        for t in batch:
            t.done, t.error = ok, error
            if t is not ticket:
                t.event.set()
    return ok
