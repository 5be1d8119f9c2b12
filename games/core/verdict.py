"""Violations, outcomes and verdicts: what an engine says about a game or a summary."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games.core.rules import RuleBook
from games.core.text import Text

JSON = Any


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken rule: which rule, where in the record, and why, in both languages.

    ``step`` is the index of the offending action in the record (None for a summary or for
    something wrong with the record as a whole); ``where`` carries game-specific places
    such as ``{"trick": 3}`` or ``{"scontro": 2}``.
    """

    rule: str
    message: Mapping[str, str]
    step: int | None = None
    seat: int | None = None
    where: Mapping[str, JSON] = field(default_factory=dict)

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {"rule": self.rule, "message": dict(self.message)}
        if self.step is not None:
            out["step"] = self.step
        if self.seat is not None:
            out["seat"] = self.seat
        if self.where:
            out["where"] = dict(self.where)
        return out

    def at(self, step: int | None = None, **where: JSON) -> Violation:
        """The same violation placed at a step of a record."""
        return Violation(
            self.rule,
            self.message,
            step if step is not None else self.step,
            self.seat,
            {**self.where, **where},
        )


def violation(
    book: RuleBook,
    rule_id: str,
    detail: Text | None = None,
    *,
    seat: int | None = None,
    step: int | None = None,
    **where: JSON,
) -> Violation:
    """Build a violation whose message is the rule's paraphrase plus what happened."""
    rule = book[rule_id]
    if detail is None:
        message = rule.text.as_dict()
    else:
        message = {
            "it": f"{rule.text.it} {detail.it}".strip(),
            "en": f"{rule.text.en} {detail.en}".strip(),
        }
    return Violation(rule_id, message, step, seat, where)


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game came out.

    ``scores`` has one entry per seat (the points the ledger records); ``termination`` says
    why the game ended (one value of the game's Termination enum); ``winners`` lists the
    winning seats (empty for a draw or a game without winners, such as an abandoned deal);
    ``detail`` holds game-specific facts (card points, scontri, gold cards...).
    """

    scores: tuple[int, ...]
    termination: str
    winners: tuple[int, ...] = ()
    detail: Mapping[str, JSON] = field(default_factory=dict)

    def to_json(self) -> dict[str, JSON]:
        return {
            "scores": list(self.scores),
            "termination": self.termination,
            "winners": list(self.winners),
            "detail": dict(self.detail),
        }


@dataclass(frozen=True, slots=True)
class Verdict:
    """The replay of a full record: every violation, and the score the rules give."""

    game: str
    violations: tuple[Violation, ...]
    steps: int
    outcome: Outcome | None
    complete: bool

    @property
    def valid(self) -> bool:
        return not self.violations

    def to_json(self) -> dict[str, JSON]:
        return {
            "game": self.game,
            "valid": self.valid,
            "complete": self.complete,
            "steps": self.steps,
            "violations": [v.to_json() for v in self.violations],
            "outcome": self.outcome.to_json() if self.outcome else None,
        }


@dataclass(frozen=True, slots=True)
class ScoreReport:
    """The score of a summary a scorekeeper typed, or why it cannot be."""

    game: str
    result: Mapping[str, JSON] | None
    violations: tuple[Violation, ...] = ()

    @property
    def valid(self) -> bool:
        return not self.violations

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {"game": self.game, "valid": self.valid}
        if self.result is not None:
            out.update(self.result)
        out["violations"] = [v.to_json() for v in self.violations]
        return out
