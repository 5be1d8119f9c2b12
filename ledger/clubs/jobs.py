"""Background jobs asked for by name, so that what asks for a job never imports the jobs
themselves (ledger/clubs/tasks.py imports what it runs; see docs/architecture.md). With a
broker (CELERY_BROKER_URL) a job is sent by its name to a worker; without one it runs in
this process: at once, or, for the jobs a request must not wait for (``enqueue``), in a
thread of its own after the request's commit (LEDGER_JOBS_IN_THREADS, on by default; the
tests turn it off)."""

from __future__ import annotations

import importlib
import logging
import threading
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import connections

log = logging.getLogger(__name__)

# The jobs' names (each task in ledger/clubs/tasks.py is registered under its own).
RECOMPUTE_RATINGS = "ledger.clubs.tasks.recompute_ratings"
RUN_IMPORT = "ledger.clubs.tasks.run_import"
SIGN_CHECKPOINT = "ledger.clubs.tasks.sign_checkpoint"
DELIVER_WEBHOOK = "ledger.clubs.tasks.deliver_webhook"

# Eager jobs waiting for their thread, by name and arguments: asking again for a job that
# has not started yet adds nothing (a ratings replay asked for by five rulings runs once).
_waiting: set[tuple[str, tuple[Any, ...]]] = set()
_waiting_lock = threading.Lock()


def task(name: str) -> Any:
    """The task registered under ``name``, its module imported when the job is asked for
    (the name is the module's path and the function's)."""
    module, _, function = name.rpartition(".")
    return getattr(importlib.import_module(module), function)


def delay(name: str, *args: Any) -> None:
    """Run the job now: a worker's when there is a broker, else at once in this process."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        task(name).delay(*args)
    else:
        current_app.send_task(name, args=args)


def enqueue(name: str, *args: Any, countdown: float | None = None) -> None:
    """Run the job in the background: a worker's job when there is a broker; otherwise a
    thread of this process (or at once, when LEDGER_JOBS_IN_THREADS is off). Call it after
    the commit (``transaction.on_commit``): the job reads what the request wrote."""
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        current_app.send_task(name, args=args, countdown=countdown or None)
        return
    if not getattr(settings, "LEDGER_JOBS_IN_THREADS", True):
        if not countdown:  # a later attempt is left to the periodic job
            task(name).apply(args=args)
        return
    key = (name, args)
    with _waiting_lock:
        if key in _waiting:
            return
        _waiting.add(key)

    def run() -> None:
        with _waiting_lock:
            _waiting.discard(key)
        try:
            task(name).apply(args=args)
        except Exception:
            log.exception("background job %s%r failed", name, args)
        finally:
            connections.close_all()

    if countdown:
        # A later attempt: lost if the process stops first (a worker with its beat keeps
        # them; see docs/operations.md).
        timer = threading.Timer(countdown, run)
        timer.daemon = True
        timer.start()
    else:
        # Not a daemon: a process that ends (a command, a restarted web worker) finishes
        # its jobs first.
        threading.Thread(target=run, name=f"job-{name}", daemon=False).start()
