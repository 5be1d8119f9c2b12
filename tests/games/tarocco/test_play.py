"""Trick play: following, trumping, the Fool, the Miseria, the called suit, the signals."""

from __future__ import annotations

from games.tarocco import TaroccoState
from games.tarocco import cards as C
from games.tarocco.state import Play

from .helpers import at_play, cards, rule_ids


def p(code: str, signal: str | None = None) -> Play:
    return Play(C.BY_CODE[code], signal)


def legal(s: TaroccoState, seat: int) -> list[str]:
    return sorted({C.CODES[a.card] for a in s.legal_actions(seat)})


def test_play_follow_suit_when_able() -> None:
    s = at_play({1: "S6 T3 B5 SK"}, leader=0, trick="S5")
    assert legal(s, 1) == ["S6", "SK"]
    assert rule_ids(s.check(1, p("B5"))) == ["tarocco.play.follow_suit"]
    assert rule_ids(s.check(1, p("T3"))) == ["tarocco.play.follow_suit"]


def test_play_answer_trump_when_a_trump_is_led() -> None:
    s = at_play({1: "T3 S5 M"}, leader=0, trick="T5")
    assert legal(s, 1) == ["M", "T3"]
    assert rule_ids(s.check(1, p("S5"))) == ["tarocco.play.answer_trump"]


def test_play_trump_when_void_the_miseria_counts_as_a_trump() -> None:
    s = at_play({1: "M B5 C6"}, leader=0, trick="S5")
    assert legal(s, 1) == ["M"]
    assert rule_ids(s.check(1, p("B5"))) == ["tarocco.play.trump_when_void"]


def test_play_void_in_suit_and_trumps_may_discard_anything() -> None:
    s = at_play({1: "B5 C6"}, leader=0, trick="S5")
    assert legal(s, 1) == ["B5", "C6"]


def test_play_overtrump_is_no_duty_by_default() -> None:
    s = at_play({2: "T3 T12 B5"}, leader=0, trick="S5 T10")
    assert legal(s, 2) == ["T12", "T3"]


def test_play_overtrump_option_forces_the_higher_trump() -> None:
    s = at_play({2: "T3 T12 B5"}, leader=0, trick="S5 T10", ruleset="strict")
    assert legal(s, 2) == ["T12"]
    assert rule_ids(s.check(2, p("T3"))) == ["tarocco.play.overtrump"]
    s = at_play({2: "T3 T4 B5"}, leader=0, trick="S5 T10", ruleset="strict")
    assert legal(s, 2) == ["T3", "T4"]  # cannot beat: any trump


def test_play_fuggitivo_excuse_may_replace_the_card_due() -> None:
    s = at_play({1: "S6 F"}, leader=0, trick="S5")
    assert legal(s, 1) == ["F", "S6"]


def test_play_fuggitivo_lead_is_forbidden_by_default() -> None:
    s = at_play({0: "F S5"}, leader=0)
    assert legal(s, 0) == ["S5"]
    assert rule_ids(s.check(0, p("F"))) == ["tarocco.play.fuggitivo_lead"]
    alone = at_play({0: "F"}, leader=0)
    assert legal(alone, 0) == ["F"]


def test_play_fuggitivo_lead_option_lets_the_next_card_set_the_suit() -> None:
    s = at_play({0: "F S5"}, leader=0, ruleset="strict")
    assert legal(s, 0) == ["F", "S5"]
    s = at_play({1: "S6 B5", 2: "S7 B6"}, leader=0, trick="F", ruleset="strict")
    assert legal(s, 1) == ["B5", "S6"]
    s.apply(1, p("B5"))
    assert legal(s, 2) == ["B6"]


def test_play_trick_winner_is_the_highest_trump_else_the_highest_of_the_suit_led() -> None:
    s = at_play({})
    seq = list(enumerate(cards("S5 SK B9 S6")))
    assert s.trick_winner(seq) == 1
    assert s.trick_winner(list(enumerate(cards("S5 SK M S6")))) == 2
    assert s.trick_winner(list(enumerate(cards("F S5 B10 S6")))) == 3


def test_play_miseria_is_below_picciotti() -> None:
    s = at_play({})
    assert s.trick_winner(list(enumerate(cards("S5 M T1 S6")))) == 2


def last_trick(ruleset: str) -> TaroccoState:
    s = at_play({0: "SK", 1: "F", 2: "S5", 3: "S6"}, leader=0, ruleset=ruleset)
    s.tricks = [(0, [], 0)] * 14
    for seat, code in ((0, "SK"), (1, "F"), (2, "S5"), (3, "S6")):
        s.apply(seat, p(code))
    return s


