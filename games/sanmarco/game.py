"""San Marco's declaration and factories (two-player variants; see docs/rules/sanmarco.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from games.core import Game, GameInfo, RecordError, ScoreReport, Text, rng
from games.sanmarco.rules import BOOK, RULE_CLAIMED, RULE_GAME_OVER, RULE_IMPOSSIBLE, SLUG
from games.sanmarco.scoring import score_summary
from games.sanmarco.state import DEFAULT_COLOURS, SLOTS, Enter, SanMarcoRuleset, ScoringRound

JSON = Any


class HeuristicBot:
    """Writes a plausible prestige total (a San Marco colour usually ends between 40 and 90)."""

    def __init__(self, seed: int) -> None:
        self._rng = rng(seed, "sanmarco-heuristic")

    def choose(self, state: Any, seat: int) -> Any:
        actions = state.legal_actions(seat)
        if not actions:
            raise RuntimeError(f"seat {seat} has no legal action")
        points = min(self._rng.randint(40, 90), len(actions) - 1)
        return actions[points]


class SanMarco(Game[SanMarcoRuleset, ScoringRound]):
    info: ClassVar[GameInfo] = GameInfo(
        slug=SLUG,
        name=Text("San Marco (varianti a due)", "San Marco (two-player variants)"),
        seat_counts=(2,),
        max_actions=4,
        hidden_information=True,
        chance=False,
        description=Text(
            "Il turno di punteggio finale delle varianti a due giocatori.",
            "The final scoring round of the two-player variants.",
        ),
    )
    rules = BOOK
    rulesets: ClassVar[Mapping[str, SanMarcoRuleset]] = {
        "variant3": SanMarcoRuleset("variant3", 2, variant=3),
        "variant1": SanMarcoRuleset("variant1", 2, variant=1),
        "variant2": SanMarcoRuleset("variant2", 2, variant=2),
    }
    default_ruleset = "variant3"
    bots: ClassVar[Mapping[str, Any]] = {"heuristic": HeuristicBot}
    rule_game_over = RULE_GAME_OVER
    rule_impossible = RULE_IMPOSSIBLE
    rule_claimed_score = RULE_CLAIMED

    def check_ruleset(self, ruleset: SanMarcoRuleset) -> None:
        if ruleset.variant not in SLOTS:
            raise RecordError("expected 1, 2 or 3", path="ruleset.variant")
        if ruleset.max_points < 0:
            raise RecordError("expected zero or more", path="ruleset.max_points")

    def new_game(self, ruleset: SanMarcoRuleset, seed: int) -> ScoringRound:
        return ScoringRound(ruleset, DEFAULT_COLOURS[ruleset.variant])

    def start(self, record: Mapping[str, JSON]) -> ScoringRound:
        ruleset = self.ruleset(record.get("ruleset"))
        deal = record.get("deal")
        if deal is None:
            return self.new_game(ruleset, 0)
        if not isinstance(deal, Mapping) or not isinstance(deal.get("colours"), list):
            raise RecordError('expected {"colours": [[...], [...]]}', path="deal")
        raw = deal["colours"]
        slots = SLOTS[ruleset.variant]
        if len(raw) != 2 or any(
            not isinstance(c, list) or len(c) != slots or not all(isinstance(x, str) for x in c)
            for c in raw
        ):
            raise RecordError(
                f"expected two seats, each a list of {slots} colour names", path="deal.colours"
            )
        return ScoringRound(ruleset, tuple(tuple(c) for c in raw))

    def encode_action(self, action: Any) -> dict[str, JSON]:
        return {"colour": action.colour, "points": action.points}

    def decode_action(self, data: Any, path: str = "actions") -> Enter:
        if not isinstance(data, Mapping):
            raise RecordError('expected {"colour": i, "points": n}', path=path)
        values = []
        for key in ("colour", "points"):
            v = data.get(key)
            if isinstance(v, bool) or not isinstance(v, int):
                raise RecordError(f"expected a whole number for {key!r}", path=f"{path}.{key}")
            values.append(v)
        return Enter(values[0], values[1])

    def score(self, summary: Mapping[str, JSON]) -> ScoreReport:
        if not isinstance(summary, Mapping):
            raise RecordError("a summary is a JSON object")
        result, found = score_summary(summary)
        return ScoreReport(SLUG, result, tuple(found))
