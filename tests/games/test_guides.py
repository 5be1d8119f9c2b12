"""Each game tells how it goes in a few sections of our own words, in Italian and English,
each naming rules of its own book, and none borrowing a sentence of the rule texts."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games.core import registry

GAMES = ["tarocco", "ergio", "ponte", "sanmarco", "cardchess"]
#: The rule texts the engines were written from (../shared/rules beside the checkout).
SHARED = next(
    (p / "shared" / "rules" for p in Path(__file__).resolve().parents if (p / "shared").is_dir()),
    None,
)


def _words(text: str) -> list[str]:
    return re.findall(r"[a-zà-ù0-9]+", text.lower())


@pytest.mark.parametrize("slug", GAMES)
def test_a_games_guide_has_sections_in_both_languages_naming_its_own_rules(slug: str) -> None:
    game = registry.get(slug)
    assert len(game.guide) >= 4
    for section in game.guide:
        for text in (section.title, section.text):
            assert text.it.strip() and text.en.strip() and text.it != text.en
        assert section.rules and all(rule in game.rules for rule in section.rules)
        assert not any(rule in section.text.en for rule in game.rules)  # words, not ids


@pytest.mark.skipif(SHARED is None, reason="the rule texts (../shared/rules) are not here")
@pytest.mark.parametrize("slug", GAMES)
def test_no_guide_repeats_eight_words_in_a_row_of_the_rule_texts(slug: str) -> None:
    assert SHARED is not None
    source = " ".join(
        " ".join(_words(p.read_text(encoding="utf-8", errors="replace")))
        for p in SHARED.iterdir()
        if p.is_file()
    )
    for section in registry.get(slug).guide:
        for text in (section.text.it, section.text.en):
            words = _words(text)
            for i in range(len(words) - 7):
                run = " ".join(words[i : i + 8])
                assert f" {run} " not in f" {source} ", run
