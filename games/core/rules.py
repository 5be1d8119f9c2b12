"""Rule catalogues: each engine names every rule it enforces with a stable id.

A rule id reads like a path into the game's rule text, e.g. ``tarocco.play.follow_suit``.
The paraphrase is ours (never the source's sentences); docs/rules/<game>.md lists the same
ids with the decisions taken where the source is silent or ambiguous.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from games.core.text import Text


@dataclass(frozen=True, slots=True)
class Rule:
    id: str
    text: Text


class RuleBook(Mapping[str, Rule]):
    """An immutable mapping of rule id to rule, built once per game."""

    def __init__(self, game: str, rules: Mapping[str, tuple[str, str]]) -> None:
        self.game = game
        built: dict[str, Rule] = {}
        for rule_id, (it, en) in rules.items():
            if not rule_id.startswith(game + "."):
                raise ValueError(f"rule id {rule_id!r} must start with {game!r}.")
            built[rule_id] = Rule(rule_id, Text(it, en))
        self._rules = built

    def __getitem__(self, rule_id: str) -> Rule:
        return self._rules[rule_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._rules)

    def __len__(self) -> int:
        return len(self._rules)
