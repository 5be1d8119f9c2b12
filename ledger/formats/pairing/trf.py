"""TRF16 export (FIDE's tournament report file) through caissify-pairings' writer, so that
other pairing programs (bbpPairings, JaVaFo, the library's own checker) can check us.
Seat 0 (Tramontana) is written as white, seat 1 (Mezzogiorno) as black."""

from __future__ import annotations

from dataclasses import dataclass

from caissify_pairings.trf import write_trf

from ledger.formats.pairing.tiebreaks import Game


@dataclass
class TrfPlayer:
    id: int
    name: str
    rating: int = 0


def export(name: str, players: list[TrfPlayer], games: list[Game], rounds: int) -> str:
    number = {p.id: i for i, p in enumerate(players, start=1)}
    results: dict[int, dict[int, dict[str, object]]] = {p.id: {} for p in players}
    scores = {p.id: 0.0 for p in players}

    def code(points: float) -> str:
        return "1" if points == 1 else "0" if points == 0 else "="

    for g in games:
        if g.b is None:
            # A bye worth a win is the pairing-allocated bye (U); half a win H; nothing Z.
            code_ = "U" if g.score_a >= 1 else "H" if g.score_a > 0 else "Z"
            results[g.a][g.round] = {"opponent": None, "result": code_}
            scores[g.a] += g.score_a
            continue
        results[g.a][g.round] = {"opponent": number[g.b], "color": "w", "result": code(g.score_a)}
        results[g.b][g.round] = {"opponent": number[g.a], "color": "b", "result": code(g.score_b)}
        scores[g.a] += g.score_a
        scores[g.b] += g.score_b
    rows = [
        {
            "starting_number": number[p.id],
            "name": p.name,
            "rating": p.rating,
            "score": scores[p.id],
            "results": results[p.id],
        }
        for p in players
    ]
    return str(write_trf({"name": name, "system": "Individual: Swiss-System"}, rows, rounds)) + "\n"
