"""What a ruleset fixes once for every match played under it: who owns each magistratura,
each card's cost, each strategy card's effect, the shared action objects, and the legal
choices already worked out for positions seen before.

``PonteRuleset.tables`` builds one per ruleset (equal rulesets are one shared instance, see
``Ponte.ruleset``), so a random playout or a replay pays for none of this per action.
"""

from __future__ import annotations

from typing import Final

from games.ponte.model import (
    BEATS,
    MAGISTRATURE,
    SIDES,
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

# Legal choices remembered per ruleset; a table this full starts again (long random play
# keeps reaching new positions, each worth little once left behind). A full fight table
# holds a few megabytes.
CACHE_MAX: Final = 20_000

# One shared action object per plain choice; the dataclasses stay the public form.
DEPLOYS: Final[dict[tuple[int, int | None], Deploy]] = {
    (m, q): Deploy(m, q) for m in range(len(MAGISTRATURE)) for q in (None, 0, 1)
}
EQUIPS: Final[dict[tuple[int, int], Equip]] = {
    (m, c): Equip(m, c) for m in range(len(MAGISTRATURE)) for c in range(6)
}


class FightChoices:
    """A move's legal choices in one position: the actions, and their (card, strategy)
    pairs for ``check`` to find an action among them at once."""

    __slots__ = ("actions", "pairs")

    def __init__(self, actions: tuple[Fight, ...]) -> None:
        self.actions = actions
        self.pairs: frozenset[tuple[str | None, int | None]] = frozenset(
            (a.card, a.strategy) for a in actions
        )


class Push:
    """What one move's pair of choices does, whatever the position: the cards paid, how far
    the carrello goes (positive towards Mezzogiorno), who won the move, the power each
    side's recover card may give back; ``copies0`` and ``copies1``: the pack indices of each
    card paid (a pack may hold a card twice)."""

    __slots__ = ("card0", "card1", "copies0", "copies1", "delta", "recover0", "recover1", "winner")

    def __init__(
        self,
        card0: FightCard | None,
        card1: FightCard | None,
        copies0: tuple[int, ...],
        copies1: tuple[int, ...],
        delta: int,
        winner: str | None,
        recover0: int,
        recover1: int,
    ) -> None:
        self.card0 = card0
        self.card1 = card1
        self.copies0 = copies0
        self.copies1 = copies1
        self.delta = delta
        self.winner = winner
        self.recover0 = recover0
        self.recover1 = recover1


class PlayTables:
    """Lookup tables of one ruleset (read-only but for the caches of what was worked out)."""

    __slots__ = (
        "assign_cache",
        "assigns",
        "big_only",
        "cap",
        "cards",
        "cheapest",
        "chip",
        "choices_cache",
        "code_of",
        "deploy_cache",
        "fight_cache",
        "fights",
        "full_hand",
        "indices",
        "layout",
        "owners",
        "pools",
        "pushes",
        "seat_mags",
        "sheet_cache",
        "side_mags",
        "split",
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
        self.side_mags: tuple[tuple[int, ...], tuple[int, ...]] = (
            tuple(side_mags(0)),
            tuple(side_mags(1)),
        )
        self.split: tuple[bool, bool] = (self.layout.split(0), self.layout.split(1))
        if ruleset.seats == 2:
            pools = tuple((s, tuple(side_mags(s))) for s in (0, 1))
        else:
            pools = tuple((self.layout.owners[q], tuple(quarter_mags(q))) for q in range(4))
        # each sheet is a run of consecutive magistrature (a side's six, a quarter's three)
        assert all(mags == tuple(range(mags[0], mags[0] + len(mags))) for _s, mags in pools)
        self.pools: tuple[tuple[int, tuple[int, ...]], ...] = pools
        self.values: tuple[int, ...] = ruleset.values
        self.big_only: tuple[bool, ...] = ruleset.big_only
        small, big = ruleset.cheapest
        self.cheapest: tuple[float, float] = (small, big)
        # a side's power above the dearest card pays exactly what that card's cost pays
        self.cap: int = max(self.values, default=0)
        self.cards: dict[str, FightCard] = ruleset.codes
        self.fights: dict[tuple[str | None, int | None], Fight] = ruleset.fights
        self.chip: int = ruleset.chip
        self.full_hand: tuple[int, ...] = tuple(range(len(ruleset.pack)))
        self.code_of: tuple[str, ...] = ruleset.fight_cards  # by pack index
        self.indices: dict[str, tuple[int, ...]] = ruleset.indices
        self.strategy_kind: tuple[str, ...] = tuple(s.kind for s in ruleset.strategies)
        self.strategy_amount: tuple[int, ...] = tuple(s.amount for s in ruleset.strategies)
        # (hand, power up to ``cap``, began big, open strategy cards as bits) -> the choices
        self.fight_cache: dict[tuple[tuple[int, ...], int, bool, int], FightChoices] = {}
        # (card, strategy card) of Tramontana then Mezzogiorno -> what the move does
        self.pushes: dict[tuple[str | None, int | None, str | None, int | None], Push] = {}
        # (those codes, open strategy cards as bits) -> the choices
        self.choices_cache: dict[tuple[tuple[str | None, ...], int], FightChoices] = {}
        # (answering, challenger side, tie breaker, seat, quarter named, fought) -> deployments
        self.deploy_cache: dict[
            tuple[bool, int, bool, int, int | None, tuple[bool, ...]], tuple[Deploy, ...]
        ] = {}
        # one shared action per (magistratura, power) listed under this ruleset
        self.assigns: dict[tuple[int, int], Assign] = {}
        # (sheet's magistrature, their powers so far) -> the lines that may be written next,
        # for the fixed values of Base mode
        self.assign_cache: dict[
            tuple[tuple[int, ...], tuple[int | None, ...]], tuple[Assign, ...]
        ] = {}
        # (sheet's magistrature, those still open, the values used, sorted) -> the same lines
        self.sheet_cache: dict[
            tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], tuple[Assign, ...]
        ] = {}

    def __copy__(self) -> PlayTables:
        return self  # shared by every match of the ruleset, copies of a state included

    def __deepcopy__(self, memo: dict[int, object]) -> PlayTables:
        return self

    def push(
        self, code0: str | None, own0: int | None, code1: str | None, own1: int | None
    ) -> Push:
        """A move's effect (``pushes`` remembers it): both codes are cards of the set and
        both strategy cards, when played, are 0 to 5."""
        key = (code0, own0, code1, own1)
        found = self.pushes.get(key)
        if found is None:
            found = self.pushes[key] = self._push(code0, own0, code1, own1)
        return found

    def _push(
        self, code0: str | None, own0: int | None, code1: str | None, own1: int | None
    ) -> Push:
        kinds, amounts = self.strategy_kind, self.strategy_amount
        kind0 = None if own0 is None else kinds[own0]
        kind1 = None if own1 is None else kinds[own1]
        amount0 = 0 if own0 is None else amounts[own0]
        amount1 = 0 if own1 is None else amounts[own1]
        card0 = None if code0 is None else self.cards[code0]
        card1 = None if code1 is None else self.cards[code1]
        # a cancel strategy card voids the enemy's fight card (which is paid all the same)
        a0 = None if kind1 == "cancel" else card0
        a1 = None if kind0 == "cancel" else card1
        # what each card pushes with: an add card of its own strengthens it, a subtract card
        # of the enemy weakens it, never below nothing
        eff0 = eff1 = 0
        if a0 is not None:
            eff0 = a0.value + (amount0 if kind0 == "add" else 0)
            eff0 = max(0, eff0 - (amount1 if kind1 == "subtract" else 0))
        if a1 is not None:
            eff1 = a1.value + (amount1 if kind1 == "add" else 0)
            eff1 = max(0, eff1 - (amount0 if kind0 == "subtract" else 0))
        # ponte.carrello.move: the winner of the circle (or the stronger card of the same type)
        # pushes one slot per chip of its strength, or of the difference between equals
        delta = 0  # slots towards Mezzogiorno
        winner: int | None = None
        if a0 is not None and a1 is not None:
            if a0.kind == a1.kind:
                if eff0 != eff1:
                    winner = 0 if eff0 > eff1 else 1
                    delta = abs(eff0 - eff1) // self.chip
            else:
                winner = 0 if BEATS[a0.kind] == a1.kind else 1
                delta = (eff0 if winner == 0 else eff1) // self.chip
        elif a0 is not None:
            winner = 0
            delta = eff0 // self.chip
        elif a1 is not None:
            winner = 1
            delta = eff1 // self.chip
        if winner == 1:
            delta = -delta
        if kind0 == "move":
            delta += amount0
        if kind1 == "move":
            delta -= amount1
        return Push(
            card0,
            card1,
            () if code0 is None else self.indices[code0],
            () if code1 is None else self.indices[code1],
            delta,
            None if winner is None else SIDES[winner],
            amount0 if kind0 == "recover" else 0,
            amount1 if kind1 == "recover" else 0,
        )

    def assign(self, mag: int, power: int) -> Assign:
        """The shared ``Assign(mag, power)`` of this ruleset's listings."""
        found = self.assigns.get((mag, power))
        if found is None:
            found = self.assigns[mag, power] = Assign(mag, power)
        return found
