"""The red team's findings on hidden information, each reproduced as the attacker did it:
2 (an organiser read every hand and the seed of a running digital game in the club export
and the admin), 8 (anyone, anonymous included, subscribed to a table's socket).
docs/security.md, "Hidden information stays hidden until the game ends"."""

from __future__ import annotations

import html
import json
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from asgiref.testing import ApplicationCommunicator
from django.conf import settings
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from ledger.play import services
from ledger.play.models import GameTable, Move
from tests.play.conftest import dealt, play_out

DEAL = 2718281828459045235


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


# --- 2. a running game's deal and seed ------------------------------------------------------


@pytest.fixture
def four_at_tarocco(people: Any, django_capture_on_commit_callbacks: Any) -> GameTable:
    """The red team's table: Tarocco Siciliano, four seats, being played (the bots have
    moved, so the move log holds secret choices too)."""
    # A known deal whose bidding goes on past the first moves (with every pass a hand ends).
    with dealt(DEAL), django_capture_on_commit_callbacks(execute=True):
        table = services.create_table(
            user=people.users["member"],
            club=people.club,
            game="tarocco",
            seats=["me", "heuristic", "heuristic", "heuristic"],
        )
        table.refresh_from_db()
        state = services.state_of(table)
        if state.to_act() == 0:  # the human leads: one move of theirs, and the bots answer
            action = services.engine("tarocco").encode_action(state.legal_actions(0)[0])
            services.act(user=people.users["member"], table=table, action=action)
    table.refresh_from_db()
    assert table.status == GameTable.Status.PLAYING and table.moves_count > 0
    return table


def _secrets(table: GameTable) -> tuple[str, list[str], list[Any]]:
    """The seed as text, the deck in the order it was dealt (every hand, and the cards
    nobody holds yet) and every move, opened as the play service does."""
    seed, deal = services.secrets_of(table)
    return str(seed), deal["deal"]["deck"], [a for _step, _seat, a in services.moves_of(table)]


def _shows(text: str, seed: str, deck: list[str]) -> list[str]:
    """What of the secrets a page or a file shows: the seed, or any four cards of the deal
    in a row, in any JSON spelling."""
    text = html.unescape(text)
    found = [f"seed {seed}"] if seed in text else []
    for at in range(len(deck) - 3):
        for sep in (", ", ","):
            if sep.join(json.dumps(c) for c in deck[at : at + 4]) in text:
                found.append(f"cards {at + 1} to {at + 4} of the deal")
    return found


def _organiser(people: Any) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(people.users["organiser"])
    return client


def test_2_a_running_games_hands_and_seed_are_not_in_the_club_export(people, four_at_tarocco):
    seed, deck, _moves = _secrets(four_at_tarocco)
    export = _organiser(people).get("/c/prova/export/club.jsonl")
    assert export.status_code == 200
    text = b"".join(export.streaming_content).decode()
    assert _shows(text, seed, deck) == []
    rows = [json.loads(line) for line in text.splitlines()]
    table = next(r for r in rows if r["t"] == "game_table")
    assert table["seed"] is None and table["deal"] is None and table["sealed"].startswith("s1.")
    moves = [r for r in rows if r["t"] == "move"]
    assert moves and all(m["action"] is None and m["sealed"] for m in moves)


def test_2_a_running_games_hands_seed_and_moves_are_not_on_the_admins_pages(
    people, four_at_tarocco
):
    organiser = people.users["organiser"]
    organiser.is_staff = True
    organiser.save()
    organiser.user_permissions.set(Permission.objects.filter(content_type__app_label="play"))
    seed, deck, moves = _secrets(four_at_tarocco)
    client = _organiser(people)
    page = client.get(reverse("admin:play_gametable_change", args=[four_at_tarocco.pk]))
    assert page.status_code == 200 and "tarocco" in page.content.decode()
    assert _shows(page.content.decode(), seed, deck) == []
    for move in Move.objects.filter(table=four_at_tarocco):
        shown = client.get(reverse("admin:play_move_change", args=[move.pk])).content.decode()
        assert json.dumps(moves[move.step]) not in html.unescape(shown)


def test_2_once_the_game_is_over_the_export_holds_its_deal_seed_and_moves_as_evidence(
    people, four_at_tarocco, django_capture_on_commit_callbacks
):
    seed, _deck, _moves = _secrets(four_at_tarocco)

    def commit(fn: Any, *args: Any, **kwargs: Any) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return fn(*args, **kwargs)

    play_out(commit, people.users["member"], four_at_tarocco)
    four_at_tarocco.refresh_from_db()
    assert four_at_tarocco.over and four_at_tarocco.sealed == ""
    text = b"".join(_organiser(people).get("/c/prova/export/club.jsonl").streaming_content)
    rows = [json.loads(line) for line in text.decode().splitlines()]
    table = next(r for r in rows if r["t"] == "game_table")
    assert str(table["seed"]) == seed and table["deal"] == services.secrets_of(four_at_tarocco)[1]
    record = services.state_of(four_at_tarocco).to_record()
    moves = sorted((r for r in rows if r["t"] == "move"), key=lambda r: r["step"])
    assert [m["action"] for m in moves] == [
        {k: v for k, v in a.items() if k != "seat"} for a in record["actions"]
    ]


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


# --- 6. a pending blind re-entry is blind to referees and organisers too ----------------------

SCORES = ["41.50", "-41.50"]


