"""Formats against the database: drafting, adjusting, publishing, results and tiebreaks."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from caissify_pairings.trf import parse_trf

from ledger.clubs.errors import Conflict, Invalid, NotAllowed
from ledger.clubs.models import Seat, Table
from ledger.clubs.results import services as core
from ledger.formats import selectors, services
from ledger.formats.models import Bye, Draw, KnockoutMatch
from ledger.formats.pairing.swiss import key
from tests.formats.conftest import enter, make_competition

pytestmark = pytest.mark.django_db


def organiser(people: Any) -> Any:
    return people.users["organiser"]


def play_round(people: Any, competition: Any, winner_first: bool = True) -> Draw:
    draw = services.generate_round(user=organiser(people), competition=competition)
    services.publish_draw(user=organiser(people), draw=draw)
    for table in Table.objects.filter(round=draw.round):
        core.record_result(
            user=people.users["scorekeeper"],
            table=table,
            source="manual",
            scores=[3, 1] if winner_first else [1, 3],
        )
    return draw


def test_a_member_cannot_draft_a_round(club: Any, people: Any) -> None:
    comp = make_competition(club, "league", "tarocco")
    enter(people, comp, 8)
    with pytest.raises(NotAllowed):
        services.generate_round(user=people.users["member"], competition=comp)


def test_league_night_seats_tarocco_players_at_tables_of_four(club: Any, people: Any) -> None:
    comp = make_competition(club, "league", "tarocco")
    enter(people, comp, 9)
    draw = services.generate_round(user=organiser(people), competition=comp)
    assert [len(t["players"]) for t in draw.tables] == [4, 4]
    assert len(draw.sitting_out) == 1
    services.publish_draw(user=organiser(people), draw=draw)
    assert Table.objects.filter(round=draw.round).count() == 2
    assert Seat.objects.filter(table__round=draw.round).count() == 8
    # The one who sat out plays next time.
    second = services.generate_round(user=organiser(people), competition=comp)
    assert draw.sitting_out[0] in {p for t in second.tables for p in t["players"]}


def test_league_nights_spread_meetings_evenly_for_sixteen(club: Any, people: Any) -> None:
    comp = make_competition(club, "league", "tarocco")
    players = enter(people, comp, 16)
    for _ in range(5):
        draw = services.generate_round(user=organiser(people), competition=comp)
        services.publish_draw(user=organiser(people), draw=draw)
    met = selectors.history(comp).met
    ids = [p.pk for p in players]
    assert all(met[key(a, b)] == 1 for i, a in enumerate(ids) for b in ids[i + 1 :])


def test_swiss_gives_the_bye_and_never_repeats(club: Any, people: Any, points_game: str) -> None:
    comp = make_competition(club, "swiss")
    services.update_settings(user=organiser(people), competition=comp, rounds=5)
    enter(people, comp, 7)
    seen: set[tuple[int, int]] = set()
    bye_holders = []
    for _ in range(5):
        draw = play_round(people, comp)
        assert len(draw.byes) == 1
        bye_holders.append(draw.byes[0])
        for t in draw.tables:
            pair = key(*t["players"])
            assert pair not in seen
            seen.add(pair)
    assert len(set(bye_holders)) == 5
    assert Bye.objects.filter(competition=comp).count() == 5
    rows = selectors.swiss_standings(comp)
    assert sum(r["score"] for r in rows) == pytest.approx(5 * 3 + 5)
    assert all(r["buchholz"] >= r["median_buchholz"] for r in rows)


def test_swiss_standings_use_match_points_and_tiebreaks(
    club: Any, people: Any, points_game: str
) -> None:
    comp = make_competition(club, "swiss")
    enter(people, comp, 4)
    play_round(people, comp)
    play_round(people, comp)
    rows = selectors.swiss_standings(comp)
    assert rows[0]["score"] == 2 or rows[0]["score"] == 1.5 or rows[0]["score"] == 1
    # Ranked on the criteria in order; rows equal on every one share the place (1, 2, 2, 4).
    criteria = [
        (r["score"], r["buchholz"], r["median_buchholz"], r["sonneborn_berger"]) for r in rows
    ]
    assert criteria == sorted(criteria, reverse=True)
    assert [r["rank"] for r in rows] == [1 + sum(c > mine for c in criteria) for mine in criteria]


def test_trf_export_lists_every_round(club: Any, people: Any, points_game: str) -> None:
    comp = make_competition(club, "swiss")
    enter(people, comp, 5)
    play_round(people, comp)
    play_round(people, comp)
    parsed = parse_trf(selectors.trf_export(comp))
    assert len(parsed["players"]) == 5
    assert all(len(p["results"]) == 2 for p in parsed["players"])


def test_adjusting_by_hand_warns_about_a_repeat(club: Any, people: Any, points_game: str) -> None:
    comp = make_competition(club, "swiss")
    enter(people, comp, 4)
    first = play_round(people, comp)
    draft = services.generate_round(user=organiser(people), competition=comp)
    old_pairs = [t["players"] for t in first.tables]
    warnings = services.adjust_draw(user=organiser(people), draw=draft, tables=old_pairs)
    assert {w.code for w in warnings} >= {"repeat"}


def test_adjusting_refuses_a_player_seated_twice(club: Any, people: Any) -> None:
    comp = make_competition(club, "league", "sanmarco")
    players = enter(people, comp, 4)
    draft = services.generate_round(user=organiser(people), competition=comp)
    a, b, c, _d = (p.pk for p in players)
    with pytest.raises(Invalid):
        services.adjust_draw(user=organiser(people), draw=draft, tables=[[a, b], [c, a]])
    with pytest.raises(Invalid):
        services.adjust_draw(user=organiser(people), draw=draft, tables=[[a], [b, c]])


def test_a_published_round_cannot_be_changed(club: Any, people: Any) -> None:
    comp = make_competition(club, "league", "sanmarco")
    enter(people, comp, 4)
    draw = services.generate_round(user=organiser(people), competition=comp)
    services.publish_draw(user=organiser(people), draw=draw)
    with pytest.raises(Conflict):
        services.swap_players(
            user=organiser(people),
            draw=draw,
            first=draw.tables[0]["players"][0],
            second=draw.tables[1]["players"][0],
        )


def test_withdrawals_late_entries_and_absences_change_who_is_paired(
    club: Any, people: Any, points_game: str
) -> None:
    comp = make_competition(club, "swiss")
    players = enter(people, comp, 6)
    play_round(people, comp)
    services.withdraw_player(user=organiser(people), competition=comp, player=players[0])
    services.mark_absent(
        user=organiser(people), competition=comp, round_number=2, player=players[1]
    )
    late = people.players["member"]
    services.enter_player(user=organiser(people), competition=comp, player=late)
    draft = services.generate_round(user=organiser(people), competition=comp)
    seated = {p for t in draft.tables for p in t["players"]} | set(draft.byes)
    assert players[0].pk not in seated
    assert players[1].pk not in seated
    assert late.pk in seated
    assert len(seated) == 5


def test_hard_forbidden_pairs_are_kept_apart(club: Any, people: Any) -> None:
    comp = make_competition(club, "swiss", "sanmarco")
    players = enter(people, comp, 4)
    services.forbid_pair(
        user=organiser(people), competition=comp, first=players[0], second=players[2], hard=True
    )
    draft = services.generate_round(user=organiser(people), competition=comp)
    assert [players[0].pk, players[2].pk] not in [sorted(t["players"]) for t in draft.tables]


def test_round_robin_meets_everyone_once(club: Any, people: Any) -> None:
    comp = make_competition(club, "round_robin", "sanmarco")
    players = enter(people, comp, 5)
    met: Counter[tuple[int, int]] = Counter()
    for _ in range(5):
        draw = services.generate_round(user=organiser(people), competition=comp)
        services.publish_draw(user=organiser(people), draw=draw)
        assert len(draw.sitting_out) == 1
        for t in draw.tables:
            met[key(*t["players"])] += 1
    ids = [p.pk for p in players]
    assert all(met[key(a, b)] == 1 for i, a in enumerate(ids) for b in ids[i + 1 :])
    with pytest.raises(Conflict):
        services.generate_round(user=organiser(people), competition=comp)


def test_knockout_seeds_byes_and_advances_winners(club: Any, people: Any, points_game: str) -> None:
    comp = make_competition(club, "knockout")
    players = enter(people, comp, 5)
    first = play_round(people, comp)
    assert len(first.byes) == 3  # 8-slot bracket: the top three seeds pass
    assert players[0].pk in first.byes
    second = play_round(people, comp)
    assert len(second.tables) == 2
    third = play_round(people, comp)
    assert len(third.tables) == 1
    final = KnockoutMatch.objects.get(competition=comp, stage=3)
    assert selectors.match_winner(comp, final) == third.tables[0]["players"][0]
    with pytest.raises(Conflict):
        services.generate_round(user=organiser(people), competition=comp)


def test_team_event_seats_sides_on_alternate_seats(club: Any, people: Any) -> None:
    comp = make_competition(club, "team", "ergio")
    players = enter(people, comp, 8)
    for i in range(4):
        services.create_team(
            user=organiser(people),
            competition=comp,
            name=f"Squadra {i}",
            members=players[2 * i : 2 * i + 2],
        )
    draw = services.generate_round(user=organiser(people), competition=comp)
    assert len(draw.tables) == 2
    team_of = {p.pk: i // 2 for i, p in enumerate(players)}
    for t in draw.tables:
        seats = t["players"]
        assert team_of[seats[0]] == team_of[seats[2]] != team_of[seats[1]] == team_of[seats[3]]
    services.publish_draw(user=organiser(people), draw=draw)


def test_settings_refuse_a_table_size_the_game_does_not_have(club: Any, people: Any) -> None:
    comp = make_competition(club, "league", "tarocco")
    with pytest.raises(Invalid):
        services.update_settings(user=organiser(people), competition=comp, seats_per_table=3)
    fs = services.update_settings(user=organiser(people), competition=comp, hands_per_table=8)
    assert fs.hands_per_table == 8


def test_the_exact_dutch_limit_is_200_by_default_and_cannot_go_beyond(
    club: Any, people: Any
) -> None:
    comp = make_competition(club, "swiss")
    assert selectors.settings_for(comp).exact_limit == 200
    with pytest.raises(Invalid) as refused:
        services.update_settings(user=organiser(people), competition=comp, exact_limit=201)
    assert "exact_limit" in refused.value.fields
    assert selectors.settings_for(comp).exact_limit == 200
    fs = services.update_settings(user=organiser(people), competition=comp, exact_limit=120)
    assert fs.exact_limit == 120


def test_team_standings_list_teams(club: Any, people: Any) -> None:
    comp = make_competition(club, "team", "ergio")
    players = enter(people, comp, 4)
    for i in range(2):
        services.create_team(
            user=organiser(people),
            competition=comp,
            name=f"Squadra {i}",
            members=players[2 * i : 2 * i + 2],
        )
    assert sorted(r["name"] for r in selectors.swiss_standings(comp)) == ["Squadra 0", "Squadra 1"]
