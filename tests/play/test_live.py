"""Live tables: every committed change of a table reaches the sockets watching it, carrying
how far the table is and never a card (ledger/play/live.py)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import uuid
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from asgiref.testing import ApplicationCommunicator
from channels.layers import channel_layers
from channels.routing import URLRouter
from django.core import checks
from django.utils import timezone, translation

from games.core import registry
from ledger.clubs.models import Membership
from ledger.play import live, selectors, services
from ledger.play.models import GameTable
from ledger.serve import workers_for
from ledger.settings import redis_channel_layer
from tests.play.conftest import dealt

ROOT = Path(__file__).resolve().parents[2]
APP = URLRouter(live.websocket_urlpatterns)
NOTICE_KEYS = {"table", "moves", "status", "kind"}


class WebsocketCommunicator(ApplicationCommunicator):  # type: ignore[misc]
    """A browser's socket, talking ASGI to the application (channels.testing needs daphne)."""

    def __init__(self, app: Any, path: str, user: Any = None) -> None:
        from django.contrib.auth.models import AnonymousUser

        scope = {
            "user": user if user is not None else AnonymousUser(),
            "type": "websocket",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "headers": [],
            "subprotocols": [],
        }
        super().__init__(app, scope)

    async def connect(self, timeout: float = 2) -> tuple[bool, int | None]:
        await self.send_input({"type": "websocket.connect"})
        answer = await self.receive_output(timeout)
        if answer["type"] == "websocket.close":
            return False, answer.get("code", 1000)
        return True, None

    async def receive_json_from(self, timeout: float = 2) -> Any:
        message = await self.receive_output(timeout)
        assert message["type"] == "websocket.send", message
        return json.loads(message["text"])

    async def receive_notice(self, timeout: float = 2) -> Any:
        """The next notice of the table itself, past the seats' presence frames."""
        while True:
            frame = await self.receive_json_from(timeout)
            if frame.get("kind") != "presence":
                return frame

    async def send_json_to(self, data: Any) -> None:
        await self.send_input({"type": "websocket.receive", "text": json.dumps(data)})

    async def disconnect(self, code: int = 1000) -> None:
        await self.send_input({"type": "websocket.disconnect", "code": code})
        await self.wait(1)


