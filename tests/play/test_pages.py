"""The pages of the digital tables: lobby, table board, join by link, replay, download."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.utils.html import escape

from games.core import registry
from ledger.play import selectors, services
from ledger.play.models import GameTable
from tests.play.conftest import dealt


def _client(people, name="member"):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(people.users[name])
    return client


def _table(people, commit, game, seats, seed=4):
    """A digital table of ``game`` made by the member, committed as a request would."""
    with dealt(seed):
        return commit(
            services.create_table,
            user=people.users["member"],
            club=people.club,
            game=game,
            seats=seats,
        )


def test_the_lobby_needs_a_login(client, db):
    assert client.get("/play/").status_code == 302


def test_the_lobby_offers_every_game_and_ruleset(people):
    page = _client(people).get("/play/").content.decode()
    for slug in registry.available():
        assert f'value="{slug}:{registry.get(slug).default_ruleset}"' in page


def test_a_stranger_is_told_to_join_a_club_first(people):
    page = _client(people, "stranger").get("/play/").content.decode()
    assert "not a member of any club" in page


def test_making_a_table_opens_the_board_on_your_turn(people, commit):
    client = _client(people)
    response = commit(
        client.post,
        "/play/new/",
        {"club": people.club.pk, "ruleset": "cardchess:2p", "others": "random"},
    )
    table = GameTable.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/play/{table.pk}/"
    page = client.get(f"/play/{table.pk}/").content.decode()
    assert "Your turn" in page
    # A cardChess play is a card of the hand for each face-up card: one choice per place,
    # the first legal play chosen to begin with, one button to play them face down.
    state = services.state_of(table)
    hand = state.view(0)["hand"]
    assert 'id="slots"' in page and page.count('class="play-action"') == 1
    assert page.count('type="radio"') == 3 * len(hand)
    assert page.count(" checked>") == 3
    assert "data-card=" in page


def test_an_htmx_move_answers_with_the_new_board(people, commit):
    client = _client(people)
    table = _table(people, commit, "ergio", ["me", "heuristic"], seed=4)
    action = registry.get("ergio").encode_action(services.state_of(table).legal_actions(0)[0])
    response = commit(
        client.post,
        f"/play/{table.pk}/act/",
        {"action": json.dumps(action), "move_id": "x1"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    assert 'id="board"' in response.content.decode()
    table.refresh_from_db()
    assert table.moves_count >= 1


def test_a_move_sent_twice_from_two_copies_of_one_board_is_made_once(people, commit):
    """The board is drawn again while a player looks at it (the poll, the live refresh, a
    forced move playing itself): every copy of one turn carries the same move id, so a move
    sent from an older copy is the move already made, not a second move or a refusal."""
    client = _client(people)
    table = _table(people, commit, "ergio", ["me", "heuristic"], seed=4)
    ids = [
        re.search(
            r'name="move_id" value="([^"]+)"', client.get(f"/play/{table.pk}/").content.decode()
        )[1]
        for _copy in range(2)
    ]
    assert ids[0] == ids[1]
    action = json.dumps(
        registry.get("ergio").encode_action(services.state_of(table).legal_actions(0)[0])
    )
    commit(
        client.post,
        f"/play/{table.pk}/act/",
        {"action": action, "move_id": ids[0]},
        HTTP_HX_REQUEST="true",
    )
    table.refresh_from_db()
    made = table.moves_count
    assert made >= 1
    again = commit(
        client.post,
        f"/play/{table.pk}/act/",
        {"action": action, "move_id": ids[1]},
        HTTP_HX_REQUEST="true",
    ).content.decode()
    table.refresh_from_db()
    assert 'id="move-error"' not in again and table.moves_count == made


def test_a_board_drawn_from_a_row_read_before_the_bots_moved_carries_the_shown_turns_id(
    people, commit
):
    """The board's move id counts the moves of the state it shows, not the table row's
    count, which a move committed after the row was read (a bot's, or the player's own)
    leaves behind: otherwise two copies of one turn carried two ids, and the second press
    of a card was refused as spent instead of being the move already made."""
    from django.test import RequestFactory

    from ledger.play.views import _board_context

    table = _table(people, commit, "ergio", ["me", "heuristic"], seed=4)
    stale = GameTable.objects.get(pk=table.pk)
    action = registry.get("ergio").encode_action(services.state_of(table).legal_actions(0)[0])
    commit(services.act, user=people.users["member"], table=table, action=action, move_id="m0")
    fresh = GameTable.objects.get(pk=table.pk)
    assert fresh.moves_count > stale.moves_count
    assert services.state_of(fresh).to_act() == 0, "a turn of the human's, drawn twice"
    request = RequestFactory().get(f"/play/{table.pk}/")
    request.user = people.users["member"]
    boards = [_board_context(request, row) for row in (stale, fresh)]
    assert {b["move_id"] for b in boards} == {f"web-0-{fresh.moves_count}"}
    # The page's script keeps the newest board by this count: the shown state's too.
    assert {b["shown_moves"] for b in boards} == {fresh.moves_count}


def test_a_refused_move_says_the_rule_in_words_without_its_id(people, commit):
    client = _client(people)
    table = _table(people, commit, "sanmarco", ["me", "heuristic"], seed=4)
    response = client.post(
        f"/play/{table.pk}/act/",
        {"action": json.dumps({"colour": 0, "points": 999})},
        HTTP_HX_REQUEST="true",
    )
    page = response.content.decode()
    assert 'id="move-error"' in page and "sanmarco." not in page
    state = services.state_of(table)
    decoded = registry.get("sanmarco").decode_action({"colour": 0, "points": 999})
    said = [v.to_json()["message"]["en"] for v in state.check(0, decoded)]
    assert said and all(escape(s) in page for s in said)


def test_someone_not_seated_sees_no_hand(people, commit):
    table = _table(people, commit, "cardchess", ["me", "heuristic"], seed=4)
    page = _client(people, "referee").get(f"/play/{table.pk}/").content.decode()
    assert "data-card=" not in page and "You do not sit at this table" in page


def test_an_invited_player_joins_through_the_link(people, commit):
    owner = _client(people)
    table = _table(people, commit, "cardchess", ["me", "open"], seed=4)
    page = owner.get(f"/play/{table.pk}/").content.decode()
    link = f"/play/{table.pk}/join/{table.invite}/"
    assert link in page and 'id="fill-bots"' in page
    guest = _client(people, "referee")
    assert guest.get(f"/play/{table.pk}/join/wrong/").status_code == 404
    assert 'id="take-seat"' in guest.get(link).content.decode()
    response = commit(guest.post, link)
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.status == "playing"


def test_the_creator_seats_bots_from_the_page(people, commit):
    owner = _client(people)
    table = _table(people, commit, "tarocco", ["me", "open", "open", "open"], seed=4)
    commit(owner.post, f"/play/{table.pk}/bots/", {"kind": "random"})
    table.refresh_from_db()
    assert table.status == "playing"
    assert [s.kind for s in table.seats.all()] == ["human", "random", "random", "random"]


@pytest.mark.parametrize("game", ["sanmarco", "cardchess"])
def test_a_finished_game_replays_and_downloads(people, commit, game):
    from tests.play.conftest import play_out, seats_for

    client = _client(people)
    table = _table(people, commit, game, seats_for(game), seed=9)
    assert client.get(f"/play/{table.pk}/record.json").status_code == 409
    assert client.get(f"/play/{table.pk}/replay/").status_code == 302
    play_out(commit, people.users["member"], table)
    table.refresh_from_db()
    download = client.get(f"/play/{table.pk}/record.json")
    assert download["Content-Disposition"].startswith("attachment")
    assert json.loads(download.content) == services.state_of(table).to_record()
    first = client.get(f"/play/{table.pk}/replay/?step=1").content.decode()
    assert 'id="last-move"' in first and 'id="outcome"' not in first
    last = client.get(f"/play/{table.pk}/replay/?step={table.moves_count}").content.decode()
    assert 'id="outcome"' in last
    board = client.get(f"/play/{table.pk}/").content.decode()
    # Practice (a bot sat at it): no result in the ledger; the deal's seed is revealed.
    assert 'id="ledger-result"' not in board and 'id="practice"' in board
    assert f"--seed {table.seed} --table {table.pk}" in board and table.commitment in board


def test_the_monte_discard_is_offered_card_by_card_and_checked_by_the_engine(people, commit):
    """Three cards out of a soloist's hand are hundreds of combinations: the page offers the
    cards to tick, and a wrong number of them is refused under the engine's rule."""
    names = ["member", "scorekeeper", "referee", "organiser"]
    table = _table(people, commit, "tarocco", ["me", "open", "open", "open"], seed=2)
    for name in names[1:]:
        commit(services.join, user=people.users[name], table=table, invite=table.invite)
    # Seat 1 passes, seat 2 holds, then seat 0 declares a solo and takes the monte.
    for action in [{"bid": "vado"}, {"bid": "tengo"}, {"solo": False}, {"solo": True}]:
        table.refresh_from_db()
        seat = services.state_of(table).to_act()
        commit(services.act, user=people.users[names[seat]], table=table, action=action)
    table.refresh_from_db()
    state = services.state_of(table)
    assert state.to_act() == 0 and len(state.legal_actions(0)) > 100
    client = _client(people, "member")
    page = client.get(f"/play/{table.pk}/").content.decode()
    assert 'id="pick"' in page and "Tick 3 cards" in page and 'id="action"' not in page
    hand = selectors.seat_payload(table, table.seats.get(index=0))["view"]["hand"]
    assert page.count('name="item"') == len(hand)

    two = commit(
        client.post,
        f"/play/{table.pk}/act/",
        {"pick": "discard", "item": hand[:2], "move_id": "d1"},
        HTTP_HX_REQUEST="true",
    ).content.decode()
    assert 'id="move-error"' in two and "tarocco.monte.discard" not in two
    table.refresh_from_db()
    moves = table.moves_count

    allowed = registry.get("tarocco").encode_action(state.legal_actions(0)[0])["discard"]
    commit(
        client.post,
        f"/play/{table.pk}/act/",
        {"pick": "discard", "item": allowed, "move_id": "d2"},
        HTTP_HX_REQUEST="true",
    )
    table.refresh_from_db()
    assert table.moves_count == moves + 1


