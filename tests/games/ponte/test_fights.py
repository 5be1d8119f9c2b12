"""Moves: the circle of types, the carrello, payment, the power cap, the big Attack, the
pack's return, strategy card effects."""

from __future__ import annotations

from games.ponte import Fight

from .helpers import move, on_bridge, rules_of


def test_carrello_move_attack_beats_push_by_its_value() -> None:
    s = on_bridge()
    move(s, "A15000", "P10000")
    assert s.carrello == 3
    assert s.fpower == [110000 - 15000, 110000 - 10000]


def test_carrello_move_defense_beats_attack_one_slot_per_5000_of_the_winner() -> None:
    # the booklet's example: a 5,000 Defense beats a 15,000 Attack and moves one slot
    s = on_bridge()
    move(s, "A15000", "D5000")
    assert s.carrello == -1


def test_carrello_move_push_beats_defense() -> None:
    s = on_bridge()
    move(s, "D15000", "P5000")
    assert s.carrello == -1


def test_carrello_move_same_type_larger_card_wins_by_the_difference() -> None:
    s = on_bridge()
    move(s, "A20000", "A5000")
    assert s.carrello == 3


def test_carrello_move_equal_cards_leave_the_carrello() -> None:
    s = on_bridge()
    move(s, "P10000", "P10000")
    assert s.carrello == 0
    assert s.spent == [10000, 10000]


def test_fight_power_refuses_an_unaffordable_card() -> None:
    s = on_bridge(powers={"calci": 60000, "satiri": 110000})
    move(s, "P15000", "P15000")
    move(s, "A15000", "A15000")
    move(s, "D15000", "D15000")  # 15,000 left
    assert s.fpower[0] == 15000
    assert rules_of(s, Fight("P10000")) == []
    assert "ponte.fight.power" in rules_of(s, Fight("A20000"))
    assert "ponte.fight.power" not in rules_of(s, Fight("A15000"))


def test_fight_big_attack_needs_100000_at_the_start() -> None:
    s = on_bridge(tramontana="santa_maria")  # 60,000 in Base
    assert "ponte.fight.big_attack" in rules_of(s, Fight("A20000"))
    assert all(a.card != "A20000" for a in s.legal_actions(0))
    rich = on_bridge(tramontana="calci")  # 110,000
    assert rules_of(rich, Fight("A20000")) == []


def test_fight_in_pack_a_spent_card_cannot_be_played_again() -> None:
    s = on_bridge()
    move(s, "A20000", "A20000")
    assert "ponte.fight.in_pack" in rules_of(s, Fight("A20000"))


def test_fight_refresh_the_pack_comes_back_when_spent() -> None:
    s = on_bridge(bridge_slots=30)
    # equal exchanges leave the carrello still; give both enough power for the whole pack
    s.fpower = [200000, 200000]
    s.fstart = [200000, 200000]
    for code in s.ruleset.fight_cards:
        move(s, code, code)
    assert len(s.hand[0]) == 12
    assert rules_of(s, Fight("A20000")) == []


def test_fight_refresh_when_the_power_left_cannot_pay_the_cards_left() -> None:
    s = on_bridge(bridge_slots=30)
    for code in ("A5000", "P5000", "D5000", "D5000"):
        move(s, code, code)
    s.fpower[0] = 10000
    s.hand[0] = [i for i, c in enumerate(s.pack) if c.value == 20000]
    s._refresh(0)
    assert len(s.hand[0]) == 12


def test_fight_must_play_a_card_while_power_lasts() -> None:
    s = on_bridge()
    assert "ponte.fight.must_play" in rules_of(s, Fight(None))


def test_fight_must_play_without_power_the_other_side_plays_alone() -> None:
    s = on_bridge(bridge_slots=40)
    s.fpower = [0, 50000]
    assert s.legal_actions(0) == [Fight(None, None), Fight(None, 0)]
    assert "ponte.fight.must_play" in rules_of(s, Fight("A5000"))
    move(s, None, "P10000")
    assert s.carrello == -2


def test_strategy_add_strengthens_the_card() -> None:
    s = on_bridge()  # identity deal: calci holds add:5000, delfini holds add:5000 too
    move(s, "A10000", "A10000", ts=0)
    assert s.carrello == 1
    assert s.fpower[0] == 100000  # the card is paid at its printed value


def test_strategy_cancel_the_enemy_card_has_no_effect_but_is_paid() -> None:
    s = on_bridge(tramontana="san_michele")  # card 3: cancel
    move(s, "D5000", "P15000", ts=3)
    assert s.carrello == 1
    assert s.fpower[1] == 110000 - 15000


def test_strategy_move_pushes_further_and_recover_refills() -> None:
    s = on_bridge(tramontana="santa_maria", mezzogiorno="sant_antonio")  # move:1 / recover
    move(s, "P5000", "P5000", ts=4)
    assert s.carrello == 1
    move(s, "P10000", "P10000", ms=5)
    assert s.fpower[1] == 60000 - 5000  # recovered 10,000 of the 15,000 spent


def test_strategy_once_a_used_card_is_out() -> None:
    s = on_bridge()
    move(s, "A10000", "A10000", ts=0)
    assert "ponte.fight.strategy_once" in rules_of(s, Fight("A5000", 0))


def test_strategy_own_only_the_fighting_magistratura_card() -> None:
    s = on_bridge()
    assert "ponte.fight.strategy_own" in rules_of(s, Fight("A5000", 2))


def test_turn_order_tramontana_chooses_first_and_its_choice_stays_hidden() -> None:
    s = on_bridge()
    assert rules_of(s, Fight("A5000")) == []
    assert "ponte.turn.order" in [v.rule for v in s.check(1, Fight("A5000"))]
    s.apply(0, Fight("A5000", 0))
    assert s.view(1)["pending"][0] == {"chosen": True}
    assert s.view(0)["pending"][0] == {"fight": "A5000", "strategy": 0}
