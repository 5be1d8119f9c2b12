"""`validate`: records replay to the same record and name what breaks the rules (an illegal
sheet, an unaffordable card, the big Attack, a magistratura used twice, a wrong carrello or
winner)."""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any

import pytest

from games.core import RandomBot, RecordError, play
from games.core.cli import main
from games.ponte import GAME


def played(name: str = "2p-base", seed: int = 1) -> dict[str, Any]:
    state = GAME.new_game(GAME.ruleset(name), seed)
    play(GAME, state, [RandomBot(seed * 5 + i) for i in range(state.ruleset.seats)])
    return json.loads(json.dumps(state.to_record()))


def first_index(record: dict[str, Any], key: str) -> int:
    return next(i for i, a in enumerate(record["actions"]) if key in a)


def rules(verdict: Any) -> list[str]:
    return [v.rule for v in verdict.violations]


@pytest.mark.parametrize("name", ["2p-base", "3p-advanced", "4p-expert", "6p-incognito"])
def test_records_round_trip_through_validate(name: str) -> None:
    record = played(name, 4)
    verdict = GAME.validate(record)
    assert verdict.valid and verdict.complete
    again = GAME.start(record)
    for raw in record["actions"]:
        seat, action = GAME.decode_step(raw, "actions")
        again.apply_unchecked(seat, action)
    assert again.to_record() == record


def test_power_base_values_an_illegal_sheet_is_named() -> None:
    record = played()
    record["actions"][0]["power"] = 100000
    assert "ponte.power.base_values" in rules(GAME.validate(record))


T_NAMES = ("calci", "calcesana", "mattaccini", "san_michele", "santa_maria", "satiri")
M_NAMES = ("delfini", "dragoni", "leoni", "san_marco", "san_martino", "sant_antonio")


def scripted(t_sheet: tuple[int, ...], tail: list[dict[str, Any]]) -> dict[str, Any]:
    """A 2p-advanced record: Tramontana's sheet as given, Mezzogiorno's fixed, then ``tail``."""
    m_sheet = (100000, 80000, 80000, 80000, 80000, 80000)
    actions: list[dict[str, Any]] = []
    for seat, names, sheet in ((0, T_NAMES, t_sheet), (1, M_NAMES, m_sheet)):
        actions += [
            {"seat": seat, "assign": n, "power": v} for n, v in zip(names, sheet, strict=True)
        ]
    for seat, names in ((0, T_NAMES), (1, M_NAMES)):
        actions += [{"seat": seat, "equip": n, "strategy": k} for k, n in enumerate(names)]
    return {
        "game": "ponte",
        "ruleset": {"name": "2p-advanced"},
        "deal": {"first": "tramontana"},
        "actions": actions + tail,
    }


def test_power_total_an_illegal_advanced_sheet_is_named() -> None:
    record = scripted((100000, 80000, 80000, 80000, 80000, 90000), [])
    assert "ponte.power.total" in rules(GAME.validate(record))


def test_fight_power_an_unaffordable_card_is_named() -> None:
    record = scripted(
        (10000, 110000, 95000, 95000, 95000, 95000),
        [
            {"seat": 0, "deploy": "calci", "quarter": None},
            {"seat": 1, "deploy": "dragoni", "quarter": None},
            {"seat": 0, "fight": "P15000", "strategy": None},
            {"seat": 1, "fight": "P5000", "strategy": None},
        ],
    )
    verdict = GAME.validate(record)
    assert rules(verdict) == ["ponte.fight.power"]
    assert verdict.violations[0].step == len(record["actions"]) - 2


def test_fight_big_attack_without_100000_is_named() -> None:
    record = scripted(
        (100000, 80000, 80000, 80000, 80000, 80000),
        [
            {"seat": 0, "deploy": "calcesana", "quarter": None},
            {"seat": 1, "deploy": "dragoni", "quarter": None},
            {"seat": 0, "fight": "A20000", "strategy": None},
            {"seat": 1, "fight": "P5000", "strategy": None},
        ],
    )
    verdict = GAME.validate(record)
    assert rules(verdict) == ["ponte.fight.big_attack"]
    assert not verdict.complete
    record["actions"][-4]["deploy"] = "calci"  # began with 100,000: allowed
    assert GAME.validate(record).valid


