"""Battaglia sul Ponte di Mezzo in play: sending, reinforcing, resolving, drawing, ending."""

from __future__ import annotations

from games.ergio import GAME, Add, Ready, Reinforce, Sabotage, Send
from games.ergio import cards as C
from games.ergio.bots import HeuristicBot
from games.ergio.state import ErGioState, Phase
from tests.games.ergio.helpers import M14, T14, code, make, rules

SMA, SFR, SAN, SMR = 0, 1, 6, 7


def at_battle(name: str = "base", **rs: object) -> ErGioState:
    s = make(name, t=T14, m=M14, **rs)
    s.field[0][SMA] = [code("SMA-MAG"), code("SMA-CSC"), code("SMA-7")]
    s.field[1][SAN] = [code("SAN-CAP"), code("SAN-6"), code("SAN-5")]
    for side, mag in ((0, SMA), (1, SAN)):
        s.shown[side].add(mag)
    s.hands[0] = [code(c) for c in ("SFR-7", "SAT-6", "SMA-6", "T-CEL", "SMA-2")]
    s.hands[1] = [code(c) for c in ("SMR-7", "SMR-6", "LEO-7", "SAN-7")]
    s._close_corteo(0, "complete")
    return s


def test_battle_challenger_is_the_corteo_winner() -> None:
    s = at_battle()
    assert s.phase == Phase.BATTLE
    assert s.to_act() == 0
    assert rules(s.check(1, Send(SAN))) == ["ergio.turn.order"]


def test_battle_own_magistratura() -> None:
    s = at_battle()
    assert rules(s.check(0, Send(SAN))) == ["ergio.battle.own_magistratura"]


def test_battle_no_laying() -> None:
    s = at_battle()
    assert rules(s.check(0, Add(code("SMA-6")))) == ["ergio.battle.no_laying"]


def test_battle_reinforce_slots_follow_the_laid_figures() -> None:
    s = at_battle()
    s.apply(0, Send(SMA))
    assert set(s.room(0)) == {"magistrato", "caposchiera"}
    s.apply(0, Reinforce(code("SFR-7"), "magistrato"))
    s.apply(0, Reinforce(code("SMA-2"), "magistrato"))  # a bluff: legal, counts zero
    assert rules(s.check(0, Reinforce(code("SAT-6"), "magistrato"))) == [
        "ergio.battle.reinforce.slots"
    ]
    s.apply(0, Reinforce(code("SMA-6"), "caposchiera"))
    assert rules(s.check(0, Reinforce(code("SAT-6"), "caposchiera"))) == [
        "ergio.battle.reinforce.slots"
    ]
    assert rules(s.check(0, Reinforce(code("SAT-6"), "spot"))) == ["ergio.battle.reinforce.slots"]
    s.apply(0, Ready())
    assert s.to_act() == 1
    # the responder has no Magistrato or Caposchiera: no face-down card at all
    s.apply(1, Send(SAN))
    assert s.room(1) == {}
    assert rules(s.check(1, Reinforce(code("SMR-7"), "magistrato"))) == [
        "ergio.battle.reinforce.slots"
    ]
    s.apply(1, Ready())
    # 7 + 7 (SFR-7 under the Magistrato) + 6 (SMA-6 under the Caposchiera) = 20 against 16
    assert s.facts[0].sides[0].force == 20
    assert s.facts[0].sides[1].force == 16
    assert s.points == [1, 0]


def test_battle_keep_winner_keeps_and_loser_goes_to_the_arno() -> None:
    s = at_battle()
    for a in (Send(SMA), Ready()):
        s.apply(0, a)
    for a in (Send(SAN), Ready()):
        s.apply(1, a)
    # 7 against 5 + 6 + 5 = 16: Mezzogiorno wins and keeps Sant'Antonio
    assert s.points == [0, 1]
    assert code("SAN-CAP") in s.kept[1]
    assert code("SMA-MAG") in s.arno
    assert SMA not in s.field[0]
    assert s.to_act() == 1  # the winner challenges next


def test_battle_draw_two_each_after_a_scontro() -> None:
    s = at_battle()
    sizes = [len(h) for h in s.hands]
    for a in (Send(SMA), Ready()):
        s.apply(0, a)
    for a in (Send(SAN), Ready()):
        s.apply(1, a)
    assert [len(h) for h in s.hands] == [n + 2 for n in sizes]


def test_battle_spot_max_two_for_a_magistratura_never_laid() -> None:
    s = at_battle()
    s.apply(0, Send(SFR))
    assert s.room(0) == {"spot": 2}
    s.apply(0, Reinforce(code("SFR-7"), "spot"))
    s.apply(0, Reinforce(code("SAT-6"), "spot"))
    assert rules(s.check(0, Reinforce(code("SMA-2"), "spot"))) == ["ergio.battle.spot.max_two"]


def test_battle_once_each() -> None:
    s = at_battle()
    for a in (Send(SMA), Ready()):
        s.apply(0, a)
    for a in (Send(SAN), Ready()):
        s.apply(1, a)
    s.apply(1, Send(SMR))
    s.apply(1, Ready())
    assert rules(s.check(0, Send(SMA))) == ["ergio.battle.once_each"]


def test_battle_six_scontri_end_the_game() -> None:
    s = at_battle()
    while not s.is_over():
        seat = s.to_act()
        assert seat is not None
        s.apply(seat, s.legal_actions(seat)[0])
    assert len(s.facts) == 6
    assert sum(s.points) == 6
    out = s.outcome()
    assert out.scores[0] + out.scores[1] == 6


def test_battle_all_six_false_stops_at_four() -> None:
    s = at_battle(all_six=False)
    while not s.is_over():
        seat = s.to_act()
        assert seat is not None
        s.apply(seat, s.legal_actions(seat)[-1] if s.sent[seat] == -1 else Ready())
    assert max(s.points) == 4 or len(s.facts) == 6


def test_adv_sabotage_discards_the_top_three() -> None:
    s = make("advanced", t=T14, m=M14)
    s.field[0][C.UNIT_CEL] = [code("T-CEL")] * 3
    s._close_corteo(0, "complete")
    assert s.phase == Phase.SABOTAGE
    assert rules(s.check(0, Send(SMA))) == ["ergio.adv.sabotage"]
    top = s.decks[1][-3:]
    s.apply(0, Sabotage(True))
    assert s.arno[-3:] == top[::-1]
    assert s.phase == Phase.BATTLE


def test_validate_reports_an_invalid_reinforcement() -> None:
    state = GAME.new_game(GAME.ruleset("base"), 4)
    bots = [HeuristicBot(1), HeuristicBot(2)]
    while not (state.phase == Phase.BATTLE and state.sent[state.sending] != -1):
        seat = state.to_act()
        assert seat is not None
        state.apply_unchecked(seat, bots[seat].choose(state, seat))
    side = state.sending
    record = state.to_record()
    card = sorted(state.pool(side))[0]
    under = next(u for u in ("caposchiera", "magistrato") if u not in state.room(side))
    steps = len(record["actions"])
    record["actions"].append({"seat": side, "reinforce": C.CODES[card], "under": under})
    verdict = GAME.validate(record)
    assert [(v.rule, v.step) for v in verdict.violations] == [
        ("ergio.battle.reinforce.slots", steps)
    ]
