"""The smazzata end to end: deal, solo, monte, venti / quindici, first lead, the count,
and whole records with one fault each, as a referee would meet them."""

from __future__ import annotations

from typing import Any

from games.tarocco import GAME, Declare, Discard, Phase, Quindici, TaroccoState, Venti
from games.tarocco import cards as C
from games.tarocco.state import Bid, Play

from .helpers import cards, play_out, record, rule_ids, state

TENGO = [{"seat": 0, "bid": "tengo"}]


def test_deal_order_two_rounds_of_five_from_the_dealers_right() -> None:
    s = GAME.new_game(GAME.ruleset(), 3)
    assert s.dealer == 3
    assert s.hands[0] == s.deck[0:5] + s.deck[20:25]
    assert s.hands[3] == s.deck[15:20] + s.deck[35:40]
    s.apply(0, Bid("tengo"))
    assert s.hands[0][10:] == s.deck[40:45] and s.monte == s.deck[60:63]


def test_deal_bottom_card_v1_is_seen_by_the_dealer_only() -> None:
    s = GAME.new_game(GAME.ruleset(), 3)
    assert s.view(3)["bottom_card"] == C.CODES[s.deck[62]]
    assert "bottom_card" not in s.view(0)
    dossena = GAME.new_game(GAME.ruleset("dossena"), 3)
    assert "bottom_card" not in dossena.view(3)


def test_solo_order_the_first_solo_takes_the_monte_and_shows_it() -> None:
    s = state({}, [*TENGO, {"seat": 0, "solo": False}, {"seat": 1, "solo": True}])
    assert s.soloist == 1 and s.phase == Phase.DISCARD and s.to_act() == 1
    assert len(s.hands[1]) == 18
    assert s.view(2)["monte"] == C.codes(s.monte)


def test_monte_show_v3_the_dealer_soloist_does_not_show_it() -> None:
    passes = [{"seat": x, "solo": False} for x in (0, 1, 2)]
    s = state({}, [*TENGO, *passes, {"seat": 3, "solo": True}])
    assert s.soloist == 3 and "monte" not in s.view(0)


def test_monte_show_v3_dossena_the_soloist_never_shows_it() -> None:
    s = state({}, [*TENGO, {"seat": 0, "solo": True}], ruleset="dossena")
    assert "monte" not in s.view(2)


def test_solo_dealer_v3_dossena_the_dealer_is_not_asked() -> None:
    passes = [{"seat": x, "solo": False} for x in (0, 1, 2)]
    s = state({}, [*TENGO, *passes], ruleset="dossena")
    assert s.phase == Phase.DISCARD and s.monte_taker == 3 and s.soloist is None
    assert "monte" not in s.view(0)
    rec = record({}, [*TENGO, *passes[:2], {"seat": 3, "solo": True}], ruleset="dossena")
    assert rule_ids(GAME.validate(rec))[0] == "tarocco.solo.dealer"


def test_monte_discard_is_three_cards_of_ones_own_hand() -> None:
    s = state({}, [*TENGO, {"seat": 0, "solo": True}])
    hand = s.hands[0]
    assert rule_ids(s.check(0, Discard(tuple(hand[:2])))) == ["tarocco.monte.discard"]
    other = s.hands[1][:3]
    assert rule_ids(s.check(0, Discard(tuple(other)))) == ["tarocco.monte.discard"]
    assert s.check(0, Discard(tuple(hand[:3]))) == []


def test_monte_discard_forbidden_option_kings() -> None:
    rs = {"name": "dummett-mcleod", "discard_forbidden": "kings"}
    s = state({0: "SK S5 S6 S7 S8 S9 S10 B5 B6 B7 B8 B9 B10 C5 C6"}, [*TENGO], ruleset=rs)
    s.apply(0, Declare(True))
    bad = Discard(tuple(cards("SK S5 S6")))
    assert rule_ids(s.check(0, bad)) == ["tarocco.monte.discard_forbidden"]
    assert all(C.BY_CODE["SK"] not in a.cards for a in s.legal_actions(0))


def test_play_first_lead_v8_the_soloists_right_leads() -> None:
    s = state({}, [*TENGO, {"seat": 0, "solo": False}, {"seat": 1, "solo": True}])
    s.apply(1, s.legal_actions(1)[0])
    assert s.phase == Phase.PLAY and s.to_act() == 2


