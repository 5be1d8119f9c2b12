"""GAME.score: a scorekeeper's summary to the result, and the summaries that cannot be."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import RecordError
from games.ergio import GAME

T_MAGS = ["santa_maria", "san_francesco", "san_michele", "mattaccini", "calci", "satiri"]
M_MAGS = ["sant_antonio", "san_martino", "san_marco", "leoni", "dragoni", "delfini"]


def side(mag: str, force: int, *figures: str) -> dict[str, Any]:
    return {"magistratura": mag, "force": force, "figures": list(figures)}


def summary(forces: list[tuple[int, int]], corteo: str = "tramontana", **rs: Any) -> dict[str, Any]:
    """Six scontri with these forces; the challenger follows the rules."""
    scontri = []
    challenger = corteo
    for n, (t, m) in enumerate(forces):
        scontri.append(
            {
                "challenger": challenger,
                "tramontana": side(T_MAGS[n], t),
                "mezzogiorno": side(M_MAGS[n], m),
            }
        )
        if t != m:
            challenger = "tramontana" if t > m else "mezzogiorno"
    return {"ruleset": {"name": "base", **rs}, "corteo_winner": corteo, "scontri": scontri}


def test_summary_scores_points_and_winner() -> None:
    r = GAME.score(summary([(20, 10), (20, 10), (20, 10), (20, 10), (10, 20), (10, 20)]))
    assert r.valid
    assert r.result is not None
    assert r.result["points"] == {"tramontana": 4, "mezzogiorno": 2}
    assert r.result["winner"] == "tramontana"
    assert r.result["bella_nazionale"] is None
    assert [s["reason"] for s in r.result["scontri"]] == ["force"] * 6


def test_bella_force_in_a_summary() -> None:
    r = GAME.score(summary([(20, 10), (21, 10), (22, 10), (10, 20), (10, 20), (10, 20)]))
    assert r.result is not None
    assert r.result["bella_nazionale"] == {
        "winner": "tramontana",
        "reason": "force",
        "force": {"tramontana": 63, "mezzogiorno": 60},
        "figures": {"tramontana": 0, "mezzogiorno": 0},
    }
    assert r.result["winner"] == "tramontana"


def test_bella_figures_in_a_summary() -> None:
    s = summary([(20, 10), (20, 10), (20, 10), (10, 20), (10, 20), (10, 20)])
    s["scontri"][3]["mezzogiorno"]["figures"] = ["capitano"]
    r = GAME.score(s)
    assert r.result is not None
    assert r.result["bella_nazionale"]["reason"] == "figures"
    assert r.result["winner"] == "mezzogiorno"


def test_bella_corteo_in_a_summary() -> None:
    s = summary([(20, 10), (20, 10), (20, 10), (10, 20), (10, 20), (10, 20)], "mezzogiorno")
    r = GAME.score(s)
    assert r.result is not None
    assert r.result["bella_nazionale"]["reason"] == "corteo"
    assert r.result["winner"] == "mezzogiorno"


def test_bella_laid_needs_the_laid_force() -> None:
    s = summary([(20, 10), (20, 10), (20, 10), (10, 20), (10, 20), (10, 20)], bella_sums="laid")
    with pytest.raises(RecordError, match="laid"):
        GAME.score(s)
    for sc in s["scontri"]:
        for name in ("tramontana", "mezzogiorno"):
            sc[name]["laid_force"] = 9 if sc[name]["magistratura"] == "santa_maria" else 5
    r = GAME.score(s)
    assert r.result is not None
    assert r.result["bella_nazionale"]["force"] == {"tramontana": 19, "mezzogiorno": 15}


def test_battle_tie_figures_and_challenger_in_a_summary() -> None:
    s = summary([(15, 15), (15, 15), (20, 10), (20, 10), (20, 10), (20, 10)])
    s["scontri"][0]["mezzogiorno"]["figures"] = ["magistrato"]
    s["scontri"][0]["tramontana"]["figures"] = ["caposchiera"]
    s["scontri"][1]["challenger"] = "mezzogiorno"
    s["scontri"][2]["challenger"] = "mezzogiorno"
    r = GAME.score(s)
    assert r.valid, r.violations
    assert r.result is not None
    assert [x["reason"] for x in r.result["scontri"][:2]] == ["figures", "challenger"]
    assert [x["winner"] for x in r.result["scontri"][:2]] == ["mezzogiorno", "mezzogiorno"]
    s2 = copy.deepcopy(s)
    s2["ruleset"]["tie_order"] = "caposchiera_first"
    s2["scontri"][1]["challenger"] = "tramontana"
    s2["scontri"][2]["challenger"] = "tramontana"
    r2 = GAME.score(s2)
    assert r2.valid, r2.violations
    assert r2.result is not None
    assert r2.result["scontri"][0]["winner"] == "tramontana"


def test_summary_scontri_max_refuses_seven() -> None:
    s = summary([(20, 10)] * 6)
    s["scontri"].append(copy.deepcopy(s["scontri"][0]))
    r = GAME.score(s)
    assert not r.valid
    assert [v.rule for v in r.violations] == ["ergio.summary.scontri_max"]


def test_summary_magistratura_twice_is_refused() -> None:
    s = summary([(20, 10)] * 6)
    s["scontri"][2]["tramontana"]["magistratura"] = "santa_maria"
    r = GAME.score(s)
    assert [v.rule for v in r.violations] == ["ergio.summary.magistratura_twice"]


def test_summary_magistratura_side_is_checked() -> None:
    s = summary([(20, 10)] * 6)
    s["scontri"][0]["tramontana"]["magistratura"] = "leoni"
    r = GAME.score(s)
    assert "ergio.summary.magistratura_side" in [v.rule for v in r.violations]


def test_summary_a_side_missing_is_malformed() -> None:
    s = summary([(20, 10)] * 6)
    del s["scontri"][0]["mezzogiorno"]
    with pytest.raises(RecordError, match="no mezzogiorno side"):
        GAME.score(s)


def test_summary_challenger_is_checked() -> None:
    s = summary([(20, 10)] * 6)
    s["scontri"][1]["challenger"] = "mezzogiorno"
    r = GAME.score(s)
    assert [v.rule for v in r.violations] == ["ergio.summary.challenger"]


def test_summary_force_range() -> None:
    s = summary([(33, 10)] + [(20, 10)] * 5)
    r = GAME.score(s)
    assert [v.rule for v in r.violations] == ["ergio.summary.force_range"]


def test_summary_cards_give_the_force_and_a_mismatch_is_reported() -> None:
    s = summary([(20, 10)] * 6)
    s["scontri"][0]["tramontana"] = {
        "magistratura": "santa_maria",
        "laid": ["SMA-MAG", "SMA-CAP", "SMA-7"],
        "magistrato": ["SFR-7", "SAT-6"],
    }
    r = GAME.score(s)
    assert r.valid
    assert r.result is not None
    assert r.result["scontri"][0]["tramontana"] == {
        "magistratura": "santa_maria",
        "force": 25,
        "figures": ["magistrato", "capitano"],
    }
    s["scontri"][0]["tramontana"]["force"] = 24
    assert [v.rule for v in GAME.score(s).violations] == ["ergio.summary.force_mismatch"]


def test_summary_incomplete_match_has_no_winner() -> None:
    s = summary([(20, 10)] * 6)
    s["scontri"] = s["scontri"][:3]
    r = GAME.score(s)
    assert r.result is not None
    assert r.result["winner"] is None and r.result["complete"] is False
    s["scontri"] = summary([(20, 10)] * 6)["scontri"][:4]
    r = GAME.score(s)
    assert r.result is not None
    assert r.result["winner"] == "tramontana"


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 32), st.integers(0, 32)), min_size=6, max_size=6),
    st.sampled_from(["tramontana", "mezzogiorno"]),
    st.sampled_from(["magistrato_first", "caposchiera_first", "count_first"]),
)
def test_summary_points_total_six_and_the_winner_has_more_or_the_bella(
    forces: list[tuple[int, int]], corteo: str, tie_order: str
) -> None:
    s = summary(forces, corteo, tie_order=tie_order)
    # ties (equal force, no figures) go to the challenger: follow the result's own winners
    challenger = corteo
    for sc, (t, m) in zip(s["scontri"], forces, strict=True):
        sc["challenger"] = challenger
        if t != m:
            challenger = "tramontana" if t > m else "mezzogiorno"
    r = GAME.score(s)
    assert r.valid, r.violations
    assert r.result is not None
    points = r.result["points"]
    assert points["tramontana"] + points["mezzogiorno"] == 6
    winner = r.result["winner"]
    if points["tramontana"] == points["mezzogiorno"]:
        assert r.result["bella_nazionale"]["winner"] == winner
    else:
        assert r.result["bella_nazionale"] is None
        assert points[winner] > 3
