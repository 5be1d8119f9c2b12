"""What the rules allow on San Marco's board (``BoardRules``): the legal actions of a seat,
the check of one action and the rule it breaks."""

from __future__ import annotations

from typing import Any

from games.core import (
    Violation,
    rule_broken,
)
from games.core.text import seat_no
from games.sanmarco.actions import (
    _BANISH,
    _BRIDGE_ACT,
    _CHOOSE,
    _DISTRICT_FROM,
    _DOGE_STEP,
    _NEUTRAL,
    _PILE_LIST,
    _REMOVE,
    _SCORE,
    _SHORT,
    _SKIP,
    _STOP,
    _TRANSFER,
    Act,
    _card_of,
    _new_act,
    _pick,
)
from games.sanmarco.board import MAX_BRIDGES
from games.sanmarco.cards import (
    BANISH,
    BRIDGE,
    TRANSFER,
)
from games.sanmarco.flow import (
    CHOOSE,
    DIVIDE,
    FREE_BANISH,
    NEUTRAL_RETURN,
    OVER,
    SETUP,
    BoardFlow,
    _Reach,
    _reach,
)
from games.sanmarco.rules import BOOK


class BoardRules(BoardFlow):
    """A board game that judges its actions (the flow is ``BoardFlow``'s)."""

    # --- legal actions ----------------------------------------------------------------------
    def legal_actions(self, seat: int) -> list[Act]:
        """Every action the rules allow this seat now: the one list ``check`` and the bots
        read (empty when the seat is not to act)."""
        if self.to_act() != seat:
            return []
        return self._legal()

    def _legal(self) -> list[Act]:
        ph = self.phase
        colour = self.acting_colour()
        assert colour is not None
        if ph == SETUP:
            return self._bridge_moves(colour, setup=True)
        if ph == DIVIDE:
            return self._pile_moves()
        if ph == CHOOSE:
            return [_pick(_CHOOSE, q, "choose") for q, t in enumerate(self.taken) if t == -1]
        if ph == NEUTRAL_RETURN:
            return list(_NEUTRAL)
        if ph == FREE_BANISH and self.pending is None:
            return list(_BANISH)
        p = self.pending
        if p is not None:
            if p.kind == "remove":
                return [_pick(_REMOVE, c, "remove") for c in self._removable(colour, p.district)]
            if p.kind == "doge":
                return self._doge_moves(p.visited)
            if p.kind == "score":
                s = p.seats[0]
                return [_pick(_SCORE, s, "score"), _pick(_SCORE, s + 2, "score")]
        return self._hand_moves(colour)

    def _pile_moves(self) -> list[Act]:
        """The offers the next card may go to (``_pile_ok`` for each offer, read at once:
        offer q < used needs ``rest >= k - used`` cards left, the next new offer one fewer)."""
        k = self._offers
        used = self._used
        rest = len(self.hand) - len(self.assign) - 1
        if k > _SHORT:
            return [_new_act(Act, ("pile", q, -1, -1)) for q in range(k) if self._pile_ok(q)]
        if rest >= k - used:
            return _PILE_LIST[: min(used, k - 1) + 1]
        if rest == k - used - 1 and 0 <= used < k:
            return [_PILE_LIST[used]]
        return []

    def _hand_moves(self, colour: int) -> list[Act]:
        """The holder's moves: every way to carry out each card held (in card order), and
        setting a card aside when it cannot be carried out (or always, by the ruleset)."""
        out: list[Act] = []
        decline = self.ruleset.may_decline
        holding = self.holding
        hops: tuple[tuple[Act, ...], ...] | None = None
        last = -1
        for card in holding:  # kept in card order: a card held twice is read once
            if card <= last:
                if card == last:
                    continue
                return self._hand_moves_of(colour, sorted(set(holding)))
            last = card
            if card < 6 and self.supply[colour] > 0:  # the common card, never set aside
                if hops is None:
                    hops = self._hops(colour)[1]
                out += hops[card]
                if decline:
                    out.append(_SKIP[card])
                continue
            moves = self._card_moves(colour, card)
            out += moves
            if not moves or decline:
                out.append(_SKIP[card])
        return out

    def _hand_moves_of(self, colour: int, cards: list[int]) -> list[Act]:
        """``_hand_moves`` for these distinct cards, in this order."""
        out: list[Act] = []
        for card in cards:
            moves = self._card_moves(colour, card)
            out += moves
            if not moves or self.ruleset.may_decline:
                out.append(_SKIP[card])
        return out

    def _pile_ok(self, q: int) -> bool:
        """The next card may go to offer q: offers open in order (the first card to offer 0,
        a new offer only after the ones before it), and enough cards stay for the offers not
        yet opened (sanmarco.base.divide)."""
        k = self._offers
        used = self._used
        if not 0 <= q < k or q > used:
            return False
        return len(self.hand) - len(self.assign) - 1 >= k - max(used, q + 1)

    def _removable(self, colour: int, d: int) -> list[int]:
        row = self.cubes[d]
        others = []
        for c, n in enumerate(row):
            if n > 0 and c != colour:
                others.append(c)
        return others or ([colour] if row[colour] > 0 else [])

    def _doge_moves(self, visited: Any) -> list[Act]:
        """The bridges the Doge may cross now (``_doge_step_ok`` for each bridge), then
        stopping."""
        touch = self._touch
        if touch is None or self.bridges != self._bridges_seen:
            touch = self._touching()
        out = []
        for i, there in touch[self.doge]:
            if there not in visited:
                out.append(_DOGE_STEP[i] if i < MAX_BRIDGES else _new_act(Act, ("doge", i, -1, -1)))
        out.append(_STOP)
        return out

    def _bridge_moves(self, colour: int, setup: bool = False) -> list[Act]:
        if self.supply[colour] <= 0:
            return []
        sites = self.board.sites  # a new bridge goes only where the board has a site
        per_site = self.board.per_site
        bridges = self.bridges
        if len(bridges) < MAX_BRIDGES:
            if bridges != self._bridges_seen:
                self._bridges_changed()
            free = self._free_sites
            if free is None:
                counts = [0] * len(self.sites)
                for s, _owner in bridges:
                    counts[s] += 1
                free = self._free_sites = tuple(
                    _BRIDGE_ACT[a][b][0] for s, (a, b) in enumerate(sites) if counts[s] < per_site
                )
            return list(free)
        if setup:
            return []
        counts = [0] * len(self.sites)
        for s, _owner in bridges:
            counts[s] += 1
        out = []
        for i, (old, owner) in enumerate(bridges):
            if owner == colour:
                continue
            for s, (a, b) in enumerate(sites):
                if counts[s] - (s == old) < per_site:
                    out.append(_BRIDGE_ACT[a][b][i + 1])
        return out

    def _card_moves(self, colour: int, card: int) -> list[Act]:
        if card < 6:
            if self.supply[colour] > 0:
                return list(self._hops(colour)[1][card])
            ends = self._hops(colour)[0][card]
            row = _DISTRICT_FROM[card]
            cubes = self.cubes
            return [row[e][src] for src in range(6) if cubes[src][colour] > 0 for e in ends]
        if card == BRIDGE:
            return self._bridge_moves(colour)
        if card == TRANSFER:
            if self.supply[colour] <= 0:
                return []
            return [
                _TRANSFER[d][v] if v < _SHORT else Act("transfer", d, v)
                for d, row in enumerate(self.cubes)
                for v, n in enumerate(row)
                if n > 0 and v != colour
            ]
        if card == BANISH:
            return list(_BANISH)
        # the Doge: the first step (or staying) plays the card
        return self._doge_moves(())

    def _hops(self, colour: int) -> _Reach:
        """Where this colour's district cards may put an aristocrat (``_reach``), kept per
        colour until the bridges change."""
        if self.bridges != self._bridges_seen:
            self._bridges_changed()
        reach = self._hops_of[colour]
        if reach is None:
            own = 0  # the sites of the colour's own bridges, one bit each
            for site, owner in self.bridges:
                if owner == colour:
                    own |= 1 << site
            memo = self._reach_memo
            reach = memo.get(own)
            if reach is None:
                reach = memo[own] = _reach(self.sites, own)
            self._hops_of[colour] = reach
        return reach

    def _touching(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        """Per district: each bridge touching it (its index, in order) and the district at
        its other end, kept until the bridges change."""
        if self.bridges != self._bridges_seen:
            self._bridges_changed()
        touch = self._touch
        if touch is None:
            sites = self.sites
            rows: list[list[tuple[int, int]]] = [[] for _ in range(6)]
            for i, (site, _owner) in enumerate(self.bridges):
                x, y = sites[site]
                rows[x].append((i, y))
                rows[y].append((i, x))
            touch = self._touch = tuple(map(tuple, rows))
        return touch

    def _bridges_changed(self) -> None:
        """Forget what was read from the bridges (compared by value with the ones it was read
        from, so a position set up by hand is read right too)."""
        self._bridges_seen = [list(b) for b in self.bridges]
        self._hops_of = [None] * len(self.kinds)
        self._touch = None
        self._free_sites = None

    # --- check ---------------------------------------------------------------------------
    def check(self, seat: int, action: Any) -> list[Violation]:
        """None when ``action`` is among ``legal_actions(seat)``, the one judgement of what
        the rules allow; else the rule it breaks (``_why``)."""
        if self.phase == OVER:
            return [rule_broken(BOOK, "sanmarco.record.game_over", seat=seat)]
        if not isinstance(action, Act):
            return [rule_broken(BOOK, "sanmarco.record.impossible", seat=seat)]
        who = self.to_act()
        if seat != who:
            return [
                rule_broken(
                    BOOK,
                    "sanmarco.base.turn",
                    f"Tocca al posto {seat_no(who)}.",
                    f"Seat {seat_no(who)} is to act.",
                    seat=seat,
                )
            ]
        if action in self.legal_actions(seat):
            return []
        return [self._why(seat, action)]

    def _why(self, seat: int, act: Act) -> Violation:
        """The rule a well-formed but illegal action breaks (the most specific one)."""
        ph, do = self.phase, act.do
        colour = self.acting_colour()
        assert colour is not None

        expected: tuple[str, ...] | None = {
            SETUP: ("bridge",),
            DIVIDE: ("pile",),
            CHOOSE: ("choose",),
            NEUTRAL_RETURN: ("neutral",),
            FREE_BANISH: ("banish",),
        }.get(ph)
        p = self.pending
        if p is not None:
            expected = {"remove": ("remove",), "doge": ("doge", "stop"), "score": ("score",)}[
                p.kind
            ]
        if expected is not None and do not in expected:
            return rule_broken(
                BOOK,
                "sanmarco.base.phase",
                f"Ora si attende: {_moves(expected, 'it')}.",
                f"Expected now: {_moves(expected, 'en')}.",
                seat=seat,
            )
        if ph == DIVIDE:
            return rule_broken(BOOK, "sanmarco.base.divide", seat=seat)
        if ph == CHOOSE:
            return rule_broken(BOOK, "sanmarco.base.choose", seat=seat)
        if ph == NEUTRAL_RETURN:
            return rule_broken(BOOK, "sanmarco.v2.neutral_return", seat=seat)
        if p is not None and p.kind == "remove":
            if 0 <= act.a < len(self.kinds) and self.cubes[p.district][act.a] > 0:
                return rule_broken(BOOK, "sanmarco.base.banish_order", seat=seat)
            return rule_broken(BOOK, "sanmarco.base.banish_remove", seat=seat)
        if p is not None and p.kind == "doge":
            return rule_broken(BOOK, "sanmarco.base.doge_path", seat=seat)
        if p is not None and p.kind == "score":
            return rule_broken(BOOK, "sanmarco.v3.doge_one_colour", seat=seat)
        if ph == FREE_BANISH:
            return rule_broken(BOOK, "sanmarco.record.impossible", seat=seat)
        if ph == SETUP:  # a starting bridge: no card is played for it
            return self._why_bridge(seat, colour, act)
        # a card of the holder's hand
        card = _card_of(act)
        if card not in self.holding:
            return rule_broken(BOOK, "sanmarco.base.card_held", seat=seat)
        if do == "skip":
            return rule_broken(BOOK, "sanmarco.base.decline", seat=seat)
        if do == "district":
            if act.c >= 0 and self.supply[colour] > 0:
                return rule_broken(BOOK, "sanmarco.base.district_supply", seat=seat)
            if act.b != act.a and act.b not in self.owner_bridges_at(colour, act.a):
                return rule_broken(BOOK, "sanmarco.base.district_hop", seat=seat)
            return rule_broken(BOOK, "sanmarco.base.district_supply", seat=seat)
        if do == "bridge":
            return self._why_bridge(seat, colour, act)
        if do == "transfer":
            return rule_broken(BOOK, "sanmarco.base.transfer", seat=seat)
        if do in ("doge", "stop"):
            return rule_broken(BOOK, "sanmarco.base.doge_path", seat=seat)
        return rule_broken(BOOK, "sanmarco.record.impossible", seat=seat)

    def _why_bridge(self, seat: int, colour: int, act: Act) -> Violation:
        """The rule a bridge the rules do not allow breaks (at set-up or by the card)."""
        if self.supply[colour] <= 0:
            return rule_broken(BOOK, "sanmarco.base.bridge_marker", seat=seat)
        site = self.board.site_index(act.a, act.b) if act.a != act.b else None
        if site is None:
            return rule_broken(BOOK, "sanmarco.base.bridge_site", seat=seat)
        if act.c >= 0 or len(self.bridges) >= MAX_BRIDGES:
            return rule_broken(BOOK, "sanmarco.base.bridge_take", seat=seat)
        return rule_broken(BOOK, "sanmarco.base.bridge_cap", seat=seat)


#: Each kind of move as the players say it, for "what is expected now" (Italian, English).
MOVE_WORDS = {
    "bridge": ("posare un ponte", "laying a bridge"),
    "pile": ("scoprire un mazzetto", "turning up a pile"),
    "choose": ("scegliere un mazzetto", "choosing a pile"),
    "neutral": ("rimettere un neutro tolto", "placing back a removed neutral"),
    "banish": ("bandire da un sestiere", "banishing from a district"),
    "remove": ("togliere un cubo", "removing a cube"),
    "doge": ("muovere il Doge su un ponte", "moving the Doge over a bridge"),
    "stop": ("fermare il Doge", "stopping the Doge"),
    "score": ("contare i punti", "scoring"),
}


def _moves(kinds: tuple[str, ...], lang: str) -> str:
    """The moves expected, in words and joined ("muovere il Doge su un ponte o fermarlo")."""
    said = [MOVE_WORDS[k][lang == "en"] if k in MOVE_WORDS else k for k in kinds]
    return (" or " if lang == "en" else " o ").join(said)
