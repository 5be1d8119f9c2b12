"""3D cardChess in play: sfide of face-down plays, reveals and captures, until the gold is won.

A turn has two kinds of action. Each player in seat order places face-down cards
(``Play``: one card code or None per table card), hidden from the others by ``view``; then
the dealer (seat 0) reveals the plays on each table card in order and says who takes it
(``Resolve``). The engine knows the right answer; a record that says otherwise breaks the
capture rule it contradicts (colour, square, value, #, higher card, equal cards).

Deals are chance, written in the record: one shuffled deck per sfida and, with two players,
the order of the one reshuffle of the discards. A seeded game draws them from games.core.rng
when they are first needed.
"""

from __future__ import annotations

import dataclasses
import itertools
import operator
from collections import Counter
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from typing import Any, Final

from games.cardchess import cards as C
from games.cardchess import words
from games.cardchess.rules import BOOK, SLUG
from games.cardchess.ruleset import CardChessRuleset
from games.cardchess.scoring import Tally
from games.core import (
    NOTATION_VERSION,
    Outcome,
    RecordError,
    State,
    Text,
    Violation,
    rule_broken,
)
from games.core import rng as make_rng
from games.core.cards import shuffle
from games.core.text import seat_no
from games.core.words import join

JSON = Any
NONE = -1  # no card under this table card


class Phase(StrEnum):
    """Where a game stands; the values are the ``phase`` of a view. Read from the flow's own
    fields (``resolve_at``, ``waiting``, the tally) rather than stored beside them."""

    PLAY = "play"  # the players place their cards face down, in seat order
    REVEAL = "reveal"  # the dealer reveals the plays and says who takes each table card
    DEAL = "deal"  # the record lacks the next deal (or reshuffle) and there is no seed
    OVER = "over"


PLAY, REVEAL, DEAL, OVER = Phase.PLAY, Phase.REVEAL, Phase.DEAL, Phase.OVER


@dataclass(frozen=True, slots=True)
class Play:
    """Face-down cards, one per table card in table order (NONE where no card goes)."""

    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Resolve:
    """The dealer reveals the plays on table card ``at``: ``taker`` takes it, or None."""

    at: int
    taker: int | None


@dataclass
class SfidaDeal:
    deck: list[int]
    reshuffle: list[int] | None = None


@dataclass
class SfidaResult:
    points: list[int]
    reami: list[int]
    gold: int | None
    deciding: bool = False

    def to_json(self) -> dict[str, JSON]:
        return {
            "points": self.points,
            "reami": self.reami,
            "gold": self.gold,
            "deciding": self.deciding,
        }


@dataclass(slots=True)
class Board:
    """The cards of the sfida in progress (every card of the deck is in exactly one place)."""

    pile: list[int]  # draw pile, next card last
    hands: list[list[int]]
    table: list[int] = field(default_factory=list)
    plays: list[tuple[int, ...] | None] = field(default_factory=list)
    captured: list[list[int]] = field(default_factory=list)  # everything gained
    pieces: list[list[int]] = field(default_factory=list)  # table pieces captured
    discard: list[int] = field(default_factory=list)
    reshuffled: bool = False
    cyclic: bool = False  # deal one card at a time (after the reshuffle; always for 3 or 4)
    last_turn: bool = False


