"""San Marco's scoring round of a two-player variant, and the rulesets of both states.

The scoring round referees the end of a game played on a real board: each player writes the
prestige points of the colours they answer for, one colour at a time, hidden from the other
until both have written; the outcome is the variant's final score. The whole game on the
board, action by action, is ``BoardState`` (games/sanmarco/table.py).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from games.core import (
    NOTATION_VERSION,
    Outcome,
    RecordError,
    Ruleset,
    State,
    Violation,
    rule_broken,
)
from games.sanmarco.rules import BOOK, SLUG
from games.sanmarco.scoring import MAX_POINTS, outcome_of, score_v1, score_v2, score_v3

JSON = Any


class Termination(StrEnum):
    SCORED = "scored"


@dataclass(frozen=True)
class SanMarcoRuleset(Ruleset):
    """``variant``: the two-player variant (1 ghosts, 2 neutral colour, 3 two colours each).

    ``max_points`` caps what a table may type for one colour (an input bound, not a rule
    of the game: the text gives no maximum; 200 is far above any reported score).
    """

    variant: int = 3
    max_points: int = MAX_POINTS

    def to_json(self) -> dict[str, JSON]:
        # seats follow from the preset; core's Game.ruleset() refuses it as an override
        plain = super().to_json()
        plain.pop("seats", None)
        return plain


@dataclass(frozen=True)
class BoardRuleset(Ruleset):
    """A ruleset of the board game (games/sanmarco/flow.py). Each option is an open point
    of the sources, decided in docs/rules/sanmarco.md beside its rule id; the presets hold
    the decisions. It lives here, in plain Python, because the board's modules are compiled
    by mypyc,
    whose classes cannot extend ``Ruleset``, an interpreted dataclass.

    ``board``: None for the house board, or a club's own board (docs/rules/sanmarco.md).
    """

    mode: str = "base"
    board: Any = None
    start_bridges: int = 1  # per colour at set-up
    three_player_deal: str = "6+4"  # or "5+3": the cards a lone distributor draws
    passage_bonus: str = "all_below"  # or "lowest_only"
    free_banish_ties: str = "all"  # or "none": when several colours share the fewest limit
    offers_public: bool = True  # everyone sees the offers once they are divided
    toll_below_zero: bool = False  # False: a toll takes at most what the payer has
    may_decline: bool = False  # True: a card may be set aside even when it can be carried out
    ghost_cubes: str = "one_per_hand"  # or "two_per_hand" (variant 1)
    ghost_tolls: bool = True  # variant 1: a ghost's bridge earns it tolls
    distributor_acts_first: bool = False  # variant 2's "the distributor always starts first"
    limit: int = 10
    passages: int = 3


# What each seat writes, per variant: variant 3 its two colours; variant 1 its own colour
# and one ghost colour (ghost i is read out by seat i, a table convention); variant 2 its
# own colour only (the neutral colour's total need not be written).
SLOTS = {3: 2, 1: 2, 2: 1}
DEFAULT_COLOURS = {
    3: (("bianco", "nero"), ("giallo", "blu")),
    1: (("bianco", "fantasma giallo"), ("nero", "fantasma blu")),
    2: (("bianco",), ("nero",)),
}


@dataclass(frozen=True, slots=True)
class Enter:
    """A seat writes the prestige points of one of its colours (by its index at the seat)."""

    colour: int
    points: int


@functools.cache
def _menus(max_points: int) -> tuple[tuple[Enter, ...], ...]:
    """Every entry a colour may be written with, per colour index (made once per cap and
    shared: an ``Enter`` is frozen)."""
    most = max(SLOTS.values())
    return tuple(tuple(Enter(colour, p) for p in range(max_points + 1)) for colour in range(most))


class ScoringRound(State[Enter]):
    ruleset: SanMarcoRuleset
    colours: tuple[tuple[str, ...], ...]
    entries: list[list[int | None]]
    actions: list[tuple[int, Enter]]
    _due: tuple[int, int] | None  # the seat and colour to write next (None: all written)
    _menus: tuple[tuple[Enter, ...], ...]

    def __init__(self, ruleset: SanMarcoRuleset, colours: tuple[tuple[str, ...], ...]) -> None:
        self.ruleset = ruleset
        self.colours = colours
        self.entries = [[None] * len(c) for c in colours]
        self.actions = []
        self._due = self._next()
        self._menus = _menus(ruleset.max_points) if ruleset.max_points >= 0 else ()

    # --- turn ---------------------------------------------------------------------
    def _next(self) -> tuple[int, int] | None:
        for seat, row in enumerate(self.entries):
            for colour, value in enumerate(row):
                if value is None:
                    return seat, colour
        return None

    def to_act(self) -> int | None:
        due = self._due
        return None if due is None else due[0]

    def legal_actions(self, seat: int) -> list[Enter]:
        due = self._due
        if due is None or due[0] != seat:
            return []
        colour = due[1]
        menus = self._menus
        if colour < len(menus):
            return list(menus[colour])
        return [Enter(colour, p) for p in range(self.ruleset.max_points + 1)]

    def check(self, seat: int, action: Any) -> list[Violation]:
        nxt = self._due
        found: list[Violation] = []
        if nxt is None:
            return [rule_broken(BOOK, "sanmarco.record.game_over", seat=seat)]
        if not isinstance(action, Enter):  # a move on the board has no place in this round
            return [rule_broken(BOOK, "sanmarco.record.impossible", seat=seat)]
        if seat != nxt[0]:
            found.append(
                rule_broken(
                    BOOK,
                    "sanmarco.entry.turn",
                    f"Tocca al giocatore {nxt[0] + 1}.",
                    f"Player {nxt[0] + 1} is to write.",
                    seat=seat,
                )
            )
        elif action.colour != nxt[1]:
            found.append(
                rule_broken(
                    BOOK,
                    "sanmarco.entry.order",
                    f"Ora va scritto il colore {nxt[1] + 1}, non il {action.colour + 1}.",
                    f"Colour {nxt[1] + 1} is due now, not colour {action.colour + 1}.",
                    seat=seat,
                )
            )
        if not 0 <= action.points <= self.ruleset.max_points:
            found.append(
                rule_broken(
                    BOOK,
                    "sanmarco.entry.range",
                    f"{action.points} fuori da 0..{self.ruleset.max_points}.",
                    f"{action.points} is outside 0..{self.ruleset.max_points}.",
                    seat=seat,
                )
            )
        return found

    def apply_unchecked(self, seat: int, action: Any) -> None:
        if not 0 <= seat < len(self.entries):
            raise RecordError(f"there is no seat {seat}")
        row = self.entries[seat]
        if not 0 <= action.colour < len(row):
            raise RecordError(f"seat {seat} has no colour {action.colour}")
        if row[action.colour] is not None:
            raise RecordError(f"colour {action.colour} of seat {seat} is already written")
        row[action.colour] = action.points
        self.actions.append((seat, action))
        self._due = self._next()

    # --- end ----------------------------------------------------------------------
    def is_over(self) -> bool:
        return self._due is None

    def result(self) -> dict[str, JSON]:
        rows = [[int(v or 0) for v in row] for row in self.entries]
        variant = self.ruleset.variant
        if variant == 3:
            return score_v3(rows)
        if variant == 1:
            return score_v1([r[0] for r in rows], [r[1] for r in rows])
        return score_v2([r[0] for r in rows], None, [])

    def outcome(self) -> Outcome:
        if not self.is_over():
            raise ValueError("the scoring round is not over")
        return outcome_of(self.result(), Termination.SCORED.value)

    def summary(self) -> dict[str, JSON]:
        """What a scorekeeper writes for this round (docs/notation/sanmarco.md)."""
        rows = [[int(v or 0) for v in row] for row in self.entries]
        variant = self.ruleset.variant
        if variant == 3:
            return {"variant": 3, "points": rows}
        if variant == 1:
            return {"variant": 1, "points": [r[0] for r in rows], "ghosts": [r[1] for r in rows]}
        return {"variant": 2, "points": [r[0] for r in rows]}

    # --- views and records ----------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, JSON]:
        over = self.is_over()
        rows: list[JSON] = []
        for s, row in enumerate(self.entries):
            if over or s == seat:
                rows.append(list(row))
            else:  # another seat's points stay hidden until every seat has written
                rows.append({"written": sum(v is not None for v in row), "of": len(row)})
        return {
            "game": SLUG,
            "variant": self.ruleset.variant,
            "colours": [list(c) for c in self.colours],
            "entries": rows,
            "to_act": self.to_act(),
            "result": self.result() if over else None,
        }

    def to_record(self) -> dict[str, JSON]:
        return {
            "game": SLUG,
            "version": NOTATION_VERSION,
            "ruleset": self.ruleset.to_json(),
            "deal": {"colours": [list(c) for c in self.colours]},
            "actions": [
                {"seat": s, "colour": a.colour, "points": a.points} for s, a in self.actions
            ],
        }
