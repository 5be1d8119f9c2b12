"""Which King (or Queen) the venti player must call when nobody answers quindici.

``required_calls`` returns the cards the rules allow; ``call_fault`` names the first rule
a given call breaks. Both read the caller's hand after the monte was taken and discarded.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.tarocco import cards as C

# rank called when all four of the previous rank are held (Kings, then Queens, ...)
LADDER = (C.RE, C.REGINA, C.CAVALLO, C.DONNA)
COURTS = frozenset(LADDER)


def _card(suit: int, rank: int) -> int:
    return C.BY_CODE[C.SUITS[suit] + C.COURT_LETTERS[rank]]


def _steps(
    hand: Sequence[int],
    own_discard: Sequence[int],
    void_counts_as_shortest: bool,
    oro_breaks_ties: bool,
    skip_bare_king: bool,
) -> tuple[int, list[tuple[str, list[int]]]]:
    """The rank to call and the candidate suits after each rule, in the order applied."""
    held = set(hand) | set(own_discard)
    rank = next((r for r in LADDER if any(_card(s, r) not in held for s in range(4))), LADDER[-1])
    suits = [s for s in range(4) if _card(s, rank) not in held]
    steps: list[tuple[str, list[int]]] = [("tarocco.call.own_card", suits)]
    if len(suits) == 1:
        steps.append(("tarocco.call.fourth_king", suits))
        return rank, steps
    length = [0, 0, 0, 0]
    for c in hand:
        if C.SUIT[c] < 4:
            length[C.SUIT[c]] += 1
    pool = suits
    if rank == C.REGINA and skip_bare_king:
        # a suit where the King stands alone is not a candidate (V6)
        kept = [s for s in pool if not (length[s] == 1 and _card(s, C.RE) in held)]
        pool = kept or pool
        steps.append(("tarocco.call.queen_bare_king", pool))
    if not void_counts_as_shortest:
        pool = [s for s in pool if length[s] > 0] or pool
    shortest = min(length[s] for s in pool)
    pool = [s for s in pool if length[s] == shortest]
    steps.append(("tarocco.call.shortest_suit", pool))
    if len(pool) > 1:

        def figure(s: int) -> int:
            # tarocco.call.highest_figure: only the highest court card held in the suit
            # counts; the second is never compared (a tie then goes to Oro, V5, or the
            # caller's choice).
            return max(
                (C.RANK[c] for c in hand if C.SUIT[c] == s and C.RANK[c] in COURTS), default=-1
            )

        best = max(figure(s) for s in pool)
        pool = [s for s in pool if figure(s) == best]
        steps.append(("tarocco.call.highest_figure", pool))
    oro = C.SUITS.index("O")
    if len(pool) > 1 and oro_breaks_ties and oro in pool:
        pool = [oro]
        steps.append(("tarocco.call.oro", pool))
    return rank, steps


def required_calls(
    hand: Sequence[int],
    own_discard: Sequence[int],
    *,
    void_counts_as_shortest: bool,
    oro_breaks_ties: bool,
    skip_bare_king: bool,
) -> list[int]:
    """The cards the caller may call (usually one; a free choice only on a full tie)."""
    rank, steps = _steps(
        hand, own_discard, void_counts_as_shortest, oro_breaks_ties, skip_bare_king
    )
    return [_card(s, rank) for s in steps[-1][1]]


def call_fault(
    hand: Sequence[int],
    own_discard: Sequence[int],
    called: int,
    *,
    void_counts_as_shortest: bool,
    oro_breaks_ties: bool,
    skip_bare_king: bool,
) -> tuple[str, list[int]] | None:
    """The first calling rule this call breaks, with the cards that rule allowed."""
    rank, steps = _steps(
        hand, own_discard, void_counts_as_shortest, oro_breaks_ties, skip_bare_king
    )
    if called in hand or called in own_discard:
        return "tarocco.call.own_card", [_card(s, rank) for s in steps[0][1]]
    if C.SUIT[called] >= 4 or C.RANK[called] != rank:
        return "tarocco.call.rank", [_card(s, rank) for s in steps[0][1]]
    for rule, pool in steps:
        if C.SUIT[called] not in pool:
            return rule, [_card(s, rank) for s in pool]
    return None