class CardChessState(State[Play | Resolve]):
    ruleset: CardChessRuleset

    def __init__(self, ruleset: CardChessRuleset, deals: list[SfidaDeal], seed: int | None) -> None:
        self.ruleset = ruleset
        self.n = ruleset.seats
        rooks = (ruleset.rook_values[0], ruleset.rook_values[1])
        self.t = C.tables(rooks)
        self.captures = _captures(rooks)
        self.deck = _deck(ruleset)  # the deck in order, shuffled anew for each sfida
        self.deals = deals
        self.seed = seed
        self.sfida = -1
        self.tally = Tally(self.n, ruleset.gold)
        self.over = False  # the tally's verdict, copied after each sfida (cardchess.game.end)
        self.results: list[SfidaResult] = []
        self.waiting = False  # the record lacks the next deal and there is no seed
        self.resolve_at = -1  # -1: players are still playing face down
        self.actions: list[tuple[int, Play | Resolve]] = []
        self.b = Board([], [[] for _ in range(self.n)])
        self._start_sfida()

    def clone(self) -> CardChessState:
        """An independent copy to play on (the strong bot's search): the board, the deals,
        the tally and the history copied, the card tables (never changed) shared. It is made
        through ``__init__`` with no deal and no seed, which deals nothing, because the
        compiled class (games/compiled.py) has no bare instance to fill in."""
        new = CardChessState(self.ruleset, [], None)
        b = self.b
        new.b = Board(
            list(b.pile),
            [list(h) for h in b.hands],
            list(b.table),
            list(b.plays),
            [list(c) for c in b.captured],
            [list(p) for p in b.pieces],
            list(b.discard),
            b.reshuffled,
            b.cyclic,
            b.last_turn,
        )
        new.deals = [SfidaDeal(d.deck, d.reshuffle) for d in self.deals]
        new.seed = self.seed
        new.sfida = self.sfida
        new.tally = dataclasses.replace(self.tally, gold=list(self.tally.gold))
        new.over = self.over
        new.results = list(self.results)
        new.waiting = self.waiting
        new.resolve_at = self.resolve_at
        new.actions = list(self.actions)
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> CardChessState:
        return self.clone()

    # --- dealing --------------------------------------------------------------------
    def _deal_for(self, k: int) -> SfidaDeal | None:
        if k < len(self.deals):
            return self.deals[k]
        if self.seed is None:
            return None
        deck = list(self.deck)
        shuffle(deck, make_rng(self.seed, "deck", k))
        deal = SfidaDeal(deck)
        self.deals.append(deal)
        return deal

    def _start_sfida(self) -> None:
        deal = self._deal_for(self.sfida + 1)
        if deal is None:
            self.waiting = True
            return
        self.waiting = False
        self.sfida += 1
        n = self.n
        deck = deal.deck
        # four each, then three face up (cardchess.deal.turn); the pile keeps its next card last
        first = 4 * n
        self.b = Board(
            deck[: first + 2 : -1],
            [deck[4 * s : 4 * s + 4] for s in range(n)],
            deck[first : first + 3],
            [None] * n,
            [[] for _ in range(n)],
            [[] for _ in range(n)],
            [],
            False,
            n > 2,
        )
        self.resolve_at = -1

    # cardchess.deal.reshuffle: with two players, the discards make the deck once more, then dealt
    # one card at a time (cyclic): table, first player, second.
    def _reshuffle(self) -> bool:
        b = self.b
        deal = self.deals[self.sfida]
        if deal.reshuffle is None:
            if self.seed is None:
                self.waiting = True
                return False
            order = list(b.discard)
            shuffle(order, make_rng(self.seed, "reshuffle", self.sfida))
            deal.reshuffle = order
        elif sorted(deal.reshuffle) != sorted(b.discard):  # the same cards, as many times
            raise RecordError(
                "the reshuffled deck is not the discard pile",
                path=f"deal.sfide[{self.sfida}].reshuffle",
            )
        b.pile = list(reversed(deal.reshuffle))
        b.discard = []
        b.reshuffled = True
        b.cyclic = True
        return True

    def _next_turn(self) -> None:
        """Deal the next turn, or close the sfida when no card is left to deal."""
        b = self.b
        n = self.n
        if n == 2:
            if not b.pile and not b.reshuffled and b.discard and not self._reshuffle():
                return
            if not b.pile:
                self._end_sfida()
                return
            size = 9
        else:
            if not b.pile:
                self._end_sfida()
                return
            # cardchess.deal.last_turn: with three or four, once no more than 3 a head and 4 for the
            # table are left, this turn is the last: three each, four on the table, and every card
            # in hand is played (must_play).
            b.last_turn = len(b.pile) <= 3 * n + 4
            size = 3 * n + 4 if b.last_turn else 3 * n + 3
        pile = b.pile
        size = min(size, len(pile))
        dealt = pile[: -size - 1 : -1]  # the next ``size`` cards, in the order dealt
        del pile[-size:]
        hands = b.hands
        if b.cyclic:  # one card at a time: the table, then each seat, three rounds
            step = n + 1
            b.table = dealt[::step]  # with a last turn's fourth table card at the end
            for s in range(n):
                hands[s] += dealt[s + 1 :: step]
        else:  # a block deal: three to each seat in turn, then three to the table
            hands[0] += dealt[0:3]
            hands[1] += dealt[3:6]
            b.table = dealt[6:9]
        # cardchess.deal.last_turn: with two, the turn dealt from the last cards is the last one.
        if n == 2 and not pile and (b.reshuffled or not b.discard):
            b.last_turn = True
        self.resolve_at = -1

    def _end_sfida(self) -> None:
        b = self.b
        for hand in b.hands:  # the card kept in hand goes to the discards (cardchess.sfida.end)
            b.discard.extend(hand)
            hand.clear()
        # cardchess.score.counted: every card gained, or (option) only the table pieces captured.
        counted = b.captured if self.ruleset.counted == "all" else b.pieces
        scored = [C.sfida_points(cs) for cs in counted]
        points = [p for p, _ in scored]
        result = SfidaResult(points, [r for _, r in scored], None, self.tally.deciding)
        self.results.append(result)
        result.gold = self.tally.add(points)
        self.over = self.tally.over
        if self.over:
            self.resolve_at = -1
        else:
            self._start_sfida()

    @property
    def phase(self) -> Phase:
        if self.over:
            return OVER
        if self.waiting:
            return DEAL
        return REVEAL if self.resolve_at >= 0 else PLAY

    @property
    def gold(self) -> list[int]:
        return self.tally.gold

    @property
    def gold_left(self) -> int:
        return self.tally.gold_left

    @property
    def deciding(self) -> bool:
        return self.tally.deciding

    # --- turns ------------------------------------------------------------------------
    def to_act(self) -> int | None:
        if self.over or self.waiting:
            return None
        if self.resolve_at >= 0:
            return 0
        return self.b.plays.index(None)  # seat order; the last play starts the reveal

    def must_play(self, seat: int) -> int:
        """How many cards this seat places this turn (cardchess.play.count)."""
        b = self.b
        k, h = len(b.table), len(b.hands[seat])
        if self.n > 2 and b.last_turn:
            return min(k, h)
        return max(0, min(k, h - 1))

    def legal_actions(self, seat: int) -> list[Play | Resolve]:
        if self.over or self.waiting:
            return []
        at = self.resolve_at
        if at >= 0:
            return [_RESOLVES[at][self._taker(at)]] if seat == 0 else []
        b = self.b
        if b.plays.index(None) != seat:
            return []
        hand = b.hands[seat]
        k = len(b.table)
        if k == 3 and len(hand) == 4 and len(set(hand)) == 4:  # the usual turn, as below
            first, second, third, fourth = map(
                _TRIPLES.__getitem__, itertools.combinations(hand, 3)
            )
            return list(_IN_PATTERN_ORDER(first + second + third + fourth))
        # every way to put must_play(seat) hand cards under distinct table cards; when a card
        # goes under each (a hand longer than the table) that is every ordered choice of k cards
        # of the hand, which itertools yields in the patterns' order
        if len(hand) > k:
            cards: Any = itertools.permutations(hand, k)
        else:
            m = self.must_play(seat)
            if m == k:
                cards = itertools.permutations(hand, k)
            else:
                cards = [
                    tuple([hand[i] if i >= 0 else NONE for i in p])
                    for p in _patterns(k, len(hand), m)
                ]
        if len(set(hand)) < len(hand):  # identical cards: the same play only once
            cards = dict.fromkeys(cards)
        return list(map(_PLAYS.__getitem__, cards))

    def taker(self, at: int) -> int | None:
        """Who takes table card ``at``: the one highest capturing card, if it is alone."""
        who = self._taker(at)
        return None if who < 0 else who

    def _taker(self, at: int) -> int:
        """``taker`` as a seat, or -1 for nobody."""
        b = self.b
        able = self.captures[b.table[at]]
        value = self.t.value
        best = -1
        who = -1
        for s, play in enumerate(b.plays):
            if play is None:
                continue
            c = play[at]
            if c >= 0 and able[c]:
                v = value[c]
                if v > best:
                    best, who = v, s
                elif v == best:
                    who = -1
        return who

    def check(self, seat: int, action: Any) -> list[Violation]:
        if self.over:
            return [rule_broken(BOOK, "cardchess.record.game_over", seat=seat)]
        where = {"sfida": self.sfida}
        actor = self.to_act()
        if isinstance(action, Resolve):
            if self.resolve_at < 0 or seat != 0:
                detail = Text(
                    f"Ora tocca al giocatore {seat_no(actor)}.",
                    f"It is seat {seat_no(actor)}'s turn now.",
                )
                return [
                    rule_broken(
                        BOOK, "cardchess.turn.order", detail.it, detail.en, seat=seat, **where
                    )
                ]
            return self._check_resolve(seat, action, where)
        if self.resolve_at >= 0 or seat != actor:
            detail = Text(
                f"Ora tocca al giocatore {seat_no(actor)}.",
                f"It is seat {seat_no(actor)}'s turn now.",
            )
            return [
                rule_broken(BOOK, "cardchess.turn.order", detail.it, detail.en, seat=seat, **where)
            ]
        return self._check_play(seat, action, where)

    def _check_play(self, seat: int, action: Play, where: dict[str, JSON]) -> list[Violation]:
        b = self.b
        found: list[Violation] = []
        k = len(b.table)
        if len(action.cards) != k:
            detail = Text(
                f"{len(action.cards)} posti per {k} carte in tavola.",
                f"{len(action.cards)} places for {k} table cards.",
            )
            return [
                rule_broken(BOOK, "cardchess.play.shape", detail.it, detail.en, seat=seat, **where)
            ]
        played = [c for c in action.cards if c >= 0]
        m = self.must_play(seat)
        if len(played) != m:
            detail = Text(
                f"Giocate {len(played)} carte, ne vanno giocate {m}.",
                f"{len(played)} cards played, {m} are due.",
            )
            found.append(
                rule_broken(BOOK, "cardchess.play.count", detail.it, detail.en, seat=seat, **where)
            )
        hand = b.hands[seat]
        # distinct cards all in hand need no counting; otherwise compare the counts
        held = len(set(played)) == len(played) and all(c in hand for c in played)
        missing = None if held else Counter(played) - Counter(hand)
        if missing:
            names = _cards(sorted(missing.elements()))
            detail = Text(f"Non in mano: {names.it}.", f"Not in hand: {names.en}.")
            found.append(
                rule_broken(
                    BOOK, "cardchess.play.in_hand", detail.it, detail.en, seat=seat, **where
                )
            )
        return found

    def _check_resolve(self, seat: int, action: Resolve, where: dict[str, JSON]) -> list[Violation]:
        at = self.resolve_at
        where = {**where, "table": at}
        if action.at != at:
            detail = Text(
                f"Si scopre la carta {at + 1} del tavolo, non la {action.at + 1}.",
                f"Table card {at + 1} is revealed now, not {action.at + 1}.",
            )
            return [
                rule_broken(
                    BOOK, "cardchess.resolve.order", detail.it, detail.en, seat=seat, **where
                )
            ]
        right = self.taker(at)
        claimed = action.taker
        if claimed == right:
            return []
        b = self.b
        target = b.table[at]
        tname = _cards([target])
        if claimed is None:
            detail = Text(
                f"Il giocatore {seat_no(right)} cattura {tname.it}.",
                f"Seat {seat_no(right)} captures {tname.en}.",
            )
            return [
                rule_broken(
                    BOOK, "cardchess.capture.missed", detail.it, detail.en, seat=seat, **where
                )
            ]
        if not 0 <= claimed < self.n:
            detail = Text(f"Non c'è il posto {claimed + 1}.", f"There is no seat {claimed + 1}.")
            return [
                rule_broken(
                    BOOK, "cardchess.capture.no_card", detail.it, detail.en, seat=seat, **where
                )
            ]
        play = b.plays[claimed]
        card = NONE if play is None else play[at]
        if card < 0:
            detail = Text(
                f"Il giocatore {claimed + 1} non ha carte su {tname.it}.",
                f"Seat {claimed + 1} has no card on {tname.en}.",
            )
            return [
                rule_broken(
                    BOOK, "cardchess.capture.no_card", detail.it, detail.en, seat=seat, **where
                )
            ]
        reason = self.t.why_not[card][target]
        cname = _cards([card])
        if reason is not None:
            detail = Text(
                f"{cname.it} non cattura {tname.it}.", f"{cname.en} does not capture {tname.en}."
            )
            return [rule_broken(BOOK, reason, detail.it, detail.en, seat=seat, **where)]
        rule = "cardchess.capture.equal" if right is None else "cardchess.capture.higher"
        detail = Text(
            f"{cname.it} del giocatore {claimed + 1} non prende {tname.it}.",
            f"Seat {claimed + 1}'s {cname.en} does not take {tname.en}.",
        )
        return [rule_broken(BOOK, rule, detail.it, detail.en, seat=seat, **where)]

    # --- the fast path --------------------------------------------------------------
    def apply_unchecked(self, seat: int, action: Any) -> None:
        if self.over or self.waiting:
            raise RecordError("the game is over" if self.over else "the next deal is missing")
        b = self.b
        if isinstance(action, Play):
            plays = b.plays
            if not 0 <= seat < self.n or plays[seat] is not None or self.resolve_at >= 0:
                raise RecordError(f"seat {seat} cannot place cards now")
            cards = action.cards
            if len(cards) != len(b.table):
                raise RecordError(f"a play needs one place per table card ({len(b.table)})")
            hand = b.hands[seat]
            for c in cards:
                if c >= 0:
                    try:
                        hand.remove(c)
                    except ValueError:
                        raise RecordError(f"seat {seat} does not hold {C.CODES[c]}") from None
            plays[seat] = cards
            self.actions.append((seat, action))
            if None not in plays:
                self.resolve_at = 0
            return
        at = self.resolve_at
        if at < 0 or action.at != at:
            raise RecordError(f"table card {action.at} is not the one to reveal now")
        taker = action.taker
        # cardchess.capture.gain: the taker gains the piece and every card played on it; with no
        # taker they all go to the discards.
        table = b.table
        piece = table[at]
        if taker is None:
            gained = b.discard
        elif 0 <= taker < self.n:
            gained = b.captured[taker]
            b.pieces[taker].append(piece)
        else:
            raise RecordError(f"there is no seat {taker}")
        gained.append(piece)
        for p in b.plays:
            if p is not None and p[at] >= 0:
                gained.append(p[at])
        self.actions.append((seat, action))
        if at + 1 < len(table):
            self.resolve_at = at + 1
            return
        b.table = []
        b.plays = [None] * self.n
        self.resolve_at = -1
        if self.n > 2 and b.last_turn:
            self._end_sfida()
        else:
            self._next_turn()

    # --- end ------------------------------------------------------------------------
    def is_over(self) -> bool:
        return self.over

    def outcome(self) -> Outcome:
        if not self.over:
            raise ValueError("the game is not over")
        return self.tally.outcome(
            {"gold": list(self.gold), "sfide": [r.to_json() for r in self.results]}
        )

    def summary(self) -> dict[str, JSON]:
        """What a scorekeeper writes for this game: each sfida's points (notation)."""
        return {"players": self.n, "sfide": [list(r.points) for r in self.results]}

    def cards_in_play(self) -> Counter[int]:
        """Every card of the current sfida, wherever it is (for conservation checks)."""
        b = self.b
        total: Counter[int] = Counter(b.pile)
        for hand in b.hands:
            total.update(hand)
        settled = max(self.resolve_at, 0)  # table cards already revealed have moved on
        total.update(b.table[settled:])
        for p in b.plays:
            if p is not None:
                total.update(c for c in p[settled:] if c >= 0)
        for cs in b.captured:
            total.update(cs)
        total.update(b.discard)
        return total

    # --- views and records ----------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, JSON]:
        b = self.b
        codes = C.CODES
        revealed = self.resolve_at  # plays on table cards before this index are settled
        plays: list[JSON] = []
        for s, p in enumerate(b.plays):
            if p is None:
                plays.append(None)
            elif s == seat:
                plays.append([codes[c] if c >= 0 else None for c in p])
            else:  # face down: only whether a card lies there, until it is revealed
                plays.append(
                    [
                        (codes[c] if c >= 0 else None) if i < revealed else c >= 0
                        for i, c in enumerate(p)
                    ]
                )
        return {
            "game": SLUG,
            "seat": seat,
            "sfida": self.sfida,
            "to_act": self.to_act(),
            "hand": [codes[c] for c in b.hands[seat]] if seat is not None else None,
            "hand_sizes": [len(h) for h in b.hands],
            "table": [codes[c] for c in b.table],
            "plays": plays,
            "revealing": self.resolve_at,
            "pile": len(b.pile),
            "reshuffled": b.reshuffled,
            "last_turn": b.last_turn,
            "discard": [codes[c] for c in b.discard],
            "captured": [[codes[c] for c in cs] for cs in b.captured],
            "gold": list(self.gold),
            "gold_left": self.gold_left,
            "sfide": [r.to_json() for r in self.results],
            "phase": self.phase.value,
            "over": self.over,
        }

    def to_record(self) -> dict[str, JSON]:
        sfide: list[JSON] = []
        for d in self.deals:
            entry: dict[str, JSON] = {"deck": [C.CODES[c] for c in d.deck]}
            if d.reshuffle is not None:
                entry["reshuffle"] = [C.CODES[c] for c in d.reshuffle]
            sfide.append(entry)
        record: dict[str, JSON] = {
            "game": SLUG,
            "version": NOTATION_VERSION,
            "ruleset": self.ruleset.to_json(),
            "deal": {"sfide": sfide},
            "actions": [{"seat": s, **encode(a)} for s, a in self.actions],
        }
        if self.seed is not None:
            record["seed"] = self.seed
        return record


