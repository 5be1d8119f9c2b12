"""Corteo Storico rules, each by its rule id (checked path and record validation)."""

from __future__ import annotations

from games.ergio import GAME, Add, Arno, End, Lay, Swap
from games.ergio import cards as C
from games.ergio.state import Phase
from tests.games.ergio.helpers import M14, T14, code, make, rules


def tris(*codes: str) -> Lay:
    return Lay(tuple(sorted(code(c) for c in codes)))


def test_corteo_deal_gives_twelve_and_the_opener_draws_two() -> None:
    s = make(t=T14, m=M14)
    assert len(s.hands[0]) == 14 and len(s.hands[1]) == 12
    assert s.to_act() == 0


def test_corteo_draw_ragazzi_draw_three() -> None:
    s = make("ragazzi", t=T14, m=M14)
    assert len(s.hands[0]) == 15


def test_turn_order_only_the_player_on_turn_acts() -> None:
    s = make(t=T14, m=M14)
    assert rules(s.check(1, End())) == ["ergio.turn.order"]


def test_corteo_tris_must_lay_before_anything_else() -> None:
    s = make(t=T14, m=M14)
    assert rules(s.check(0, End())) == ["ergio.corteo.tris.must_lay"]
    legal = s.legal_actions(0)
    assert legal and all(isinstance(a, Lay) for a in legal)
    assert tris("SMA-MAG", "SMA-CAP", "SMA-7") in legal


def test_corteo_tris_shape_one_magistratura() -> None:
    s = make(t=T14, m=M14)
    assert rules(s.check(0, tris("SMA-MAG", "SFR-2", "SMI-3"))) == ["ergio.corteo.tris.shape"]


def test_card_in_hand_is_required() -> None:
    s = make(t=T14, m=M14)
    assert rules(s.check(0, tris("SMA-MAG", "SMA-CAP", "SMA-CSC"))) == ["ergio.card.in_hand"]


def test_corteo_fourth_later_turn_and_max_four() -> None:
    s = make(t=T14, m=M14)
    s.apply(0, tris("SMA-MAG", "SMA-CAP", "SMA-7"))
    assert rules(s.check(0, Add(code("SMA-2")))) == ["ergio.corteo.fourth.later_turn"]
    s.apply(0, End())
    s.apply(1, tris("SAN-7", "SAN-6", "SAN-5"))
    s.apply(1, End())
    # seat 0 draws SMA-CSC and SMA-3 (the deck's next cards)
    assert code("SMA-CSC") in s.hands[0]
    s.apply(0, Add(code("SMA-2")))
    assert len(s.field[0][0]) == 4
    assert rules(s.check(0, Add(code("SMA-3")))) == ["ergio.corteo.fourth.max_four"]
    # a second tris of the same magistratura is never laid
    assert rules(s.check(0, tris("SMA-CSC", "SMA-3", "SMA-4"))) != []


def test_corteo_fourth_not_four_combattenti() -> None:
    t = ["SMA-7", "SMA-6", "SMA-5", *T14[3:13], "SMA-4"]
    s = make(t=t, m=M14)
    s.apply(0, tris("SMA-7", "SMA-6", "SMA-5"))
    s.apply(0, End())
    s.apply(1, tris("SAN-7", "SAN-6", "SAN-5"))
    s.apply(1, End())
    assert rules(s.check(0, Add(code("SMA-4")))) == ["ergio.corteo.fourth.not_four_combattenti"]
    assert Add(code("SMA-MAG")) in s.legal_actions(0)


def test_corteo_tris_one_per_magistratura() -> None:
    t = ["SMA-7", "SMA-6", "SMA-5", *T14[3:13], "SMA-4"]
    s = make(t=t, m=M14)
    s.apply(0, tris("SMA-7", "SMA-6", "SMA-5"))
    s.hands[0] += [code("SMA-MAG"), code("SMA-CAP")]
    found = rules(s.check(0, tris("SMA-MAG", "SMA-CAP", "SMA-4")))
    assert found == ["ergio.corteo.tris.one_per_magistratura"]
    assert s.mandatory(0) == []


def test_corteo_add_shown_only() -> None:
    s = make(t=T14, m=M14)
    s.apply(0, tris("SMA-MAG", "SMA-CAP", "SMA-7"))
    assert rules(s.check(0, Add(code("SFR-2")))) == ["ergio.corteo.add.shown_only"]


