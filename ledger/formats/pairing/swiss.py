"""Swiss pairing for two-sided games through caissify-pairings.

Sides: seat 0 is Tramontana, seat 1 is Mezzogiorno. They take the place of chess colours:
the library's "white" is seat 0 and its "black" seat 1, so its colour rules (alternate,
never three in a row, keep the difference within 2) balance the sides.

Engines: the library's FIDE Dutch engine is exact but runs networkx's O(n^3) blossom
matching once per bracket over the whole field; it takes about 1 s for 40 players and
10 s for 100. Fields up to ``exact_limit`` players (40 by default, a competition setting)
are paired by it; larger fields by the library's casual Swiss engine (score groups,
greedy, well under a second for 1,000 players). Both results then pass through
``_repair``, which guarantees what the organiser relies on whatever the engine did:
no repeated or hard-forbidden pairing while a pairing without one exists, and the bye
to a player who has not had one whenever such a player is present.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass, field

import networkx as nx  # type: ignore[import-untyped]
from caissify_pairings.engines.casual import CasualSwissEngine  # type: ignore[import-untyped]
from caissify_pairings.engines.dutch import DutchEngine  # type: ignore[import-untyped]

EXACT_LIMIT = 40
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


def pair_swiss(
    players: list[SwissPlayer],
    *,
    met: Iterable[Pair] = (),
    round_number: int,
    total_rounds: int,
    hard_forbidden: Iterable[Pair] = (),
    soft_forbidden: Iterable[Pair] = (),
    exact_limit: int = EXACT_LIMIT,
) -> SwissRound:
    """Pair one Swiss round. ``met`` holds every pair that already played."""
    met_set = {key(*p) for p in met}
    hard = {key(*p) for p in hard_forbidden}
    soft = {key(*p) for p in soft_forbidden} - hard
    blocked = met_set | hard
    if len(players) < 2:
        return SwissRound([], players[0].id if players else None, "none")
    engine = "dutch" if len(players) <= exact_limit else "casual"
    # Soft constraints first as if hard; if that costs a repeat or an extra bye, drop them.
    result = _engine_round(players, blocked | soft, round_number, total_rounds, engine)
    if soft and not _clean(result, players, blocked | soft):
        result = _engine_round(players, blocked, round_number, total_rounds, engine)
    return _repair(result, players, blocked, soft)


def _engine_round(
    players: list[SwissPlayer], blocked: set[Pair], round_number: int, total: int, engine: str
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
    cls = DutchEngine if engine == "dutch" else CasualSwissEngine
    logging.getLogger("caissify_pairings").setLevel(logging.ERROR)
    out = cls(
        players=data,
        previous_pairings=blocked,
        round_number=round_number,
        total_rounds=max(total, round_number),
    ).generate_pairings()
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
    result: SwissRound, players: list[SwissPlayer], blocked: set[Pair], soft: set[Pair]
) -> SwissRound:
    """Re-pair the smallest neighbourhood of the faults that can be paired cleanly."""
    if _clean(result, players, blocked):
        return result
    by_id = {p.id: p for p in players}
    # Standings order: the window grows around faults along it.
    order = sorted(players, key=lambda p: (-p.score, p.number or p.id, p.id))
    position = {p.id: i for i, p in enumerate(order)}
    partner: dict[int, int] = {}
    for a, b in result.pairs:
        partner[a], partner[b] = b, a
    faulty = {x for p in result.pairs if key(*p) in blocked for x in p}
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
        fixed = _match(window, by_id, position, blocked, soft, players, strict=True)
        if fixed is None and whole:
            fixed = _match(window, by_id, position, blocked, soft, players, strict=False)
        if fixed is not None:
            pairs = [p for p in result.pairs if p[0] not in window and p[1] not in window]
            new_pairs, bye = fixed
            pairs += [_sides(a, b, by_id) for a, b in new_pairs]
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
    players: list[SwissPlayer],
    *,
    strict: bool,
) -> tuple[list[Pair], int | None] | None:
    """Maximum-weight perfect matching of the window (plus a bye vertex when odd).

    Strict: blocked pairs are absent and the bye goes only to a player without one (when
    anyone present lacks one). Not strict: everything is allowed at a heavy price."""
    ids = sorted(window)
    graph = nx.Graph()
    big = 10_000
    someone_without = any(p.byes == 0 for p in players)
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            k = key(a, b)
            cost = abs(position[a] - position[b]) + int(abs(by_id[a].score - by_id[b].score) * 20)
            if k in soft:
                cost += big // 10
            if k in blocked:
                if strict:
                    continue
                cost += big
            graph.add_edge(a, b, weight=4 * big - cost)
    odd = len(ids) % 2 == 1
    if odd:
        for a in ids:
            if by_id[a].byes and someone_without:
                if strict:
                    continue
                penalty = big
            else:
                penalty = 0
            # The bye goes low in the standings: prefer the last positions.
            cost = (len(position) - position[a]) + penalty + 100 * by_id[a].byes
            graph.add_edge(a, BYE, weight=4 * big - cost)
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


def _sides(a: int, b: int, by_id: dict[int, SwissPlayer]) -> Pair:
    """Seat 0 to whoever is owed it: fewer seat-0 games, else not seat 0 last time."""

    def owed(p: SwissPlayer) -> tuple[int, int]:
        diff = p.sides.count(0) - p.sides.count(1)
        last = p.sides[-1] if p.sides else 1
        return (diff, -last)

    pa, pb = by_id[a], by_id[b]
    return (a, b) if owed(pa) <= owed(pb) else (b, a)


def legal_pairing_exists(
    ids: list[int], blocked: set[Pair], bye_allowed: set[int] | None = None
) -> bool:
    """Whether the players can be paired with no blocked pair (one bye when odd)."""
    graph = nx.Graph()
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
