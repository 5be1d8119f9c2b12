"""A heuristic Er Giò player: strongest tris first, strength against weakness, sound reinforcing.

Corteo: lay the strongest tris, swap patches for real cards, add fourth cards and guards, play
a Generale or a Maestro di Campo at once, aim Celatini at the opponent's best shown card (or
hand, or deck), throw the least useful card into the Arno, then end the turn. Battle: the
challenger sends its strongest magistratura; the responder sends the weakest one that still
beats what it sees, or sacrifices its weakest; reinforcements go where they count.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.core import rng
from games.core.search import DEFAULT_BUDGET, DEFAULT_PLAYOUTS, SearchBot, redeal
from games.ergio import cards as C
from games.ergio.actions import (
    NO,
    Add,
    Arno,
    Celatino,
    Draw,
    End,
    Lay,
    Pass,
    Ready,
    Reinforce,
    Sabotage,
    Send,
    Special,
    Swap,
)
from games.ergio.state import CORTEO, ErGioState, side_of


def card_worth(c: int) -> int:
    """How much a card helps a magistratura (force, or the figures' reinforcing power)."""
    r = C.RANK_OF[c]
    if r >= 3:
        return r - 1
    if r == C.CAPITANO:
        return 5
    if r == C.MAGISTRATO:
        return 6
    if r == C.CAPOSCHIERA:
        return 4
    return 1


def estimate(state: ErGioState, side: int, mag: int) -> int:
    """A magistratura's laid force (C.force_of_laid), and 4 more for a Magistrato or a
    Caposchiera laid (the reinforcements they take)."""
    force = 0
    mask = 0
    for c in state.laid_of(side, mag):
        force += _FORCE_OF[c]
        mask |= _FIGURE_BIT[c]
    if mask & 2:
        force += C.CAPITANO_BONUS
    return force + (4 if mask & 5 else 0)


_FORCE_OF = C.FORCE_OF
#: bit 1 Magistrato, 2 Capitano, 4 Caposchiera (as C.figures_mask) for each card
_FIGURE_BIT: tuple[int, ...] = tuple(1 << r if 0 <= r < 3 else 0 for r in C.RANK_OF)


class HeuristicBot:
    def __init__(self, seed: int) -> None:
        self._rng = rng(seed, "ergio-heuristic")

    def choose(self, state: Any, seat: int) -> Any:
        actions = state.legal_actions(seat)
        if not actions:
            raise RuntimeError(f"seat {seat} has no legal action")
        if len(actions) == 1:
            return actions[0]
        assert isinstance(state, ErGioState)
        first = actions[0]
        if isinstance(first, Sabotage):
            return Sabotage(True)
        if isinstance(first, Draw):
            return first  # the deck when it lasts: the pile holds a partner's gift otherwise
        if isinstance(first, (Send, Reinforce, Ready)):
            return self._battle(state, side_of(seat), actions)
        return self._corteo(state, seat, actions)

    def _corteo(self, state: ErGioState, seat: int, actions: list[Any]) -> Any:
        side = side_of(seat)
        lays = [a for a in actions if isinstance(a, Lay)]
        if lays:
            return max(lays, key=lambda a: (sum(card_worth(c) for c in a.cards), a.cards))
        swaps = [a for a in actions if isinstance(a, Swap)]
        if swaps:
            return swaps[0]
        adds = [a for a in actions if isinstance(a, Add)]
        if adds:
            return max(adds, key=lambda a: (card_worth(a.card), a.card))
        for a in actions:
            if isinstance(a, Special) and C.LOCAL[a.card] in (C.GENERALE, C.MAESTRO):
                return a
        cels = [a for a in actions if isinstance(a, Celatino)]
        if cels:
            field = [a for a in cels if a.target == "field"]
            if field:
                return max(field, key=lambda a: (card_worth(a.card), a.card))
            return cels[0]
        arno = [a for a in actions if isinstance(a, Arno)]
        if arno:
            return min(arno, key=lambda a: (self._keep(state, side, a.card), a.card))
        specials = [a for a in actions if isinstance(a, Special)]
        if specials and self._rng.random() < 0.5:
            return specials[self._rng.randrange(len(specials))]
        passes = [a for a in actions if isinstance(a, Pass)]
        if passes and len(state.hands[seat]) > 2 and self._rng.random() < 0.1:
            return min(passes, key=lambda a: (self._keep(state, side, a.card), a.card))
        for a in actions:
            if isinstance(a, End):
                return a
        return actions[self._rng.randrange(len(actions))]

    @staticmethod
    def _keep(state: ErGioState, side: int, c: int) -> int:
        """How much a hand card is worth keeping (the least is thrown first)."""
        unit = C.UNIT_OF[c]
        if unit < 0:
            return 3
        if unit >= C.UNIT_CEL:
            return 1 if state.group_size(side, unit) >= 3 else 4
        return card_worth(c) + (0 if unit in state.shown[side] else 3)

    def _battle(self, state: ErGioState, side: int, actions: list[Any]) -> Any:
        # the battle lists either the magistrature to send or the reinforcements and Ready
        sends = [a for a in actions if isinstance(a, Send)] if isinstance(actions[0], Send) else []
        if sends:
            # weakest first (by estimate, then magistratura); each estimated once
            ranked = sorted((estimate(state, side, a.mag), a.mag, a) for a in sends)
            if side == state.challenger:
                return ranked[-1][2]
            theirs = state.sent[1 - side]
            target = estimate(state, 1 - side, theirs) if theirs != NO else 0
            for force, _mag, a in ranked:
                if force > target:
                    return a
            return ranked[0][2]
        mag = state.sent[side]
        best: Any = None
        best_gain = 0
        effects = state.ruleset.effects
        fighter, mag_of, group_of = C.IS_FIGHTER, C.MAG_OF, C.GROUP_OF
        for a in actions:
            if not isinstance(a, Reinforce):
                continue
            c = a.card
            if fighter[c]:
                # a combattente counts under the Magistrato if of another magistratura, under
                # the Caposchiera or on the spot if of the same one
                under = a.under
                if mag_of[c] != mag:
                    if under != "magistrato":
                        continue
                elif under != "caposchiera" and under != "spot":
                    continue
                gain = _FORCE_OF[c]
            elif effects and group_of[c] >= 0 and a.under == "magistrato":
                gain = 3 if C.LOCAL[c] == C.CELATINO else 1
            else:
                continue
            if gain > best_gain:
                best, best_gain = a, gain
        return best if best is not None else Ready()


# --- the strong bot: what the search needs to know of Er Giò ------------------------------


class ErGioSearch:
    """Er Giò for games.core.search: the cards a seat cannot see (the other side's hand and
    face-down bridge, both decks, the face-down pile) shuffled among their places, each
    card among the places of its own colour (the pile shows its colours), and the chance
    still to come drawn from a new seed."""

    def sample(self, state: Any, seat: int, rand: Any) -> ErGioState:
        assert isinstance(state, ErGioState)
        world = state.clone()
        mine = side_of(seat)
        places: list[list[tuple[Any, int]]] = [[], []]

        def hide(holder: list[int]) -> None:
            for i, c in enumerate(holder):
                places[C.SIDE_OF[c]].append((holder, i))

        pooled = world.ruleset.multi and world.phase != CORTEO
        pool: list[tuple[Any, int]] = []
        for s, hand in enumerate(world.hands):
            if side_of(s) != mine:
                hide(hand)
            elif pooled:
                # partners' hands show as one pool: which of them holds what is not seen
                pool += [(hand, i) for i in range(len(hand))]
            elif s != seat:
                hide(hand)
        for deck in world.decks:
            hide(deck)
        hide(world.pile)
        for laid in world.bridge[1 - mine].values():
            hide(laid)
        for group in (*places, pool):
            redeal(group, rand)
        world.seed = rand.randrange(1 << 30)
        world._cache = None
        return world

    def policy(self, seed: int) -> HeuristicBot:
        return HeuristicBot(seed)

    def candidates(self, state: Any, seat: int, actions: Sequence[Any], seed: int) -> list[Any]:
        own = HeuristicBot(seed).choose(state, seat)
        return [own, *(a for a in actions if a != own)]

    def playout_over(self, state: Any, root: Any) -> bool:
        return bool(state.is_over())

    def reward(self, state: Any, seat: int, root: Any) -> float:
        return float(state.outcome().scores[seat])

    def clone(self, state: Any) -> Any:
        return state.clone()


def strong_bot(
    seed: int, *, playouts: int = DEFAULT_PLAYOUTS, budget: float | None = DEFAULT_BUDGET
) -> SearchBot:
    """The strong Er Giò bot: determinized search with the heuristic bot in the playouts."""
    return SearchBot(ErGioSearch(), seed, playouts=playouts, budget=budget)
