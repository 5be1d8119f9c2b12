"""San Marco's board rules, one by one, with the exact violations a wrong action gets."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from games.core import IllegalAction, RecordError
from games.sanmarco import GAME
from games.sanmarco.actions import Act
from games.sanmarco.board import DISTRICTS, house_board, load_board, parse_board
from games.sanmarco.table import BoardState
from tests.games.sanmarco.helpers import (
    plain_python_only,
    play_checked,
    position,
    reference_points,
)

D = {name: i for i, name in enumerate(DISTRICTS)}


def rules(state: BoardState, seat: int, action: Act) -> list[str]:
    return [v.rule for v in state.check(seat, action)]


# --- the board -----------------------------------------------------------------------------


def test_the_house_board_uses_every_known_figure() -> None:
    board = house_board()
    assert board.name == "house"
    assert board.values[D["san_marco"]] == (8, 6)
    assert board.die[D["castello"]] == 6
    assert sorted(board.die) == [1, 2, 3, 4, 5, 6]
    assert {(6, 5), (6, 4)} <= set(board.values)
    assert board.doge_start == D["san_marco"] and board.per_site == 3


def _club_board() -> dict[str, object]:
    data = json.loads(Path("games/sanmarco/boards/house.json").read_text(encoding="utf-8"))
    data["name"] = "circolo"
    data["districts"][0]["values"] = [9, 2]
    data["bridge_sites"] = [*data["bridge_sites"][:6], ["santa_croce", "dorsoduro"]]
    data["doge_start"] = "castello"
    return data


def test_a_club_board_is_played_and_checked_on() -> None:
    board = _club_board()
    ruleset = GAME.ruleset({"name": "base4", "board": board})
    state = GAME.new_game(ruleset, 3)
    assert isinstance(state, BoardState)
    assert state.board.name == "circolo" and state.doge == D["castello"]
    assert state.board.values[D["cannaregio"]] == (9, 2)
    record = json.loads(json.dumps(play_checked_on(ruleset, 3).to_record()))
    assert record["ruleset"]["board"]["name"] == "circolo"
    assert GAME.validate(record).valid


def play_checked_on(ruleset: object, seed: int) -> BoardState:
    from games.core import RandomBot, play

    state = GAME.new_game(ruleset, seed)
    play(GAME, state, [RandomBot(seed + i) for i in range(4)])
    for e in state.score_log:
        if e["why"] in ("doge", "final"):
            values = state.board.values[e["district"]]
            assert e["points"] == reference_points(e["cubes"], values, e["excluded"])
    return state


@pytest.mark.parametrize(
    ("change", "path"),
    [
        (lambda b: b["districts"].pop(), "board.districts"),
        (lambda b: b["districts"][1].update(die=1), "board.districts[1].die"),
        (lambda b: b["districts"][2].update(name="murano"), "board.districts[2].name"),
        (lambda b: b["districts"][3].update(values=[4, 6]), "board.districts[3].values"),
        (lambda b: b["bridge_sites"].append(["castello", "castello"]), "board.bridge_sites[7]"),
        (lambda b: b["bridge_sites"].append(["cannaregio", "castello"]), "board.bridge_sites[7]"),
        (lambda b: b.update(bridge_sites=[["cannaregio", "castello"]]), "board.bridge_sites"),
        (lambda b: b.update(doge_start="lido"), "board.doge_start"),
    ],
)
def test_a_wrong_board_is_refused_where_it_is_wrong(change: object, path: str) -> None:
    board = _club_board()
    change(board)  # type: ignore[operator]
    with pytest.raises(RecordError) as err:
        parse_board(board)
    assert err.value.path == path
    with pytest.raises(RecordError):
        GAME.ruleset({"name": "base3", "board": board})


def test_the_house_board_is_the_default() -> None:
    assert load_board(None) is house_board()


# --- set-up and turns ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "cubes", "bridges"),
    [("base3", 8, 6), ("base4", 8, 4), ("variant1-board", 8, 4), ("variant3-board", 8, 4)],
)
def test_set_up_puts_eight_aristocrats_per_colour_by_the_die(
    name: str, cubes: int, bridges: int
) -> None:
    state = GAME.new_game(GAME.ruleset(name), 5)
    assert isinstance(state, BoardState)
    dice = state.chance.used["dice"]
    for c in range(len(state.kinds)):
        assert sum(state.cubes[d][c] for d in range(6)) == cubes
        faces = dice[4 * c : 4 * c + 4]
        for d in range(6):
            assert state.cubes[d][c] == 2 * faces.count(state.board.die[d])
    while state.phase == "setup":
        seat = state.to_act()
        assert seat is not None
        state.apply(seat, state.legal_actions(seat)[0])
    assert len(state.bridges) == bridges


def test_variant_2_sets_twelve_neutrals_one_per_district_and_six_by_die() -> None:
    state = GAME.new_game(GAME.ruleset("variant2-board"), 9)
    assert isinstance(state, BoardState)
    neutral = [state.cubes[d][2] for d in range(6)]
    assert sum(neutral) == 12 and min(neutral) >= 1


def test_acting_out_of_turn_is_refused_with_the_turn_rule() -> None:
    state = GAME.new_game(GAME.ruleset("base4"), 1)
    seat = state.to_act()
    other = (seat + 1) % 4
    action = state.legal_actions(seat)[0]
    assert rules(state, other, action) == ["sanmarco.base.turn"]
    with pytest.raises(IllegalAction):
        state.apply(other, action)


def _to_phase(state: BoardState, phase: str) -> None:
    while state.phase != phase:
        seat = state.to_act()
        assert seat is not None
        state.apply(seat, state.legal_actions(seat)[0])


def test_dividing_keeps_every_offer_non_empty_and_hides_the_hand() -> None:
    state = GAME.new_game(GAME.ruleset("base3"), 2)
    assert isinstance(state, BoardState)
    _to_phase(state, "divide")
    seat = state.to_act()
    assert seat is not None
    assert len(state.hand) == 10
    assert rules(state, seat, Act("choose", 0)) == ["sanmarco.base.phase"]
    assert rules(state, seat, Act("pile", 1)) == ["sanmarco.base.divide"]  # offer 0 first
    for _ in range(8):
        state.apply(seat, Act("pile", 0))
    # two cards left and two offers still empty: both must go to new offers
    assert state.legal_actions(seat) == [Act("pile", 1)]
    assert rules(state, seat, Act("pile", 0)) == ["sanmarco.base.divide"]
    other = (seat + 1) % 3
    assert "hand" not in state.view(other)
    assert state.view(other)["hand_hidden"] == {"cards": 10, "assigned": 8}
    assert len(state.view(seat)["hand"]) == 10


# --- the cards --------------------------------------------------------------------------------

HOUSE_CUBES = {"san_marco": [3, 1, 0], "castello": [0, 2, 0], "cannaregio": [1, 0, 0]}


def test_a_district_card_hops_only_across_an_own_bridge() -> None:
    state = position(
        "base3",
        {
            "cubes": HOUSE_CUBES,
            "bridges": [["san_marco", "castello", 0], ["san_marco", "dorsoduro", 1]],
            "hand": {"colour": 0, "cards": ["san_marco"]},
        },
    )
    assert Act("district", D["san_marco"], D["castello"]) in state.legal_actions(0)
    assert rules(state, 0, Act("district", D["san_marco"], D["dorsoduro"])) == [
        "sanmarco.base.district_hop"
    ]
    assert rules(state, 0, Act("district", D["san_marco"], D["san_marco"], D["castello"])) == [
        "sanmarco.base.district_supply"
    ]
    assert rules(state, 0, Act("district", D["castello"], D["castello"])) == [
        "sanmarco.base.card_held"
    ]
    assert rules(state, 0, Act("skip", D["san_marco"])) == ["sanmarco.base.decline"]
    state.apply(0, Act("district", D["san_marco"], D["castello"]))
    assert state.cubes[D["castello"]][0] == 1


def test_bridges_keep_to_the_sites_and_three_per_pair() -> None:
    full = [["san_marco", "castello", c] for c in (0, 1, 2)]
    state = position("base3", {"cubes": HOUSE_CUBES, "bridges": full,
                               "hand": {"colour": 0, "cards": ["bridge"]}})  # fmt: skip
    assert rules(state, 0, Act("bridge", D["san_marco"], D["castello"])) == [
        "sanmarco.base.bridge_cap"
    ]
    # Cannaregio and Dorsoduro do not meet on the house board
    assert rules(state, 0, Act("bridge", D["cannaregio"], D["dorsoduro"])) == [
        "sanmarco.base.bridge_site"
    ]
    assert rules(state, 0, Act("bridge", D["cannaregio"], D["castello"], 1)) == [
        "sanmarco.base.bridge_take"
    ]
    state.apply(0, Act("bridge", D["cannaregio"], D["castello"]))
    assert state.bridges[-1] == [state.board.site_index(0, 5), 0]


def test_with_all_twelve_bridges_built_another_colours_bridge_is_taken_over() -> None:
    sites = house_board().sites
    bridges = [[DISTRICTS[sites[i % 10][0]], DISTRICTS[sites[i % 10][1]], 1 + i % 2]
               for i in range(12)]  # fmt: skip
    state = position("base3", {"cubes": HOUSE_CUBES, "bridges": bridges,
                               "hand": {"colour": 0, "cards": ["bridge"]}})  # fmt: skip
    supply_before = state.supply[1]
    assert all(a.c >= 0 for a in state.legal_actions(0))
    state.apply(0, Act("bridge", D["san_marco"], D["castello"], 0))
    assert state.supply[1] == supply_before + 1 and state.bridges[-1][1] == 0
    assert len(state.bridges) == 12


def test_a_transfer_replaces_another_colours_aristocrat() -> None:
    state = position("base3", {"cubes": HOUSE_CUBES, "hand": {"colour": 0, "cards": ["transfer"]}})
    assert rules(state, 0, Act("transfer", D["san_marco"], 0)) == ["sanmarco.base.transfer"]
    assert rules(state, 0, Act("transfer", D["dorsoduro"], 1)) == ["sanmarco.base.transfer"]
    state.apply(0, Act("transfer", D["castello"], 1))
    assert state.cubes[D["castello"]][:2] == [1, 1]


@plain_python_only
def test_a_banishment_takes_other_colours_first() -> None:
    state = position("base3", {"cubes": {"san_marco": [2, 1, 2]},
                               "hand": {"colour": 0, "cards": ["banish"]}})  # fmt: skip
    state.chance.die = lambda: 4  # type: ignore[method-assign]
    state.apply(0, Act("banish", D["san_marco"]))
    assert rules(state, 0, Act("remove", 0)) == ["sanmarco.base.banish_order"]
    assert rules(state, 0, Act("remove", 1, -1)) == []
    state.apply(0, Act("remove", 2))
    state.apply(0, Act("remove", 2))
    # the last of the others' goes by itself, then one of the banisher's own: four in all
    assert state.cubes[D["san_marco"]] == [1, 0, 0]
    assert state.pending is None


def test_the_doge_walks_over_bridges_pays_tolls_and_scores_where_it_stops() -> None:
    state = position(
        "base3",
        {
            "cubes": {"castello": [1, 3, 2], "cannaregio": [2, 0, 0]},
            "bridges": [["san_marco", "castello", 1], ["cannaregio", "castello", 0]],
            "doge": "san_marco",
            "score": [5, 0, 0],
            "hand": {"colour": 0, "cards": ["doge"]},
        },
    )
    assert rules(state, 0, Act("doge", 1)) == ["sanmarco.base.doge_path"]  # not at San Marco
    state.apply(0, Act("doge", 0))  # over colour 1's bridge: one point to colour 1
    assert state.score == [4, 1, 0]
    assert rules(state, 0, Act("doge", 0)) == ["sanmarco.base.doge_path"]  # back again
    state.apply(0, Act("stop"))
    # Castello (7/5): colour 1 has most, colour 2 second
    assert state.score == [4, 1 + 7, 5]


def test_ties_for_most_take_the_low_value_and_nobody_else_scores() -> None:
    assert reference_points([3, 3, 1], (8, 6), []) == [6, 6, 0]
    assert reference_points([4, 2, 2], (8, 6), []) == [8, 0, 0]
    state = position("base3", {"cubes": {"san_marco": [3, 3, 1]}, "doge": "san_marco",
                               "hand": {"colour": 2, "cards": ["doge"]}})  # fmt: skip
    state.apply(2, Act("stop"))
    assert state.score == [6, 6, 0]


def test_a_card_that_cannot_be_carried_out_is_set_aside() -> None:
    state = position("base3", {"cubes": HOUSE_CUBES, "supply": [0, 22, 25],
                               "hand": {"colour": 0, "cards": ["transfer"]}})  # fmt: skip
    assert state.legal_actions(0) == [Act("skip", 7)]
    state.apply(0, Act("skip", 7))


def test_a_tampered_record_shows_each_fault_at_its_step() -> None:
    state = play_checked("base4", 4)
    record = json.loads(json.dumps(state.to_record()))
    step = next(i for i, a in enumerate(record["actions"]) if a["do"] == "choose")
    record["actions"][step]["seat"] = (record["actions"][step]["seat"] + 1) % 4
    verdict = GAME.validate(record)
    assert [(v.rule, v.step) for v in verdict.violations][:1] == [("sanmarco.base.turn", step)]


def test_a_wrong_claimed_score_is_found() -> None:
    state = play_checked("base3", 6)
    record = state.to_record()
    record["claimed_scores"] = [s + 1 for s in state.outcome().scores]
    assert [v.rule for v in GAME.validate(record).violations] == ["sanmarco.record.claimed_score"]


def test_chance_that_is_not_in_the_deck_makes_the_record_impossible() -> None:
    state = play_checked("base3", 8)
    record = json.loads(json.dumps(state.to_record()))
    del record["deal"]["seed"]  # chance as written at a table
    record["deal"]["chance"]["action_cards"][:6] = ["doge"] * 6  # only ten doge cards exist
    record["deal"]["chance"]["action_cards"][6:12] = ["doge"] * 6
    verdict = GAME.validate(record)
    # the first six doge cards exist (the hand then differs from the one played: a card not
    # held), the eleventh does not: the replay stops there
    assert verdict.violations[0].rule == "sanmarco.base.card_held"
    assert verdict.violations[-1].rule == "sanmarco.record.impossible"
    assert not verdict.complete


def test_an_eleventh_doge_card_is_not_in_the_deck() -> None:
    from games.sanmarco.cards import ACTION_DECK
    from games.sanmarco.chance import Chance

    chance = Chance(None, {"action_cards": ["doge"] * 11})
    deck = list(ACTION_DECK)
    for _ in range(10):
        chance.card("action_cards", deck)
    with pytest.raises(RecordError, match="not in the deck"):
        chance.card("action_cards", deck)


# --- the limit of 10 and the end of a passage --------------------------------------------


def _end_round_with(name: str, limits: list[list[int]], seed: int = 0) -> BoardState:
    n = len(limits)
    state = position(name, {"limits": limits, "hand": {"colour": 0, "cards": ["san_marco"]}},
                     seed)  # fmt: skip
    assert len(state.kinds) == n
    state.apply(0, Act("district", D["san_marco"], D["san_marco"]))
    return state


def test_base_3p_one_colour_at_10_leaves_a_last_round_for_the_other_two() -> None:
    state = _end_round_with("base3", [[3, 3, 3, 1], [2], [1]])
    assert state.final_round and state.passage == 1 and state.phase == "divide"
    assert sorted([state.pairs[0].distributor, *state.pairs[0].choosers]) == [1, 2]
    assert len(state.hand) == 8  # one distributor, one chooser: 5 + 3


def test_base_4p_one_colour_at_10_leaves_a_three_player_round() -> None:
    state = _end_round_with("base4", [[3, 3, 3, 1], [2], [1], [3]])
    assert state.final_round and len(state.pairs) == 1 and len(state.pairs[0].choosers) == 2
    assert len(state.hand) == 10  # 6 + 4 in three offers


def test_base_4p_three_colours_at_10_end_the_passage_at_once() -> None:
    state = _end_round_with("base4", [[3, 3, 3, 1], [3, 3, 3, 2], [1], [3, 3, 3, 3]])
    assert not state.final_round
    assert state.passage_log[0]["bonus"] == [0, 0, 11, 0]  # 12 - 1, to the one under 10
    assert state.phase == "free_banish" and state.to_act() == 2  # the fewest limit points


def test_variant_3_one_colour_of_each_player_at_10_gives_the_two_others_a_last_round() -> None:
    state = _end_round_with("variant3-board", [[3, 3, 3, 1], [3, 3, 3, 1], [1], [2]])
    assert state.final_round
    assert sorted([state.pairs[0].distributor, *state.pairs[0].choosers]) == [2, 3]


def test_variant_3_a_single_colour_at_10_leaves_a_three_colour_round_with_split_roles() -> None:
    for seed in range(12):
        state = _end_round_with("variant3-board", [[3, 3, 3, 1], [2], [1], [2]], seed)
        distributor, first, second = state.roles
        # seat 1 holds colours 1 and 3: it may not distribute and choose first, nor choose twice
        assert first == 2 and {distributor, second} == {1, 3}


def test_variant_3_both_colours_of_a_player_at_10_leave_the_opponent_a_round_for_each() -> None:
    state = _end_round_with("variant3-board", [[3, 3, 3, 1], [2], [3, 3, 3, 1], [2]])
    assert state.final_round
    pair = state.pairs[0]
    assert sorted([pair.distributor, *pair.choosers]) == [1, 3]
    assert state.to_act() == 1


def test_variant_2_ends_the_passage_in_the_round_a_player_reaches_10() -> None:
    state = _end_round_with("variant2-board", [[3, 3, 3, 1], [2, 2], []])
    assert not state.final_round and state.passage_log[0]["bonus"][:2] == [0, 6]


def test_a_record_without_a_seed_replays_from_the_chance_written_alone() -> None:
    state = play_checked("variant1-board", 12)
    record = json.loads(json.dumps(state.to_record()))
    assert record["deal"]["seed"] == 12
    del record["deal"]["seed"]  # what a referee types from a table: only what fell
    verdict = GAME.validate(record)
    assert verdict.valid and verdict.outcome == state.outcome()


def test_chance_written_beside_a_seed_must_follow_from_it() -> None:
    state = play_checked("base3", 13)
    record = json.loads(json.dumps(state.to_record()))
    dice = record["deal"]["chance"]["dice"]
    dice[0] = dice[0] % 6 + 1
    with pytest.raises(RecordError, match="the seed gives"):
        GAME.validate(record)


def test_with_hidden_offers_only_the_pair_sees_what_is_in_them() -> None:
    state = GAME.new_game(GAME.ruleset({"name": "base4", "offers_public": False}), 4)
    assert isinstance(state, BoardState)
    _to_phase(state, "choose")
    pair = state.pairs[0]
    outsiders = [s for s in range(4) if s not in (pair.distributor, *pair.choosers)]
    assert len(outsiders) == 2
    for seat in range(4):
        offers = state.view(seat)["offers"]
        if seat in outsiders:
            assert all(isinstance(o["cards"], int) for o in offers)
        else:
            assert all(isinstance(o["cards"], list) for o in offers)


@pytest.mark.parametrize("kind", ["action_cards", "limit_cards"])
def test_cards_written_beside_a_seed_must_be_the_ones_it_draws(kind: str) -> None:
    state = play_checked("base4", 14)
    record = json.loads(json.dumps(state.to_record()))
    cards = record["deal"]["chance"][kind]
    i = len(cards) // 2
    cards[i] = next(c for c in cards if c != cards[i])
    verdict = GAME.validate(record)
    assert not verdict.valid and not verdict.complete
    (found,) = verdict.violations
    assert found.rule == "sanmarco.record.impossible"
    # the place in the record for a program, the words for a person
    assert f"deal.chance.{kind}[{i}]" in found.where["reason"]
    assert "the seed gives" in found.message["en"]
    assert "deal.chance" not in found.message["en"] + found.message["it"]


@pytest.mark.parametrize("colours", [3, 4])
def test_district_points_follow_the_district_rule_for_every_count(colours: int) -> None:
    state = GAME.new_game(GAME.ruleset("base4" if colours == 4 else "base3"), 1)
    assert isinstance(state, BoardState)
    for counts in itertools.product(range(5), repeat=colours):
        for excluded in (set(), {0}, {1, colours - 1}):
            state.cubes[2] = list(counts)
            expected = reference_points(list(counts), state.board.values[2], sorted(excluded))
            assert state.district_points(2, excluded) == expected, (counts, excluded)


def test_a_bridge_card_laid_where_the_board_has_no_site_stands_and_is_crossed() -> None:
    """The bridge is where it was put: the verdict names sanmarco.base.bridge_site, the
    replay goes on, the colour's district cards reach across it, the view draws it."""
    import random

    from games.core import make_bot

    for seed in range(40):
        state = GAME.new_game(GAME.ruleset("base3"), seed)
        bots = [make_bot(GAME, "random", seed + i) for i in range(3)]
        chooser = random.Random(seed)
        while not state.is_over():
            seat = state.to_act()
            assert seat is not None
            legal = state.legal_actions(seat)
            bridges = {(a.a, a.b) for a in legal if a.do == "bridge"}
            if bridges and state.phase == "resolve" and len(state.bridges) < 12:
                off = [
                    (a, b)
                    for a in range(6)
                    for b in range(a + 1, 6)
                    if state.board.site_index(a, b) is None
                ]
                a, b = chooser.choice(off)
                colour = state.acting_colour()
                fault = Act("bridge", a, b)
                assert rules(state, seat, fault) == ["sanmarco.base.bridge_site"]
                state.apply_unchecked(seat, fault)
                assert state.sites[-1] == (a, b) and state.bridges[-1][1] == colour
                assert {DISTRICTS[a], DISTRICTS[b]} == set(
                    state.view(None)["bridges"][-1]["between"]
                )
                assert b in state.owner_bridges_at(colour, a)
                assert b in state._hops(colour)[0][a]  # a district card reaches across it
                while not state.is_over():  # the game goes on to its end
                    seat = state.to_act()
                    assert seat is not None
                    state.apply_unchecked(seat, bots[seat].choose(state, seat))
                assert state.outcome().scores
                return
            state.apply_unchecked(seat, bots[seat].choose(state, seat))
    raise AssertionError("no bridge card was played in 40 games")


