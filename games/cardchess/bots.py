"""A heuristic player: put cards that can capture on the most valuable pieces, keep the rest."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.cardchess import cards as C
from games.cardchess import words
from games.cardchess.state import CardChessState, Play, SfidaDeal
from games.core import rng
from games.core.hints import Reason
from games.core.search import DEFAULT_BUDGET, DEFAULT_PLAYOUTS, SearchBot, redeal
from games.core.words import join

# worth of a table piece to this bot: its points, plus the reame pieces' promise
WORTH = tuple(
    C.POINTS[t] + (3 if C.piece(t) in (C.KING, C.QUEEN, C.CASTLE) else 0) for t in range(C.TYPES)
)


def scores(state: CardChessState, actions: Sequence[Any]) -> list[float]:
    """This bot's worth of each play: captures on the most valuable pieces, few wasted cards."""
    table = state.b.table
    can = state.t.can
    value = state.t.value
    out = []
    for action in actions:
        score = 0.0
        for pos, c in enumerate(action.cards):
            if c < 0:
                continue
            t = table[pos]
            if can[c][t]:
                # a capture is contested: a higher card is likelier to hold it
                score += WORTH[t] + WORTH[c] + 0.3 * value[c]
            else:
                score -= 0.2 * WORTH[c]  # a wasted card feeds someone else's capture
        out.append(score)
    return out


class HeuristicBot:
    def __init__(self, seed: int) -> None:
        self._rng = rng(seed, "cardchess-heuristic")

    def choose(self, state: Any, seat: int) -> Any:
        actions = state.legal_actions(seat)
        if not actions:
            raise RuntimeError(f"seat {seat} has no legal action")
        if len(actions) == 1 or not isinstance(actions[0], Play):
            return actions[0]
        assert isinstance(state, CardChessState)
        best: list[Any] = []
        best_score = -1e9
        for action, score in zip(actions, scores(state, actions), strict=True):
            if score > best_score + 1e-9:
                best_score, best = score, [action]
            elif abs(score - best_score) <= 1e-9:
                best.append(action)
        return best[self._rng.randrange(len(best))]

    def why(self, state: Any, seat: int, action: Any) -> Reason | None:
        """The reason for ``action`` (this bot's play) in words, for a player's hint."""
        if not isinstance(action, Play) or not isinstance(state, CardChessState):
            return None
        table, can = state.b.table, state.t.can
        taken = [
            (c, table[pos]) for pos, c in enumerate(action.cards) if c >= 0 and can[c][table[pos]]
        ]
        if taken:
            it = "; ".join(
                f"{_card(c, 'it')} sotto {_card(t, 'it')} può catturarlo "
                f"({_points(C.POINTS[t], 'it')})"
                for c, t in taken
            )
            en = "; ".join(
                f"{_card(c, 'en')} under {_card(t, 'en')} can capture it "
                f"({_points(C.POINTS[t], 'en')})"
                for c, t in taken
            )
            return Reason(
                f"{it[:1].upper()}{it[1:]}. Fra le carte che possono catturare prende la più "
                "alta: la tua è messa dove conta di più.",
                f"{en[:1].upper()}{en[1:]}. Among the cards able to capture the highest "
                "takes: yours go where they count most.",
                "cardchess.capture.higher",
            )
        kept = list(state.b.hands[seat])
        for c in action.cards:
            if c >= 0:
                kept.remove(c)
        if not kept:
            return Reason(
                "Nessuna tua carta può catturare un pezzo del tavolo: all'ultimo turno si "
                "giocano tutte.",
                "None of your cards can capture a table piece: on the last turn all are played.",
                "cardchess.capture.value",
            )
        return Reason(
            "Nessuna tua carta può catturare un pezzo del tavolo: giochi quelle che valgono "
            f"meno punti e tieni in mano {join([_card(c, 'it') for c in kept], 'it')}, per un "
            "turno successivo (una carta resta sempre in mano).",
            "None of your cards can capture a table piece: play those worth fewest points and "
            f"keep {join([_card(c, 'en') for c in kept], 'en')} in hand for a later turn (one "
            "card always stays in hand).",
            "cardchess.play.count",
        )


def _card(c: int, lang: str) -> str:
    return words.card(C.CODES[c], lang)


def _points(n: int, lang: str) -> str:
    if lang == "it":
        return "vale 1 punto" if n == 1 else f"vale {n} punti"
    return "worth 1 point" if n == 1 else f"worth {n} points"


