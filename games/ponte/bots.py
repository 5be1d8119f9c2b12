"""A heuristic player: balanced power sheets, a sensible answer to each challenger, and fight
cards chosen by reading the circle against what the enemy can still play.

It looks only at what its seat may know: its own side, the enemy's revealed values (none in
Expert before a magistratura is challenged, none in Incognito) and the cards already played.
"""

from __future__ import annotations

from typing import Any

from games.core import rng
from games.ponte.model import BEATS, Assign, Deploy, Equip, Fight
from games.ponte.state import FIGHT, PonteState


class HeuristicBot:
    def __init__(self, seed: int) -> None:
        self._rng = rng(seed, "ponte-heuristic")

    def choose(self, state: Any, seat: int) -> Any:
        actions = state.legal_actions(seat)
        if not actions:
            raise RuntimeError(f"seat {seat} has no legal action")
        if len(actions) == 1:
            return actions[0]
        assert isinstance(state, PonteState)
        first = actions[0]
        if isinstance(first, Assign):
            return self._assign(actions)
        if isinstance(first, Equip):
            return actions[self._rng.randrange(len(actions))]
        if isinstance(first, Deploy):
            return self._deploy(state, seat, actions)
        if state.phase == FIGHT:
            return self._fight(state, actions)
        return actions[self._rng.randrange(len(actions))]

    def _assign(self, actions: list[Any]) -> Any:
        # Spread the power: prefer amounts near the middle of what is allowed.
        amounts = sorted({a.power for a in actions})
        target = amounts[len(amounts) // 2] if len(amounts) > 2 else amounts[-1]
        near = [a for a in actions if abs(a.power - target) <= 10000]
        return near[self._rng.randrange(len(near))]

    def _deploy(self, state: PonteState, seat: int, actions: list[Any]) -> Any:
        own = {a.mag: state.power[a.mag] or state.initial[a.mag] or 0 for a in actions}
        if state.in_tiebreak:
            return actions[self._rng.randrange(len(actions))]
        facing = state.fighter[state.challenger] if state.phase == "respond" else None
        if facing is None:
            # challenger: lead with the strongest magistratura
            best = max(own.values())
            pick = [a for a in actions if own[a.mag] == best]
            return pick[self._rng.randrange(len(pick))]
        # answering: match the challenger's power when this seat may know it
        known = state._shows_value(1 - state.challenger, facing)
        threat = state.fpower[state.challenger] if known else None
        if threat is None:
            ranked = sorted(own.values())
            mid = ranked[len(ranked) // 2]
            pick = [a for a in actions if own[a.mag] == mid]
        else:
            enough = [v for v in own.values() if v >= threat]
            target = min(enough) if enough else min(own.values())
            pick = [a for a in actions if own[a.mag] == target]
        return pick[self._rng.randrange(len(pick))]

    def _fight(self, state: PonteState, actions: list[Any]) -> Any:
        side = state.fight_side()
        enemy = 1 - side
        rs = state.ruleset
        sign = 1 if side == 0 else -1
        position = state.carrello * sign  # > 0: pushing towards the enemy end
        limit = rs.bridge_slots
        # what the enemy can still play: its hand, within its power when that is known
        enemy_cards = [state.pack[i] for i in state.hand[enemy]]
        if rs.mode != "incognito":
            enemy_cards = [c for c in enemy_cards if state.can_pay(c, enemy)]
        if state.out(enemy):
            enemy_cards = []
        urgency = (
            1.0
            + (2.0 if position <= -(limit - 2) else 0.0)
            + (1.0 if position >= limit - 2 else 0.0)
        )
        best: list[Fight] = []
        best_score = -1e18
        for a in actions:
            card = None if a.card is None else rs.codes[a.card]
            gain = 0.0
            if card is None:
                gain = 0.0
            elif not enemy_cards:
                gain = card.value / rs.chip
            else:
                for e in enemy_cards:
                    if e.kind == card.kind:
                        gain += (card.value - e.value) / rs.chip
                    elif BEATS[card.kind] == e.kind:
                        gain += card.value / rs.chip
                    else:
                        gain -= e.value / rs.chip
                gain /= len(enemy_cards)
            cost = 0.0 if card is None else card.value / rs.chip * 0.35
            score = gain * urgency - cost
            if a.strategy is not None:
                # keep the strategy card for a tight spot on the bridge
                score += 1.5 if abs(position) >= limit - 2 or state.fpower[side] <= 15000 else -1.0
            score += self._rng.random() * 0.01
            if score > best_score:
                best_score, best = score, [a]
        return best[0]
