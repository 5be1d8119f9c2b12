"""What a ruleset fixes once for every match played under it: who owns each magistratura,
each card's cost, each strategy card's effect, the shared action objects, and the legal
choices already worked out for positions seen before.

``PonteRuleset.tables`` builds one per ruleset (equal rulesets are one shared instance, see
``Ponte.ruleset``), so a random playout or a replay pays for none of this per action.
"""

from __future__ import annotations

from typing import Final

from games.ponte.model import (
    MAGISTRATURE,
    Assign,
    Deploy,
    Equip,
    Fight,
    FightCard,
    Layout,
    PonteRuleset,
    layout_for,
    quarter_mags,
    quarter_of,
    side_mags,
)

# Legal choices remembered per ruleset; a table this full starts again (random play with
# free power sheets reaches many positions, each worth little once left behind).
CACHE_MAX: Final = 50_000

# One shared action object per plain choice; the dataclasses stay the public form.
DEPLOYS: Final[dict[tuple[int, int | None], Deploy]] = {
    (m, q): Deploy(m, q) for m in range(len(MAGISTRATURE)) for q in (None, 0, 1)
}
EQUIPS: Final[dict[tuple[int, int], Equip]] = {
    (m, c): Equip(m, c) for m in range(len(MAGISTRATURE)) for c in range(6)
}


class PlayTables:
    """Lookup tables of one ruleset (read-only but for the two caches of legal choices)."""

    __slots__ = (
        "assign_cache",
        "big_only",
        "cap",
        "cards",
        "cheapest",
        "fight_cache",
        "fights",
        "full_hand",
        "indices",
        "layout",
        "owners",
        "pools",
        "seat_mags",
        "strategy_amount",
        "strategy_kind",
        "values",
    )

    def __init__(self, ruleset: PonteRuleset) -> None:
        self.layout: Layout = layout_for(ruleset)
        self.owners: tuple[int, ...] = tuple(
            self.layout.owners[quarter_of(m)] for m in range(len(MAGISTRATURE))
        )
        self.seat_mags: tuple[tuple[int, ...], ...] = tuple(
            tuple(m for m in range(len(MAGISTRATURE)) if self.owners[m] == seat)
            for seat in range(ruleset.seats)
        )
        if ruleset.seats == 2:
            pools = tuple((s, tuple(side_mags(s))) for s in (0, 1))
        else:
            pools = tuple((self.layout.owners[q], tuple(quarter_mags(q))) for q in range(4))
        self.pools: tuple[tuple[int, tuple[int, ...]], ...] = pools
        self.values: tuple[int, ...] = ruleset.values
        self.big_only: tuple[bool, ...] = ruleset.big_only
        small, big = ruleset.cheapest
        self.cheapest: tuple[float, float] = (small, big)
        # a side's power above the dearest card pays exactly what that card's cost pays
        self.cap: int = max(self.values, default=0)
        self.cards: dict[str, FightCard] = ruleset.codes
        self.fights: dict[tuple[str | None, int | None], Fight] = ruleset.fights
        self.full_hand: tuple[int, ...] = tuple(range(len(ruleset.pack)))
        self.indices: dict[str, tuple[int, ...]] = ruleset.indices
        self.strategy_kind: tuple[str, ...] = tuple(s.kind for s in ruleset.strategies)
        self.strategy_amount: tuple[int, ...] = tuple(s.amount for s in ruleset.strategies)
        # (hand, power up to ``cap``, began big, open strategy cards as bits) -> the choices
        self.fight_cache: dict[tuple[tuple[int, ...], int, bool, int], tuple[Fight, ...]] = {}
        # (sheet's magistrature, their powers so far) -> the lines that may be written next
        self.assign_cache: dict[
            tuple[tuple[int, ...], tuple[int | None, ...]], tuple[Assign, ...]
        ] = {}

    def __copy__(self) -> PlayTables:
        return self  # shared by every match of the ruleset, copies of a state included

    def __deepcopy__(self, memo: dict[int, object]) -> PlayTables:
        return self
