"""Advanced game (specials, Celatini, Guardie) and the four- and six-player game, by rule id."""

from __future__ import annotations

from games.ergio import Arno, Celatino, Draw, End, Lay, Pass, Ready, Reinforce, Send, Special, Swap
from games.ergio import cards as C
from games.ergio.state import ErGioState, Phase
from tests.games.ergio.helpers import code, make, rules

SMA, SFR, SAN = 0, 1, 6


def codes(*names: str) -> list[int]:
    return [code(n) for n in names]


def lay(*names: str) -> Lay:
    return Lay(tuple(sorted(codes(*names))))


def adv(hand: list[str], opp_hand: list[str] | None = None, name: str = "advanced") -> ErGioState:
    s = make(name)
    s.hands[0] = codes(*hand)
    if opp_hand is not None:
        s.hands[1] = codes(*opp_hand)
    s._cache = None
    return s


def guard(s: ErGioState, side: int, unit: int) -> None:
    s.field[side][unit] = [C.group_card(side, unit - C.UNIT_CEL)] * 3
    s.shown[side].add(unit)


def test_adv_celatino_single_never_a_tris() -> None:
    s = adv(["T-CEL", "T-CEL", "T-CEL", "SFR-2"])
    assert s.mandatory(0) == []
    assert rules(s.check(0, lay("T-CEL", "T-CEL", "T-CEL"))) == ["ergio.adv.celatino.single"]
    base = make("base")
    base.hands[0] = codes("T-CEL", "T-CEL", "T-CEL", "SFR-2")
    assert base.mandatory(0) == [C.UNIT_CEL]


def test_adv_special_only_advanced() -> None:
    s = make("base")
    s.hands[0] = codes("T-CEL", "SFR-2")
    s._cache = None
    assert rules(s.check(0, Celatino("deck"))) == ["ergio.adv.special.only_advanced"]


def test_adv_celatino_target_deck_field_and_hand() -> None:
    s = adv(["T-CEL", "T-CEL", "T-CEL", "SFR-2"], ["SAN-7", "SAN-6"])
    s.field[1][SAN] = codes("SAN-MAG", "SAN-CAP", "SAN-5")
    s.shown[1].add(SAN)
    top = s.decks[1][-1]
    s.apply(0, Celatino("deck"))
    assert s.arno[-1] == top
    s.apply(0, Celatino("field", code("SAN-CAP")))
    assert s.field[1][SAN] == codes("SAN-MAG", "SAN-5")
    s.apply(0, Celatino("hand", victim=1))
    assert len(s.hands[1]) == 1
    assert s.field[0][C.UNIT_CEL] == codes("T-CEL", "T-CEL", "T-CEL")
    # a thinned magistratura stays shown: it is rebuilt by adding, not by a new tris
    assert SAN in s.shown[1]


def test_adv_guard_hand_protects_the_hand() -> None:
    s = adv(["T-CEL", "SFR-2"], ["SAN-7"])
    guard(s, 1, C.UNIT_GCCC)
    assert Celatino("hand", victim=1) not in s.legal_actions(0)
    assert rules(s.check(0, Celatino("hand", victim=1))) == ["ergio.adv.guard.hand"]


def test_adv_guard_field_protects_the_field() -> None:
    s = adv(["T-CEL", "SFR-2"])
    guard(s, 1, C.UNIT_GCSC)
    target = Celatino("field", C.group_card(1, 2))
    assert target not in s.legal_actions(0)
    assert rules(s.check(0, target)) == ["ergio.adv.guard.field"]
    assert Celatino("deck") in s.legal_actions(0)  # the deck is always open


def test_adv_special_generale_gives_another_turn() -> None:
    s = adv(["T-GEN", "SFR-2"])
    s.apply(0, Special(code("T-GEN")))
    s.apply(0, End())
    assert s.to_act() == 0
    assert len(s.hands[0]) == 3  # drew two again
    assert not s.extra_turn