def test_with_every_bridge_on_the_board_a_bridge_off_the_sites_is_offered_taking_one_over() -> None:
    """The desk's ⚠ bridges then move a bridge the rules let the colour take, as a real
    table must (no thirteenth bridge): played, the replay goes on."""
    from games.core import make_bot
    from games.sanmarco import tabledeal

    for seed in range(60):
        state = GAME.new_game(GAME.ruleset("base4"), seed)
        bots = [make_bot(GAME, "random", seed + i) for i in range(4)]
        while not state.is_over():
            seat = state.to_act()
            assert seat is not None
            legal = [{"seat": seat, **GAME.encode_action(a)} for a in state.legal_actions(seat)]
            takes = [s for s in legal if s.get("do") == "bridge" and "take" in s]
            if takes and len(state.bridges) == 12:
                offered = [
                    s
                    for s in tabledeal.illegal_steps(seat, state.view(seat), legal)
                    if s["do"] == "bridge"
                ]
                assert offered and all(s.get("take") == takes[0]["take"] for s in offered)
                off = next(
                    s
                    for s in offered
                    if state.board.site_index(
                        DISTRICTS.index(s["between"][0]), DISTRICTS.index(s["between"][1])
                    )
                    is None
                )
                _seat, act = GAME.decode_step(off, "off")
                assert rules(state, seat, act) == ["sanmarco.base.bridge_site"]
                state.apply_unchecked(seat, act)
                assert len(state.bridges) == 12
                return
            state.apply_unchecked(seat, bots[seat].choose(state, seat))
    raise AssertionError("no game put every bridge on the board")
