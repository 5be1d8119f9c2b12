"""Power sheets, strategy cards and deployment, by mode and number of players."""

from __future__ import annotations

from games.ponte import Assign, Deploy, Equip, Fight
from games.ponte.model import MAG_INDEX

from .helpers import act, fill_sheets, fresh, rules_of

M = MAG_INDEX


def test_power_base_values_two_players_use_the_fixed_set() -> None:
    s = fresh("2p-base")
    assert {a.power for a in s.legal_actions(0)} == {110000, 90000, 60000}
    act(s, Assign(M["calci"], 110000))
    assert "ponte.power.base_values" in rules_of(s, Assign(M["satiri"], 110000))
    assert rules_of(s, Assign(M["satiri"], 90000)) == []


def test_power_base_values_four_players_use_105_85_60_per_quarter() -> None:
    s = fresh("4p-base")
    assert {a.power for a in s.legal_actions(0)} == {105000, 85000, 60000}
    assert "ponte.power.base_values" in rules_of(s, Assign(M["calci"], 110000))


def test_power_own_only_the_seats_own_magistrature() -> None:
    s = fresh("4p-advanced")
    assert "ponte.power.own" in rules_of(s, Assign(M["satiri"], 100000))  # West, seat 1's


def test_power_step_minimum_and_total_in_advanced() -> None:
    s = fresh("2p-advanced")
    assert "ponte.power.step" in rules_of(s, Assign(M["calci"], 102000))
    assert "ponte.power.minimum" in rules_of(s, Assign(M["calci"], 5000))
    assert "ponte.power.total" in rules_of(s, Assign(M["calci"], 460000))
    for name, v in (("calci", 200000), ("calcesana", 100000), ("mattaccini", 100000)):
        act(s, Assign(M[name], v))
    act(s, Assign(M["san_michele"], 50000))
    act(s, Assign(M["santa_maria"], 30000))
    assert "ponte.power.total" in rules_of(s, Assign(M["satiri"], 10000))
    assert s.legal_actions(0) == [Assign(M["satiri"], 20000)]


def test_power_rank_expert_sheet_is_written_strongest_first() -> None:
    s = fresh("4p-expert")
    act(s, Assign(M["mattaccini"], 100000))  # rank 1
    assert "ponte.power.rank" in rules_of(s, Assign(M["calci"], 120000))
    act(s, Assign(M["calci"], 100000))  # equal values may share
    assert s.rank[M["mattaccini"]] == 1 and s.rank[M["calci"]] == 2
    assert s.legal_actions(0) == [Assign(M["calcesana"], 50000)]


def test_power_rank_every_sheet_ranks_from_the_strongest_to_the_weakest_in_the_views() -> None:
    from games.core import RandomBot
    from games.ponte import GAME

    for name in ("2p-expert", "4p-expert", "2p-incognito", "6p-expert"):
        s = GAME.new_game(GAME.ruleset(name), 3)
        bots = [RandomBot(i) for i in range(s.ruleset.seats)]
        while s.phase in ("power", "strategy"):
            seat = s.to_act()
            assert seat is not None
            s.apply(seat, bots[seat].choose(s, seat))
        for _seat, mags in s._pools:
            ranked = sorted(mags, key=lambda m: s.rank[m] or 0)
            assert [s.rank[m] for m in ranked] == list(range(1, len(mags) + 1)), name
            powers = [s.initial[m] for m in ranked]
            assert powers == sorted(powers, reverse=True), (name, powers)
        enemy = s.view(1)["magistrature"]
        assert isinstance(enemy, list)
        ranks = [e["rank"] for e in enemy[:6]]  # the other side's ranks, values hidden
        assert sorted(ranks) == sorted(s.rank[m] for m in range(6))


def test_power_rank_a_first_value_too_small_for_the_rest_is_refused() -> None:
    s = fresh("4p-expert")
    assert "ponte.power.rank" in rules_of(s, Assign(M["calci"], 50000))


def test_strategy_random_base_deals_cards_and_refuses_equip() -> None:
    s = fresh("2p-base")
    fill_sheets(s)
    assert s.strategy_of == list(range(6)) * 2
    assert s.phase == "deploy"
    assert "ponte.strategy.random" in rules_of(s, Equip(0, 1))


def test_strategy_assign_advanced_each_card_once() -> None:
    s = fresh("2p-advanced")
    while s.phase == "power":
        act(s, s.legal_actions(s.to_act() or 0)[0])
    assert s.phase == "strategy"
    act(s, Equip(M["calci"], 4))
    assert "ponte.strategy.assign" in rules_of(s, Equip(M["calcesana"], 4))
    assert "ponte.strategy.assign" in rules_of(s, Equip(M["calci"], 3))