def test_play_first_lead_v8_dossena_the_soloist_leads() -> None:
    words = [*TENGO, {"seat": 0, "solo": False}, {"seat": 1, "solo": True}]
    s = state({}, words, ruleset="dossena")
    s.apply(1, s.legal_actions(1)[0])
    assert s.to_act() == 1


def to_venti(hands: dict[int, str]) -> TaroccoState:
    passes = [{"seat": x, "solo": False} for x in (0, 1, 2, 3)]
    s = state(hands, [*TENGO, *passes])
    s.apply(3, Discard(tuple(sorted(s.hands[3])[:3])))
    return s


POOR = "S5 S6 S7 S8 S9 B5 B6 B7 B8 B9 C5 C6 C7 C8 C9"


def test_venti_false_with_fewer_than_20_in_tens_and_fives() -> None:
    s = to_venti({0: POOR})
    assert s.legal_actions(0) == [Venti(False)]
    assert rule_ids(s.check(0, Venti(True))) == ["tarocco.venti.false"]


def test_venti_all_zero_abandons_the_hand() -> None:
    s = to_venti({})
    for seat in (0, 1, 2, 3):
        s.apply_unchecked(seat, Venti(False))
    assert s.outcome().termination == "all_zero" and s.outcome().scores == (0, 0, 0, 0)


def test_quindici_false_without_exactly_15() -> None:
    s = to_venti({0: "T20 T1 T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 T14", 1: POOR})
    s.apply(0, Venti(True))
    assert s.to_act() == 1
    assert rule_ids(s.check(1, Quindici(True))) == ["tarocco.quindici.false"]


def test_quindici_partner_is_open_and_the_venti_players_right_leads() -> None:
    s = to_venti(
        {
            0: "T20 T1 T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 T14",
            2: "SK OK BK S5 S6 S7 S8 S9 B5 B6 B7 B8 B9 C5 C6",
        }
    )
    s.apply(0, Venti(True))
    s.apply(1, Quindici(False))
    assert Quindici(True) in s.legal_actions(2)
    s.apply(2, Quindici(True))
    assert s.partner == 2 and s.view(1)["partner"] == 2
    assert s.phase == Phase.PLAY and s.to_act() == 1


# --- full records: count, ownership of the monte, faults a referee meets ------------------


def full_game(seed: int, ruleset: str = "dummett-mcleod", cheat: Any = None) -> TaroccoState:
    s = GAME.new_game(GAME.ruleset(ruleset), seed)
    s.apply(s.to_act() or 0, Bid("tengo"))
    return play_out(s, seed, cheat)


def test_count_total_every_played_hand_counts_109_and_the_monte_is_the_takers() -> None:
    for seed in range(60):
        s = full_game(seed)
        out = s.outcome()
        if out.termination not in ("solo", "pairs"):
            continue
        assert sum(out.detail["card_points"]) == 109
        assert sum(out.scores) == 0
        a, _ = s.piles()
        taker_side = 0 if s.monte_taker in s.sides()[0] else 1
        # the Fool's exchange may hand on one worthless discarded card
        missing = set(s.discard) - set(s.piles()[taker_side])
        assert len(missing) <= len(s.fool_owed)
        assert len(a) + len(s.piles()[1]) == 63


def test_score_solo_and_pairs_from_a_record_match_the_summary() -> None:
    for seed in range(60):
        out = full_game(seed).outcome()
        report = GAME.score(out.detail["summary"])
        assert report.result is not None and tuple(report.result["scores"]) == out.scores


def revoke_cheat(s: TaroccoState, seat: int) -> Play | None:
    if s.phase != Phase.PLAY or not s.trick or getattr(s, "_cheated", False):
        return None
    legal = set(s.playable_cards(seat))
    bad = [c for c in s.hands[seat] if c not in legal]
    if not bad:
        return None
    s._cheated = True  # type: ignore[attr-defined]
    return Play(bad[0])


def test_validate_names_a_revoke_with_its_trick_and_seat() -> None:
    for seed in range(20):
        s = full_game(seed, cheat=revoke_cheat)
        if not getattr(s, "_cheated", False):
            continue
        verdict = GAME.validate(s.to_record())
        assert len(verdict.violations) == 1, verdict.to_json()
        v = verdict.violations[0]
        assert v.rule in {
            "tarocco.play.follow_suit",
            "tarocco.play.answer_trump",
            "tarocco.play.trump_when_void",
        }
        assert v.seat is not None and 1 <= v.where["trick"] <= 15
        assert verdict.complete
        return
    raise AssertionError("no seed gave a chance to revoke")


