"""Golden records: full games written once, replayed to the same outcome by every version."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.cardchess import GAME

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_a_golden_record_replays_to_its_outcome(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    verdict = GAME.validate(data["record"])
    assert verdict.valid and verdict.complete
    assert verdict.outcome is not None
    assert verdict.outcome.to_json() == data["outcome"]
    state = GAME.start(data["record"])
    for raw in data["record"]["actions"]:
        state.apply(*GAME.decode_step(raw, "actions"))
    written = {k: v for k, v in data["record"].items() if k != "claimed_scores"}
    assert state.to_record() == written