def test_adv_special_maestro_raises_the_hand_limit() -> None:
    hand = "T-MDC SFR-2 SFR-3 SMI-3 SMI-4 MAT-4 MAT-5 CAL-5 CAL-6 SAT-6 SAT-7 SMA-2 SMA-3 T-GCCC"
    s = adv(hand.split())
    assert s.limit(0) == 12
    s.apply(0, Special(code("T-MDC")))
    assert s.limit(0) == 13 and len(s.hands[0]) == 13
    assert s.check(0, End()) == []


def test_adv_special_trombettiere_takes_a_card_from_the_deck() -> None:
    s = adv(["T-TRO", "SFR-2"])
    wanted = s.decks[0][0]  # the bottom card
    n = len(s.decks[0])
    s.apply(0, Special(code("T-TRO"), wanted))
    assert wanted in s.hands[0] and len(s.decks[0]) == n - 1


def test_adv_special_tamburino_takes_back_from_the_arno() -> None:
    s = adv(["T-TAM", "SFR-2"])
    s.arno = codes("SMA-7", "SAN-7")
    assert Special(code("T-TAM"), code("SAN-7")) not in s.legal_actions(0)
    s.apply(0, Special(code("T-TAM"), code("SMA-7")))
    assert code("SMA-7") in s.hands[0] and s.arno == codes("SAN-7")


def test_adv_special_luogotenente_takes_back_a_shown_card() -> None:
    s = adv(["T-LUO", "SFR-2"])
    s.field[0][SMA] = codes("SMA-MAG", "SMA-CAP", "SMA-7")
    s.shown[0].add(SMA)
    s.apply(0, Special(code("T-LUO"), code("SMA-CAP")))
    assert code("SMA-CAP") in s.hands[0]
    assert s.specials[0] == codes("T-LUO")


def test_adv_special_generale_and_maestro_take_no_target() -> None:
    # played alone for their effect, they name no card: one that does breaks their rule
    s = adv(["T-GEN", "T-MDC", "SFR-2"])
    gen = s.check(0, Special(code("T-GEN"), code("SFR-2")))
    mdc = s.check(0, Special(code("T-MDC"), code("SFR-2")))
    assert [(v.rule, v.seat) for v in gen] == [("ergio.adv.special.generale", 0)]
    assert [(v.rule, v.seat) for v in mdc] == [("ergio.adv.special.maestro", 0)]


def test_adv_special_trombettiere_takes_only_from_ones_own_deck() -> None:
    s = adv(["T-TRO", "SFR-2"])
    theirs = s.decks[1][0]
    assert theirs not in s.decks[0]
    found = s.check(0, Special(code("T-TRO"), theirs))
    assert [(v.rule, v.seat) for v in found] == [("ergio.adv.special.trombettiere", 0)]


def test_adv_special_tamburino_takes_back_only_ones_own_side() -> None:
    s = adv(["T-TAM", "SFR-2"])
    s.arno = codes("SMA-7", "SAN-7")
    found = s.check(0, Special(code("T-TAM"), code("SAN-7")))
    assert [(v.rule, v.seat) for v in found] == [("ergio.adv.special.tamburino", 0)]


def test_adv_special_luogotenente_takes_back_only_a_shown_card() -> None:
    s = adv(["T-LUO", "SFR-2"])
    s.field[0][SMA] = codes("SMA-MAG", "SMA-CAP", "SMA-7")
    s.shown[0].add(SMA)
    found = s.check(0, Special(code("T-LUO"), code("SMA-2")))
    assert [(v.rule, v.seat) for v in found] == [("ergio.adv.special.luogotenente", 0)]


def test_adv_patch_kind() -> None:
    s = adv(["SMA-7", "T-TRO", "T-TAM", "T-GEN", "T-MDC", "T-GCCC"])
    legal = s.legal_actions(0)
    assert lay("SMA-7", "T-TRO", "T-TAM") in legal
    assert lay("T-GCCC", "T-GEN", "T-MDC") in legal
    assert rules(s.check(0, lay("SMA-7", "T-TRO", "T-GEN"))) == ["ergio.adv.patch.kind"]
    assert rules(s.check(0, lay("T-TRO", "T-TAM", "T-GEN"))) == ["ergio.adv.patch.kind"]
    assert rules(s.check(0, lay("SMA-7", "T-GCCC", "T-TRO"))) == ["ergio.corteo.tris.shape"]


