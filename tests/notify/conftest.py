"""A real SMTP server on loopback (aiosmtpd) that keeps what it receives, and a competition
whose players have logins with e-mail addresses, some reading Italian, some English."""

from __future__ import annotations

import email
import socket
from collections.abc import Iterator
from email.message import EmailMessage
from email.policy import default as default_policy
from typing import Any

import pytest
from aiosmtpd.controller import Controller

from ledger.clubs.models import Club, Competition, Membership, Player
from ledger.formats import services as formats
from ledger.notify.models import Preferences
from tests.listening import listening_socket


class HeldController(Controller):  # type: ignore[misc]
    """aiosmtpd's SMTP server in a thread, on a socket this process listens on from the
    moment its port is chosen (tests/listening.py): a port picked free, closed, then named
    to the server could be taken meanwhile by a test run beside this one. Its start waits
    for the server to answer, however long a loaded machine takes to start a thread."""

    def __init__(self, handler: Any, held: socket.socket) -> None:
        super().__init__(
            handler, hostname="127.0.0.1", port=held.getsockname()[1], ready_timeout=300
        )
        self.held = held

    def _create_server(self) -> Any:
        return self.loop.create_server(self._factory_invoker, sock=self.held)


class Inbox:
    """What the SMTP server was handed: each message parsed, with its envelope's recipients."""

    def __init__(self) -> None:
        self.messages: list[tuple[list[str], EmailMessage]] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        parsed = email.message_from_bytes(envelope.content, policy=default_policy)
        assert isinstance(parsed, EmailMessage)
        self.messages.append((list(envelope.rcpt_tos), parsed))
        return "250 Message accepted for delivery"

    def to(self, address: str) -> list[EmailMessage]:
        return [m for rcpt, m in self.messages if address in rcpt]


@pytest.fixture
def inbox(settings: Any) -> Iterator[Inbox]:
    box = Inbox()
    controller = HeldController(box, listening_socket())
    controller.start()
    port = controller.port
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    settings.LEDGER_SITE_URL = "https://ledger.example"
    try:
        yield box
    finally:
        controller.stop()


def text_of(message: EmailMessage, subtype: str = "plain") -> str:
    part = message.get_body(preferencelist=(subtype,))
    assert part is not None
    return str(part.get_content())


@pytest.fixture
def drawn(people: Any, points_game: str, django_user_model: Any) -> dict[str, Any]:
    """A Swiss competition of Punti with eight players, each with a login and an address;
    the odd ones read English."""
    club: Club = people.club
    competition = Competition.objects.create(
        club=club, name="Coppa d'autunno", slug="autunno", game=points_game, format="swiss"
    )
    players = []
    for i in range(8):
        user = django_user_model.objects.create_user(
            username=f"p{i}", password="pw", email=f"p{i}@example.org"
        )
        player = Player.objects.create(name=f"Giocatore {i}", user=user)
        Membership.objects.create(club=club, player=player)
        if i % 2:
            Preferences.objects.create(player=player, language="en")
        formats.enter_player(
            user=people.users["organiser"], competition=competition, player=player, rating=2000 - i
        )
        players.append(player)
    return {"competition": competition, "players": players, "organiser": people.users["organiser"]}


def publish_round(drawn: dict[str, Any], capture: Any) -> Any:
    """Draw and publish the next round, its commit's callbacks run (the job with them)."""
    with capture(execute=True):
        draw = formats.generate_round(user=drawn["organiser"], competition=drawn["competition"])
        formats.publish_draw(user=drawn["organiser"], draw=draw)
    draw.refresh_from_db()
    return draw