@pytest.fixture(autouse=True)
def fresh_layer(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Each test its own channel layer (an in-memory layer's queues belong to one loop).
    The consumer's queries keep the test's connection: Channels closes connections around
    them, which would end the transaction a test runs in."""
    import channels.db

    monkeypatch.setattr(channels.db, "close_old_connections", lambda: None)
    channel_layers.backends = {}
    yield
    channel_layers.backends = {}


def _two_people(commit: Any, people: Any) -> GameTable:
    member, referee = people.users["member"], people.users["referee"]
    table = commit(
        services.create_table, user=member, club=people.club, game="cardchess", seats=["me", "open"]
    )
    commit(services.join, user=referee, table=table, invite=table.invite)
    table.refresh_from_db()
    return table


def _move(commit: Any, table: GameTable) -> None:
    table.refresh_from_db()
    state = services.state_of(table)
    seat = state.to_act()
    user = next(s.user for s in table.seats.all() if s.index == seat)
    action = registry.get(table.game).encode_action(state.legal_actions(seat)[0])
    commit(services.act, user=user, table=table, action=action)


def test_a_move_reaches_every_socket_at_the_table_and_carries_no_card(commit, people):
    table = _two_people(commit, people)

    async def scenario() -> list[Any]:
        # Both seats, and a member of the club watching.
        watchers = [people.users[name] for name in ("member", "referee", "organiser")]
        seats = [WebsocketCommunicator(APP, f"/ws/play/{table.pk}/", user) for user in watchers]
        heard = []
        for ws in seats:
            connected, _code = await ws.connect()
            assert connected
            hello = await ws.receive_json_from()
            assert hello == {"table": table.pk, "moves": 0, "status": "playing", "kind": "hello"}
        await sync_to_async(_move)(commit, table)
        for ws in seats:
            heard.append(await ws.receive_notice(timeout=2))
            await ws.disconnect()
        return heard

    heard = async_to_sync(scenario)()
    assert all(
        n == {"table": table.pk, "moves": 1, "status": "playing", "kind": "move"} for n in heard
    )
    assert all(set(n) == NOTICE_KEYS for n in heard)


def test_a_socket_that_reconnects_is_told_where_the_table_is(commit, people):
    table = _two_people(commit, people)
    for _ in range(3):  # made while nobody listened
        _move(commit, table)

    async def scenario() -> Any:
        ws = WebsocketCommunicator(APP, f"/ws/play/{table.pk}/", people.users["member"])
        await ws.connect()
        hello = await ws.receive_json_from()
        await ws.send_json_to({"since": 0})  # a client may ask again at any time
        again = await ws.receive_notice()
        await ws.disconnect()
        return hello, again

    hello, again = async_to_sync(scenario)()
    assert hello["moves"] == again["moves"] == 3 and hello["status"] == "playing"


def test_the_end_of_a_game_against_bots_is_announced(commit, people):
    user = people.users["member"]

    async def scenario() -> list[Any]:
        table = await sync_to_async(commit)(
            services.create_table,
            user=user,
            club=people.club,
            game="tarocco",
            seats=["me", "heuristic", "heuristic", "heuristic"],
        )
        ws = WebsocketCommunicator(APP, f"/ws/play/{table.pk}/", user)
        await ws.connect()
        heard = [await ws.receive_json_from()]

        def play() -> None:
            from tests.play.conftest import play_out

            play_out(commit, user, table)

        await sync_to_async(play)()
        # The notices are sent after each commit: on a busy machine a gap between two can
        # be longer than any short wait, so listen until the finishing notice itself comes
        # (each notice within 10 s), then for anything after it.
        while heard[-1].get("status") != "finished":
            heard.append(await ws.receive_notice(timeout=10))
        while not await ws.receive_nothing(timeout=0.2):
            heard.append(await ws.receive_notice())
        await ws.disconnect()
        return heard

    heard = async_to_sync(scenario)()
    assert heard[-1]["status"] == "finished"
    assert [n["moves"] for n in heard] == sorted(n["moves"] for n in heard)


def _connect(table_id: int, user: Any = None) -> tuple[bool, int | None]:
    async def scenario() -> Any:
        ws = WebsocketCommunicator(APP, f"/ws/play/{table_id}/", user)
        found = await ws.connect()
        if found[0]:
            await ws.disconnect()
        return found

    return async_to_sync(scenario)()  # type: ignore[no-any-return]


def test_only_the_seats_and_the_clubs_members_may_watch_a_table_live(commit, people):
    table = _two_people(commit, people)
    assert _connect(table.pk) == (False, 4403)  # anonymous
    assert _connect(table.pk, people.users["stranger"]) == (False, 4403)
    for name in ("member", "referee", "organiser", "scorekeeper"):
        assert _connect(table.pk, people.users[name]) == (True, None), name


def test_a_seat_outside_the_club_may_still_watch_its_own_table(commit, people):
    table = _two_people(commit, people)
    seat = table.seats.get(user=people.users["referee"])
    Membership.objects.filter(club=people.club, player__user=people.users["referee"]).delete()
    assert seat.user == people.users["referee"]
    assert _connect(table.pk, people.users["referee"]) == (True, None)


def test_the_table_page_of_a_visitor_who_may_not_watch_has_no_socket(people, commit, client):
    table = _two_people(commit, people)
    page = client.get(f"/play/{table.pk}/").content.decode()
    assert "play/live.js" not in page and "data-socket" not in page
    client.force_login(people.users["stranger"])
    assert "play/live.js" not in client.get(f"/play/{table.pk}/").content.decode()


def test_a_socket_for_a_table_that_does_not_exist_is_closed(db):
    async def scenario() -> Any:
        ws = WebsocketCommunicator(APP, "/ws/play/987654/")
        return await ws.connect()

    connected, code = async_to_sync(scenario)()
    assert not connected and code == 4404


# --- presence: which seats have their person's page open -----------------------------------
def _presence_frames(ws: WebsocketCommunicator) -> Any:
    async def frames() -> list[Any]:
        heard = []
        while not await ws.receive_nothing(timeout=0.2):
            heard.append(await ws.receive_json_from())
        return heard

    return frames()


def test_two_watchers_are_told_when_a_third_seats_person_opens_and_closes_the_table(commit, people):
    table = _two_people(commit, people)  # the member at seat 1, the referee at seat 2

    async def scenario() -> dict[str, Any]:
        path = f"/ws/play/{table.pk}/"
        member = WebsocketCommunicator(APP, path, people.users["member"])
        spectator = WebsocketCommunicator(APP, path, people.users["organiser"])
        said: dict[str, Any] = {}
        assert (await member.connect())[0]
        await member.receive_json_from()  # hello
        said["member arrives"] = await _presence_frames(member)
        assert (await spectator.connect())[0]
        await spectator.receive_json_from()  # hello
        said["spectator told on arrival"] = await _presence_frames(spectator)
        said["member told of the spectator"] = await _presence_frames(member)

        referee = WebsocketCommunicator(APP, path, people.users["referee"])
        assert (await referee.connect())[0]
        said["referee arrives: member"] = await _presence_frames(member)
        said["referee arrives: spectator"] = await _presence_frames(spectator)
        await referee.disconnect()
        said["referee leaves: member"] = await _presence_frames(member)
        said["referee leaves: spectator"] = await _presence_frames(spectator)
        await spectator.disconnect()
        said["spectator leaves: member"] = await _presence_frames(member)
        await member.disconnect()
        return said

    said = async_to_sync(scenario)()
    pk = table.pk
    assert said == {
        "member arrives": [{"table": pk, "kind": "presence", "here": [0]}],
        "spectator told on arrival": [{"table": pk, "kind": "presence", "here": [0]}],
        # A spectator is nobody's seat: their coming and going is told to nobody.
        "member told of the spectator": [],
        "referee arrives: member": [{"table": pk, "kind": "presence", "here": [0, 1]}],
        "referee arrives: spectator": [{"table": pk, "kind": "presence", "here": [0, 1]}],
        "referee leaves: member": [{"table": pk, "kind": "presence", "here": [0]}],
        "referee leaves: spectator": [{"table": pk, "kind": "presence", "here": [0]}],
        "spectator leaves: member": [],
    }


def test_a_second_page_of_the_same_person_changes_nobodys_presence(commit, people):
    table = _two_people(commit, people)

    async def scenario() -> list[Any]:
        path = f"/ws/play/{table.pk}/"
        member = WebsocketCommunicator(APP, path, people.users["member"])
        await member.connect()
        await member.receive_json_from()
        await _presence_frames(member)
        first = WebsocketCommunicator(APP, path, people.users["referee"])
        second = WebsocketCommunicator(APP, path, people.users["referee"])
        await first.connect()
        heard = [await _presence_frames(member)]
        await second.connect()  # a second tab: the referee was already here
        heard.append(await _presence_frames(member))
        await first.disconnect()  # one tab of two closed: still here
        heard.append(await _presence_frames(member))
        await second.disconnect()
        heard.append(await _presence_frames(member))
        await member.disconnect()
        return heard

    heard = async_to_sync(scenario)()
    assert [[f["here"] for f in frames] for frames in heard] == [[[0, 1]], [], [], [[0]]]


def test_each_seat_says_here_away_or_bot_on_the_first_draw_to_those_who_may_watch(
    commit, people, client
):
    member = people.users["member"]
    table = commit(
        services.create_table,
        user=member,
        club=people.club,
        game="tarocco",
        seats=["me", "open", "heuristic", "heuristic"],
    )
    commit(services.join, user=people.users["referee"], table=table, invite=table.invite)
    table.refresh_from_db()
    rows = selectors.seat_rows(table, member)
    # The member draws the page: here; the referee's page is not open: away.
    assert [r["presence"] for r in rows] == ["here", "away", "bot", "bot"]
    live.seen(table.pk, people.users["referee"].pk, 1)
    assert [r["presence"] for r in selectors.seat_rows(table, member)][:2] == ["here", "here"]
    live.seen(table.pk, people.users["referee"].pk, -1)
    assert [r["presence"] for r in selectors.seat_rows(table)] == ["", "", "", ""]

    client.force_login(member)
    with translation.override("it"):
        page = client.get(f"/play/{table.pk}/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert 'data-presence-seat="1" data-presence="away"' in page
    assert 'data-presence-seat="0" data-presence="here"' in page
    assert ">assente</span>" in page and ">presente</span>" in page and ">bot</span>" in page
    # Someone who may not watch the table live is told nobody's presence.
    client.force_login(people.users["stranger"])
    assert "data-presence" not in client.get(f"/play/{table.pk}/").content.decode()


def _redis() -> str:
    # `make test` runs the SQLite and PostgreSQL passes at once: each keeps to a Redis
    # database of its own (and each run of the test to a key prefix of its own).
    from django.db import connection

    number = 10 if connection.vendor == "postgresql" else 9
    url = os.environ.get("CHANNEL_REDIS_URL", f"redis://127.0.0.1:6379/{number}")
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=1):
            return url
    except OSError:
        if os.environ.get("CI"):
            raise
        pytest.skip("no Redis on 127.0.0.1:6379")


def test_with_redis_a_move_made_in_another_process_reaches_this_ones_sockets(
    commit, people, settings
):
    url = _redis()
    prefix = f"ledger-test-{uuid.uuid4().hex[:8]}"
    settings.CHANNEL_REDIS_URL = url
    # The layer as the settings make it (ledger/settings.py), under this run's prefix: a
    # layer written here by hand once lacked the read timeout longer than Redis's 5 s wait,
    # so on a busy machine, where the other process takes longer than that to start, the
    # socket's wait ended in a read timeout and it heard nothing more.
    settings.CHANNEL_LAYERS = {"default": redis_channel_layer(url, prefix)}
    channel_layers.backends = {}
    table = _two_people(commit, people)

    async def scenario() -> Any:
        ws = WebsocketCommunicator(APP, f"/ws/play/{table.pk}/", people.users["member"])
        await ws.connect()
        await ws.receive_json_from()
        # Another web process (or the Celery worker) announces a move it committed.
        code = (
            "import django; django.setup();"
            "from django.conf import settings;"
            f"settings.CHANNEL_LAYERS['default']['CONFIG']['prefix'] = {prefix!r};"
            "from ledger.play import live;"
            f"live.announce({table.pk}, 7, 'playing')"
        )
        env = {**os.environ, "CHANNEL_REDIS_URL": url, "DJANGO_SETTINGS_MODULE": "ledger.settings"}
        await sync_to_async(subprocess.run, thread_sensitive=False)(
            [sys.executable, "-c", code], cwd=ROOT, env=env, check=True, timeout=180
        )
        notice = await ws.receive_notice(timeout=30)
        await ws.disconnect()
        return notice

    notice = async_to_sync(scenario)()
    assert notice == {"table": table.pk, "moves": 7, "status": "playing", "kind": "move"}


def test_one_web_process_serves_everything_without_a_shared_layer():
    assert workers_for(4, shared_layer=False) == 1
    assert workers_for(4, shared_layer=True) == 4


def test_a_worker_without_a_shared_layer_is_warned_about(settings):
    from ledger.play.apps import live_layer_check

    settings.CELERY_BROKER_URL = "redis://127.0.0.1:6379/0"
    settings.CHANNEL_REDIS_URL = ""
    assert [m.id for m in live_layer_check()] == ["play.W001"]
    assert all(isinstance(m, checks.Warning) for m in live_layer_check())
    settings.CHANNEL_REDIS_URL = "redis://127.0.0.1:6379/3"
    settings.CACHE_URL = "redis://127.0.0.1:6379/1"
    assert live_layer_check() == []


def test_several_web_processes_without_a_shared_cache_are_warned_that_presence_is_wrong(
    settings,
):
    from ledger.play.apps import live_layer_check

    settings.CELERY_BROKER_URL = ""
    settings.CHANNEL_REDIS_URL = "redis://127.0.0.1:6379/3"
    settings.CACHE_URL = ""
    assert [m.id for m in live_layer_check()] == ["play.W002"]
    settings.CACHE_URL = "redis://127.0.0.1:6379/1"
    assert live_layer_check() == []


def test_the_table_page_goes_live_and_polls_only_without_a_socket(people, commit, client):
    referee = people.users["referee"]
    table = _two_people(commit, people)
    client.force_login(referee)
    page = client.get(f"/play/{table.pk}/").content.decode()
    assert f'data-socket="/ws/play/{table.pk}/"' in page and "play/live.js" in page
    assert "!window.playLive" in page  # the board's polling waits while the socket is open


# --- the clock decides alike whatever reaches the server first -----------------------------
def _late_table(commit: Any, people: Any, game: str, seats: list[str], clock: dict[str, Any]):
    with dealt(11):
        table = commit(
            services.create_table,
            user=people.users["member"],
            club=people.club,
            game=game,
            seats=seats,
            clock=clock,
        )
    table.refresh_from_db()
    assert table.clock_seat == 0  # the member's turn, the clock running
    # The turn's seconds went by: the deadline is a second ago.
    GameTable.objects.filter(pk=table.pk).update(
        clock_deadline=timezone.now() - timedelta(seconds=1)
    )
    table.refresh_from_db()
    return table


def _outcome(table: GameTable) -> tuple[Any, ...]:
    table.refresh_from_db()
    return (
        table.status,
        table.clock_flagged,
        table.moves_count,
        [(step, seat, action) for step, seat, action in services.moves_of(table)],
        list(table.moves.values_list("bot", flat=True)),
    )


@pytest.mark.parametrize(
    ("game", "seats", "clock", "said"),
    [
        # Out of time the heuristic bot plays the turn (Tarocco's rule)...
        (
            "tarocco",
            ["me", "heuristic", "heuristic", "heuristic"],
            {"kind": "move", "seconds": 30},
            "Your time ran out: the heuristic bot played that turn for you.",
        ),
        # ... or the game stops there, abandoned (3D cardChess's).
        (
            "cardchess",
            ["me", "heuristic"],
            {"kind": "game", "seconds": 300, "increment": 2},
            "Out of time: the game stopped there and was abandoned.",
        ),
    ],
)
def test_a_turn_out_of_time_is_decided_alike_by_a_posted_move_and_by_a_socket_message(
    commit: Any, people: Any, game: str, seats: list[str], clock: dict[str, Any], said: str
) -> None:
    from ledger.clubs.errors import Conflict

    posted = _late_table(commit, people, game, seats, clock)
    told = _late_table(commit, people, game, seats, clock)
    assert _outcome(posted) == _outcome(told)  # two equal tables, nothing decided yet
    assert posted.moves_count == 0

    # A move posted after the deadline: the game's rule is applied first, and the late
    # move is refused in words (never carried over to the turn that comes next).
    state = services.state_of(posted)
    late = registry.get(game).encode_action(state.legal_actions(0)[0])
    with translation.override("en"), pytest.raises(Conflict) as refused:
        services.act(user=people.users["member"], table=posted, action=late, move_id="late")
    assert refused.value.message == said

    # The other table hears first from a socket: the member's page connecting, then asking.
    async def scenario() -> tuple[Any, Any]:
        ws = WebsocketCommunicator(APP, f"/ws/play/{told.pk}/", people.users["member"])
        connected, _code = await ws.connect()
        assert connected
        hello = await ws.receive_json_from()
        await ws.send_json_to({})
        asked = await ws.receive_notice()
        await ws.disconnect()
        return hello, asked

    hello, asked = async_to_sync(scenario)()
    after = _outcome(told)
    assert after == _outcome(posted)
    if game == "tarocco":
        # The bot played the member's turn, marked as the clock's, and the game goes on.
        assert after[0] == "playing" and after[1] == 0
        assert after[2] == 1 and after[3][0][1] == 0 and after[4] == ["clock"]
    else:
        assert after[0] == "abandoned" and after[1] == 0 and after[2] == 0
    # What the socket said is the table as decided, from the first frame on.
    assert hello["moves"] == asked["moves"] == after[2]
    assert hello["status"] == asked["status"] == after[0]