def test_adv_swap_returns_the_special_to_the_hand() -> None:
    s = adv(["SMA-7", "T-TRO", "T-TAM", "SMA-CAP", "SFR-2"])
    s.apply(0, lay("SMA-7", "T-TRO", "T-TAM"))
    s.apply(0, Swap(code("T-TRO"), code("SMA-CAP")))
    assert sorted(s.field[0][SMA]) == sorted(codes("SMA-7", "SMA-CAP", "T-TAM"))
    assert code("T-TRO") in s.hands[0]
    assert rules(s.check(0, Swap(code("T-TAM"), code("SFR-2")))) == ["ergio.adv.swap"]
    assert rules(s.check(0, Swap(code("SMA-7"), code("SFR-2")))) == ["ergio.field.no_replace"]


def test_adv_generale_and_maestro_completing_the_guardie_are_not_swapped_back() -> None:
    s = adv(["T-GCCC", "T-GEN", "T-MDC", "T-GCCC"])
    s.apply(0, lay("T-GCCC", "T-GEN", "T-MDC"))
    for patch in ("T-GEN", "T-MDC"):
        swap = Swap(code(patch), code("T-GCCC"))
        assert rules(s.check(0, swap)) == ["ergio.adv.swap"]
        assert swap not in s.legal_actions(0)


def test_multi_turn_order_alternates_sides_and_rotates_partners() -> None:
    s = make("4p")
    order = []
    for _ in range(5):
        seat = s.to_act()
        assert seat is not None
        order.append(seat)
        while s.mandatory(seat):
            s.apply(seat, s.legal_actions(seat)[0])
        while s.over_limit(seat):
            s.apply(seat, next(a for a in s.legal_actions(seat) if isinstance(a, Arno)))
        s.apply(seat, End())
        assert len(s.hands[seat]) <= 9
    assert order == [0, 1, 2, 3, 0]


def test_multi_one_tris_per_side() -> None:
    s = make("4p")
    s.hands[0] = codes("SMA-MAG", "SMA-CAP", "SMA-7", "SFR-2")
    s.field[0][SMA] = codes("SMA-CSC", "SMA-6", "SMA-5")  # laid by the partner
    s.shown[0].add(SMA)
    s._cache = None
    assert s.mandatory(0) == []
    assert rules(s.check(0, lay("SMA-MAG", "SMA-CAP", "SMA-7"))) == [
        "ergio.multi.one_tris_per_side"
    ]


def test_multi_pile_max_two_a_turn() -> None:
    s = make("4p")
    s.hands[0] = codes("SFR-2", "SMI-3", "MAT-4")
    s._cache = None
    s.apply(0, Pass(code("SFR-2")))
    s.apply(0, Pass(code("SMI-3")))
    assert rules(s.check(0, Pass(code("MAT-4")))) == ["ergio.multi.pile.max_two"]


def test_multi_draw_source_and_pile_draw_top() -> None:
    s = make("4p")
    s.hands[0] = codes("SFR-2", "SMI-3")
    s._cache = None
    s.apply(0, Pass(code("SFR-2")))
    s.apply(0, End())
    # Mezzogiorno's seat 1 cannot draw Tramontana's card: its draws come from the deck
    assert s.to_act() == 1 and s.draws_left == 0
    s.hands[1] = codes("SAN-2")
    s._cache = None
    s.apply(1, Pass(code("SAN-2")))  # now a Mezzogiorno card covers the Tramontana one
    s.apply(1, End())
    assert s.to_act() == 2
    assert s.pile_reach(0) == -1 and s.draws_left == 0  # blocked: the top is the opponent's
    s.hands[2] = codes("SMI-4")
    s._cache = None
    s.apply(2, End())
    # Mezzogiorno's seat 3 finds its side's card on top: it chooses where to draw
    assert s.to_act() == 3 and s.draws_left == 2
    s.apply(3, Draw("deck"))
    s.apply(3, Draw("deck"))
    s.hands[3] = codes("LEO-2")
    s._cache = None
    s.apply(3, End())
    # with both Guardie shown, seat 0 reaches its side's card under the opponent's
    guard(s, 0, C.UNIT_GCCC)
    guard(s, 0, C.UNIT_GCSC)
    assert s.pile_reach(0) == 0


