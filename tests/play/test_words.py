"""Words, never notation: every game's board, log and replay read as players speak, in
Italian and English; no engine code, Python value or JSON where a player reads."""

from __future__ import annotations

import importlib
import re

import pytest
from django.test import Client

from games.core import registry
from ledger.play import services
from tests.play.conftest import GAMES, dealt, play_out, seats_for

NOTATION = re.compile(r"\b(True|False|None)\b|[{}\[\]]|\w+_\w+|\b[bg][PCGKNRBQ]\d?[ld]?\b")


def _visible(page: str) -> str:
    """The text a reader sees: no tags, attributes, scripts or styles."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return re.sub(r"<[^>]+>", " ", page)


@pytest.mark.parametrize("game", GAMES)
def test_every_game_declares_its_words_in_both_languages(game):
    words = importlib.import_module(f"games.{game}.words")
    engine = registry.get(game)
    state = engine.new_game(engine.ruleset(None), 3)
    for lang in ("it", "en"):
        for action in state.legal_actions(state.to_act()):
            said = words.action(engine.encode_action(action), lang)
            assert said and not NOTATION.search(said), said
        for label, value in words.state(state.view(None), lang):
            assert not NOTATION.search(label + " " + value), (label, value)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["it", "en"])
def test_the_board_and_the_replay_show_no_notation(people, commit, game, lang):
    with dealt(6):
        table = commit(
            services.create_table,
            user=people.users["member"],
            club=people.club,
            game=game,
            seats=seats_for(game),
        )
    client = Client(HTTP_ACCEPT_LANGUAGE=lang)
    client.force_login(people.users["member"])
    board = _visible(client.get(f"/play/{table.pk}/").content.decode())
    found = NOTATION.search(board)
    assert found is None, board[max(0, found.start() - 80) : found.end() + 80]
    play_out(commit, people.users["member"], table)
    table.refresh_from_db()
    for step in (1, table.moves_count // 2, table.moves_count):
        page = _visible(client.get(f"/play/{table.pk}/replay/?step={step}").content.decode())
        # The commands that check the deal are commands: the one place notation is right.
        page = re.sub(r"python3? (-m games|verify_deal\.py) .*", "", page)
        found = NOTATION.search(page)
        assert found is None, page[max(0, found.start() - 80) : found.end() + 80]


def test_a_seat_is_counted_from_one_or_called_by_its_players_name():
    from games.cardchess import words as cardchess
    from games.core.words import seat_name
    from games.ergio import words as ergio
    from games.tarocco import words as tarocco

    assert seat_name(0, "it") == "posto 1"
    assert seat_name(3, "en") == "seat 4"
    assert seat_name(1, "it", ["Anna", "Bruno"]) == "Bruno"
    assert seat_name(1, "it", ["Anna", ""]) == "posto 2"  # an open seat has no name yet
    piglio = {"bid": "piglio", "of": 0}
    assert tarocco.action(piglio, "it") == "piglio l'offerta di posto 1"
    assert "Anna" in tarocco.action(piglio, "en", ["Anna", "Bruno", "Carla", "Dario"])
    resolve = {"resolve": 0, "taker": 1}
    assert cardchess.action(resolve, "it", ["Anna", "Bruno"]).endswith("la prende Bruno")
    assert "seat 2 takes it" in cardchess.action(resolve, "en")
    celatino = {"celatino": "hand", "victim": 0}
    assert "contro la mano di Anna" in ergio.action(celatino, "it", ["Anna", "Bruno"])
    bids = {"bids": [{"seat": 0, "bid": "offro", "points": 3}], "phase": "bargain"}
    said = dict(tarocco.state(bids, "it", ["Anna", "Bruno", "Carla", "Dario"]))
    assert said["Contrattazione"] == "Anna: offro 3"


SEAT_NUMBER = re.compile(r"\b(posto|seat) \d", re.I)


@pytest.mark.parametrize("game", GAMES)
def test_the_move_log_and_the_seats_never_count_from_zero(people, commit, game):
    with dealt(11):
        table = commit(
            services.create_table,
            user=people.users["member"],
            club=people.club,
            game=game,
            seats=seats_for(game),
        )
    play_out(commit, people.users["member"], table)
    table.refresh_from_db()
    for lang in ("it", "en"):
        client = Client(HTTP_ACCEPT_LANGUAGE=lang)
        client.force_login(people.users["member"])
        for url in (f"/play/{table.pk}/", f"/play/{table.pk}/replay/"):
            page = _visible(client.get(url).content.decode())
            assert not re.search(r"\b(posto|seat) 0\b", page, re.I), url
        replay = client.get(f"/play/{table.pk}/replay/").content.decode()
        log = re.search(r'<ol class="moves">(.*?)</ol>', replay, re.S)
        assert log is not None
        # Every seat at this table has a name (the bots too): the log says it, never a number.
        found = SEAT_NUMBER.search(_visible(log.group(1)))
        assert found is None, found


def test_er_gio_celatini_and_specials_say_where_they_strike_and_what_they_take():
    from games.ergio import words as ergio

    said = ergio.action({"celatino": "deck"}, "it")
    assert said == "gioca un Celatino contro la prima carta del mazzo avversario"
    said = ergio.action({"celatino": "field", "card": "T-CEL"}, "en")
    assert said == "plays a Celatino against the opposing Corteo: Celatino of Tramontana"
    said = ergio.action({"celatino": "hand", "victim": 1}, "it", ["Anna", "Bruno"])
    assert said == "gioca un Celatino contro la mano di Bruno (una carta a caso)"
    said = ergio.action({"special": "M-TRO", "card": "SMA-3"}, "it")
    assert said.endswith("e prende dal proprio mazzo combattente 3 di Santa Maria"), said
    assert ergio.verb({"special": "T-TAM", "card": "SMA-3"}, "en").startswith(
        "take back from the Arno"
    )
    assert ergio.card("T-LUO", "it") == "Luogotenente Alfiere di Parte di Tramontana"
    for where in ("deck", "field", "hand", "pile"):
        italian = ergio.action({"celatino": where, "victim": 0}, "it")
        assert not re.search(r"\b(deck|field|hand|pile)\b", italian), italian
        english = ergio.action({"celatino": where, "victim": 0}, "en")
        assert not re.search(rf"\bon {where}\b|\bfield\b", english), english
    assert "LUO" not in ergio.action({"special": "T-LUO", "card": "SMA-3"}, "it")


def test_the_board_lists_every_move_made_not_only_the_last_ones(people, commit):
    with dealt(11):
        table = commit(
            services.create_table,
            user=people.users["member"],
            club=people.club,
            game="tarocco",
            seats=seats_for("tarocco"),
        )
    play_out(commit, people.users["member"], table)
    table.refresh_from_db()
    assert table.moves_count > 12
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(people.users["member"])
    page = client.get(f"/play/{table.pk}/").content.decode()
    log = re.search(r'<ol class="moves" start="(\d+)"[^>]*>(.*?)</ol>', page, re.S)
    assert log is not None
    assert log.group(1) == "1"
    assert log.group(2).count("<li>") == table.moves_count


HIDDEN = {
    "it": "una mossa (si vede a partita finita)",
    "en": "a move (shown when the game is over)",
}


def test_the_move_list_says_others_public_moves_and_keeps_a_bots_discard_for_the_end(
    people, commit
):
    """At Tarocco a bot's bids and cards are in the list as they are made, in words; a
    bot's discard to the monte is "a move" until the game is over."""
    member = people.users["member"]
    for seed in range(40):
        with dealt(seed):
            table = commit(
                services.create_table,
                user=member,
                club=people.club,
                game="tarocco",
                seats=seats_for("tarocco"),
            )
        game = registry.get("tarocco")
        # The person plays the first choice offered until some bot has discarded.
        while not table.over and not any(
            s != 0 and "discard" in a for _, s, a in services.moves_of(table)
        ):
            action = game.encode_action(services.state_of(table).legal_actions(0)[0])
            commit(services.act, user=member, table=table, action=action)
            table.refresh_from_db()
        if not table.over:
            break
    else:
        raise AssertionError("no deal of 40 had a bot win the bidding")
    for lang in ("it", "en"):
        client = Client(HTTP_ACCEPT_LANGUAGE=lang)
        client.force_login(member)
        page = client.get(f"/play/{table.pk}/").content.decode()
        log = re.search(r'<ol class="moves"[^>]*>(.*?)</ol>', page, re.S)
        assert log is not None
        items = [
            _visible(li).split(":", 1)[1].strip()
            for li in re.findall(r"<li\b.*?</li>", log.group(1), re.S)
        ]
        moves = services.moves_of(table)
        assert len(items) == len(moves)
        for said, (_, seat, action) in zip(items, moves, strict=True):
            if seat != 0 and "discard" in action:
                assert said == HIDDEN[lang]
            else:
                assert said != HIDDEN[lang] and not NOTATION.search(said), said
