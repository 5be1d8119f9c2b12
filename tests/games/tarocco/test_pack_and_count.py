"""The pack, the card values and the count in threes (tarocco.pack.*, tarocco.count.*)."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.tarocco import cards as C


def test_the_pack_has_63_cards_in_the_sicilian_composition() -> None:
    assert C.PACK_SIZE == 63 and len(set(C.CODES)) == 63
    suits = Counter(C.SUIT)
    assert [suits[s] for s in range(4)] == [10, 10, 10, 11]
    assert suits[C.TRUMP] == 21 and suits[C.FOOL] == 1
    assert "O4" in C.BY_CODE and "S4" not in C.BY_CODE


def test_card_values_follow_the_decine_and_cinquine() -> None:
    v = {code: C.VALUE[c] for c, code in enumerate(C.CODES)}
    assert v["T20"] == v["T1"] == v["F"] == 10
    assert v["T19"] == v["T18"] == v["T17"] == v["T16"] == 5
    assert all(v[s + "K"] == 5 and v[s + "Q"] == 4 and v[s + "C"] == 3 for s in C.SUITS)
    assert all(v[s + "D"] == 2 for s in C.SUITS)
    assert v["M"] == 0 and v["T15"] == 0 and v["O4"] == 0
    assert sum(C.COUNTING) == 23


def test_the_miseria_is_the_lowest_trump() -> None:
    assert C.IS_TRUMP[C.MISERIA]
    assert C.RANK[C.MISERIA] < C.RANK[C.PICCIOTTI]
    assert not C.IS_TRUMP[C.FUGGITIVO]


def test_count_threes_three_scartine_make_one_point() -> None:
    three = [C.BY_CODE[c] for c in ("S5", "S6", "T2")]
    assert C.count(three) == 1
    assert C.count([C.BY_CODE[c] for c in ("SK", "S5", "S6")]) == 5
    assert C.count([C.BY_CODE[c] for c in ("SK", "OK", "S6")]) == 9  # 5 + 5 - 1


def test_count_total_is_109_for_the_whole_pack() -> None:
    assert C.count(list(range(63))) + C.LAST_TRICK_BONUS == C.TOTAL_POINTS


@settings(max_examples=300, deadline=None)
@given(st.permutations(list(range(63))), st.integers(min_value=0, max_value=63))
def test_count_total_is_109_for_any_split(order: list[int], cut: int) -> None:
    a, b = order[:cut], order[cut:]
    assert C.count(a) + C.count(b) + C.LAST_TRICK_BONUS == 109


def test_venti_and_quindici_count_only_tens_and_fives() -> None:
    hand = [C.BY_CODE[c] for c in ("T20", "SK", "OQ", "CC", "BD")]
    assert C.honours(hand) == 15
    assert C.honours([C.BY_CODE[c] for c in ("T1", "F")]) == 20


def by_hand_in_threes(pile: list[int]) -> int:
    """The table's way: groups of three, each worth its counting cards less one per extra
    counting card, or 1 with none; a last pair of cards as a group, a single card nothing."""
    total = 0
    for i in range(0, len(pile), 3):
        group = pile[i : i + 3]
        counting = [C.VALUE[c] for c in group if C.COUNTING[c]]
        if counting:
            total += sum(counting) - (len(counting) - 1) - (1 if len(group) == 1 else 0)
        elif len(group) > 1:
            total += 1
    return total


@settings(max_examples=300, deadline=None)
@given(st.permutations(list(range(63))), st.integers(min_value=0, max_value=63))
def test_count_threes_matches_grouping_by_hand_in_any_order(order: list[int], cut: int) -> None:
    pile = order[:cut]
    assert C.count(pile) == by_hand_in_threes(pile)
