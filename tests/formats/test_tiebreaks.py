"""Buchholz, median Buchholz and Sonneborn-Berger, with a virtual opponent for byes."""

from __future__ import annotations

from caissify_pairings.trf import parse_trf

from ledger.formats.pairing import tiebreaks, trf
from ledger.formats.pairing.tiebreaks import Game


def test_buchholz_sums_the_opponents_scores() -> None:
    games = [Game(1, 1, 2, 1, 0), Game(1, 3, 4, 0.5, 0.5), Game(2, 1, 3, 1, 0), Game(2, 2, 4, 0, 1)]
    lines = tiebreaks.table(games, [1, 2, 3, 4], rounds=2)
    assert lines[1].score == 2
    assert lines[1].buchholz == lines[2].score + lines[3].score == 0.5
    assert lines[1].sonneborn_berger == 0 + 0.5
    assert lines[4].sonneborn_berger == 0.5 * 0.5 + 1 * 0


def test_a_bye_counts_against_a_virtual_opponent() -> None:
    # Player 1 has the bye in round 1 of 3: before it 0, the bye gives 1, so the virtual
    # opponent has 0 + (1 - 1) + 0.5 * (3 - 1) = 1.
    games = [Game(1, 1, None, 1), Game(2, 1, 2, 0, 1), Game(3, 1, 3, 1, 0)]
    lines = tiebreaks.table(games, [1, 2, 3], rounds=3)
    assert lines[1].buchholz == 1 + lines[2].score + lines[3].score
    assert lines[1].sonneborn_berger == 1 * 1 + lines[3].score


def test_median_buchholz_drops_the_best_and_worst_opponent() -> None:
    games = [Game(1, 1, 2, 1, 0), Game(2, 1, 3, 1, 0), Game(3, 1, 4, 1, 0), Game(3, 2, 3, 1, 0)]
    lines = tiebreaks.table([*games, Game(2, 2, 4, 1, 0)], [1, 2, 3, 4], rounds=3)
    scores = sorted([lines[2].score, lines[3].score, lines[4].score])
    assert lines[1].median_buchholz == scores[1]


def test_trf_export_round_trips_through_the_library_parser() -> None:
    players = [trf.TrfPlayer(1, "Anna"), trf.TrfPlayer(2, "Bruno"), trf.TrfPlayer(3, "Carla")]
    games = [Game(1, 1, 2, 1, 0), Game(1, 3, None, 1)]
    text = trf.export("Coppa", players, games, rounds=1)
    parsed = parse_trf(text)
    by_name = {p["name"]: p for p in parsed["players"]}
    assert by_name["Anna"]["score"] == 1.0
    assert by_name["Anna"]["results"][1]["opponent"] == 2
    assert by_name["Carla"]["results"][1]["opponent"] is None
