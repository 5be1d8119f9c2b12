"""Variant 3's finals and winner written on a summary are checked against the rules: a wrong
final breaks sanmarco.v3.final, a wrong winner at level finals sanmarco.v3.tie_break."""

from __future__ import annotations

import pytest

from games.core import RecordError, registry

GAME = registry.get("sanmarco")


def rules(summary: dict) -> list[str]:
    return [v.rule for v in GAME.score(summary, "variant3").violations]


def test_the_worked_example_written_right_breaks_nothing() -> None:
    summary = {"variant": 3, "points": [[55, 66], [57, 61]], "final": [58, 59], "winner": 1}
    assert rules(summary) == []


def test_a_final_written_without_the_gap_deduction_breaks_the_final_rule() -> None:
    # 55/66: mean 60, eleven apart takes two off: 58, not 60.
    summary = {"variant": 3, "points": [[55, 66], [57, 61]], "final": [60, 59]}
    assert rules(summary) == ["sanmarco.v3.final"]


def test_a_winner_written_against_the_tie_break_breaks_the_tie_break_rule() -> None:
    # Both finals 52; the second player's weaker colour (52) beats the first's (50).
    summary = {"variant": 3, "points": [[50, 54], [52, 52]], "winner": 0}
    assert rules(summary) == ["sanmarco.v3.tie_break"]
    summary["winner"] = None
    assert rules(summary) == ["sanmarco.v3.tie_break"]


def test_a_tie_that_stands_is_written_as_no_winner() -> None:
    summary = {"variant": 3, "points": [[52, 52], [52, 52]], "winner": None}
    assert rules(summary) == []
    report = GAME.score(summary, "variant3")
    assert report.outcome is not None and report.outcome.winners == ()


def test_a_field_the_variant_does_not_use_is_refused() -> None:
    with pytest.raises(RecordError) as caught:
        GAME.score({"variant": 3, "points": [[50, 54], [52, 52]], "ghosts": [1, 2]}, "variant3")
    assert caught.value.path == "ghosts"


@pytest.mark.parametrize(
    ("ruleset", "summary", "path"),
    [
        ("variant3", {"variant": 3, "points": [[50, 54], [52, 52]], "neutral": 4}, "neutral"),
        ("variant1", {"variant": 1, "points": [50, 54], "final": [50, 54]}, "final"),
        ("variant2", {"variant": 2, "points": [50, 54], "ghosts": [1, 2]}, "ghosts"),
        ("base4", {"players": 4, "points": [50, 54, 40, 30], "winner": 0}, "winner"),
        (
            "variant2",
            {"variant": 2, "points": [50, 54], "passages": [{"limits": [10, 4], "bonus2": 1}]},
            "passages[0].bonus2",
        ),
    ],
)
def test_a_summary_refuses_a_field_it_does_not_use(
    ruleset: str, summary: dict[str, object], path: str
) -> None:
    with pytest.raises(RecordError) as caught:
        GAME.score(summary, ruleset)
    assert caught.value.path == path
