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
    r = GAME.score(summary([(18, 10), (18, 10), (18, 10), (18, 10), (10, 18), (10, 18)]))
    assert r.valid
    assert r.result is not None
    assert r.result["points"] == {"tramontana": 4, "mezzogiorno": 2}
    assert r.result["winner"] == "tramontana"
    assert r.result["bella_nazionale"] is None
    assert [s["reason"] for s in r.result["scontri"]] == ["force"] * 6


def test_bella_force_in_a_summary() -> None:
    r = GAME.score(summary([(16, 10), (17, 10), (18, 10), (10, 16), (10, 16), (10, 16)]))
    assert r.result is not None
    assert r.result["bella_nazionale"] == {
        "winner": "tramontana",
        "reason": "force",
        "force": {"tramontana": 51, "mezzogiorno": 48},
        "figures": {"tramontana": 0, "mezzogiorno": 0},
    }
    assert r.result["winner"] == "tramontana"


def test_bella_figures_in_a_summary() -> None:
    s = summary([(18, 10), (18, 10), (18, 10), (10, 18), (10, 18), (10, 18)])
    s["scontri"][3]["mezzogiorno"]["figures"] = ["capitano"]
    r = GAME.score(s)
    assert r.result is not None
    assert r.result["bella_nazionale"]["reason"] == "figures"
    assert r.result["winner"] == "mezzogiorno"


def test_bella_corteo_in_a_summary() -> None:
    s = summary([(18, 10), (18, 10), (18, 10), (10, 18), (10, 18), (10, 18)], "mezzogiorno")
    r = GAME.score(s)
    assert r.result is not None
    assert r.result["bella_nazionale"]["reason"] == "corteo"
    assert r.result["winner"] == "mezzogiorno"


def test_bella_laid_needs_the_laid_force() -> None:
    s = summary([(18, 10), (18, 10), (18, 10), (10, 18), (10, 18), (10, 18)], bella_sums="laid")
    with pytest.raises(RecordError, match="laid"):
        GAME.score(s)
    for sc in s["scontri"]:
        for name in ("tramontana", "mezzogiorno"):
            sc[name]["laid_force"] = 9 if sc[name]["magistratura"] == "santa_maria" else 5
    r = GAME.score(s)
    assert r.result is not None
    assert r.result["bella_nazionale"]["force"] == {"tramontana": 19, "mezzogiorno": 15}


def test_battle_tie_figures_and_challenger_in_a_summary() -> None:
    s = summary([(15, 15), (15, 15), (18, 10), (18, 10), (18, 10), (18, 10)])
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
    s = summary([(18, 10)] * 6)
    s["scontri"].append(copy.deepcopy(s["scontri"][0]))
    r = GAME.score(s)
    assert not r.valid
    assert [v.rule for v in r.violations] == ["ergio.summary.scontri_max"]


def test_summary_magistratura_twice_is_refused() -> None:
    s = summary([(18, 10)] * 6)
    s["scontri"][2]["tramontana"]["magistratura"] = "santa_maria"
    r = GAME.score(s)
    assert [v.rule for v in r.violations] == ["ergio.summary.magistratura_twice"]


def test_summary_magistratura_side_is_checked() -> None:
    s = summary([(18, 10)] * 6)
    s["scontri"][0]["tramontana"]["magistratura"] = "leoni"
    r = GAME.score(s)
    assert "ergio.summary.magistratura_side" in [v.rule for v in r.violations]


def test_summary_a_side_missing_is_malformed() -> None:
    s = summary([(18, 10)] * 6)
    del s["scontri"][0]["mezzogiorno"]
    with pytest.raises(RecordError, match="no mezzogiorno side"):
        GAME.score(s)


def test_summary_challenger_is_checked() -> None:
    s = summary([(18, 10)] * 6)
    s["scontri"][1]["challenger"] = "mezzogiorno"
    r = GAME.score(s)
    assert [v.rule for v in r.violations] == ["ergio.summary.challenger"]


def test_summary_force_range() -> None:
    s = summary([(33, 10)] + [(18, 10)] * 5)
    r = GAME.score(s)
    assert [v.rule for v in r.violations] == ["ergio.summary.force_range"]