def test_validate_names_a_signal_when_not_leading() -> None:
    def cheat(s: TaroccoState, seat: int) -> Play | None:
        if s.phase == Phase.PLAY and s.trick and not s.signals:
            card = s.playable_cards(seat)[0]
            s.signals.append((0, seat, "x"))
            return Play(card, "giove")
        return None

    verdict = GAME.validate(full_game(3, cheat=cheat).to_record())
    assert rule_ids(verdict) == ["tarocco.signal.leading_only"]


def test_validate_names_a_false_quindici_and_a_wrong_king() -> None:
    seen: set[str] = set()
    for seed in range(200):

        def cheat(s: TaroccoState, seat: int) -> Any:
            if s.phase == Phase.QUINDICI and s.cursor == 0:
                return Quindici(True)
            return None

        s = GAME.new_game(GAME.ruleset(), seed)
        s.apply(s.to_act() or 0, Bid("tengo"))
        for _ in range(4):
            if s.phase == Phase.SOLO:
                s.apply(s.to_act() or 0, Declare(False))
        if s.phase != Phase.DISCARD:
            continue
        s.apply(s.dealer, s.legal_actions(s.dealer)[0])
        while s.phase == Phase.VENTI:
            seat = s.to_act() or 0
            s.apply(seat, Venti(s.can_say_venti(seat)))
        if s.phase != Phase.QUINDICI:
            continue
        first = s.to_act() or 0
        from games.tarocco.cards import honours

        if honours(s.hands[first]) == 15:
            continue
        play_out(s, seed, cheat)
        assert rule_ids(GAME.validate(s.to_record())) == ["tarocco.quindici.false"]
        seen.add("quindici")
        break
    assert seen == {"quindici"}


def test_validate_names_a_wrong_king_called() -> None:
    for seed in range(300):
        s = GAME.new_game(GAME.ruleset(), seed)
        s.apply(s.to_act() or 0, Bid("tengo"))
        while s.phase == Phase.SOLO:
            s.apply(s.to_act() or 0, Declare(False))
        s.apply(s.dealer, s.legal_actions(s.dealer)[0])
        while s.phase == Phase.VENTI:
            seat = s.to_act() or 0
            s.apply(seat, Venti(s.can_say_venti(seat)))
        while s.phase == Phase.QUINDICI:
            s.apply(s.to_act() or 0, Quindici(False))
        if s.phase != Phase.CALL:
            continue
        allowed = set(s.required_calls())
        caller = s.to_act() or 0
        wrong = next(k for k in C.KINGS + C.QUEENS if k not in allowed and k not in s.hands[caller])
        from games.tarocco import Call

        s.apply_unchecked(caller, Call(wrong))
        play_out(s, seed)
        ids = rule_ids(GAME.validate(s.to_record()))
        assert len(ids) == 1 and ids[0].startswith("tarocco.call."), ids
        return
    raise AssertionError("no seed reached a call")


def test_validate_names_a_wrong_score_written_down() -> None:
    rec = full_game(5).to_record()
    rec["claimed_scores"] = [1, 1, 1, -3]
    assert rule_ids(GAME.validate(rec)) == ["tarocco.record.claimed_score"]


def test_record_impossible_a_card_not_held_stops_the_replay() -> None:
    rec = full_game(6).to_record()
    plays = [i for i, a in enumerate(rec["actions"]) if "play" in a]
    i = plays[5]
    seat = rec["actions"][i]["seat"]
    other = GAME.start(rec)
    for raw in rec["actions"][:i]:
        other.apply_unchecked(*GAME.decode_step(raw, "x"))
    foreign = other.hands[(seat + 1) % 4][0]
    rec["actions"][i] = {"seat": seat, "play": C.CODES[foreign]}
    verdict = GAME.validate(rec)
    assert rule_ids(verdict) == ["tarocco.play.not_held", "tarocco.record.impossible"]
    assert not verdict.complete


def test_record_malformed_deck_is_refused() -> None:
    import pytest

    from games.core import RecordError

    rec = record({}, [])
    rec["deal"]["deck"][0] = rec["deal"]["deck"][1]
    with pytest.raises(RecordError, match=r"tarocco\.pack\.composition"):
        GAME.validate(rec)
    rec["deal"]["deck"][0] = "ZZ"
    with pytest.raises(RecordError, match="unknown card"):
        GAME.validate(rec)
