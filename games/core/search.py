"""The strong bot shared by every game with hidden information: determinized Monte Carlo.

At its turn the bot draws deals consistent with what its seat has seen (the game's sampler,
which reads only the seat's view: its own cards, the cards played, the voids the play
revealed, how many cards each hand holds), plays every candidate action in each drawn deal,
finishes the game (or plays to the game's horizon) with the game's heuristic bot in every
seat, and keeps the action whose playouts scored best for its seat on average; the heuristic
bot's own choice stays unless another action scores strictly better. Every candidate is tried
in the same drawn deals with the same playout seeds, so the comparison is between actions,
not between luck.

A game provides only what is its own (``Searchable``): how to draw a full state from a
seat's view, the playout policy, the candidates worth trying where the legal actions are
too many (a Tarocco discard), how far a playout goes and what it is worth. The search is
deterministic given its seed and a playout count; a time budget per move caps it on the
digital tables. The legal actions come from the rules (the state's ``legal_actions`` for
the seat, which its own cards and the table decide); everything the search weighs comes
from the drawn deals.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from games.core.rng import rng

#: The tables' default thinking time per move, in seconds.
DEFAULT_BUDGET = 0.5
#: How many drawn deals a move may use at most when the time budget is the limit.
DEFAULT_PLAYOUTS = 400


class Searchable(Protocol):
    """What a game gives the search."""

    def sample(self, state: Any, seat: int, rand: random.Random) -> Any:
        """A full state (every hand dealt) that the seat cannot tell from ``state``: it may
        read only what ``state.view(seat)`` shows, and must draw the rest from ``rand``."""

    def policy(self, seed: int) -> Any:
        """The bot that plays every seat in a playout (the game's heuristic bot)."""

    def candidates(self, state: Any, seat: int, actions: Sequence[Any], seed: int) -> list[Any]:
        """The actions worth comparing (all of them, unless they are too many), the playout
        policy's own choice first: the search keeps it unless another scores better."""

    def playout_over(self, state: Any, root: Any) -> bool:
        """Whether a playout from ``root`` has gone far enough to be scored (the game's end,
        or an earlier horizon such as the end of a cardChess sfida)."""

    def reward(self, state: Any, seat: int, root: Any) -> float:
        """What a playout from ``root`` is worth to the seat (its points)."""

    def clone(self, state: Any) -> Any:
        """A copy of a drawn state to play one candidate in."""


@dataclass(frozen=True, slots=True)
class Thought:
    """What a move's search found: each candidate's mean and how many deals it saw."""

    action: Any
    means: tuple[tuple[Any, float], ...]
    deals: int


class SearchBot:
    """Determinized Monte Carlo over a game's ``Searchable``.

    ``playouts``: the drawn deals per move (each candidate is played in every one);
    ``budget``: seconds per move (None: no clock, fully reproducible). The search stops at
    whichever comes first, after at least one deal.
    """

    def __init__(
        self,
        game: Searchable,
        seed: int,
        *,
        playouts: int = DEFAULT_PLAYOUTS,
        budget: float | None = DEFAULT_BUDGET,
        max_actions: int = 10_000,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.game = game
        self.seed = seed
        self.playouts = max(1, playouts)
        self.budget = budget
        self.max_actions = max_actions
        self._clock = clock
        self.last: Thought | None = None

    def choose(self, state: Any, seat: int) -> Any:
        return self.think(state, seat).action

    def think(self, state: Any, seat: int) -> Thought:
        # The rules' legal actions for the seat, in an order of their own (not the order the
        # hidden deal happened to list the seat's cards in)
        actions = sorted(state.legal_actions(seat), key=repr)
        if not actions:
            raise RuntimeError(f"seat {seat} has no legal action")
        if len(actions) == 1:  # forced (a reveal the rules do for the seat included)
            self.last = Thought(actions[0], ((actions[0], 0.0),), 0)
            return self.last
        # The move's stream depends on the seed and on what the seat sees, and nothing else:
        # the same bot facing the same view thinks the same, whatever the hidden cards.
        move_rng = rng(self.seed, "search", seat, _digest(state.view(seat)))
        first = self.game.sample(state, seat, move_rng)
        offered = self.game.candidates(first, seat, actions, move_rng.randrange(1 << 30))
        default = offered[0]  # the playout policy's own choice: kept unless beaten
        cands = sorted(offered, key=repr)
        if len(cands) == 1:
            self.last = Thought(cands[0], ((cands[0], 0.0),), 0)
            return self.last
        totals = [0.0] * len(cands)
        start = self._clock()
        deals = 0
        world = first
        while True:
            playout_seed = move_rng.randrange(1 << 30)
            for i, action in enumerate(cands):
                trial = self.game.clone(world)
                trial.apply_unchecked(seat, action)
                self._finish(trial, playout_seed, world)
                totals[i] += self.game.reward(trial, seat, world)
            deals += 1
            if deals >= self.playouts:
                break
            if self.budget is not None and self._clock() - start >= self.budget:
                break
            world = self.game.sample(state, seat, move_rng)
        means = tuple((a, t / deals) for a, t in zip(cands, totals, strict=True))
        best = max(range(len(cands)), key=lambda i: (totals[i], -i))
        keep = cands.index(default)
        if totals[best] <= totals[keep]:
            best = keep  # a tie (or no better) leaves the policy's choice
        self.last = Thought(cands[best], means, deals)
        return self.last

    def _finish(self, state: Any, seed: int, root: Any) -> None:
        bots: dict[int, Any] = {}
        done = self.game.playout_over
        for _ in range(self.max_actions):
            who = state.to_act()
            if who is None or done(state, root):
                return
            bot = bots.get(who)
            if bot is None:
                bot = bots[who] = self.game.policy(seed * 16 + who)
            state.apply_unchecked(who, bot.choose(state, who))
        if not state.is_over() and not done(state, root):
            raise RuntimeError("a playout did not end")


def _digest(view: Any) -> str:
    import hashlib
    import json

    text = json.dumps(view, sort_keys=True, default=str)
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def deal_hidden(
    cards: Sequence[int],
    sizes: Sequence[int],
    allowed: Callable[[int, int], bool],
    rand: random.Random,
    *,
    tries: int = 30,
) -> list[list[int]]:
    """Share ``cards`` among holders of the given ``sizes`` at random, each card only to a
    holder ``allowed(holder, card)`` (a void the play revealed, a card known elsewhere).

    The most constrained cards go first; a dead end starts again, and after ``tries`` the
    constraints that cannot all be kept give way (a random share of the same sizes)."""
    if sum(sizes) != len(cards):
        raise ValueError(f"{len(cards)} cards for places of {list(sizes)}")
    pool = sorted(cards)
    holders = range(len(sizes))
    options = {c: [h for h in holders if sizes[h] and allowed(h, c)] for c in pool}
    for _ in range(tries):
        order = list(pool)
        rand.shuffle(order)
        order.sort(key=lambda c: len(options[c]))
        room = list(sizes)
        out: list[list[int]] = [[] for _ in holders]
        ok = True
        for c in order:
            open_ = [h for h in options[c] if room[h] > 0]
            if not open_:
                ok = False
                break
            weights = [room[h] for h in open_]
            h = rand.choices(open_, weights)[0]
            out[h].append(c)
            room[h] -= 1
        if ok:
            return out
    order = list(pool)
    rand.shuffle(order)
    out = []
    at = 0
    for size in sizes:
        out.append(order[at : at + size])
        at += size
    return out


def redeal(places: Sequence[tuple[Any, int]], rand: random.Random) -> None:
    """Shuffle the cards lying in these places (a list and an index each) among them: the
    places a seat cannot see, whose cards it knows only as a whole. The cards are sorted
    first, so where they really lay never shows through."""
    cards = sorted(holder[i] for holder, i in places)
    rand.shuffle(cards)
    for (holder, i), card in zip(places, cards, strict=True):
        holder[i] = card
