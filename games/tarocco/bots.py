"""A heuristic player: bargains and declares from hand strength, plays the usual tarocco.

It reads only what its seat may know: its own hand, the words said, the shown monte and the
tricks played (and, as partner of a call, that it holds the called card).
"""

from __future__ import annotations

from typing import Any

from games.core import rng
from games.tarocco import cards as C
from games.tarocco.state import (
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

    # --- bargaining and monte ---------------------------------------------------------------
    def _bid(self, state: TaroccoState, hand: list[int], actions: list[Any]) -> Any:
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

        chosen = sorted(allowed, key=keep)[:3]
        return Discard(tuple(sorted(chosen)))

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

    def _play(self, state: TaroccoState, seat: int, actions: list[Any]) -> Play:
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

    def _signal(self, state: TaroccoState, seat: int, actions: list[Any], card: int) -> str | None:
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
