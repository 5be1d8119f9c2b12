"""Er Giò in play: the Corteo Storico, then the Battaglia sul Ponte di Mezzo.

Seats alternate sides: even seats are Tramontana, odd seats Mezzogiorno (with four or six the
turn goes round the seats, so the sides alternate and each side's players take turns). Each
side draws only from its own deck. Draws that offer no choice (two players; four or six with
nothing reachable on the common pile) happen by themselves at the start of a turn and after
each scontro, so a record holds only the players' decisions.

In battle the side acts through its first seat (0 Tramontana, 1 Mezzogiorno); with four or six
the side's hands are one common hand.

Chance after the deal (the Trombettiere's reshuffle, a Celatino's random pick from a hand) is
drawn from the record's seed, so a record that uses them carries its seed.
"""

from __future__ import annotations

import itertools
from collections import Counter
from enum import StrEnum
from operator import itemgetter
from typing import Any, Final

from games.core import (
    NOTATION_VERSION,
    Outcome,
    RecordError,
    State,
    Violation,
    rule_broken,
)
from games.core import rng as make_rng
from games.core.text import seat_no
from games.ergio import cards as C
from games.ergio import words as ergio_words
from games.ergio.actions import (
    ADD,
    ARNO,
    DRAW_DECK,
    DRAW_PILE,
    END,
    NO,
    PASS,
    READY,
    REINFORCE,
    SABOTAGE_NO,
    SABOTAGE_YES,
    SEND,
    Action,
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
    encode,
    lay,
)
from games.ergio.battle import Sent, clash, plain_clash, plain_force
from games.ergio.rules import BOOK, SLUG
from games.ergio.ruleset import ErGioRuleset
from games.ergio.scoring import ScontroFacts, SideFacts, outcome_of, result_of

JSON = Any


class Termination(StrEnum):
    SCONTRI = "scontri"  # one side won more scontri
    UNFINISHED = "unfinished"  # a summary of a match stopped before its end
    BELLA_NAZIONALE = "bella_nazionale"  # 3-3, decided by the Bella Nazionale


class Phase(StrEnum):
    CORTEO = "corteo"
    SABOTAGE = "sabotage"
    BATTLE = "battle"
    OVER = "over"


# the phases as module names: looking up Phase.X costs an enum descriptor call each time
CORTEO, SABOTAGE, BATTLE, OVER = Phase.CORTEO, Phase.SABOTAGE, Phase.BATTLE, Phase.OVER


def side_of(seat: int) -> int:
    return seat % 2


#: What each special card does when played alone (advanced game), by its local rank: a special
#: played where its rule does not allow it breaks that rule.
_SPECIAL_RULES = {
    C.GENERALE: "ergio.adv.special.generale",
    C.MAESTRO: "ergio.adv.special.maestro",
    C.TAMBURINO: "ergio.adv.special.tamburino",
    C.TROMBETTIERE: "ergio.adv.special.trombettiere",
    C.LUOGOTENENTE: "ergio.adv.special.luogotenente",
}


_UNIT_OF = C.UNIT_OF
_UNIT_CEL: Final = C.UNIT_CEL
#: the cards of each magistratura (a unit below UNIT_CEL)
_MAG_CARDS: Final = tuple(frozenset(C.mag_cards(m)) for m in range(len(C.MAGISTRATURE)))
_IS_FIGHTER = C.IS_FIGHTER
_SIDE_MAGS = (tuple(C.side_mags(0)), tuple(C.side_mags(1)))
_TRIS: dict[tuple[int, ...], tuple[Lay, ...]] = {}


def _tris_of(real: tuple[int, ...]) -> tuple[Lay, ...]:
    """Every distinct tris of these sorted cards of one unit, in order (remembered)."""
    found = _TRIS.get(real)
    if found is None:
        found = _TRIS[real] = tuple(lay(t) for t in sorted(set(itertools.combinations(real, 3))))
    return found


def _lay_order(a: Lay) -> tuple[int, ...]:
    return a.cards


#: bit 1 Magistrato, 2 Capitano, 4 Caposchiera (as C.figures_mask) for each card
_FIGURE_BIT: tuple[int, ...] = tuple(1 << r if 0 <= r < 3 else 0 for r in C.RANK_OF)
#: Reinforce under two open places, by card (the room lists the Magistrato's place first)
_REINFORCE_BOTH: dict[tuple[str, ...], tuple[tuple[Reinforce, Reinforce], ...]] = {
    ("magistrato", "caposchiera"): tuple(
        zip(REINFORCE["magistrato"], REINFORCE["caposchiera"], strict=True)
    )
}
_REINFORCE_SPOT: Final = REINFORCE["spot"]
_REINFORCE_MAG: Final = REINFORCE["magistrato"]
_REINFORCE_CAP: Final = REINFORCE["caposchiera"]
_REINFORCE_MAG_CAP: Final = _REINFORCE_BOTH[("magistrato", "caposchiera")]
# why a card may not be added (_add_rules): for a card that is not a combattente, for one that is
_ADDABLE: Final = ("", "")
_NOT_SHOWN: Final = ("ergio.corteo.add.shown_only",) * 2
_CELATINO_SINGLY: Final = ("ergio.adv.celatino.single",) * 2
_FOURTH_MAX: Final = ("ergio.corteo.fourth.max_four",) * 2
_FOURTH_LATER: Final = ("ergio.corteo.fourth.later_turn",) * 2
_FOURTH_NOT_COMBATTENTE: Final = ("", "ergio.corteo.fourth.not_four_combattenti")
#: How many units a side shows when its Corteo is complete (six magistrature, three groups)
_UNITS_PER_SIDE = len(C.SIDE_UNITS[0])