@lru_cache(maxsize=8)
def _deck(ruleset: CardChessRuleset) -> tuple[int, ...]:
    return tuple(ruleset.deck())


@lru_cache(maxsize=8)
def _captures(rooks: tuple[int, int]) -> tuple[tuple[bool, ...], ...]:
    """For each table card, which played cards capture it (the capture table by column)."""
    can = C.tables(rooks).can
    return tuple(tuple(row[target] for row in can) for target in range(C.TYPES))


class _SharedPlays(dict[tuple[int, ...], "Play"]):
    """One Play object for each tuple of cards, made the first time it is asked for: legal
    plays are looked up rather than built. About 44,000 tuples occur with two players; the
    four-card last turns of three or four add more, so the table starts again past 131,072
    (the triples keep their plays, which still compare equal to the new ones)."""

    def __missing__(self, cards: tuple[int, ...]) -> Play:
        if len(self) >= 1 << 17:
            self.clear()
        play = self[cards] = Play(cards)
        return play


_PLAYS: Final = _SharedPlays()


class _SharedTriples(dict[tuple[int, ...], tuple["Play", ...]]):
    """The six plays of three cards under three table cards, by the three cards in hand order."""

    def __missing__(self, cards: tuple[int, ...]) -> tuple[Play, ...]:
        if len(self) >= 1 << 16:
            self.clear()
        plays = self[cards] = tuple(map(_PLAYS.__getitem__, itertools.permutations(cards)))
        return plays


