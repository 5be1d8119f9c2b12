"""The Bridge's Game in play: power sheets, strategy cards, six challenges and the tie breaker.

A match is a list of actions. Setup: each commander writes its magistrature's power
(``Assign``; Expert: in rank order), then, outside Base mode, places its strategy cards
(``Equip``; in Base they are dealt at random from the seed). Each challenge: the challenger
deploys (``Deploy``, naming the enemy quarter when that side is split between two players),
the other side answers, then moves follow, each a pair of secret ``Fight`` choices taken
Tramontana first and hidden by ``view`` until both are in. The carrello position is
positive towards Mezzogiorno (Tramontana pushing).

Power conservation holds after every move: what a side was given (assignments, the tie
breaker bonus, recovered power) equals what it holds, what sits in its back-up box and what
it spent (``ledger_ok``).
"""

from __future__ import annotations

from collections.abc import Iterator
from enum import StrEnum
from typing import Any

from games.core import NOTATION_VERSION, Outcome, RecordError, State, Violation, rule_broken
from games.core.text import seat_no
from games.ponte import words
from games.ponte.model import (
    BEATS,
    MAGISTRATURE,
    QUARTERS,
    SIDES,
    TYPE_NAMES,
    Action,
    Assign,
    Deploy,
    Equip,
    Fight,
    FightCard,
    Layout,
    PonteRuleset,
    encode,
    mag_label,
    quarter_mags,
    quarter_of,
    side_mags,
    side_of,
)
from games.ponte.rules import BOOK, SLUG
from games.ponte.scoring import match_outcome, rank_match
from games.ponte.tables import CACHE_MAX, DEPLOYS, EQUIPS, FightChoices, PlayTables

JSON = Any


class Phase(StrEnum):
    """Where a match stands; the values are the ``phase`` of a view."""

    POWER = "power"  # the commanders write their magistrature's power (Assign)
    STRATEGY = "strategy"  # the strategy cards are placed (Equip)
    DEPLOY = "deploy"  # the challenger deploys
    RESPOND = "respond"  # the other side answers
    FIGHT = "fight"  # the moves of a challenge: pairs of secret Fight choices
    TYPES = "types"  # the carrello in the middle: a tie breaker on types alone
    OVER = "over"


# the phases as module names, compared with ``is``: Phase.X costs an attribute lookup each time
POWER, STRATEGY, DEPLOY, RESPOND = Phase.POWER, Phase.STRATEGY, Phase.DEPLOY, Phase.RESPOND
FIGHT, TYPES, OVER = Phase.FIGHT, Phase.TYPES, Phase.OVER

#: Each phase and each kind of action as the players say them (Italian, English).
PHASE_WORDS = {
    POWER: ("delle potenze", "power"),
    STRATEGY: ("delle carte strategia", "strategy card"),
    DEPLOY: ("della sfida", "challenge"),
    RESPOND: ("della risposta", "response"),
    FIGHT: ("della lotta", "fight"),
    TYPES: ("del carrello a metà", "carrello in the middle"),
    OVER: ("finale: la partita è finita", "final: the match is over"),
}
ACTION_WORDS = {
    "Assign": ("assegnare una potenza", "assigning a power"),
    "Equip": ("piazzare una carta strategia", "placing a strategy card"),
    "Deploy": ("schierare una magistratura", "deploying a magistratura"),
    "Fight": ("giocare una carta lotta", "playing a fight card"),
}


class Deal:
    """The chance of a match: who challenges first (the side, and with two players on that
    side the quarter whose player drew highest: ``quarter``, 0 East, 1 West; None in records
    written before it, read as East), and each side's strategy card order."""

    __slots__ = ("first", "quarter", "strategy")

    def __init__(
        self,
        first: int,
        strategy: tuple[tuple[int, ...], tuple[int, ...]],
        quarter: int | None = None,
    ) -> None:
        self.first = first
        self.strategy = strategy
        self.quarter = quarter

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {
            "first": SIDES[self.first],
            "strategy": [list(s) for s in self.strategy],
        }
        if self.quarter is not None:
            out["first_quarter"] = QUARTERS[self.quarter]
        return out


_PHASE_ACTION: dict[Phase, type] = {
    POWER: Assign,
    STRATEGY: Equip,
    DEPLOY: Deploy,
    RESPOND: Deploy,
    FIGHT: Fight,
    TYPES: Fight,
}


def _it(code: str) -> str:
    """A fight card in Italian words ("Attacco 20.000 Kg"), for a violation's message."""
    return words.card(code, "it")


def _en(code: str) -> str:
    return words.card(code, "en")


def _k(value: int) -> str:
    return f"{value:,}"


