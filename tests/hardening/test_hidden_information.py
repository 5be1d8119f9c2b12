"""The red team's findings on hidden information, each reproduced as the attacker did it:
8 (anyone, anonymous included, subscribed to a table's socket). docs/security.md, "Hidden
information stays hidden"."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync
from asgiref.testing import ApplicationCommunicator
from django.conf import settings

from ledger.play import services
from ledger.play.models import GameTable


@pytest.fixture
def running(people: Any, django_capture_on_commit_callbacks: Any) -> GameTable:
    """A cardChess table of two people of the club, being played."""
    member, referee = people.users["member"], people.users["referee"]
    with django_capture_on_commit_callbacks(execute=True):
        table = services.create_table(
            user=member, club=people.club, game="cardchess", seats=["me", "open"]
        )
        services.join(user=referee, table=table, invite=table.invite)
    table.refresh_from_db()
    assert table.status == GameTable.Status.PLAYING
    return table


# --- 8. the table's socket ------------------------------------------------------------------


@pytest.fixture
def sockets(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The web process's own WebSocket stack (origin check, session, login), in this test's
    transaction: Channels would close the connection around each query."""
    import channels.db
    from channels.layers import channel_layers

    monkeypatch.setattr(channels.db, "close_old_connections", lambda: None)
    channel_layers.backends = {}
    yield
    channel_layers.backends = {}


def _socket(table_id: int, session: str | None = None) -> tuple[str, int | None]:
    """Open the table's socket as a browser of the site would (same origin, its session
    cookie if any): ("open", None) or ("closed", the close code)."""
    from ledger.asgi import router

    host = settings.ALLOWED_HOSTS[0]
    headers = [(b"host", host.encode()), (b"origin", f"http://{host}".encode())]
    if session:
        headers.append((b"cookie", f"{settings.SESSION_COOKIE_NAME}={session}".encode()))
    path = f"/ws/play/{table_id}/"
    scope = {
        "type": "websocket",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "headers": headers,
        "subprotocols": [],
    }

    async def scenario() -> tuple[str, int | None]:
        ws = ApplicationCommunicator(router, scope)
        await ws.send_input({"type": "websocket.connect"})
        answer = await ws.receive_output(3)
        if answer["type"] == "websocket.close":
            return "closed", answer.get("code")
        await ws.send_input({"type": "websocket.disconnect", "code": 1000})
        await ws.wait(1)
        return "open", None

    return async_to_sync(scenario)()  # type: ignore[no-any-return]


def _session_of(client: Any, user: Any) -> str:
    client.force_login(user)
    return str(client.cookies[settings.SESSION_COOKIE_NAME].value)


def test_8_an_anonymous_visitor_cannot_subscribe_to_a_tables_socket(running, sockets):
    assert _socket(running.pk) == ("closed", 4403)


def test_8_a_login_outside_the_club_cannot_subscribe_to_a_tables_socket(
    running, sockets, people, client
):
    assert _socket(running.pk, _session_of(client, people.users["stranger"])) == ("closed", 4403)


def test_8_the_seats_and_the_clubs_members_subscribe_to_a_tables_socket(
    running, sockets, people, client
):
    for name in ("member", "referee", "organiser"):  # two seats and a spectator of the club
        assert _socket(running.pk, _session_of(client, people.users[name])) == ("open", None)
