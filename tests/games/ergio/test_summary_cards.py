"""A summary's cards (ergio.summary.cards): whatever a real game lays and slips face down
passes, and what no game can give is refused with the rule."""

from __future__ import annotations

from typing import Any

import pytest

from games.core import RandomBot
from games.ergio import GAME
from games.ergio import cards as C
from games.ergio.battle import Sent
from games.ergio.game import HeuristicBot
from games.ergio.scoring import _card_problems, _Read


def _scontri_of(name: str, seed: int) -> list[tuple[Sent, Sent]]:
    """Every scontro of a seeded bot game, as the two sides' cards on the bridge (what the
    state keeps of each scontro it resolved, for its view)."""
    state: Any = GAME.new_game(GAME.ruleset(name), seed)
    kind: Any = HeuristicBot if seed % 2 else RandomBot
    bots = [kind(seed * 7 + i) for i in range(state.ruleset.seats)]
    for _ in range(GAME.info.max_actions):
        seat = state.to_act()
        if seat is None:
            break
        state.apply_unchecked(seat, bots[seat].choose(state, seat))
    assert state.is_over()
    seen: list[tuple[Sent, Sent]] = [sides for sides, _, _ in state._fought]
    assert len(seen) == len(state.facts)  # one for every scontro resolved
    return seen


@pytest.mark.parametrize("name", ["base", "advanced", "4p", "6p"])
def test_every_scontro_a_real_game_plays_passes_the_card_checks(name: str) -> None:
    scontri = 0
    for seed in range(12):
        for sides in _scontri_of(name, seed):
            for side, sent in enumerate(sides):
                read = _Read(sent.mag, None, C.figures_mask(sent.laid), sent, None)
                assert _card_problems(read, side) == [], (name, seed, sent)
            scontri += 1
    assert scontri > 30


def _named(*codes: str) -> list[str]:
    return list(codes)


def _score(tramontana: dict[str, Any]) -> list[str]:
    summary = {
        "corteo_winner": "tramontana",
        "scontri": [
            {
                "challenger": "tramontana",
                "tramontana": {"magistratura": "satiri", **tramontana},
                "mezzogiorno": {"magistratura": "leoni", "force": 3},
            }
        ],
    }
    report = GAME.score(summary, "base")
    return [v.rule for v in report.violations if v.rule == "ergio.summary.cards"]


def _card(mag: str, rank: int) -> str:
    key = C.MAG_BY_NAME[mag]
    return C.describe([C.card_of(key, rank)])[0]


def test_a_summary_refuses_cards_no_game_can_give() -> None:
    satiri = [_card("satiri", r) for r in range(9)]  # 0..2 figures, 3..8 combattenti
    leoni = _card("leoni", 8)
    calci = _card("calci", 8)
    magistrato, caposchiera = satiri[0], satiri[2]
    fine = {"laid": [magistrato, satiri[7], satiri[8]], "magistrato": [calci]}
    assert _score(fine) == []
    refused = [
        {"laid": [magistrato, satiri[7], leoni]},  # the other side's card
        {"laid": [magistrato, satiri[7], satiri[7]]},  # a card twice
        {"laid": satiri[5:9]},  # four combattenti
        {"laid": [satiri[7], satiri[8], calci]},  # another magistratura's card laid
        {"laid": [satiri[6], satiri[7], satiri[8]], "magistrato": [calci]},  # no Magistrato
        {"laid": [magistrato, satiri[7], satiri[8]], "figures": ["capitano"]},  # figures beside
    ]
    refused += [
        {
            "laid": [magistrato, satiri[7], satiri[8]],
            "magistrato": [calci, _card("delfini", 8), calci],
        },
        {"laid": [caposchiera, satiri[7], satiri[8]], "caposchiera": [satiri[3], satiri[4]]},
        {"laid": [magistrato, satiri[7], satiri[8]], "spot": [satiri[3]]},
    ]
    # a bluff: a card the figure does not count may lie face down and counts nothing
    bluff = {"laid": [caposchiera, satiri[7], satiri[8]], "caposchiera": [calci]}
    assert _score(bluff) == []
    for written in refused:
        assert set(_score(written)) == {"ergio.summary.cards"}, written


def _two_scontri(first: dict[str, Any], second: dict[str, Any], ruleset: str = "base") -> list:
    summary = {
        "corteo_winner": "tramontana",
        "scontri": [
            {
                "challenger": "tramontana",
                "tramontana": {"magistratura": "satiri", **first},
                "mezzogiorno": {"magistratura": "leoni", "force": 3},
            },
            {
                "challenger": "tramontana",
                "tramontana": {"magistratura": "calci", **second},
                "mezzogiorno": {"magistratura": "dragoni", "force": 3},
            },
        ],
    }
    report = GAME.score(summary, ruleset)
    return [(v.rule, v.where.get("scontro")) for v in report.violations]


def test_a_summary_refuses_more_cards_than_the_side_holds() -> None:
    satiri = [_card("satiri", r) for r in range(9)]
    calci = [_card("calci", r) for r in range(9)]
    first = {"laid": [satiri[0], satiri[7], satiri[8]], "magistrato": [calci[8]]}
    # the Calci's 7 already fought under the Satiri's Magistrato: no second copy exists
    again = {"laid": [calci[0], calci[7], calci[8]]}
    assert _two_scontri(first, again) == [("ergio.summary.cards", 2)]
    other = {"laid": [calci[0], calci[6], calci[7]]}
    assert _two_scontri(first, other) == []
    # six Celatini a side: the same code may come back while copies are left
    cel = "T-CEL"
    two = {"laid": [satiri[0], satiri[7], satiri[8]], "magistrato": [cel, cel]}
    more = {"laid": [calci[0], calci[7], calci[8]], "magistrato": [cel, cel]}
    assert _two_scontri(two, more) == []
    # a special card is in the pack only in the advanced game
    general = {"laid": [calci[0], calci[6], calci[7]], "magistrato": ["T-GEN"]}
    assert _two_scontri(first, general) == [("ergio.summary.cards", 2)]
    assert ("ergio.summary.cards", 2) not in _two_scontri(first, general, "advanced")


def test_a_card_twice_in_one_scontro_is_refused_once() -> None:
    satiri = [_card("satiri", r) for r in range(9)]
    twice = {"laid": [satiri[0], satiri[7], satiri[7]]}
    calci = [_card("calci", r) for r in range(9)]
    assert _two_scontri(twice, {"laid": [calci[0], calci[7], calci[8]]}) == [
        ("ergio.summary.cards", 1)
    ]
