"""Er Giò's hints: positions set from the rule texts, the move the hint suggests and its
reason, naming the rule it rests on."""

from __future__ import annotations

from games.core.hints import hint, rule_of
from games.ergio import GAME, Arno, Lay, Reinforce, Send
from tests.games.ergio.helpers import M14, T14, code, make
from tests.games.ergio.test_battle_rules import SAN, SMA, at_battle
from tests.games.ergio.test_corteo_rules import tris


def test_the_strongest_tris_is_laid_first() -> None:
    # Four cards of Santa Maria in hand: a tris not yet shown must be laid before anything
    # else (ergio.corteo.tris.must_lay); Magistrato, Capitano and the 7 are the strongest three.
    state = make(t=T14, m=M14)
    action, why = hint(GAME, state, 0, 3)
    assert action == Lay(tuple(sorted(code(c) for c in ("SMA-MAG", "SMA-CAP", "SMA-7"))))
    assert why.en.startswith(
        "Lay the tris (Magistrato of Santa Maria, Capitano of Santa Maria, fighter 7 of "
        "Santa Maria): a tris"
    )
    assert why.en.endswith("of yours it is the strongest.")
    assert rule_of(why) == "ergio.corteo.tris.must_lay"


def test_over_the_hand_limit_the_card_least_needed_goes_to_the_arno() -> None:
    # 13 cards after the tris, the limit is 12 (ergio.corteo.hand_limit): Santa Maria is shown
    # now, and its 2 is the card least worth keeping.
    state = make(t=T14, m=M14)
    state.hands[0] += [code("CAL-MAG"), code("SAT-MAG")]
    state.apply(0, tris("SMA-MAG", "SMA-CAP", "SMA-7"))
    action, why = hint(GAME, state, 0, 3)
    assert action == Arno(code("SMA-2"))
    assert "throw fighter 2 of Santa Maria into the Arno" in why.en
    assert "getta in Arno combattente 2 di Santa Maria" in why.it
    assert rule_of(why) == "ergio.corteo.hand_limit"


def test_in_battle_the_challenger_sends_its_strongest_and_reinforces_where_it_counts() -> None:
    # Santa Maria shows Magistrato, Caposchiera and a 7: force 7, and its two figures take
    # reinforcements (about 4 more): 11. The San Francesco 7 counts under the Magistrato
    # (another magistratura of the side, ergio.battle.reinforce.magistrato): 7 of force.
    state = at_battle()
    action, why = hint(GAME, state, 0, 3)
    assert action == Send(SMA)
    assert "Santa Maria, with a shown force of about 11" in why.en
    assert rule_of(why) == "ergio.battle.challenger"
    state.apply(0, action)
    action, why = hint(GAME, state, 0, 3)
    assert action == Reinforce(code("SFR-7"), "magistrato")
    assert why.en.startswith("Fighter 7 of San Francesco under the Magistrato counts 7 of force")
    assert why.it.startswith("Combattente 7 di San Francesco sotto il Magistrato conta 7")
    assert rule_of(why) == "ergio.battle.reinforce.magistrato"


def test_the_responder_sends_the_weakest_magistratura_that_beats_the_challenger() -> None:
    # Sant'Antonio shows Capitano (5 more, ergio.battle.capitano), a 6 and a 5: 16 against
    # Santa Maria's 11 (ergio.battle.force).
    state = at_battle()
    state.apply(0, Send(SMA))
    state.apply(0, Reinforce(code("SFR-7"), "magistrato"))
    state.apply(0, Reinforce(code("SMA-6"), "caposchiera"))
    while state.to_act() == 0:
        state.apply(0, state.legal_actions(0)[-1])
    action, why = hint(GAME, state, 1, 3)
    assert action == Send(SAN)
    assert why.en == (
        "The challenger's Santa Maria is worth about 11: Sant'Antonio, about 16, is the weakest "
        "of yours that beats it."
    )
    assert rule_of(why) == "ergio.battle.force"
