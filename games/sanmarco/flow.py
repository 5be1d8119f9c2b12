"""San Marco's board as it runs: the colours and their pieces, the set-up, the rounds of
dividing, choosing and playing the offers, the passages and the scoring, and the effect of
each decision once taken (``BoardFlow``). What the rules allow is judged in
games/sanmarco/legal.py; the state replay and the tables use is games/sanmarco/table.py.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from games.core import (
    RecordError,
    State,
)
from games.sanmarco.actions import (
    _CARD_OF_KIND,
    _DISTRICT_ACT,
    Act,
)
from games.sanmarco.board import MAX_BRIDGES, Board, load_board
from games.sanmarco.cards import (
    ACTION_DECK,
    CARD_NAMES,
    CUBES,
    LIMIT_BASE,
    LIMIT_DECK,
    NEUTRAL_CUBES,
)
from games.sanmarco.chance import Chance
from games.sanmarco.state import BoardRuleset

MODES = ("base", "variant1", "variant2", "variant3")
PLAYER, GHOST, NEUTRAL = "player", "ghost", "neutral"


class Phase(StrEnum):
    """Where a scoring round stands; the values are the ``phase`` of a view."""

    SETUP = "setup"  # the starting bridges
    DIVIDE = "divide"  # the distributor divides a hand into offers
    CHOOSE = "choose"  # the others choose an offer
    RESOLVE = "resolve"  # the cards of the offers are played
    BETWEEN = "between"  # a round has ended, the next is not dealt yet
    FREE_BANISH = "free_banish"  # the free banishment after a passage
    NEUTRAL_RETURN = "neutral"  # variant 2: the neutral cubes go back
    OVER = "over"


# the phases as module names: looking up Phase.X costs an attribute lookup each time
SETUP, DIVIDE, CHOOSE, RESOLVE, BETWEEN = (
    Phase.SETUP,
    Phase.DIVIDE,
    Phase.CHOOSE,
    Phase.RESOLVE,
    Phase.BETWEEN,
)
FREE_BANISH, NEUTRAL_RETURN, OVER = Phase.FREE_BANISH, Phase.NEUTRAL_RETURN, Phase.OVER


class Termination(StrEnum):
    FINAL_SCORING = "final_scoring"


# Phases in which the flow waits for a decision (``_advance`` has nothing to run).
_WAITING = frozenset((DIVIDE, CHOOSE, FREE_BANISH, OVER))


# --- the state ----------------------------------------------------------------------------------
@dataclass(slots=True)
class Pair:
    """A distributor and the colours that choose from the offers (in choosing order)."""

    distributor: int
    choosers: list[int]
    actions: int  # action cards dealt
    limits: int  # limit cards dealt


@dataclass(slots=True)
class Pending:
    """Work inside a card: a banishment's removals, the Doge's walk, variant 3's choices."""

    kind: str  # "remove" | "doge" | "score"
    district: int = -1
    left: int = 0
    visited: set[int] = field(default_factory=set)
    seats: list[int] = field(default_factory=list)
    excluded: set[int] = field(default_factory=set)
    card: bool = True  # False for the free banishment at a passage's end


# Per district, where a district card may put its aristocrat (the district itself, then the
# districts across the colour's own bridges from it, in order), and the moves from the supply
# that say so.
_Reach = tuple[tuple[tuple[int, ...], ...], tuple[tuple[Act, ...], ...]]


# per board's bridge sites: ``_reach`` by the set of sites (``BoardState._reach_memo``)
_REACH_MEMO: dict[tuple[tuple[int, int], ...], dict[int, _Reach]] = {}


def _reach(sites: tuple[tuple[int, int], ...], own: int) -> _Reach:
    """``_Reach`` for a colour whose bridges stand on the sites ``own`` (a bit per site)."""
    across: list[set[int]] = [set() for _ in range(6)]
    for site, (a, b) in enumerate(sites):
        if not own >> site & 1:
            continue
        across[a].add(b)
        across[b].add(a)
    ends = tuple((d, *sorted(across[d])) for d in range(6))
    return ends, tuple(tuple(_DISTRICT_ACT[d][e] for e in ends[d]) for d in range(6))