def test_multi_draw_choice_from_the_pile() -> None:
    s = make("4p")
    s.hands[0] = codes("SFR-2", "SMI-3")
    s._cache = None
    s.apply(0, Pass(code("SMI-3")))
    s.apply(0, End())
    s.hands[1] = []
    s._cache = None
    s.apply(1, End())
    assert s.to_act() == 2 and s.draws_left == 2
    assert s.legal_actions(2) == [Draw("deck"), Draw("pile")]
    assert rules(s.check(2, End())) == ["ergio.multi.draw.source"]
    s.apply(2, Draw("pile"))
    assert code("SMI-3") in s.hands[2]
    assert s.draws_left == 0  # the second card came from the deck by itself


def test_multi_pile_celatino_reaches_below_the_top() -> None:
    s = make("4p")
    s.pile = codes("SAN-7", "SFR-2")
    s.hands[0] = codes("T-CEL", "SMI-3")
    s._cache = None
    # SAN-7 lies under SFR-2: the second place from the top.
    assert Celatino("pile", at=1) in s.legal_actions(0)
    s.apply(0, Celatino("pile", at=1))
    assert s.pile == codes("SFR-2") and s.arno[-1] == code("SAN-7")


def test_a_pile_celatino_aims_at_a_face_down_place_and_names_no_card() -> None:
    # The common pile's cards lie face down: the choices offered name places, never cards,
    # so a seat's buttons cannot tell which opposing cards were passed.
    s = make("4p")
    s.pile = codes("SAN-7", "T-GCSC", "SFR-2", "M-CEL")  # Mezzogiorno's: SAN-7 and M-CEL
    s.hands[0] = codes("T-CEL", "SMI-3")
    s._cache = None
    piles = [a for a in s.legal_actions(0) if isinstance(a, Celatino) and a.target == "pile"]
    assert piles == [Celatino("pile", at=0), Celatino("pile", at=3)]
    assert all(a.card == -1 for a in piles)
    assert rules(s.check(0, Celatino("pile", at=1))) == ["ergio.multi.pile.celatino"]


def test_a_pile_celatino_that_names_a_card_is_refused() -> None:
    # Naming a face-down card would let a seat probe the pile: accepted or refused, it
    # would learn whether the card lies there.
    s = make("4p")
    s.pile = codes("SAN-7", "SFR-2")
    s.hands[0] = codes("T-CEL", "SMI-3")
    s._cache = None
    assert rules(s.check(0, Celatino("pile", code("SAN-7")))) == ["ergio.multi.pile.celatino"]


def test_multi_battle_common_hand_and_specials_zero() -> None:
    s = make("4p")
    s.field[0][SMA] = codes("SMA-MAG", "SMA-6", "SMA-5")
    s.shown[0].add(SMA)
    s.hands[0] = codes("SFR-2")
    s.hands[2] = codes("SAT-7", "T-CEL")
    s._close_corteo(0, "complete")
    assert s.phase == Phase.BATTLE and s.to_act() == 0
    s.apply(0, Send(SMA))
    assert Reinforce(code("SAT-7"), "magistrato") in s.legal_actions(0)
    s.apply(0, Reinforce(code("SAT-7"), "magistrato"))
    s.apply(0, Reinforce(code("T-CEL"), "magistrato"))
    assert s.hands[2] == []
    s.apply(0, Ready())
    s.field[1][SAN] = codes("SAN-7", "SAN-6", "SAN-2")
    s.apply(1, Send(SAN))
    s.apply(1, Ready())
    # the Celatino counts zero and removes nothing with four players
    assert s.facts[0].sides[0].force == 18
    assert s.facts[0].sides[1].force == 15
    # one card per player after the scontro
    assert [len(h) for h in s.hands][2] == 1
