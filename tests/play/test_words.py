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
        # The command that checks the deal is a command: the one place notation is right.
        page = re.sub(r"python -m games .*", "", page)
        found = NOTATION.search(page)
        assert found is None, page[max(0, found.start() - 80) : found.end() + 80]
