"""San Marco on the board: the base game for 3 and 4 players and the three two-player
variants, played action by action and refereed.

One state machine serves every ruleset. What differs is said by the colours a game has
(players, variant 1's ghosts, variant 2's neutral colour, variant 3's two colours per seat)
and a few hooks: who takes the roles, the cards dealt per role shape, the ghosts' dice after
each hand, what ends a passage, and how the final scores are read.

Chance is part of the record: every die roll, every card drawn and every role draw is written
in ``deal.chance`` in the order it happened, so a replay meets the same chance and a referee
can type what really fell at a table. docs/rules/sanmarco.md gives every rule id its source
and the decision taken where the sources are silent.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.core import (
    NOTATION_VERSION,
    Outcome,
    RecordError,
    read,
)
from games.core.engine import ReplayFault
from games.core.rng import rng as make_rng
from games.sanmarco.actions import (
    _CARD_OF_KIND,
    Act,
    decode,
    encode,
)
from games.sanmarco.board import DISTRICTS, MAX_BRIDGES
from games.sanmarco.cards import (
    CARD_NAMES,
    LIMIT_BASE,
)
from games.sanmarco.chance import CHANCE_KINDS
from games.sanmarco.flow import (
    _WAITING,
    CHOOSE,
    DIVIDE,
    FREE_BANISH,
    NEUTRAL_RETURN,
    OVER,
    RESOLVE,
    SETUP,
    Pending,
    Termination,
)
from games.sanmarco.legal import BoardRules
from games.sanmarco.rules import SLUG
from games.sanmarco.scoring import outcome_of, score_base, score_v1, score_v2, score_v3
from games.sanmarco.state import BoardRuleset

JSON = Any


class BoardState(BoardRules):
    """One board game: applied, replayed, viewed and written as a record."""

    # --- apply ----------------------------------------------------------------------------
    def replay_run(self, raw_actions: Sequence[Any], start: int) -> int:
        """Replay's short cut (``State.replay_run``): each action read by ``decode`` (the
        one reader) and applied by ``apply_if_legal`` for as long as both accept it; the
        next one, if any, goes the long way (``check``, ``apply_unchecked``). bench/run.py
        measures what it saves (``replay_short_cut``); tests/games/sanmarco/
        test_check_matches_legal.py holds it equal to the long way."""
        i, end = start, len(raw_actions)
        apply_if_legal = self.apply_if_legal
        while i < end:
            raw = raw_actions[i]
            if type(raw) is not dict:
                break
            seat = raw.get("seat")
            if type(seat) is not int:
                break
            try:
                action = decode(raw)
            except RecordError:
                break
            try:
                applied = apply_if_legal(seat, action)
            except RecordError as exc:  # legal, but chance cannot follow (State.replay_run)
                raise ReplayFault(i, seat, exc) from exc
            if not applied:
                break
            i += 1
        return i - start

    def apply_if_legal(self, seat: int, action: Any) -> bool:
        """Apply an action of any phase but variant 2's neutral returns (a card to an offer,
        an offer chosen, a card of the holder's hand, a step inside a card: a removal, the
        Doge's walk, variant 3's choice; a free banishment, a bridge at set-up) when the rules
        allow it, and say so; anything else is left untouched (False), for replay to check
        and apply the long way. True exactly when ``check`` finds nothing and
        ``apply_unchecked`` would then do the same (tests/games/sanmarco/
        test_check_matches_legal.py holds the two paths equal)."""
        if type(action) is not Act:
            return False
        ph = self.phase
        if ph == DIVIDE:  # half of a game's actions
            if (
                seat == self.controller[self.pairs[0].distributor]
                and action.do == "pile"
                and action.b == -1
                and action.c == -1
                and self._pile_ok(action.a)
            ):
                self.history.append((seat, action))
                self._divide(action.a)
                return True
            return False
        p = self.pending
        if ph == RESOLVE:
            holder = self.holders[0]
            if p is not None:
                return self._quick_pending(seat, action, p, holder)
            if seat != self.controller[holder]:
                return False
            do, a, b, c = action
            holding = self.holding
            supply = self.supply
            if (
                do == "district"  # the common card, from the supply (``_card_ok``)
                and c == -1
                and 0 <= a < 6
                and a in holding
                and supply[holder] > 0
                and (b == a or b in self._hops(holder)[0][a])
            ):
                self.history.append((seat, action))
                holding.remove(a)  # ``_resolve_card``, written out
                self.action_discard.append(a)
                supply[holder] -= 1
                self.cubes[b][holder] += 1
                if not holding:
                    self._advance()
                return True
            if self._card_ok(holder, action):
                self.history.append((seat, action))
                self._resolve_card(holder, action)
                return True
            return False
        if ph == CHOOSE:
            colour = self.pairs[0].choosers[self.chooser_i]
            a, taken = action.a, self.taken
            if (
                seat == self.controller[colour]
                and action.do == "choose"
                and action.b == -1
                and action.c == -1
                and 0 <= a < len(taken)
                and taken[a] == -1
            ):
                self.history.append((seat, action))
                self._choose(colour, a)
                if self.phase not in _WAITING:
                    self._advance()
                return True
            return False
        if ph == FREE_BANISH:
            colour = self.banish_queue[0]
            if p is not None:
                return self._quick_pending(seat, action, p, colour)
            do, a, b, c = action
            if not (
                seat == self.controller[colour]
                and do == "banish"
                and b == -1
                and c == -1
                and 0 <= a < 6
            ):
                return False
            self.history.append((seat, action))
            self._start_banish(colour, a, card=False)
        elif ph == SETUP and self.setup_queue:
            colour = self.setup_queue[0]
            if not (
                seat == self.controller[colour]
                and action.do == "bridge"
                and self._bridge_ok(colour, action, setup=True)
            ):
                return False
            self.history.append((seat, action))
            self._do_bridge(colour, action)
            self.setup_queue.pop(0)
        else:
            return False
        if self.pending is not None:
            self._settle()
        if self.phase not in _WAITING:
            self._advance()
        return True

    def _card_ok(self, colour: int, act: Act) -> bool:
        """A card of the holder's hand played as ``act`` (``_card_moves`` lists them), judged
        for this one action by the replay short cut."""
        do, a, b, c = act
        card = a if do == "district" or do == "skip" else _CARD_OF_KIND.get(do, -1)  # _card_of
        if card not in self.holding:
            return False
        if do == "district":  # its own district, or across one of its own bridges from it
            if not (0 <= a < 6 and b in self._hops(colour)[0][a]):  # a itself, or across
                return False
            if self.supply[colour] > 0:
                return c == -1
            return 0 <= c < 6 and self.cubes[c][colour] > 0
        if do == "transfer":
            return (
                self.supply[colour] > 0 and c == -1 and 0 <= a < 6
                and 0 <= b < len(self.kinds) and b != colour and self.cubes[a][b] > 0
            )  # fmt: skip
        if do == "banish":
            return 0 <= a < 6 and b == -1 and c == -1
        if do == "doge":
            return b == -1 and c == -1 and self._doge_step_ok(a, ())
        if do == "stop":
            return a == b == c == -1
        if do == "bridge":
            return self._bridge_ok(colour, act)
        moves = self._card_moves(colour, card)
        if do == "skip":
            return act == Act("skip", card) and (not moves or self.ruleset.may_decline)
        return act in moves

    def _bridge_ok(self, colour: int, act: Act, setup: bool = False) -> bool:
        """A bridge between act.a < act.b: a marker in the supply and a free site; with
        every bridge on the board, another colour's bridge act.c moved there (not at
        set-up)."""
        sites = self.board.sites
        if self.supply[colour] <= 0 or (act.a, act.b) not in sites:
            return False
        site = sites.index((act.a, act.b))
        on_site = 0
        for s, _owner in self.bridges:
            if s == site:
                on_site += 1
        if len(self.bridges) < MAX_BRIDGES:
            return act.c == -1 and on_site < self.board.per_site
        if setup or not 0 <= act.c < len(self.bridges):
            return False
        old, owner = self.bridges[act.c]
        return owner != colour and on_site - (site == old) < self.board.per_site

    def _doge_step_ok(self, i: int, visited: Any) -> bool:
        """The Doge may cross bridge i: it touches his district and does not lead back to a
        district this walk has visited."""
        if not 0 <= i < len(self.bridges):
            return False
        x, y = self.sites[self.bridges[i][0]]
        doge = self.doge
        if doge == x:
            return y not in visited
        return doge == y and x not in visited

    def _quick_pending(self, seat: int, action: Act, p: Pending, colour: int) -> bool:
        """``apply_if_legal`` for a step inside a card (``legal_actions`` lists the same)."""
        do, a, b, c = action
        if b != -1 or c != -1:
            return False
        kind = p.kind
        if kind == "score":  # variant 3: the seat itself chooses which colour scores
            s = p.seats[0]
            if seat != s or do != "score" or (a != s and a != s + 2):
                return False
            self.history.append((seat, action))
            self._score_choice(p, a)
        elif seat != self.controller[colour]:
            return False
        elif kind == "doge":
            if not (a == -1 if do == "stop" else do == "doge" and self._doge_step_ok(a, p.visited)):
                return False
            self.history.append((seat, action))
            self._doge_step(colour, action)
        elif do == "remove" and a in self._removable(colour, p.district):
            self.history.append((seat, action))
            self.cubes[p.district][a] -= 1  # ``_removal``, written out
            self.supply[a] += 1
            p.left -= 1
            self._auto_remove(colour)
        else:
            return False
        after = self.pending
        if after is not None and after.kind == "remove" and after.left <= 0:
            self._settle()
        ph = self.phase
        if ph == RESOLVE:  # ``_advance`` has work only once the hand is carried out
            if self.pending is None and not self.holding:
                self._advance()
        elif ph not in _WAITING:
            self._advance()
        return True

    def apply_unchecked(self, seat: int, action: Any) -> None:
        ph = self.phase
        if ph == DIVIDE:  # half of a game's actions; nothing automatic follows them
            if type(action) is not Act and not isinstance(action, Act):
                raise RecordError("not a San Marco board action")
            self.history.append((seat, action))
            q = action.a
            if action.do != "pile" or not 0 <= q < self._offers:
                raise RecordError("a card goes to one of the offers")
            assign = self.assign  # ``_divide``, written out
            assign.append(q)
            if q >= self._used:
                self._used = q + 1
            if len(assign) == len(self.hand):
                self._make_offers()
            return
        if ph == OVER:
            raise RecordError("the game is over")
        if type(action) is not Act and not isinstance(action, Act):
            raise RecordError("not a San Marco board action")
        self.history.append((seat, action))
        pending = self.pending  # a local, as in ``replay_run``
        if ph == RESOLVE and pending is None:  # a card of the holder's hand
            holder = self.holders[0]
            do, a, b, c = action
            holding = self.holding
            if do == "district" and c == -1 and a in holding and 0 <= b < 6:
                # the common card, from the supply (``_play_card``, written out)
                holding.remove(a)
                self.action_discard.append(a)
                supply = self.supply
                if supply[holder] <= 0:
                    raise RecordError("no aristocrat left in the supply")
                supply[holder] -= 1
                self.cubes[b][holder] += 1
                if not holding:
                    self._advance()
                return
            self._play_card(holder, action)  # ``_resolve_card``, written out
            if self.pending is not None:
                self._settle()
            if self.pending is None and holding:
                return  # the holder goes on with their next card
            self._advance()
            return
        p = self.pending
        if ph == RESOLVE and p is not None and p.kind == "doge":  # a step of the Doge's walk
            self._doge_step(self.holders[0], action)
            if self.pending is None and not self.holding:
                self._advance()  # the hand is carried out
            return
        do, a = action.do, action.a
        if ph == CHOOSE:  # ``acting_colour``, written out
            taken = self.taken
            if do != "choose" or not 0 <= a < len(taken) or taken[a] != -1:
                raise RecordError("that offer is not on the table")
            self._choose(self.pairs[0].choosers[self.chooser_i], a)
            if self.pending is not None:
                self._settle()
            if self.phase not in _WAITING:
                self._advance()
            return
        colour = self.acting_colour()
        assert colour is not None
        if ph == SETUP:
            self._do_bridge(colour, action)
            self.setup_queue.pop(0)
        elif ph == CHOOSE:
            if do != "choose" or not 0 <= a < len(self.taken) or self.taken[a] != -1:
                raise RecordError("that offer is not on the table")
            self._choose(colour, a)
        elif ph == NEUTRAL_RETURN:
            if do != "neutral" or not 0 <= a < 6:
                raise RecordError("a neutral aristocrat goes to a district")
            self._place(2, a)
            self.neutral_seats.append(self.neutral_seats.pop(0))
        elif p is not None and p.kind == "remove":
            if do != "remove" or not 0 <= a < len(self.kinds) or self.cubes[p.district][a] <= 0:
                raise RecordError("no such aristocrat in the district")
            self._removal(colour, p, a)
        elif p is not None and p.kind == "doge":
            self._doge_step(colour, action)
        elif p is not None and p.kind == "score":
            s = p.seats[0]
            if do != "score" or a not in (s, s + 2):
                p.seats.pop(0)
                raise RecordError("a colour of the seat that chooses")
            self._score_choice(p, a)
        elif ph == FREE_BANISH:
            if do != "banish" or not 0 <= a < 6:
                raise RecordError("a banishment names a district")
            self._start_banish(colour, a, card=False)
        else:
            self._play_card(colour, action)
        if self.pending is not None:
            self._settle()
        if self.phase not in _WAITING:
            self._advance()

    def summary(self) -> dict[str, JSON]:
        """The summary a scorekeeper would type for this game (docs/notation/sanmarco.md)."""
        mode = self.ruleset.mode
        s = self.score
        if mode == "variant3":
            return {"variant": 3, "points": [[s[0], s[2]], [s[1], s[3]]]}
        if mode == "variant1":
            return {"variant": 1, "points": [s[0], s[1]], "ghosts": [s[2], s[3]]}
        if mode == "variant2":
            return {
                "variant": 2,
                "points": [s[0], s[1]],
                "neutral": s[2],
                "passages": [
                    {"limits": p["limits"][:2], "bonus": p["bonus"][:2]} for p in self.passage_log
                ],
            }
        return {"players": len(s), "points": list(s)}

    def result(self) -> dict[str, JSON]:
        mode = self.ruleset.mode
        s = self.score
        if mode == "variant3":
            return score_v3([[s[0], s[2]], [s[1], s[3]]])
        if mode == "variant1":
            return score_v1([s[0], s[1]], [s[2], s[3]])
        if mode == "variant2":
            return score_v2(
                [s[0], s[1]], s[2], [{"limits": p["limits"][:2]} for p in self.passage_log]
            )
        return score_base(list(s))

    def outcome(self) -> Outcome:
        if not self.is_over():
            raise ValueError("the game is not over")
        return outcome_of(self.result(), Termination.FINAL_SCORING.value)

    # --- views and records ----------------------------------------------------------------------
    def _card_name(self, card: int) -> JSON:
        return card - LIMIT_BASE if card >= LIMIT_BASE else CARD_NAMES[card]

    def view(self, seat: int | None) -> dict[str, JSON]:
        mine = [c for c, s in enumerate(self.controller) if s == seat and seat is not None]
        over = self.is_over()
        out: dict[str, JSON] = {
            "game": SLUG,
            "mode": self.ruleset.mode,
            "board": self.board.to_json(),
            "colours": [
                {
                    "kind": k,
                    "seat": self.controller[c],
                    "score": self.score[c],
                    "supply": self.supply[c],
                    "limits": list(self.limits[c]),
                }
                for c, k in enumerate(self.kinds)
            ],
            "cubes": {DISTRICTS[d]: list(self.cubes[d]) for d in range(6)},
            "bridges": [
                {"between": [DISTRICTS[x] for x in self.sites[s]], "owner": o}
                for s, o in self.bridges
            ],
            "doge": DISTRICTS[self.doge],
            "passage": self.passage,
            "round": self.rounds,
            "final_round": self.final_round,
            "phase": self.phase.value,
            "roles": list(self.roles),
            "to_act": self.to_act(),
            "acting_colour": self.acting_colour(),
            "decks": {"action": len(self.action_deck), "limit": len(self.limit_deck)},
        }
        if self.phase == DIVIDE:
            dist = self.pairs[0].distributor
            if over or dist in mine:
                out["hand"] = [self._card_name(c) for c in self.hand]
                out["assigned"] = list(self.assign)
            else:  # only the distributor sees the hand while dividing
                out["hand_hidden"] = {"cards": len(self.hand), "assigned": len(self.assign)}
        elif self.piles and self.phase in (CHOOSE, RESOLVE):
            pair_cols = set()
            if self.pairs:
                pair_cols = {self.pairs[0].distributor, *self.pairs[0].choosers}
            public = self.ruleset.offers_public or any(c in pair_cols for c in mine)
            out["offers"] = [
                {"taken_by": t, "cards": [self._card_name(c) for c in pile]}
                if public or t in mine
                else {"taken_by": t, "cards": len(pile)}
                for pile, t in zip(self.piles, self.taken, strict=True)
            ]
        if self.phase == RESOLVE:
            out["holding"] = [CARD_NAMES[c] for c in sorted(self.holding)]
        if self.pending is not None:
            out["pending"] = {"kind": self.pending.kind, "district": self.pending.district,
                              "left": self.pending.left}  # fmt: skip
        out["score_log"] = [
            {**e, "district": DISTRICTS[e["district"]]} if "district" in e else dict(e)
            for e in self.score_log[-12:]
        ]
        if over:
            out["result"] = self.result()
        return out

    def _deal_json(self) -> dict[str, JSON]:
        deal: dict[str, JSON] = {"chance": {k: list(v) for k, v in self.chance.used.items()}}
        if self.chance.seed is not None:
            deal = {"seed": self.chance.seed, **deal}
        return deal

    def to_record(self) -> dict[str, JSON]:
        return {
            "game": SLUG,
            "version": NOTATION_VERSION,
            "ruleset": self.ruleset.to_json(),
            "deal": self._deal_json(),
            "actions": [{"seat": s, **encode(a)} for s, a in self.history],
        }


def start_board(ruleset: BoardRuleset, deal: Any) -> BoardState:
    """The state a record's deal describes: ``{"chance": {...}}`` (what fell at the table),
    ``{"seed": n}`` (chance drawn from the seed) or both (they must agree)."""
    if not isinstance(deal, Mapping):
        raise RecordError('expected {"chance": {"dice": [...], ...}}', path="deal")
    seed = read.seed(deal, "deal.seed")
    if seed is not None and "chance" not in deal:
        return BoardState(ruleset, seed)
    chance = deal.get("chance")
    if not isinstance(chance, Mapping):
        raise RecordError(
            'expected {"dice": [...], "action_cards": [...], ...}', path="deal.chance"
        )
    for k, v in chance.items():
        if k not in CHANCE_KINDS:
            raise RecordError(f"unknown kind of chance; known: {', '.join(CHANCE_KINDS)}",
                              path=f"deal.chance.{k}")  # fmt: skip
        if not isinstance(v, list):
            raise RecordError("expected a list", path=f"deal.chance.{k}")
    state = BoardState(ruleset, seed, chance)
    then = read.whole(deal["then_seed"], "deal.then_seed") if "then_seed" in deal else None
    if then is not None and seed is None:
        state.chance.then = make_rng(then, "sanmarco-then")
    return state


def presets() -> dict[str, BoardRuleset]:
    return {
        "base3": BoardRuleset("base3", 3, mode="base", start_bridges=2),
        "base4": BoardRuleset("base4", 4, mode="base", start_bridges=1),
        "variant1-board": BoardRuleset("variant1-board", 2, mode="variant1", start_bridges=1),
        "variant2-board": BoardRuleset("variant2-board", 2, mode="variant2", start_bridges=2),
        "variant3-board": BoardRuleset("variant3-board", 2, mode="variant3", start_bridges=1),
    }
