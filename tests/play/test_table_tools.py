"""What players expect of an online table: bots by level, the rules at hand, clocks,
takebacks at practice tables and hints."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.utils import timezone
from django.utils.html import escape

from games.core import registry
from games.core.hints import hint as core_hint
from ledger.clubs.errors import Conflict, NotAllowed
from ledger.play import clocks, services, tasks
from ledger.play import services as play_services
from ledger.play.models import GameTable, Takeback
from tests.play.conftest import GAMES, dealt, play_out, seats_for


def _client(people, lang="en", name="member"):
    client = Client(HTTP_ACCEPT_LANGUAGE=lang)
    client.force_login(people.users[name])
    return client


def _table(commit, people, game="tarocco", seats=None, seed=11, **kw):
    with dealt(seed):
        return commit(
            services.create_table,
            user=people.users["member"],
            club=people.club,
            game=game,
            seats=seats or seats_for(game),
            **kw,
        )


# --- bots by level ------------------------------------------------------------------------
def test_the_bot_picker_offers_each_level_with_the_heuristic_bot_chosen(people, commit):
    table = _table(commit, people, seats=["me", "open", "open", "open"])
    page = _client(people).get(f"/play/{table.pk}/").content.decode()
    assert '<option value="heuristic" selected>Heuristic bots' in page
    assert '<option value="random">Random bots' in page
    assert '<option value="strong">Strong bots' in page
    lobby = _client(people, "it").get("/play/").content.decode()
    assert 'value="heuristic" checked' in lobby


def test_bot_names_follow_the_pages_language(people, commit):
    table = _table(commit, people)
    english = _client(people, "en").get(f"/play/{table.pk}/").content.decode()
    italian = _client(people, "it").get(f"/play/{table.pk}/").content.decode()
    assert "Heuristic bot 1" in english and "Bot euristico" not in english
    assert "Bot euristico 1" in italian and "Heuristic bot" not in italian


def test_a_bot_thinks_outside_the_tables_transaction(people, commit, monkeypatch):
    depth_outside = len(connection.atomic_blocks)
    seen: list[int] = []
    real = play_services.make_bot

    def watched(slug: str, kind: str, seed: int) -> Any:
        bot = real(slug, kind, seed)

        class Watched:
            def choose(self, state: Any, seat: int) -> Any:
                seen.append(len(connection.atomic_blocks))
                return bot.choose(state, seat)

        return Watched()

    monkeypatch.setattr(play_services, "make_bot", watched)
    table = _table(commit, people, seats=["heuristic", "me", "heuristic", "heuristic"])
    table.refresh_from_db()
    assert seen, "no bot moved"
    # The test's own transaction is the only one open while a bot chooses.
    assert set(seen) == {depth_outside}
    assert table.moves_count >= len(seen)


def test_a_bots_move_chosen_for_a_state_that_moved_meanwhile_is_not_applied(
    people, commit, monkeypatch
):
    """While the bot thought, another worker played the same turn: the first bot's choice
    is dropped and it thinks again from the new state; no turn is played twice."""
    real = play_services.make_bot
    raced: list[bool] = []

    def racing(slug: str, kind: str, seed: int) -> Any:
        bot = real(slug, kind, seed)

        class Racing:
            def choose(self, state: Any, seat: int) -> Any:
                chosen = bot.choose(state, seat)
                if not raced:
                    raced.append(True)
                    monkeypatch.setattr(play_services, "make_bot", real)
                    play_services.play_bots(table_id, limit=1)  # the other worker
                return chosen

        return Racing()

    table = _table(commit, people, seats=["open", "open", "open", "me"])
    table_id = table.pk
    monkeypatch.setattr(play_services, "make_bot", racing)
    commit(services.fill_with_bots, user=people.users["member"], table=table, kind="heuristic")
    table.refresh_from_db()
    assert raced
    # The same table without the race: the same deal, the same bots, the same moves.
    monkeypatch.setattr(play_services, "make_bot", real)
    calm = _table(commit, people, seats=["open", "open", "open", "me"])
    commit(services.fill_with_bots, user=people.users["member"], table=calm, kind="heuristic")
    calm.refresh_from_db()
    assert table.moves_count == calm.moves_count == table.moves.count() > 0
    assert services.moves_of(table) == services.moves_of(calm)
    assert services.state_of(table).to_act() == 3
    assert table.status == GameTable.Status.PLAYING


# --- the rules at hand --------------------------------------------------------------------
def test_the_board_links_the_games_rules_in_the_pages_language(people, commit):
    table = _table(commit, people)
    page = _client(people, "it").get(f"/play/{table.pk}/").content.decode()
    assert 'href="/rules/tarocco/"' in page and "Regole di" in page
    rules = _client(people, "it").get("/rules/tarocco/")
    assert rules.status_code == 200


@pytest.mark.parametrize("game", GAMES)
def test_each_games_rules_page_tells_how_the_game_goes_in_the_readers_language(game, client):
    italian = Client(HTTP_ACCEPT_LANGUAGE="it").get(f"/rules/{game}/").content.decode()
    english = Client(HTTP_ACCEPT_LANGUAGE="en").get(f"/rules/{game}/").content.decode()
    section = registry.get(game).guide[0]
    assert "Come si gioca" in italian and escape(section.title.it) in italian
    assert escape(section.text.it.split(".")[0]) in italian
    assert escape(section.text.en[:40]) not in italian
    assert "How the game goes" in english and escape(section.text.en.split(".")[0]) in english
    # each section's rules are small links to their place in the book on the same page
    assert f'href="/rules/{game}/#{section.rules[0]}"' in english
    assert f'<dt id="{section.rules[0]}">' in english


# --- clocks -------------------------------------------------------------------------------
def _run_out(table: GameTable) -> None:
    """The running turn's deadline passes (as if its seconds had gone by)."""
    GameTable.objects.filter(pk=table.pk).update(
        clock_deadline=timezone.now() - timedelta(seconds=1)
    )