class PonteState(State[Action]):
    ruleset: PonteRuleset

    def __init__(self, ruleset: PonteRuleset, deal: Deal, seed: int | None = None) -> None:
        self.ruleset = ruleset
        self.deal = deal
        self.seed = seed
        tables = ruleset.tables
        self._t: PlayTables = tables
        self.layout: Layout = tables.layout
        self._owners = tables.owners
        self.pack = ruleset.pack
        self.actions: list[tuple[int, Action]] = []
        n = len(MAGISTRATURE)
        self.initial: list[int | None] = [None] * n
        self.rank: list[int | None] = [None] * n  # order of assignment within its pool
        self.strategy_of: list[int | None] = [None] * n
        self.strategy_used = [[False] * 6, [False] * 6]
        self.power = [0] * n  # power not yet on the bridge
        self.backup = [0] * n  # the back-up box, per magistratura
        self.fought = [False] * n
        # per side: power given beyond the sheets, recovered, spent, drawn from the box
        self.bonus = [0, 0]
        self.recovered = [0, 0]
        self.spent = [0, 0]
        self.drawn = [0, 0]
        self.reserve = [0, 0]  # tie breaker power waiting for its magistratura
        self.leftover = [0, 0]  # tie breaker power left when it ends
        self.wins = [0, 0]
        self.seat_wins = [0] * ruleset.seats
        self.results: list[dict[str, JSON]] = []
        self.tiebreak: dict[str, JSON] | None = None
        self.in_tiebreak = False
        self.tb_seats: tuple[int, int] | None = None
        self.challenger = deal.first
        self.last_win_seat: int | None = None
        # Who drew highest opens, East or West of the first side (ponte.deploy.challenger).
        self.opener = self.layout.owners[2 * deal.first + (deal.quarter or 0)]
        # the challenge in progress
        self.fighter: list[int | None] = [None, None]
        self.fpower = [0, 0]
        self.fstart = [0, 0]
        # the fighter began with enough power for the big Attack (``starting`` is fixed)
        nobody = ruleset.big_attack_min <= 0  # ``_begins_big`` with no fighter yet
        self.began_big = [nobody, nobody]
        self.target: int | None = None
        self.carrello = 0
        self.moves: list[dict[str, JSON]] = []
        self.pending: list[Fight | None] = [None, None]
        self.hand: list[list[int]] = [list(tables.full_hand), list(tables.full_hand)]
        self.phase: Phase = POWER
        self._pools = tables.pools
        # the strategy placement, needed only when commanders place their cards
        self._groups = self._make_equip_groups() if ruleset.free_assignment else ()
        if not ruleset.free_assignment:
            for side in (0, 1):
                for i, mag in enumerate(side_mags(side)):
                    self.strategy_of[mag] = deal.strategy[side][i]
        self._advance_setup()

    # --- structure ------------------------------------------------------------------
    def pools(self) -> list[tuple[int, tuple[int, ...]]]:
        """Power sheets: (seat, magistrature). Per side with two players, else per quarter."""
        return list(self._pools)

    def _make_pools(self) -> tuple[tuple[int, tuple[int, ...]], ...]:
        return self._t.pools

    def pool_values(self, mags: tuple[int, ...]) -> tuple[int, ...]:
        rs = self.ruleset
        return rs.base_side_powers if len(mags) == 6 else rs.base_quarter_powers

    def pool_total(self, mags: tuple[int, ...]) -> int:
        rs = self.ruleset
        return rs.side_total if len(mags) == 6 else rs.quarter_total

    def equip_groups(self) -> list[tuple[int, tuple[int, ...], tuple[int, ...]]]:
        """Strategy placement: (seat, magistrature, card indices held)."""
        return list(self._groups or self._make_equip_groups())

    def _make_equip_groups(self) -> tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...]:
        out: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = []
        for side in (0, 1):
            perm = self.deal.strategy[side]
            if self.layout.generals is not None:
                out.append((self.layout.generals[side], tuple(side_mags(side)), tuple(range(6))))
            elif not self.layout.split(side):
                out.append((self.layout.owners[2 * side], tuple(side_mags(side)), tuple(range(6))))
            else:
                for half in (0, 1):
                    q = 2 * side + half
                    cards = tuple(sorted(perm[3 * half : 3 * half + 3]))
                    out.append((self.layout.owners[q], tuple(quarter_mags(q)), cards))
        return tuple(out)

    def _current_pool(self) -> tuple[int, tuple[int, ...]] | None:
        initial = self.initial
        for pool in self._pools:
            for m in pool[1]:
                if initial[m] is None:
                    return pool
        return None

    def _current_group(self) -> tuple[int, tuple[int, ...], tuple[int, ...]] | None:
        if not self.ruleset.free_assignment:
            return None
        for group in self._groups:
            if any(self.strategy_of[m] is None for m in group[1]):
                return group
        return None

    def _advance_setup(self) -> None:
        if self.phase is POWER and self._current_pool() is None:
            self.phase = STRATEGY
        if self.phase is STRATEGY and self._current_group() is None:
            self.phase = DEPLOY

    def owner(self, mag: int) -> int:
        return self._owners[mag]

    def seat_mags(self, seat: int) -> list[int]:
        return list(self._t.seat_mags[seat])

    def free(self, mag: int) -> bool:
        return not self.fought[mag]

    def challenger_seat(self) -> int:
        side = self.challenger
        if self.layout.generals is not None:
            return self.layout.generals[side]
        if self.in_tiebreak and self.tb_seats is not None:
            return self.tb_seats[side]
        east, west = self.layout.owners[2 * side], self.layout.owners[2 * side + 1]
        if east == west:
            return east
        prefer = self.last_win_seat if self.last_win_seat in (east, west) else self.opener
        if prefer not in (east, west):
            prefer = east
        other = west if prefer == east else east
        fought = self.fought
        for m in self._t.seat_mags[prefer]:
            if not fought[m]:
                return prefer
        return other

    def responder_seat(self) -> int:
        side = 1 - self.challenger
        if self.layout.generals is not None:
            return self.layout.generals[side]
        if self.in_tiebreak and self.tb_seats is not None:
            return self.tb_seats[side]
        if self.target is not None:
            return self.layout.owners[self.target]
        return self.layout.owners[2 * side]

    def fight_seat(self, side: int) -> int:
        mag = self.fighter[side]
        assert mag is not None
        return self._owners[mag]

    def fight_side(self) -> int:
        return 0 if self.pending[0] is None else 1

    def to_act(self) -> int | None:
        phase = self.phase
        if phase in (FIGHT, TYPES):  # the most frequent, first
            mag = self.fighter[0 if self.pending[0] is None else 1]
            assert mag is not None
            return self._owners[mag]
        if self.phase is POWER:
            pool = self._current_pool()
            return None if pool is None else pool[0]
        if self.phase is STRATEGY:
            group = self._current_group()
            return None if group is None else group[0]
        if self.phase is DEPLOY:
            return self.challenger_seat()
        if self.phase is RESPOND:
            return self.responder_seat()
        return None

    # --- fight cards ------------------------------------------------------------------
    def starting(self, side: int) -> int:
        """The power the fighting magistratura began the game with (big Attack rule)."""
        mag = self.fighter[side]
        return 0 if mag is None else int(self.initial[mag] or 0)

    def _begins_big(self, side: int) -> bool:
        return self.starting(side) >= self.ruleset.big_attack_min

    def can_pay(self, card: FightCard, side: int) -> bool:
        return card.value <= self.fpower[side] and self.ruleset.allowed(card, self.starting(side))

    def _payable(self, side: int) -> list[int]:
        """Pack indices in the side's hand that it can pay (``can_pay``, from the tables)."""
        return list(self._payable_cards(side))

    def _payable_cards(self, side: int) -> Iterator[int]:
        power = self.fpower[side]
        values = self.ruleset.values
        if self.began_big[side]:
            return (i for i in self.hand[side] if values[i] <= power)
        big_only = self.ruleset.big_only
        return (i for i in self.hand[side] if values[i] <= power and not big_only[i])

    def out(self, side: int) -> bool:
        """No card of the whole pack can be paid: the magistratura plays no more moves."""
        return self.fpower[side] < self._t.cheapest[self.began_big[side]]

    def _refresh(self, side: int) -> None:
        # ponte.fight.refresh: the twelve cards return whole once spent, or once the power left
        # cannot pay any card still in hand.
        """The pack comes back whole when spent or when nothing left in it can be paid."""
        hand = self.hand[side]
        if self.phase is TYPES:
            if not hand:
                self.hand[side] = list(self._t.full_hand)
            return
        power = self.fpower[side]
        values = self._t.values
        if self.began_big[side]:
            for i in hand:  # stops at the first card paid
                if values[i] <= power:
                    return
        else:
            big_only = self._t.big_only
            for i in hand:
                if values[i] <= power and not big_only[i]:
                    return
        self.hand[side] = list(self._t.full_hand)

    def playable(self, side: int) -> list[str]:
        """Distinct codes the side may play now, in hand order."""
        codes = self.ruleset.fight_cards
        hand = self.hand[side] if self.phase is TYPES else self._payable(side)
        return list(dict.fromkeys([codes[i] for i in hand]))

    def _discard(self, side: int, code: str) -> None:
        """Take the first card with this code out of the side's hand (the hand keeps the
        pack's order, so the first is the one of lowest pack index)."""
        hand = self.hand[side]
        for i in self._t.indices[code]:
            if i in hand:
                hand.remove(i)
                return

    def strategies_open(self, side: int) -> list[int]:
        if self.phase is TYPES:
            return []
        used = self.strategy_used[side]
        if self.in_tiebreak:
            return [i for i in range(6) if not used[i]]
        mag = self.fighter[side]
        card = None if mag is None else self.strategy_of[mag]
        return [] if card is None or used[card] else [card]

    # --- legal actions ----------------------------------------------------------------
    def legal_actions(self, seat: int) -> list[Action]:
        phase = self.phase
        if phase is FIGHT:  # the most frequent, first: a lookup once the position was seen
            side = 0 if self.pending[0] is None else 1
            mag = self.fighter[side]
            assert mag is not None
            if seat != self._owners[mag]:
                return []
            # ``_fight_entry`` written out (the call costs a tenth of this path)
            t = self._t
            power = self.fpower[side]
            if power > t.cap:
                power = t.cap
            used = self.strategy_used[side]
            if self.in_tiebreak:
                open_bits = 0
                for i in range(6):
                    if not used[i]:
                        open_bits |= 1 << i
            else:
                card = self.strategy_of[mag]
                open_bits = 0 if card is None or used[card] else 1 << card
            entry = t.fight_cache.get(
                (tuple(self.hand[side]), power, self.began_big[side], open_bits)
            )
            if entry is None:
                entry = self._fight_entry(side, mag)
            return list(entry.actions)
        if phase is DEPLOY or phase is RESPOND:
            responding = phase is RESPOND
            expected = self.responder_seat() if responding else self.challenger_seat()
            if seat != expected:
                return []
            # what the listing depends on besides the ruleset: who deploys, the tie breaker,
            # the quarter named, and which magistrature have fought
            key = (
                responding,
                self.challenger,
                self.in_tiebreak,
                seat,
                self.target,
                tuple(self.fought),
            )
            cache = self._t.deploy_cache
            choices = cache.get(key)
            if choices is None:
                if responding:
                    choices = tuple(DEPLOYS[m, None] for m in self._respond_mags())
                else:
                    choices = tuple(self._legal_deploy(expected))
                if len(cache) >= CACHE_MAX:
                    cache.clear()
                cache[key] = choices
            return list(choices)
        if phase is POWER:
            pool = self._current_pool()
            if pool is None or seat != pool[0]:
                return []
            return list(self._legal_assign(pool))
        if seat != self.to_act():
            return []
        if phase is STRATEGY:
            group = self._current_group()
            assert group is not None
            _, mags, held = group
            taken = {self.strategy_of[m] for m in mags}
            return [
                EQUIPS[m, c]
                for m in mags
                if self.strategy_of[m] is None
                for c in held
                if c not in taken
            ]
        side = self.fight_side()
        fights = self.ruleset.fights
        return [fights[c, None] for c in self.playable(side)]  # TYPES

    def _fight_entry(self, side: int, mag: int) -> FightChoices:
        """The fighting side's choices in a move, looked up by what they depend on: the
        hand, the power left (what is above the dearest card pays nothing more), whether the
        magistratura began big, and the strategy cards it may still play."""
        t = self._t
        power = self.fpower[side]
        if power > t.cap:
            power = t.cap
        used = self.strategy_used[side]
        if self.in_tiebreak:
            open_bits = 0
            for i in range(6):
                if not used[i]:
                    open_bits |= 1 << i
        else:
            card = self.strategy_of[mag]
            open_bits = 0 if card is None or used[card] else 1 << card
        hand = tuple(self.hand[side])
        big = self.began_big[side]
        key = (hand, power, big, open_bits)
        entry = t.fight_cache.get(key)
        if entry is None:
            # a position not seen yet: the codes it may pay (``playable``, or none once
            # ``out``), then the choices those codes and the open strategy cards make (a
            # smaller table, soon full)
            if power < t.cheapest[big]:
                codes: tuple[str | None, ...] = (None,)
            else:
                values, big_only, code_of = t.values, t.big_only, t.code_of
                payable: list[str | None] = []
                for i in hand:
                    if values[i] <= power and (big or not big_only[i]):
                        code = code_of[i]
                        if code not in payable:
                            payable.append(code)
                codes = tuple(payable)
            entry = t.choices_cache.get((codes, open_bits))
            if entry is None:
                fights = t.fights
                strategies = [None, *(i for i in range(6) if open_bits >> i & 1)]
                entry = FightChoices(tuple(fights[c, s] for c in codes for s in strategies))
                if len(t.choices_cache) >= CACHE_MAX:
                    t.choices_cache.clear()
                t.choices_cache[codes, open_bits] = entry
            if len(t.fight_cache) >= CACHE_MAX:
                t.fight_cache.clear()
            t.fight_cache[key] = entry
        return entry

    def _fight_choices(self, side: int) -> tuple[Fight, ...]:
        """A move's choices worked out from the rules: every card the side may pay (or none
        once it cannot pay any), each alone or with a strategy card it may still play."""
        fights = self.ruleset.fights
        codes: list[str | None] = list(self.playable(side)) if not self.out(side) else [None]
        strategies: list[int | None] = [None, *self.strategies_open(side)]
        return tuple(fights[c, s] for c in codes for s in strategies)

    def _legal_assign(self, pool: tuple[int, tuple[int, ...]] | None = None) -> tuple[Assign, ...]:
        if pool is None:
            pool = self._current_pool()
            assert pool is not None
        mags = pool[1]
        if self.ruleset.free_assignment:
            # free sheets: too many partial sheets to remember, each listing up to hundreds
            # of lines; worked out each time (a dozen times a match)
            return tuple(self._assign_choices(mags))
        initial = self.initial
        written = tuple(initial[mags[0] : mags[-1] + 1])  # a sheet is a run of mags
        t = self._t
        choices = t.assign_cache.get((mags, written))
        if choices is None:
            # Base lines depend only on the lines still open and the values already used
            # (in any order): a smaller table, full after the first matches
            open_mags = tuple(m for m, v in zip(mags, written, strict=True) if v is None)
            used = tuple(sorted(v for v in written if v is not None))
            choices = t.sheet_cache.get((mags, open_mags, used))
            if choices is None:
                choices = tuple(self._assign_choices(mags))
                if len(t.sheet_cache) >= CACHE_MAX:
                    t.sheet_cache.clear()
                t.sheet_cache[mags, open_mags, used] = choices
            if len(t.assign_cache) >= CACHE_MAX:
                t.assign_cache.clear()
            t.assign_cache[mags, written] = choices
        return choices

    def _assign_choices(self, mags: tuple[int, ...]) -> list[Assign]:
        """The lines the sheet may take next, worked out from the rules."""
        rs = self.ruleset
        open_mags = [m for m in mags if self.initial[m] is None]
        done = [int(self.initial[m] or 0) for m in mags if self.initial[m] is not None]
        if not rs.free_assignment:
            left = self._values_left(mags, done)
            values = sorted(set(left), reverse=True)
            return [self._t.assign(m, v) for m in open_mags for v in values]
        remaining = self.pool_total(mags) - sum(done)
        k = len(open_mags)
        amounts: list[int] = []
        cap = min(done) if (rs.hidden_values and done) else remaining
        v = rs.min_power
        while v <= min(remaining, cap):
            rest = remaining - v
            fits = rest >= rs.min_power * (k - 1) if k > 1 else rest == 0
            if fits and rs.hidden_values and k > 1:
                fits = rest <= v * (k - 1)
            if fits:
                amounts.append(v)
            v += rs.chip
        return [self._t.assign(m, a) for m in open_mags for a in amounts]

    def _values_left(self, mags: tuple[int, ...], done: list[int]) -> list[int]:
        """Base: the fixed values not yet written (a wrong value written stays unmatched)."""
        left = list(self.pool_values(mags))
        for v in done:
            if v in left:
                left.remove(v)
        return left

    def _deploy_mags(self, seat: int | None = None) -> list[int]:
        """The challenger's magistrature that may go on the bridge (``seat``: the challenger's
        seat when the caller has it)."""
        mags = self._t.side_mags[self.challenger]
        generals = self.layout.generals is not None
        if self.in_tiebreak:
            if generals:
                return list(mags)
            seat = self.challenger_seat()
            owners = self._owners
            return [m for m in mags if owners[m] == seat]
        fought = self.fought
        if generals:
            return [m for m in mags if not fought[m]]
        if seat is None:
            seat = self.challenger_seat()
        owners = self._owners
        return [m for m in mags if owners[m] == seat and not fought[m]]

    def _target_quarters(self) -> list[int | None]:
        enemy = 1 - self.challenger
        if self.in_tiebreak or not self._t.split[enemy]:
            return [None]
        fought = self.fought
        return [
            q
            for q in (2 * enemy, 2 * enemy + 1)
            if not (fought[3 * q] and fought[3 * q + 1] and fought[3 * q + 2])
        ]

    def _legal_deploy(self, seat: int | None = None) -> list[Deploy]:
        quarters = self._target_quarters()
        mags = self._deploy_mags(seat)
        if quarters == [None]:
            return [DEPLOYS[m, None] for m in mags]
        return [DEPLOYS[m, None if q is None else q % 2] for m in mags for q in quarters]

    def _respond_mags(self) -> list[int]:
        mags = self._t.side_mags[1 - self.challenger]
        if self.in_tiebreak:
            if self.layout.generals is not None:
                return list(mags)
            seat = self.responder_seat()
            owners = self._owners
            return [m for m in mags if owners[m] == seat]
        fought = self.fought
        target = self.target
        if target is not None:
            return [m for m in mags if not fought[m] and m // 3 == target]  # its quarter
        return [m for m in mags if not fought[m]]

    # --- checks ---------------------------------------------------------------------
    def check(self, seat: int, action: Any) -> list[Violation]:
        if self.phase is FIGHT and type(action) is Fight:  # most of a record: a lookup
            side = 0 if self.pending[0] is None else 1
            mag = self.fighter[side]
            if (
                mag is not None
                and seat == self._owners[mag]
                and (action.card, action.strategy) in self._fight_entry(side, mag).pairs
            ):
                return []  # one of the legal choices, which break no rule (as checked below)
        found: list[Violation] = []
        if self.phase is OVER:
            return [rule_broken(BOOK, "ponte.record.game_over", seat=seat)]
        expected = self.to_act()
        if seat != expected:
            rule = "ponte.turn.order"
            if self.phase is DEPLOY and not self.in_tiebreak:
                mine = seat in self.layout.side_seats(self.challenger)
                rule = "ponte.deploy.challenger"
                if mine and seat == self.last_win_seat and self.layout.generals is None:
                    rule = "ponte.deploy.pass_to_ally"
            found.append(
                rule_broken(
                    BOOK,
                    rule,
                    f"Tocca al posto {seat_no(expected)}, non al posto {seat_no(seat)}.",
                    f"Seat {seat_no(expected)} is to act, not seat {seat_no(seat)}.",
                    seat=seat,
                )
            )
        wanted = _PHASE_ACTION[self.phase]
        if not isinstance(action, wanted):
            if isinstance(action, Equip) and not self.ruleset.free_assignment:
                rule = "ponte.strategy.random"
            else:
                rule = "ponte.turn.phase"
            found.append(
                rule_broken(
                    BOOK,
                    rule,
                    f"Ora è la fase {PHASE_WORDS[self.phase][0]}: "
                    f"{ACTION_WORDS[type(action).__name__][0]} non appartiene a questa fase.",
                    f"Now is the {PHASE_WORDS[self.phase][1]} phase: "
                    f"{ACTION_WORDS[type(action).__name__][1]} does not belong here.",
                    seat=seat,
                )
            )
            return found
        if isinstance(action, Fight):
            found += self._check_fight(seat, action)
        elif isinstance(action, Assign):
            found += self._check_assign(seat, action)
        elif isinstance(action, Equip):
            found += self._check_equip(seat, action)
        elif isinstance(action, Deploy):
            found += self._check_deploy(seat, action)
        return found

    def _check_assign(self, seat: int, a: Assign) -> list[Violation]:
        pool = self._current_pool()
        assert pool is not None
        _, mags = pool
        rs = self.ruleset
        name = mag_label(MAGISTRATURE[a.mag])
        if a.mag not in mags or self.initial[a.mag] is not None:
            return [
                rule_broken(
                    BOOK,
                    "ponte.power.own",
                    f"{name} non è una magistratura ancora senza potenza di questo foglio.",
                    f"{name} is not an unassigned magistratura of this sheet.",
                    seat=seat,
                )
            ]
        found: list[Violation] = []
        done = [int(self.initial[m] or 0) for m in mags if self.initial[m] is not None]
        open_count = sum(1 for m in mags if self.initial[m] is None)
        if not rs.free_assignment:
            left = self._values_left(mags, done)
            if a.power not in left:
                found.append(
                    rule_broken(
                        BOOK,
                        "ponte.power.base_values",
                        f"{_k(a.power)} non è fra i valori rimasti: "
                        f"{', '.join(_k(v) for v in sorted(left))}.",
                        f"{_k(a.power)} is not among the values left: "
                        f"{', '.join(_k(v) for v in sorted(left))}.",
                        seat=seat,
                    )
                )
            return found
        if a.power % rs.chip:
            found.append(
                rule_broken(
                    BOOK,
                    "ponte.power.step",
                    f"{_k(a.power)} non è multiplo di {_k(rs.chip)}.",
                    f"{_k(a.power)} is not a multiple of {_k(rs.chip)}.",
                    seat=seat,
                )
            )
        if a.power < rs.min_power:
            found.append(
                rule_broken(
                    BOOK,
                    "ponte.power.minimum",
                    f"{name} riceve {_k(a.power)}.",
                    f"{name} gets {_k(a.power)}.",
                    seat=seat,
                )
            )
        total = self.pool_total(mags)
        remaining = total - sum(done) - a.power
        if open_count == 1 and remaining != 0:
            found.append(
                rule_broken(
                    BOOK,
                    "ponte.power.total",
                    f"Il foglio somma {_k(total - remaining)}, non {_k(total)}.",
                    f"The sheet adds up to {_k(total - remaining)}, not {_k(total)}.",
                    seat=seat,
                )
            )
        elif open_count > 1 and remaining < rs.min_power * (open_count - 1):
            found.append(
                rule_broken(
                    BOOK,
                    "ponte.power.total",
                    f"Resterebbero {_k(remaining)} per {open_count - 1} magistrature.",
                    f"Only {_k(remaining)} would be left for {open_count - 1} magistrature.",
                    seat=seat,
                )
            )
        if rs.hidden_values:
            if done and a.power > min(done):
                found.append(
                    rule_broken(
                        BOOK,
                        "ponte.power.rank",
                        f"Il {len(done) + 1}° non può superare il {len(done)}° ({_k(min(done))}).",
                        f"Rank {len(done) + 1} cannot exceed rank {len(done)} ({_k(min(done))}).",
                        seat=seat,
                    )
                )
            elif open_count > 1 and remaining > a.power * (open_count - 1):
                found.append(
                    rule_broken(
                        BOOK,
                        "ponte.power.rank",
                        f"I {_k(remaining)} restanti non stanno sotto {_k(a.power)} ciascuna.",
                        f"{_k(remaining)} left cannot fit below {_k(a.power)} each.",
                        seat=seat,
                    )
                )
        return found

    def _check_equip(self, seat: int, a: Equip) -> list[Violation]:
        group = self._current_group()
        assert group is not None
        _, mags, cards = group
        taken = {self.strategy_of[m] for m in mags}
        if a.mag not in mags or self.strategy_of[a.mag] is not None:
            return [
                rule_broken(
                    BOOK,
                    "ponte.strategy.assign",
                    f"{mag_label(MAGISTRATURE[a.mag])} non attende una carta qui.",
                    f"{mag_label(MAGISTRATURE[a.mag])} is not a magistratura waiting for a "
                    "card here.",
                    seat=seat,
                )
            ]
        if a.card not in cards or a.card in taken:
            return [
                rule_broken(
                    BOOK,
                    "ponte.strategy.assign",
                    f"La carta strategia {a.card + 1} non è in mano o è già piazzata.",
                    f"Strategy card {a.card + 1} is not held or already placed.",
                    seat=seat,
                )
            ]
        return []

    def _check_deploy(self, seat: int, a: Deploy) -> list[Violation]:
        found: list[Violation] = []
        name = mag_label(MAGISTRATURE[a.mag])
        responding = self.phase is RESPOND
        side = 1 - self.challenger if responding else self.challenger
        if side_of(a.mag) != side:
            return [
                rule_broken(
                    BOOK,
                    "ponte.deploy.own" if responding else "ponte.deploy.challenger",
                    f"{name} non è di {mag_label(SIDES[side])}, che deve schierare.",
                    f"{name} is not of {mag_label(SIDES[side])}, whose turn it is to deploy.",
                    seat=seat,
                )
            ]
        if not self.in_tiebreak and self.fought[a.mag]:
            found.append(
                rule_broken(
                    BOOK,
                    "ponte.deploy.once",
                    f"{name} ha già combattuto.",
                    f"{name} has already fought.",
                    seat=seat,
                )
            )
        legal = self._respond_mags() if responding else self._deploy_mags()
        if a.mag not in legal and not found:
            if responding and self.target is not None and quarter_of(a.mag) != self.target:
                rule = "ponte.deploy.quarter"
            elif self.in_tiebreak and self.layout.generals is None:
                rule = "ponte.match.tiebreak_player"
            elif not responding and self.layout.split(side) and self.layout.generals is None:
                rule = "ponte.deploy.pass_to_ally"
            else:
                rule = "ponte.deploy.own"
            found.append(
                rule_broken(
                    BOOK,
                    rule,
                    f"{name} non può essere schierata ora dal posto {seat + 1}.",
                    f"{name} cannot be deployed by seat {seat + 1} now.",
                    seat=seat,
                )
            )
        if responding:
            if a.quarter is not None:
                found.append(
                    rule_broken(
                        BOOK,
                        "ponte.deploy.quarter",
                        "Solo chi sfida nomina un quartiere.",
                        "Only the challenger names a quarter.",
                        seat=seat,
                    )
                )
            return found
        quarters = self._target_quarters()
        named = None if a.quarter is None else 2 * (1 - side) + a.quarter
        if named not in quarters:
            want = "no quarter" if quarters == [None] else "an enemy quarter with magistrature left"
            found.append(
                rule_broken(
                    BOOK,
                    "ponte.deploy.quarter",
                    "Nominare "
                    + (
                        "nessun quartiere."
                        if quarters == [None]
                        else "un quartiere nemico con magistrature libere."
                    ),
                    f"Name {want}.",
                    seat=seat,
                )
            )
        return found

    def _check_fight(self, seat: int, a: Fight) -> list[Violation]:
        found: list[Violation] = []
        side = self.fight_side()
        rs = self.ruleset
        if self.phase is TYPES:
            if a.card is None or a.card not in self.playable(side):
                found.append(
                    rule_broken(
                        BOOK,
                        "ponte.challenge.types",
                        "Si gioca una carta lotta del mazzo rimasto"
                        + (f", non {words.card(a.card, 'it')}." if a.card else "."),
                        "A fight card of the pack left is played"
                        + (f", not {words.card(a.card, 'en')}." if a.card else "."),
                        seat=seat,
                    )
                )
            if a.strategy is not None:
                found.append(
                    rule_broken(
                        BOOK,
                        "ponte.challenge.types",
                        "Niente carte strategia nello spareggio per tipo.",
                        "No strategy card in the tie breaker on types.",
                        seat=seat,
                    )
                )
            return found
        if a.card is None:
            if not self.out(side):
                found.append(
                    rule_broken(
                        BOOK,
                        "ponte.fight.must_play",
                        f"{_k(self.fpower[side])} Kg/Push rimasti pagano una carta.",
                        f"{_k(self.fpower[side])} Kg/Push left pays a card.",
                        seat=seat,
                    )
                )
        elif self.out(side):
            found.append(
                rule_broken(
                    BOOK,
                    "ponte.fight.must_play",
                    "Potenza finita: nessuna carta lotta.",
                    "No power left: no fight card.",
                    seat=seat,
                )
            )
        else:
            card = rs.codes.get(a.card)
            if card is None:
                found.append(
                    rule_broken(
                        BOOK,
                        "ponte.fight.in_pack",
                        f"{_it(a.card)} non è nel mazzo di questo set.",
                        f"{_en(a.card)} is not in this set's pack.",
                        seat=seat,
                    )
                )
            else:
                if card.value > self.fpower[side]:
                    found.append(
                        rule_broken(
                            BOOK,
                            "ponte.fight.power",
                            f"{_it(a.card)} costa {_k(card.value)}, "
                            f"restano {_k(self.fpower[side])}.",
                            f"{_en(a.card)} costs {_k(card.value)}, {_k(self.fpower[side])} left.",
                            seat=seat,
                        )
                    )
                if rs.restricted(card) and not self.began_big[side]:
                    found.append(
                        rule_broken(
                            BOOK,
                            "ponte.fight.big_attack",
                            f"La magistratura partiva con {_k(self.starting(side))}.",
                            f"The magistratura began with {_k(self.starting(side))}.",
                            seat=seat,
                        )
                    )
                hand = self.hand[side]
                if not any(i in hand for i in rs.indices[a.card]):
                    found.append(
                        rule_broken(
                            BOOK,
                            "ponte.fight.in_pack",
                            f"{_it(a.card)} è già speso e il mazzo non è ancora tornato.",
                            f"{_en(a.card)} is spent and the pack has not come back yet.",
                            seat=seat,
                        )
                    )
        if a.strategy is not None and a.strategy not in self.strategies_open(side):
            if 0 <= a.strategy < 6 and self.strategy_used[side][a.strategy]:
                rule = "ponte.fight.strategy_once"
            else:
                rule = "ponte.fight.strategy_own"
            found.append(
                rule_broken(
                    BOOK,
                    rule,
                    f"La carta strategia {a.strategy + 1} non si può usare ora.",
                    f"Strategy card {a.strategy + 1} cannot be used now.",
                    seat=seat,
                )
            )
        return found

    # --- applying -------------------------------------------------------------------
    def apply_unchecked(self, seat: int, action: Any) -> None:
        phase = self.phase
        if phase is FIGHT and type(action) is Fight:  # most of a match: as below, shorter
            card = action.card
            if card is not None and card not in self._t.cards:
                raise RecordError(f"{card} is not a card of this set")
            strategy = action.strategy
            if strategy is not None and not 0 <= strategy < 6:
                raise RecordError(f"there is no strategy card {strategy}")
            self.actions.append((seat, action))
            pending = self.pending
            if pending[0] is None:
                pending[0] = action
            else:
                pending[1] = action
                self._resolve_move()
            return
        if phase is OVER:
            raise RecordError("the match is over")
        if isinstance(action, Fight) and phase in (FIGHT, TYPES):
            card = action.card
            if card is not None and card not in self._t.cards:
                raise RecordError(f"{card} is not a card of this set")
            strategy = action.strategy
            if strategy is not None and not 0 <= strategy < 6:
                raise RecordError(f"there is no strategy card {strategy}")
            if phase is TYPES and card is None:
                raise RecordError("the tie breaker on types needs a card")
            self.actions.append((seat, action))
            pending = self.pending
            if pending[0] is None:
                pending[0] = action
            else:
                pending[1] = action
                if phase is TYPES:
                    self._resolve_types()
                else:
                    self._resolve_move()
            return
        if isinstance(action, Assign) and self.phase is POWER:
            if self.initial[action.mag] is not None:
                raise RecordError(f"{MAGISTRATURE[action.mag]} already has its power")
            # the sheet being written (read before this line fills it: once full, the
            # current pool is the next one), so the last and weakest line gets the last rank
            pool = self._current_pool()
            initial = self.initial
            initial[action.mag] = action.power
            self.power[action.mag] = action.power
            if pool is None:
                self.rank[action.mag] = 0
            else:
                rank = 0
                for m in pool[1]:
                    if initial[m] is not None:
                        rank += 1
                self.rank[action.mag] = rank
            self.actions.append((seat, action))
            self._advance_setup()
            return
        if isinstance(action, Equip) and self.phase is STRATEGY:
            if self.strategy_of[action.mag] is not None or not 0 <= action.card < 6:
                raise RecordError(f"{MAGISTRATURE[action.mag]} cannot take card {action.card}")
            self.strategy_of[action.mag] = action.card
            self.actions.append((seat, action))
            self._advance_setup()
            return
        if isinstance(action, Deploy) and self.phase in (DEPLOY, RESPOND):
            self.actions.append((seat, action))
            self._deploy(action)
            return
        raise RecordError(f"a {type(action).__name__} cannot happen in phase {self.phase}")

    def _deploy(self, a: Deploy) -> None:
        if self.phase is DEPLOY:
            side = self.challenger
            self.target = None if a.quarter is None else 2 * (1 - side) + a.quarter
            self.phase = RESPOND
        else:
            side = 1 - self.challenger
            self.phase = FIGHT
        self.fighter[side] = a.mag
        if self.in_tiebreak:
            self.fpower[side] = self.reserve[side]
            self.reserve[side] = 0
        else:
            self.fpower[side] = self.power[a.mag]
            self.power[a.mag] = 0
            self.fought[a.mag] = True
        self.fstart[side] = self.fpower[side]
        self.began_big[side] = int(self.initial[a.mag] or 0) >= self.ruleset.big_attack_min
        if self.phase is FIGHT:
            self.carrello = 0
            self.moves = []
            if self.ruleset.pack_per_challenge:
                full = self._t.full_hand
                self.hand = [list(full), list(full)]
            self._refresh(0)
            self._refresh(1)

    def _resolve_move(self) -> None:
        t = self._t
        first, second = self.pending
        assert first is not None and second is not None
        code0, own0, code1, own1 = first.card, first.strategy, second.card, second.strategy
        push = t.pushes.get((code0, own0, code1, own1))
        if push is None:
            push = t.push(code0, own0, code1, own1)
        carrello = self.carrello + push.delta
        self.carrello = carrello
        fpower = self.fpower
        hands = self.hand
        card = push.card0
        if card is not None:
            fpower[0] -= card.value
            self.spent[0] += card.value
            hand = hands[0]
            for i in push.copies0:
                if i in hand:  # the first such card in hand (``_discard``)
                    hand.remove(i)
                    break
        if own0 is not None:
            self.strategy_used[0][own0] = True
            if push.recover0:
                self._recover(0, push.recover0)
        card = push.card1
        if card is not None:
            fpower[1] -= card.value
            self.spent[1] += card.value
            hand = hands[1]
            for i in push.copies1:
                if i in hand:
                    hand.remove(i)
                    break
        if own1 is not None:
            self.strategy_used[1][own1] = True
            if push.recover1:
                self._recover(1, push.recover1)
        self.moves.append(
            {
                "cards": [code0, code1],
                "strategy": [own0, own1],
                "winner": push.winner,
                "carrello": carrello,
                "left": list(fpower),
            }
        )
        self.pending = [None, None]
        limit = self.ruleset.bridge_slots
        # ponte.challenge.conquest: the carrello past the last slot of an end wins
        if carrello > limit:
            self._end_challenge(0, "conquest")
            return
        if carrello < -limit:
            self._end_challenge(1, "conquest")
            return
        cheapest, big = t.cheapest, self.began_big
        if fpower[0] < cheapest[big[0]] and fpower[1] < cheapest[big[1]]:  # both ``out``
            # ponte.challenge.middle: both out of power, the side that pushed the carrello past
            # the middle wins; dead centre, a tie breaker on types
            if carrello != 0:
                self._end_challenge(0 if carrello > 0 else 1, "middle")
            else:
                self.phase = TYPES
                self.hand = [list(t.full_hand), list(t.full_hand)]
            return
        # ``_refresh`` of both sides, written out: this runs after every move
        values, big_only = t.values, t.big_only
        for side in (0, 1):
            power = fpower[side]
            if big[side]:
                for i in hands[side]:
                    if values[i] <= power:
                        break
                else:
                    hands[side] = list(t.full_hand)
            else:
                for i in hands[side]:
                    if values[i] <= power and not big_only[i]:
                        break
                else:
                    hands[side] = list(t.full_hand)

    def _recover(self, side: int, amount: int) -> None:
        """A recover card gives back power spent in this challenge, up to its amount."""
        gain = max(0, min(amount, self.fstart[side] - self.fpower[side]))
        self.fpower[side] += gain
        self.recovered[side] += gain

    def _resolve_types(self) -> None:
        acts = [self.pending[0], self.pending[1]]
        assert acts[0] is not None and acts[1] is not None
        kinds = []
        for s in (0, 1):
            code = acts[s].card  # type: ignore[union-attr]  # both checked above: list items stay Optional
            kinds.append(self.ruleset.codes[str(code)].kind)
            self._discard(s, str(code))
        self.moves.append(
            {
                "types": [TYPE_NAMES[k] for k in kinds],
                "winner": None
                if kinds[0] == kinds[1]
                else SIDES[0 if BEATS[kinds[0]] == kinds[1] else 1],
            }
        )
        self.pending = [None, None]
        if kinds[0] != kinds[1]:
            self._end_challenge(0 if BEATS[kinds[0]] == kinds[1] else 1, "types")
            return
        for s in (0, 1):
            self._refresh(s)

    def _end_challenge(self, winner: int, how: str) -> None:
        fighters = [int(f) for f in self.fighter if f is not None]
        win_seat = self.owner(fighters[winner])
        result: dict[str, JSON] = {
            "tramontana": MAGISTRATURE[fighters[0]],
            "mezzogiorno": MAGISTRATURE[fighters[1]],
            "winner": SIDES[winner],
            "by": how,
            "carrello": self.carrello,
            "moves": self.moves,
            "left": list(self.fpower),
        }
        for s in (0, 1):
            if self.in_tiebreak:
                self.leftover[s] += self.fpower[s]
            else:
                # ponte.challenge.backup: what a magistratura did not spend goes to its back-up box.
                self.backup[fighters[s]] += self.fpower[s]
            self.fpower[s] = 0
        self.wins[winner] += 1
        self.seat_wins[win_seat] += 1
        self.last_win_seat = win_seat
        self.challenger = winner
        self.fighter = [None, None]
        self.began_big = [self._begins_big(0), self._begins_big(1)]
        self.target = None
        self.moves = []
        self.carrello = 0
        rs = self.ruleset
        if self.in_tiebreak:
            self.tiebreak = result
            self.phase = OVER
            return
        self.results.append(result)
        played = len(self.results)
        if rs.stop_at_four and max(self.wins) >= rs.to_win:
            self.phase = OVER
        elif played >= rs.challenges:
            if self.wins[0] == self.wins[1]:
                self._start_tiebreak()
            else:
                self.phase = OVER
        else:
            self.phase = DEPLOY

    def _start_tiebreak(self) -> None:
        self.in_tiebreak = True
        seats: list[int] = []
        for side in (0, 1):
            box = sum(self.backup[m] for m in side_mags(side))
            self.drawn[side] = box
            self.bonus[side] += self.ruleset.tiebreak_bonus
            self.reserve[side] = box + self.ruleset.tiebreak_bonus
            seats.append(self.tiebreak_player(side))
        self.tb_seats = (seats[0], seats[1])
        self.phase = DEPLOY

    def seat_backup(self, seat: int) -> int:
        if self.layout.generals is not None and seat in self.layout.generals:
            side = self.layout.generals.index(seat)
            return sum(self.backup[m] for m in side_mags(side))
        return sum(self.backup[m] for m in self.seat_mags(seat))

    def tiebreak_player(self, side: int) -> int:
        """Most victories for the side, then the fuller back-up box, then the East player."""
        east, west = self.layout.owners[2 * side], self.layout.owners[2 * side + 1]
        if east == west:
            return east
        return max(
            (east, west),
            key=lambda s: (self.seat_wins[s], self.seat_backup(s), s == east),
        )

    # --- conservation -----------------------------------------------------------------
    def ledger(self, side: int) -> tuple[int, int]:
        """(given, accounted): equal after every move when power is conserved."""
        mags = side_mags(side)
        given = sum(int(self.initial[m] or 0) for m in mags) + self.bonus[side]
        given += self.recovered[side]
        held = sum(self.power[m] for m in mags) + sum(self.backup[m] for m in mags)
        held += self.fpower[side] + self.reserve[side] + self.leftover[side]
        return given, held - self.drawn[side] + self.spent[side]

    def ledger_ok(self) -> bool:
        return all(g == a for g, a in (self.ledger(0), self.ledger(1)))

    # --- end ------------------------------------------------------------------------
    def is_over(self) -> bool:
        return self.phase is OVER

    def outcome(self) -> Outcome:
        if not self.is_over():
            raise ValueError("the match is not over")
        winner_side = 0 if self.wins[0] > self.wins[1] else 1
        result = rank_match(
            self.ruleset,
            self.layout,
            winner_side,
            self.seat_wins,
            [self.seat_backup(s) for s in range(self.ruleset.seats)],
            self.wins,
        )
        detail: dict[str, JSON] = {
            "sides": list(self.wins),
            "winner": SIDES[winner_side],
            "challenges": self.results,
            "tie_breaker": self.tiebreak,
            "backup": [self.seat_backup(s) for s in range(self.ruleset.seats)],
            "ranking": result["ranking"],
            "victories": list(self.seat_wins),
        }
        return match_outcome(
            self.ruleset, self.layout, result, len(self.results), self.tiebreak is not None, detail
        )

    def summary(self) -> dict[str, JSON]:
        """What a scorekeeper writes for this match (docs/notation/ponte.md)."""
        keys = ("tramontana", "mezzogiorno", "winner")
        out: dict[str, JSON] = {
            "challenges": [
                {**{k: r[k] for k in keys}, "left": list(r["left"])} for r in self.results
            ],
        }
        if self.tiebreak is not None:
            out["tie_breaker"] = {k: self.tiebreak[k] for k in keys}
        return out

    # --- views and records ------------------------------------------------------------
    def _shows_value(self, viewer_side: int | None, mag: int) -> bool:
        if viewer_side == side_of(mag):
            return True
        if self.phase in (POWER, STRATEGY):
            return False
        mode = self.ruleset.mode
        if mode in ("base", "advanced"):
            return True
        if mode == "expert":
            return self.fought[mag] or mag in self.fighter
        if self.ruleset.incognito_reveal:
            return self.fought[mag] and mag not in self.fighter
        return False

    def _public(self, row: dict[str, JSON], own: int | None) -> dict[str, JSON]:
        """Incognito: the enemy's power left (hence its starting power) stays hidden."""
        if self.ruleset.mode != "incognito" or self.ruleset.incognito_reveal:
            return row
        out = dict(row)
        if "left" in out:
            out["left"] = [v if s == own else None for s, v in enumerate(out["left"])]
        if "moves" in out:
            out["moves"] = [self._public(m, own) for m in out["moves"]]
        return out

    def view(self, seat: int | None) -> dict[str, JSON]:
        own = None if seat is None else self.layout.side_of_seat(seat)
        mags: list[dict[str, JSON]] = []
        for m in range(12):
            shown = self._shows_value(own, m)
            card = self.strategy_of[m]
            side = side_of(m)
            card_shown = card is not None and (own == side or self.strategy_used[side][card])
            entry: dict[str, JSON] = {
                "name": MAGISTRATURE[m],
                "side": SIDES[side],
                "quarter": QUARTERS[quarter_of(m) % 2],
                "owner": self.owner(m),
                "fought": self.fought[m],
                "power": self.initial[m] if shown else None,
                "left": self.power[m] if shown else None,
                "backup": self.backup[m] if shown else None,
                "strategy": card if card_shown else None,
            }
            if self.ruleset.hidden_values and self.phase not in (POWER, STRATEGY):
                entry["rank"] = self.rank[m]
            mags.append(entry)
        fighters: list[JSON] = []
        for s in (0, 1):
            mag = self.fighter[s]
            if mag is None:
                fighters.append(None)
                continue
            see = own == s or self.ruleset.mode != "incognito"
            fighters.append(
                {
                    "mag": MAGISTRATURE[mag],
                    "power": self.fpower[s] if see else None,
                    "exhausted": self.out(s),
                }
            )
        pending = [
            None if p is None else (encode(p) if own == s else {"chosen": True})
            for s, p in enumerate(self.pending)
        ]
        hands = [sorted(self.pack[i].code for i in h) for h in self.hand]
        results = [self._public(r, own) for r in self.results]
        tiebreak = None if self.tiebreak is None else self._public(self.tiebreak, own)
        moves = [self._public(m, own) for m in self.moves]
        return {
            "game": SLUG,
            "mode": self.ruleset.mode,
            "phase": self.phase.value,
            "to_act": self.to_act(),
            "seat_side": None if own is None else SIDES[own],
            "magistrature": mags,
            "challenger": SIDES[self.challenger],
            "fighters": fighters,
            "carrello": self.carrello,
            "bridge_slots": self.ruleset.bridge_slots,
            "moves": moves,
            "pending": pending,
            "packs": hands,
            "strategy_used": [list(u) for u in self.strategy_used],
            "wins": list(self.wins),
            "challenges": results,
            "tie_breaker": tiebreak,
            "legal": [encode(a) for a in self.legal_actions(seat)] if seat is not None else [],
        }

    def to_record(self) -> dict[str, JSON]:
        record: dict[str, JSON] = {
            "game": SLUG,
            "version": NOTATION_VERSION,
            "ruleset": self.ruleset.to_json(),
            "deal": self.deal.to_json(),
            "actions": [{"seat": s, **encode(a)} for s, a in self.actions],
        }
        if self.seed is not None:
            record["seed"] = self.seed
        return record