def test_strategy_assign_four_players_hold_three_dealt_cards_each() -> None:
    s = fresh("4p-advanced")
    fill_sheets(s)  # the helper equips too; check the split of the identity deal
    assert sorted(s.strategy_of[m] or 0 for m in range(3)) == [0, 1, 2]
    assert sorted(s.strategy_of[m] or 0 for m in range(3, 6)) == [3, 4, 5]


def test_strategy_assign_six_players_the_general_places_them() -> None:
    s = fresh("6p-advanced")
    while s.phase == "power":
        act(s, s.legal_actions(s.to_act() or 0)[0])
    assert s.to_act() == 0  # Tramontana's General
    assert len(s.legal_actions(0)) == 36


def test_deploy_challenger_the_drawn_side_deploys_first() -> None:
    s = fresh("2p-base", first=1)
    fill_sheets(s)
    assert s.to_act() == 1
    assert "ponte.deploy.challenger" in [v.rule for v in s.check(1, Deploy(M["calci"]))]


def test_deploy_challenger_four_players_whoever_drew_highest_opens_west_included() -> None:
    from games.ponte import GAME, PonteState
    from games.ponte.state import Deal

    from .helpers import IDENTITY

    ruleset = GAME.ruleset("4p-base")
    for first, quarter in ((0, 0), (0, 1), (1, 0), (1, 1)):
        s = PonteState(ruleset, Deal(first, IDENTITY, quarter), None)
        opener = s.layout.owners[2 * first + quarter]
        fill_sheets(s)
        assert s.to_act() == opener
        assert GAME.start(s.to_record()).opener == opener
    # a deal written before the quarter was drawn opens East, as it always did
    old = GAME.start(
        {"game": "ponte", "ruleset": {"name": "4p-base"}, "deal": {"first": "mezzogiorno"}}
    )
    assert old.opener == old.layout.owners[2]
    # seeded deals draw both quarters
    drawn = {
        GAME.new_game(ruleset, seed).to_record()["deal"]["first_quarter"] for seed in range(20)
    }
    assert drawn == {"east", "west"}


def test_deploy_once_a_magistratura_fights_once() -> None:
    s = fresh("2p-base")
    fill_sheets(s)
    act(s, Deploy(M["calci"]))
    act(s, Deploy(M["delfini"]))
    s.fpower = [0, 0]
    s.carrello = 1
    act(s, Fight(None))
    act(s, Fight(None))  # both out, carrello past the middle: Tramontana wins
    assert s.results[0]["winner"] == "tramontana"
    assert "ponte.deploy.once" in rules_of(s, Deploy(M["calci"]))


def test_deploy_quarter_four_players_name_the_enemy_quarter() -> None:
    s = fresh("4p-base")
    fill_sheets(s)
    assert s.to_act() == 0
    assert "ponte.deploy.quarter" in rules_of(s, Deploy(M["calci"]))
    act(s, Deploy(M["calci"], 1))  # West of Mezzogiorno: seat 3 answers
    assert s.to_act() == 3
    assert "ponte.deploy.quarter" in rules_of(s, Deploy(M["delfini"]))
    assert rules_of(s, Deploy(M["san_marco"])) == []


def test_deploy_quarter_two_players_name_no_quarter() -> None:
    s = fresh("2p-base")
    fill_sheets(s)
    assert "ponte.deploy.quarter" in rules_of(s, Deploy(M["calci"], 0))


def test_deploy_own_six_players_the_general_deploys() -> None:
    s = fresh("6p-base")
    fill_sheets(s)
    assert s.to_act() == 0
    act(s, Deploy(M["satiri"], 0))
    assert s.to_act() == 3  # Mezzogiorno's General answers
    act(s, Deploy(M["leoni"]))
    assert s.to_act() == 2  # satiri is Tramontana West: its player, seat 2, fights
    assert s.fight_seat(1) == 4


def test_deploy_pass_to_ally_when_the_winner_has_no_magistratura_left() -> None:
    s = fresh("4p-base")
    fill_sheets(s)
    for mag in ("calci", "calcesana", "mattaccini"):
        assert s.to_act() == 0
        act(s, Deploy(M[mag], 0))
        act(s, Deploy(next(m for m in s._respond_mags())))
        s.fpower = [0, 0]
        s.carrello = 2
        act(s, Fight(None))
        act(s, Fight(None))
    assert s.to_act() == 1  # seat 0 has nothing left: its ally deploys
    assert "ponte.deploy.pass_to_ally" in [v.rule for v in s.check(0, Deploy(M["calci"], 1))]


def test_three_players_lone_commander_fills_two_quarter_sheets() -> None:
    s = fresh("3p-base")
    assert [seat for seat, _ in s.pools()] == [0, 0, 1, 2]
    fill_sheets(s)
    act(s, Deploy(M["calci"], 0))  # the allied side is split: name a quarter
    assert s.to_act() == 1
    other = fresh("3p-base", lone_side="mezzogiorno")
    assert [seat for seat, _ in other.pools()] == [1, 2, 0, 0]