def combos(n: int, k: int) -> list[list[int]]:
    """Every ordering of k distinct items from range(n)."""
    return [list(p) for p in _orderings(n, k)]


@functools.cache
def _orderings(n: int, k: int) -> tuple[tuple[int, ...], ...]:
    out: list[tuple[int, ...]] = [()]
    for _ in range(k):
        out = [(*p, x) for p in out for x in range(n) if x not in p]
    return tuple(out)


@functools.cache
def _role_draws(leader: int, others: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The role draws of a round (sanmarco.base.roles): the leader first, the other colours
    in every order (made once for each leader and colours)."""
    return tuple((leader, *(others[i] for i in p)) for p in _orderings(len(others), len(others)))


class BoardFlow(State[Act]):
    """The state of a board game and its flow; it judges nothing (see ``BoardRules``)."""

    ruleset: BoardRuleset

    def __init__(
        self, ruleset: BoardRuleset, seed: int | None, given: Mapping[str, Any] | None = None
    ) -> None:
        self.ruleset = ruleset
        self.board: Board = load_board(ruleset.board)
        self.chance = Chance(seed, given)
        mode = ruleset.mode
        if mode == "base":
            kinds = [PLAYER] * ruleset.seats
            ctrl: list[int | None] = list(range(ruleset.seats))
        elif mode == "variant1":
            kinds, ctrl = [PLAYER, PLAYER, GHOST, GHOST], [0, 1, None, None]
        elif mode == "variant2":
            kinds, ctrl = [PLAYER, PLAYER, NEUTRAL], [0, 1, None]
        else:
            kinds, ctrl = [PLAYER] * 4, [0, 1, 0, 1]
        self.kinds = kinds
        self.controller = ctrl
        self.role_colours = [c for c, k in enumerate(kinds) if k == PLAYER]
        n = len(kinds)
        self.cubes = [[0] * n for _ in range(6)]
        self.supply = [NEUTRAL_CUBES if k == NEUTRAL else CUBES for k in kinds]
        self.score = [0] * n
        self.limits: list[list[int]] = [[] for _ in range(n)]
        self.bridges: list[list[int]] = []  # [site, owner]
        # where the bridges on the table stand: the board's sites, then any pair of districts a
        # bridge was laid between against the rules (sanmarco.base.bridge_site), so the replay
        # goes on with the bridge where it was put (``_site_of``)
        self.sites: tuple[tuple[int, int], ...] = self.board.sites
        self.doge = self.board.doge_start
        self.action_deck = list(ACTION_DECK)
        self.action_discard: list[int] = []
        self.limit_deck = list(LIMIT_DECK)
        self.limit_discard: list[int] = []
        self.passage = 1
        self.rounds = 0  # rounds begun in the game (the leader turns with it)
        self.final_round = False
        self.passage_log: list[dict[str, Any]] = []
        self.score_log: list[dict[str, Any]] = []
        self.history: list[tuple[int, Act]] = []
        self.phase: Phase = SETUP
        self.setup_queue: list[int] = []
        self.neutral_seats: list[int] = []
        self.pairs: list[Pair] = []
        self.hand: list[int] = []
        self.assign: list[int] = []
        self._used = 0  # offers opened while dividing (max(assign) + 1)
        self._offers = 0  # offers of the hand being divided (its choosers and distributor)
        self.piles: list[list[int]] = []
        self.taken: list[int] = []  # colour holding each pile (-1 while on the table)
        self.chooser_i = 0
        self.holders: list[int] = []  # colours still to carry out their pile, in order
        self.holding: list[int] = []  # the current holder's action cards left
        self.pending: Pending | None = None
        self.banish_queue: list[int] = []
        self.roles: list[int] = []
        self.last_v1: list[int] = []
        # read from the bridges, and the bridges they were read from (``_bridges_changed``)
        self._bridges_seen: list[list[int]] | None = None
        self._hops_of: list[_Reach | None] = []
        self._reach_memo = _REACH_MEMO.setdefault(self.board.sites, {})
        self._touch: tuple[tuple[tuple[int, int], ...], ...] | None = None
        self._free_sites: tuple[Act, ...] | None = None  # a new bridge's moves, below 12
        self._setup()

    # --- small helpers -----------------------------------------------------------------
    def seat_of(self, colour: int) -> int | None:
        return self.controller[colour]

    def limit_total(self, colour: int) -> int:
        return sum(self.limits[colour])

    def owner_bridges_at(self, colour: int, d: int) -> list[int]:
        """Districts across this colour's own bridges from d."""
        out = []
        for site, owner in self.bridges:
            if owner != colour:
                continue
            a, b = self.sites[site]
            if a == d and b not in out:
                out.append(b)
            elif b == d and a not in out:
                out.append(a)
        return sorted(out)

    def on_site(self, site: int) -> int:
        return sum(1 for s, _ in self.bridges if s == site)

    def _place(self, colour: int, d: int, count: int = 1) -> None:
        k = min(count, self.supply[colour])
        self.supply[colour] -= k
        self.cubes[d][colour] += k

    # --- set-up ---------------------------------------------------------------------------
    # sanmarco.base.setup: four die rolls per colour, two aristocrats each in the district rolled,
    # then each colour's starting bridges (setup_queue).
    def _setup(self) -> None:
        for c, kind in enumerate(self.kinds):
            if kind == NEUTRAL:
                continue
            if self.chance.trace is not None:  # whose rolls these are, for a deal check
                self.chance.trace.append(["for", c, "setup"])
            for _ in range(4):
                d = self.board.district_of_face(self.chance.die())
                k = min(2, self.supply[c])  # ``_place(c, d, 2)``, written out
                self.supply[c] -= k
                self.cubes[d][c] += k
        if self.ruleset.mode == "variant2":
            for d in range(6):
                self._place(2, d)
            for _ in range(6):
                self._place(2, self.board.district_of_face(self.chance.die()))
        self.setup_queue = [c for c in self.role_colours for _ in range(self.ruleset.start_bridges)]
        self.phase = SETUP
        self._advance()

    # sanmarco.v1.ghost_bridges: a ghost bridges its two strongest districts, or failing that a free
    # site touching the strongest.
    def _ghost_bridges(self) -> None:
        for g, kind in enumerate(self.kinds):
            if kind != GHOST:
                continue
            order = sorted(range(6), key=lambda d: (-self.cubes[d][g], self.board.die[d]))
            free = [s for s in range(len(self.board.sites)) if self._site_free(s)]
            if not free:
                continue
            top, second = order[0], order[1]
            site = self.board.site_index(top, second)
            if site is None or site not in free:
                touching = [s for s in free if top in self.board.sites[s]]
                if touching:
                    rank = {d: i for i, d in enumerate(order)}

                    def other_end(s: int, top: int = top, rank: dict[int, int] = rank) -> int:
                        a, b = self.board.sites[s]
                        return rank[b if a == top else a]

                    site = min(touching, key=other_end)
                else:
                    site = free[0]
            self._build(g, site)

    def _site_free(self, site: int) -> bool:
        return self.on_site(site) < self.board.per_site and len(self.bridges) < MAX_BRIDGES

    def _build(self, colour: int, site: int) -> None:
        self.bridges.append([site, colour])
        self.supply[colour] -= 1

    # --- the flow -------------------------------------------------------------------------
    def _advance(self) -> None:
        """Run every automatic step until a colour must decide (or the game is over)."""
        while True:
            ph = self.phase
            if ph == RESOLVE:  # the common case first
                if self.pending is not None or self.holding:
                    return
                # the holder's hand is carried out
                holder = self.holders.pop(0)
                if self.ruleset.mode == "variant1" and self.kinds[holder] == PLAYER:
                    self._ghost_dice()
                holders = self.holders
                if holders:
                    # ``_hold``, written out
                    self.holding = holding = []
                    for c in self.piles[self.taken.index(holders[0])]:
                        if c < LIMIT_BASE:
                            holding.append(c)
                    continue
                self.pairs.pop(0)
                if self.pairs:
                    self._deal()
                    continue
                self._end_round()
                continue
            if ph in _WAITING:
                return
            if ph == SETUP:
                if self.setup_queue:
                    return
                if self.ruleset.mode == "variant1":
                    self._ghost_bridges()
                self._start_round()
                continue
            if ph == NEUTRAL_RETURN:
                if self.supply[2] > 0 and self.neutral_seats:
                    return
                self._start_round()
                continue
            raise AssertionError(self.phase)

    def _hold(self, colour: int) -> None:
        pile = self.piles[self.taken.index(colour)]
        self.holding = [c for c in pile if c < LIMIT_BASE]

    # sanmarco.v1.ghost_dice: once an active player's hand is carried out, each ghost places
    # aristocrats where the die shows.
    def _ghost_dice(self) -> None:
        per = 2 if self.ruleset.ghost_cubes == "two_per_hand" else 1
        for g, kind in enumerate(self.kinds):
            if kind != GHOST:
                continue
            for _ in range(per):
                self._place(g, self.board.district_of_face(self.chance.die()))

    def _active(self) -> list[int]:
        if self.final_round:
            limits, limit = self.limits, self.ruleset.limit
            return [c for c in self.role_colours if sum(limits[c]) < limit]  # limit_total
        return list(self.role_colours)

    def _start_round(self) -> None:
        active = self._active()
        rs = self.ruleset
        n_all = len(self.role_colours)
        start = self.rounds % n_all
        rotation = self.role_colours[start:] + self.role_colours[:start]
        # sanmarco.base.roles: the leader moves one seat each round and distributes first; the other
        # roles are drawn (chance.roles).
        ordered = rotation if not self.final_round else [c for c in rotation if c in active]
        leader, others = ordered[0], ordered[1:]
        if rs.mode == "variant1":
            # sanmarco.v1.roles: the die picks the first distributor, the next round the roles swap,
            # then the die is rolled again.
            if self.rounds % 2 == 1 and self.last_v1:
                d, s = self.last_v1[1], self.last_v1[0]
            else:
                while True:
                    r0, r1 = self.chance.die(), self.chance.die()
                    if r0 != r1:
                        break
                d, s = (0, 1) if r0 > r1 else (1, 0)
            self.last_v1 = [d, s]
            roles = [d, s]
        elif len(active) == 2:
            roles = [leader, others[0]]
        elif len(active) == 3 and rs.mode == "variant3":
            seat = self.controller
            cands = [
                tuple(active[i] for i in p)
                for p in _orderings(3, 3)
                if seat[active[p[1]]] != seat[active[p[0]]]
                and seat[active[p[1]]] != seat[active[p[2]]]
            ]
            roles = self.chance.roles(cands)
        else:
            roles = self.chance.roles(_role_draws(leader, tuple(others)))
        self.rounds += 1
        self.roles = roles
        if len(roles) == 4:  # slots: distributor 1, distributor 2, chooser 1, chooser 2
            self.pairs = [Pair(roles[0], [roles[2]], 5, 3), Pair(roles[1], [roles[3]], 5, 3)]
        elif len(roles) == 3:
            # sanmarco.base.deal: 5 action and 3 limit cards per distributor (6 and 4 for a lone
            # distributor among three colours, by the ruleset).
            a, l_ = (6, 4) if rs.three_player_deal == "6+4" else (5, 3)
            self.pairs = [Pair(roles[0], roles[1:], a, l_)]
        else:
            self.pairs = [Pair(roles[0], roles[1:], 5, 3)]
        self._deal()

    def _deal(self) -> None:
        pair = self.pairs[0]
        chance = self.chance
        if chance.trace is not None:  # whose hand this is, for a deal check
            chance.trace.append(["for", pair.distributor, "hand"])
        hand = chance.cards("action_cards", self.action_deck, self.action_discard, pair.actions)
        limits = chance.cards("limit_cards", self.limit_deck, self.limit_discard, pair.limits)
        for v in limits:
            hand.append(LIMIT_BASE + v)
        hand.sort()
        self.hand = hand
        self.assign = []
        self._used = 0
        self._offers = len(pair.choosers) + 1
        self.piles = []
        self.taken = []
        self.phase = DIVIDE

    def _n_piles(self) -> int:
        return self._offers

    def _choose(self, colour: int, q: int) -> None:
        """The colour takes offer q."""
        self.taken[q] = colour
        self.chooser_i += 1
        self._after_choice()

    def _after_choice(self) -> None:
        pair = self.pairs[0]
        if self.chooser_i < len(pair.choosers):
            return
        # the distributor takes the pile left on the table; limit cards go face up
        self.taken[self.taken.index(-1)] = pair.distributor
        limits = self.limits
        for colour, pile in zip(self.taken, self.piles, strict=True):
            mine = limits[colour]
            for c in pile:
                if c >= LIMIT_BASE:
                    mine.append(c - LIMIT_BASE)
        order = [*pair.choosers, pair.distributor]
        if self.ruleset.distributor_acts_first:
            order = [pair.distributor, *pair.choosers]
        self.holders = order
        self.phase = RESOLVE
        # ``_hold``, written out
        self.holding = holding = []
        for c in self.piles[self.taken.index(order[0])]:
            if c < LIMIT_BASE:
                holding.append(c)

    def _end_round(self) -> None:
        rs = self.ruleset
        self.phase = BETWEEN
        if self.final_round:
            self._end_passage()
            return
        # sanmarco.base.limit: at a round's end, a colour at 10 limit points or more is out of the
        # passage's roles (_active).
        limits = self.limits
        rest = [c for c in self.role_colours if sum(limits[c]) < rs.limit]  # limit_total
        if len(rest) == len(self.role_colours):  # nobody has reached the limit
            self._start_round()
            return
        if rs.mode == "variant2" or len(rest) < 2:
            self._end_passage()
            return
        # sanmarco.base.final_round: two or more colours still under 10 play one last round;
        # sanmarco.v3.penalty_round: in variant 3 the same last round, with three colours left, goes
        # by the three-player rules (_start_round).
        self.final_round = True
        self._start_round()

    def _end_passage(self) -> None:
        rs = self.ruleset
        limits = self.limits
        totals = [sum(limits[c]) for c in self.role_colours]  # limit_total
        top = max(totals)
        low = min(totals)
        bonus = [0] * len(self.kinds)
        for c, t in zip(self.role_colours, totals, strict=True):
            if t >= rs.limit:
                continue
            if rs.passage_bonus == "lowest_only" and t != low:
                continue
            # sanmarco.base.passage_bonus: the gap to the highest limit total, for a colour under
            # 10.
            bonus[c] = top - t
        self._credit("bonus", bonus)
        self.passage_log.append({"limits": [sum(x) for x in limits], "bonus": bonus})
        fewest = [c for c, t in zip(self.role_colours, totals, strict=True) if t == low]
        if len(fewest) > 1 and rs.free_banish_ties == "none":
            fewest = []
        # sanmarco.base.free_banish: the colour(s) with the fewest limit points banish for free.
        self.banish_queue = fewest
        self.phase = FREE_BANISH
        self._next_banish()

    def _next_banish(self) -> None:
        if self.banish_queue:
            self.phase = FREE_BANISH
            return
        if self.passage >= self.ruleset.passages:
            for d in range(6):
                # sanmarco.base.final_scoring: after the last passage all six districts are scored.
                self._score_district(d, set(), "final")
            self.phase = OVER
            return
        for c in range(len(self.kinds)):
            # sanmarco.base.reshuffle: the limit cards are discarded at the end of each passage.
            self.limit_discard.extend(self.limits[c])
            self.limits[c] = []
        self.passage += 1
        self.final_round = False
        if self.ruleset.mode == "variant2" and self.supply[2] > 0:
            first = 0 if self.score[0] <= self.score[1] else 1
            self.neutral_seats = [first, 1 - first]
            self.phase = NEUTRAL_RETURN
            return
        self._start_round()

    # --- scoring ---------------------------------------------------------------------------
    def district_points(self, d: int, excluded: set[int]) -> list[int]:
        """What each colour scores in district d now (ties: see sanmarco.base.score_ties)."""
        counts = self.cubes[d]
        if excluded:
            counts = [0 if c in excluded else n for c, n in enumerate(counts)]
        first, second = self.board.values[d]
        pts = [0] * len(counts)
        ranked = sorted(counts, reverse=True)
        most = ranked[0]
        if most <= 0:
            return pts
        if len(ranked) > 1 and ranked[1] == most:
            for c, n in enumerate(counts):
                if n == most:
                    pts[c] = second
            return pts
        pts[counts.index(most)] = first
        runner = ranked[1] if len(ranked) > 1 else 0  # the most below the first
        if runner > 0 and (len(ranked) < 3 or ranked[2] != runner):
            pts[counts.index(runner)] = second
        return pts

    def _credit(self, why: str, points: list[int], **facts: Any) -> None:
        """Move the score track, and keep the line (the score log explains every point)."""
        score = self.score
        for c, p in enumerate(points):
            score[c] += p
        if any(points):
            self.score_log.append({"why": why, "passage": self.passage, "points": points, **facts})

    def _score_district(self, d: int, excluded: set[int], why: str = "doge") -> None:
        points = self.district_points(d, excluded)
        score = self.score  # ``_credit``, written out
        for c, p in enumerate(points):
            score[c] += p
        if any(points):
            self.score_log.append(
                {"why": why, "passage": self.passage, "points": points, "district": d,
                 "cubes": list(self.cubes[d]), "excluded": sorted(excluded)}
            )  # fmt: skip

    # sanmarco.base.doge_toll: one point from the Doge's mover to the owner of each other colour's
    # bridge crossed; sanmarco.v3.own_bridge_toll: over the mover's own other colour the point is
    # lost and nobody gains it.
    def _pay_toll(self, mover: int, owner: int) -> None:
        if owner == mover:
            return
        score = self.score
        paid = 1 if self.ruleset.toll_below_zero or score[mover] > 0 else 0  # at most what it has
        if not paid:
            return  # nothing moves, and nothing is written
        points = [0] * len(self.kinds)
        points[mover] = -paid
        score[mover] -= paid
        ctrl = self.controller
        same_seat = ctrl[owner] is not None and ctrl[owner] == ctrl[mover]
        if not same_seat and (self.kinds[owner] != GHOST or self.ruleset.ghost_tolls):
            points[owner] = paid
            score[owner] += paid
        # ``_credit("toll", points, mover=mover, owner=owner)``, written out
        self.score_log.append(
            {"why": "toll", "passage": self.passage, "points": points, "mover": mover,
             "owner": owner}
        )  # fmt: skip

    def _doge_done(self, mover: int) -> None:
        d = self.doge
        if self.ruleset.mode == "variant3":
            seats = []
            mseat = self.controller[mover]
            for s in [mseat, 1 - (mseat or 0)]:
                if s is None:
                    continue
                mine = [c for c in (s, s + 2) if self.cubes[d][c] > 0]
                if len(mine) == 2:
                    seats.append(s)
            if seats:
                self.pending = Pending("score", d, seats=seats)
                return
        self._score_district(d, set())
        self.pending = None

    # --- turn -----------------------------------------------------------------------------
    def acting_colour(self) -> int | None:
        ph = self.phase
        if ph == DIVIDE:
            return self.pairs[0].distributor
        if ph == RESOLVE:
            if self.pending is not None and self.pending.kind == "score":
                return self.pending.seats[0]  # variant 3: a seat (its first colour)
            return self.holders[0]
        if ph == CHOOSE:
            return self.pairs[0].choosers[self.chooser_i]
        if ph == SETUP:
            return self.setup_queue[0] if self.setup_queue else None
        if ph == FREE_BANISH:
            return self.banish_queue[0]
        if ph == NEUTRAL_RETURN:
            return self.neutral_seats[0]
        return None

    def to_act(self) -> int | None:
        ph = self.phase
        if ph == DIVIDE:  # the two common phases without a helper call
            return self.controller[self.pairs[0].distributor]
        if ph == RESOLVE:
            p = self.pending
            if p is not None and p.kind == "score":
                return p.seats[0]  # variant 3: the seat itself
            return self.controller[self.holders[0]]
        c = self.acting_colour()
        if c is None:
            return None
        if ph == NEUTRAL_RETURN:
            return c
        return self.controller[c]

    # --- effects --------------------------------------------------------------------
    def _divide(self, q: int) -> None:
        """The hand's next card goes to offer q; with the last one the offers are made."""
        assign = self.assign
        assign.append(q)
        if q >= self._used:
            self._used = q + 1
        if len(assign) == len(self.hand):
            self._make_offers()

    def _make_offers(self) -> None:
        """The hand is divided: its cards lie in their offers, for the others to choose."""
        k = self._offers
        piles: list[list[int]] = [[], []] if k == 2 else [[] for _ in range(k)]
        for card, p in zip(self.hand, self.assign, strict=True):
            piles[p].append(card)
        self.piles = piles
        self.taken = [-1] * k
        self.chooser_i = 0
        self.phase = CHOOSE

    def _resolve_card(self, holder: int, action: Act) -> None:
        """The holder plays a card of their hand; the flow runs on once the hand is done."""
        self._play_card(holder, action)
        if self.pending is not None:
            self._settle()
        if self.pending is None and self.holding:
            return  # the holder goes on with their next card
        self._advance()

    def _removal(self, colour: int, p: Pending, victim: int) -> None:
        """One aristocrat of the banishment removed; the rest follow when no choice is left."""
        self.cubes[p.district][victim] -= 1  # ``_remove``, written out
        self.supply[victim] += 1
        p.left -= 1
        self._auto_remove(colour)

    def _score_choice(self, p: Pending, a: int) -> None:
        """Variant 3: the choosing seat's colour a scores the district, its other colour not."""
        s = p.seats.pop(0)
        p.excluded.add(s + 2 if a == s else s)
        if not p.seats:
            self._score_district(p.district, p.excluded)
            self.pending = None

    def _settle(self) -> None:
        """Close a banishment that has nothing left to remove."""
        p = self.pending
        if p is not None and p.kind == "remove" and p.left <= 0:
            self.pending = None
            if not p.card:
                self.banish_queue.pop(0)
                self._next_banish()

    def _play_card(self, colour: int, act: Act) -> None:
        do, a, b, c = act
        card = a if do == "district" or do == "skip" else _CARD_OF_KIND.get(do, -1)  # _card_of
        holding = self.holding
        if card not in holding:
            raise RecordError(f"the holder has no {CARD_NAMES[card] if card >= 0 else do} card")
        holding.remove(card)
        self.action_discard.append(card)
        if do == "district":  # the most played card
            if not 0 <= b < 6:
                raise RecordError("no such district")
            cubes = self.cubes
            if c >= 0:
                if cubes[c][colour] <= 0:
                    raise RecordError("no own aristocrat there")
                cubes[c][colour] -= 1
            else:
                if self.supply[colour] <= 0:
                    raise RecordError("no aristocrat left in the supply")
                self.supply[colour] -= 1  # _place, one from the supply
            cubes[b][colour] += 1
        elif do == "skip":
            return
        elif do == "bridge":
            self._do_bridge(colour, act)
        elif do == "transfer":
            victim = b
            if victim >= len(self.kinds) or self.cubes[a][victim] <= 0 or self.supply[colour] <= 0:
                raise RecordError("nothing to transfer there")
            cubes, supply = self.cubes, self.supply
            cubes[a][victim] -= 1  # ``_remove`` and ``_place``, written out
            supply[victim] += 1
            supply[colour] -= 1
            cubes[a][colour] += 1
        elif do == "banish":
            self._start_banish(colour, a, card=True)
        else:
            self.pending = Pending("doge", visited={self.doge})
            self._doge_step(colour, act)

    def _do_bridge(self, colour: int, act: Act) -> None:
        if self.supply[colour] <= 0:
            raise RecordError("no bridge marker left in the supply")
        site = self._site_of(act.a, act.b)
        if act.c >= 0:
            if act.c >= len(self.bridges):
                raise RecordError("no such bridge")
            _old, owner = self.bridges.pop(act.c)
            self.supply[owner] += 1  # the old owner's marker goes home
        if len(self.bridges) >= MAX_BRIDGES:
            raise RecordError("every bridge is on the board")
        self.bridges.append([site, colour])  # ``_build``, written out
        self.supply[colour] -= 1

    def _site_of(self, a: int, b: int) -> int:
        """The site of a bridge laid between districts a and b: the board's, or, for two
        districts the board does not make neighbours, a site of their own added to
        ``sites`` (the bridge stands where it was put; the verdict names the rule)."""
        key = (a, b) if a < b else (b, a)
        sites = self.sites
        if key in sites:
            return sites.index(key)
        if a == b or not (0 <= a < 6 and 0 <= b < 6):
            raise RecordError("a bridge joins two different districts")
        self.sites = (*sites, key)
        # where each colour's district cards reach is read from these sites from now on
        self._reach_memo = {}
        return len(sites)

    def _remove(self, d: int, colour: int) -> None:
        self.cubes[d][colour] -= 1
        self.supply[colour] += 1

    def _start_banish(self, colour: int, d: int, card: bool) -> None:
        roll = self.chance.die()
        self.pending = Pending("remove", d, left=min(roll, sum(self.cubes[d])), card=card)
        self._auto_remove(colour)

    def _auto_remove(self, colour: int) -> None:
        p = self.pending
        assert p is not None
        d = p.district
        row = self.cubes[d]
        supply = self.supply
        while p.left > 0:
            # ``_removable``, written out: one colour only may lose an aristocrat there
            victim = -1
            for c, n in enumerate(row):
                if n > 0 and c != colour:
                    if victim >= 0:
                        return  # two others: the mover chooses
                    victim = c
            if victim < 0:
                if row[colour] <= 0:
                    return  # nobody left there
                victim = colour
            row[victim] -= 1  # ``_remove``, written out
            supply[victim] += 1
            p.left -= 1

    def _doge_step(self, colour: int, act: Act) -> None:
        p = self.pending
        assert p is not None
        if act.do == "stop":
            self._doge_done(colour)
            return
        if act.do != "doge" or not 0 <= act.a < len(self.bridges):
            raise RecordError("no such bridge")
        site, owner = self.bridges[act.a]
        a, b = self.sites[site]
        if self.doge not in (a, b):
            raise RecordError("that bridge does not touch the Doge's district")
        self.doge = b if a == self.doge else a
        p.visited.add(self.doge)
        self._pay_toll(colour, owner)

    # --- end ---------------------------------------------------------------------------------
    def is_over(self) -> bool:
        return self.phase == OVER
