"""The Bridge's Game's hints: positions set from the rule texts (Base's power sheets, the
circle of types), the move the hint suggests and its reason, naming the rule it rests on."""

from __future__ import annotations

from games.core.hints import hint, rule_of
from games.ponte import GAME, Deploy, Fight
from games.ponte.model import MAG_INDEX

from .helpers import act, fill_sheets, fresh, move, on_bridge


def test_the_challenger_leads_with_its_strongest_and_the_answer_matches_it() -> None:
    # Base's sheets: Calci 110,000, the strongest of Tramontana's; Delfini 110,000 the
    # strongest of Mezzogiorno's, the only one that reaches Calci.
    state = fresh("2p-base")
    fill_sheets(state)
    action, why = hint(GAME, state, 0, 3)
    assert action == Deploy(MAG_INDEX["calci"])
    assert why.en == "Challenging first, send your strongest magistratura: Calci, with 110,000 Kg."
    assert "Calci, con 110.000 Kg" in why.it
    assert rule_of(why) == "ponte.deploy.challenger"
    act(state, action)
    action, why = hint(GAME, state, 1, 3)
    assert action == Deploy(MAG_INDEX["delfini"])
    assert why.en == (
        "The challenger has 110,000 Kg: Delfini, with 110,000 Kg, is the weakest of yours that "
        "matches it."
    )
    assert rule_of(why) == "ponte.deploy.once"


def test_a_weaker_challenger_is_answered_by_the_weakest_magistratura_that_reaches_it() -> None:
    # Santa Maria (60,000) challenges: of Mezzogiorno's, San Martino and Sant'Antonio have
    # 60,000, the weakest that reach it; the 90,000 and 110,000 ones wait.
    state = fresh("2p-base")
    fill_sheets(state)
    act(state, Deploy(MAG_INDEX["santa_maria"]))
    action, why = hint(GAME, state, 1, 3)
    assert action in (Deploy(MAG_INDEX["san_martino"]), Deploy(MAG_INDEX["sant_antonio"]))
    assert "with 60,000 Kg, is the weakest of yours that matches it, and the stronger" in why.en
    assert "60.000 Kg" in why.it


def test_with_the_enemys_push_cards_spent_a_defence_is_the_card_to_play() -> None:
    # Both sides spent their four push cards on equal pushes: the carrello stays in the middle
    # (ponte.carrello.move). The enemy keeps 4 attacks (a defence beats them) and 4 defences
    # (the larger wins). The heuristic's worth, hand-worked: Defence 15,000 gains
    # (4*15,000 - 35,000 + 4*15,000 - 0) / 5,000 / 8 = 2.125, less 0.35*3 = 1.075, more than
    # Defence 10,000 (0.425) or any attack (Attack 20,000: -1.525).
    state = on_bridge()
    for card in ("P15000", "P10000", "P10000", "P5000"):
        move(state, card, card)
    assert state.carrello == 0
    action, why = hint(GAME, state, 0, 3)
    assert action == Fight("D15000")
    assert why.en.startswith(
        "Defence 15,000 Kg: of the 8 cards the enemy can still play, 4 are attack cards, which "
        "it beats, 4 defence cards, where the larger card wins, and 0 push cards, which beat it"
    )
    assert why.it.startswith("Difesa 15.000 Kg: delle 8 carte")
    assert rule_of(why) == "ponte.carrello.move"
