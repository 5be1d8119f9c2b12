"""Violations, outcomes and verdicts: what an engine says about a game or a summary."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.core.rules import RuleBook
from games.core.text import Text

JSON = Any

#: The termination of a summary that stops before its game is over (a cardChess game whose
#: gold cards are not all decided, an Er Giò match short of its scontri). Every game that can
#: score such a summary uses this value, so that a ledger can refuse it without knowing the game.
UNFINISHED = "unfinished"


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


def rule_broken(
    book: RuleBook,
    rule_id: str,
    it: str = "",
    en: str = "",
    *,
    seat: int | None = None,
    step: int | None = None,
    **where: JSON,
) -> Violation:
    """The one way an engine says a rule was broken: the rule, then what happened in Italian
    and in English (the order of ``Text`` and of ``LANGUAGES``), then where. With neither
    sentence the message is the rule's paraphrase alone."""
    detail = Text(it, en) if it or en else None
    return violation(book, rule_id, detail, seat=seat, step=step, **where)


def places_by(values: Sequence[int | float]) -> tuple[int, ...]:
    """Standard competition places from per-seat values, highest first (1, 1, 3)."""
    return tuple(1 + sum(1 for other in values if other > v) for v in values)


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game came out: the one answer every engine entry gives.

    ``scores`` has one entry per seat (the points the ledger records); ``termination`` says
    why the game ended (one value of the game's Termination enum); ``winners`` lists the
    winning seats (empty for a draw or a game without winners, such as an abandoned deal);
    ``places`` gives each seat its place (1 is first; seats that tie share a place), and
    when omitted it follows the winners (winners first, everyone else second; all first
    when nobody won); ``sides`` gives, in a game of two sides, each seat's side (0 or 1);
    ``detail`` holds the facts a page needs to say what happened (card points, scontri,
    gold cards...).

    ``validate(record)`` and ``score(summary)`` give the same Outcome for the same game,
    apart from facts only a full record knows (``detail`` may hold more from a record).
    """

    scores: tuple[int, ...]
    termination: str
    winners: tuple[int, ...] = ()
    detail: Mapping[str, JSON] = field(default_factory=dict)
    places: tuple[int, ...] = ()
    sides: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        seats = len(self.scores)
        if not self.places:
            chosen = set(self.winners)
            places = tuple(1 if not chosen or s in chosen else 2 for s in range(seats))
            object.__setattr__(self, "places", places)
        if len(self.places) != seats:
            raise ValueError(f"expected {seats} places, got {list(self.places)}")
        if any(not 0 <= w < seats for w in self.winners):
            raise ValueError(f"winners {list(self.winners)} are not seats")
        if self.sides and len(self.sides) != seats:
            raise ValueError(f"expected {seats} sides, got {list(self.sides)}")

    @classmethod
    def ranked(
        cls,
        scores: Sequence[int],
        termination: str,
        detail: Mapping[str, JSON] | None = None,
        *,
        by: Sequence[int | float] | None = None,
        sides: Sequence[int] = (),
    ) -> Outcome:
        """Places by the scores (or by ``by``), the seats in first place winning; nobody
        wins when every seat shares first place."""
        places = places_by(list(by if by is not None else scores))
        winners = tuple(s for s, p in enumerate(places) if p == 1)
        if len(winners) == len(places):
            winners = ()
        return cls(tuple(scores), termination, winners, detail or {}, places, tuple(sides))

    @classmethod
    def of_sides(
        cls,
        scores: Sequence[int],
        termination: str,
        sides: Sequence[int],
        winner: int | None,
        detail: Mapping[str, JSON] | None = None,
    ) -> Outcome:
        """A game of two sides: the seats of the winning side first, or a draw (None)."""
        winners = () if winner is None else tuple(s for s, d in enumerate(sides) if d == winner)
        return cls(tuple(scores), termination, winners, detail or {}, (), tuple(sides))

    @property
    def draw(self) -> bool:
        """Nobody won."""
        return not self.winners

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {
            "scores": list(self.scores),
            "termination": self.termination,
            "winners": list(self.winners),
            "places": list(self.places),
            "detail": dict(self.detail),
        }
        if self.sides:
            out["sides"] = list(self.sides)
        return out

    def standing(self) -> tuple[JSON, ...]:
        """What the standings read: scores, places, winners, sides and termination."""
        return (self.scores, self.places, self.winners, self.sides, self.termination)


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
    """The score of a summary a scorekeeper typed, or why it cannot be.

    ``outcome`` is the same Outcome a full record of that game gives (None when the summary
    breaks a rule and no score follows); ``result`` keeps the game's own facts for pages.
    """

    game: str
    result: Mapping[str, JSON] | None
    violations: tuple[Violation, ...] = ()
    outcome: Outcome | None = None

    @property
    def valid(self) -> bool:
        return not self.violations

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {"game": self.game, "valid": self.valid}
        if self.result is not None:
            out.update(self.result)
        out["outcome"] = self.outcome.to_json() if self.outcome is not None else None
        out["violations"] = [v.to_json() for v in self.violations]
        return out
