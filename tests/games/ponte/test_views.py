"""What each seat may see: secret choices, hidden power values by mode, strategy cards."""

from __future__ import annotations

from games.ponte import Assign, Fight
from games.ponte.model import MAG_INDEX

from .helpers import act, fill_sheets, fresh, move, on_bridge

M = MAG_INDEX


def _mag(view: dict, name: str) -> dict:
    return next(m for m in view["magistrature"] if m["name"] == name)


def test_turn_order_power_sheets_are_secret_until_both_are_written() -> None:
    s = fresh("2p-base")
    act(s, Assign(M["calci"], 110000))
    assert _mag(s.view(0), "calci")["power"] == 110000
    assert _mag(s.view(1), "calci")["power"] is None
    fill_sheets(s)
    assert _mag(s.view(1), "calci")["power"] == 110000


def test_power_rank_expert_shows_ranks_not_values_until_challenged() -> None:
    s = on_bridge("2p-expert")
    view = s.view(1)
    assert _mag(view, "calcesana")["power"] is None
    assert _mag(view, "calcesana")["rank"] == 2
    assert _mag(view, "calci")["power"] is not None  # challenged: revealed
    assert view["fighters"][0]["power"] is not None


def test_incognito_shows_only_the_power_played() -> None:
    s = on_bridge("2p-incognito")
    move(s, "A10000", "D5000")
    view = s.view(1)
    assert _mag(view, "calci")["power"] is None
    assert view["fighters"][0]["power"] is None
    assert view["fighters"][0]["exhausted"] is False
    assert view["moves"][0]["cards"] == ["A10000", "D5000"]
    assert view["moves"][0]["left"][0] is None
    assert view["moves"][0]["left"][1] is not None


def test_strategy_cards_are_hidden_from_the_enemy_until_used() -> None:
    s = on_bridge("2p-base")
    assert _mag(s.view(1), "calci")["strategy"] is None
    assert _mag(s.view(0), "calci")["strategy"] == 0
    act(s, Fight("A5000", 0))
    assert _mag(s.view(1), "calci")["strategy"] is None  # chosen, not yet revealed
    act(s, Fight("A5000"))
    assert _mag(s.view(1), "calci")["strategy"] == 0


def test_spectator_sees_no_secret() -> None:
    s = fresh("2p-advanced")
    fill_sheets(s)
    view = s.view(None)
    assert all(m["strategy"] is None for m in view["magistrature"])
