"""A heuristic player: bargains and declares from hand strength, plays the usual tarocco.

It reads only what its seat may know: its own hand, the words said, the shown monte and the
tricks played (and, as partner of a call, that it holds the called card).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any

from games.core import rng
from games.core.hints import Reason
from games.core.search import DEFAULT_BUDGET, DEFAULT_PLAYOUTS, SearchBot, deal_hidden
from games.tarocco import cards as C
from games.tarocco.state import (
    SEATS,
    Bid,
    Call,
    Declare,
    Discard,
    Phase,
    Play,
    Quindici,
    TaroccoState,
    Venti,
)


def strength(hand: list[int]) -> float:
    """Rough worth of a hand: trumps (high ones more), Kings, the Fool."""
    s = 0.0
    for c in hand:
        if C.IS_TRUMP[c]:
            s += 1.0 + C.RANK[c] / 10.0
        elif c == C.FUGGITIVO or C.RANK[c] == C.RE:
            s += 1.5
        elif C.RANK[c] == C.REGINA:
            s += 0.5
    return s


class HeuristicBot:
    def __init__(self, seed: int) -> None:
        self._rng = rng(seed, "tarocco-heuristic")

    def choose(self, state: Any, seat: int) -> Any:
        assert isinstance(state, TaroccoState)
        if state.phase is Phase.DISCARD and state.to_act() == seat:
            return self._discard(state, seat)  # skip listing the 816 possible discards
        actions = state.legal_actions(seat)
        if not actions:
            raise RuntimeError(f"seat {seat} has no legal action")
        if len(actions) == 1:
            return actions[0]
        hand = state.hands[seat]
        p = state.phase
        if p == Phase.BARGAIN:
            return self._bid(state, hand, actions)
        if p == Phase.SOLO:
            return Declare(strength(hand) >= 19.0)
        if p == Phase.DISCARD:
            return self._discard(state, seat)
        if p == Phase.VENTI:
            return Venti(True) if Venti(True) in actions else Venti(False)
        if p == Phase.QUINDICI:
            return Quindici(True) if Quindici(True) in actions else Quindici(False)
        if p == Phase.CALL:
            calls = [a for a in actions if isinstance(a, Call)]
            return calls[self._rng.randrange(len(calls))]
        return self._play(state, seat, actions)

    def why(self, state: Any, seat: int, action: Any) -> Reason | None:
        """The reason for ``action`` (this bot's choice) in words, for a player's hint."""
        assert isinstance(state, TaroccoState)
        if isinstance(action, Discard):
            return Reason(
                "Scarti prima i semi corti, per restarne senza, e le carte basse; trionfi e Re "
                "si tengono.",
                "Short suits go first, to be void in them, and low cards; trumps and Kings are "
                "kept.",
                "tarocco.monte.discard",
            )
        if isinstance(action, Bid):
            s = strength(state.hands[seat])
            return Reason(
                f"La forza della tua mano vale circa {s:.0f} (trionfi alti e Re contano di più): "
                "con 10 o più si tiene, sotto 5 si offre.",
                f"Your hand's strength is about {s:.0f} (high trumps and Kings count most): "
                "with 10 or more you keep, under 5 you offer.",
                "tarocco.bargain.tengo",
            )
        if not isinstance(action, Play) or state.phase is not Phase.PLAY:
            return None
        if not state.trick:
            if C.SUIT[action.card] < 4 and C.RANK[action.card] == C.RE:
                return Reason(
                    "Apri con un Re: vince la presa se nessuno taglia.",
                    "Lead a King: it wins the trick unless someone trumps it.",
                    "tarocco.play.trick_winner",
                )
            return Reason(
                "Apri con una carta di poco valore: lasci agli altri scoprire il gioco.",
                "Lead a card worth little: the others show their hand first.",
                "tarocco.count.threes",
            )
        friends = self._friends(state, seat)
        winner = state.trick_winner(state.trick)
        if winner in friends and winner != seat:
            return Reason(
                "La presa è già della tua parte: dalle punti.",
                "Your side already holds the trick: give it points.",
                "tarocco.count.threes",
            )
        if self._beats(state, action.card):
            return Reason(
                "Prendi la presa con la carta più bassa che la vince.",
                "Win the trick with the lowest card that beats it.",
                "tarocco.play.trick_winner",
            )
        return Reason(
            "Non puoi vincere la presa: dai la carta che vale meno.",
            "You cannot win the trick: give away the card worth least.",
            "tarocco.play.trick_winner",
        )

    # --- bargaining and monte ---------------------------------------------------------------
    def _bid(self, state: TaroccoState, hand: list[int], actions: Sequence[Any]) -> Any:
        s = strength(hand)
        piglio = [a for a in actions if isinstance(a, Bid) and a.kind == "piglio"]
        if s >= 10.0:
            return Bid("tengo")
        if piglio and s >= 8.0:
            return max(piglio, key=lambda a: state.offers[a.of])
        if s < 5.0 and not state.offers:
            return Bid("offro", max(1, min(state.ruleset.max_offer, int(8 - s))))
        return Bid("vado")

    def _discard(self, state: TaroccoState, seat: int) -> Discard:
        return Discard(tuple(sorted(self.discard_order(state, seat)[:3])))

    def discard_order(self, state: TaroccoState, seat: int) -> list[int]:
        """The cards this bot may discard, the likeliest discard first."""
        hand = state.hands[seat]
        allowed = state.discardable(seat)
        length = [0] * 6
        for c in hand:
            length[C.SUIT[c]] += 1

        def keep(c: int) -> float:
            if C.IS_TRUMP[c] or c == C.FUGGITIVO:
                return 100.0 + C.RANK[c]
            if C.RANK[c] == C.RE:
                return 80.0
            # short suits first (to void them), low cards first; counting cards go to the
            # monte safely, so a lone Queen is a fine discard
            return length[C.SUIT[c]] * 3.0 + C.RANK[c] / 2.0 - C.VALUE[c]

        return sorted(allowed, key=keep)

    # --- play -------------------------------------------------------------------------------
    def _friends(self, state: TaroccoState, seat: int) -> set[int]:
        """The seats this seat knows to be on its side (itself at least)."""
        if state.soloist is not None:
            if seat == state.soloist:
                return {seat}
            return {s for s in range(4) if s != state.soloist}
        venti, partner = state.venti, state.partner
        if venti is None or partner is None:
            return {seat}
        side = {venti, partner}
        if state.partner_known or seat == partner:
            # the partner knows from his hand; everyone knows once the card is out
            return side if seat in side else {s for s in range(4) if s not in side}
        return {seat}

    def _play(self, state: TaroccoState, seat: int, actions: Sequence[Any]) -> Play:
        plays = [a for a in actions if isinstance(a, Play) and a.signal is None] or actions
        cards = [a.card for a in plays]
        if not state.trick:
            card = self._lead(state, seat, cards)
            return Play(card, self._signal(state, seat, actions, card))
        friends = self._friends(state, seat)
        winner = state.trick_winner(state.trick)
        last = len(state.trick) == 3
        if winner in friends and (last or self._strong(state.trick, winner)):
            # partner holds the trick: give it points
            return Play(max(cards, key=lambda c: (C.VALUE[c] if c != C.FUGGITIVO else -1, -c)))
        beating = [c for c in cards if self._beats(state, c)]
        if beating:
            return Play(min(beating, key=lambda c: (C.IS_TRUMP[c], C.RANK[c])))
        if C.FUGGITIVO in cards and any(C.VALUE[c] > 0 for _, c in state.trick):
            return Play(C.FUGGITIVO)
        return Play(min(cards, key=lambda c: (C.VALUE[c] if c != C.FUGGITIVO else 99, C.RANK[c])))

    def _signal(
        self, state: TaroccoState, seat: int, actions: Sequence[Any], card: int
    ) -> str | None:
        """Knock once, on the first lead, to tell partners of Giove or Palla."""
        if state.led_once[seat] or state.soloist == seat:
            return None
        for signal in ("both", "giove", "palla"):
            if Play(card, signal) in actions:
                return signal
        return None

    def _strong(self, trick: list[tuple[int, int]], winner: int) -> bool:
        card = next(c for s, c in trick if s == winner)
        return (C.IS_TRUMP[card] and C.RANK[card] >= 15) or (
            not C.IS_TRUMP[card] and C.RANK[card] == C.RE
        )

    def _beats(self, state: TaroccoState, card: int) -> bool:
        if card == C.FUGGITIVO:
            return False
        trial = [*state.trick, (-1, card)]
        return state.trick_winner(trial) == -1

    def _lead(self, state: TaroccoState, seat: int, cards: list[int]) -> int:
        suits = [c for c in cards if C.SUIT[c] < 4]
        kings = [c for c in suits if C.RANK[c] == C.RE]
        if kings:
            return kings[0]
        trumps = [c for c in cards if C.IS_TRUMP[c]]
        if len(trumps) >= 7 and C.GIOVE in trumps:
            return C.GIOVE
        if suits:
            return min(suits, key=lambda c: (C.VALUE[c], C.RANK[c]))
        return min(cards, key=lambda c: (C.VALUE[c], C.RANK[c]))


# --- the strong bot: what the search needs to know of Tarocco ------------------------------


def _seen_plays(view: dict[str, Any]) -> list[tuple[int, int]]:
    """Every card played so far, with its seat, in the order played (from the view)."""
    out: list[tuple[int, int]] = []
    for trick in view["tricks"]:
        lead = trick["leader"]
        for i, code in enumerate(trick["cards"]):
            out.append(((lead + i) % SEATS, C.BY_CODE[code]))
    for item in view["trick"]:
        out.append((item["seat"], C.BY_CODE[item["card"]]))
    return out


def _voids(view: dict[str, Any]) -> list[set[int]]:
    """The suits each seat showed it lacks: not following the suit led (and, on a plain suit,
    not trumping either)."""
    voids: list[set[int]] = [set() for _ in range(SEATS)]
    tricks = [
        [((t["leader"] + i) % SEATS, C.BY_CODE[c]) for i, c in enumerate(t["cards"])]
        for t in view["tricks"]
    ]
    tricks.append([(t["seat"], C.BY_CODE[t["card"]]) for t in view["trick"]])
    for trick in tricks:
        led: int | None = None
        for s, c in trick:
            if c == C.FUGGITIVO:
                continue
            if led is None:
                led = C.SUIT[c]
                continue
            if C.SUIT[c] != led:
                voids[s].add(led)
                if led != C.TRUMP and not C.IS_TRUMP[c]:
                    voids[s].add(C.TRUMP)
    return voids


class TaroccoSearch:
    """Tarocco for games.core.search: draws the hidden hands, the monte and a hidden discard
    from a seat's view, and replays the hand's public actions on the drawn deal."""

    def sample(self, state: Any, seat: int, rand: Any) -> TaroccoState:
        assert isinstance(state, TaroccoState)
        view = state.view(seat)
        rs = state.ruleset
        dealer: int = view["dealer"]
        order = [(dealer + 1 + i) % SEATS for i in range(SEATS)]
        sizes: list[int] = list(view["hand_sizes"])
        hand = [C.BY_CODE[c] for c in view["hand"]]
        plays = _seen_plays(view)
        voids = _voids(view)
        taker: int | None = view["monte_taker"]
        phase = view["phase"]
        shown = [C.BY_CODE[c] for c in view.get("monte", [])]
        my_discard = [C.BY_CODE[c] for c in view.get("discard", [])]
        bottom = C.BY_CODE[view["bottom_card"]] if "bottom_card" in view else None
        discarded = taker is not None and phase != Phase.DISCARD.value
        called = C.BY_CODE[view["called"]] if view["called"] is not None else None
        partner: int | None = view["partner"]
        venti: int | None = view["venti"]

        played_by: list[list[int]] = [[] for _ in range(SEATS)]
        for s, c in plays:
            played_by[s].append(c)
        seen = set(hand) | {c for _, c in plays} | set(shown) | set(my_discard)
        if bottom is not None:
            seen.add(bottom)
        # what each other seat holds beyond what is known: its hand (and a hidden discard)
        known: list[list[int]] = [[] for _ in range(SEATS)]
        known[seat] = list(hand) + list(my_discard)
        if taker is not None and taker != seat:
            known[taker] += [c for c in shown if c not in played_by[taker]]
            if bottom is not None and not shown and bottom not in played_by[taker]:
                known[taker].append(bottom)  # the dealer saw it go to the monte's taker
        stock = 0  # the cards not yet dealt or taken: the second deal and the monte
        if phase == Phase.BARGAIN.value:
            stock = 23 - (1 if bottom is not None else 0)
        elif taker is None and phase != Phase.OVER.value:
            stock = 3 - (1 if bottom is not None else 0)
        holders = [s for s in range(SEATS) if s != seat]
        room = []
        for s in holders:
            size = sizes[s] + (3 if s == taker and discarded else 0)
            room.append(size - len(known[s]))
        room.append(stock)
        unknown = [c for c in range(C.PACK_SIZE) if c not in seen]
        # a card a seat might have held before it took the monte is not in known[]: the
        # unknown pool is the rest of the pack, shared among the unknown places
        extra = len(unknown) - sum(room)
        if extra != 0:
            raise RuntimeError(f"tarocco sample: {extra} cards unaccounted for")

        def allowed(h: int, card: int) -> bool:
            if h == len(holders):
                return True  # the stock
            s = holders[h]
            if card == called:
                if partner is not None and partner != s:
                    return False
                if s == venti:
                    return False
            suit = C.SUIT[card]
            return suit not in voids[s] or (s == taker and discarded)

        shares = deal_hidden(unknown, room, allowed, rand)
        holding = [list(h) for h in known]
        for h, s in enumerate(holders):
            holding[s] += shares[h]
        stock_cards = shares[-1]

        # split the monte taker's cards into hand, discard and monte
        discard: list[int] = []
        monte: list[int] = []
        if taker is not None:
            if taker == seat:
                discard = list(my_discard)
            elif discarded:
                free = [c for c in holding[taker] if c not in known[taker]]
                pick = free if len(free) >= 3 else holding[taker]
                discard = rand.sample(sorted(pick), 3)
            if shown:
                monte = list(shown)
            else:
                total = sorted(holding[taker] + played_by[taker])
                if taker == seat:
                    # the seat took the monte itself: which three they were changes nothing
                    # from here on
                    monte = sorted(my_discard) if my_discard else total[:3]
                else:
                    rest = [c for c in total if c != bottom]
                    monte = rand.sample(rest, 3 - (1 if bottom in total else 0))
                    if bottom in total:
                        monte.append(bottom)
        elif phase != Phase.BARGAIN.value:
            monte = list(stock_cards)
            if bottom is not None:
                monte.append(bottom)
        if bottom is not None and bottom in monte:
            monte.remove(bottom)
            monte.append(bottom)

        deck: list[int] = [-1] * C.PACK_SIZE
        if phase == Phase.BARGAIN.value:
            rest = list(stock_cards)
            rand.shuffle(rest)
            second = rest[:20]
            monte = rest[20:] + ([bottom] if bottom is not None else [])
            for i, s in enumerate(order):
                first = holding[s]
                deck[i * 5 : i * 5 + 5] = first[:5]
                deck[20 + i * 5 : 25 + i * 5] = first[5:10]
                deck[40 + i * 5 : 45 + i * 5] = second[i * 5 : i * 5 + 5]
        else:
            for i, s in enumerate(order):
                cards = [c for c in holding[s] if c not in discard] + played_by[s]
                if s == taker:
                    cards = [c for c in cards + discard if c not in monte]
                deck[i * 5 : i * 5 + 5] = cards[:5]
                deck[20 + i * 5 : 25 + i * 5] = cards[5:10]
                deck[40 + i * 5 : 45 + i * 5] = cards[10:20]
        deck[60:63] = monte
        if sorted(deck) != list(range(C.PACK_SIZE)):
            raise RuntimeError("tarocco sample: the drawn deck is not a pack")
        world = TaroccoState(rs, dealer, deck)
        hidden = Discard(tuple(sorted(discard)))
        for s, action in state.actions:
            if isinstance(action, Discard) and s != seat:
                action = hidden
            world.apply_unchecked(s, action)
        return world

    def policy(self, seed: int) -> HeuristicBot:
        return HeuristicBot(seed)

    def candidates(self, state: Any, seat: int, actions: Sequence[Any], seed: int) -> list[Any]:
        assert isinstance(state, TaroccoState)
        own = HeuristicBot(seed).choose(state, seat)
        p = state.phase
        if p is Phase.BARGAIN:
            # an offer on the table can be taken (piglio): its points are won outright
            takes = [a for a in actions if isinstance(a, Bid) and a.kind == "piglio"]
            out = [own, Bid("vado"), Bid("tengo"), *takes]
            return [a for i, a in enumerate(out) if a in actions and a not in out[:i]]
        if p is Phase.DISCARD:
            ranked = HeuristicBot(seed).discard_order(state, seat)
            out = [own, *(Discard(tuple(sorted(t))) for t in combinations(ranked[:5], 3))]
            return [a for i, a in enumerate(out) if a not in out[:i]]
        if p is Phase.PLAY and not state.trick:
            # a lead is compared without its signals; the heuristic's signal is kept
            out = [own, *(a for a in actions if isinstance(a, Play) and a.signal is None)]
            return [a for i, a in enumerate(out) if a not in out[:i] and a in actions]
        return [own, *(a for a in actions if a != own)]

    def playout_over(self, state: Any, root: Any) -> bool:
        return bool(state.is_over())

    def reward(self, state: Any, seat: int, root: Any) -> float:
        return float(state.outcome().scores[seat])

    def clone(self, state: Any) -> TaroccoState:
        """A copy to play on: the lists copied, the actions (frozen) shared."""
        new = object.__new__(TaroccoState)
        d = dict(state.__dict__)
        for key in ("deck", "order", "spoken", "monte", "discard", "venti_said", "actions"):
            d[key] = list(d[key])
        for key in ("trick", "tricks", "fool_owed", "led_once", "signals"):
            d[key] = list(d[key])
        d["hands"] = [list(h) for h in d["hands"]]
        d["won"] = [list(w) for w in d["won"]]
        d["offers"] = dict(d["offers"])
        d["taken"] = dict(d["taken"])
        new.__dict__.update(d)
        return new


def strong_bot(
    seed: int, *, playouts: int = DEFAULT_PLAYOUTS, budget: float | None = DEFAULT_BUDGET
) -> SearchBot:
    """The strong Tarocco bot: determinized search with the heuristic bot in the playouts."""
    return SearchBot(TaroccoSearch(), seed, playouts=playouts, budget=budget)
