"""The parts every engine builds the same way (docs/architecture.md, "One engine skeleton")."""

from __future__ import annotations

import ast
import importlib
import random
from enum import StrEnum
from pathlib import Path
from typing import Any

import pytest

from games.core import NOTATION_VERSION, RecordError, registry

# where each game keeps the state whose flow has phases (San Marco's board runs in flow.py)
STATE_MODULE = {
    "tarocco": ("games.tarocco.state", None),
    "ergio": ("games.ergio.state", None),
    "ponte": ("games.ponte.state", None),
    "sanmarco": ("games.sanmarco.flow", "base3"),
    "cardchess": ("games.cardchess.state", None),
}


def test_every_product_game_is_listed() -> None:
    assert set(STATE_MODULE) == set(registry.installed())


@pytest.mark.parametrize("slug", sorted(STATE_MODULE))
def test_phase_is_a_str_enum_and_a_game_walks_through_its_members(slug: str) -> None:
    module_name, preset = STATE_MODULE[slug]
    phase_type: Any = importlib.import_module(module_name).Phase
    assert issubclass(phase_type, StrEnum)
    values = [p.value for p in phase_type]
    assert len(set(values)) == len(values) and "over" in values

    game = registry.get(slug)
    state = game.new_game(game.ruleset(preset), seed=7)
    rng = random.Random(11)
    seen = set()
    for _ in range(game.info.max_actions):
        assert isinstance(state.phase, phase_type)
        seen.add(state.phase)
        view = state.view(None)
        if "phase" in view:  # a view speaks plain strings
            assert type(view["phase"]) is str and view["phase"] == state.phase.value
        seat = state.to_act()
        if seat is None:
            break
        state.apply_unchecked(seat, rng.choice(state.legal_actions(seat)))
    assert state.is_over() and state.phase == "over"
    assert len(seen) >= 2


@pytest.mark.parametrize("slug", sorted(STATE_MODULE))
def test_every_game_reads_the_notation_version_and_refuses_another(slug: str) -> None:
    game = registry.get(slug)
    _, preset = STATE_MODULE[slug]
    record = game.new_game(game.ruleset(preset), seed=3).to_record()
    assert record["version"] == NOTATION_VERSION
    assert game.validate(record).violations == ()
    unversioned = {k: v for k, v in record.items() if k != "version"}
    game.start(unversioned)  # written before versions: read as the current one
    for wrong in (NOTATION_VERSION + 1, 0, str(NOTATION_VERSION), True, None, [1]):
        for read in (game.start, game.validate):
            with pytest.raises(RecordError) as caught:
                read({**record, "version": wrong})
            assert caught.value.path == "version"
            assert f"reads version {NOTATION_VERSION}" in str(caught.value)
    with pytest.raises(RecordError) as caught:
        game.start({**record, "game": "chess"})
    assert caught.value.path == "game"


def test_engines_say_a_rule_was_broken_only_through_rule_broken() -> None:
    """``violation()`` is the core's own builder; engines call ``rule_broken`` (one argument
    order: book, rule id, Italian, English, then where)."""
    root = Path(__file__).resolve().parents[2] / "games"
    offenders = []
    for path in sorted(root.rglob("*.py")):
        if path.parent.name == "core":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("games.core"):
                names = {alias.name for alias in node.names}
                if "violation" in names:
                    offenders.append(f"{path.relative_to(root)}:{node.lineno}")
    assert offenders == []
