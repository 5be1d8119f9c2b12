"""How a challenge ends (conquest, middle, types) and how a match ends (four of six, 3-3 and
the final tie breaker), with the back-up box."""

from __future__ import annotations

from games.ponte import Deploy, Fight
from games.ponte.model import MAG_INDEX, side_mags
from games.ponte.state import PonteState

from .helpers import act, fill_sheets, fresh, move, on_bridge, rules_of

M = MAG_INDEX


def finish(s: PonteState, carrello: int) -> None:
    """End the challenge in progress with both out of power and the carrello at a place."""
    s.fpower = [0, 0]
    s.carrello = carrello
    act(s, Fight(None))
    act(s, Fight(None))


def deploy_any(s: PonteState) -> None:
    seat = s.to_act()
    assert seat is not None
    act(s, s.legal_actions(seat)[0])
    seat = s.to_act()
    assert seat is not None
    act(s, s.legal_actions(seat)[0])


def test_challenge_conquest_past_the_last_slot_wins() -> None:
    s = on_bridge(bridge_slots=3)
    move(s, "A20000", "P5000")  # 4 slots: past the 3rd
    assert s.results[0]["winner"] == "tramontana"
    assert s.results[0]["by"] == "conquest"
    assert s.phase == "deploy" and s.challenger == 0


def test_challenge_backup_unused_power_goes_to_the_box() -> None:
    s = on_bridge(bridge_slots=3)
    move(s, "A20000", "P5000")
    assert s.backup[M["calci"]] == 90000
    assert s.backup[M["delfini"]] == 105000
    assert s.ledger_ok()


def test_challenge_middle_both_out_the_side_past_the_middle_wins() -> None:
    s = on_bridge()
    finish(s, -1)
    assert s.results[0]["winner"] == "mezzogiorno"
    assert s.results[0]["by"] == "middle"
    assert s.challenger == 1


def test_challenge_types_carrello_in_the_middle_goes_to_types_alone() -> None:
    s = on_bridge()
    finish(s, 0)
    assert s.phase == "types"
    assert "ponte.challenge.types" in rules_of(s, Fight("A5000", 0))
    move(s, "A20000", "A5000")  # same type: values do not count, no decision
    assert s.phase == "types"
    assert "ponte.challenge.types" in [v.rule for v in s.check(0, Fight("A20000"))]
    move(s, "D5000", "A15000")  # Defense beats Attack
    assert s.results[0]["winner"] == "tramontana"
    assert s.results[0]["by"] == "types"


def test_match_four_all_six_challenges_are_fought_by_default() -> None:
    s = fresh("2p-base")
    fill_sheets(s)
    for _ in range(4):
        deploy_any(s)
        finish(s, 1)
    assert s.wins == [4, 0] and s.phase == "deploy"
    for _ in range(2):
        deploy_any(s)
        finish(s, -1)
    assert s.is_over()
    out = s.outcome()
    assert out.termination == "challenges" and out.winners == (0,) and out.scores == (4, 2)


def test_match_four_stop_at_four_option_ends_early() -> None:
    s = fresh("2p-base", stop_at_four=True)
    fill_sheets(s)
    for _ in range(4):
        deploy_any(s)
        finish(s, 1)
    assert s.is_over() and s.outcome().termination == "four_reached"


def _three_all(name: str) -> PonteState:
    s = fresh(name)
    fill_sheets(s)
    for k in range(6):
        deploy_any(s)
        if k == 5:
            s.backup[M["calci"]] = 15000
            s.backup[M["delfini"]] = 5000
        finish(s, 1 if k % 2 == 0 else -1)
    return s


def test_match_tiebreak_at_3_3_with_the_box_plus_40000() -> None:
    s = _three_all("2p-base")
    assert s.wins == [3, 3]
    assert s.in_tiebreak and s.phase == "deploy"
    assert s.reserve == [15000 + 40000, 5000 + 40000]
    # any magistratura may fight again, the last winner (Mezzogiorno) deploys first
    assert s.to_act() == 1
    act(s, Deploy(M["delfini"]))
    act(s, Deploy(M["calci"]))
    assert s.fpower == [55000, 45000]
    # every unused strategy card of the side is open
    assert {a.strategy for a in s.legal_actions(0)} == {None, 0, 1, 2, 3, 4, 5}


def test_match_tiebreak_ends_the_match_with_its_winner() -> None:
    s = _three_all("2p-base")
    deploy_any(s)
    finish(s, -2)
    assert s.is_over()
    out = s.outcome()
    assert out.termination == "tie_breaker"
    assert out.winners == (1,) and out.scores == (3, 4)
    assert out.detail["tie_breaker"]["winner"] == "mezzogiorno"


def test_match_tiebreak_player_with_most_victories_plays_it() -> None:
    s = _three_all("4p-base")
    assert s.tb_seats is not None
    for side, seats in ((0, (0, 1)), (1, (2, 3))):
        best = max(seats, key=lambda x: (s.seat_wins[x], s.seat_backup(x), x == seats[0]))
        assert s.tb_seats[side] == best
    deployer = s.to_act()
    assert deployer is not None and deployer in s.tb_seats
    ally = next(
        x for x in (0, 1, 2, 3) if x != deployer and s.layout.side_of_seat(x) == s.challenger
    )
    bad = next(m for m in side_mags(s.challenger) if s.owner(m) == ally)
    assert "ponte.match.tiebreak_player" in [v.rule for v in s.check(deployer, Deploy(bad))]


def test_match_tiebreak_player_ties_go_to_the_fuller_box_then_east() -> None:
    s = fresh("4p-base")
    fill_sheets(s)
    s.seat_wins = [2, 1, 1, 2]
    assert s.tiebreak_player(0) == 0 and s.tiebreak_player(1) == 3
    s.seat_wins = [1, 1, 1, 1]
    s.backup[M["satiri"]] = 5000  # West of Tramontana: seat 1
    assert s.tiebreak_player(0) == 1
    assert s.tiebreak_player(1) == 2  # all equal: the East player


def test_ledger_is_conserved_through_a_scripted_challenge() -> None:
    s = on_bridge(tramontana="santa_maria", mezzogiorno="sant_antonio", bridge_slots=40)
    for t, m, ts, ms in (("A15000", "D5000", 4, None), ("P10000", "P10000", None, 5)):
        move(s, t, m, ts, ms)
        assert s.ledger_ok()
    while s.phase == "fight":
        seat = s.to_act()
        assert seat is not None
        act(s, s.legal_actions(seat)[0])
        assert s.ledger_ok()