def test_play_fuggitivo_last_trick_lost_goes_to_the_winner() -> None:
    s = last_trick("dummett-mcleod")
    assert C.FUGGITIVO in s.won[0] and not s.fool_owed


def test_play_fuggitivo_last_trick_kept_stays_with_its_owner() -> None:
    s = last_trick("strict")
    assert C.FUGGITIVO in s.won[1] and s.fool_owed == [(1, 0)]


def test_play_fuggitivo_last_trick_forbidden_must_go_on_the_fourteenth() -> None:
    rs = {"name": "dummett-mcleod", "fuggitivo_last_trick": "forbidden"}
    s = at_play({0: "S9 S8", 1: "F S5", 2: "S6 B6", 3: "S7 B7"}, leader=0, ruleset=rs)
    s.tricks = [(0, [], 0)] * 13
    s.apply(0, p("S9"))
    assert legal(s, 1) == ["F"]
    assert rule_ids(s.check(1, p("S5"))) == ["tarocco.play.fuggitivo_last_trick"]
    lead = at_play({1: "F S5"}, leader=1, ruleset=rs)
    lead.tricks = [(0, [], 0)] * 13
    assert legal(lead, 1) == ["F"]


def test_play_fuggitivo_excuse_owner_gives_a_worthless_card_to_the_winner() -> None:
    s = at_play({0: "SK S9", 1: "F B5", 2: "S5 B6", 3: "S6 B7"}, leader=0)
    for seat, code in ((0, "SK"), (1, "F"), (2, "S5"), (3, "S6")):
        s.apply(seat, p(code))
    assert C.FUGGITIVO in s.won[1] and s.fool_owed == [(1, 0)]
    s.won[1].append(C.BY_CODE["B5"])
    s.discard = []
    mine, theirs = s.piles()
    assert C.BY_CODE["B5"] in mine and C.FUGGITIVO in theirs


def test_play_called_suit_lead_v9_on_the_partners_first_lead() -> None:
    s = at_play({2: "OK O5 S5 T3"}, leader=2)
    s.soloist, s.venti, s.called, s.partner = None, 0, C.BY_CODE["OK"], 2
    assert legal(s, 2) == ["O5", "OK"]
    assert rule_ids(s.check(2, p("S5"))) == ["tarocco.play.called_suit_lead"]
    s.led_once[2] = True
    assert legal(s, 2) == ["O5", "OK", "S5", "T3"]


def test_play_called_suit_lead_v9_off_under_dossena() -> None:
    s = at_play({2: "OK O5 S5 T3"}, leader=2, ruleset="dossena")
    s.soloist, s.venti, s.called, s.partner = None, 0, C.BY_CODE["OK"], 2
    assert legal(s, 2) == ["O5", "OK", "S5", "T3"]


def test_signal_leading_only() -> None:
    s = at_play({1: "S6 T20"}, leader=0, trick="S5")
    assert rule_ids(s.check(1, p("S6", "giove"))) == ["tarocco.signal.leading_only"]


def test_signal_false_without_the_card() -> None:
    s = at_play({0: "S6 T19"}, leader=0)
    assert rule_ids(s.check(0, p("S6", "giove"))) == ["tarocco.signal.false"]
    assert s.check(0, p("S6", "palla")) == []
    assert s.check(0, p("S6", "knock")) == []


def test_signal_together_v10_dummett_allows_both_at_once() -> None:
    s = at_play({0: "S6 T19 T20"}, leader=0)
    assert s.check(0, p("S6", "both")) == []
    s.apply(0, p("S6", "both"))
    assert s.signals == [(1, 0, "both")]


def test_signal_together_v10_dossena_only_one_at_a_time() -> None:
    s = at_play({0: "S6 T19 T20"}, leader=0, ruleset="dossena")
    assert rule_ids(s.check(0, p("S6", "both"))) == ["tarocco.signal.together"]
    assert s.check(0, p("S6", "giove")) == []


def test_play_not_held() -> None:
    s = at_play({1: "S6"}, leader=0, trick="S5")
    assert rule_ids(s.check(1, p("S7"))) == ["tarocco.play.not_held"]


def test_turn_order_in_play() -> None:
    s = at_play({1: "S6", 2: "S7"}, leader=0, trick="S5")
    assert rule_ids(s.check(2, p("S7"))) == ["tarocco.turn.order"]
