"""A game registered beside the five (Punti, the tests' small game) is available with every
engine still there, cannot take a product game's name, and goes away when unregistered."""

from __future__ import annotations

import pytest

from games.core import registry
from tests.points_game import GAME


def test_a_registered_game_joins_the_five_and_hides_none() -> None:
    before = registry.available()
    registry.register(GAME)
    try:
        assert registry.available() == (*before, "punti")
        assert registry.get("punti") is GAME
        assert set(registry.installed()) <= set(registry.available())
    finally:
        registry.unregister("punti")
    assert registry.available() == before
    with pytest.raises(KeyError):
        registry.get("punti")


def test_a_registered_game_cannot_take_a_product_games_name() -> None:
    class Impostor(type(GAME)):  # type: ignore[misc]
        info = type(GAME).info.__class__(
            slug="sanmarco", name=GAME.info.name, seat_counts=(2,), max_actions=2
        )

    with pytest.raises(ValueError):
        registry.register(Impostor())
    assert registry.get("sanmarco") is not None


def test_punti_scores_a_summary_as_its_record_gives() -> None:
    state = GAME.new_game(GAME.ruleset("3p"), 0)
    for seat, points in enumerate((3, 8, 8)):
        state.apply(seat, points)
    assert state.is_over()
    verdict = GAME.validate(state.to_record())
    report = GAME.score(state.summary())
    assert verdict.valid and report.valid
    assert verdict.outcome == report.outcome
    assert report.outcome is not None and report.outcome.winners == (1, 2)
    assert report.outcome.places == (3, 1, 1)


def test_every_package_under_games_that_exposes_a_game_is_found_sorted() -> None:
    import pkgutil

    import games

    packages = sorted(m.name for m in pkgutil.iter_modules(games.__path__) if m.ispkg)
    assert registry.installed() == tuple(p for p in packages if p != "core")
    assert list(registry.installed()) == sorted(registry.installed())
    for slug in registry.installed():
        assert registry.package(slug) == f"games.{slug}"
        assert registry.module(slug, "words") is not None
    assert registry.module("tarocco", "no_such_part") is None


def test_a_distribution_whose_game_takes_an_installed_games_slug_is_refused(tmp_path) -> None:
    import sys

    (tmp_path / "another_tarocco").mkdir()
    (tmp_path / "another_tarocco" / "__init__.py").write_text(
        "from games.tarocco.game import Tarocco\n\nGAME = Tarocco()\n"
    )
    dist = tmp_path / "another_tarocco-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: another-tarocco\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(
        f"[{registry.ENTRY_POINT_GROUP}]\ntarocco2 = another_tarocco\n"
    )
    sys.path.insert(0, str(tmp_path))
    registry.refresh()
    try:
        with pytest.raises(ValueError, match=r"games\.tarocco, another_tarocco"):
            registry.available()
    finally:
        sys.path.remove(str(tmp_path))
        registry.refresh()
    assert registry.get("tarocco").info.slug == "tarocco"