def test_the_lobby_lists_open_tables_and_games_to_watch_and_a_spectator_sees_no_hand(
    people, commit
):
    waiting = _table(people, commit, "cardchess", ["me", "open"])
    playing = _table(people, commit, "ergio", ["me", "heuristic"])
    lobby = _client(people, "referee").get("/play/").content.decode()
    assert f"/play/{waiting.pk}/join/{waiting.invite}/" in lobby
    assert f'href="/play/{playing.pk}/"' in lobby
    page = _client(people, "referee").get(f"/play/{playing.pk}/").content.decode()
    assert 'id="spectator"' in page and "data-card=" not in page
    hands = [services.state_of(playing).view(i)["hand"] for i in (0, 1)]
    words = __import__("games.ergio.words", fromlist=["card"])
    for hand in hands:
        # No card name of a hand appears, unless the public table shows that card too.
        public = str(services.state_of(playing).view(None))
        for code in hand:
            if code not in public:
                assert words.card(code, "en") not in page


def test_a_forced_move_plays_itself_unless_the_player_says_otherwise(people, commit):
    table = _table(people, commit, "ergio", ["me", "heuristic"])
    client = _client(people)
    for _ in range(60):
        table.refresh_from_db()
        state = services.state_of(table)
        legal = state.legal_actions(0) if state.to_act() == 0 else []
        if len(legal) == 1:
            page = client.get(f"/play/{table.pk}/").content.decode()
            assert 'id="forced"' in page
            # htmx reads a trigger's filter right after its event ("load delay:900ms[...]"
            # took the filter for part of the delay and played forced moves whatever the
            # player had chosen).
            assert "load[!localStorage.getItem('play-no-autoplay')] delay:900ms" in page
            assert "delay:900ms[" not in page
            assert 'id="no-autoplay"' in page
            return
        if state.is_over() or state.to_act() != 0:
            break
        action = registry.get("ergio").encode_action(legal[-1])
        commit(services.act, user=people.users["member"], table=table, action=action)
    pytest.skip("no forced move came up in this deal")