def test_corteo_hand_limit_and_arno_only_excess() -> None:
    s = make(t=T14, m=M14)
    s.apply(0, tris("SMA-MAG", "SMA-CAP", "SMA-7"))
    assert len(s.hands[0]) == 11
    assert rules(s.check(0, Arno(code("SFR-2")))) == ["ergio.corteo.arno.only_excess"]
    s2 = make(t=T14, m=M14)
    s2.hands[0] += [code("CAL-MAG"), code("SAT-MAG")]
    s2.apply(0, tris("SMA-MAG", "SMA-CAP", "SMA-7"))
    assert len(s2.hands[0]) == 13
    assert rules(s2.check(0, End())) == ["ergio.corteo.hand_limit"]
    s2.apply(0, Arno(code("SFR-2")))
    assert s2.check(0, End()) == []


def test_corteo_hand_limit_ragazzi_has_none() -> None:
    s = make("ragazzi", t=T14, m=M14)
    s.hands[0] += [code("CAL-MAG"), code("SAT-MAG")]
    s.apply(0, tris("SMA-MAG", "SMA-CAP", "SMA-7"))
    assert s.check(0, End()) == []


def test_field_no_replace_in_the_base_game() -> None:
    s = make(t=T14, m=M14)
    s.apply(0, tris("SMA-MAG", "SMA-CAP", "SMA-7"))
    assert rules(s.check(0, Swap(code("SMA-7"), code("SMA-2")))) == ["ergio.field.no_replace"]


def test_corteo_complete_ends_the_phase_at_the_end_of_the_turn() -> None:
    s = make(t=T14, m=M14)
    for mag in C.side_mags(0):
        s.field[0][mag] = [C.card_of(mag, 0), C.card_of(mag, 1), C.card_of(mag, 8)]
        s.shown[0].add(mag)
    for unit in C.GROUP_UNITS:
        s.field[0][unit] = [C.group_card(0, unit - C.UNIT_CEL)] * 3
        s.shown[0].add(unit)
    s.hands[0] = [c for c in s.hands[0] if C.UNIT_OF[c] not in s.shown[0]]
    s.apply(0, End())
    assert s.phase == Phase.BATTLE
    assert s.corteo_winner == 0 and s.corteo_end == "complete"
    assert s.to_act() == 0


def test_corteo_dry_closes_when_both_decks_are_empty() -> None:
    s = make(t=T14, m=M14)
    s.apply(0, tris("SMA-MAG", "SMA-CAP", "SMA-7"))
    s.decks = [[], []]
    s.apply(0, End())
    assert s.phase == Phase.CORTEO
    s.apply(1, tris("SAN-7", "SAN-6", "SAN-5"))
    s.apply(1, End())
    assert s.phase == Phase.BATTLE
    assert s.corteo_end == "dry"


def test_validate_reports_a_tris_not_laid_with_its_rule_id() -> None:
    s = make(t=T14, m=M14)
    s.apply_unchecked(0, Arno(code("SFR-2")))
    s.apply_unchecked(0, Arno(code("SMI-3")))
    s.apply_unchecked(0, End())
    verdict = GAME.validate(s.to_record())
    assert [(v.rule, v.step) for v in verdict.violations] == [
        ("ergio.corteo.tris.must_lay", 0),
        ("ergio.corteo.tris.must_lay", 1),
        ("ergio.corteo.tris.must_lay", 2),
    ]
    assert not verdict.complete


def test_validate_reports_a_fifth_card_and_a_replaced_card() -> None:
    s = make(t=T14, m=M14)
    s.apply_unchecked(0, tris("SMA-MAG", "SMA-CAP", "SMA-7"))
    s.apply_unchecked(0, Add(code("SMA-2")))  # same turn: too early
    s.apply_unchecked(0, Arno(code("SFR-2")))  # not over the limit
    s.apply_unchecked(0, End())
    s.apply_unchecked(1, tris("SAN-7", "SAN-6", "SAN-5"))
    s.apply_unchecked(1, End())
    s.apply_unchecked(0, Add(code("SMA-3")))  # a fifth card
    s.apply_unchecked(0, Swap(code("SMA-7"), code("SMA-CSC")))  # replacing a laid card
    record = s.to_record()
    verdict = GAME.validate(record)
    assert [(v.rule, v.step) for v in verdict.violations] == [
        ("ergio.corteo.fourth.later_turn", 1),
        ("ergio.corteo.arno.only_excess", 2),
        ("ergio.corteo.fourth.max_four", 6),
        ("ergio.field.no_replace", 7),
    ]
