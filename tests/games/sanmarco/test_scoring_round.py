"""The scoring round (the playable state): turns, hidden entries, planted violations."""

from __future__ import annotations

from typing import Any

from games.sanmarco import GAME, Enter


def _record(actions: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {
        "game": "sanmarco",
        "version": 1,
        "ruleset": {"name": "variant3"},
        "deal": {"colours": [["bianco", "nero"], ["giallo", "blu"]]},
        "actions": actions,
        **extra,
    }


EXAMPLE = [
    {"seat": 0, "colour": 0, "points": 55},
    {"seat": 0, "colour": 1, "points": 66},
    {"seat": 1, "colour": 0, "points": 57},
    {"seat": 1, "colour": 1, "points": 61},
]


def test_the_rules_example_replays_to_58_and_59() -> None:
    verdict = GAME.validate(_record(EXAMPLE))
    assert verdict.valid and verdict.complete
    assert verdict.outcome is not None
    assert verdict.outcome.scores == (58, 59)
    assert verdict.outcome.winners == (1,)


def test_the_other_players_points_stay_hidden_until_both_have_written() -> None:
    state = GAME.start(_record([]))
    state.apply(0, Enter(0, 55))
    state.apply(0, Enter(1, 66))
    assert state.view(1)["entries"][0] == {"written": 2, "of": 2}
    state.apply(1, Enter(0, 57))
    assert state.view(0)["entries"][1] == {"written": 1, "of": 2}
    state.apply(1, Enter(1, 61))
    assert state.view(0)["entries"][1] == [57, 61]


def test_writing_out_of_turn_is_found() -> None:
    bad = [{"seat": 1, "colour": 0, "points": 57}, *EXAMPLE[:2], EXAMPLE[3]]
    verdict = GAME.validate(_record(bad))
    assert verdict.violations[0].rule == "sanmarco.entry.turn"


def test_colours_out_of_order_are_found() -> None:
    bad = [EXAMPLE[1], EXAMPLE[0], *EXAMPLE[2:]]
    verdict = GAME.validate(_record(bad))
    assert verdict.violations[0].rule == "sanmarco.entry.order"


def test_points_above_the_cap_are_found() -> None:
    bad = [{"seat": 0, "colour": 0, "points": 999}, *EXAMPLE[1:]]
    verdict = GAME.validate(_record(bad))
    assert [v.rule for v in verdict.violations] == ["sanmarco.entry.range"]


def test_a_wrong_claimed_score_is_found() -> None:
    verdict = GAME.validate(_record(EXAMPLE, claimed_scores=[60, 59]))
    assert [v.rule for v in verdict.violations] == ["sanmarco.record.claimed_score"]


def test_an_action_after_the_end_is_found() -> None:
    verdict = GAME.validate(_record([*EXAMPLE, EXAMPLE[0]]))
    assert [v.rule for v in verdict.violations] == ["sanmarco.record.game_over"]


def test_writing_a_colour_twice_is_impossible() -> None:
    verdict = GAME.validate(_record([EXAMPLE[0], EXAMPLE[0]]))
    assert verdict.violations[-1].rule == "sanmarco.record.impossible"


def test_records_round_trip() -> None:
    record = _record(EXAMPLE)
    state = GAME.start(record)
    for raw in record["actions"]:
        seat, action = GAME.decode_step(raw, "actions")
        state.apply(seat, action)
    assert state.to_record() == {**record, "ruleset": GAME.ruleset("variant3").to_json()}


def test_the_summary_forms_colours_are_named_in_the_readers_language() -> None:
    variant3 = GAME.summary_form(GAME.ruleset("variant3"))
    variant1 = GAME.summary_form(GAME.ruleset("variant1"))
    assert variant3 is not None and variant1 is not None
    labels = {f.name: f.label for f in variant3.fields() if f.name.startswith("p")}
    assert (labels["p0_0"].it, labels["p0_0"].en) == ("{name}: bianco", "{name}: white")
    assert (labels["p1_1"].it, labels["p1_1"].en) == ("{name}: blu", "{name}: blue")
    ghost = next(f.label for f in variant1.fields() if f.name == "ghost0")
    assert ghost.en == "Ghost colour read out by {name}: yellow"
    assert ghost.it == "Colore fantasma letto da {name}: giallo"
