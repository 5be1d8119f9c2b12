"""Live tables: every committed move is announced to whoever watches the table.

A browser at a table (a seat or a spectator) keeps a WebSocket open on ``/ws/play/<id>/``
(``TableConsumer``). After each commit that changes a table (a move, a seat taken, the game
begun or over, the table timed out) the server sends a notice on the table's group of the
channel layer: the table's number of moves and its status, nothing else. Each browser then
fetches its own board fragment over HTTP, which shows that seat's view alone, so no hand
ever travels through the socket. A browser that reconnects gets the same notice at once and
catches up from the move log the same way.

Presence: when a seat's person opens the table's first page (their socket count on the
table goes 0 to 1, ``seen``) or closes the last one (1 to 0), every socket of the table is
sent ``{"kind": "presence", "here": [seat numbers]}``: which seats have their page open now,
nothing more (never who watches as a spectator, nor what anyone sees). A socket that connects
is told the same at once, so a page that was away catches up.

Who may watch (``may_watch``): the people seated at the table and the members of its club.
Anyone else (anonymous visitors included) is refused with close code 4403 before joining
the group; they still see the public table on its page, which polls.

The channel layer is in memory in a single web process (``make run``) and Redis
(channels-redis, ``CHANNEL_REDIS_URL``) when several processes serve the tables together:
then a move made through one process reaches the sockets held by every other.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.layers import get_channel_layer
from django.db import transaction
from django.urls import path

log = logging.getLogger(__name__)

# The web server's event loop, once it is running (see ledger/asgi.py): the in-memory
# layer's queues belong to it, so notices from request threads are handed to it.
_server_loop: asyncio.AbstractEventLoop | None = None


def remember_loop(loop: asyncio.AbstractEventLoop) -> None:
    global _server_loop
    _server_loop = loop


def group(table_id: int) -> str:
    return f"play-table-{table_id}"


def notice(table_id: int, moves: int, status: str, kind: str = "move") -> dict[str, Any]:
    """What a socket is told: how far the table is, never what was played."""
    return {
        "type": "table.changed",
        "table": table_id,
        "moves": moves,
        "status": status,
        "kind": kind,
    }


def announce(table_id: int, moves: int, status: str, kind: str = "move") -> None:
    """Send a table's notice on its group now (call it once the change is committed)."""
    layer = get_channel_layer()
    if layer is None:
        return
    message = notice(table_id, moves, status, kind)
    loop = _server_loop
    try:
        if loop is not None and loop.is_running():
            future = asyncio.run_coroutine_threadsafe(
                layer.group_send(group(table_id), message), loop
            )
            future.add_done_callback(_log_failure)
        else:
            # A process without a web server (a Celery worker, a management command): with
            # Redis the notice reaches the web processes; in memory nobody here listens.
            async_to_sync(layer.group_send)(group(table_id), message)
    except Exception:  # a lost notice costs a refresh, never the move
        log.exception("live notice for table %s not sent", table_id)


def _log_failure(future: Any) -> None:
    exc = future.exception()
    if exc is not None:
        log.error("live notice not sent: %r", exc)


def announce_after_commit(table: Any, kind: str = "move") -> None:
    """Announce the table as it is now, once the current transaction commits."""
    table_id, moves, status = table.pk, table.moves_count, str(table.status)
    transaction.on_commit(lambda: announce(table_id, moves, status, kind))


def may_watch(table_id: int, user: Any) -> bool | None:
    """Whether this login may hold the table's socket: a seat of the table, or a member of
    its club (any role). None when there is no such table."""
    from ledger.clubs.models import Membership
    from ledger.play.models import GameTable, PlaySeat

    club_id = GameTable.objects.filter(pk=table_id).values_list("club_id", flat=True).first()
    if club_id is None:
        return None
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    if PlaySeat.objects.filter(table_id=table_id, user=user).exists():
        return True
    return bool(Membership.objects.filter(club_id=club_id, player__user=user).exists())


def _snapshot(table_id: int) -> dict[str, Any] | None:
    """The table as it is now, once the clock had its say: a socket that connects or asks
    gets a table whose running turn ran out already decided, as a posted move would."""
    from ledger.play import services
    from ledger.play.models import GameTable

    services.decide_time(table_id)

    row = GameTable.objects.filter(pk=table_id).values("moves_count", "status").first()
    if row is None:
        return None
    return notice(table_id, row["moves_count"], row["status"], "hello")


# Who has a table's page open (a socket each), so that a player whose turn it is is not
# sent a notification while watching the table (ledger/notify). In the site's cache: shared
# by every process with CACHE_URL.
WATCHING_SECONDS = 6 * 3600


def _watch_key(table_id: int, user_id: int) -> str:
    return f"play-watching:{table_id}:{user_id}"


def seen(table_id: int, user_id: int, change: int) -> bool:
    """One more (``change`` 1) or one fewer (-1) socket of this person on this table.
    Whether the person's presence changed with it: their first page open (0 to 1), or
    their last one closed (1 to 0)."""
    from django.core.cache import cache

    key = _watch_key(table_id, user_id)
    cache.add(key, 0, WATCHING_SECONDS)
    try:
        now = cache.incr(key, change)
    except ValueError:  # expired between the two calls
        now = max(change, 0)
        cache.set(key, now, WATCHING_SECONDS)
    if now <= 0:
        cache.delete(key)
    return (change > 0 and now == change) or (change < 0 and now <= 0)


def watching(table_id: int, user_id: int) -> bool:
    """Whether this person has the table's page open now."""
    from django.core.cache import cache

    return bool(cache.get(_watch_key(table_id, user_id)))


