"""Punti, a small game registered for the ledger's tests (never installed in the product).

Each seat writes its points in turn; the most points win, equal points share the place. Its
summary is the points themselves (``{"scores": [...]}``, ``plain_scores``), so a test types
any result it needs, and the ledger still scores it through an engine and reads its Outcome,
as it does for the five games: no test needs to hide a real engine to type free points."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from games.core import (
    Game,
    GameInfo,
    Outcome,
    RandomBot,
    RecordError,
    RuleBook,
    Ruleset,
    ScoreReport,
    State,
    Text,
    Violation,
    places_by,
    violation,
)
from games.core.verdict import JSON

SLUG = "punti"
BOOK = RuleBook(
    SLUG,
    {
        "punti.turn": ("Si scrive al proprio turno.", "One writes on one's own turn."),
        "punti.range": ("Punti entro un miliardo.", "Points within a billion."),
        "punti.game_over": ("La partita è finita.", "The game is over."),
        "punti.impossible": ("Azione impossibile.", "Impossible action."),
        "punti.claimed": ("Punti scritti diversi.", "Other points written."),
    },
)
#: The points a bot may write (a person may write any whole number in the range).
BOT_POINTS = (0, 1, 2, 3, 5, 8)
LIMIT = 10**9  # the ledger's own bound on a score


@dataclass(frozen=True)
class PointsRuleset(Ruleset):
    pass


def _outcome(scores: Sequence[Any]) -> Outcome:
    best = max(scores)
    winners = tuple(i for i, s in enumerate(scores) if s == best)
    if len(winners) == len(scores):
        winners = ()
    return Outcome(tuple(scores), "points", winners, places=places_by(scores))


class PointsState(State):
    def __init__(self, ruleset: PointsRuleset) -> None:
        self.ruleset = ruleset
        self.scores: list[int] = []

    def to_act(self) -> int | None:
        return None if self.is_over() else len(self.scores)

    def legal_actions(self, seat: int) -> Sequence[Any]:
        return BOT_POINTS if seat == self.to_act() else ()

    def check(self, seat: int, action: Any) -> list[Violation]:
        found = []
        if seat != self.to_act():
            found.append(violation(BOOK, "punti.turn", seat=seat))
        if isinstance(action, bool) or not isinstance(action, int) or abs(action) > LIMIT:
            found.append(violation(BOOK, "punti.range", seat=seat))
        return found

    def apply_unchecked(self, seat: int, action: Any) -> None:
        if self.is_over():
            raise RecordError("the game is over")
        self.scores.append(int(action))

    def is_over(self) -> bool:
        return len(self.scores) == self.ruleset.seats

    def outcome(self) -> Outcome:
        if not self.is_over():
            raise ValueError("not over")
        return _outcome(self.scores)

    def view(self, seat: int | None) -> dict[str, JSON]:
        return {"scores": list(self.scores)}

    def to_record(self) -> dict[str, JSON]:
        return {
            "game": SLUG,
            "ruleset": self.ruleset.to_json(),
            "actions": [{"seat": i, "points": p} for i, p in enumerate(self.scores)],
        }

    def summary(self) -> dict[str, JSON]:
        return {"scores": list(self.scores)}


class PointsGame(Game[PointsRuleset, PointsState]):
    info = GameInfo(
        slug=SLUG,
        name=Text("Punti", "Points"),
        seat_counts=(2, 3, 4, 5, 6),
        max_actions=6,
        hidden_information=False,
        chance=False,
        hand=Text("mano", "hand"),
        hands=Text("mani", "hands"),
    )
    rules = BOOK
    rulesets: ClassVar[Mapping[str, Any]] = {
        f"{n}p": PointsRuleset(f"{n}p", n) for n in (2, 3, 4, 5, 6)
    }
    default_ruleset = "2p"
    bots: ClassVar[Mapping[str, Any]] = {"random": RandomBot}
    plain_scores = True
    # Ranked by the points themselves, then games won (as San Marco and cardChess are).
    standings_defaults: ClassVar[Mapping[str, Any] | None] = {
        "win": "1",
        "draw": "0.5",
        "loss": "0",
        "order": ["points", "wins"],
    }
    rule_game_over = "punti.game_over"
    rule_impossible = "punti.impossible"
    rule_claimed_score = "punti.claimed"

    def new_game(self, ruleset: PointsRuleset, seed: int) -> PointsState:
        return PointsState(ruleset)

    def start(self, record: Mapping[str, JSON]) -> PointsState:
        return PointsState(self.ruleset(record.get("ruleset")))  # type: ignore[arg-type]

    def encode_action(self, action: Any) -> dict[str, JSON]:
        return {"points": int(action)}

    def decode_action(self, data: Any, path: str = "actions") -> Any:
        points = data.get("points") if isinstance(data, Mapping) else None
        if isinstance(points, bool) or not isinstance(points, int):
            raise RecordError("expected the seat's points, a whole number", path=path)
        return points

    def ruleset_named_by(self, summary: Mapping[str, JSON]) -> str | None:
        scores = summary.get("scores")
        return f"{len(scores)}p" if isinstance(scores, list) else None

    def score(
        self, summary: Mapping[str, JSON], ruleset: str | Mapping[str, JSON] | None = None
    ) -> ScoreReport:
        # Any table size: the points written say how many seats there are.
        if isinstance(summary, Mapping) and not summary.get("ruleset"):
            return self.score_summary(summary, self.ruleset(self.ruleset_named_by(summary)))
        return super().score(summary, ruleset)

    def score_summary(self, summary: Mapping[str, JSON], ruleset: PointsRuleset) -> ScoreReport:
        scores = summary.get("scores")
        if not isinstance(scores, list) or len(scores) != ruleset.seats:
            raise RecordError(f"expected {ruleset.seats} whole numbers", path="scores")
        if any(isinstance(s, bool) or not isinstance(s, (int, float)) for s in scores):
            raise RecordError("expected numbers", path="scores")
        found = [violation(BOOK, "punti.range") for s in scores if abs(s) > LIMIT]
        if found:
            return ScoreReport(SLUG, None, tuple(found))
        return ScoreReport(SLUG, {"scores": list(scores)}, (), _outcome(scores))


GAME = PointsGame()
