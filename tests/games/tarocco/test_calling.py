"""Which King (or Queen) the venti player must call (tarocco.call.*, V4..V7)."""

from __future__ import annotations

from games.tarocco import GAME, Call, Phase
from games.tarocco import cards as C
from games.tarocco.calling import call_fault, required_calls

from .helpers import cards, rule_ids, state

DUMMETT = {"void_counts_as_shortest": False, "oro_breaks_ties": True, "skip_bare_king": True}
DOSSENA = {"void_counts_as_shortest": True, "oro_breaks_ties": False, "skip_bare_king": False}


def calls(hand: str, **opts: bool) -> list[str]:
    return C.codes(required_calls(cards(hand), [], **{**DUMMETT, **opts}))


def fault(hand: str, called: str, **opts: bool) -> str | None:
    found = call_fault(cards(hand), [], C.BY_CODE[called], **{**DUMMETT, **opts})
    return None if found is None else found[0]


def test_call_fourth_king_with_three_kings() -> None:
    hand = "SK S5 BK B5 B6 CK T1 T2 T3"
    assert calls(hand) == ["OK"]
    assert fault(hand, "OK") is None


def test_call_fourth_king_even_if_its_suit_is_void_in_both_books() -> None:
    hand = "SK S5 BK B5 B6 CK T1 T2 T3"
    assert calls(hand, **DOSSENA) == ["OK"]


def test_call_shortest_suit_with_one_or_two_kings() -> None:
    hand = "SK S5 S6 B5 B6 B7 C5 O5 O6 T1 T2"
    assert calls(hand) == ["CK"]
    assert fault(hand, "BK") == "tarocco.call.shortest_suit"


def test_call_shortest_suit_v4_dummett_skips_a_void_suit() -> None:
    hand = "SK S5 C5 C6 O5 O6 O7 T1 T2"
    assert calls(hand) == ["CK"]
    assert fault(hand, "BK") == "tarocco.call.shortest_suit"


def test_call_shortest_suit_v4_dossena_a_void_suit_is_the_shortest() -> None:
    hand = "SK S5 C5 C6 O5 O6 O7 T1 T2"
    assert calls(hand, void_counts_as_shortest=True) == ["BK"]


def test_call_highest_figure_breaks_a_tie_in_length() -> None:
    hand = "BQ B5 CC C6 O5 O6 O7 S5 S6 S7"
    assert calls(hand) == ["BK"]
    assert fault(hand, "CK") == "tarocco.call.highest_figure"


def test_call_oro_v5_dummett_coins_win_a_full_tie() -> None:
    hand = "B5 B6 O5 O6 S5 S6 S7 C5 C6 C7"
    assert calls(hand) == ["OK"]
    assert fault(hand, "BK") == "tarocco.call.oro"


def test_call_oro_v5_dossena_a_full_tie_is_a_free_choice() -> None:
    hand = "B5 B6 O5 O6 S5 S6 S7 C5 C6 C7"
    assert calls(hand, oro_breaks_ties=False) == ["BK", "OK"]
    assert fault(hand, "BK", oro_breaks_ties=False) is None


def test_call_rank_a_queen_only_when_holding_all_four_kings() -> None:
    four = "SK S5 S6 BK B5 CK C5 C6 C7 OK O5 O6"
    assert calls(four) == ["BQ"]
    assert fault("SK S5 B5 CK C5 O5 O6", "BQ") == "tarocco.call.rank"


def test_call_queen_bare_king_v6_dummett_skips_a_lone_king() -> None:
    hand = "SK BK B5 CK C5 C6 OK O5 O6 O7"
    assert calls(hand) == ["BQ"]
    assert fault(hand, "SQ") == "tarocco.call.queen_bare_king"


def test_call_queen_bare_king_v6_dossena_counts_the_lone_king_as_shortest() -> None:
    hand = "SK BK B5 CK C5 C6 OK O5 O6 O7"
    assert calls(hand, skip_bare_king=False) == ["SQ"]


def test_call_own_card_is_refused() -> None:
    assert fault("SK S5 B5 C5 O5", "SK") == "tarocco.call.own_card"


def test_call_own_card_includes_the_callers_own_discard() -> None:
    hand = cards("SK BK CK T1 T2")
    found = call_fault(hand, cards("OK"), C.BY_CODE["OK"], **DUMMETT)
    assert found is not None and found[0] == "tarocco.call.own_card"


# --- in a smazzata -----------------------------------------------------------------------

VENTI_HAND = "SK BK CK T20 T2 T3 T4 T5 T6 S5 S6 B5 B6 C5 C6"  # 25 in tens and fives
DEALER_HAND = "OK O5 O6 O7 O8 O9 O10 T7 T8 T9 T10 T11 T12 T13 T14"


def to_call(ruleset: str = "dummett-mcleod") -> list[dict[str, object]]:
    solo = [{"seat": s, "solo": False} for s in (0, 1, 2)]
    if ruleset != "dossena":
        solo.append({"seat": 3, "solo": False})
    return [
        {"seat": 0, "bid": "tengo"},
        *solo,
        {"seat": 3, "discard": ["OK", "O5", "O6"]},
        {"seat": 0, "venti": True},
        {"seat": 1, "quindici": False},
        {"seat": 2, "quindici": False},
        {"seat": 3, "quindici": False},
    ]


def test_call_in_discard_v7_the_dealer_becomes_the_open_partner() -> None:
    s = state({0: VENTI_HAND, 3: DEALER_HAND}, to_call())
    assert s.phase == Phase.CALL
    assert s.legal_actions(0) == [Call(C.BY_CODE["OK"])]
    s.apply(0, Call(C.BY_CODE["OK"]))
    assert s.partner == 3 and s.partner_open
    assert s.view(1)["partner"] == 3
    assert s.to_act() == 1  # the venti player's right leads


def test_call_in_discard_v7_switch_off_keeps_the_dealer_hidden() -> None:
    rs = {"name": "dummett-mcleod", "discard_call_declared": False}
    s = state({0: VENTI_HAND, 3: DEALER_HAND}, to_call(), ruleset=rs)
    s.apply(0, Call(C.BY_CODE["OK"]))
    assert s.partner == 3 and not s.partner_open
    assert s.view(1)["partner"] is None and s.view(3)["partner"] == 3


def test_call_wrong_king_is_named_in_the_verdict() -> None:
    s = state({0: VENTI_HAND, 3: DEALER_HAND}, to_call())
    found = s.check(0, Call(C.BY_CODE["SK"]))
    assert rule_ids(found) == ["tarocco.call.own_card"]
    assert rule_ids(s.check(0, Call(C.BY_CODE["SQ"]))) == ["tarocco.call.rank"]
    assert GAME.rules["tarocco.call.fourth_king"]


def test_call_highest_figure_compares_only_the_highest_court_card() -> None:
    # Bastoni and Coppe are equally short and each holds a Queen as its highest court card;
    # the Cavallo beside the Bastoni Queen is never compared, so the caller may choose.
    hand = "BQ BC B5 CQ C5 C6 O5 O6 O7 O8 S5 S6 S7 S8"
    assert calls(hand) == ["BK", "CK"]
    assert fault(hand, "CK") is None
    assert fault(hand, "BK") is None


def test_call_highest_figure_tie_goes_to_oro_when_oro_is_among_them() -> None:
    hand = "BQ BC B5 OQ O5 O6 C5 C6 C7 C8 S5 S6 S7 S8"
    assert calls(hand) == ["OK"]
    assert fault(hand, "BK") == "tarocco.call.oro"
