"""Building ponte states and records for tests: sheets filled, magistrature on the bridge."""

from __future__ import annotations

from typing import Any

from games.ponte import GAME, Assign, Deploy, Equip, Fight, PonteState
from games.ponte.model import MAG_INDEX
from games.ponte.state import Deal

IDENTITY = (tuple(range(6)), tuple(range(6)))


def fresh(name: str = "2p-base", first: int = 0, **overrides: Any) -> PonteState:
    ruleset = GAME.ruleset({"name": name, **overrides})
    return PonteState(ruleset, Deal(first, IDENTITY), None)


def act(state: PonteState, action: Any) -> None:
    seat = state.to_act()
    assert seat is not None
    state.apply(seat, action)


def fill_sheets(state: PonteState, powers: dict[str, int] | None = None) -> None:
    """Every sheet in magistratura order: given powers, else the preset's (Base) or equal."""
    powers = powers or {}
    while state.phase == "power":
        pool = state._current_pool()
        assert pool is not None
        _, mags = pool
        base = list(state.pool_values(mags))
        for i, m in enumerate(mags):
            if state.initial[m] is not None:
                continue
            name = next(n for n, j in MAG_INDEX.items() if j == m)
            if name in powers:
                value = powers[name]
            elif state.ruleset.mode == "base":
                value = base[i]
            else:
                # equal shares, the rounding remainder on the first (Expert: rank 1)
                value = state.pool_total(mags) // len(mags) // 5000 * 5000
                if i == 0:
                    value = state.pool_total(mags) - value * (len(mags) - 1)
            act(state, Assign(m, value))
    while state.phase == "strategy":
        group = state._current_group()
        assert group is not None
        _, mags, held = group
        for m, card in zip(mags, held, strict=True):
            act(state, Equip(m, card))


def on_bridge(
    name: str = "2p-base",
    tramontana: str = "calci",
    mezzogiorno: str = "delfini",
    powers: dict[str, int] | None = None,
    **overrides: Any,
) -> PonteState:
    """A state at the first move of the first challenge, Tramontana challenging."""
    state = fresh(name, 0, **overrides)
    fill_sheets(state, powers)
    quarter = None
    if state.layout.split(1):
        quarter = (MAG_INDEX[mezzogiorno] // 3) % 2
    act(state, Deploy(MAG_INDEX[tramontana], quarter))
    act(state, Deploy(MAG_INDEX[mezzogiorno]))
    assert state.phase == "fight"
    return state


def move(
    state: PonteState, t: str | None, m: str | None, ts: int | None = None, ms: int | None = None
) -> None:
    act(state, Fight(t, ts))
    act(state, Fight(m, ms))


def rules_of(state: PonteState, action: Any) -> list[str]:
    seat = state.to_act()
    assert seat is not None
    return [v.rule for v in state.check(seat, action)]