class ErGioState(State[Action]):
    ruleset: ErGioRuleset
    _multi: bool
    _advanced: bool
    _effects: bool
    _hand_limit: int
    _seats: int
    _turn_draw: int
    _max_turns: int

    def __init__(
        self,
        ruleset: ErGioRuleset,
        decks: tuple[list[int], list[int]],
        seed: int | None,
        *,
        copy_of: ErGioState | None = None,
    ) -> None:
        """A new game dealt from ``decks`` (each top first); with ``copy_of``, a copy of that
        game instead (``clone``: compiled by mypyc, a class's ``__new__`` runs ``__init__``,
        so a copy cannot start from a blank instance)."""
        if copy_of is not None:
            copy_of._copy_into(self)
            return
        self.ruleset = ruleset
        self._multi = ruleset.multi
        self._advanced = ruleset.advanced
        self._effects = ruleset.effects
        self._hand_limit = ruleset.hand_limit
        self._seats = ruleset.seats
        self._turn_draw = ruleset.turn_draw
        self._max_turns = ruleset.max_turns
        self.seed = seed
        self.deal = (list(decks[0]), list(decks[1]))  # top first, as written in the record
        self.decks = [list(reversed(decks[0])), list(reversed(decks[1]))]  # top last
        n = ruleset.seats
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.field: list[dict[int, list[int]]] = [{}, {}]
        self.shown: list[set[int]] = [set(), set()]
        self.laid_turn: list[dict[int, int]] = [{}, {}]
        self.specials: list[list[int]] = [[], []]  # specials played alone for their effect
        self.arno: list[int] = []
        self.pile: list[int] = []  # the common pile, top last
        self.kept: list[list[int]] = [[], []]
        self.bridge: list[dict[str, list[int]]] = [self._empty_bridge(), self._empty_bridge()]
        self.actions: list[tuple[int, Action]] = []
        self.phase: Phase = CORTEO
        self.turn_seat = 0
        self.turn_no = 0
        self.draws_left = 0
        self.passes = 0
        self.extra_turn = False
        self.dry_turns = 0
        self.events = 0
        self.corteo_winner = -1
        self.corteo_end = ""
        self.challenger = -1
        self.sending = -1
        self.sent = [NO, NO]
        self.fought: list[set[int]] = [set(), set()]
        self.points = [0, 0]
        self.facts: list[ScontroFacts] = []
        # what each scontro brought to the bridge, for the view's account of it (built
        # when the view asks)
        self._fought: list[tuple[tuple[Sent, Sent], Any, list[dict[str, list[int]]]]] = []
        self._cache: tuple[int, int, list[Action]] | None = None
        self.position: dict[str, JSON] | None = None  # a match entered from its battle
        # ergio.corteo.deal: each player starts with hand_size cards from the side's own deck (12
        # for two; the presets for four and six set 9 and 7).
        # ergio.deck.own_side: each seat's cards come from its own side's deck, top first.
        for seat in range(n):
            deck = self.decks[seat % 2]
            k = min(ruleset.hand_size, len(deck))
            if k:
                self.hands[seat] = deck[: -k - 1 : -1]
                del deck[-k:]
        first = 0 if ruleset.first_side == "tramontana" else 1
        self._begin_turn(first)

    def clone(self) -> ErGioState:
        """An independent copy to play on (what ``copy.deepcopy`` gives, much faster): every
        container that play changes is copied; the ruleset, the actions and facts already
        played (frozen values) and the scontri already fought are shared."""
        return ErGioState(self.ruleset, self.deal, self.seed, copy_of=self)

    def _copy_into(self, new: ErGioState) -> None:
        new.ruleset = self.ruleset
        new._multi = self._multi
        new._advanced = self._advanced
        new._effects = self._effects
        new._hand_limit = self._hand_limit
        new._seats = self._seats
        new._turn_draw = self._turn_draw
        new._max_turns = self._max_turns
        new.seed = self.seed
        new.phase = self.phase
        new.turn_seat = self.turn_seat
        new.turn_no = self.turn_no
        new.draws_left = self.draws_left
        new.passes = self.passes
        new.extra_turn = self.extra_turn
        new.dry_turns = self.dry_turns
        new.events = self.events
        new.corteo_winner = self.corteo_winner
        new.corteo_end = self.corteo_end
        new.challenger = self.challenger
        new.sending = self.sending
        new.position = self.position  # read only
        new.deal = (list(self.deal[0]), list(self.deal[1]))
        new.decks = [list(d) for d in self.decks]
        new.hands = [list(h) for h in self.hands]
        new.field = [{u: list(cards) for u, cards in f.items()} for f in self.field]
        new.shown = [set(x) for x in self.shown]
        new.laid_turn = [dict(x) for x in self.laid_turn]
        new.specials = [list(x) for x in self.specials]
        new.arno = list(self.arno)
        new.pile = list(self.pile)
        new.kept = [list(x) for x in self.kept]
        new.bridge = [{k: list(v) for k, v in b.items()} for b in self.bridge]
        new.actions = list(self.actions)
        new.sent = list(self.sent)
        new.fought = [set(x) for x in self.fought]
        new.points = list(self.points)
        new.facts = list(self.facts)
        new._fought = list(self._fought)
        new._cache = None

    @staticmethod
    def _empty_bridge() -> dict[str, list[int]]:
        return {"magistrato": [], "caposchiera": [], "spot": []}

    # --- small helpers --------------------------------------------------------------
    def _draw_deck(self, seat: int) -> bool:
        # ergio.deck.own_side: a seat draws only from its own side's deck.
        deck = self.decks[side_of(seat)]
        if not deck:
            return False
        self.hands[seat].append(deck.pop())
        return True

    def _rng_event(self, purpose: str) -> Any:
        if self.seed is None:
            raise RecordError(f"this record needs its seed: a {purpose} is drawn from it")
        self.events += 1
        return make_rng(self.seed, purpose, self.events)

    def seats_of(self, side: int) -> range:
        return range(side, self.ruleset.seats, 2)

    def group_size(self, side: int, unit: int) -> int:
        return len(self.field[side].get(unit, ()))

    def hand_safe(self, side: int) -> bool:
        return self.ruleset.advanced and self.group_size(side, C.UNIT_GCCC) >= 3

    def field_safe(self, side: int) -> bool:
        return self.ruleset.advanced and self.group_size(side, C.UNIT_GCSC) >= 3

    @property
    def history(self) -> list[dict[str, JSON]]:
        """Each scontro fought: the sides' cards, face-down reinforcements, force, winner."""
        out: list[dict[str, JSON]] = []
        for sides, r, bridge in self._fought:
            fought: dict[str, JSON] = {
                s_name: {
                    "magistratura": C.MAGISTRATURE[sides[s].mag][0],
                    "laid": C.describe(sides[s].laid),
                    "face_down": {k: C.describe(v) for k, v in bridge[s].items() if v},
                    "removed_by_celatini": list(r.removed[s]),
                    "force": r.forces[s],  # as the rules count it (bluffs at zero)
                }
                for s, s_name in enumerate(C.SIDES)
            }
            fought["winner"] = C.SIDES[r.winner]
            fought["reason"] = r.reason
            out.append(fought)
        return out

    def limit(self, side: int) -> int | None:
        base = self.ruleset.hand_limit
        if base <= 0:
            return None
        specials = self.specials[side]
        if not specials:
            return base
        # ergio.adv.special.maestro: each Maestro di Campo shown alone raises the hand limit by one.
        return base + sum(1 for c in specials if C.LOCAL[c] == C.MAESTRO)

    def over_limit(self, seat: int) -> bool:
        held = len(self.hands[seat])
        base = self._hand_limit
        if base <= 0 or held <= base:  # no limit, or within it (specials only raise it)
            return False
        lim = self.limit(seat % 2)
        return lim is not None and held > lim

    def units(self, side: int) -> list[int]:
        return list(C.SIDE_UNITS[side])

    def complete(self, side: int) -> bool:
        field = self.field[side]
        if len(field) < _UNITS_PER_SIDE:  # the field holds only this side's units
            return False
        return all(len(field.get(u, ())) >= 3 for u in C.SIDE_UNITS[side])

    def mandatory(self, seat: int) -> list[int]:
        """Units of which this seat holds a real tris not yet shown by its side."""
        hand = self.hands[seat]
        if len(hand) < 3:
            return []
        shown = self.shown[seat % 2]
        counts = [0] * 16  # by unit; the last counts the cards of no unit (-1)
        out = []
        unit_of = _UNIT_OF
        for c in hand:
            unit = unit_of[c]
            n = counts[unit] + 1
            counts[unit] = n
            if n == 3 and unit >= 0 and unit not in shown:
                if unit == C.UNIT_CEL and self._advanced:
                    continue
                out.append(unit)
        if len(out) > 1:
            out.sort()
        return out

    def pile_reach(self, side: int) -> int:
        """Index in the common pile of the card this side may draw, or -1."""
        if not self.pile:
            return -1
        if C.SIDE_OF[self.pile[-1]] == side:
            return len(self.pile) - 1
        if self.ruleset.advanced and self.field_safe(side) and self.hand_safe(side):
            for i in range(len(self.pile) - 1, -1, -1):
                if C.SIDE_OF[self.pile[i]] == side:
                    return i
        return -1

    def pool(self, side: int) -> list[int]:
        """The cards a side may reinforce with: its hand, or its partners' common hand."""
        if not self._multi:
            return self.hands[side]
        # ergio.multi.battle.common_hand: with four or six the partners' hands make one pool.
        return [c for s in self.seats_of(side) for c in self.hands[s]]

    def _take_from_pool(self, side: int, card: int) -> None:
        if not self._multi:
            try:
                self.hands[side].remove(card)
                return
            except ValueError:
                pass
        for s in self.seats_of(side):
            if card in self.hands[s]:
                self.hands[s].remove(card)
                return
        raise RecordError(f"{C.CODES[card]} is not in the hand of {C.SIDES[side]}")

    def _take(self, seat: int, card: int) -> None:
        try:
            self.hands[seat].remove(card)
        except ValueError:
            raise RecordError(f"seat {seat} does not hold {C.CODES[card]}") from None

    def laid_of(self, side: int, mag: int) -> list[int]:
        return self.field[side].get(mag, [])

    def all_cards(self) -> Counter[int]:
        """Every card wherever it is (conservation: always both full decks)."""
        count: Counter[int] = Counter()
        for pile in (*self.decks, *self.hands, self.arno, self.pile, *self.kept, *self.specials):
            count.update(pile)
        for f in self.field:
            for cards in f.values():
                count.update(cards)
        for b in self.bridge:
            for cards in b.values():
                count.update(cards)
        return count

    # --- turn flow ------------------------------------------------------------------
    def _begin_turn(self, seat: int) -> None:
        self.turn_seat = seat
        self.turn_no += 1
        self.passes = 0
        if self._multi:
            self.draws_left = self.ruleset.turn_draw
            self._settle_draws()
        else:
            # nothing to choose: the turn's draws come from the side's own deck while it
            # lasts (ergio.deck.own_side, as in _draw_deck)
            deck = self.decks[seat % 2]
            k = min(self._turn_draw, len(deck))
            if k:
                self.hands[seat] += deck[: -k - 1 : -1]
                del deck[-k:]
            self.draws_left = 0

    def _settle_draws(self) -> None:
        seat = self.turn_seat
        side = seat % 2
        if not self._multi:
            deck = self.decks[side]
            k = min(self.draws_left, len(deck))
            if k:
                self.hands[seat] += deck[: -k - 1 : -1]
                del deck[-k:]
            self.draws_left = 0
            return
        while self.draws_left > 0:
            if self.ruleset.multi and self.pile_reach(side) >= 0:
                return  # the player chooses deck or pile
            if not self._draw_deck(seat):
                self.draws_left = 0
                return
            self.draws_left -= 1

    def _end_turn(self) -> None:
        side = self.turn_seat % 2
        # ergio.corteo.complete: the side that has shown all its magistrature and armed groups wins
        # the Corteo at the end of this turn.
        if len(self.field[side]) >= _UNITS_PER_SIDE and self.complete(side):
            self._close_corteo(side, "complete")
            return
        # ergio.corteo.dry: a whole round of turns with both decks empty (or max_turns reached) ends
        # the Corteo; _dry_winner gives it to the side that shows more.
        if not (self.decks[0] or self.decks[1]):
            self.dry_turns += 1
        else:
            self.dry_turns = 0
        if self.dry_turns >= self._seats or self.turn_no >= self._max_turns:
            self._close_corteo(self._dry_winner(), "dry")
            return
        if self.extra_turn:
            self.extra_turn = False
            self._begin_turn(self.turn_seat)
        elif not self._multi:  # _begin_turn for two: the next seat draws from its own deck
            seat = (self.turn_seat + 1) % self._seats
            self.turn_seat = seat
            self.turn_no += 1
            self.passes = 0
            deck = self.decks[seat % 2]
            k = min(self._turn_draw, len(deck))
            if k:
                self.hands[seat] += deck[: -k - 1 : -1]
                del deck[-k:]
            self.draws_left = 0
        else:
            # ergio.multi.turn_order: the turn goes round the seats, so the sides alternate and,
            # within a side, the next partner plays.
            self._begin_turn((self.turn_seat + 1) % self._seats)

    def _dry_winner(self) -> int:
        def complete_units(side: int) -> int:
            return sum(1 for u in self.units(side) if self.group_size(side, u) >= 3)

        def laid_force(side: int) -> int:
            return sum(C.force_of_laid(self.laid_of(side, m)) for m in C.side_mags(side))

        keys = [(complete_units(s), laid_force(s)) for s in (0, 1)]
        if self.ruleset.dry_corteo == "laid_force":
            keys = [(k[1], k[0]) for k in keys]
        if keys[0] != keys[1]:
            return 0 if keys[0] > keys[1] else 1
        # level on both: the side that did not open (the opener had the first move)
        return 1 if self.ruleset.first_side == "tramontana" else 0

    def _close_corteo(self, winner: int, how: str) -> None:
        self.corteo_winner = winner
        self.corteo_end = how
        self.extra_turn = False
        self.draws_left = 0
        if (
            self.ruleset.advanced
            and self.group_size(winner, C.UNIT_CEL) >= 3
            and self.decks[1 - winner]
        ):
            self.phase = SABOTAGE
            return
        self._start_battle()

    def _start_battle(self) -> None:
        self.phase = BATTLE
        # ergio.battle.challenger: the Corteo's winner challenges in the first scontro, then each
        # scontro's winner (_resolve); the other side answers.
        self._new_scontro(self.corteo_winner)

    def _new_scontro(self, challenger: int) -> None:
        self.challenger = challenger
        self.sending = challenger
        self.sent = [NO, NO]
        self.bridge = [
            {"magistrato": [], "caposchiera": [], "spot": []},
            {"magistrato": [], "caposchiera": [], "spot": []},
        ]

    def room(self, side: int) -> dict[str, int]:
        """How many more face-down cards each place under the sent magistratura takes."""
        mag = self.sent[side]
        if mag == NO:
            return {}
        laid = self.field[side].get(mag)
        b = self.bridge[side]
        if not laid:
            return {"spot": 2 - len(b["spot"])}
        mask = 0
        for c in laid:
            mask |= _FIGURE_BIT[c]
        out = {}
        if mask & 1:
            out["magistrato"] = 2 - len(b["magistrato"])
        if mask & 4:
            out["caposchiera"] = 1 - len(b["caposchiera"])
        return out

    def _sent(self, side: int) -> Sent:
        b = self.bridge[side]
        mag = self.sent[side]
        return Sent(
            mag,
            tuple(self.field[side].get(mag, ())),
            tuple(b["magistrato"]),
            tuple(b["caposchiera"]),
            tuple(b["spot"]),
        )

    def _resolve(self) -> None:
        sides = (self._sent(0), self._sent(1))
        challenger = self.challenger
        t, m = sides
        if self._effects:
            r = clash(sides, challenger, effects=True, tie_order=self.ruleset.tie_order)
            laid_t, laid_m = C.force_of_laid(t.laid), C.force_of_laid(m.laid)
        else:  # no Celatini or Guardie acting: the sums alone (held equal to clash in a test)
            pt, pm = plain_force(t), plain_force(m)
            r = plain_clash(pt, pm, challenger, self.ruleset.tie_order)
            laid_t, laid_m = pt[2], pm[2]
        w = r.winner
        self.points[w] += 1
        forces, masks = r.forces, r.masks
        facts = (
            SideFacts(t.mag, forces[0], masks[0], laid_t),
            SideFacts(m.mag, forces[1], masks[1], laid_m),
        )
        self.facts.append(ScontroFacts(challenger, facts, w, r.reason))
        bridge = self.bridge
        self._fought.append((sides, r, bridge))  # the bridge is replaced below
        for s in (0, 1):
            mag = self.sent[s]
            self.fought[s].add(mag)
            cards = self.field[s].pop(mag, [])
            for v in bridge[s].values():
                cards += v
            # ergio.battle.keep: the winner's magistratura is kept (and its point scored above); the
            # loser's cards go to the Arno.
            (self.kept[s] if s == w else self.arno).extend(cards)
        # ergio.battle.draw: battle_draw cards each after a scontro while the deck lasts (2 for
        # two players, 1 with four or six), each seat from its own side's deck, top first.
        draw = self.ruleset.battle_draw
        if draw > 0:
            for seat in range(self.ruleset.seats):
                deck = self.decks[seat % 2]
                k = min(draw, len(deck))
                if k:
                    self.hands[seat] += deck[: -k - 1 : -1]
                    del deck[-k:]
        # ergio.battle.six: six scontri make the battle (all_six off stops at four won).
        done = len(self.facts) >= 6 or (not self.ruleset.all_six and max(self.points) >= 4)
        if done:
            self.phase = OVER
            self.sending = -1
            self.bridge = [self._empty_bridge(), self._empty_bridge()]
        else:
            self._new_scontro(w)

    # --- the interface --------------------------------------------------------------
    def to_act(self) -> int | None:
        phase = self.phase
        if phase is CORTEO:
            return self.turn_seat
        if phase is BATTLE:
            return self.sending
        if phase is SABOTAGE:
            return self.corteo_winner
        return None

    def is_over(self) -> bool:
        return self.phase is OVER

    def legal_actions(self, seat: int) -> list[Action]:
        phase = self.phase
        if phase is CORTEO:
            if seat != self.turn_seat:
                return []
        elif phase is BATTLE:
            if seat != self.sending:
                return []
        elif phase is SABOTAGE:
            if seat != self.corteo_winner:
                return []
        else:
            return []
        done = len(self.actions)
        cache = self._cache
        if cache is not None and cache[0] == done and cache[1] == seat:
            return cache[2]
        # the listings are written out here rather than in methods of their own: a call is
        # a measurable part of a listing (docs/benchmarks.md, Er Giò)
        out: list[Action]
        if phase is CORTEO:
            side = seat % 2
            hand = self.hands[seat]
            if self.draws_left > 0:
                out = [DRAW_DECK, DRAW_PILE] if self.decks[side] else [DRAW_PILE]
                self._cache = (done, seat, out)
                return out
            shown = self.shown[side]
            advanced = self._advanced
            # one pass over the hand: the units of a mandatory tris (as self.mandatory:
            # counted among the units not shown) and the cards of shown units (those that
            # may be added)
            unit_of = _UNIT_OF
            counts = [0] * 16  # by unit; the last counts the cards of no unit (-1)
            must: list[int] = []
            held: list[int] = []
            for c in hand:
                unit = unit_of[c]
                if unit in shown:
                    held.append(c)
                    continue
                n = counts[unit] + 1
                counts[unit] = n
                if n == 3 and unit >= 0:
                    if unit == _UNIT_CEL and advanced:
                        continue
                    must.append(unit)
            if must:
                unit = must[0]
                real = _MAG_CARDS[unit].intersection(hand) if unit < _UNIT_CEL else ()
                if len(must) == 1 and len(real) == counts[unit]:
                    # one magistratura, no card of it held twice: its cards are these
                    key = tuple(sorted(real))
                    found = _TRIS.get(key)
                    out = list(found if found is not None else _tris_of(key))
                else:
                    out = self._mandatory_lays(hand, must)
                self._cache = (done, seat, out)
                return out
            out = [lay(t) for t in self._patch_lays(seat)] if advanced else []
            if held:
                # _add_problem without its first test (a card of no unit is never in shown):
                # the unit's verdicts (_add_rules, its units shown) once for its cards, which
                # come grouped when sorted
                fighter = _IS_FIGHTER
                field = self.field[side]
                laid_turn = self.laid_turn[side]
                turn_no = self.turn_no
                last = -1
                why = _ADDABLE
                if len(held) > 1:
                    held.sort()
                prev = -1
                for c in held:
                    if c == prev:  # another copy of an armed group's card
                        continue
                    prev = c
                    unit = unit_of[c]
                    if unit != last:
                        last = unit
                        if unit >= _UNIT_CEL:
                            why = _CELATINO_SINGLY if unit == _UNIT_CEL and advanced else _ADDABLE
                        else:
                            cards: list[int] | tuple[int, ...] = field.get(unit, ())
                            n = len(cards)
                            if n >= 4:
                                why = _FOURTH_MAX
                            elif turn_no <= laid_turn.get(unit, 0):
                                why = _FOURTH_LATER
                            elif (
                                n == 3
                                and fighter[cards[0]]
                                and fighter[cards[1]]
                                and fighter[cards[2]]
                            ):
                                why = _FOURTH_NOT_COMBATTENTE
                            else:
                                why = _ADDABLE
                    if not why[fighter[c]]:
                        out.append(ADD[c])
            if advanced:
                out += self._advanced_actions(seat)
            if self._multi and self.passes < 2:
                out += map(PASS.__getitem__, sorted(set(hand)))
            # over_limit, asked only when the hand is beyond the plain limit (itemgetter of
            # more than one card gives a tuple)
            if len(hand) > self._hand_limit > 0 and self.over_limit(seat):
                distinct = sorted(set(hand))
                if len(distinct) > 1:
                    out += itemgetter(*distinct)(ARNO)
                else:
                    out += [ARNO[c] for c in distinct]
            else:
                out.append(END)
        elif phase is BATTLE:
            side = seat % 2
            mag = self.sent[side]
            if mag == NO:
                fought = self.fought[side]
                out = []
                for m in _SIDE_MAGS[side]:
                    if m not in fought:
                        out.append(SEND[m])
            else:
                # the places with room (as room, without its dict)
                laid = self.field[side].get(mag)
                bridge = self.bridge[side]
                one: tuple[Reinforce, ...] | None = None
                both = False
                if not laid:
                    if len(bridge["spot"]) < 2:
                        one = _REINFORCE_SPOT
                else:
                    mask = 0
                    for c in laid:
                        mask |= _FIGURE_BIT[c]
                    if mask & 1 and len(bridge["magistrato"]) < 2:
                        one = _REINFORCE_MAG
                        both = bool(mask & 4) and not bridge["caposchiera"]
                    elif mask & 4 and not bridge["caposchiera"]:
                        one = _REINFORCE_CAP
                if one is None:
                    out = [READY]
                else:
                    pool = sorted(set(self.hands[side] if not self._multi else self.pool(side)))
                    if len(pool) < 2:
                        out = (
                            [x for c in pool for x in _REINFORCE_MAG_CAP[c]]
                            if both
                            else ([one[c] for c in pool])
                        )
                    else:  # the shared Reinforce values picked in one C-level step
                        pick = itemgetter(*pool)
                        if both:  # each card under each open place, in the room's order
                            out = [READY] * (2 * len(pool))
                            out[0::2] = pick(_REINFORCE_MAG)
                            out[1::2] = pick(_REINFORCE_CAP)
                        else:
                            out = list(pick(one))
                    out.append(READY)
        else:
            out = [SABOTAGE_YES, SABOTAGE_NO]
        self._cache = (done, seat, out)
        return out

    @staticmethod
    def _mandatory_lays(hand: list[int], must: list[int]) -> list[Action]:
        """Every tris of the mandatory units, in order."""
        unit_of = _UNIT_OF
        if len(must) == 1:
            unit = must[0]
            return list(_tris_of(tuple(sorted([c for c in hand if unit_of[c] == unit]))))
        lays: set[Lay] = set()
        for unit in sorted(must):
            lays.update(_tris_of(tuple(sorted([c for c in hand if unit_of[c] == unit]))))
        ranked: list[Lay] = sorted(lays, key=_lay_order)
        return [*ranked]

    def _advanced_actions(self, seat: int) -> list[Action]:
        """The advanced game's Corteo actions besides tris and adds: swaps, Celatini, specials."""
        side = seat % 2
        out: list[Action] = []
        distinct = sorted(set(self.hands[seat]))
        for _unit, cards in sorted(self.field[side].items()):
            for p in sorted(set(cards)):
                if C.UNIT_OF[p] != -1:
                    continue
                for c in distinct:
                    if not self._swap_problem(side, seat, p, c):
                        out.append(Swap(p, c))
        out += self._celatino_actions(seat)
        out += self._special_actions(seat)
        return out

    def _patch_lays(self, seat: int) -> list[tuple[int, ...]]:
        side = side_of(seat)
        hand = self.hands[seat]
        mag_patches = sorted(c for c in hand if C.LOCAL[c] in C.PATCHES_MAG)
        group_patches = sorted(c for c in hand if C.LOCAL[c] in C.PATCHES_GROUP)
        by_unit: dict[int, list[int]] = {}
        for c in hand:
            u = C.UNIT_OF[c]
            if u >= 0 and u != C.UNIT_CEL and u not in self.shown[side]:
                by_unit.setdefault(u, []).append(c)
        out: set[tuple[int, ...]] = set()
        for u, real in by_unit.items():
            patches = mag_patches if u < C.UNIT_CEL else group_patches
            if not patches or len(real) >= 3:
                continue
            for k in range(1, min(len(real), 2) + 1):
                if 3 - k > len(patches):
                    continue
                for r in itertools.combinations(sorted(real), k):
                    for p in itertools.combinations(patches, 3 - k):
                        out.add(tuple(sorted(r + p)))
        return sorted(out)

    def _celatino_actions(self, seat: int) -> list[Action]:
        side = side_of(seat)
        if C.group_card(side, 0) not in self.hands[seat]:
            return []
        opp = 1 - side
        out: list[Action] = []
        if self.decks[opp]:
            out.append(Celatino("deck"))
        if not self.field_safe(opp):
            targets = {c for cards in self.field[opp].values() for c in cards}
            targets.update(self.specials[opp])
            out += [Celatino("field", c) for c in sorted(targets)]
        if not self.hand_safe(opp):
            out += [Celatino("hand", NO, s) for s in self.seats_of(opp) if self.hands[s]]
        if self.ruleset.multi:
            out += [
                # The pile's cards lie face down: a Celatino aims at a place among the
                # opponent's backs, never at a card it cannot see.
                Celatino("pile", at=k)
                for k, c in enumerate(reversed(self.pile))
                if C.SIDE_OF[c] == opp
            ]
        return out

    def _special_targets(self, side: int, local: int) -> list[int]:
        if local == C.TROMBETTIERE:
            return sorted(set(self.decks[side]))
        if local == C.TAMBURINO:
            return sorted({c for c in self.arno if C.SIDE_OF[c] == side})
        if local == C.LUOGOTENENTE:
            found = {c for cards in self.field[side].values() for c in cards}
            return sorted(found.union(self.specials[side]))
        return []

    def _special_actions(self, seat: int) -> list[Action]:
        side = side_of(seat)
        out: list[Action] = []
        for c in sorted(set(self.hands[seat])):
            local = C.LOCAL[c]
            if local < C.GENERALE:
                continue
            if local in (C.GENERALE, C.MAESTRO):
                out.append(Special(c))
                continue
            targets = self._special_targets(side, local)
            out += [Special(c, t) for t in targets] if targets else [Special(c)]
        return out

    # --- rule checks ----------------------------------------------------------------
    def _add_problem(self, seat: int, c: int) -> str:
        unit = _UNIT_OF[c]
        if unit < 0:
            return "ergio.adv.patch.kind"
        return self._add_rules(seat % 2, unit)[_IS_FIGHTER[c]]

    def _add_rules(self, side: int, unit: int) -> tuple[str, str]:
        """Why a card of this unit may not be added to the side's shown cards now: for a
        card that is not a combattente, then for a combattente ("" where it may). All that
        decides it besides the card's unit."""
        if unit not in self.shown[side]:
            return _NOT_SHOWN
        if unit >= C.UNIT_CEL:
            return _CELATINO_SINGLY if unit == C.UNIT_CEL and self._advanced else _ADDABLE
        cards = self.field[side].get(unit)
        if cards is None:
            cards = []
        n = len(cards)
        if n >= 4:
            return _FOURTH_MAX
        if self.turn_no <= self.laid_turn[side].get(unit, 0):
            return _FOURTH_LATER
        fighter = _IS_FIGHTER
        if n == 3 and fighter[cards[0]] and fighter[cards[1]] and fighter[cards[2]]:
            return _FOURTH_NOT_COMBATTENTE
        return _ADDABLE

    def _swap_problem(self, side: int, seat: int, patch: int, c: int) -> str:
        if not self.ruleset.advanced:
            return "ergio.field.no_replace"
        unit = next((u for u, cards in self.field[side].items() if patch in cards), None)
        if unit is None or C.UNIT_OF[patch] != -1:
            return "ergio.field.no_replace"
        if c not in self.hands[seat]:
            return "ergio.card.in_hand"
        # Only a magistratura's patches (Trombettiere, Tamburino, Luogotenente) come back:
        # Generale and Maestro di Campo completing the Guardie stay (docs/rules/ergio.md).
        if C.UNIT_OF[c] != unit or C.LOCAL[patch] not in C.PATCHES_MAG:
            return "ergio.adv.swap"
        cards = [x for x in self.field[side][unit] if x != patch] + [c]
        if len(cards) == 4 and all(C.IS_FIGHTER[x] for x in cards):
            return "ergio.corteo.fourth.not_four_combattenti"
        return ""

    def _lay_problem(self, seat: int, cards: tuple[int, ...]) -> str:
        side = side_of(seat)
        if Counter(cards) - Counter(self.hands[seat]):
            return "ergio.card.in_hand"
        real = [c for c in cards if C.UNIT_OF[c] >= 0]
        patches = [c for c in cards if C.UNIT_OF[c] < 0]
        units = {C.UNIT_OF[c] for c in real}
        if len(cards) != 3 or len(units) != 1:
            return (
                "ergio.corteo.tris.shape"
                if not patches or len(units) > 1
                else ("ergio.adv.patch.kind")
            )
        unit = units.pop()
        if patches:
            if not self.ruleset.advanced:
                return "ergio.adv.special.only_advanced"
            kinds = C.PATCHES_MAG if unit < C.UNIT_CEL else C.PATCHES_GROUP
            if unit == C.UNIT_CEL or any(C.LOCAL[p] not in kinds for p in patches):
                return "ergio.adv.patch.kind"
        if unit == C.UNIT_CEL and self.ruleset.advanced:
            return "ergio.adv.celatino.single"
        if unit in self.shown[side]:
            return (
                "ergio.multi.one_tris_per_side"
                if self.ruleset.multi
                else "ergio.corteo.tris.one_per_magistratura"
            )
        if self.mandatory(seat) and (patches or unit not in self.mandatory(seat)):
            return "ergio.corteo.tris.must_lay"
        return ""

    def check(self, seat: int, action: Any) -> list[Violation]:
        if self.phase == OVER:
            return [rule_broken(BOOK, "ergio.record.game_over", seat=seat)]
        actor = self.to_act()
        if seat != actor:
            return [
                rule_broken(
                    BOOK,
                    "ergio.turn.order",
                    f"Tocca al posto {seat_no(actor)}.",
                    f"Seat {seat_no(actor)} is to act.",
                    seat=seat,
                )
            ]
        if self._is_legal(seat, action):
            return []
        rule = self._diagnose(seat, action) or "ergio.phase.action"
        try:
            said = {lang: ergio_words.action(encode(action), lang) for lang in ("it", "en")}
        except (TypeError, KeyError, ValueError):
            said = {lang: repr(action) for lang in ("it", "en")}
        side = C.SIDES[side_of(seat)].title()
        return [
            rule_broken(BOOK, rule, f"{side} {said['it']}.", f"{side} {said['en']}.", seat=seat)
        ]

    def _is_legal(self, seat: int, a: Any) -> bool:
        """``a in self.legal_actions(seat)`` for the seat to act, without listing them all.

        The common actions are decided directly by the same tests the listing makes; the
        rest (and any action whose fields are not plain ints and strs) go through the list.
        """
        kind = type(a)
        if self.phase == CORTEO:
            side = side_of(seat)
            hand = self.hands[seat]
            if self.draws_left > 0:
                if kind is not Draw:
                    return False
                return a.source == "pile" or (a.source == "deck" and bool(self.decks[side]))
            if kind is Lay:
                must = self.mandatory(seat)
                cards = a.cards
                if type(cards) is not tuple:
                    return a in self.legal_actions(seat)  # odd values
                if not must:  # only a tris completed by patches (advanced) may be laid
                    return self.ruleset.advanced and cards in self._patch_lays(seat)
                if len(cards) != 3:
                    return False
                if not all(type(c) is int and 0 <= c < C.TYPES for c in cards):
                    return a in self.legal_actions(seat)
                unit = C.UNIT_OF[cards[0]]
                return (
                    unit in must
                    and C.UNIT_OF[cards[1]] == unit
                    and C.UNIT_OF[cards[2]] == unit
                    and cards[0] <= cards[1] <= cards[2]
                    and all(hand.count(c) >= cards.count(c) for c in cards)  # all held
                )
            if kind is End:
                return not self.mandatory(seat) and not self.over_limit(seat)

            if kind is Add or kind is Arno:
                card = a.card
                if type(card) is not int:
                    return a in self.legal_actions(seat)
                if card not in hand or self.mandatory(seat):
                    return False
                if kind is Add:
                    return not self._add_problem(seat, card)
                return self.over_limit(seat)
            return a in self.legal_actions(seat)
        if self.phase == BATTLE:
            side = side_of(seat)
            if kind is Send:
                if type(a.mag) is not int:
                    return a in self.legal_actions(seat)
                return (
                    self.sent[side] == NO
                    and a.mag in C.side_mags(side)
                    and a.mag not in self.fought[side]
                )
            if kind is Ready:
                return self.sent[side] != NO
            if kind is Reinforce:
                if type(a.card) is not int or type(a.under) is not str:
                    return a in self.legal_actions(seat)
                if self.sent[side] == NO or a.card not in self.pool(side):
                    return False
                return self.room(side).get(a.under, 0) > 0
        return a in self.legal_actions(seat)

    def _diagnose(self, seat: int, a: Any) -> str:
        side = side_of(seat)
        hand = self.hands[seat]
        corteo_kinds = (Lay, Add, Swap, Celatino, Special, Pass, Draw, Arno, End)
        if self.phase == CORTEO:
            if not isinstance(a, corteo_kinds):
                return "ergio.phase.action"
            if self.draws_left > 0:
                if not isinstance(a, Draw):
                    return "ergio.multi.draw.source"
                return "ergio.multi.pile.draw_top" if a.source == "pile" else "ergio.corteo.draw"
            if isinstance(a, Draw):
                return "ergio.multi.draw.source" if self.ruleset.multi else "ergio.corteo.draw"
            if isinstance(a, Lay):
                return self._lay_problem(seat, a.cards)
            if self.mandatory(seat):
                return "ergio.corteo.tris.must_lay"
            if isinstance(a, Add):
                if a.card not in hand:
                    return "ergio.card.in_hand"
                return self._add_problem(seat, a.card)
            if isinstance(a, Swap):
                return self._swap_problem(side, seat, a.patch, a.card)
            if isinstance(a, (Celatino, Special)) and not self.ruleset.advanced:
                return "ergio.adv.special.only_advanced"
            if isinstance(a, Celatino):
                opp = 1 - side
                if C.group_card(side, 0) not in hand:
                    return "ergio.card.in_hand"
                if a.target == "hand" and self.hand_safe(opp):
                    return "ergio.adv.guard.hand"
                if a.target == "field" and self.field_safe(opp):
                    return "ergio.adv.guard.field"
                if a.target == "pile":
                    return "ergio.multi.pile.celatino"
                return "ergio.adv.celatino.target"
            if isinstance(a, Special):
                if a.card not in hand:
                    return "ergio.card.in_hand"
                return _SPECIAL_RULES.get(C.LOCAL[a.card], "ergio.adv.patch.kind")
            if isinstance(a, Pass):
                if not self.ruleset.multi:
                    return "ergio.phase.action"
                if self.passes >= 2:
                    return "ergio.multi.pile.max_two"
                return "ergio.card.in_hand"
            if isinstance(a, Arno):
                if not self.over_limit(seat):
                    return "ergio.corteo.arno.only_excess"
                return "ergio.card.in_hand"
            if isinstance(a, End) and self.over_limit(seat):
                return "ergio.corteo.hand_limit"
            return ""
        if self.phase == SABOTAGE:
            return "ergio.adv.sabotage"
        if isinstance(a, Sabotage):
            return "ergio.adv.sabotage"
        if isinstance(a, Send):
            if self.sent[side] != NO:
                return "ergio.phase.action"
            if C.MAG_OF[C.card_of(a.mag, 0)] // 6 != side:
                return "ergio.battle.own_magistratura"
            if a.mag in self.fought[side]:
                return "ergio.battle.once_each"
            return ""
        if isinstance(a, Reinforce):
            if self.sent[side] == NO:
                return "ergio.phase.action"
            if a.card not in self.pool(side):
                return "ergio.card.in_hand"
            room = self.room(side)
            if a.under == "spot" and "spot" in room:
                return "ergio.battle.spot.max_two"
            return "ergio.battle.reinforce.slots"
        if isinstance(a, Ready):
            return "ergio.phase.action"
        if isinstance(a, (Lay, Add, Swap)):
            return "ergio.battle.no_laying"
        return "ergio.phase.action"

    # --- applying -------------------------------------------------------------------
    def apply_unchecked(self, seat: int, action: Any) -> None:
        if not 0 <= seat < self._seats:
            raise RecordError(f"there is no seat {seat}")
        phase = self.phase
        # the commonest actions, as _apply_corteo and _apply_battle apply them, without their
        # call; anything else (and anything wrong) goes through those
        if phase is CORTEO:
            kind = type(action)
            if seat != self.turn_seat:
                self._apply_corteo(seat, action)  # says whose turn it is
            elif action is END:  # the listing's End
                self._end_turn()
            elif kind is Add and type(action.card) is int:
                card = action.card
                unit = _UNIT_OF[card] if 0 <= card < C.TYPES else -1
                if unit < 0:
                    self._apply_corteo(seat, action)
                else:
                    try:
                        self.hands[seat].remove(card)
                    except ValueError:
                        self._take(seat, card)  # says which card is missing
                    self.field[seat % 2].setdefault(unit, []).append(card)
            else:
                self._apply_corteo(seat, action)
        elif phase is BATTLE:
            side = seat % 2
            kind = type(action)
            if side != self.sending:
                self._apply_battle(side, action)  # says whose turn it is
            elif self.sent[side] == NO:
                if kind is Send:
                    self.sent[side] = action.mag
                else:
                    self._apply_battle(side, action)
            elif kind is Reinforce and not self._multi:
                try:
                    self.hands[side].remove(action.card)
                except ValueError:
                    self._take_from_pool(side, action.card)  # says which card is missing
                self.bridge[side][action.under].append(action.card)
            elif kind is Ready:
                if side == self.challenger:
                    self.sending = 1 - side
                else:
                    self._resolve()
            else:
                self._apply_battle(side, action)
        elif phase is OVER:
            raise RecordError("the game is over")
        else:
            if not isinstance(action, Sabotage):
                raise RecordError("the Corteo winner must first say whether to sabotage")
            opp = 1 - self.corteo_winner
            if action.do:
                for _ in range(3):
                    if self.decks[opp]:
                        self.arno.append(self.decks[opp].pop())
            self._start_battle()
        self.actions.append((seat, action))

    def _apply_corteo(self, seat: int, a: Any) -> None:
        if seat != self.turn_seat:
            raise RecordError(f"it is seat {self.turn_seat}'s turn in the Corteo")
        side = seat % 2
        hand = self.hands[seat]
        # the commonest first (End and Add mostly come in apply_unchecked's own way)
        if isinstance(a, Lay):
            laid = a.cards
            for c in laid:
                try:
                    hand.remove(c)
                except ValueError:
                    self._take(seat, c)  # says which card is missing
            unit = C.UNIT_GCCC  # the unit of the first real card (patches belong to none)
            for c in laid:
                if _UNIT_OF[c] >= 0:
                    unit = _UNIT_OF[c]
                    break
            self.field[side].setdefault(unit, []).extend(laid)
            self.shown[side].add(unit)
            self.laid_turn[side].setdefault(unit, self.turn_no)
        elif isinstance(a, End):
            self._end_turn()
        elif isinstance(a, Add):
            try:
                hand.remove(a.card)
            except ValueError:
                self._take(seat, a.card)  # says which card is missing
            unit = _UNIT_OF[a.card]
            if unit < 0:
                raise RecordError(f"{C.CODES[a.card]} belongs to no magistratura or group")
            self.field[side].setdefault(unit, []).append(a.card)
        elif isinstance(a, Arno):
            try:
                hand.remove(a.card)
            except ValueError:
                self._take(seat, a.card)  # says which card is missing
            self.arno.append(a.card)
        elif isinstance(a, Draw):
            if a.source == "pile":
                i = self.pile_reach(side)
                if i < 0:
                    raise RecordError("no card of this side can be drawn from the common pile")
                hand.append(self.pile.pop(i))
            elif not self._draw_deck(seat):
                raise RecordError("the deck is empty")
            self.draws_left = max(0, self.draws_left - 1)
            self._settle_draws()
        elif isinstance(a, Swap):
            held = next((u for u, cards in self.field[side].items() if a.patch in cards), None)
            if held is None:
                raise RecordError(f"{C.CODES[a.patch]} is not on the field")
            unit = held
            self._take(seat, a.card)
            cards = self.field[side][unit]
            cards[cards.index(a.patch)] = a.card
            hand.append(a.patch)
        elif isinstance(a, Celatino):
            self._take(seat, C.group_card(side, 0))
            self.field[side].setdefault(C.UNIT_CEL, []).append(C.group_card(side, 0))
            self.shown[side].add(C.UNIT_CEL)
            self._celatino(1 - side, a)
        elif isinstance(a, Special):
            self._take(seat, a.card)
            self.specials[side].append(a.card)
            self._special(seat, a)
        elif isinstance(a, Pass):
            self._take(seat, a.card)
            self.pile.append(a.card)
            self.passes += 1
        else:
            raise RecordError("this action belongs to the battle, and the Corteo is on")

    def _celatino(self, opp: int, a: Celatino) -> None:
        if a.target == "deck":
            if self.decks[opp]:
                self.arno.append(self.decks[opp].pop())
        elif a.target == "field":
            for cards in (*self.field[opp].values(), self.specials[opp]):
                if a.card in cards:
                    cards.remove(a.card)
                    self.arno.append(a.card)
                    return
            raise RecordError(f"{C.CODES[a.card]} is not on the opposing field")
        elif a.target == "hand":
            if a.victim not in self.seats_of(opp):
                raise RecordError(f"seat {a.victim} is not on the opposing side")
            hand = self.hands[a.victim]
            if hand:
                pick = sorted(hand)[self._rng_event("celatino").randrange(len(hand))]
                hand.remove(pick)
                self.arno.append(pick)
        elif a.at != NO:
            i = len(self.pile) - 1 - a.at
            if not 0 <= i < len(self.pile) or C.SIDE_OF[self.pile[i]] != opp:
                raise RecordError(f"no opposing card lies at place {a.at} of the common pile")
            self.arno.append(self.pile.pop(i))
        else:
            for i in range(len(self.pile) - 1, -1, -1):
                if self.pile[i] == a.card:
                    self.arno.append(self.pile.pop(i))
                    return
            raise RecordError(f"{C.CODES[a.card]} is not in the common pile")

    def _special(self, seat: int, a: Special) -> None:
        side = side_of(seat)
        local = C.LOCAL[a.card]
        # ergio.adv.special.generale: another turn, with its draw (_end_turn reads extra_turn).
        if local == C.GENERALE:
            self.extra_turn = True
        # ergio.adv.special.trombettiere: the chosen card from one's own deck, then a reshuffle.
        elif local == C.TROMBETTIERE and a.target != NO:
            deck = self.decks[side]
            if a.target not in deck:
                raise RecordError(f"{C.CODES[a.target]} is not in the deck")
            deck.remove(a.target)
            self.hands[seat].append(a.target)
            self._rng_event("trombettiere").shuffle(deck)
        # ergio.adv.special.tamburino: a card of one's own side taken back from the Arno.
        elif local == C.TAMBURINO and a.target != NO:
            for i in range(len(self.arno) - 1, -1, -1):
                if self.arno[i] == a.target:
                    self.hands[seat].append(self.arno.pop(i))
                    return
            raise RecordError(f"{C.CODES[a.target]} is not in the Arno")
        # ergio.adv.special.luogotenente: one of one's own shown cards back into hand.
        elif local == C.LUOGOTENENTE and a.target != NO:
            for cards in (*self.field[side].values(), self.specials[side]):
                if a.target in cards:
                    cards.remove(a.target)
                    self.hands[seat].append(a.target)
                    return
            raise RecordError(f"{C.CODES[a.target]} is not on the field")

    def _apply_battle(self, side: int, a: Any) -> None:
        if side != self.sending:
            raise RecordError(f"{C.SIDES[self.sending]} is to act on the bridge")
        if isinstance(a, Reinforce):
            if self.sent[side] == NO:
                raise RecordError("send a magistratura before reinforcing it")
            if self._multi:
                self._take_from_pool(side, a.card)
            else:
                try:
                    self.hands[side].remove(a.card)
                except ValueError:
                    self._take_from_pool(side, a.card)  # says which card is missing
            self.bridge[side][a.under].append(a.card)
        elif isinstance(a, Send):
            if self.sent[side] != NO:
                raise RecordError("a magistratura is already on the bridge")
            self.sent[side] = a.mag
        elif isinstance(a, Ready):
            if self.sent[side] == NO:
                raise RecordError("send a magistratura first")
            if side == self.challenger:
                self.sending = 1 - side
            else:
                self._resolve()
        else:
            raise RecordError("the Corteo is over: only battle actions now")

    # --- end ------------------------------------------------------------------------
    def result(self) -> dict[str, JSON]:
        return result_of(
            self.facts, self.corteo_winner, self.ruleset.bella_sums, self.ruleset.seats
        )

    def outcome(self) -> Outcome:
        if not self.is_over():
            raise ValueError("the game is not over")
        return outcome_of(self.result(), self.ruleset.seats)

    def summary(self) -> dict[str, JSON]:
        """What a scorekeeper writes down for this game (docs/notation/ergio.md)."""
        scontri = []
        for f in self.facts:
            entry: dict[str, JSON] = {"challenger": C.SIDES[f.challenger]}
            for s, name in enumerate(C.SIDES):
                side = f.sides[s]
                entry[name] = {
                    "magistratura": C.MAGISTRATURE[side.mag][0],
                    "force": side.force,
                    "figures": [n for r, n in enumerate(C.FIGURE_NAMES) if side.mask & (1 << r)],
                    "laid_force": side.laid_force,
                }
            scontri.append(entry)
        return {
            "game": SLUG,
            "ruleset": self.ruleset.to_json(),
            "corteo_winner": C.SIDES[self.corteo_winner] if self.corteo_winner >= 0 else None,
            "scontri": scontri,
        }

    # --- views and records ----------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, JSON]:
        side = side_of(seat) if seat is not None else None
        battle: dict[str, JSON] | None = None
        if self.phase in (BATTLE, OVER):
            battle = {
                "scontro": len(self.facts) + (0 if self.is_over() else 1),
                "challenger": C.SIDES[self.challenger],
                "sent": [C.MAGISTRATURE[m][0] if m != NO else None for m in self.sent],
                "face_down": [sum(len(v) for v in b.values()) for b in self.bridge],
                "mine": (
                    {k: C.describe(v) for k, v in self.bridge[side].items()}
                    if side is not None
                    else None
                ),
                "points": list(self.points),
                "fought": self.history,
            }
        hand: list[str] | None = None
        if seat is not None:
            if self.ruleset.multi and self.phase != CORTEO:
                hand = C.describe(sorted(self.pool(side_of(seat))))
            else:
                hand = C.describe(sorted(self.hands[seat]))
        return {
            "game": SLUG,
            "ruleset": self.ruleset.name,
            "phase": self.phase.value,
            "to_act": self.to_act(),
            "seat": seat,
            "side": C.SIDES[side] if side is not None else None,
            "turn": self.turn_no,
            "hand": hand,
            "hand_sizes": [len(h) for h in self.hands],
            "decks": [len(d) for d in self.decks],
            "field": [
                {C.unit_name(u): C.describe(cards) for u, cards in sorted(f.items())}
                for f in self.field
            ],
            "specials": [C.describe(s) for s in self.specials],
            "arno": C.describe(self.arno),
            "pile": [C.SIDES[C.SIDE_OF[c]] for c in self.pile],  # face down: colour only
            "kept": [C.describe(k) for k in self.kept],
            "corteo_winner": C.SIDES[self.corteo_winner] if self.corteo_winner >= 0 else None,
            "battle": battle,
            "result": self.result() if self.is_over() else None,
        }

    @classmethod
    def at_battle(
        cls, ruleset: ErGioRuleset, position: dict[str, JSON], seed: int | None
    ) -> ErGioState:
        """A match entered from the start of its battle, as a referee finds a real table:
        each side's laid Corteo, its hand and the cards it drew after each scontro, in order
        (docs/notation/ergio.md, "From the battle"). ``position`` is already checked
        (games/ergio/game.py); the side's other cards lie out of play, in the Arno."""
        state = cls(ruleset, ([], []), seed)
        state.position = position
        state.hands = [[] for _ in range(ruleset.seats)]
        state.arno = []
        for side, name in enumerate(C.SIDES):
            mine = position[name]
            listed: Counter[int] = Counter()
            for code in mine["corteo"]:
                card = C.BY_CODE[code]
                listed[card] += 1
                unit = C.UNIT_OF[card]
                if unit < 0:
                    state.specials[side].append(card)
                else:
                    state.field[side].setdefault(unit, []).append(card)
                    state.shown[side].add(unit)
            hand = [C.BY_CODE[c] for c in mine["hand"]]
            listed.update(hand)
            state.hands[side] = hand  # with four or six, the side's common hand
            drawn = [C.BY_CODE[c] for c in mine["drawn"]]
            listed.update(drawn)
            state.decks[side] = list(reversed(drawn))  # top last
            state.deal[side][:] = drawn
            rest = Counter(C.deck(side, ruleset.advanced)) - listed
            state.arno.extend(sorted(rest.elements()))
        state.corteo_winner = C.SIDES.index(str(position["corteo_winner"]))
        state.corteo_end = "position"
        state.draws_left = 0
        state._start_battle()
        return state

    def to_record(self) -> dict[str, JSON]:
        record: dict[str, JSON] = {
            "game": SLUG,
            "version": NOTATION_VERSION,
            "ruleset": self.ruleset.to_json(),
            "deal": (
                {"battle": self.position}
                if self.position is not None
                else {name: C.describe(self.deal[s]) for s, name in enumerate(C.SIDES)}
            ),
            "actions": [{"seat": s, **encode(a)} for s, a in self.actions],
        }
        if self.seed is not None:
            record["seed"] = self.seed
        return record
