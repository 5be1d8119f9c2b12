"""The single bargaining round: every example of the rules text (tarocco.bargain.*)."""

from __future__ import annotations

from games.tarocco import GAME, Bid, Phase

from .helpers import record, rule_ids, state


def bids(*words: tuple[int, str, int]) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for seat, word, n in words:
        item: dict[str, object] = {"seat": seat, "bid": word}
        if word == "offro":
            item["points"] = n
        if word == "piglio":
            item["of"] = n
        out.append(item)
    return out


def test_bargain_example_1_offro_vado_vado_tengo_goes_on_to_play() -> None:
    s = state({}, bids((0, "offro", 3), (1, "vado", 0), (2, "vado", 0), (3, "tengo", 0)))
    assert s.phase == Phase.SOLO
    assert all(len(h) == 15 for h in s.hands)


def test_bargain_example_2_all_vado_abandons_and_the_deal_passes() -> None:
    s = state({}, bids((0, "vado", 0), (1, "vado", 0), (2, "vado", 0), (3, "vado", 0)))
    out = s.outcome()
    assert out.termination == "abandoned" and out.scores == (0, 0, 0, 0)
    assert out.detail["next_dealer"] == 0


def test_bargain_abandon_v2_dossena_keeps_the_same_dealer() -> None:
    words = bids((0, "vado", 0), (1, "vado", 0), (2, "vado", 0), (3, "vado", 0))
    s = state({}, words, ruleset="dossena")
    assert s.outcome().detail["next_dealer"] == 3


def test_bargain_example_2_offers_nobody_took_abandon() -> None:
    s = state({}, bids((0, "offro", 4), (1, "vado", 0), (2, "offro", 2), (3, "vado", 0)))
    assert s.outcome().termination == "abandoned"
    assert s.outcome().scores == (0, 0, 0, 0)


def test_bargain_three_offers_then_vado_abandon_with_no_points_paid() -> None:
    # Played at a digital table: "offro 9, offro 6, offro 6, vado". Nobody said tengo and
    # no offer was taken, so the rules' example 2 applies: thrown in, nobody pays.
    words = bids((2, "offro", 9), (3, "offro", 6), (0, "offro", 6), (1, "vado", 0))
    s = state({}, words)
    out = s.outcome()
    assert out.termination == "abandoned" and out.scores == (0, 0, 0, 0)
    assert out.detail["summary"] == {"outcome": "abandoned", "dealer": 3}


def test_bargain_example_3_piglio_then_vado_pays_the_offer() -> None:
    s = state({}, bids((0, "vado", 0), (1, "offro", 8), (2, "piglio", 1), (3, "vado", 0)))
    out = s.outcome()
    assert out.termination == "offer" and out.scores == (0, -8, 8, 0)
    assert out.detail["summary"] == {
        "outcome": "offer",
        "dealer": 3,
        "offerer": 1,
        "taker": 2,
        "points": 8,
    }


def test_bargain_example_3_piglio_then_tengo_plays_instead() -> None:
    s = state({}, bids((0, "vado", 0), (1, "offro", 8), (2, "piglio", 1), (3, "tengo", 0)))
    assert s.phase == Phase.SOLO


def test_bargain_example_4_vado_vado_offro_piglio_pays_the_offer() -> None:
    s = state({}, bids((0, "vado", 0), (1, "vado", 0), (2, "offro", 4), (3, "piglio", 2)))
    assert s.outcome().scores == (0, 0, -4, 4)


def test_bargain_once_players_speak_in_any_order() -> None:
    s = state({}, bids((2, "offro", 4), (0, "vado", 0), (3, "piglio", 2), (1, "vado", 0)))
    assert s.outcome().scores == (0, 0, -4, 4)
    assert [a["seat"] for a in s.to_record()["actions"]] == [2, 0, 3, 1]


def test_bargain_once_a_seat_that_spoke_cannot_speak_again() -> None:
    s = state({}, bids((0, "vado", 0)))
    assert rule_ids(s.check(0, Bid("tengo"))) == ["tarocco.bargain.once"]
    assert s.legal_actions(0) == []


def test_bargain_piglio_needs_an_open_offer() -> None:
    s = state({}, bids((0, "vado", 0)))
    assert rule_ids(s.check(1, Bid("piglio", of=0))) == ["tarocco.bargain.piglio"]
    s = state({}, bids((0, "offro", 2), (1, "piglio", 0)))
    assert rule_ids(s.check(2, Bid("piglio", of=0))) == ["tarocco.bargain.piglio"]


def test_bargain_offer_range_is_one_to_the_table_maximum() -> None:
    s = state({})
    assert rule_ids(s.check(0, Bid("offro", 0))) == ["tarocco.bargain.offer_range"]
    assert rule_ids(s.check(0, Bid("offro", 11))) == ["tarocco.bargain.offer_range"]
    assert s.check(0, Bid("offro", 10)) == []
    strict = state({}, ruleset="strict")
    assert rule_ids(strict.check(0, Bid("offro", 9))) == ["tarocco.bargain.offer_range"]


def test_bargain_tengo_closes_the_round_by_default() -> None:
    s = state({}, bids((1, "tengo", 0)))
    assert s.phase == Phase.SOLO


def test_bargain_tengo_with_every_voice_heard_voids_the_offers() -> None:
    words = bids((1, "tengo", 0), (0, "offro", 5), (2, "piglio", 0))
    s = state({}, words, ruleset="strict")
    assert s.phase == Phase.BARGAIN
    s.apply(3, Bid("vado"))
    assert s.phase == Phase.SOLO


def test_bargain_offer_taken_record_validates_and_a_wrong_score_is_named() -> None:
    rec = record({}, bids((0, "vado", 0), (1, "vado", 0), (2, "offro", 4), (3, "piglio", 2)))
    assert GAME.validate(rec).valid
    rec["claimed_scores"] = [0, 0, 4, -4]
    assert rule_ids(GAME.validate(rec)) == ["tarocco.record.claimed_score"]