def test_deploy_once_a_magistratura_used_twice_is_named() -> None:
    record = played()
    deploys = [i for i, a in enumerate(record["actions"]) if "deploy" in a]
    # the challenger of the second challenge sends its first challenge's magistratura again
    first_t = record["actions"][deploys[0]]
    second = next(i for i in deploys[2:] if record["actions"][i]["seat"] == first_t["seat"])
    record["actions"][second]["deploy"] = first_t["deploy"]
    assert "ponte.deploy.once" in rules(GAME.validate(record))


def test_carrello_move_a_wrong_position_is_named() -> None:
    record = played()
    verdict = GAME.validate(record)
    assert verdict.outcome is not None
    real = verdict.outcome.detail["challenges"][0]
    positions = [m["carrello"] for m in real["moves"] if "carrello" in m]
    wrong = copy.deepcopy(record)
    wrong["claims"] = {"challenges": [{"carrello": [p + 1 for p in positions]}]}
    assert rules(GAME.validate(wrong)) == ["ponte.carrello.move"]
    right = copy.deepcopy(record)
    right["claims"] = {"challenges": [{"carrello": positions, "winner": real["winner"]}]}
    assert GAME.validate(right).valid


def test_carrello_move_positions_beyond_the_moves_played_are_refused() -> None:
    record = played()
    verdict = GAME.validate(record)
    assert verdict.outcome is not None
    real = verdict.outcome.detail["challenges"][0]
    positions = [m["carrello"] for m in real["moves"] if "carrello" in m]
    longer = copy.deepcopy(record)
    longer["claims"] = {"challenges": [{"carrello": [*positions, positions[-1]]}]}
    assert rules(GAME.validate(longer)) == ["ponte.carrello.move"]


def test_challenge_winner_a_wrong_winner_is_named() -> None:
    record = played()
    verdict = GAME.validate(record)
    assert verdict.outcome is not None
    real = verdict.outcome.detail["challenges"][0]
    other = "tramontana" if real["winner"] == "mezzogiorno" else "mezzogiorno"
    record["claims"] = {"challenges": [{"winner": other}], "winner": "nobody"}
    found = rules(GAME.validate(record))
    assert f"ponte.challenge.{real['by']}" in found
    assert "ponte.match.four" in found


def test_record_claimed_score_is_checked() -> None:
    record = played()
    record["claimed_scores"] = [0, 0]
    assert "ponte.record.claimed_score" in rules(GAME.validate(record))


def test_record_impossible_a_card_not_in_the_set_ends_the_replay() -> None:
    record = played()
    i = first_index(record, "fight")
    record["actions"][i]["fight"] = "A25000"
    verdict = GAME.validate(record)
    assert "ponte.record.impossible" in rules(verdict)
    assert verdict.steps == i


def test_malformed_records_say_what_to_fix() -> None:
    record = played()
    record["actions"][0]["assign"] = "pisa"
    with pytest.raises(RecordError, match="unknown magistratura"):
        GAME.validate(record)
    with pytest.raises(RecordError, match=r"deal\.first"):
        GAME.start({"ruleset": "2p-base", "deal": {"first": "nord"}})
    with pytest.raises(RecordError, match="fight card"):
        GAME.ruleset({"name": "2p-base", "fight_cards": ["X5000"]})


def test_cli_validate_and_selfplay(tmp_path: Path) -> None:
    out = io.StringIO()
    assert (
        main(
            [
                "ponte",
                "selfplay",
                "--ruleset",
                "4p-advanced",
                "--games",
                "3",
                "--bots",
                "heuristic",
            ],
            out,
        )
        == 0
    )
    path = tmp_path / "records.jsonl"
    path.write_text(out.getvalue(), encoding="utf-8")
    verdicts = io.StringIO()
    assert main(["ponte", "validate", str(path)], verdicts) == 0
    assert all(json.loads(x)["valid"] for x in verdicts.getvalue().splitlines())