def test_summary_cards_give_the_force_and_a_mismatch_is_reported() -> None:
    s = summary([(18, 10)] * 6)
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
    s = summary([(18, 10)] * 6)
    s["scontri"] = s["scontri"][:3]
    r = GAME.score(s)
    assert r.result is not None
    assert r.result["winner"] is None and r.result["complete"] is False
    s["scontri"] = summary([(18, 10)] * 6)["scontri"][:4]
    r = GAME.score(s)
    assert r.result is not None
    assert r.result["winner"] == "tramontana"


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 18), st.integers(0, 18)), min_size=6, max_size=6),
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


def _one_scontro(force: int, figures: list[str], ruleset: Any) -> Any:
    s = summary([(force, 10)] + [(18, 10)] * 5)
    s["ruleset"] = ruleset
    s["scontri"][0]["tramontana"]["figures"] = figures
    return GAME.score(s)


@pytest.mark.parametrize(
    ("force", "figures", "ruleset"),
    [
        (21, [], "base"),  # three combattenti at most beside no figure: 7 + 6 + 5
        (19, [], "advanced"),
        (1, ["capitano"], "base"),  # the Capitano alone adds 5
        (1, ["capitano"], "advanced"),
        (9, ["capitano"], "base"),  # and its tris holds two combattenti, 2 and 3 at least
        (24, ["capitano"], "4p"),
        (23, ["caposchiera"], "base"),
        (4, ["magistrato"], "base"),
        (33, ["magistrato", "capitano", "caposchiera"], "base"),
    ],
)
def test_a_force_the_figures_cannot_reach_is_refused(
    force: int, figures: list[str], ruleset: str
) -> None:
    report = _one_scontro(force, figures, ruleset)
    assert [v.rule for v in report.violations] == ["ergio.summary.force_range"]
    assert report.violations[0].where == {"scontro": 1, "field": "t_force"}
    assert report.outcome is None


@pytest.mark.parametrize(
    ("force", "figures", "ruleset"),
    [
        (18, [], "base"),
        (0, [], "base"),  # a magistratura made on the spot from bluffs
        (10, ["capitano"], "base"),
        (5, ["capitano"], "advanced"),  # patches beside it, or its combattenti thinned
        (23, ["capitano"], "6p"),
        (22, ["caposchiera"], "ragazzi"),
        (32, ["magistrato"], "base"),
        (2, ["magistrato", "caposchiera"], "base"),
    ],
)
def test_a_force_the_figures_can_reach_is_accepted(
    force: int, figures: list[str], ruleset: str
) -> None:
    assert _one_scontro(force, figures, ruleset).valid


def test_the_force_bounds_are_those_the_cards_reach() -> None:
    """Every team the base game can send (a tris or four laid, never four combattenti, and
    what the figures admit face down; or two cards made on the spot), its force counted by
    the battle's own arithmetic: the least and most per laid figures are the bounds."""
    from itertools import combinations

    from games.ergio import battle as B
    from games.ergio import cards as C
    from games.ergio.scoring import FORCE_BOUNDS

    mag = C.MAG_BY_NAME["santa_maria"]
    own = list(C.mag_cards(mag))
    # every force a card under the Magistrato may count, and a bluff: one magistratura's
    # cards and the strongest of another (two reinforcements may both be 7s)
    sfr, sat = C.MAG_BY_NAME["san_francesco"], C.MAG_BY_NAME["satiri"]
    others = [*C.mag_cards(sfr), C.card_of(sat, 8)]
    under_mag = [()] + [(c,) for c in others] + list(combinations(others, 2))
    seen: dict[int, set[int]] = {}
    for n in (3, 4):
        for laid in combinations(own, n):
            if n == 4 and all(C.IS_FIGHTER[c] for c in laid):
                continue
            mask = C.figures_mask(laid)
            rest = [c for c in own if c not in laid]
            for below in under_mag if mask & 1 else [()]:
                for csc in [(), *((c,) for c in rest)] if mask & 4 else [()]:
                    force, mask, _ = B.plain_force(B.Sent(mag, laid, below, csc))
                    seen.setdefault(mask, set()).add(force)
    for spot in [(), *((c,) for c in own), *combinations(own, 2)]:
        seen[0].add(B.plain_force(B.Sent(mag, (), (), (), spot))[0])
    assert {m: (min(f), max(f)) for m, f in seen.items()} == dict(enumerate(FORCE_BOUNDS[False]))
    assert max(most for _, most in FORCE_BOUNDS[False]) == B.MAX_FORCE