def test_a_clock_per_move_runs_for_the_person_to_act_and_never_for_a_bot(people, commit):
    before = timezone.now()
    table = _table(commit, people, clock={"kind": "move", "seconds": 30})
    table.refresh_from_db()
    assert table.clock_kind == "move" and table.clock_seat == 0
    assert table.clock_deadline is not None
    assert 29 <= (table.clock_deadline - before).total_seconds() <= 31
    state = services.state_of(table)
    action = registry.get("tarocco").encode_action(state.legal_actions(0)[0])
    commit(services.act, user=people.users["member"], table=table, action=action, move_id="a")
    table.refresh_from_db()
    # The bots played at once; the clock runs again for the person, a whole turn anew.
    assert services.state_of(table).to_act() == 0 and table.clock_seat == 0
    assert table.moves.filter(bot="heuristic").exists()


def test_out_of_time_the_heuristic_bot_plays_the_turn_and_the_board_says_so(people, commit):
    table = _table(commit, people, clock={"kind": "move", "seconds": 30})
    _run_out(table)
    page = commit(_client(people, "it").get, f"/play/{table.pk}/board/").content.decode()
    table.refresh_from_db()
    first = table.moves.order_by("step").first()
    assert first is not None and first.seat == 0 and first.bot == "clock"
    assert table.clock_flagged == 0 and table.status == GameTable.Status.PLAYING
    assert "ha finito il tempo" in page


def test_a_turn_still_in_time_is_left_alone(people, commit):
    table = _table(commit, people, clock={"kind": "move", "seconds": 30})
    assert not services.enforce_clock(table)
    assert commit(tasks.check_clocks.delay).get() == 0
    assert table.moves.count() == 0


