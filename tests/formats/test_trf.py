"""The TRF export is a file a standard pairing program accepts: ``XXR`` is the planned
number of rounds, forfeits and byes carry the standard's codes, and who is kept out of the
next round (an absence, a withdrawal) is marked there. Read back, it is the same tournament."""

from __future__ import annotations

from typing import Any

import pytest
from caissify_pairings import fpc
from caissify_pairings.engines.dutch import DutchEngine
from caissify_pairings.fpc import check_trf
from caissify_pairings.trf import parse_trf

from ledger.clubs.models import Table
from ledger.clubs.results import services as core
from ledger.formats import selectors, services
from ledger.formats.pairing import trf
from ledger.formats.pairing.tiebreaks import Game
from tests.formats.conftest import enter, make_competition

pytestmark = pytest.mark.django_db


def _swiss_with_a_forfeit_a_bye_and_a_withdrawal(people: Any, club: Any) -> tuple[Any, list[Any]]:
    """Nine players, five rounds planned, two played: in round 1 the first table is
    forfeited by its second seat, the others play (first seat wins, one draw); round 2 is
    played; then the last entrant withdraws and the first announces an absence for round 3."""
    organiser = people.users["organiser"]
    comp = make_competition(club, "swiss")
    players = enter(people, comp, 9)
    services.update_settings(user=organiser, competition=comp, rounds=5)
    for number in (1, 2):
        draw = services.generate_round(user=organiser, competition=comp)
        services.publish_draw(user=organiser, draw=draw)
        assert len(draw.byes) == 1
        for i, table in enumerate(Table.objects.filter(round=draw.round).order_by("id")):
            if number == 1 and i == 0:
                services.record_forfeit(
                    user=people.users["referee"], table=table, forfeited=[1], reason="Assente"
                )
                continue
            core.record_result(
                user=people.users["scorekeeper"],
                table=table,
                source="manual",
                scores=[2, 2] if i == 1 else [3, 1],
            )
    services.withdraw_player(user=organiser, competition=comp, player=players[-1])
    services.mark_absent(user=organiser, competition=comp, round_number=3, player=players[0])
    return comp, players


def test_the_exported_trf_plans_its_rounds_marks_forfeits_byes_and_who_sits_out(
    club: Any, people: Any, points_game: str
) -> None:
    comp, _players = _swiss_with_a_forfeit_a_bye_and_a_withdrawal(people, club)
    text = selectors.trf_export(comp)
    assert "XXR 5" in text.splitlines()
    lines = {int(line[4:8]): line for line in text.splitlines() if line.startswith("001")}
    blocks = {n: [line[91 + 10 * r : 101 + 10 * r] for r in range(5)] for n, line in lines.items()}
    codes = [b[0].split()[-1] for b in blocks.values()]
    assert sorted(c for c in codes if c in "+-") == ["+", "-"]
    assert codes.count("U") == 1  # round 1's bye, worth a win: the pairing-allocated bye
    # Round 3 (not drawn yet): the absent player and the withdrawn one are kept out.
    first, last = 1, 9
    assert blocks[first][2].strip() == "0000 - Z" and blocks[last][2].strip() == "0000 - Z"
    assert all(not b[2].strip() for n, b in blocks.items() if n not in (first, last))
    assert all(not b[3].strip() and not b[4].strip() for b in blocks.values())


def test_the_exported_trf_reads_back_as_the_same_tournament(
    club: Any, people: Any, points_game: str
) -> None:
    comp, players = _swiss_with_a_forfeit_a_bye_and_a_withdrawal(people, club)
    read = trf.parse(selectors.trf_export(comp))
    number = {p.pk: i for i, p in enumerate(players, start=1)}
    assert read.rounds == 5 and read.name == comp.name
    assert [(p.id, p.name) for p in read.players] == [(number[p.pk], p.name) for p in players]
    h = selectors.history(comp)
    scale, bye = selectors.swiss_scale(comp)
    expected = sorted(
        (
            Game(g.round, number[g.a], None, scale.share(bye))
            if g.b is None
            else Game(g.round, number[g.a], number[g.b], g.score_a, g.score_b, g.forfeit)
            for g in h.games
        ),
        key=lambda g: (g.round, g.a, -1 if g.b is None else g.b),
    )
    assert read.games == expected
    assert sum(g.forfeit for g in read.games) == 1
    assert read.absent == {3: {number[players[0].pk], number[players[-1].pk]}}
    # And once more: what was read writes the same file.
    again = trf.export(read.name, read.players, read.games, read.rounds, read.absent)
    assert again == selectors.trf_export(comp)


def test_the_exported_trf_with_a_forfeit_passes_the_libraries_checker(
    club: Any, people: Any, points_game: str
) -> None:
    comp, _players = _swiss_with_a_forfeit_a_bye_and_a_withdrawal(people, club)
    report = check_trf(selectors.trf_export(comp))
    assert report["summary"]["total_discrepancies"] == 0, report["rounds"]
    # Rounds 1 and 2 re-paired from the file as played; round 3 holds only the two kept out.
    assert [r["round"] for r in report["rounds"]] == [1, 2, 3]
    assert report["rounds"][2]["trf_pairings"] == [
        {"white": 1, "black": None, "bye": True},
        {"white": 9, "black": None, "bye": True},
    ]


def test_a_pairing_program_pairs_the_next_round_from_the_file_as_the_draw_does(
    club: Any, people: Any, points_game: str
) -> None:
    """The library's FIDE Dutch engine reads the file (absences, withdrawal, the forfeit as
    an unplayed game) and pairs round 3: the same pairs and bye as our own draw."""
    comp, players = _swiss_with_a_forfeit_a_bye_and_a_withdrawal(people, club)
    text = selectors.trf_export(comp)
    read = parse_trf(text)
    player_map = {p["starting_number"]: p for p in read["players"]}
    # The checker's helpers take a round's players from that round's column; a pairing
    # program pairs everyone the column does not keep out, so those get a mark that only
    # says "present" (a round's own results are never read for its pairing).
    for p in player_map.values():
        p["results"].setdefault(3, {"opponent": None, "result": "U"})
    engine = DutchEngine(
        players=fpc._build_engine_players(player_map, 3),
        previous_pairings=fpc._build_previous_pairings(player_map, 3),
        round_number=3,
        total_rounds=5,
        initial_color=fpc._infer_initial_color(player_map),
    )
    theirs = {
        frozenset(p for p in (pair["white"], pair.get("black")) if p)
        for pair in fpc._normalise_engine_output(engine.generate_pairings())
    }
    number = {p.pk: i for i, p in enumerate(players, start=1)}
    draft = services.generate_round(user=people.users["organiser"], competition=comp)
    ours = {frozenset(number[p] for p in t["players"]) for t in draft.tables} | {
        frozenset([number[p]]) for p in draft.byes
    }
    assert not any({1, 9} & pair for pair in theirs)
    assert theirs == ours
