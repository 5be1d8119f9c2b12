"""Digital tables through their services: a game is its log, checked move by move."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone, translation

from games.core import registry
from games.core.fair import commitment
from ledger.clubs.errors import Conflict, Invalid, NotAllowed, RuleViolation
from ledger.clubs.models import Entry, Player, Result, Standing
from ledger.clubs.projections.standings import standings
from ledger.play import selectors, services
from ledger.play.models import GameTable, Move
from tests.play.conftest import GAMES, dealt, play_out, seats_for


def _table(commit, people, game="tarocco", seats=None, user=None, **kw):
    with dealt(11):
        return commit(
            services.create_table,
            user=user or people.users["member"],
            club=people.club,
            game=game,
            seats=seats or seats_for(game),
            **kw,
        )


@pytest.mark.parametrize("game", GAMES)
def test_a_game_against_bots_is_practice_kept_whole_and_never_in_the_ledger(commit, people, game):
    table = _table(commit, people, game)
    assert table.status == GameTable.Status.PLAYING and table.practice
    play_out(commit, people.users["member"], table)
    table.refresh_from_db()
    assert table.status == GameTable.Status.FINISHED
    assert table.result is None and table.ledger_table is None
    record = services.state_of(table).to_record()
    assert len(record["actions"]) == table.moves_count == Move.objects.filter(table=table).count()
    assert registry.get(game).validate(record).valid
    assert not Result.objects.exists() and not Entry.objects.exists()
    assert not Player.objects.filter(automated=True).exists()


def _people_table(commit, people, game="cardchess", **kw):
    """A table of two people (the member and the referee): it counts."""
    table = _table(commit, people, game, seats=["me", "open"], **kw)
    commit(services.join, user=people.users["referee"], table=table, invite=table.invite)
    table.refresh_from_db()
    return table


def test_a_game_between_people_ends_in_the_ledger_with_its_full_record(commit, people):
    table = _people_table(commit, people)
    assert not table.practice
    for _ in range(500):
        table.refresh_from_db()
        if table.over:
            break
        state = services.state_of(table)
        seat = state.to_act()
        user = next(s.user for s in table.seats.all() if s.index == seat)
        action = registry.get("cardchess").encode_action(state.legal_actions(seat)[0])
        commit(services.act, user=user, table=table, action=action)
    result = table.result
    assert result.source == Result.Source.DIGITAL and result.status == Result.Status.ACCEPTED
    assert result.record == services.state_of(table).to_record()
    assert Entry.objects.filter(result=result).count() == len(result.scores)
    assert result.competition.slug == "partite-digitali-cardchess"
    # The key of the table's result cannot be guessed from the table's number.
    from ledger.clubs.results.services import sender_key

    assert result.idempotency_key == sender_key(
        result.entered_by_id, result.source, services.result_key(table)
    )
    assert services.result_key(table) != f"play-table-{table.pk}"
    assert not Player.objects.filter(automated=True, standings__isnull=False).exists()


def test_the_server_alone_deals_and_seals_the_deal_before_play(commit, people):
    table = _people_table(commit, people)
    assert table.commitment == commitment(11, table.pk)
    summary = selectors.table_summary(table, people.users["member"])
    assert summary["commitment"] == table.commitment and summary["seed"] is None
    with pytest.raises(Invalid) as refused:
        commit(
            services.create_table,
            user=people.users["member"],
            club=people.club,
            game="cardchess",
            seats=["me", "open"],
            seed=5,
        )
    assert "seed" in refused.value.fields


def test_a_drawn_seed_comes_from_the_secure_source(monkeypatch):
    drawn = []
    monkeypatch.setattr(services.secrets, "randbits", lambda n: drawn.append(n) or 42)
    assert services.new_seed() == 42 and drawn == [62]


def test_a_practice_table_replays_a_named_deal_and_counts_nowhere(commit, people):
    table = commit(
        services.create_table,
        user=people.users["member"],
        club=people.club,
        game="cardchess",
        seats=["me", "open"],
        seed=5,
        practice=True,
    )
    seed, deal = services.secrets_of(table)
    assert table.practice and table.named_deal and seed == 5
    assert (
        deal
        == registry.get("cardchess")
        .new_game(registry.get("cardchess").ruleset(None), 5)
        .to_record()
    )
    with pytest.raises(Invalid):
        commit(
            services.create_table,
            user=people.users["scorekeeper"],
            club=people.club,
            game="cardchess",
            seats=["me", "open"],
            competition=_league(people),
            seed=5,
            practice=True,
        )


def _league(people, **kw):
    from ledger.clubs.models import Competition

    return Competition.objects.create(
        club=people.club, name="Lega", slug="lega", game="cardchess", ruleset={"name": "2p"}, **kw
    )


def test_a_competition_refuses_bots_unless_its_setting_lets_people_count(commit, people):
    user = people.users["scorekeeper"]
    comp = _league(people)
    with pytest.raises(Invalid) as refused:
        _table(commit, people, "cardchess", seats=["me", "random"], competition=comp, user=user)
    assert "seats" in refused.value.fields
    comp.bot_tables_count = True
    comp.save()
    table = _table(commit, people, "cardchess", seats=["me", "random"], competition=comp, user=user)
    assert not table.practice
    play_out(commit, user, table)
    table.refresh_from_db()
    assert table.result.competition == comp
    ranked = {r.player_id for r in standings(comp)}
    assert ranked == {people.players["scorekeeper"].pk}
    bots = Player.objects.filter(automated=True)
    assert bots.count() == 2  # the bot and the digital referee, neither ranked nor listed
    members = people.client("member").get(f"/api/v1/players/?club={people.club.pk}").json()
    names = {p["name"] for p in (members.get("results", members))}
    assert not names & set(bots.values_list("name", flat=True))


def test_a_table_of_a_competition_enters_its_standings(commit, people):
    comp = _league(people)
    user = people.users["scorekeeper"]
    table = _table(commit, people, "cardchess", seats=["me", "open"], competition=comp, user=user)
    commit(services.join, user=people.users["member"], table=table, invite=table.invite)
    table.refresh_from_db()
    for _ in range(500):
        table.refresh_from_db()
        if table.over:
            break
        state = services.state_of(table)
        seat = state.to_act()
        mover = next(s.user for s in table.seats.all() if s.index == seat)
        action = registry.get("cardchess").encode_action(state.legal_actions(seat)[0])
        commit(services.act, user=mover, table=table, action=action)
    assert table.result.competition == comp
    assert Standing.objects.filter(competition=comp, player=people.players["scorekeeper"]).exists()


def test_a_member_cannot_put_a_game_into_a_competition(commit, people):
    from ledger.clubs.models import Competition

    comp = Competition.objects.create(club=people.club, name="Lega", slug="lega", game="cardchess")
    with pytest.raises(NotAllowed):
        _table(commit, people, "cardchess", competition=comp)


def test_a_move_sent_twice_is_applied_once(commit, people):
    table = _table(commit, people, "ergio", seats=["me", "heuristic"])
    state = services.state_of(table)
    action = registry.get("ergio").encode_action(state.legal_actions(0)[0])
    user = people.users["member"]
    first, created = commit(services.act, user=user, table=table, action=action, move_id="abc")
    table.refresh_from_db()
    count = table.moves_count
    again, created_again = commit(
        services.act, user=user, table=table, action=action, move_id="abc"
    )
    table.refresh_from_db()
    assert created and not created_again
    assert again.pk == first.pk
    assert table.moves_count == count


def test_a_move_out_of_turn_is_refused_with_the_rule(commit, people):
    people_user = people.users["member"]
    table = _table(commit, people, "ponte", seats=["heuristic", "me"])
    table.refresh_from_db()
    state = services.state_of(table)
    assert state.to_act() == 1  # the bot moved first and now waits for the human
    # Make the human try while it is not its turn: a fresh table where seat 0 is human.
    table = _table(commit, people, "cardchess", seats=["open", "me"])
    other = people.users["scorekeeper"]
    commit(services.join, user=other, table=table, invite=table.invite)
    table.refresh_from_db()
    state = services.state_of(table)
    assert state.to_act() == 0
    action = registry.get("cardchess").encode_action(state.legal_actions(0)[0])
    with pytest.raises(RuleViolation) as caught:
        commit(services.act, user=people_user, table=table, action=action)
    assert caught.value.violations[0]["rule"] == "cardchess.turn.order"
    assert "en" in caught.value.violations[0]["message"]


def test_an_illegal_move_is_refused_with_the_rule_that_forbids_it(commit, people):
    table = _table(commit, people, "sanmarco", seats=["me", "heuristic"])
    with pytest.raises(RuleViolation) as caught:
        commit(
            services.act,
            user=people.users["member"],
            table=table,
            action={"colour": 0, "points": 999},
        )
    assert caught.value.violations[0]["rule"].startswith("sanmarco.")
    table.refresh_from_db()
    assert table.moves_count == 0


def test_an_unreadable_move_is_refused_as_invalid(commit, people):
    table = _table(commit, people, "sanmarco", seats=["me", "heuristic"])
    with pytest.raises(Invalid):
        commit(services.act, user=people.users["member"], table=table, action={"colour": "x"})


def test_an_invited_player_takes_the_open_seat_and_the_game_begins(commit, people):
    table = _table(commit, people, "tarocco", seats=["me", "open", "random", "heuristic"])
    assert table.status == GameTable.Status.WAITING
    with pytest.raises(NotAllowed):
        commit(services.join, user=people.users["referee"], table=table, invite="wrong")
    seat = commit(services.join, user=people.users["referee"], table=table, invite=table.invite)
    assert seat.index == 1
    table.refresh_from_db()
    assert table.status == GameTable.Status.PLAYING and table.practice
    with translation.override("it"):  # bots are named in the reader's language
        names = [s["name"] for s in selectors.seat_rows(table)]
    assert names[2:] == ["Bot casuale 1", "Bot euristico 1"]
    with translation.override("en"):
        assert selectors.seat_rows(table)[3]["name"] == "Heuristic bot 1"
    with pytest.raises(Conflict):
        commit(services.join, user=people.users["organiser"], table=table, invite=table.invite)


def test_a_stranger_to_the_club_cannot_join(commit, people):
    table = _table(commit, people, "cardchess", seats=["me", "open"])
    with pytest.raises(NotAllowed):
        commit(services.join, user=people.users["stranger"], table=table, invite=table.invite)


def test_the_creator_fills_open_seats_with_bots(commit, people):
    table = _table(commit, people, "tarocco", seats=["me", "open", "open", "open"])
    with pytest.raises(NotAllowed):
        commit(services.fill_with_bots, user=people.users["referee"], table=table, kind="random")
    commit(services.fill_with_bots, user=people.users["member"], table=table, kind="heuristic")
    table.refresh_from_db()
    assert table.status == GameTable.Status.PLAYING and table.practice
    with translation.override("it"):
        names = [s["name"] for s in selectors.seat_rows(table)]
    assert names[1:] == ["Bot euristico 1", "Bot euristico 2", "Bot euristico 3"]
    assert table.ledger_table is None


def test_an_idle_table_times_out_and_keeps_its_log(commit, people, settings):
    settings.PLAY_TABLE_TIMEOUT_MINUTES = 5
    table = _table(commit, people, "ergio", seats=["me", "heuristic"])
    state = services.state_of(table)
    action = registry.get("ergio").encode_action(state.legal_actions(0)[0])
    commit(services.act, user=people.users["member"], table=table, action=action)
    table.refresh_from_db()
    moves = table.moves_count
    GameTable.objects.filter(pk=table.pk).update(last_move_at=timezone.now() - timedelta(minutes=6))
    assert services.expire_stale_tables() == 1
    table.refresh_from_db()
    assert table.status == GameTable.Status.ABANDONED
    assert Move.objects.filter(table=table).count() == moves > 0
    with pytest.raises(Conflict):
        commit(services.act, user=people.users["member"], table=table, action=action)


def test_the_move_log_is_append_only(commit, people):
    table = _table(commit, people, "ergio", seats=["me", "heuristic"])
    state = services.state_of(table)
    action = registry.get("ergio").encode_action(state.legal_actions(0)[0])
    move, _ = commit(services.act, user=people.users["member"], table=table, action=action)
    with pytest.raises(PermissionError):
        move.save()
    with pytest.raises(PermissionError):
        Move.objects.filter(table=table).delete()
    with pytest.raises(PermissionError):
        Move.objects.filter(table=table).update(seat=1)


def test_replaying_the_log_gives_the_engine_state(commit, people):
    table = _table(commit, people, "tarocco")
    play_out(commit, people.users["member"], table)
    table.refresh_from_db()
    state = services.state_of(table)
    assert state.is_over()
    assert state.to_record()["deal"] == table.deal["deal"]


def test_a_move_at_a_stale_table_is_refused_and_the_table_stays_abandoned(commit, people, settings):
    settings.PLAY_TABLE_TIMEOUT_MINUTES = 1
    table = _table(commit, people, "cardchess", seats=["me", "random"])
    GameTable.objects.filter(pk=table.pk).update(last_move_at=timezone.now() - timedelta(minutes=2))
    action = registry.get("cardchess").encode_action(services.state_of(table).legal_actions(0)[0])
    with pytest.raises(Conflict, match="timed out"):
        commit(services.act, user=people.users["member"], table=table, action=action)
    table.refresh_from_db()
    assert table.status == GameTable.Status.ABANDONED
    assert services.state_of(table).to_record()["actions"] == []


def test_a_scheduled_table_keeps_its_players_seats_and_records_there(commit, people):
    from ledger.clubs.models import Competition
    from ledger.clubs.results.services import create_table as ledger_table

    comp = Competition.objects.create(
        club=people.club, name="Lega", slug="lega", game="cardchess", ruleset={"name": "2p"}
    )
    sitting = ledger_table(
        user=people.users["organiser"],
        competition=comp,
        label="Turno 1 T1",
        players=[people.players["referee"], people.players["member"]],
    )
    with pytest.raises(NotAllowed):
        commit(
            services.create_table,
            user=people.users["scorekeeper"],
            club=people.club,
            game="",
            seats=[],
            ledger_table=sitting,
        )
    table = commit(
        services.create_table,
        user=people.users["member"],
        club=people.club,
        game="",
        seats=[],
        ledger_table=sitting,
    )
    assert [(s.index, s.kind) for s in table.seats.all()] == [(0, "open"), (1, "human")]
    with pytest.raises(Conflict):
        commit(services.fill_with_bots, user=people.users["member"], table=table, kind="random")
    with pytest.raises(NotAllowed):
        commit(services.join, user=people.users["scorekeeper"], table=table, invite=table.invite)
    seat = commit(services.join, user=people.users["referee"], table=table, invite=table.invite)
    assert seat.index == 0
    table.refresh_from_db()
    assert table.status == GameTable.Status.PLAYING and table.ledger_table == sitting
    referee, member = people.users["referee"], people.users["member"]
    game = registry.get("cardchess")
    for i in range(2000):
        table.refresh_from_db()
        if table.over:
            break
        state = services.state_of(table)
        user = referee if state.to_act() == 0 else member
        action = game.encode_action(state.legal_actions(state.to_act())[0])
        commit(services.act, user=user, table=table, action=action, move_id=f"s{i}")
    assert table.result.table == sitting and table.result.competition == comp
