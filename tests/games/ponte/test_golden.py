"""Golden records: whole matches (a 3-3 decided by the tie breaker, a challenge decided on
types, six players in Incognito) replay to the same verdict and outcome."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.ponte import GAME

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_records_replay_to_the_recorded_outcome(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    verdict = GAME.validate(data["record"])
    assert verdict.valid and verdict.complete
    assert verdict.outcome is not None
    assert json.loads(json.dumps(verdict.outcome.to_json())) == data["outcome"]


def test_golden_set_covers_the_tie_breakers() -> None:
    outcomes = [json.loads(p.read_text(encoding="utf-8"))["outcome"] for p in GOLDEN]
    assert any(o["termination"] == "tie_breaker" for o in outcomes)
    assert any(c["by"] == "types" for o in outcomes for c in o["detail"]["challenges"])