_TRIPLES: Final = _SharedTriples()


def _in_pattern_order() -> list[int]:
    """Where each play of three of four hand cards is among the four triples' plays laid end
    to end (combinations of the hand, then permutations of each), in the order of
    ``_patterns(3, 4, 3)``: a hand of four on three table cards, every turn but the last."""
    triples: list[tuple[int, ...]] = list(itertools.combinations(range(4), 3))
    orders: list[tuple[int, ...]] = list(itertools.permutations(range(3)))
    where = []
    for chosen in itertools.permutations(range(4), 3):
        triple = triples.index(tuple(sorted(chosen)))
        order = tuple(triples[triple].index(i) for i in chosen)
        where.append(6 * triple + orders.index(order))
    return where


_IN_PATTERN_ORDER: Final = operator.itemgetter(*_in_pattern_order())
MAX_TABLE: Final = 4  # table cards in one turn: three, four in the last turn with 3 or 4 players
MAX_SEATS: Final = 4
# _RESOLVES[at][seat]: the dealer's Resolve of table card ``at``; [at][-1]: nobody takes it
_RESOLVES: Final = tuple(
    tuple(Resolve(at, who) for who in (*range(MAX_SEATS), None)) for at in range(MAX_TABLE)
)


@lru_cache(maxsize=256)
def _patterns(k: int, h: int, m: int) -> tuple[tuple[int, ...], ...]:
    """Every way to put m of h hand cards (by index) under distinct table cards of k."""
    out = []
    for where in itertools.combinations(range(k), m):
        for chosen in itertools.permutations(range(h), m):
            slots = [NONE] * k
            for pos, i in zip(where, chosen, strict=True):
                slots[pos] = i
            out.append(tuple(slots))
    return tuple(out)


def encode(action: Play | Resolve) -> dict[str, JSON]:
    if isinstance(action, Play):
        return {"play": [C.CODES[c] if c >= 0 else None for c in action.cards]}
    return {"resolve": action.at, "taker": action.taker}


def _cards(cards: list[int]) -> Text:
    """Cards named as players say them ("Pedone blu 2 (casa scura)"), not by their codes."""
    codes = [C.CODES[c] for c in cards]
    return Text(
        join([words.card(c, "it") for c in codes], "it"),
        join([words.card(c, "en") for c in codes], "en"),
    )