@pytest.mark.parametrize("name", ["base", "advanced", "ragazzi", "4p", "6p"])
def test_every_scontro_a_real_game_plays_is_within_the_bounds(name: str) -> None:
    from games.core import RandomBot
    from games.ergio.game import HeuristicBot
    from games.ergio.scoring import FORCE_BOUNDS, LAID_BOUNDS

    ruleset: Any = GAME.ruleset(name)
    scontri = 0
    for seed in range(8):
        state: Any = GAME.new_game(ruleset, seed)
        kind: Any = HeuristicBot if seed % 2 else RandomBot
        bots = [kind(seed * 5 + i) for i in range(ruleset.seats)]
        while (seat := state.to_act()) is not None:
            state.apply_unchecked(seat, bots[seat].choose(state, seat))
        for f in state.facts:
            for side in f.sides:
                least, most = FORCE_BOUNDS[ruleset.advanced][side.mask]
                assert least <= side.force <= most, (name, seed, side)
                least, most = LAID_BOUNDS[ruleset.advanced][side.mask]
                assert least <= side.laid_force <= most, (name, seed, side)
                scontri += 1
        assert GAME.score(state.summary(), name).valid
    assert scontri > 40


def _won(pattern: str, **rs: Any) -> dict[str, Any]:
    """A summary whose scontri are won as ``pattern`` says (t Tramontana, m Mezzogiorno)."""
    return summary([(18, 10) if w == "t" else (10, 18) for w in pattern], **rs)


@pytest.mark.parametrize("all_six", [True, False])
def test_a_summary_ends_where_the_match_ends(all_six: bool) -> None:
    five_nil = GAME.score(_won("ttttt", all_six=all_six))
    assert [v.rule for v in five_nil.violations] == ["ergio.summary.match_end"]
    assert five_nil.violations[0].where == {"scontro": 5}
    assert five_nil.outcome is None
    for stops in ("tttt", "mtttt", "mmtttt", "tttmmm"):
        report = GAME.score(_won(stops, all_six=all_six))
        assert report.valid, (stops, report.violations)
    all_of_them = GAME.score(_won("ttttmm", all_six=all_six))
    assert all_of_them.valid is all_six
    assert all_of_them.valid or all_of_them.violations[0].rule == "ergio.summary.match_end"


def test_the_notation_example_summary_is_accepted() -> None:
    import json
    from pathlib import Path

    text = (Path(__file__).parents[3] / "docs/notation/ergio.md").read_text(encoding="utf-8")
    example = text.split("## Summary", 1)[1].split("```json", 1)[1].split("```", 1)[0]
    report = GAME.score(json.loads(example))
    assert report.valid, report.violations
    assert report.result is not None
    assert report.result["bella_nazionale"]["force"] == {"tramontana": 58, "mezzogiorno": 46}


@settings(max_examples=150, deadline=None)
@given(
    st.integers(0, 7),
    st.integers(-3, 40),
    st.sampled_from(["base", "advanced", "ragazzi", "4p"]),
)
def test_a_force_is_accepted_exactly_within_its_figures_bounds(
    mask: int, force: int, ruleset: str
) -> None:
    from games.ergio import battle as B
    from games.ergio.scoring import FORCE_BOUNDS

    least, most = FORCE_BOUNDS[GAME.ruleset(ruleset).advanced][mask]
    report = _one_scontro(force, B.mask_names(mask), ruleset)
    assert report.valid is (least <= force <= most), (mask, force, report.violations)


@pytest.mark.parametrize(
    ("laid", "force", "figures", "ruleset"),
    [
        (19, 18, [], "base"),  # three combattenti at most are laid beside no figure
        (19, 25, ["magistrato"], "base"),
        (13, 20, ["magistrato", "capitano", "caposchiera"], "advanced"),
        (4, 12, ["capitano"], "advanced"),  # a laid Capitano is 5 at least
    ],
)
def test_a_laid_force_the_figures_cannot_reach_is_refused(
    laid: int, force: int, figures: list[str], ruleset: str
) -> None:
    s = summary([(18, 10)] * 6)
    s["ruleset"] = {"name": ruleset, "bella_sums": "laid"}
    for sc in s["scontri"]:
        for name in ("tramontana", "mezzogiorno"):
            sc[name]["laid_force"] = 10
    s["scontri"][0]["tramontana"].update(force=force, figures=figures, laid_force=laid)
    report = GAME.score(s)
    assert [v.rule for v in report.violations] == ["ergio.summary.force_range"]
    assert report.violations[0].where == {"scontro": 1, "field": "t_laid_force"}
