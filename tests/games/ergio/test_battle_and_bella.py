"""Scontro force, tie-breaks and the Bella Nazionale: every path, by rule id."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.ergio import battle as B
from games.ergio import cards as C

SMA, SFR, SAN = 0, 1, 6


def card(code: str) -> int:
    return C.BY_CODE[code]


def cards(*codes: str) -> tuple[int, ...]:
    return tuple(card(c) for c in codes)


def force(sent: B.Sent, effects: bool = False) -> int:
    a = B.assess(sent, effects)
    return sum(a.fighters) + a.bonus


def test_battle_force_sums_the_laid_combattenti() -> None:
    assert force(B.Sent(SMA, cards("SMA-7", "SMA-6", "SMA-2"))) == 15


def test_battle_capitano_adds_five() -> None:
    assert force(B.Sent(SMA, cards("SMA-CAP", "SMA-6", "SMA-2"))) == 13


def test_battle_reinforce_magistrato_counts_two_combattenti_of_other_magistrature() -> None:
    sent = B.Sent(SMA, cards("SMA-MAG", "SMA-6", "SMA-2"), cards("SFR-7", "SAT-5"))
    assert force(sent) == 8 + 12


def test_battle_reinforce_magistrato_ignores_own_magistratura_as_bluff() -> None:
    sent = B.Sent(SMA, cards("SMA-MAG", "SMA-6", "SMA-2"), cards("SMA-7", "SFR-CAP"))
    assert force(sent) == 8


def test_battle_reinforce_caposchiera_counts_one_of_its_own() -> None:
    sent = B.Sent(SMA, cards("SMA-CSC", "SMA-6", "SMA-2"), (), cards("SMA-7"))
    assert force(sent) == 15
    other = B.Sent(SMA, cards("SMA-CSC", "SMA-6", "SMA-2"), (), cards("SFR-7"))
    assert force(other) == 8


def test_battle_reinforce_slots_need_the_figure() -> None:
    # no Magistrato laid: cards placed under it count nothing
    sent = B.Sent(SMA, cards("SMA-CAP", "SMA-6", "SMA-2"), cards("SFR-7"))
    assert force(sent) == 13


def test_battle_spot_counts_only_its_own_combattenti_up_to_two() -> None:
    assert force(B.Sent(SMA, (), (), (), cards("SMA-7", "SFR-6"))) == 7
    assert force(B.Sent(SMA, (), (), (), cards("SMA-7", "SMA-CAP"))) == 7


def test_battle_max_force_is_32() -> None:
    sent = B.Sent(SMA, cards("SMA-MAG", "SMA-CAP", "SMA-7", "SMA-6"), cards("SFR-7", "SAT-7"))
    assert force(sent) == B.MAX_FORCE


def test_battle_force_decides() -> None:
    assert B.decide([20, 19], [0, 7], 1, "magistrato_first") == (0, "force")


def test_battle_tie_figures_magistrato_first() -> None:
    # Tramontana has the Caposchiera, Mezzogiorno the Magistrato: the hierarchy favours M
    assert B.decide([15, 15], [4, 1], 0, "magistrato_first") == (1, "figures")


def test_battle_tie_figures_caposchiera_first() -> None:
    assert B.decide([15, 15], [4, 1], 1, "caposchiera_first") == (0, "figures")


def test_battle_tie_figures_caposchiera_first_then_capitano() -> None:
    # both have the Caposchiera: the Capitano decides
    assert B.decide([15, 15], [4 | 1, 4 | 2], 0, "caposchiera_first") == (1, "figures")


def test_battle_tie_figures_count_first() -> None:
    # Caposchiera + Capitano beat a lone Magistrato on number of figures
    assert B.decide([15, 15], [6, 1], 1, "count_first") == (0, "figures")
    # equal number: the hierarchy
    assert B.decide([15, 15], [2, 1], 0, "count_first") == (1, "figures")


def test_battle_tie_challenger_wins_when_figures_are_level() -> None:
    assert B.decide([15, 15], [3, 3], 1, "magistrato_first") == (1, "challenger")
    assert B.decide([15, 15], [0, 0], 0, "caposchiera_first") == (0, "challenger")


def test_bella_force() -> None:
    assert B.bella([40, 38], [0, 5], 1) == (0, "force")


def test_bella_figures() -> None:
    assert B.bella([40, 40], [2, 3], 0) == (1, "figures")


def test_bella_corteo() -> None:
    assert B.bella([40, 40], [3, 3], 1) == (1, "corteo")


def test_adv_battle_celatino_removes_the_weakest_opposing_combattente() -> None:
    t = B.Sent(SMA, cards("SMA-MAG", "SMA-6", "SMA-2"), cards("T-CEL"))
    m = B.Sent(SAN, cards("SAN-7", "SAN-3", "SAN-5"))
    r = B.clash((t, m), 0, effects=True, tie_order="magistrato_first")
    assert r.forces == (8, 12)
    assert r.removed == ((), (3,))


def test_adv_battle_guard_cancels_one_celatino() -> None:
    t = B.Sent(SMA, cards("SMA-MAG", "SMA-6", "SMA-2"), cards("T-CEL", "T-CEL"))
    m = B.Sent(SAN, cards("SAN-MAG", "SAN-3", "SAN-5"), cards("M-GCCC"))
    r = B.clash((t, m), 0, effects=True, tie_order="magistrato_first")
    assert r.removed[1] == (3,)
    assert r.forces[1] == 5


def test_adv_battle_celatino_has_no_effect_without_effects() -> None:
    t = B.Sent(SMA, cards("SMA-MAG", "SMA-6", "SMA-2"), cards("T-CEL"))
    m = B.Sent(SAN, cards("SAN-7", "SAN-3", "SAN-5"))
    r = B.clash((t, m), 0, effects=False, tie_order="magistrato_first")
    assert r.forces == (8, 15)


# --- the scontro without effects, summed directly (ErGioState._resolve's fast path) -----------

_SIDE_CARDS = st.integers(0, 61)  # a side's own card types (specials and groups as bluffs)


@st.composite
def _sent(draw: st.DrawFn, side: int) -> B.Sent:
    def some(most: int) -> tuple[int, ...]:
        picked = draw(st.lists(_SIDE_CARDS, max_size=most))
        return tuple(side * C.PER_SIDE + t for t in picked)

    mag = side * 6 + draw(st.integers(0, 5))
    own = [c for c in C.mag_cards(mag)]
    laid = tuple(sorted(draw(st.lists(st.sampled_from(own), max_size=4, unique=True))))
    return B.Sent(mag, laid, some(3), some(2), some(3))


@settings(max_examples=400, deadline=None)
@given(
    _sent(0),
    _sent(1),
    st.integers(0, 1),
    st.sampled_from(B.TIE_ORDERS),
)
def test_plain_clash_is_clash_without_effects(
    t: B.Sent, m: B.Sent, challenger: int, tie_order: str
) -> None:
    pt, pm = B.plain_force(t), B.plain_force(m)
    assert B.plain_clash(pt, pm, challenger, tie_order) == B.clash(
        (t, m), challenger, effects=False, tie_order=tie_order
    )
    assert (pt[2], pm[2]) == (C.force_of_laid(t.laid), C.force_of_laid(m.laid))