def test_at_cardchess_a_seat_out_of_time_abandons_the_game(people, commit):
    table = _table(
        commit,
        people,
        "cardchess",
        seats=["me", "heuristic"],
        clock={"kind": "game", "seconds": 300, "increment": 2},
    )
    table.refresh_from_db()
    assert table.clock_seat == 0 and table.clock_banks == [300, 300]
    _run_out(table)
    assert commit(tasks.check_clocks.delay).get() == 1  # the periodic task decides it
    table.refresh_from_db()
    assert table.status == GameTable.Status.ABANDONED and table.clock_flagged == 0
    assert table.sealed == ""  # the deal is revealed as for any game that ended
    page = _client(people).get(f"/play/{table.pk}/").content.decode()
    assert "ran out of time: the game is abandoned" in page


def test_a_clock_per_game_keeps_what_is_left_and_adds_the_increment(people, commit):
    table = _table(commit, people, clock={"kind": "game", "seconds": 600, "increment": 5})
    table.refresh_from_db()
    now = timezone.now()
    table.clock_deadline = now + timedelta(seconds=400)
    clocks.stop(table, 0, now)
    assert table.clock_banks[0] == 405 and table.clock_banks[1:] == [600, 600, 600]
    clocks.start(table, 0, {1, 2, 3}, now)
    assert table.clock_deadline == now + timedelta(seconds=405)
    clocks.start(table, 2, {1, 2, 3}, now)
    assert table.clock_seat is None and table.clock_deadline is None


def test_the_board_shows_the_running_clock_in_the_pages_language(people, commit):
    table = _table(commit, people, clock={"kind": "game", "seconds": 600, "increment": 5})
    page = _client(people, "it").get(f"/play/{table.pk}/").content.decode()
    assert 'class="clock running" data-seat="0" data-left="' in page
    assert "10:00" in page and "Orologio per partita" in page
    assert "play/clock.js" in page


def test_the_new_table_form_sets_a_clock_and_refuses_one_out_of_bounds(people):
    client = _client(people, "it")
    form = {
        "club": people.club.pk,
        "ruleset": "tarocco:" + next(iter(registry.get("tarocco").rulesets)),
        "others": "heuristic",
    }
    client.post("/play/new/", {**form, "clock": "move", "move_seconds": "45"})
    table = GameTable.objects.get()
    assert (table.clock_kind, table.clock_seconds) == ("move", 45)
    page = client.post("/play/new/", {**form, "clock": "move", "move_seconds": "2"}, follow=True)
    assert "Il tempo di un turno va da 5 a 3600 secondi." in page.content.decode()
    assert GameTable.objects.count() == 1


# --- takebacks ----------------------------------------------------------------------------
def _first_move(commit, people, table, name="member", pick=0):
    state = services.state_of(table)
    seat = services.seat_of(table, people.users[name])
    action = registry.get(table.game).encode_action(state.legal_actions(seat.index)[pick])
    commit(services.act, user=people.users[name], table=table, action=action, move_id=f"t-{pick}")
    table.refresh_from_db()
    return action


def test_at_a_practice_table_the_bots_agree_at_once_and_the_state_steps_back(people, commit):
    table = _table(commit, people)  # the member against three heuristic bots: practice
    before = services.state_of(table).to_record()
    _first_move(commit, people, table)
    rows = table.moves.count()
    assert rows >= 2  # the member's move and a bot's answer at least
    page = _client(people, "it").get(f"/play/{table.pk}/").content.decode()
    assert "Riprendi la mia ultima mossa" in page
    commit(_client(people, "it").post, f"/play/{table.pk}/takeback/")
    table.refresh_from_db()
    assert services.state_of(table).to_record() == before  # replayed without them
    assert table.moves.count() == rows  # the log keeps every move it was given
    # Another move now: a new step, never one the log used.
    _first_move(commit, people, table, pick=1)
    assert table.moves.order_by("step").last().step >= rows
    assert table.moves.filter(step=rows).get().seat == 0


