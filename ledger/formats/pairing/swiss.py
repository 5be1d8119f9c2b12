"""Swiss pairing for two-sided games through caissify-pairings.

Sides: seat 0 is Tramontana, seat 1 is Mezzogiorno. They take the place of chess colours:
the library's "white" is seat 0 and its "black" seat 1, so its colour rules (alternate,
never three in a row, keep the difference within 2) balance the sides.

Engines: the exact one is the library's FIDE Dutch method (a port of bbpPairings') run
by ``dutch.FastDutch`` on an incremental matcher (matching.py) instead of dozens of
networkx blossom solves from nothing; same pairs as the library's own loop (tested), about
0.02 s a round at 40 players, 0.1 s at 100 and 0.4 to 0.9 s at 200 on this project's
shared machine (bench/formats.py). Fields up to ``exact_limit`` players (200 by default,
the most a competition may set) are paired by it; larger fields by the library's casual
Swiss engine (score groups, greedy, well under a second for 1,000 players), the fallback.
Both results then pass through ``_repair``, which guarantees what the organiser relies on
whatever the engine did: no repeated or hard-forbidden pairing and no pair that breaks the
absolute colour rules (nobody gets the same side three times running or two more games on
one side than the other) while a pairing without one exists, and the bye to a player who
has not had one whenever such a player is present.

Sides within a pair follow the Dutch allocation rules (C.04.3 E.1 to E.5) in our
``allocate``: both preferences when they differ, else the stronger, else alternate from the
last round the two had different sides, else the preference of the higher ranked player
(score first, then pairing number: the library ranks by pairing number alone here), else
the initial side (a competition setting) to the higher ranked player when their pairing
number is odd.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

# networkx is imported by the functions that match with it: importing it takes a third of a
# second, which every process that never pairs (a web worker, a command) would pay at start.
from caissify_pairings.engines.casual import CasualSwissEngine
from caissify_pairings.engines.dutch import DutchEngine

from .dutch import FastDutch

EXACT_LIMIT = 200  # the default; a competition may set 0 to 200 (EXACT_MAX)
EXACT_MAX = 200
SIDES = ("white", "black")  # seat 0 Tramontana, seat 1 Mezzogiorno

Pair = tuple[int, int]


def key(a: int, b: int) -> Pair:
    return (a, b) if a < b else (b, a)


@dataclass
class SwissPlayer:
    id: int
    score: float = 0.0
    rating: int = 0
    number: int = 0  # starting number (entry order); 0 means "by id"
    sides: list[int] = field(default_factory=list)  # seat taken each round played (0/1)
    floats: list[str] = field(default_factory=list)  # "up"/"down"/"none" per round
    byes: int = 0


@dataclass
class SwissRound:
    pairs: list[Pair]  # (seat 0, seat 1)
    bye: int | None
    engine: str
    repaired: bool = False
    repeats: list[Pair] = field(default_factory=list)  # only when nothing better exists
    extra_byes: list[int] = field(default_factory=list)  # only when nothing better exists


# --- sides (colours) --------------------------------------------------------------------

ABSOLUTE, STRONG, MILD, NONE = 3, 2, 1, 0


@dataclass(frozen=True)
class Seated:
    """What the side allocation reads of a player: sides of the games played in order,
    the score, and the pairing number (1 is the top of the starting list)."""

    sides: tuple[int, ...]
    score: float
    pairing_number: int


def preference(sides: tuple[int, ...] | list[int]) -> tuple[int | None, int]:
    """(side wanted, strength). Absolute: the same side in the last two games, or two more
    games on one side; strong: one more game on one side; mild: alternate from the last."""
    if not sides:
        return None, NONE
    diff = sides.count(0) - sides.count(1)
    if len(sides) >= 2 and sides[-1] == sides[-2]:
        return 1 - sides[-1], ABSOLUTE
    if abs(diff) >= 2:
        return (1 if diff > 0 else 0), ABSOLUTE
    if diff:
        return (1 if diff > 0 else 0), STRONG
    return 1 - sides[-1], MILD


def allocate(a: Seated, b: Seated, initial_side: int = 0) -> bool:
    """True when ``a`` takes seat 0 (Tramontana), by the Dutch allocation rules E.1-E.5."""
    want_a, strength_a = preference(a.sides)
    want_b, strength_b = preference(b.sides)
    if want_a is not None and want_b is not None and want_a != want_b:
        return want_a == 0  # E.1: both are granted
    if strength_a != strength_b:  # E.2: the stronger preference
        return want_a == 0 if strength_a > strength_b else want_b == 1
    if strength_a == ABSOLUTE:  # both absolute (topscorers): the wider difference
        wide_a = abs(a.sides.count(0) - a.sides.count(1))
        wide_b = abs(b.sides.count(0) - b.sides.count(1))
        if wide_a != wide_b:
            return want_a == 0 if wide_a > wide_b else want_b == 1
    for k in range(1, min(len(a.sides), len(b.sides)) + 1):  # E.3: alternate
        if a.sides[-k] != b.sides[-k]:
            return a.sides[-k] == 1
    a_higher = (-a.score, a.pairing_number) < (-b.score, b.pairing_number)
    higher, want_higher = (a, want_a) if a_higher else (b, want_b)
    if want_higher is not None:  # E.4: the higher ranked player's preference
        higher_gets = want_higher
    else:  # E.5: the initial side to an odd pairing number, the other to an even one
        higher_gets = initial_side if higher.pairing_number % 2 else 1 - initial_side
    return (higher_gets == 0) == a_higher


def colour_clash(a: Seated, b: Seated, *, last_round: bool = False, top: float = 0) -> bool:
    """Both want the same side absolutely: pairing them breaks an absolute colour rule
    (allowed only in the last round between topscorers, above half the maximum score)."""
    want_a, strength_a = preference(a.sides)
    want_b, strength_b = preference(b.sides)
    if not (strength_a == strength_b == ABSOLUTE and want_a == want_b):
        return False
    return not (last_round and (a.score > top or b.score > top))


class _RankedSides:
    """Our side allocation (ranked by score first) in place of the library's, and its
    last-resort matcher made polynomial."""

    initial_color: str

    def _backtrack_match(self, players: list[Any], relaxed: bool = False) -> list[Any] | None:
        """The library's last-resort matcher gives the first matching, in the players'
        order, in which every pair may meet (one player left over in an odd group); it
        searches every ordering first, so a group with no such matching took exponential
        time (a Swiss draw of 24 hung). The same search and answer here, but a branch is
        taken only while the players left can still all be paired (a maximum matching of
        the graph of who may meet, networkx's): a group that cannot be paired is known at
        once, and an even group's search never goes back."""
        import networkx as nx  # here, not above: see the note on imports

        n = len(players)
        if n < 2:
            return None

        engine: Any = self  # the library's engine this is mixed into: its _can_pair

        def may_meet(a: int, b: int) -> bool:
            if relaxed:
                return bool(players[b].id not in players[a].opponents)
            return bool(engine._can_pair(players[a], players[b]))

        edges = {(a, b) for a in range(n) for b in range(a + 1, n) if may_meet(a, b)}

        def completes(left: list[int]) -> bool:
            """Whether the players left can all be paired, one left over in an odd group
            but never the first of them (the library pairs its first player while two
            remain): an odd group takes a stand-in who may meet anyone but the first."""
            if len(left) < 2:
                return True
            graph: nx.Graph[int] = nx.Graph()
            graph.add_nodes_from(left)
            graph.add_edges_from((a, b) for a, b in edges if a in graph and b in graph)
            size = len(left)
            if size % 2:
                graph.add_edges_from((-1, b) for b in left[1:])
                size += 1
            return 2 * len(nx.max_weight_matching(graph, maxcardinality=True)) == size

        pairs: list[Any] = []

        def search(left: list[int]) -> bool:
            # The library's search, in its order, skipping every branch after which the
            # players left could not all be paired anyway.
            if len(left) < 2:
                return True
            first, rest = left[0], left[1:]
            for other in rest:
                if (first, other) not in edges:
                    continue
                after = [i for i in rest if i != other]
                if not completes(after):
                    continue
                pairs.append((players[first], players[other]))
                if search(after):
                    return True
                pairs.pop()
            return False

        if not completes(list(range(n))) or not search(list(range(n))):
            return None
        return pairs

    def _assign_colors(self, p1: Any, p2: Any) -> tuple[Any, Any]:
        first, second = (
            Seated(tuple(0 if c == "white" else 1 for c in p.color_hist), p.score, p.pairing_number)
            for p in (p1, p2)
        )
        start = 0 if self.initial_color == "white" else 1
        return (p1, p2) if allocate(first, second, start) else (p2, p1)


class _RankedDutch(_RankedSides, FastDutch):
    """The exact Dutch engine: the library's rules on our incremental matcher."""


class _LibraryDutch(_RankedSides, DutchEngine):  # type: ignore[misc]  # untyped library: Any
    """The library's own bracket loop (networkx, from nothing each time): the reference
    the fast engine is tested against, too slow for large fields."""


DUTCH_ENGINES: dict[str, type[DutchEngine]] = {"fast": _RankedDutch, "library": _LibraryDutch}


def pair_swiss(
    players: list[SwissPlayer],
    *,
    met: Iterable[Pair] = (),
    round_number: int,
    total_rounds: int,
    hard_forbidden: Iterable[Pair] = (),
    soft_forbidden: Iterable[Pair] = (),
    exact_limit: int = EXACT_LIMIT,
    initial_side: int = 0,
    dutch: str = "fast",
) -> SwissRound:
    """Pair one Swiss round. ``met`` holds every pair that already played; ``initial_side``
    is the side the top seed takes in round 1 (0 Tramontana, 1 Mezzogiorno). ``dutch``
    picks the exact engine's implementation ("library" only to check "fast" against)."""
    met_set = {key(*p) for p in met}
    hard = {key(*p) for p in hard_forbidden}
    soft = {key(*p) for p in soft_forbidden} - hard
    blocked = met_set | hard
    if len(players) < 2:
        return SwissRound([], players[0].id if players else None, "none")
    engine = "dutch" if len(players) <= exact_limit else "casual"
    total = max(total_rounds, round_number)
    seated = _seated(players)
    clash = _clashes(seated, last_round=round_number == total, top=(round_number - 1) / 2)
    # Soft constraints first as if hard; if that costs a repeat or an extra bye, drop them.
    result = _engine_round(
        players, blocked | soft, round_number, total, engine, initial_side, dutch
    )
    if soft and not _clean(result, players, blocked | soft | clash):
        result = _engine_round(players, blocked, round_number, total, engine, initial_side, dutch)
    result = _repair(result, players, blocked, soft, clash)
    result.pairs = [
        (a, b) if allocate(seated[a], seated[b], initial_side) else (b, a) for a, b in result.pairs
    ]
    return result


def _seated(players: list[SwissPlayer]) -> dict[int, Seated]:
    order = sorted(players, key=lambda p: (p.number or p.id, p.id))
    return {p.id: Seated(tuple(p.sides), p.score, i) for i, p in enumerate(order, start=1)}


def _clashes(seated: dict[int, Seated], *, last_round: bool, top: float) -> set[Pair]:
    """Every pair that would break an absolute colour rule."""
    by_want: dict[int, list[int]] = defaultdict(list)
    for pid, s in seated.items():
        want, strength = preference(s.sides)
        if strength == ABSOLUTE and want is not None:
            by_want[want].append(pid)
    out: set[Pair] = set()
    for ids in by_want.values():
        for i, a in enumerate(ids):
            for b in ids[i + 1 :]:
                if colour_clash(seated[a], seated[b], last_round=last_round, top=top):
                    out.add(key(a, b))
    return out


def _engine_round(
    players: list[SwissPlayer],
    blocked: set[Pair],
    round_number: int,
    total: int,
    engine: str,
    initial_side: int = 0,
    dutch: str = "fast",
) -> SwissRound:
    order = sorted(players, key=lambda p: (p.number or p.id, p.id))
    data = [
        {
            "id": p.id,
            "name": str(p.id),
            "score": float(p.score),
            "rating": p.rating,
            "starting_number": i,
            "pairing_number": i,
            "color_hist": [SIDES[s] for s in p.sides],
            "float_history": list(p.floats),
            "bye_count": p.byes,
        }
        for i, p in enumerate(order, start=1)
    ]
    logging.getLogger("caissify_pairings").setLevel(logging.ERROR)
    common: dict[str, Any] = {
        "players": data,
        "previous_pairings": blocked,
        "round_number": round_number,
        "total_rounds": max(total, round_number),
    }
    if engine == "dutch":
        exact = DUTCH_ENGINES[dutch]
        out = exact(**common, initial_color=SIDES[initial_side]).generate_pairings()
    else:
        out = CasualSwissEngine(**common).generate_pairings()
    pairs: list[Pair] = []
    byes: list[int] = []
    for row in out:
        if row.get("black_id") is None:
            byes.append(row["white_id"])
        else:
            pairs.append((row["white_id"], row["black_id"]))
    # Anyone the engine left out (it should not) is treated as unpaired, for the repair.
    seen = {x for pair in pairs for x in pair} | set(byes)
    byes += [p.id for p in order if p.id not in seen]
    return SwissRound(pairs, byes[0] if byes else None, engine, extra_byes=byes[1:])


def _bye_ok(bye: int | None, players: list[SwissPlayer]) -> bool:
    if bye is None:
        return len(players) % 2 == 0
    by_id = {p.id: p for p in players}
    return by_id[bye].byes == 0 or all(p.byes > 0 for p in players)


def _clean(result: SwissRound, players: list[SwissPlayer], blocked: set[Pair]) -> bool:
    return (
        not result.extra_byes
        and _bye_ok(result.bye, players)
        and not any(key(*p) in blocked for p in result.pairs)
    )


BYE = -1


def _repair(
    result: SwissRound,
    players: list[SwissPlayer],
    blocked: set[Pair],
    soft: set[Pair],
    clash: set[Pair] | None = None,
) -> SwissRound:
    """Re-pair the smallest neighbourhood of the faults that can be paired cleanly. A pair
    that breaks an absolute colour rule (``clash``) is a fault like a repeat."""
    clash = clash or set()
    if _clean(result, players, blocked | clash):
        return result
    by_id = {p.id: p for p in players}
    # Standings order: the window grows around faults along it.
    order = sorted(players, key=lambda p: (-p.score, p.number or p.id, p.id))
    position = {p.id: i for i, p in enumerate(order)}
    partner: dict[int, int] = {}
    for a, b in result.pairs:
        partner[a], partner[b] = b, a
    faulty = {x for p in result.pairs if key(*p) in blocked | clash for x in p}
    faulty |= set(result.extra_byes)
    if result.bye is not None:
        faulty.add(result.bye)
    if len(players) % 2 and not _bye_ok(result.bye, players):
        # Bring in the lowest players who have not had a bye.
        eligible = [p.id for p in reversed(order) if p.byes == 0][:3]
        faulty |= set(eligible)
    radius = 2
    while True:
        window: set[int] = set()
        for pid in faulty:
            i = position[pid]
            for p in order[max(0, i - radius) : i + radius + 1]:
                window.add(p.id)
        # Keep pairs whole: a window holds both players of each pair it touches.
        window |= {partner[x] for x in list(window) if x in partner}
        whole = len(window) == len(players)
        fixed = _match(window, by_id, position, blocked, soft, clash, players, level=2)
        # The whole field and still no clean pairing: first let a colour rule give, then
        # (only when even that cannot be avoided) a repeat or a second bye.
        if fixed is None and whole:
            fixed = _match(window, by_id, position, blocked, soft, clash, players, level=1)
        if fixed is None and whole:
            fixed = _match(window, by_id, position, blocked, soft, clash, players, level=0)
        if fixed is not None:
            pairs = [p for p in result.pairs if p[0] not in window and p[1] not in window]
            new_pairs, bye = fixed
            pairs += new_pairs  # sides are allocated for every pair at the end
            if bye is None and result.bye is not None and result.bye not in window:
                bye = result.bye
            return SwissRound(
                pairs,
                bye,
                result.engine,
                repaired=True,
                repeats=[key(*p) for p in pairs if key(*p) in blocked],
            )
        radius *= 2


def _match(
    window: set[int],
    by_id: dict[int, SwissPlayer],
    position: dict[int, int],
    blocked: set[Pair],
    soft: set[Pair],
    clash: set[Pair],
    players: list[SwissPlayer],
    *,
    level: int,
) -> tuple[list[Pair], int | None] | None:
    """Maximum-weight perfect matching of the window (plus a bye vertex when odd).

    Level 2: blocked and colour-clashing pairs are absent and the bye goes only to a
    player without one (when anyone present lacks one). Level 1: a colour clash is allowed
    at a price. Level 0: everything is allowed, a repeat at the heaviest price."""
    import networkx as nx  # here, not above: see the note on imports

    strict = level >= 1
    ids = sorted(window)
    graph: nx.Graph[int] = nx.Graph()
    big = 10_000
    someone_without = any(p.byes == 0 for p in players)
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            k = key(a, b)
            cost = abs(position[a] - position[b]) + int(abs(by_id[a].score - by_id[b].score) * 20)
            if k in soft:
                cost += big // 10
            if k in clash:
                if level == 2:
                    continue
                cost += big // 2
            if k in blocked:
                if strict:
                    continue
                cost += 2 * big
            graph.add_edge(a, b, weight=5 * big - cost)
    odd = len(ids) % 2 == 1
    if odd:
        for a in ids:
            if by_id[a].byes and someone_without:
                if strict:
                    continue
                penalty = 3 * big  # a second bye is worse than a repeat
            else:
                penalty = 0
            # The bye goes low in the standings: prefer the last positions.
            cost = (len(position) - position[a]) + penalty + 100 * by_id[a].byes
            graph.add_edge(a, BYE, weight=5 * big - cost)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    needed = (len(ids) + (1 if odd else 0)) // 2
    if len(matching) < needed:
        return None
    pairs: list[Pair] = []
    bye: int | None = None
    for a, b in matching:
        if BYE in (a, b):
            bye = b if a == BYE else a
        else:
            pairs.append((a, b))
    return pairs, bye


def legal_pairing_exists(
    ids: list[int], blocked: set[Pair], bye_allowed: set[int] | None = None
) -> bool:
    """Whether the players can be paired with no blocked pair (one bye when odd)."""
    import networkx as nx  # here, not above: see the note on imports

    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(ids)
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            if key(a, b) not in blocked:
                graph.add_edge(a, b)
    if len(ids) % 2:
        for a in bye_allowed if bye_allowed is not None else ids:
            graph.add_edge(a, BYE)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    return len(matching) == (len(ids) + len(ids) % 2) // 2
