"""Golden files transcribed by hand from the examples of the two-player variants text
(tests/games/sanmarco/golden/): a position, the actions played from it, what must follow."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from games.sanmarco import GAME
from games.sanmarco.board import DISTRICTS
from tests.games.sanmarco.helpers import check_invariants, plain_python_only, position

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))
# a position's example rolls the dice the text gives, by replacing the chance's die
CASES = [
    pytest.param(p, id=p.stem, marks=[plain_python_only] if '"dice"' in p.read_text() else [])
    for p in GOLDEN
]


@pytest.mark.parametrize("path", CASES)
def test_the_variants_examples_come_out_as_the_text_says(path: Path) -> None:
    case: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    expect = case["expect"]
    if "summary" in case:
        result = GAME.score(case["summary"]).result
        assert result is not None
        assert {k: result[k] for k in expect} == expect
        return
    state = position(case["ruleset"], case["position"])
    dice = list(case.get("dice", []))
    if dice:
        roll = state.chance.die
        state.chance.die = lambda: dice.pop(0) if dice else roll()  # type: ignore[method-assign]
    for raw in case["actions"]:
        seat, action = GAME.decode_step(raw, "actions")
        state.apply(seat, action)
    assert not dice, "every die of the example is used"
    check_invariants(state)
    if "score" in expect:
        assert state.score == expect["score"]
    if "doge" in expect:
        assert DISTRICTS[state.doge] == expect["doge"]
    for name, counts in expect.get("cubes", {}).items():
        assert state.cubes[DISTRICTS.index(name)] == counts, name
    for key in ("passage", "phase"):
        if key in expect:
            assert getattr(state, key) == expect[key]
