"""The lobby names each game's rulesets as players say them: every preset of every game has
words of its own in Italian and English (games declare ``ruleset_labels``), never its code
read aloud ("Dummett Mcleod", "Advanced", "2p Base")."""

from __future__ import annotations

import re

import pytest

from games.core import registry
from ledger.clubs.games import _words, presets

ENGLISH_IN_ITALIAN = re.compile(
    r"\b(Advanced|Expert|Base game|Variant|Board|players|rules|Strict|mode)\b"
)


@pytest.mark.parametrize("slug", registry.installed())
def test_every_preset_of_every_game_declares_its_name_in_both_languages(slug):
    game = registry.get(slug)
    missing = sorted(set(game.rulesets) - set(game.ruleset_labels))
    assert not missing, f"{slug} presets without words: {missing}"
    for name, text in game.ruleset_labels.items():
        assert name in game.rulesets, f"{slug}: words for an unknown preset {name}"
        assert text.it.strip() and text.en.strip()
        assert text.it != text.en or not re.search(r"[a-z]{4}", text.it), (name, text)
        assert name not in (text.it, text.en), f"{slug}:{name} is named by its code"


@pytest.mark.parametrize("slug", registry.installed())
def test_the_lobby_reads_each_preset_in_the_page_language_not_its_code(slug):
    game = registry.get(slug)
    for language in ("it", "en"):
        for preset in presets(slug, language):
            declared = game.ruleset_labels[preset.name].get(language)
            assert preset.label.startswith(declared)
            # Not the preset's code with capitals (what the lobby fell back to).
            assert preset.label.split(" · ")[0] != _words(preset.name, language), preset.label
    for preset in presets(slug, "it"):
        found = ENGLISH_IN_ITALIAN.search(preset.label)
        assert found is None, f"English in the Italian lobby: {preset.label!r}"
        assert "giocatori" in preset.label, preset.label