def test_the_table_page_offers_the_strong_bot_where_the_game_has_one(people, commit):
    """Filling the open seats, the creator chooses random, heuristic or strong bots; the
    strong bots take their seats, move within their time, and the game goes on."""
    owner = _client(people)
    table = _table(people, commit, "tarocco", ["me", "open", "open", "open"], seed=4)
    page = owner.get(f"/play/{table.pk}/").content.decode()
    assert '<option value="strong">Strong bots' in page
    assert '<option value="heuristic" selected>Heuristic bots' in page
    italian = Client(HTTP_ACCEPT_LANGUAGE="it")
    italian.force_login(people.users["member"])
    assert '<option value="strong">Bot forti' in italian.get(f"/play/{table.pk}/").content.decode()
    commit(owner.post, f"/play/{table.pk}/bots/", {"kind": "strong"})
    table.refresh_from_db()
    assert table.status == "playing"
    assert [s.kind for s in table.seats.all()] == ["human", "strong", "strong", "strong"]
    seats = owner.get(f"/play/{table.pk}/").content.decode()
    assert "Strong bot 1" in seats and "Bot forte" not in seats  # the page's language
    assert "Bot forte 1" in italian.get(f"/play/{table.pk}/").content.decode()
    assert {m.bot for m in table.moves.all()} <= {"", "strong"}


