"""Building Tarocco deals and states for tests: chosen hands, the rest in a fixed order."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.core import RandomBot
from games.tarocco import GAME, Phase, TaroccoState
from games.tarocco import cards as C


def cards(codes: str) -> list[int]:
    return [C.BY_CODE[c] for c in codes.split()]


def deck_for(hands: Mapping[int, str], dealer: int = 3, monte: str = "") -> list[int]:
    """A deck in dealing order giving each listed seat its 15 cards (others get the rest)."""
    chosen = {s: cards(h) for s, h in hands.items()}
    monte_cards = cards(monte) if monte else []
    used = [c for h in chosen.values() for c in h] + monte_cards
    assert len(set(used)) == len(used), "a card is given twice"
    rest = [c for c in range(C.PACK_SIZE) if c not in used]
    full: dict[int, list[int]] = {}
    for s in range(4):
        h = chosen.get(s, [])
        need = 15 - len(h)
        full[s] = h + rest[:need]
        rest = rest[need:]
        assert len(full[s]) == 15
    monte_cards += rest[: 3 - len(monte_cards)]
    order = [(dealer + 1 + i) % 4 for i in range(4)]
    deck: list[int] = []
    for r in range(3):
        for s in order:
            deck += full[s][r * 5 : r * 5 + 5]
    return deck + monte_cards


def record(
    hands: Mapping[int, str],
    actions: list[dict[str, Any]],
    *,
    dealer: int = 3,
    monte: str = "",
    ruleset: str | Mapping[str, Any] = "dummett-mcleod",
) -> dict[str, Any]:
    return {
        "game": "tarocco",
        "version": 1,
        "ruleset": {"name": ruleset} if isinstance(ruleset, str) else dict(ruleset),
        "deal": {"dealer": dealer, "deck": C.codes(deck_for(hands, dealer, monte))},
        "actions": actions,
    }


def state(
    hands: Mapping[int, str],
    actions: Sequence[dict[str, Any]] = (),
    **kw: Any,
) -> TaroccoState:
    s = GAME.start(record(hands, [], **kw))
    for raw in actions:
        seat, action = GAME.decode_step(raw, "test")
        s.apply(seat, action)
    return s


def at_play(
    hands: Mapping[int, str],
    *,
    leader: int = 0,
    trick: str = "",
    ruleset: str | Mapping[str, Any] = "dummett-mcleod",
    soloist: int = 0,
) -> TaroccoState:
    """A state in the middle of play: the given hands (any size), a trick under way."""
    s = GAME.start(record({}, [], ruleset=ruleset))
    s.hands = [cards(hands.get(i, "")) for i in range(4)]
    s.phase = Phase.PLAY
    s.soloist = soloist
    s.monte_taker = soloist
    s.leader = leader
    s.trick = [((leader + i) % 4, c) for i, c in enumerate(cards(trick) if trick else [])]
    return s


def play_out(
    st: TaroccoState,
    seed: int = 0,
    cheat: Callable[[TaroccoState, int], Any | None] | None = None,
) -> TaroccoState:
    """Random legal play to the end; ``cheat`` may substitute an action (legal or not)."""
    bots = [RandomBot(seed * 7 + i) for i in range(4)]
    for _ in range(GAME.info.max_actions):
        seat = st.to_act()
        if seat is None:
            break
        action = cheat(st, seat) if cheat else None
        st.apply_unchecked(seat, action if action is not None else bots[seat].choose(st, seat))
    assert st.is_over()
    return st


def rule_ids(verdict_or_list: Any) -> list[str]:
    items = getattr(verdict_or_list, "violations", verdict_or_list)
    return [v.rule for v in items]