def here(table_id: int) -> list[int]:
    """The seats (their numbers, from 0) whose person has the table's page open now. It
    says nothing else: not who looks at which seat, not what anyone sees."""
    from django.core.cache import cache

    from ledger.play.models import PlaySeat

    seats = list(
        PlaySeat.objects.filter(table_id=table_id, user__isnull=False).values_list(
            "index", "user_id"
        )
    )
    found = cache.get_many([_watch_key(table_id, user) for _i, user in seats])
    return sorted(i for i, user in seats if found.get(_watch_key(table_id, user)))


def presence_frame(table_id: int) -> dict[str, Any]:
    """What a socket is told of the seats' presence: which seats have their page open."""
    return {"type": "table.presence", "table": table_id, "kind": "presence", "here": here(table_id)}


def _seated(table_id: int, user_id: int) -> bool:
    from ledger.play.models import PlaySeat

    return PlaySeat.objects.filter(table_id=table_id, user_id=user_id).exists()


def _arrived_or_left(table_id: int, user_id: int, change: int) -> dict[str, Any] | None:
    """Count this socket (``seen``); when the person's presence at one of the table's seats
    changed with it, the frame that tells every watcher of the table."""
    if not seen(table_id, user_id, change) or not _seated(table_id, user_id):
        return None
    return presence_frame(table_id)


class TableConsumer(AsyncJsonWebsocketConsumer):
    """One browser watching one table: it is told of every change, and of the table as it
    is when it (re)connects or asks."""

    table_id: int = 0
    watcher: int = 0

    async def connect(self) -> None:
        table_id = int(self.scope["url_route"]["kwargs"]["pk"])
        allowed = await database_sync_to_async(may_watch)(table_id, self.scope.get("user"))
        if not allowed:
            await self.close(code=4404 if allowed is None else 4403)
            return
        self.table_id = table_id
        snapshot = await database_sync_to_async(_snapshot)(self.table_id)
        if snapshot is None:
            await self.close(code=4404)
            return
        await self.channel_layer.group_add(group(self.table_id), self.channel_name)
        await self.accept()
        await self.send_json(_public(snapshot))
        user = self.scope.get("user")
        changed = None
        if user is not None and user.is_authenticated:
            self.watcher = int(user.pk)
            changed = await database_sync_to_async(_arrived_or_left)(self.table_id, self.watcher, 1)
        if changed is not None:
            # A seat's person arrived: every page at the table (this one too) is told.
            await self.channel_layer.group_send(group(self.table_id), changed)
        else:
            # This page alone is told who is here now (what it missed while away).
            frame = await database_sync_to_async(presence_frame)(self.table_id)
            await self.send_json(_presence(frame))

    async def disconnect(self, code: int) -> None:
        if self.table_id:
            await self.channel_layer.group_discard(group(self.table_id), self.channel_name)
            if getattr(self, "watcher", 0):
                changed = await database_sync_to_async(_arrived_or_left)(
                    self.table_id, self.watcher, -1
                )
                if changed is not None:
                    await self.channel_layer.group_send(group(self.table_id), changed)

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        """A frame that is not a small JSON object (binary, not JSON, a list, megabytes)
        is answered with an error frame and logged in one line, not raised: raising logged
        a traceback and dropped the connection. A socket that keeps sending them is closed
        (4400)."""
        content, problem = _read_frame(text_data, bytes_data)
        if problem is None:
            await self.receive_json(content, **kwargs)
            return
        self.bad_frames = getattr(self, "bad_frames", 0) + 1
        client = (self.scope.get("client") or ["?"])[0]
        log.warning("table %s: socket frame from %s refused: %s", self.table_id, client, problem)
        await self.send_json({"error": "bad_frame", "detail": problem})
        if self.bad_frames >= BAD_FRAMES_BEFORE_CLOSING:
            await self.close(code=4400)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        # Any message is a request to catch up: the table as it is now.
        snapshot = await database_sync_to_async(_snapshot)(self.table_id)
        if snapshot is not None:
            await self.send_json(_public(snapshot))

    async def table_changed(self, event: dict[str, Any]) -> None:
        await self.send_json(_public(event))

    async def table_presence(self, event: dict[str, Any]) -> None:
        await self.send_json(_presence(event))


# What a browser sends on its socket is at most a request to catch up: a small JSON object.
MAX_FRAME_CHARACTERS = 4096
BAD_FRAMES_BEFORE_CLOSING = 5


def _read_frame(text: str | None, data: bytes | None) -> tuple[Any, str | None]:
    """The frame's JSON object, or what is wrong with the frame (for the client and the
    log: short, and never the frame itself)."""
    if text is None:
        return None, f"a binary frame ({len(data or b'')} bytes); send a JSON object as text"
    if len(text) > MAX_FRAME_CHARACTERS:
        return None, f"a frame of {len(text)} characters; at most {MAX_FRAME_CHARACTERS}"
    try:
        content = json.loads(text)
    except json.JSONDecodeError as exc:
        return None, f"not JSON ({exc.msg} at character {exc.pos})"
    except RecursionError:
        return None, "JSON nested too deep"
    if not isinstance(content, dict):
        return None, f"JSON of type {type(content).__name__}; send a JSON object"
    return content, None


def _public(event: dict[str, Any]) -> dict[str, Any]:
    return {k: event[k] for k in ("table", "moves", "status", "kind")}


def _presence(event: dict[str, Any]) -> dict[str, Any]:
    return {"table": event["table"], "kind": "presence", "here": list(event["here"])}


# Channels routes its consumers with Django's path(), whose stubs expect a view.
websocket_urlpatterns = [path("ws/play/<int:pk>/", TableConsumer.as_asgi())]  # type: ignore[arg-type]  # a consumer, not a view
