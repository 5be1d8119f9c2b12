"""games.core.cards: decks, the one reading of a card code, bit masks and the seeded shuffle."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from games.cardchess import cards as cardchess_cards
from games.core.cards import Deck, cards_in, count, mask_of, shuffle, shuffled
from games.core.errors import RecordError
from games.core.rng import rng
from games.ergio import cards as ergio_cards
from games.tarocco import cards as tarocco_cards

ROOT = Path(__file__).resolve().parents[2]
DECK = Deck(["A", "B", "C", "D"], ["A", "D"])


def test_a_deck_maps_codes_and_cards_both_ways() -> None:
    assert len(DECK) == 4
    assert DECK.code(2) == "C" and DECK.index["C"] == 2
    assert DECK.names([3, 0, 3]) == ["D", "A", "D"]
    assert "B" in DECK and "E" not in DECK and 1 not in DECK


def test_a_deck_refuses_repeated_codes_and_examples_it_does_not_have() -> None:
    with pytest.raises(ValueError):
        Deck(["A", "A"], ["A"])
    with pytest.raises(ValueError):
        Deck(["A", "B"], ["Z"])
    with pytest.raises(ValueError):
        Deck(["A", "B"], [])


@pytest.mark.parametrize("raw", ["E", "a", 3, None, ["A"], True])
def test_reading_an_unknown_code_names_it_the_examples_and_the_path(raw: object) -> None:
    with pytest.raises(RecordError) as caught:
        DECK.read(raw, "deal.hand[2]")
    assert caught.value.path == "deal.hand[2]"
    assert str(caught.value) == f"deal.hand[2]: unknown card {raw!r}; codes look like A, D"


def test_reading_a_list_reports_the_bad_code_at_its_index() -> None:
    assert DECK.read_list(["D", "A", "A"], "x") == [3, 0, 0]
    assert DECK.read_list([], "x") == []
    with pytest.raises(RecordError) as caught:
        DECK.read_list(["A", "B", "Q"], "hands[1]")
    assert caught.value.path == "hands[1][2]" and "unknown card 'Q'" in str(caught.value)
    with pytest.raises(RecordError) as caught:
        DECK.read_list(["A", ["B"]], "hands[1]")
    assert caught.value.path == "hands[1][1]"
    with pytest.raises(RecordError, match="expected a list of card codes"):
        DECK.read_list("A", "hands")


@pytest.mark.parametrize(
    ("cards", "example"),
    [(tarocco_cards, "T20"), (ergio_cards, "DRA-CAP"), (cardchess_cards, "bP3d")],
)
def test_each_card_game_reads_its_codes_through_its_deck(cards: object, example: str) -> None:
    deck = cards.DECK  # type: ignore[attr-defined]
    assert deck.codes == tuple(cards.CODES)  # type: ignore[attr-defined]
    assert cards.BY_CODE is deck.index  # type: ignore[attr-defined]
    assert deck.read(example, "p") == deck.index[example]
    with pytest.raises(RecordError, match=f"codes look like .*{example}"):
        deck.read("XX", "p")


def test_masks_hold_sets_of_cards() -> None:
    assert mask_of([]) == 0 and list(cards_in(0)) == [] and count(0) == 0
    mask = mask_of([62, 0, 5, 5, 130])
    assert mask == (1 << 62) | 1 | (1 << 5) | (1 << 130)
    assert list(cards_in(mask)) == [0, 5, 62, 130]
    assert count(mask) == 4
    rand = random.Random(3)
    for _ in range(200):
        cards = {rand.randrange(124) for _ in range(rand.randrange(30))}
        assert list(cards_in(mask_of(cards))) == sorted(cards)
        assert count(mask_of(cards)) == len(cards)


@pytest.mark.parametrize("n", [0, 1, 2, 3, 38, 63, 77, 256, 300])
def test_the_shuffle_draws_what_random_shuffle_draws(n: int) -> None:
    for seed in range(20):
        mine = list(range(n))
        shuffle(mine, random.Random(seed))
        theirs = list(range(n))
        random.Random(seed).shuffle(theirs)
        assert mine == theirs
    assert shuffled(range(n), 9, "deck", 1) == shuffled(list(range(n)), 9, "deck", 1)
    expected = list(range(n))
    rng(9, "deck", 1).shuffle(expected)
    assert shuffled(range(n), 9, "deck", 1) == expected


def test_unknown_card_is_written_only_in_the_core() -> None:
    """Every engine reads card codes through its Deck: the message is built in one place."""
    writers = sorted(
        str(path.relative_to(ROOT))
        for path in (ROOT / "games").rglob("*.py")
        if '"unknown card' in path.read_text(encoding="utf-8")
    )
    assert writers == ["games/core/cards.py"]