def test_a_takeback_is_never_offered_or_made_at_a_table_that_counts(people, commit):
    table = _table(commit, people, "cardchess", seats=["me", "open"])
    commit(services.join, user=people.users["referee"], table=table, invite=table.invite)
    table.refresh_from_db()
    assert not table.practice
    state = services.state_of(table)
    mover = next(s for s in table.seats.all() if s.index == state.to_act())
    name = "member" if mover.user == people.users["member"] else "referee"
    _first_move(commit, people, table, name=name)
    page = _client(people, "en", name).get(f"/play/{table.pk}/").content.decode()
    assert "Take back my last move" not in page and "Show a hint" not in page
    with pytest.raises(Conflict):
        services.ask_takeback(user=people.users[name], table=table)


def test_another_person_agrees_or_refuses_a_takeback(people, commit):
    # A practice table of two people: a named deal, which counts nowhere.
    table = _named(commit, people)
    state = services.state_of(table)
    first = next(s for s in table.seats.all() if s.index == state.to_act())
    asker = "member" if first.user == people.users["member"] else "referee"
    other = "referee" if asker == "member" else "member"
    before = services.state_of(table).to_record()
    _first_move(commit, people, table, name=asker)
    after = services.state_of(table).to_record()
    commit(services.ask_takeback, user=people.users[asker], table=table)
    asked = _client(people, "it", other).get(f"/play/{table.pk}/").content.decode()
    assert "chiede di riprendere la sua ultima mossa" in asked and 'id="takeback-yes"' in asked
    commit(_client(people, "it", other).post, f"/play/{table.pk}/takeback/", {"answer": "no"})
    table.refresh_from_db()
    assert services.state_of(table).to_record() == after
    assert Takeback.objects.get().status == Takeback.Status.REFUSED
    commit(services.ask_takeback, user=people.users[asker], table=table)
    with pytest.raises(NotAllowed):
        services.answer_takeback(user=people.users[asker], table=table, agree=True)
    commit(services.answer_takeback, user=people.users[other], table=table, agree=True)
    table.refresh_from_db()
    assert services.state_of(table).to_record() == before


def _named(commit, people):
    table = commit(
        services.create_table,
        user=people.users["member"],
        club=people.club,
        game="cardchess",
        seats=["me", "open"],
        seed=1234,
        practice=True,
    )
    commit(services.join, user=people.users["referee"], table=table, invite=table.invite)
    table.refresh_from_db()
    assert table.practice and table.status == GameTable.Status.PLAYING
    return table


def test_a_practice_game_with_a_takeback_finishes_and_replays_without_the_moves_taken_back(
    people, commit
):
    table = _table(commit, people)
    _first_move(commit, people, table)
    commit(services.ask_takeback, user=people.users["member"], table=table)
    play_out(commit, people.users["member"], table)
    table.refresh_from_db()
    assert table.status == GameTable.Status.FINISHED
    record = services.state_of(table).to_record()
    assert registry.get("tarocco").validate(record).valid
    voided = services.voided_steps(table)
    assert len(record["actions"]) == table.moves.count() - len(voided) and voided
    page = _client(people).get(f"/play/{table.pk}/replay/").status_code
    assert page == 200


# --- hints and the guided first game ------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_a_hint_is_a_legal_move_with_its_reason_in_both_languages(game):
    engine = registry.get(game)
    state = engine.new_game(engine.ruleset(), 5)
    seat = state.to_act()
    action, why = core_hint(engine, state, seat, 9)
    assert not state.check(seat, action)
    assert why.it and why.en and why.it != why.en


def test_tarocco_hints_say_the_reason_of_the_play(people, commit):
    engine = registry.get("tarocco")
    state = engine.new_game(engine.ruleset(), 11)
    bots = [engine.bots["heuristic"](i) for i in range(4)]
    reasons = set()
    for _ in range(60):
        seat = state.to_act()
        if seat is None:
            break
        _action, why = core_hint(engine, state, seat, 3)
        reasons.add(why.en)
        state.apply(seat, bots[seat].choose(state, seat))
    assert any("trick" in r for r in reasons)


