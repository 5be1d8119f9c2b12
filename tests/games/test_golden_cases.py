"""Every game's golden files say what they are: a case transcribed from the game's rule text
(``source``: where in ../shared/rules/ and what it says, in our words), or a regression
record the engine wrote itself (``regression``), which holds the engine only to its own
past. Each game has at least one case from its rule text; the summaries transcribed so
(golden/rules/) score as the text says."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from games.core import registry

HERE = Path(__file__).parent
GOLDEN = sorted(HERE.glob("*/golden/**/*.json"))
FROM_THE_RULES = sorted(HERE.glob("*/golden/rules/*.json"))


def _read(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("path", GOLDEN, ids=[str(p.relative_to(HERE)) for p in GOLDEN])
def test_a_golden_file_says_whether_the_rule_text_or_the_engine_made_it(path: Path) -> None:
    data = _read(path)
    assert ("source" in data) != ("regression" in data), path
    said = data.get("source") or data.get("regression")
    assert isinstance(said, str) and len(said) > 40


@pytest.mark.parametrize("slug", registry.installed())
def test_every_game_has_a_golden_case_transcribed_from_its_rule_text(slug: str) -> None:
    cases = [p for p in GOLDEN if p.relative_to(HERE).parts[0] == slug and "source" in _read(p)]
    assert cases, f"{slug} has no golden case from its rule text"


@pytest.mark.parametrize(
    "path", FROM_THE_RULES, ids=[str(p.relative_to(HERE)) for p in FROM_THE_RULES]
)
def test_a_summary_transcribed_from_the_rule_text_scores_as_the_text_says(path: Path) -> None:
    case = _read(path)
    game = registry.get(path.relative_to(HERE).parts[0])
    report = game.score(case["summary"], case.get("ruleset"))
    assert report.violations == ()
    assert report.outcome is not None
    outcome = report.outcome.to_json()
    assert {k: outcome[k] for k in case["expect"]} == case["expect"]
    result = report.result or {}
    for key, value in case.get("expect_result", {}).items():
        if isinstance(value, dict):
            assert {k: result[key][k] for k in value} == value, key
        else:
            assert result[key] == value, key