@pytest.fixture
def blind_result(people: Any, manual_table: Any, manual_competition: Any) -> Any:
    """A result entered by a scorekeeper in a competition with blind re-entry, pending."""
    from ledger.clubs.models import Competition, Result

    manual_competition.confirmation = Competition.Confirmation.BLIND
    manual_competition.save()
    answer = people.client("scorekeeper").post(
        "/api/v1/results/",
        {"table": manual_table.pk, "source": "manual", "scores": SCORES},
        format="json",
    )
    assert answer.status_code == 201, answer.content
    result = Result.objects.get(pk=answer.json()["id"])
    assert result.status == Result.Status.PENDING
    return result


def test_6_referees_and_organisers_do_not_read_a_pending_blind_result_through_the_api(
    people, blind_result
):
    for who in ("referee", "organiser"):
        api = people.client(who)
        body = api.get(f"/api/v1/results/{blind_result.pk}/").json()
        assert body["sealed"] is True and body["scores"] == [] and "41.5" not in str(body), who
        listed = api.get(f"/api/v1/results/?competition={blind_result.competition_id}")
        assert "41.5" not in listed.content.decode(), who
        standings = api.get(f"/api/v1/competitions/{blind_result.competition_id}/standings/")
        assert "41.5" not in standings.content.decode(), who


def test_6_a_referee_who_opened_a_pending_blind_result_reads_it_and_cannot_re_enter_it(
    people, blind_result
):
    from ledger.clubs.errors import NotAllowed
    from ledger.clubs.models import Result, SealOpening
    from ledger.clubs.results.services import reenter_result

    referee = people.users["referee"]
    desk = Client(HTTP_ACCEPT_LANGUAGE="en")
    desk.force_login(referee)
    opened = desk.post(
        "/referee/open/",
        {"competition": blind_result.competition_id, "result": str(blind_result.pk)},
    )
    assert opened.status_code == 302
    # Written down: who opened it, and when.
    assert list(SealOpening.objects.values_list("result_id", "opened_by_id")) == [
        (blind_result.pk, referee.pk)
    ]
    assert (
        people.client("referee").get(f"/api/v1/results/{blind_result.pk}/").json()["scores"]
        == SCORES
    )
    # Only the one who opened it: the organiser still reads nothing.
    assert people.client("organiser").get(f"/api/v1/results/{blind_result.pk}/").json()["sealed"]
    with pytest.raises(NotAllowed):
        reenter_result(user=referee, result=blind_result, source="manual", scores=SCORES)
    blind_result.refresh_from_db()
    assert blind_result.status == Result.Status.PENDING
    # Someone who has not seen it is the blind second entry.
    reenter_result(
        user=people.users["scorekeeper2"], result=blind_result, source="manual", scores=SCORES
    )
    blind_result.refresh_from_db()
    assert blind_result.status == Result.Status.ACCEPTED


def test_6_a_referee_who_has_not_seen_a_pending_blind_result_may_be_its_second_entry(
    people, blind_result
):
    from ledger.clubs.models import Result
    from ledger.clubs.results.services import reenter_result

    reenter_result(
        user=people.users["referee"], result=blind_result, source="manual", scores=SCORES
    )
    blind_result.refresh_from_db()
    assert blind_result.status == Result.Status.ACCEPTED


def test_2_a_running_game_imported_with_its_secrets_in_clear_is_written_sealed(
    people, four_at_tarocco, tmp_path, migrated_sqlite
):
    """An export made before running games were sealed holds a running table's seed, deal
    and moves in clear: imported, they are written sealed, as the play service keeps them,
    and still open for the game to go on."""
    import io
    import shutil
    import sqlite3

    from ledger.clubs.transfer import transfer
    from tests.ledger.test_export import manage, our_key

    table = four_at_tarocco
    seed, deck, moves = _secrets(table)
    secret_seed, deal = services.secrets_of(table)
    opened = {
        m.pk: a
        for m, (_s, _seat, a) in zip(
            table.moves.order_by("step"), services.moves_of(table), strict=True
        )
    }
    # As an installation from before the sealing kept (and exported) a running game.
    GameTable.objects.filter(pk=table.pk).update(seed=secret_seed, deal=deal, sealed="")
    Move.objects.reveal(opened)
    out = io.BytesIO()
    transfer.write_export(people.club, out, secrets=True)
    text = out.getvalue().decode()
    assert _shows(text, seed, deck)  # the file holds them in clear

    there = tmp_path / "there.sqlite3"
    shutil.copy(migrated_sqlite, there)
    (tmp_path / "club.jsonl").write_text(text)
    manage(there, "import_club", str(tmp_path / "club.jsonl"), key=our_key())

    with sqlite3.connect(there) as db:
        (row,) = db.execute(
            "SELECT seed, deal, sealed FROM play_gametable WHERE id = ?", [table.pk]
        ).fetchall()
        stored = db.execute(
            "SELECT action, sealed FROM play_move WHERE table_id = ? ORDER BY step", [table.pk]
        ).fetchall()
    assert row[0] is None and row[1] is None and row[2].startswith("s1.")
    assert len(stored) == len(moves) and all(a is None and s.startswith("s1.") for a, s in stored)
    assert _shows(there.read_bytes().decode("latin-1"), seed, deck) == []
    # They open there (the sealing key of that installation) as they were.
    script = (
        "from ledger.play import services; from ledger.play.models import GameTable; "
        f"t = GameTable.objects.get(pk={table.pk}); "
        "print(services.secrets_of(t)[0], len(services.moves_of(t)))"
    )
    said = manage(there, "shell", "-c", script, key=our_key())
    assert said.strip().splitlines()[-1].split() == [
        seed,
        str(len(moves)),
    ]
