"""A forfeit is recorded as what it is, in every format: through the ledger's one write path
(the journal credits it as its Outcome says), a win for who came and a loss for who did not
(a double forfeit: a loss for all), with the competition's points for a win and a loss, and
never a game played: no meeting and no side for a Swiss's next pairing."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.test import Client

from ledger.clubs.errors import Conflict, Invalid, LedgerError
from ledger.clubs.models import Competition, Entry, Result, Standing, Table
from ledger.clubs.projections.projections import rebuild_standings
from ledger.clubs.results import services as core
from ledger.formats import selectors, services
from ledger.formats.models import KnockoutMatch
from ledger.formats.pairing.swiss import key
from tests.formats.conftest import enter, make_competition

pytestmark = pytest.mark.django_db


def _round(people: Any, comp: Competition) -> list[Table]:
    draw = services.generate_round(user=people.users["organiser"], competition=comp)
    services.publish_draw(user=people.users["organiser"], draw=draw)
    return list(
        Table.objects.filter(round=draw.round).prefetch_related("seats").order_by("label", "id")
    )


def _play_rest(people: Any, tables: list[Table]) -> None:
    """The other tables play: the first seat wins."""
    for table in tables:
        n = table.seats.count()
        core.record_result(
            user=people.users["scorekeeper"],
            table=table,
            source="manual",
            scores=[3] + [1] * (n - 1),
        )


def _seated(table: Table) -> list[int]:
    return [s.player_id for s in table.seats.order_by("index")]


def _forfeit(people: Any, table: Table, seats: list[int], reason: str = "Assente") -> Result:
    return services.record_forfeit(
        user=people.users["referee"], table=table, forfeited=seats, reason=reason
    )


@pytest.fixture
def swiss_round(club: Any, people: Any, points_game: str) -> tuple[Competition, list[Table]]:
    """A Swiss of four players of Punti, its first round drawn and published: two tables,
    neither played yet."""
    comp = make_competition(club, "swiss")
    enter(people, comp, 4)
    return comp, _round(people, comp)


@pytest.mark.parametrize(
    ("fmt", "players", "seats"),
    [
        ("league", 6, 2),
        ("league", 8, 4),  # a league night at tables of four
        ("round_robin", 4, 2),
        ("swiss", 6, 2),
        ("swiss", 8, 4),  # a Swiss seated in groups (Tarocco's)
        ("knockout", 4, 2),
        ("team", 8, 4),  # four teams of two: a side forfeits with its seat
    ],
)
def test_a_forfeit_is_a_win_for_who_came_in_every_formats_standings(
    club: Any, people: Any, points_game: str, fmt: str, players: int, seats: int
) -> None:
    comp = make_competition(club, fmt)
    entered = enter(people, comp, players)
    if fmt == "team":
        for t in range(players // 2):
            services.create_team(
                user=people.users["organiser"],
                competition=comp,
                name=f"Squadra {t + 1}",
                members=entered[2 * t : 2 * t + 2],
            )
    elif seats != 2 or fmt == "league":
        services.update_settings(
            user=people.users["organiser"], competition=comp, seats_per_table=seats
        )
    # The competition's points: 3 for a win, 1 for a draw, 0 for a loss, ranked by them.
    comp = core.update_standings_settings(
        user=people.users["organiser"],
        competition=comp,
        settings={"win": "3", "draw": "1", "loss": "0", "order": ["match_points", "points"]},
    )
    tables = _round(people, comp)
    first, rest = tables[0], tables[1:]
    seated = _seated(first)
    result = _forfeit(people, first, [1])
    _play_rest(people, rest)

    # The one write path: accepted at once, its Outcome the stored truth, journaled.
    assert result.status == Result.Status.ACCEPTED and result.source == "forfeit"
    assert result.scores == ["0"] * len(seated)
    assert result.verdict["outcome"]["termination"] == "forfeit"
    lost = [1, 3] if fmt == "team" else [1]
    assert result.record == {"forfeited": lost, "reason": "Assente"}
    lines = Entry.objects.filter(result=result)
    assert sorted(e.seat for e in lines) == list(range(len(seated)))
    assert all(e.points == 0 for e in lines)

    rows = {r["player"]: r for r in selectors.standings_for(comp)}
    if fmt == "team":
        # Seat 1's side (the odd seats) forfeits whole; the team is ranked as its lead.
        came, gone = seated[0], seated[1]
        assert rows[came]["forfeit_wins"] == 1 and rows[came]["played"] == 0
        assert rows[gone]["forfeit_losses"] == 1 and rows[gone]["score"] == 0
        return
    gone = seated[1]
    came = [p for i, p in enumerate(seated) if i != 1]
    if fmt == "knockout":
        assert rows[gone]["out"] and not rows[came[0]]["out"]
        [match] = KnockoutMatch.objects.filter(competition=comp, tables=first)
        cell = next(
            c for c in selectors.bracket_view(comp)[0]["matches"] if c.get("match") == match.pk
        )
        assert (cell["forfeit"]["player"], cell["forfeit"]["reason"]) == (gone, "Assente")
        assert [s["won"] for s in cell["sides"]] == [s["player"] == came[0] for s in cell["sides"]]
        return
    if selectors.has_swiss_table(comp):
        scale, _bye = selectors.swiss_scale(comp)
        assert (scale.win, scale.loss) == (3, 0)
        assert rows[came[0]]["score"] == 3 and rows[gone]["score"] == 0
        assert (rows[came[0]]["forfeit_wins"], rows[came[0]]["played"]) == (1, 0)
        assert (rows[gone]["forfeit_losses"], rows[gone]["played"]) == (1, 0)
    else:
        for p in came:
            assert (rows[p]["wins"], rows[p]["losses"]) == (1, 0)
            assert Decimal(rows[p]["match_points"]) == 3
        assert (rows[gone]["wins"], rows[gone]["losses"]) == (0, 1)
        assert Decimal(rows[gone]["match_points"]) == 0
    # The round page says it as it is, with the reason.
    view = selectors.round_view(comp, 1)
    assert view is not None
    shown = next(t for t in view["tables"] if t["id"] == first.pk)
    assert shown["forfeit"]["reason"] == "Assente" and not shown["drawn"]
    names = [s.player.name for s in first.seats.order_by("index")]
    assert shown["winners"] == [n for i, n in enumerate(names) if i != 1]


def test_a_forfeit_is_no_game_met_nor_side_played_for_the_swiss(
    club: Any, people: Any, points_game: str
) -> None:
    comp = make_competition(club, "swiss")
    enter(people, comp, 6)
    services.update_settings(user=people.users["organiser"], competition=comp, rounds=3)
    tables = _round(people, comp)
    a, b = _seated(tables[0])
    _forfeit(people, tables[0], [1])
    _play_rest(people, tables[1:])
    h = selectors.history(comp)
    assert key(a, b) not in h.met
    assert h.sides.get(a, []) == [] and h.sides.get(b, []) == []
    assert (a, 1) not in h.opponents_by_round
    # The winner floats down as for a point won without a game; the scores count it.
    players = {p.id: p for p in services._swiss_players([(a, 1, 0), (b, 2, 0)], h, 2)}
    assert players[a].score == 1.0 and players[b].score == 0.0
    assert players[a].sides == [] and players[a].floats == ["down"]
    # In the tiebreaks, each is scored against a virtual opponent, not the other.
    line = {r["player"]: r for r in selectors.swiss_standings(comp)}
    # Virtual opponent: 0 before the round, the loss side of a win (0), no later round.
    assert line[a]["buchholz"] == pytest.approx(0.0)


def test_a_double_forfeit_is_a_loss_for_both(
    people: Any, swiss_round: tuple[Competition, list[Table]]
) -> None:
    comp, tables = swiss_round
    a, b = _seated(tables[0])
    result = _forfeit(people, tables[0], [0, 1], reason="Nessuno dei due")
    _play_rest(people, tables[1:])
    assert result.verdict["outcome"]["winners"] == []
    rows = {r["player"]: r for r in selectors.swiss_standings(comp)}
    assert rows[a]["score"] == rows[b]["score"] == 0
    assert rows[a]["forfeit_losses"] == rows[b]["forfeit_losses"] == 1
    journal = {s.player_id: s for s in Standing.objects.filter(competition=comp)}
    assert (journal[a].wins, journal[a].draws, journal[a].losses) == (0, 0, 1)
    assert (journal[b].wins, journal[b].draws, journal[b].losses) == (0, 0, 1)


def test_the_standings_rebuilt_from_the_journal_count_a_forfeit_alike(
    club: Any, people: Any, points_game: str
) -> None:
    comp = make_competition(club, "league")
    enter(people, comp, 4)
    tables = _round(people, comp)
    _forfeit(people, tables[0], [0])
    _play_rest(people, tables[1:])
    columns = ("player_id", "wins", "losses", "played")
    before = sorted(Standing.objects.filter(competition=comp).values_list(*columns))
    rebuild_standings(comp)
    after = sorted(Standing.objects.filter(competition=comp).values_list(*columns))
    assert before == after


def test_voiding_a_forfeit_leaves_the_table_as_never_decided(
    people: Any, swiss_round: tuple[Competition, list[Table]]
) -> None:
    comp, tables = swiss_round
    a, b = _seated(tables[0])
    result = _forfeit(people, tables[0], [1])
    core.void_result(user=people.users["referee"], result=result, reason="Errore")
    rows = {r["player"]: r for r in selectors.swiss_standings(comp)}
    assert rows[a]["score"] == 0 and rows[a]["forfeit_wins"] == 0
    # The table may now be played, or forfeited again.
    core.record_result(
        user=people.users["scorekeeper"], table=tables[0], source="manual", scores=[1, 3]
    )
    rows = {r["player"]: r for r in selectors.swiss_standings(comp)}
    assert rows[b]["wins"] == 1 and rows[b]["played"] == 1


def test_only_a_referee_records_a_forfeit_with_a_reason_at_a_table_not_played(
    people: Any, swiss_round: tuple[Competition, list[Table]]
) -> None:
    _comp, tables = swiss_round
    with pytest.raises(LedgerError):
        services.record_forfeit(
            user=people.users["scorekeeper"], table=tables[0], forfeited=[1], reason="x"
        )
    with pytest.raises(Invalid) as blank:
        _forfeit(people, tables[0], [1], reason="  ")
    assert "reason" in blank.value.fields
    with pytest.raises(Invalid) as nobody:
        _forfeit(people, tables[0], [])
    assert "forfeited" in nobody.value.fields
    with pytest.raises(Invalid):
        _forfeit(people, tables[0], [5])
    _play_rest(people, tables[:1])
    with pytest.raises(Conflict):
        _forfeit(people, tables[0], [1])
    assert not Result.objects.filter(source="forfeit").exists()


def test_the_api_refuses_a_forfeit_sent_as_a_result(
    club: Any, people: Any, points_game: str
) -> None:
    comp = make_competition(club, "league")
    enter(people, comp, 2)
    [table] = _round(people, comp)
    answer = people.client("referee").post(
        "/api/v1/results/",
        {"table": table.pk, "source": "forfeit", "record": {"forfeited": [1]}},
        format="json",
    )
    assert answer.status_code == 400
    assert "source" in answer.json()["error"]["fields"]
    assert not Result.objects.exists()


def test_a_knockout_forfeit_sends_the_other_player_through_and_refuses_a_double(
    club: Any, people: Any, points_game: str
) -> None:
    comp = make_competition(club, "knockout")
    enter(people, comp, 4)
    tables = _round(people, comp)
    with pytest.raises(Invalid):
        _forfeit(people, tables[0], [0, 1])
    _forfeit(people, tables[0], [0], reason="Ritardo di 30 minuti")
    _play_rest(people, tables[1:])
    final = _round(people, comp)
    assert _seated(tables[0])[1] in _seated(final[0])
    _forfeit(people, final[0], [1], reason="Malore")
    champion = selectors.champion(comp)
    assert champion is not None and champion["player"] == _seated(final[0])[0]
    assert selectors.progress(comp).concluded


def test_the_decide_page_records_a_forfeit_and_keeps_what_was_typed_when_refused(
    club: Any, people: Any, swiss_round: tuple[Competition, list[Table]]
) -> None:
    comp, tables = swiss_round
    browser = Client(HTTP_ACCEPT_LANGUAGE="it")
    browser.force_login(people.users["referee"])
    url = f"/c/{club.slug}/{comp.slug}/t/{tables[0].pk}/decide/"
    page = browser.get(url)
    assert page.status_code == 200 and "Registra il forfait" in page.content.decode()
    refused = browser.post(url, {"reason": "Assente senza avviso"})
    body = refused.content.decode()
    assert refused.status_code == 400 and "Assente senza avviso" in body
    assert 'aria-invalid="true"' in body
    done = browser.post(url, {"forfeited": ["1"], "reason": "Assente senza avviso"})
    assert done.status_code == 302 and done["Location"].endswith("/rounds/1/")
    round_page = browser.get(done["Location"]).content.decode()
    assert "forfait" in round_page and "Assente senza avviso" in round_page
    stranger = Client()
    stranger.force_login(people.users["scorekeeper"])
    assert stranger.get(url).status_code == 403


def test_a_forfeits_own_page_says_who_did_not_play_and_why(
    club: Any, people: Any, swiss_round: tuple[Competition, list[Table]]
) -> None:
    comp, tables = swiss_round
    gone = tables[0].seats.get(index=1).player.name
    result = _forfeit(people, tables[0], [1], reason="Assente senza avviso")
    browser = Client(HTTP_ACCEPT_LANGUAGE="it")
    browser.force_login(people.users["referee"])
    page = browser.get(f"/c/{club.slug}/{comp.slug}/r/{result.pk}/")
    body = page.content.decode()
    assert page.status_code == 200
    assert "Forfait" in body and gone in body and "Assente senza avviso" in body
    entry = browser.get(f"/c/{club.slug}/{comp.slug}/t/{tables[0].pk}/score/")
    assert entry.status_code == 200 and "Forfait" in entry.content.decode()


def test_a_forfeit_is_corrected_into_the_game_that_was_played_after_all(
    club: Any, people: Any, swiss_round: tuple[Competition, list[Table]]
) -> None:
    comp, tables = swiss_round
    a, b = _seated(tables[0])
    result = _forfeit(people, tables[0], [1])
    browser = Client(HTTP_ACCEPT_LANGUAGE="it")
    browser.force_login(people.users["referee"])
    assert browser.get(f"/c/{club.slug}/{comp.slug}/r/{result.pk}/correct/").status_code == 200
    core.supersede_result(
        user=people.users["referee"],
        result=result,
        source="manual",
        record=None,
        scores=[1, 3],
        reason="Giocata in ritardo",
    )
    rows = {r["player"]: r for r in selectors.swiss_standings(comp)}
    assert (rows[b]["wins"], rows[b]["forfeit_wins"], rows[a]["forfeit_wins"]) == (1, 0, 0)
    assert key(a, b) in selectors.history(comp).met


def test_the_api_records_a_forfeit_for_a_referee_and_refuses_anyone_else(
    people: Any, swiss_round: tuple[Competition, list[Table]]
) -> None:
    comp, tables = swiss_round
    url = f"/api/v1/formats/competitions/{comp.pk}/tables/{tables[0].pk}/forfeit/"
    body = {"forfeited": [0], "reason": "Assente"}
    refused = people.client("scorekeeper").post(url, body, format="json")
    assert refused.status_code == 403
    blank = people.client("referee").post(url, {"forfeited": [0]}, format="json")
    assert blank.status_code == 400 and "reason" in blank.json()["error"]["fields"]
    done = people.client("referee").post(url, body, format="json")
    assert done.status_code == 201, done.json()
    assert (done.json()["forfeited"], done.json()["winners"]) == ([0], [1])
    again = people.client("referee").post(url, body, format="json")
    assert again.status_code == 409
