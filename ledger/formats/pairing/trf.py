"""TRF16 (FIDE's tournament report file): export through caissify-pairings' writer, and a
parser back, so that other pairing programs (bbpPairings, JaVaFo, the library's own checker)
can check us and pair our next round. Seat 0 (Tramontana) is written as white, seat 1
(Mezzogiorno) as black.

What the file says, in the standard's codes:
- ``XXR``: the rounds the competition plans (not those published so far): a pairing
  program refuses a file whose rounds outnumber it;
- a game played: the opponent's number, the colour and ``1``, ``=`` or ``0``;
- a game decided by a forfeit: the opponent, the colour and ``+`` for who came, ``-`` for
  who did not (both ``-`` in a double forfeit);
- a bye: ``0000 - U`` for the pairing-allocated bye worth a win, ``H`` for half a win,
  ``Z`` for nothing; ``F`` (a full point given outside the pairing) is read back as a win;
- a player not to be paired in the next round (an announced absence, a withdrawal):
  ``0000 - Z`` in that round's column, the standard's way to keep a player out of a pairing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from caissify_pairings.trf import parse_trf, write_trf

from ledger.formats.pairing.tiebreaks import Game


@dataclass
class TrfPlayer:
    id: int
    name: str
    rating: int = 0


@dataclass
class TrfTournament:
    """What a TRF file holds, as this module reads it back: players by starting number
    (their ``id`` is the number), the games by those numbers (results 1, ½, 0; byes with
    ``b`` None; forfeits marked), the planned rounds and who is kept out of which round."""

    name: str
    rounds: int
    players: list[TrfPlayer]
    games: list[Game]
    absent: dict[int, set[int]] = field(default_factory=dict)


#: The bye codes, by what part of a win the bye is worth (the pairing-allocated bye is U).
BYE_CODES = {1.0: "U", 0.5: "H", 0.0: "Z"}
#: What each bye code is worth, read back (F: a full point given outside the pairing).
BYE_WORTH = {"U": 1.0, "F": 1.0, "H": 0.5, "Z": 0.0}


def _code(points: float, forfeit: bool) -> str:
    if forfeit:
        return "+" if points >= 1 else "-"
    return "1" if points == 1 else "0" if points == 0 else "="


def export(
    name: str,
    players: list[TrfPlayer],
    games: list[Game],
    rounds: int,
    absent: Mapping[int, Iterable[int]] | None = None,
) -> str:
    """The TRF16 text of a Swiss: ``games`` with results as parts of a win (1, ½, 0),
    ``rounds`` the planned number (XXR), ``absent`` the players kept out of a round not
    played yet (round -> player ids)."""
    number = {p.id: i for i, p in enumerate(players, start=1)}
    results: dict[int, dict[int, dict[str, object]]] = {p.id: {} for p in players}
    scores = {p.id: 0.0 for p in players}
    last = rounds
    for g in games:
        last = max(last, g.round)
        if g.b is None:
            code = BYE_CODES.get(g.score_a, "U" if g.score_a > 0.5 else "H" if g.score_a else "Z")
            results[g.a][g.round] = {"opponent": None, "result": code}
            scores[g.a] += g.score_a
            continue
        results[g.a][g.round] = {
            "opponent": number[g.b],
            "color": "w",
            "result": _code(g.score_a, g.forfeit),
        }
        results[g.b][g.round] = {
            "opponent": number[g.a],
            "color": "b",
            "result": _code(g.score_b, g.forfeit),
        }
        scores[g.a] += g.score_a
        scores[g.b] += g.score_b
    for rnd, kept_out in (absent or {}).items():
        last = max(last, rnd)
        for pid in kept_out:
            if pid in results and rnd not in results[pid]:
                results[pid][rnd] = {"opponent": None, "result": "Z"}
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
    return str(write_trf({"name": name, "system": "Individual: Swiss-System"}, rows, last)) + "\n"


def parse(text: str, played: int | None = None) -> TrfTournament:
    """A TRF16 text read back. A ``Z`` bye in a round after ``played`` (the rounds with
    results; by default the last round in which anyone met an opponent) is a player kept out
    of that round's pairing, not a bye given."""
    read = parse_trf(text)
    info = read["tournament"]
    players = [
        TrfPlayer(int(p["starting_number"]), str(p["name"]), int(p["rating"] or 0))
        for p in read["players"]
    ]
    if played is None:
        played = max(
            (
                rnd
                for p in read["players"]
                for rnd, r in p["results"].items()
                if r.get("opponent") is not None or r.get("result") in ("U", "F", "H")
            ),
            default=0,
        )
    games: list[Game] = []
    absent: dict[int, set[int]] = {}
    for p in read["players"]:
        me = int(p["starting_number"])
        for rnd, r in sorted(p["results"].items()):
            code = str(r.get("result") or "")
            other = r.get("opponent")
            if other is None:
                if rnd > played and code in ("Z", "H", "F", "-"):
                    absent.setdefault(int(rnd), set()).add(me)
                elif code in BYE_WORTH:
                    games.append(Game(int(rnd), me, None, BYE_WORTH[code]))
                continue
            if r.get("color") != "w":
                continue  # each game once: from its white player's line (seat 0)
            theirs: dict[str, object] = next(
                (
                    q["results"].get(rnd, {})
                    for q in read["players"]
                    if int(q["starting_number"]) == int(other)
                ),
                {},
            )
            mine_code, their_code = code, str(theirs.get("result") or "")
            forfeit = mine_code in ("+", "-") or their_code in ("+", "-")
            games.append(
                Game(
                    int(rnd),
                    me,
                    int(other),
                    _points(mine_code),
                    _points(their_code),
                    forfeit,
                )
            )
    games.sort(key=lambda g: (g.round, g.a, -1 if g.b is None else g.b))
    return TrfTournament(
        str(info.get("name", "")), int(info.get("total_rounds") or 0), players, games, absent
    )


def _points(code: str) -> float:
    return {"1": 1.0, "+": 1.0, "=": 0.5}.get(code, 0.0)
