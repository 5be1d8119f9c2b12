"""One smazzata of Tarocco Siciliano (Calatafimi), from the deal to the count.

Phases: the single bargaining round (any unspoken seat may speak: ``to_act`` proposes the
first one from the dealer's right, but the record keeps the order really spoken), the
second deal, the solo declarations, the monte and its discard, then with no soloist the
venti / quindici answers and the call of a King, and the 15 tricks.

Seats are 0..3 in the anticlockwise order of play, so the player "at the right" of seat
``s`` is ``(s + 1) % 4``. The deal is the shuffled pack written in the record; the dealer
deals from its top.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations
from typing import Any, Final, overload

from games.core import (
    NOTATION_VERSION,
    Outcome,
    RecordError,
    Ruleset,
    State,
    Violation,
    rule_broken,
)
from games.core.text import Text, seat_no
from games.core.words import join
from games.tarocco import cards as C
from games.tarocco import words
from games.tarocco.calling import call_fault, required_calls
from games.tarocco.rules import BOOK, SLUG

JSON = Any
SEATS = 4
HAND = 15
TRICKS = 15


class Phase(StrEnum):
    BARGAIN = "bargain"
    SOLO = "solo"
    DISCARD = "discard"
    VENTI = "venti"
    QUINDICI = "quindici"
    CALL = "call"
    PLAY = "play"
    OVER = "over"


#: Each phase as the players call it (Italian, English).
PHASE_WORDS: Final[dict[Phase, tuple[str, str]]] = {
    Phase.BARGAIN: ("della contrattazione", "bargaining"),
    Phase.SOLO: ("del solo", "solo"),
    Phase.DISCARD: ("dello scarto", "discard"),
    Phase.VENTI: ("dei venti", "venti"),
    Phase.QUINDICI: ("dei quindici", "quindici"),
    Phase.CALL: ("della chiamata", "call"),
    Phase.PLAY: ("del gioco", "play"),
    Phase.OVER: ("finale: la smazzata è finita", "final: the hand is over"),
}


class Termination(StrEnum):
    SOLO = "solo"  # played one against three
    PAIRS = "pairs"  # played two against two (open or hidden partner)
    OFFER = "offer"  # an offer was taken in the bargaining
    ABANDONED = "abandoned"  # everyone said vado, or no offer was taken
    ALL_ZERO = "all_zero"  # no soloist and everyone said zero


BIDS = ("vado", "offro", "piglio", "tengo")
SIGNALS = ("knock", "giove", "palla", "both")
DISCARD_LIMITS = ("none", "kings", "kings_trumps", "counting")
LAST_TRICK_FOOL = ("lost", "kept", "forbidden")


@dataclass(frozen=True)
class TaroccoRuleset(Ruleset):
    """The variant switches (V1..V10 of the rules text) and the options the sources leave open.

    Defaults follow Dummett & McLeod; the ``dossena`` preset flips V1..V10. See
    docs/rules/tarocco.md for the source of each and the rule ids they govern.
    """

    dealer_sees_bottom: bool = True  # V1
    abandon_same_dealer: bool = False  # V2
    dealer_may_solo: bool = True  # V3
    soloist_shows_monte: bool = True  # V3
    void_suit_callable: bool = False  # V4
    oro_breaks_ties: bool = True  # V5
    queen_skips_bare_king: bool = True  # V6
    discard_call_declared: bool = True  # V7
    soloist_leads: bool = False  # V8
    called_leads_suit: bool = True  # V9
    signal_both_together: bool = True  # V10
    must_overtrump: bool = False
    fuggitivo_may_lead: bool = False
    fuggitivo_last_trick: str = "lost"
    fuggitivo_exchange: bool = True
    discard_forbidden: str = "none"
    max_offer: int = 10
    tengo_closes: bool = True

    def to_json(self) -> dict[str, JSON]:
        plain = super().to_json()
        plain.pop("seats", None)
        return plain


# --- actions --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Bid:
    """A word of the bargaining: vado, offro ``points``, piglio (the offer ``of`` a seat), tengo."""

    kind: str
    points: int = 0
    of: int = -1


@dataclass(frozen=True, slots=True)
class Declare:
    """solo (True) or passo (False)."""

    solo: bool


@dataclass(frozen=True, slots=True)
class Discard:
    """Three cards put back as the monte by whoever took it."""

    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Venti:
    """venti (True) or zero (False)."""

    yes: bool


@dataclass(frozen=True, slots=True)
class Quindici:
    """quindici (True) or passo (False)."""

    yes: bool


@dataclass(frozen=True, slots=True)
class Call:
    card: int


@dataclass(frozen=True, slots=True)
class Play:
    """A card played; ``signal`` (knock, giove, palla, both) only with a lead."""

    card: int
    signal: str | None = None


Action = Bid | Declare | Discard | Venti | Quindici | Call | Play

# The phases as plain names: the per-action paths compare them by identity.
_BARGAIN: Final = Phase.BARGAIN
_SOLO: Final = Phase.SOLO
_DISCARD: Final = Phase.DISCARD
_VENTI: Final = Phase.VENTI
_QUINDICI: Final = Phase.QUINDICI
_CALL: Final = Phase.CALL
_PLAY: Final = Phase.PLAY
_OVER: Final = Phase.OVER

# Actions are frozen values: the legal lists hand out these shared ones instead of building
# new objects at every call.
VADO: Final = Bid("vado")
TENGO: Final = Bid("tengo")
#: ``OFFRO[x]`` is the offer of x points (index 0 unused; ``max_offer`` is at most 54).
OFFRO: Final = tuple(Bid("offro", x) for x in range(55))
PIGLIO: Final = tuple(Bid("piglio", of=o) for o in range(SEATS))
_BID_BASES: dict[int, tuple[Bid, ...]] = {}
PASSO_SOLO: Final = Declare(False)
SOLO: Final = Declare(True)
_SOLO_WORDS: Final = (PASSO_SOLO, SOLO)
_VENTI_WORDS: Final = (Venti(True), Venti(False))
_ZERO_ONLY: Final = (Venti(False),)
_QUINDICI_WORDS: Final = (Quindici(True), Quindici(False))
_PASSO_ONLY: Final = (Quindici(False),)
#: ``PLAYS[card]``: the card played without a signal.
PLAYS: Final = tuple(Play(c) for c in range(C.PACK_SIZE))
# The signals a lead may carry, by what the hand holds: index giove + 2 * palla, and 4 for
# both held where they may be signalled together (the order of ``allowed_signals``).
_SIGNAL_SETS: Final[tuple[tuple[str | None, ...], ...]] = (
    (None,),
    (None, "knock", "giove"),
    (None, "knock", "palla"),
    (None, "knock", "giove", "palla"),
    (None, "knock", "giove", "palla", "both"),
)
#: ``LEADS[i][card]``: the leads of ``card`` with each signal of ``_SIGNAL_SETS[i]``.
LEADS: Final = tuple(
    tuple(tuple(Play(c, sig) for sig in sigs) for c in range(C.PACK_SIZE)) for sigs in _SIGNAL_SETS
)
#: ``_TRIPLES[n]``: the index triples of ``combinations(range(n), 3)``, in that order, made
#: for the 18 cards of a hand with the monte (and fewer) as first needed.
_TRIPLES: dict[int, tuple[tuple[int, ...], ...]] = {}


def _triples(n: int) -> tuple[tuple[int, ...], ...]:
    found = _TRIPLES.get(n)
    if found is None:
        found = _TRIPLES[n] = tuple(combinations(range(n), 3))
    return found


def _bid_base(max_offer: int) -> tuple[Bid, ...]:
    base = _BID_BASES.get(max_offer)
    if base is None:
        base = _BID_BASES[max_offer] = (VADO, TENGO, *OFFRO[1 : max_offer + 1])
    return base


class DiscardChoices(Sequence[Discard]):
    """Every discard of three from ``cards`` (sorted), in ``combinations`` order.

    A read-only sequence that builds a ``Discard`` only when one is read: the 816 choices of
    an 18-card hand are not made into objects at every ``legal_actions`` call.
    """

    __slots__ = ("_cards", "_triples")

    def __init__(self, cards: Sequence[int]) -> None:
        self._cards: tuple[int, ...] = tuple(cards)
        self._triples: tuple[tuple[int, ...], ...] = _triples(len(self._cards))

    def __len__(self) -> int:
        return len(self._triples)

    @overload
    def __getitem__(self, index: int) -> Discard: ...

    @overload
    def __getitem__(self, index: slice) -> list[Discard]: ...

    def __getitem__(self, index: int | slice) -> Discard | list[Discard]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self._triples)))]
        a, b, c = self._triples[index]
        cards = self._cards
        return Discard((cards[a], cards[b], cards[c]))

    def __iter__(self) -> Iterator[Discard]:
        cards = self._cards
        for a, b, c in self._triples:
            yield Discard((cards[a], cards[b], cards[c]))

    def __contains__(self, action: object) -> bool:
        # the same test as looking the action up in the full list: three of the cards, as a
        # tuple in increasing order
        if not isinstance(action, Discard):
            return False
        t = action.cards
        return (
            type(t) is tuple
            and len(t) == 3
            and t[0] < t[1] < t[2]
            and all(c in self._cards for c in t)
        )

    def __eq__(self, other: object) -> bool:
        if isinstance(other, DiscardChoices):
            return self._cards == other._cards
        if isinstance(other, (list, tuple)):
            return len(other) == len(self) and list(self) == list(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._cards)

    def __repr__(self) -> str:
        return f"DiscardChoices({C.codes(self._cards)})"


PHASE_OF: dict[type, Phase] = {
    Bid: Phase.BARGAIN,
    Declare: Phase.SOLO,
    Discard: Phase.DISCARD,
    Venti: Phase.VENTI,
    Quindici: Phase.QUINDICI,
    Call: Phase.CALL,
    Play: Phase.PLAY,
}


def encode(action: Action) -> dict[str, JSON]:
    if isinstance(action, Bid):
        out: dict[str, JSON] = {"bid": action.kind}
        if action.kind == "offro":
            out["points"] = action.points
        if action.kind == "piglio":
            out["of"] = action.of
        return out
    if isinstance(action, Declare):
        return {"solo": action.solo}
    if isinstance(action, Discard):
        return {"discard": C.codes(action.cards)}
    if isinstance(action, Venti):
        return {"venti": action.yes}
    if isinstance(action, Quindici):
        return {"quindici": action.yes}
    if isinstance(action, Call):
        return {"call": C.CODES[action.card]}
    out = {"play": C.CODES[action.card]}
    if action.signal is not None:
        out["signal"] = action.signal
    return out


def _suit_words(suit: int, lang: str) -> str:
    if suit == C.TRUMP:
        return "trionfi" if lang == "it" else "trumps"
    return words.suit(C.SUITS[suit], lang)


# --- the state ------------------------------------------------------------------------------


# The seats in the order they are dealt to and speak, for each dealer (from the dealer's right).
_ORDERS: Final = tuple([(dealer + 1 + i) % SEATS for i in range(SEATS)] for dealer in range(SEATS))


class TaroccoState(State[Action]):
    ruleset: TaroccoRuleset

    def __init__(self, ruleset: TaroccoRuleset, dealer: int, deck: Sequence[int]) -> None:
        self.ruleset = ruleset
        self.dealer = dealer
        self.deck = deck = list(deck)
        # tarocco.deal.order: two rounds of five from the dealer's right (cards 0-39 of the pack),
        # five more each once someone says tengo (cards 40-59, _second_deal), the monte the last
        # three.
        self.order = order = list(_ORDERS[dealer])  # from the dealer's right
        hands: list[list[int]] = [[], [], [], []]
        for i, seat in enumerate(order):
            hands[seat] = deck[i * 5 : i * 5 + 5] + deck[20 + i * 5 : 25 + i * 5]
        self.hands = hands
        self.phase = Phase.BARGAIN
        self.actions: list[tuple[int, Action]] = []
        # bargaining
        self.spoken: list[Bid | None] = [None] * SEATS
        self.offers: dict[int, int] = {}  # offerer -> points
        self.taken: dict[int, int] = {}  # offerer -> taker
        self.tengo: int | None = None
        # declarations
        self.cursor = 0  # index into the speaking order of the current ordered phase
        self.soloist: int | None = None
        self.monte = self.deck[60:63]
        self.monte_shown = False
        self.monte_taker: int | None = None
        self.discard: list[int] = []
        self.venti: int | None = None
        self.venti_said: list[int] = []  # seats that said zero before venti
        self.quindici: int | None = None
        self.called: int | None = None
        self.partner: int | None = None
        self.partner_open = False
        self.partner_known = False
        # play
        self.leader = -1
        self.trick: list[tuple[int, int]] = []
        self.tricks: list[tuple[int, list[tuple[int, int]], int]] = []  # leader, cards, winner
        self.won: list[list[int]] = [[] for _ in range(SEATS)]
        self.fool_owed: list[tuple[int, int]] = []  # (owner, trick winner): a card is due
        self.led_once: list[bool] = [False] * SEATS
        self.signals: list[tuple[int, int, str]] = []  # trick, seat, signal
        self.termination: Termination | None = None
        self._outcome: Outcome | None = None

    # --- whose turn ---------------------------------------------------------------------
    def _quindici_order(self) -> list[int]:
        assert self.venti is not None
        return [(self.venti + 1 + i) % SEATS for i in range(SEATS - 1)]

    # tarocco.solo.order: solo or passo is said in turn from the dealer's right (a word out of
    # turn is tarocco.turn.order); the first solo ends the round (_apply_declare).
    def _solo_order(self) -> list[int]:
        return self.order if self.ruleset.dealer_may_solo else self.order[:3]

    def to_act(self) -> int | None:
        p = self.phase
        if p is _PLAY:
            return (self.leader + len(self.trick)) % SEATS
        if p is _BARGAIN:
            spoken = self.spoken
            for s in self.order:
                if spoken[s] is None:
                    return s
            raise AssertionError("the bargaining is over once every seat has spoken")
        if p is Phase.SOLO:
            return self._solo_order()[self.cursor]
        if p is Phase.DISCARD:
            return self.monte_taker
        if p is Phase.VENTI:
            # tarocco.venti.order: venti or zero in turn from the dealer's right; the first venti
            # ends the round (_apply_venti).
            return self.order[self.cursor]
        if p is Phase.QUINDICI:
            return self._quindici_order()[self.cursor]
        if p is Phase.CALL:
            return self.venti
        return None

    def _may_speak(self, seat: int) -> bool:
        if self.phase is Phase.BARGAIN:
            return 0 <= seat < SEATS and self.spoken[seat] is None
        return seat == self.to_act()

    # --- legal actions ------------------------------------------------------------------
    def legal_actions(self, seat: int) -> Sequence[Action]:
        """The legal actions, in a fixed order; a discard's are a lazy ``DiscardChoices``."""
        p = self.phase
        if p is _PLAY:
            trick = self.trick
            if seat != (self.leader + len(trick)) % SEATS:
                return []
            if trick:
                first = trick[0][1]
                rs = self.ruleset
                if (
                    first != C.FUGGITIVO
                    and not rs.must_overtrump
                    and rs.fuggitivo_last_trick != "forbidden"
                ):
                    # The usual answer to a lead, written out (playable_cards says the same):
                    # tarocco.play.follow_suit, else tarocco.play.trump_when_void, else any
                    # card; the Fool may always be played.
                    hand = self.hands[seat]
                    suit_of = C.SUIT
                    led = suit_of[first]
                    plays = [PLAYS[c] for c in hand if suit_of[c] == led]
                    if not plays and led != C.TRUMP:
                        plays = [PLAYS[c] for c in hand if suit_of[c] == C.TRUMP]
                    if not plays:
                        return [PLAYS[c] for c in hand]
                    if C.FUGGITIVO in hand:
                        plays.append(PLAYS[C.FUGGITIVO])
                    return plays
            return self.legal_plays(seat)
        if p is _BARGAIN:
            if not 0 <= seat < SEATS or self.spoken[seat] is not None:
                return []
            out: list[Any] = list(_bid_base(self.ruleset.max_offer))
            offers = self.offers
            if offers:
                taken = self.taken
                out += [PIGLIO[o] for o in sorted(offers) if o not in taken]
            return out
        if p is _OVER or seat != self.to_act():
            return []
        if p is _SOLO:
            return list(_SOLO_WORDS)
        if p is _DISCARD:
            return DiscardChoices(self.discardable(seat))
        if p is _VENTI:
            return list(_VENTI_WORDS) if self.can_say_venti(seat) else list(_ZERO_ONLY)
        if p is _QUINDICI:
            if C.honours(self.hands[seat]) == 15:
                return list(_QUINDICI_WORDS)
            return list(_PASSO_ONLY)
        return [Call(c) for c in self.required_calls()]

    def can_say_venti(self, seat: int) -> bool:
        return C.honours(self.hands[seat]) >= 20

    def required_calls(self) -> list[int]:
        assert self.venti is not None
        rs = self.ruleset
        own = self.discard if self.monte_taker == self.venti else []
        return required_calls(
            self.hands[self.venti],
            own,
            void_counts_as_shortest=rs.void_suit_callable,
            oro_breaks_ties=rs.oro_breaks_ties,
            skip_bare_king=rs.queen_skips_bare_king,
        )

    def forbidden_in_discard(self, card: int) -> bool:
        limit = self.ruleset.discard_forbidden
        if limit == "none":
            return False
        if card in C.KINGS:
            return True
        if limit == "kings_trumps":
            return C.IS_TRUMP[card] or card == C.FUGGITIVO
        if limit == "counting":
            return C.COUNTING[card]
        return False

    def discardable(self, seat: int) -> list[int]:
        hand = sorted(self.hands[seat])
        allowed = [c for c in hand if not self.forbidden_in_discard(c)]
        return allowed if len(allowed) >= 3 else hand

    def led_suit(self) -> int | None:
        for _, card in self.trick:
            if card != C.FUGGITIVO:
                return C.SUIT[card]
        return None

    def playable_cards(self, seat: int) -> list[int]:
        """The cards this seat may play to the current trick (signals aside)."""
        hand = self.hands[seat]
        rs = self.ruleset
        if rs.fuggitivo_last_trick == "forbidden" and self._fool_due(seat):
            return [C.FUGGITIVO]
        trick = self.trick
        if not trick:
            cards = list(hand)
            if not rs.fuggitivo_may_lead and len(cards) > 1 and C.FUGGITIVO in cards:
                cards.remove(C.FUGGITIVO)
            if self.called is not None and self._must_lead_called_suit(seat):
                suit = C.SUIT[self.called]
                cards = [c for c in cards if C.SUIT[c] == suit]
            return cards
        first = trick[0][1]
        led = C.SUIT[first] if first != C.FUGGITIVO else self.led_suit()
        if led is None:  # only the Fool so far: the next card is free
            return list(hand)
        suit_of = C.SUIT
        same = [c for c in hand if suit_of[c] == led]
        if not same and led != C.TRUMP:
            same = [c for c in hand if suit_of[c] == C.TRUMP]
        if not same:
            return list(hand)
        if rs.must_overtrump and C.IS_TRUMP[same[0]]:
            top = self._top_trump()
            if top is not None:
                higher = [c for c in same if C.RANK[c] > top]
                same = higher or same
        if C.FUGGITIVO in hand:
            same.append(C.FUGGITIVO)
        return same

    def _top_trump(self) -> int | None:
        ranks = [C.RANK[c] for _, c in self.trick if C.IS_TRUMP[c]]
        return max(ranks) if ranks else None

    def _must_lead_called_suit(self, seat: int) -> bool:
        if not self.ruleset.called_leads_suit or self.called is None:
            return False
        if seat != self.partner or self.led_once[seat]:
            return False
        suit = C.SUIT[self.called]
        return any(C.SUIT[c] == suit for c in self.hands[seat])

    def allowed_signals(self, seat: int) -> list[str | None]:
        hand = self.hands[seat]
        giove, palla = C.GIOVE in hand, C.PALLA in hand
        out: list[str | None] = [None]
        if giove or palla:
            out.append("knock")
        if giove:
            out.append("giove")
        if palla:
            out.append("palla")
        if giove and palla and self.ruleset.signal_both_together:
            out.append("both")
        return out

    def legal_plays(self, seat: int) -> list[Play]:
        cards = self.playable_cards(seat)
        if self.trick:
            return [PLAYS[c] for c in cards]
        hand = self.hands[seat]
        giove, palla = C.GIOVE in hand, C.PALLA in hand
        if not (giove or palla):
            return [PLAYS[c] for c in cards]
        # the same signals as allowed_signals, each lead with every one of them
        kind = 4 if giove and palla and self.ruleset.signal_both_together else giove + 2 * palla
        leads = LEADS[kind]
        return [p for c in cards for p in leads[c]]

    # --- checking -----------------------------------------------------------------------
    def check(self, seat: int, action: Any) -> list[Violation]:
        if self.phase is Phase.OVER:
            return [rule_broken(BOOK, "tarocco.record.game_over", seat=seat)]
        if (
            isinstance(action, Declare)
            and action.solo
            and seat == self.dealer
            and not self.ruleset.dealer_may_solo
        ):
            return [rule_broken(BOOK, "tarocco.solo.dealer", seat=seat)]
        want = PHASE_OF.get(type(action))
        if want != self.phase:
            return [
                rule_broken(
                    BOOK,
                    "tarocco.turn.phase",
                    f"Ora è la fase {PHASE_WORDS[self.phase][0]}.",
                    f"Now is the {PHASE_WORDS[self.phase][1]} phase.",
                    seat=seat,
                )
            ]
        if not self._may_speak(seat):
            if self.phase is Phase.BARGAIN:
                return [
                    rule_broken(
                        BOOK,
                        "tarocco.bargain.once",
                        f"Il posto {seat + 1} ha già parlato.",
                        f"Seat {seat + 1} has already spoken.",
                        seat=seat,
                    )
                ]
            due = self.to_act()
            return [
                rule_broken(
                    BOOK,
                    "tarocco.turn.order",
                    f"Tocca al posto {seat_no(due)}, non al posto {seat_no(seat)}.",
                    f"Seat {seat_no(due)} is to act, not seat {seat_no(seat)}.",
                    seat=seat,
                    **self._where(),
                )
            ]
        if isinstance(action, Bid):
            return self._check_bid(seat, action)
        if isinstance(action, Declare):
            return []
        if isinstance(action, Discard):
            return self._check_discard(seat, action)
        if isinstance(action, Venti):
            if action.yes and not self.can_say_venti(seat):
                h = C.honours(self.hands[seat])
                return [
                    rule_broken(
                        BOOK,
                        "tarocco.venti.false",
                        f"Il posto {seat + 1} ha {h} in decine e cinquine.",
                        f"Seat {seat + 1} holds {h} in tens and fives.",
                        seat=seat,
                    )
                ]
            return []
        if isinstance(action, Quindici):
            h = C.honours(self.hands[seat])
            if action.yes and h != 15:
                return [
                    rule_broken(
                        BOOK,
                        "tarocco.quindici.false",
                        f"Il posto {seat + 1} ha {h} in decine e cinquine.",
                        f"Seat {seat + 1} holds {h} in tens and fives.",
                        seat=seat,
                    )
                ]
            return []
        if isinstance(action, Call):
            return self._check_call(seat, action)
        assert isinstance(action, Play)
        return self._check_play(seat, action)

    def _where(self) -> dict[str, JSON]:
        if self.phase is Phase.PLAY:
            return {"trick": len(self.tricks) + 1}
        return {"phase": self.phase.value}

    def _check_bid(self, seat: int, bid: Bid) -> list[Violation]:
        if bid.kind not in BIDS:
            return [
                rule_broken(
                    BOOK,
                    "tarocco.bargain.once",
                    f"Parola ignota: «{bid.kind}».",
                    f"Unknown word: “{bid.kind}”.",
                )
            ]
        if bid.kind == "offro" and not 1 <= bid.points <= self.ruleset.max_offer:
            return [
                rule_broken(
                    BOOK,
                    "tarocco.bargain.offer_range",
                    f"Offerti {bid.points}; ammessi 1..{self.ruleset.max_offer}.",
                    f"Offered {bid.points}; allowed 1..{self.ruleset.max_offer}.",
                    seat=seat,
                )
            ]
        if bid.kind == "piglio" and (bid.of not in self.offers or bid.of in self.taken):
            return [
                rule_broken(
                    BOOK,
                    "tarocco.bargain.piglio",
                    f"Il posto {bid.of + 1} non ha un'offerta aperta.",
                    f"Seat {bid.of + 1} has no offer standing.",
                    seat=seat,
                )
            ]
        return []

    def _check_discard(self, seat: int, action: Discard) -> list[Violation]:
        cards = action.cards
        hand = self.hands[seat]
        if len(cards) != 3 or len(set(cards)) != 3:
            return [
                rule_broken(
                    BOOK,
                    "tarocco.monte.discard",
                    f"Scartate {len(cards)} carte.",
                    f"Discarded {len(cards)} cards.",
                    seat=seat,
                )
            ]
        missing = [c for c in cards if c not in hand]
        if missing:
            names = _cards(missing)
            return [
                rule_broken(
                    BOOK,
                    "tarocco.monte.discard",
                    f"Non in mano: {names.it}.",
                    f"Not in hand: {names.en}.",
                    seat=seat,
                )
            ]
        allowed = set(self.discardable(seat))
        bad = [c for c in cards if c not in allowed]
        if bad:
            names = _cards(bad)
            return [
                rule_broken(
                    BOOK,
                    "tarocco.monte.discard_forbidden",
                    f"Vietate qui: {names.it}.",
                    f"Forbidden here: {names.en}.",
                    seat=seat,
                )
            ]
        return []

    def _check_call(self, seat: int, action: Call) -> list[Violation]:
        rs = self.ruleset
        own = self.discard if self.monte_taker == seat else []
        fault = call_fault(
            self.hands[seat],
            own,
            action.card,
            void_counts_as_shortest=rs.void_suit_callable,
            oro_breaks_ties=rs.oro_breaks_ties,
            skip_bare_king=rs.queen_skips_bare_king,
        )
        if fault is None:
            return []
        rule, allowed = fault
        names = _cards(allowed)
        called = _cards([action.card])
        return [
            rule_broken(
                BOOK,
                rule,
                f"Chiamato {called.it}; le regole ammettono {names.it}.",
                f"Called {called.en}; the rules allow {names.en}.",
                seat=seat,
            )
        ]

    def _check_play(self, seat: int, action: Play) -> list[Violation]:
        where = self._where()
        card = action.card
        hand = self.hands[seat]
        found: list[Violation] = []
        if card not in hand:
            return [
                rule_broken(
                    BOOK,
                    "tarocco.play.not_held",
                    f"Il posto {seat + 1} non ha {words.card(C.CODES[card], 'it')}.",
                    f"Seat {seat + 1} does not hold {words.card(C.CODES[card], 'en')}.",
                    seat=seat,
                    **where,
                )
            ]
        if card not in self.playable_cards(seat):
            found.append(self._play_fault(seat, card, where))
        if action.signal is not None:
            found += self._check_signal(seat, action.signal, where)
        return found

    def _fool_due(self, seat: int) -> bool:
        """``forbidden``: the Fool may not be kept for the last trick, so it goes now."""
        return (
            self.ruleset.fuggitivo_last_trick == "forbidden"
            and len(self.tricks) == TRICKS - 2
            and C.FUGGITIVO in self.hands[seat]
        )

    def _play_fault(self, seat: int, card: int, where: dict[str, JSON]) -> Violation:
        hand = self.hands[seat]
        name = C.CODES[card]
        if self._fool_due(seat):
            return rule_broken(
                BOOK,
                "tarocco.play.fuggitivo_last_trick",
                f"Giocato {name} tenendo il Fuggitivo per l'ultima presa.",
                f"Played {name} keeping the Fool for the last trick.",
                seat=seat,
                **where,
            )
        if not self.trick:
            if card == C.FUGGITIVO and not self.ruleset.fuggitivo_may_lead:
                return rule_broken(
                    BOOK,
                    "tarocco.play.fuggitivo_lead",
                    "Il Fuggitivo è uscito di mano.",
                    "The Fool was led.",
                    seat=seat,
                    **where,
                )
            assert self.called is not None
            suit = C.SUITS[C.SUIT[self.called]]
            return rule_broken(
                BOOK,
                "tarocco.play.called_suit_lead",
                f"Prima uscita {name}, ma il posto {seat + 1} ha il seme chiamato {suit}.",
                f"First lead {name}, but seat {seat + 1} holds the called suit {suit}.",
                seat=seat,
                **where,
            )
        led = self.led_suit()
        assert led is not None
        if any(C.SUIT[c] == led for c in hand) and C.SUIT[card] != led:
            rule = "tarocco.play.answer_trump" if led == C.TRUMP else "tarocco.play.follow_suit"
            # The facts that make it a fault: the card played and the cards of the suit led
            # still in the hand, by their names.
            held = [C.CODES[c] for c in sorted(hand, key=C.sort_key) if C.SUIT[c] == led]
            return rule_broken(
                BOOK,
                rule,
                f"Ha giocato {words.card(name, 'it')} avendo ancora "
                f"{join([words.card(h, 'it') for h in held], 'it')}: doveva rispondere "
                f"a {_suit_words(led, 'it')}.",
                f"Played {words.card(name, 'en')} while still holding "
                f"{join([words.card(h, 'en') for h in held], 'en')}: the suit led "
                f"({_suit_words(led, 'en')}) had to be followed.",
                seat=seat,
                **where,
            )
        if not C.IS_TRUMP[card] and any(C.IS_TRUMP[c] for c in hand):
            return rule_broken(
                BOOK,
                "tarocco.play.trump_when_void",
                f"Giocato {name} senza il seme di uscita e con trionfi in mano.",
                f"Played {name} while void in the suit led and holding trumps.",
                seat=seat,
                **where,
            )
        return rule_broken(
            BOOK,
            "tarocco.play.overtrump",
            f"Giocato {name} avendo un trionfo più alto.",
            f"Played {name} while holding a higher trump.",
            seat=seat,
            **where,
        )

    def _check_signal(self, seat: int, signal: str, where: dict[str, JSON]) -> list[Violation]:
        if self.trick:
            return [
                rule_broken(
                    BOOK,
                    "tarocco.signal.leading_only",
                    f"Segnale ({_signal(signal).it}) senza essere primo di mano.",
                    f"Signal ({_signal(signal).en}) when not leading.",
                    seat=seat,
                    **where,
                )
            ]
        if signal not in SIGNALS:
            return [
                rule_broken(
                    BOOK,
                    "tarocco.signal.false",
                    f"Segnale sconosciuto: «{signal}».",
                    f"Unknown signal: “{signal}”.",
                    seat=seat,
                    **where,
                )
            ]
        if signal == "both" and not self.ruleset.signal_both_together:
            return [rule_broken(BOOK, "tarocco.signal.together", seat=seat, **where)]
        if signal not in self.allowed_signals(seat):
            return [
                rule_broken(
                    BOOK,
                    "tarocco.signal.false",
                    f"Segnale ({_signal(signal).it}) senza la carta.",
                    f"Signal ({_signal(signal).en}) without the card.",
                    seat=seat,
                    **where,
                )
            ]
        return []

    # --- applying -----------------------------------------------------------------------
    def apply_unchecked(self, seat: int, action: Any) -> None:
        trick = self.trick
        if (
            type(action) is Play
            and self.phase is _PLAY
            and seat == (self.leader + len(trick)) % SEATS
        ):
            # a card to the trick: the usual action, and the only way a Play is applied
            self.actions.append((seat, action))
            card = action.card
            try:
                self.hands[seat].remove(card)
            except ValueError:
                raise RecordError(f"seat {seat} does not hold {C.CODES[card]}") from None
            if not trick:
                self.led_once[seat] = True
                if action.signal is not None:
                    self.signals.append((len(self.tricks) + 1, seat, action.signal))
            trick.append((seat, card))
            if card == self.called:
                self.partner_known = True
            if len(trick) == SEATS:
                self._close_trick()
            return
        if (
            type(action) is Bid
            and self.phase is _BARGAIN
            and 0 <= seat < SEATS
            and self.spoken[seat] is None
        ):
            self.actions.append((seat, action))
            self._apply_bid(seat, action)
            return
        want = PHASE_OF.get(type(action))
        if self.phase is Phase.OVER:
            raise RecordError("the hand is over")
        if want != self.phase:
            raise RecordError(f"a {want} action cannot happen in the {self.phase.value} phase")
        if not self._may_speak(seat):
            raise RecordError(f"seat {seat} cannot act now (seat {self.to_act()} is due)")
        self.actions.append((seat, action))
        if isinstance(action, Bid):
            self._apply_bid(seat, action)
        elif isinstance(action, Declare):
            self._apply_declare(seat, action)
        elif isinstance(action, Discard):
            self._apply_discard(seat, action)
        elif isinstance(action, Venti):
            self._apply_venti(seat, action)
        elif isinstance(action, Quindici):
            self._apply_quindici(seat, action)
        elif isinstance(action, Call):
            self._apply_call(seat, action)
        else:  # a Play in turn was applied above; the checks above leave nothing else
            raise AssertionError(f"no way to apply {action!r}")

    def _apply_bid(self, seat: int, bid: Bid) -> None:
        self.spoken[seat] = bid
        if bid.kind == "offro":
            self.offers[seat] = bid.points
        elif bid.kind == "piglio" and bid.of in self.offers and bid.of not in self.taken:
            self.taken[bid.of] = seat
        # tarocco.bargain.tengo: one tengo means the hand is played: the last cards are dealt once
        # the round is over (or at once under tengo_closes).
        elif bid.kind == "tengo" and self.tengo is None:
            self.tengo = seat
        if self.tengo is None or not self.ruleset.tengo_closes:
            for word in self.spoken:
                if word is None:
                    return  # someone has still to speak
        if self.tengo is not None:
            self._second_deal()
        elif self.taken:
            self._finish(Termination.OFFER)
        else:
            self._finish(Termination.ABANDONED)

    def _second_deal(self) -> None:
        for i, seat in enumerate(self.order):
            # tarocco.deal.order: the third packet of five, in the same order as the first two.
            self.hands[seat].extend(self.deck[40 + i * 5 : 45 + i * 5])
        self.phase = Phase.SOLO
        self.cursor = 0

    def _apply_declare(self, seat: int, action: Declare) -> None:
        if action.solo:
            self.soloist = seat
            # tarocco.monte.show: (V3) a soloist other than the dealer shows the monte before taking
            # it; without a soloist the dealer takes it unseen (view() shows a shown monte to all).
            self._take_monte(seat, shown=self.ruleset.soloist_shows_monte and seat != self.dealer)
            return
        self.cursor += 1
        if self.cursor >= len(self._solo_order()):
            self._take_monte(self.dealer, shown=False)

    def _take_monte(self, seat: int, *, shown: bool) -> None:
        self.monte_taker = seat
        self.monte_shown = shown
        self.hands[seat].extend(self.monte)
        self.phase = Phase.DISCARD

    def _apply_discard(self, seat: int, action: Discard) -> None:
        hand = self.hands[seat]
        if len(set(action.cards)) != len(action.cards) or any(c not in hand for c in action.cards):
            raise RecordError(f"seat {seat} cannot discard {C.codes(action.cards)}")
        for c in action.cards:
            hand.remove(c)
        self.discard = list(action.cards)
        if self.soloist is not None:
            # tarocco.play.first_lead: (V8) the seat at the declarer's right leads first (the
            # soloist himself under soloist_leads); after venti it is the seat right of the venti
            # player.
            lead = self.soloist if self.ruleset.soloist_leads else (self.soloist + 1) % SEATS
            self._start_play(lead)
        else:
            self.phase = Phase.VENTI
            self.cursor = 0

    def _apply_venti(self, seat: int, action: Venti) -> None:
        if action.yes:
            self.venti = seat
            self.phase = Phase.QUINDICI
            self.cursor = 0
            return
        self.venti_said.append(seat)
        self.cursor += 1
        if self.cursor >= SEATS:
            # tarocco.venti.all_zero: four zeros abandon the hand; next_dealer applies V2.
            self._finish(Termination.ALL_ZERO)

    def _apply_quindici(self, seat: int, action: Quindici) -> None:
        assert self.venti is not None
        if action.yes:
            # tarocco.quindici.partner: the first quindici, answered in order after venti, is the
            # open partner and play starts.
            self.quindici = seat
            self.partner = seat
            self.partner_open = self.partner_known = True
            self._start_play((self.venti + 1) % SEATS)
            return
        self.cursor += 1
        if self.cursor >= SEATS - 1:
            self.phase = Phase.CALL

    def _apply_call(self, seat: int, action: Call) -> None:
        assert self.venti is not None
        self.called = action.card
        holder = next((s for s in range(SEATS) if action.card in self.hands[s]), None)
        if holder == seat:
            holder = None
        if holder is None and action.card in self.discard and self.monte_taker != seat:
            # tarocco.call.in_discard: (V7) the called card lies in the dealer's discard: the dealer
            # is the partner, and says so when the ruleset's discard_call_declared holds.
            # V7: the dealer discarded the called card: he is the partner
            holder = self.monte_taker
            if self.ruleset.discard_call_declared:
                self.partner_open = self.partner_known = True
        self.partner = holder
        self._start_play((self.venti + 1) % SEATS)

    def _start_play(self, leader: int) -> None:
        self.phase = Phase.PLAY
        self.leader = leader
        self.trick = []

    # tarocco.play.trick_winner: the highest trump takes the trick, or else the highest card of
    # the suit led; the Fool never takes it.
    def trick_winner(self, trick: Sequence[tuple[int, int]]) -> int:
        # a trump is worth 100 and its rank, a card of the suit led its rank, any other card
        # (and the Fool) nothing: the first card worth most takes the trick
        suit_of, rank = C.SUIT, C.RANK
        best_seat, best, led = -1, -1, -1
        for seat, card in trick:
            if card == C.FUGGITIVO:
                continue
            suit = suit_of[card]
            if led < 0:
                led = suit
            if suit == C.TRUMP:
                worth = 100 + rank[card]
            elif suit == led:
                worth = rank[card]
            else:
                continue
            if worth > best:
                best_seat, best = seat, worth
        return best_seat

    def _close_trick(self) -> None:
        trick = self.trick
        winner = self.trick_winner(trick)
        last = len(self.tricks) == TRICKS - 1
        won = self.won
        pile = won[winner]
        for seat, card in trick:
            # tarocco.play.fuggitivo_excuse: the Fool stays with whoever played it, who owes the
            # winner a worthless card in exchange (fool_owed, paid in piles()); playable_cards lets
            # it replace the card due.
            if card == C.FUGGITIVO and seat != winner:
                if last and self.ruleset.fuggitivo_last_trick == "lost":
                    pile.append(card)
                else:
                    won[seat].append(card)
                    if self.ruleset.fuggitivo_exchange:
                        self.fool_owed.append((seat, winner))
            else:
                pile.append(card)
        self.tricks.append((self.leader, trick, winner))
        self.trick = []
        self.leader = winner
        if last:
            self._finish(Termination.SOLO if self.soloist is not None else Termination.PAIRS)

    # --- the end ------------------------------------------------------------------------
    def sides(self) -> tuple[list[int], list[int]]:
        """The declarer's side (soloist, or venti player and partner) and the other side."""
        if self.soloist is not None:
            first = [self.soloist]
        else:
            assert self.venti is not None
            first = [self.venti] if self.partner is None else sorted([self.venti, self.partner])
        return first, [s for s in range(SEATS) if s not in first]

    def piles(self) -> tuple[list[int], list[int]]:
        """The cards each side counts: tricks, the monte to its taker, the Fool exchanged."""
        a, _ = self.sides()
        side = [0 if s in a else 1 for s in range(SEATS)]
        piles: tuple[list[int], list[int]] = ([], [])
        for s in range(SEATS):
            piles[side[s]].extend(self.won[s])
        assert self.monte_taker is not None
        # tarocco.monte.owner: the discard counts for the side of whoever took the monte.
        piles[side[self.monte_taker]].extend(self.discard)
        for owner, winner in self.fool_owed:
            give, get = piles[side[owner]], piles[side[winner]]
            if give is get:
                continue
            scartine = [c for c in give if not C.COUNTING[c]]
            if scartine:  # with nothing worthless to give, nothing is given
                card = min(scartine)
                give.remove(card)
                get.append(card)
        return piles

    def card_points(self) -> tuple[int, int]:
        a, _ = self.sides()
        piles = self.piles()
        points = [C.count(piles[0]), C.count(piles[1])]
        last_winner = self.tricks[-1][2]
        points[0 if last_winner in a else 1] += C.LAST_TRICK_BONUS
        return points[0], points[1]

    def next_dealer(self) -> int:
        played = self.termination in (Termination.SOLO, Termination.PAIRS)
        if not played and self.ruleset.abandon_same_dealer:
            return self.dealer
        return (self.dealer + 1) % SEATS

    def summary(self) -> dict[str, JSON]:
        """What a scorekeeper writes for this hand (docs/notation/tarocco.md)."""
        t = self.termination
        out: dict[str, JSON] = {"outcome": "abandoned", "dealer": self.dealer}
        if t == Termination.ALL_ZERO:
            out["outcome"] = "all_zero"
        if t == Termination.OFFER:
            pairs = sorted(self.taken.items())
            o, k = pairs[0]
            out.update(outcome="offer", offerer=o, taker=k, points=self.offers[o])
            if len(pairs) > 1:
                out["offers"] = [
                    {"offerer": o, "taker": k, "points": self.offers[o]} for o, k in pairs
                ]
        elif t in (Termination.SOLO, Termination.PAIRS):
            first, _ = self.sides()
            points = self.card_points()[0]
            if len(first) == 1:
                out.update(outcome="solo", declarer=first[0], card_points=points)
            else:
                out.update(outcome="pairs", pair=first, card_points=points)
        return out

    def _finish(self, how: Termination) -> None:
        # the Outcome is worked out when first asked for (outcome()): a finished hand no
        # longer changes, and a playout that only reads is_over() never needs it
        self.phase = Phase.OVER
        self.termination = how

    def _work_out_outcome(self) -> Outcome:
        from games.tarocco.scoring import hand_outcome, score_hand

        how = self.termination
        assert how is not None
        summary = self.summary()
        scores = score_hand(summary)
        detail: dict[str, JSON] = {
            "summary": summary,
            "next_dealer": self.next_dealer(),
        }
        if how in (Termination.SOLO, Termination.PAIRS):
            first, second = self.sides()
            pa, pb = self.card_points()
            detail.update(
                sides=[first, second],
                card_points=[pa, pb],
                tricks_won=[sum(1 for t in self.tricks if t[2] == s) for s in range(SEATS)],
                called=C.CODES[self.called] if self.called is not None else None,
                partner=self.partner,
            )
        return hand_outcome(scores, how.value, detail)

    def is_over(self) -> bool:
        return self.phase is _OVER

    def outcome(self) -> Outcome:
        if self._outcome is None:
            if self.phase is not _OVER:
                raise ValueError("the hand is not over")
            self._outcome = self._work_out_outcome()
        return self._outcome

    # --- views and records --------------------------------------------------------------
    def cards_in_play(self) -> list[int]:
        """Every card once: hands, the monte (or discard), the trick and the tricks won."""
        out = [c for h in self.hands for c in h]
        if self.phase is Phase.BARGAIN or (self.is_over() and self.monte_taker is None):
            out += self.deck[40:]
        elif self.monte_taker is None:
            out += self.monte
        else:
            out += self.discard
        out += [c for _, c in self.trick]
        out += [c for w in self.won for c in w]
        return out

    def view(self, seat: int | None) -> dict[str, JSON]:
        rs = self.ruleset
        out: dict[str, JSON] = {
            "game": SLUG,
            "ruleset": rs.name,
            "dealer": self.dealer,
            "phase": self.phase.value,
            "to_act": self.to_act(),
            "hand_sizes": [len(h) for h in self.hands],
            "bids": [{"seat": s, **encode(a)} for s, a in self.actions if isinstance(a, Bid)],
            "unspoken": [s for s in self.order if self.spoken[s] is None]
            if self.phase is Phase.BARGAIN
            else [],
            "soloist": self.soloist,
            "monte_taker": self.monte_taker,
            "venti": self.venti,
            "quindici": self.quindici,
            "called": C.CODES[self.called] if self.called is not None else None,
            "partner": self.partner if self.partner_known else None,
            "tricks": [
                {"leader": lead, "cards": C.codes(c for _, c in cards), "winner": w}
                for lead, cards, w in self.tricks
            ],
            "trick": [{"seat": s, "card": C.CODES[c]} for s, c in self.trick],
            "signals": [{"trick": t, "seat": s, "signal": g} for t, s, g in self.signals],
        }
        if self.monte_shown:
            out["monte"] = C.codes(self.monte)
        if seat is not None and 0 <= seat < SEATS:
            out["seat"] = seat
            out["hand"] = C.codes(sorted(self.hands[seat], key=C.sort_key))
            if seat == self.dealer and rs.dealer_sees_bottom:
                # tarocco.deal.bottom_card: (V1) the dealer alone sees the pack's last card, unless
                # the ruleset's dealer_sees_bottom is off.
                out["bottom_card"] = C.CODES[self.deck[-1]]
            if seat == self.monte_taker and self.phase is not Phase.DISCARD:
                out["discard"] = C.codes(self.discard)
            if seat == self.partner:
                out["partner"] = seat
        if self.is_over():
            out["result"] = self.outcome().to_json()
        return out

    def to_record(self) -> dict[str, JSON]:
        return {
            "game": SLUG,
            "version": NOTATION_VERSION,
            "ruleset": self.ruleset.to_json(),
            "deal": {"dealer": self.dealer, "deck": C.codes(self.deck)},
            "actions": [{"seat": s, **encode(a)} for s, a in self.actions],
        }


def _cards(cards: Sequence[int]) -> Text:
    """Cards named as players say them, never by their codes."""
    codes = C.codes(cards)
    return Text(
        join([words.card(c, "it") for c in codes], "it"),
        join([words.card(c, "en") for c in codes], "en"),
    )


def _signal(signal: str) -> Text:
    """A signal as players say it ("bussa", "segnala Giove"), an unknown one as written."""
    it, en = words.SIGNALS.get(signal, (signal, signal))
    return Text(it, en)
