"""San Marco's hints: positions set from the rule texts (the house board's values), the move
the hint suggests and its reason, naming the rule it rests on."""

from __future__ import annotations

from games.core.hints import hint, rule_of
from games.sanmarco import GAME
from games.sanmarco.actions import Act
from games.sanmarco.board import DISTRICTS

from .helpers import position

D = {name: i for i, name in enumerate(DISTRICTS)}


def test_the_doge_crosses_a_rivals_bridge_when_the_district_beyond_pays_more_than_the_toll():
    # San Marco (8/6) holds none of colour 0's aristocrats: stopping there pays 0. Castello
    # (7/5) has colour 0 first, 2 to 1: 7 points, less 1 toll for colour 1's bridge
    # (sanmarco.base.doge_toll).
    state = position(
        "base3",
        {
            "cubes": {"san_marco": [0, 2, 0], "castello": [2, 1, 0]},
            "bridges": [["san_marco", "castello", 1]],
            "doge": "san_marco",
            "hand": {"colour": 0, "cards": ["doge"]},
        },
    )
    action, why = hint(GAME, state, 0, 3)
    assert action == Act("doge", 0)
    assert why.en == (
        "The Doge crosses to Castello, which pays your colour 7 points against 0 in San Marco "
        "(another colour's bridge costs 1 point of toll)."
    )
    assert "Castello" in why.it and "7 punti" in why.it
    assert rule_of(why) == "sanmarco.base.doge_toll"


def test_the_doge_stops_where_it_pays_most():
    # Colour 0 leads San Marco 3 to 1 (8 points); Castello beyond gives it nothing.
    state = position(
        "base3",
        {
            "cubes": {"san_marco": [3, 1, 0], "castello": [0, 2, 0]},
            "bridges": [["san_marco", "castello", 0]],
            "doge": "san_marco",
            "hand": {"colour": 0, "cards": ["doge"]},
        },
    )
    action, why = hint(GAME, state, 0, 3)
    assert action == Act("stop")
    assert why.en.startswith("The Doge stops in San Marco, which pays your colour 8 points now")
    assert rule_of(why) == "sanmarco.base.doge_path"


def test_an_aristocrat_goes_where_it_raises_the_districts_pay_most():
    # One more in San Marco (1 against 2) only ties for first: the low value, 6, as now
    # (sanmarco.base.score_ties). One in Castello ties 1 to 1 with nobody ahead: 0 -> 5.
    state = position(
        "base3",
        {
            "cubes": {"san_marco": [1, 2, 0], "castello": [0, 1, 0]},
            "hand": {"colour": 0, "cards": ["san_marco", "castello"]},
        },
    )
    action, why = hint(GAME, state, 0, 3)
    assert action.do == "district" and action.b == D["castello"]
    assert "Castello raises what the district would pay your colour now from 0 to 5" in why.en
    assert "da 0 a 5 punti" in why.it
    assert rule_of(why) == "sanmarco.base.score_ties"


def test_a_bridge_joins_the_districts_holding_most_of_ones_own_aristocrats():
    # San Marco and Castello are neighbours on the house board (sanmarco.base.bridge_site);
    # colour 0 has 2 + 1 aristocrats there, more than at either end of any other bridge.
    state = position(
        "base3",
        {
            "cubes": {"san_marco": [2, 0, 1], "castello": [1, 2, 0]},
            "hand": {"colour": 0, "cards": ["bridge"]},
        },
    )
    action, why = hint(GAME, state, 0, 3)
    assert action.do == "bridge" and {action.a, action.b} == {D["san_marco"], D["castello"]}
    assert "where you have 3 aristocrats: each time another colour moves the Doge" in why.en
    assert "dove hai 3 aristocratici" in why.it
    assert rule_of(why) == "sanmarco.base.doge_toll"