# --- the strong bot: what the search needs to know of cardChess ----------------------------


#: How many of the heuristic's best plays the search compares.
CANDIDATES = 4


class CardChessSearch:
    """cardChess for games.core.search: the cards a seat cannot see (the other hands, the
    draw pile, the others' face-down cards not yet revealed) shuffled among their places,
    and the reshuffle and the sfide still to come drawn from a new seed."""

    def sample(self, state: Any, seat: int, rand: Any) -> CardChessState:
        assert isinstance(state, CardChessState)
        world = self.clone(state)
        b = world.b
        # The others' face-down cards of this turn go back to their hands: they will place
        # them again, as their heuristic would with the hands drawn, rather than lay random
        # cards (a random card seldom contests a capture; theirs do).
        again: list[tuple[int, tuple[bool, ...]]] = []
        if world.resolve_at < 0:
            for s, p in enumerate(b.plays):
                if s != seat and p is not None:
                    b.hands[s].extend(c for c in p if c >= 0)
                    b.plays[s] = None
                    again.append((s, tuple(c >= 0 for c in p)))  # where cards lie is seen
        places: list[tuple[Any, int]] = []
        for s, hand in enumerate(b.hands):
            if s != seat:
                places += [(hand, i) for i in range(len(hand))]
        places += [(b.pile, i) for i in range(len(b.pile))]
        plays: list[list[int] | None] = [list(q) if q is not None else None for q in b.plays]
        revealed = max(world.resolve_at, 0)
        for s, laid in enumerate(plays):
            if s != seat and laid is not None and world.resolve_at >= 0:
                places += [(laid, i) for i in range(revealed, len(laid)) if laid[i] >= 0]
        redeal(places, rand)
        b.plays = [tuple(q) if q is not None else None for q in plays]
        for who, shape in again:
            fits = [
                a
                for a in world.legal_actions(who)
                if isinstance(a, Play) and tuple(c >= 0 for c in a.cards) == shape
            ]
            if not fits:
                fits = [HeuristicBot(rand.randrange(1 << 30)).choose(world, who)]
            worth = scores(world, fits)
            world.apply_unchecked(who, fits[max(range(len(fits)), key=lambda i: worth[i])])
        world.deals = world.deals[: world.sfida + 1]
        if not b.reshuffled:
            current = world.deals[world.sfida]
            world.deals[world.sfida] = SfidaDeal(current.deck, None)
        world.seed = rand.randrange(1 << 30)
        return world

    def policy(self, seed: int) -> HeuristicBot:
        return HeuristicBot(seed)

    def candidates(self, state: Any, seat: int, actions: Sequence[Any], seed: int) -> list[Any]:
        """The plays the heuristic ranks best (a hand of five on three table cards has dozens
        of plays, most of them throwing good cards away)."""
        own = HeuristicBot(seed).choose(state, seat)
        if not isinstance(actions[0], Play) or len(actions) <= CANDIDATES:
            return [own, *(a for a in actions if a != own)]
        ranked = sorted(zip(scores(state, actions), range(len(actions)), strict=True), reverse=True)
        return [own, *(actions[i] for _, i in ranked[:CANDIDATES] if actions[i] != own)]

    def playout_over(self, state: Any, root: Any) -> bool:
        """A playout ends with the sfida it began in: its gold card is what a move wins."""
        return bool(state.over or len(state.results) > len(root.results))

    def reward(self, state: Any, seat: int, root: Any) -> float:
        """The gold card the sfida gave the seat, then its lead (or gap) over the best of
        the others in the sfida's points."""
        gold = state.gold[seat] - root.gold[seat]
        if len(state.results) <= len(root.results):
            return float(100 * gold)
        points = state.results[len(root.results)].points
        best_other = max(p for s, p in enumerate(points) if s != seat)
        return float(100 * gold + points[seat] - best_other)

    def clone(self, state: Any) -> CardChessState:
        clone: CardChessState = state.clone()
        return clone


def strong_bot(
    seed: int, *, playouts: int = DEFAULT_PLAYOUTS, budget: float | None = DEFAULT_BUDGET
) -> SearchBot:
    """The strong cardChess bot: determinized search with the heuristic bot in the playouts."""
    return SearchBot(CardChessSearch(), seed, playouts=playouts, budget=budget)
