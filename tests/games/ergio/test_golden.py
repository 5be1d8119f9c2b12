"""Golden records: full games written once, replayed to the same outcome by every version."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.ergio import GAME

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


def test_cli_validate_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from games.core.cli import main

    data = json.loads(GOLDEN[0].read_text(encoding="utf-8"))
    good = tmp_path / "good.json"
    good.write_text(json.dumps(data["record"]), encoding="utf-8")
    assert main(["ergio", "validate", str(good)]) == 0
    record = data["record"]
    record["actions"].insert(1, {"seat": 0, "end": True})
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record), encoding="utf-8")
    assert main(["ergio", "validate", str(bad)]) == 1
    out = capsys.readouterr().out.strip().splitlines()
    assert json.loads(out[-1])["violations"][0]["rule"].startswith("ergio.")
    broken = tmp_path / "broken.json"
    broken.write_text('{"game": "ergio", "deal": {"tramontana": ["XX-9"]}}', encoding="utf-8")
    assert main(["ergio", "validate", str(broken)]) == 2


def test_cli_score_refuses_seven_scontri(tmp_path: Path) -> None:
    from games.core.cli import main

    scontro = {
        "challenger": "tramontana",
        "tramontana": {"magistratura": "calci", "force": 10},
        "mezzogiorno": {"magistratura": "leoni", "force": 9},
    }
    path = tmp_path / "s.json"
    summary = {"corteo_winner": "tramontana", "scontri": [scontro] * 7}
    path.write_text(json.dumps(summary), encoding="utf-8")
    assert main(["ergio", "score", str(path)]) == 1