def test_a_first_game_shows_a_hint_on_each_turn_in_the_pages_language(people, commit):
    table = _table(commit, people)
    page = _client(people, "it").get(f"/play/{table.pk}/").content.decode()
    assert 'id="guided"' in page and "Suggerimento:" in page and 'id="hint-why"' in page


def test_a_hints_reason_names_its_rule_as_a_small_link_to_the_rule_book(people, commit):
    table = _table(commit, people, "cardchess", seats=["me", "heuristic"])
    page = _client(people, "en").get(f"/play/{table.pk}/").content.decode()
    why = page.split('id="hint-why">', 1)[1].split("</p>", 1)[0]
    assert 'class="rule-ref"' in why and 'href="/rules/cardchess/#cardchess.' in why
    assert why.split("<a ", 1)[0].strip()  # the words come first, the id after them


def test_after_a_first_game_the_hint_is_one_tap_away(people, commit):
    done = _table(commit, people, "cardchess", seats=["me", "heuristic"])
    play_out(commit, people.users["member"], done)
    table = _table(commit, people, "cardchess", seats=["me", "heuristic"], seed=12)
    client = _client(people, "it")
    page = client.get(f"/play/{table.pk}/").content.decode()
    assert 'id="guided"' not in page and 'id="hint-ask"' in page and "Suggerimento:" not in page
    shown = client.get(f"/play/{table.pk}/hint/", HTTP_HX_REQUEST="true").content.decode()
    assert "Suggerimento:" in shown and 'id="hint-why"' in shown


def test_a_refused_clock_is_said_at_its_field_and_every_typed_value_is_kept(people):
    client = _client(people, "it")
    ruleset = "tarocco:" + list(registry.get("tarocco").rulesets)[-1]
    typed = {
        "club": people.club.pk,
        "ruleset": ruleset,
        "others": "random",
        "clock": "game",
        "move_seconds": "45",
        "game_minutes": "0",  # 0 minutes: under the 1 the form allows
        "increment": "7",
        "label": "Serata lenta",
    }
    answer = client.post("/play/new/", typed)
    assert answer.status_code == 400
    page = answer.content.decode()
    assert GameTable.objects.count() == 0
    # The error at the minutes' field, in words, and nowhere else.
    said = "Il tempo di una partita va da 1 a 180 minuti."
    field = page[page.index('id="game_minutes"') :]
    assert field.index(said) < field.index("</div>")
    assert page.count(said) == 1
    assert 'aria-describedby="game_minutes-error"' in page
    # What was typed is kept: the clock's kind, its three numbers, the seats, the label.
    assert '<input type="radio" name="clock" value="game" checked>' in page
    assert '<input type="radio" name="clock" value="" checked>' not in page
    assert 'id="move_seconds" name="move_seconds"' in page and 'value="45"' in page
    assert re.search(r'id="game_minutes"[^>]*value="0"', page)
    assert re.search(r'id="increment"[^>]*value="7"', page)
    assert '<input type="radio" name="others" value="random" checked>' in page
    assert f'<option value="{ruleset}" selected>' in page
    assert 'value="Serata lenta"' in page


def test_a_clock_number_that_is_not_a_whole_number_is_refused_at_its_own_field(people):
    client = _client(people, "en")
    form = {
        "club": people.club.pk,
        "ruleset": "tarocco:" + next(iter(registry.get("tarocco").rulesets)),
        "others": "heuristic",
        "clock": "move",
        "move_seconds": "2.5",
    }
    page = client.post("/play/new/", form).content.decode()
    said = "The clock&#x27;s times are whole numbers."
    assert re.search(r'id="move_seconds"[^>]*value="2.5" aria-invalid="true"', page)
    assert f'<p class="error" id="move_seconds-error">{said}</p>' in page
    assert '<input type="radio" name="clock" value="move" checked>' in page
    assert GameTable.objects.count() == 0
