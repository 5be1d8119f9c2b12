"""Golden records: whole smazzate (solo, hidden and open pairs, a taken offer) replayed to the
verdict stored beside them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.tarocco import GAME

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_record_replays_to_its_verdict(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    verdict = GAME.validate(data["record"])
    assert verdict.valid and verdict.complete
    assert verdict.outcome is not None
    assert verdict.outcome.to_json() == data["outcome"]
    replayed = GAME.start(data["record"])
    for raw in data["record"]["actions"]:
        replayed.apply(*GAME.decode_step(raw, "actions"))
    record = {k: v for k, v in data["record"].items() if k != "claimed_scores"}
    assert replayed.to_record() == record


def test_golden_hands_cover_every_way_a_played_hand_ends() -> None:
    assert {p.stem for p in GOLDEN} >= {"solo", "pairs_hidden", "pairs_open", "offer"}