def test_a_game_without_a_strong_bot_says_so_in_words(people, commit):
    """San Marco has no hidden cards and no strong bot: the lobby says so instead of
    listing seat kinds."""
    client = _client(people)
    response = commit(
        client.post,
        "/play/new/",
        {"club": people.club.pk, "ruleset": "sanmarco:variant3", "others": "strong"},
        follow=True,
    )
    page = response.content.decode()
    assert "has no strong bot: choose heuristic or random bots" in page
    assert not GameTable.objects.exists()
    sanmarco = registry.get("sanmarco")
    table = _table(people, commit, "sanmarco", ["me"] + ["open"] * (sanmarco.ruleset().seats - 1))
    assert 'value="strong"' not in client.get(f"/play/{table.pk}/").content.decode()


def test_a_finished_game_is_played_again_with_the_same_seats_and_a_new_deal(people, commit):
    from tests.play.conftest import play_out

    table = _table(people, commit, "tarocco", ["heuristic", "me", "random", "heuristic"])
    assert "play-again" not in _client(people).get(f"/play/{table.pk}/").content.decode()
    play_out(commit, people.users["member"], table)
    table.refresh_from_db()
    page = _client(people).get(f"/play/{table.pk}/").content.decode()
    assert 'id="play-again"' in page and "Play again" in page
    # Only a player of the table may ask, and only once the game is over.
    stranger = _client(people, "organiser").post(f"/play/{table.pk}/again/")
    assert stranger.status_code == 302 and stranger.url == f"/play/{table.pk}/"
    assert GameTable.objects.count() == 1
    answer = _client(people).post(f"/play/{table.pk}/again/")
    new = GameTable.objects.exclude(pk=table.pk).get()
    assert answer.url == f"/play/{new.pk}/"
    assert [s.kind for s in new.seats.order_by("index")] == [
        "heuristic",
        "human",
        "random",
        "heuristic",
    ]
    assert new.seats.get(index=1).user == people.users["member"]
    assert (new.game, new.ruleset, new.label, new.practice) == (
        "tarocco",
        table.ruleset,
        table.label,
        True,
    )
    assert services.secrets_of(new)[0] != table.seed and new.commitment and new.status == "playing"


def test_a_game_between_people_played_again_leaves_the_others_seats_open(people, commit):
    table = _table(people, commit, "tarocco", ["me", "open", "heuristic", "heuristic"])
    services.join(user=people.users["scorekeeper"], table=table, invite=table.invite)
    table.refresh_from_db()
    with pytest.raises(services.Conflict):
        services.play_again(user=people.users["member"], table=table)
    GameTable.objects.filter(pk=table.pk).update(status=GameTable.Status.FINISHED)
    table.refresh_from_db()
    new = services.play_again(user=people.users["scorekeeper"], table=table)
    kinds = [(s.kind, s.user_id) for s in new.seats.order_by("index")]
    assert kinds == [
        ("open", None),
        ("human", people.users["scorekeeper"].pk),
        ("heuristic", None),
        ("heuristic", None),
    ]
    assert new.status == "waiting"


def test_the_bridges_game_offers_random_heuristic_and_strong_bots(people, commit):
    """The Bridge's Game has a strong bot too: the lobby takes it for the other side, and
    a table's page offers all three kinds for its open seats, in English and in Italian."""
    client = _client(people)
    lobby = client.get("/play/").content.decode()
    strong = lobby.split('id="strong-games">', 1)[1].split("</small>", 1)[0]
    assert "The Bridge&#x27;s Game" in strong and "San Marco" not in strong
    commit(
        client.post,
        "/play/new/",
        {"club": people.club.pk, "ruleset": "ponte:2p-base", "others": "strong"},
    )
    table = GameTable.objects.get()
    assert [s.kind for s in table.seats.order_by("index")] == ["human", "strong"]
    open_table = _table(people, commit, "ponte", ["me", "open"])
    page = client.get(f"/play/{open_table.pk}/").content.decode()
    assert '<option value="random">Random bots' in page
    assert '<option value="heuristic" selected>Heuristic bots' in page
    assert '<option value="strong">Strong bots' in page
    italian = Client(HTTP_ACCEPT_LANGUAGE="it")
    italian.force_login(people.users["member"])
    italian_page = italian.get(f"/play/{open_table.pk}/").content.decode()
    assert '<option value="strong">Bot forti' in italian_page
    italian_lobby = italian.get("/play/").content.decode()
    assert "Bot forti (pensano fino a mezzo secondo a mossa)" in italian_lobby
    assert "Il Gioco del Ponte" in italian_lobby.split('id="strong-games">', 1)[1]
    # Tramontana's strong bot writes its power sheet, then it is the person's turn
    first = _table(people, commit, "ponte", ["strong", "me"])
    moves = list(first.moves.order_by("pk"))
    assert len(moves) == 6 and {m.bot for m in moves} == {"strong"}
    assert "Your turn" in client.get(f"/play/{first.pk}/").content.decode()
