"""Stages of an event: who advances from the earlier stage's final standings (or a season's
table), with which seeds, and the one write that enters exactly the players the preview
showed, once the earlier stage is over."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.test import Client

from ledger.clubs.errors import Conflict, Invalid
from ledger.clubs.models import (
    Competition,
    Entry,
    Membership,
    Penalty,
    Player,
    RatingChange,
    Round,
)
from ledger.clubs.projections.projections import rebuild_standings
from ledger.clubs.results import penalties
from ledger.clubs.results import services as core
from ledger.clubs.results.selectors import for_player, zero_sum_check
from ledger.formats import selectors, services, stages
from ledger.formats.models import Advanced, Championship, Entrant, Stage
from tests.formats.season_fixture import make_season

pytestmark = pytest.mark.django_db


def night_of(club: Any, user: Any, slug: str, scores: dict[str, int]) -> Competition:
    """A league competition with one table whose players score as given (names made members
    when new)."""
    comp = Competition.objects.create(club=club, name=slug.title(), slug=slug, game="punti")
    players = []
    for name in scores:
        player = Player.objects.filter(name=name).first()
        if player is None:
            player = Player.objects.create(name=name)
            Membership.objects.create(club=club, player=player)
        players.append(player)
    rnd = Round.objects.create(competition=comp, number=1)
    for start in range(0, len(players), 6):
        group = players[start : start + 6]
        table = core.create_table(
            user=user, competition=comp, label=f"T{start}", players=group, round=rnd
        )
        core.record_result(
            user=user, table=table, source="manual", scores=[scores[p.name] for p in group]
        )
    return comp


def test_league_nights_send_the_seasons_top_four_to_a_final_table(
    club: Any, people: Any, points_game: str
) -> None:
    boss = people.users["organiser"]
    season, _results = make_season(club, boss)
    Championship.objects.create(
        season=season, game="punti", place_points=["10", "8", "6", "5", "4", "3"], best_of=4
    )
    final = Competition.objects.create(club=club, name="Finale", slug="finale", game="punti")
    stage = stages.make_stage(
        user=boss,
        competition=final,
        sources=[],
        season=season,
        rule=Stage.Rule.TOP,
        count=4,
        threshold=None,
        carry_over=True,
    )
    preview = stages.candidates(stage)
    assert [(c.seed, c.name, c.place, c.carried) for c in preview] == [
        (1, "Anna", 1, Decimal(34)),
        (2, "Bruno", 2, Decimal(32)),
        (3, "Carla", 3, Decimal(30)),
        (4, "Dario", 4, Decimal(29)),
    ]
    assert stages.blocked(stage) == ""
    applied = stages.advance(user=boss, competition=final)
    assert applied == preview
    entered = Entrant.objects.filter(competition=final).order_by("number")
    assert [(e.player.name, e.number, e.rating) for e in entered] == [
        ("Anna", 1, 4),
        ("Bruno", 2, 3),
        ("Carla", 3, 2),
        ("Dario", 4, 1),
    ]
    assert [(a.seed, a.player_id, a.carried) for a in Advanced.objects.filter(stage=stage)] == [
        (c.seed, c.player_id, c.carried) for c in preview
    ]
    with pytest.raises(Conflict):
        stages.advance(user=boss, competition=final)


def test_advancing_waits_for_a_result_still_to_confirm(
    club: Any, people: Any, points_game: str
) -> None:
    boss = people.users["organiser"]
    source = night_of(club, boss, "girone", {"Anna": 9, "Bruno": 7, "Carla": 5, "Dario": 3})
    Competition.objects.filter(pk=source.pk).update(confirmation="second_person")
    source.refresh_from_db()
    table = core.create_table(
        user=boss,
        competition=source,
        label="T9",
        players=list(Player.objects.filter(name__in=["Anna", "Bruno"])),
    )
    core.record_result(
        user=people.users["scorekeeper"], table=table, source="manual", scores=[1, 2]
    )
    final = Competition.objects.create(club=club, name="Finale", slug="finale", game="punti")
    stage = stages.make_stage(
        user=boss,
        competition=final,
        sources=[source],
        season=None,
        rule=Stage.Rule.TOP,
        count=2,
        threshold=None,
        carry_over=False,
    )
    assert "Girone" in stages.blocked(stage)
    with pytest.raises(Conflict):
        stages.advance(user=boss, competition=final)


def test_a_qualifying_stage_cuts_to_a_knockout_of_eight_seeded_one_against_eight(
    club: Any, people: Any, points_game: str
) -> None:
    boss = people.users["organiser"]
    scores = {f"Q{n:02d}": 100 - n for n in range(1, 13)}  # Q01 first ... Q12 last
    source = night_of(club, boss, "qualificazioni", scores)
    knockout = Competition.objects.create(
        club=club, name="Tabellone", slug="tabellone", game="punti", format="knockout"
    )
    stage = stages.make_stage(
        user=boss,
        competition=knockout,
        sources=[source],
        season=None,
        rule=Stage.Rule.TOP,
        count=8,
        threshold=None,
        carry_over=False,
    )
    assert [c.name for c in stages.candidates(stage)] == [f"Q{n:02d}" for n in range(1, 9)]
    stages.advance(user=boss, competition=knockout)
    draw = services.generate_round(user=boss, competition=knockout)
    names = dict(Player.objects.values_list("pk", "name"))
    pairs = {frozenset(names[p] for p in table["players"]) for table in draw.tables}
    assert frozenset({"Q01", "Q08"}) in pairs and frozenset({"Q04", "Q05"}) in pairs
    assert len(pairs) == 4


def test_groups_send_their_top_two_to_a_bracket_the_winners_seeded_first(
    club: Any, people: Any, points_game: str
) -> None:
    boss = people.users["organiser"]
    a = night_of(club, boss, "girone-a", {"Anna": 9, "Bruno": 7, "Carla": 5, "Dario": 3})
    b = night_of(club, boss, "girone-b", {"Elena": 8, "Fabio": 6, "Gino": 4, "Ugo": 2})
    bracket = Competition.objects.create(
        club=club, name="Tabellone", slug="tabellone", game="punti", format="knockout"
    )
    stage = stages.make_stage(
        user=boss,
        competition=bracket,
        sources=[a, b],
        season=None,
        rule=Stage.Rule.TOP_PER_GROUP,
        count=2,
        threshold=None,
        carry_over=False,
    )
    assert [(c.seed, c.name, c.came_from) for c in stages.candidates(stage)] == [
        (1, "Anna", "Girone-A"),
        (2, "Elena", "Girone-B"),
        (3, "Bruno", "Girone-A"),
        (4, "Fabio", "Girone-B"),
    ]


def test_everyone_with_at_least_a_score_advances(club: Any, people: Any, points_game: str) -> None:
    boss = people.users["organiser"]
    source = night_of(club, boss, "girone", {"Anna": 9, "Bruno": 7, "Carla": 5, "Dario": 3})
    final = Competition.objects.create(club=club, name="Finale", slug="finale", game="punti")
    stage = stages.make_stage(
        user=boss,
        competition=final,
        sources=[source],
        season=None,
        rule=Stage.Rule.ABOVE,
        count=None,
        threshold=Decimal(5),
        carry_over=False,
    )
    assert [c.name for c in stages.candidates(stage)] == ["Anna", "Bruno", "Carla"]


def test_the_stage_page_previews_then_advances(
    client: Any, club: Any, people: Any, points_game: str
) -> None:
    boss = people.users["organiser"]
    source = night_of(club, boss, "girone", {"Anna": 9, "Bruno": 7, "Carla": 5, "Dario": 3})
    final = Competition.objects.create(club=club, name="Finale", slug="finale", game="punti")
    client.force_login(boss)
    refused = client.post(
        "/c/prova/finale/stage/",
        {"action": "save", "sources": [str(source.pk)], "rule": "top", "count": ""},
        HTTP_ACCEPT_LANGUAGE="it",
    )
    assert refused.status_code == 400
    assert "Indica quanti giocatori passano." in refused.content.decode()
    saved = client.post(
        "/c/prova/finale/stage/",
        {"action": "save", "sources": [str(source.pk)], "rule": "top", "count": "3"},
    )
    assert saved.status_code == 302
    page = client.get("/c/prova/finale/stage/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Anteprima" in page and page.index("Anna") < page.index("Bruno") < page.index("Carla")
    assert "Dario" not in page.split('id="stage-preview"')[1].split("</table>")[0]
    client.post("/c/prova/finale/stage/", {"action": "advance"})
    assert Entrant.objects.filter(competition=final).count() == 3


def test_a_qualifying_swiss_of_twelve_cuts_to_a_knockout_of_eight_once_it_is_over(
    club: Any, people: Any, points_game: str
) -> None:
    from tests.formats.conftest import enter, make_competition

    boss = people.users["organiser"]
    swiss = make_competition(club, "swiss")
    enter(people, swiss, 12)
    services.update_settings(user=boss, competition=swiss, rounds=3)
    knockout = Competition.objects.create(
        club=club, name="Tabellone", slug="tabellone", game="punti", format="knockout"
    )
    stage = stages.make_stage(
        user=boss,
        competition=knockout,
        sources=[swiss],
        season=None,
        rule=Stage.Rule.TOP,
        count=8,
        threshold=None,
        carry_over=False,
    )
    for number in (1, 2, 3):
        assert swiss.name in stages.blocked(stage), number  # the Swiss is not over yet
        draw = services.generate_round(user=boss, competition=swiss)
        services.publish_draw(user=boss, draw=draw)
        for table in draw.round.tables.all():
            core.record_result(user=boss, table=table, source="manual", scores=[3, 1])
    assert stages.blocked(stage) == ""
    table = selectors.swiss_standings(swiss)
    # Whoever the Swiss's tie-breaks leave level at the eighth place is the organiser's
    # choice: here the players the table lists within the eight.
    found = stages.ties(stage)
    assert all(t.place == table[7]["rank"] == table[8]["rank"] for t in found)
    chosen = {row["player"] for row in table[:8] if any(row["player"] in t.ids for t in found)}
    preview = stages.candidates(stage, chosen)
    # The top eight of the Swiss table, in its order, seeded 1 to 8.
    assert [(c.seed, c.player_id) for c in preview] == [
        (n, row["player"]) for n, row in enumerate(table[:8], start=1)
    ]
    assert stages.advance(user=boss, competition=knockout, tied=chosen) == preview
    draw = services.generate_round(user=boss, competition=knockout)
    pairs = {frozenset(t["players"]) for t in draw.tables}
    seed = {c.seed: c.player_id for c in preview}
    assert pairs == {
        frozenset({seed[1], seed[8]}),
        frozenset({seed[4], seed[5]}),
        frozenset({seed[2], seed[7]}),
        frozenset({seed[3], seed[6]}),
    }


def test_a_tie_at_the_cut_off_line_is_shown_and_the_organiser_chooses_who_advances(
    client: Any, club: Any, people: Any, points_game: str
) -> None:
    boss = people.users["organiser"]
    source = night_of(
        club, boss, "girone", {"Anna": 9, "Bruno": 7, "Carla": 7, "Dario": 7, "Elio": 3}
    )
    final = Competition.objects.create(club=club, name="Finale", slug="finale", game="punti")
    stage = stages.make_stage(
        user=boss,
        competition=final,
        sources=[source],
        season=None,
        rule=Stage.Rule.TOP,
        count=2,
        threshold=None,
        carry_over=False,
    )
    # Bruno, Carla and Dario share second place: no silent pick by id or name.
    [tie] = stages.ties(stage)
    assert (tie.place, tie.seats) == (2, 1)
    assert sorted(n for _p, n, _s in tie.players) == ["Bruno", "Carla", "Dario"]
    assert [c.name for c in stages.candidates(stage)] == ["Anna"]
    client.force_login(boss)
    page = client.get("/c/prova/finale/stage/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert 'id="stage-tie"' in page and "Dario" in page.split('id="field-tied-1"')[1]
    carla = Player.objects.get(name="Carla").pk
    dario = Player.objects.get(name="Dario").pk
    refused = client.post(
        "/c/prova/finale/stage/",
        {"action": "advance", "tied": [str(carla), str(dario)]},
        HTTP_ACCEPT_LANGUAGE="it",
    )
    assert refused.status_code == 400
    body = refused.content.decode()
    assert "Scegline 1, oppure tutti." in body
    assert f'value="{carla}" checked' in body and f'value="{dario}" checked' in body
    assert not Entrant.objects.filter(competition=final).exists()
    done = client.post("/c/prova/finale/stage/", {"action": "advance", "tied": [str(dario)]})
    assert done.status_code == 302
    assert [(a.seed, a.player.name) for a in stage.advanced.order_by("seed")] == [
        (1, "Anna"),
        (2, "Dario"),
    ]


def test_the_organiser_may_let_everyone_tied_at_the_line_advance(
    club: Any, people: Any, points_game: str
) -> None:
    boss = people.users["organiser"]
    a = night_of(club, boss, "girone-a", {"Anna": 9, "Bruno": 7, "Carla": 7, "Dario": 3})
    b = night_of(club, boss, "girone-b", {"Elena": 8, "Fabio": 6, "Gino": 4, "Ugo": 2})
    bracket = Competition.objects.create(
        club=club, name="Tabellone", slug="tabellone", game="punti", format="knockout"
    )
    stage = stages.make_stage(
        user=boss,
        competition=bracket,
        sources=[a, b],
        season=None,
        rule=Stage.Rule.TOP_PER_GROUP,
        count=2,
        threshold=None,
        carry_over=False,
    )
    [tie] = stages.ties(stage)
    assert tie.came_from == "Girone-A" and tie.seats == 1
    with pytest.raises(Invalid):
        stages.advance(user=boss, competition=bracket)
    both = set(tie.ids)
    chosen = stages.advance(user=boss, competition=bracket, tied=both)
    assert [c.name for c in chosen] == ["Anna", "Elena", "Fabio", "Bruno", "Carla"]
    assert Entrant.objects.filter(competition=bracket).count() == 5


def _points(competition: Competition) -> dict[str, Decimal]:
    """The competition's standings as each player's points, by name."""
    return {str(r["name"]): Decimal(str(r["points"])) for r in selectors.standings_for(competition)}


def _carrying_final(club: Any, boss: Any) -> tuple[Competition, Stage]:
    group = night_of(club, boss, "girone", {"Anna": 30, "Bruno": 20, "Carla": -10, "Dario": -40})
    final = Competition.objects.create(club=club, name="Finale", slug="finale", game="punti")
    stage = stages.make_stage(
        user=boss,
        competition=final,
        sources=[group],
        season=None,
        rule=Stage.Rule.TOP,
        count=3,
        threshold=None,
        carry_over=True,
    )
    return final, stage


def test_a_carried_score_counts_in_the_new_stages_standings_as_the_preview_showed(
    club: Any, people: Any, points_game: str
) -> None:
    boss = people.users["organiser"]
    final, stage = _carrying_final(club, boss)
    preview = stages.candidates(stage)
    shown = {c.name: c.carried for c in preview}
    assert shown == {"Anna": Decimal(30), "Bruno": Decimal(20), "Carla": Decimal(-10)}
    assert _points(final) == {}
    assert stages.advance(user=boss, competition=final) == preview
    assert _points(final) == shown
    lines = Entry.objects.filter(competition=final).select_related("penalty")
    assert sorted((e.player.name, e.kind, e.points) for e in lines) == [
        ("Anna", "carry", Decimal(30)),
        ("Bruno", "carry", Decimal(20)),
        ("Carla", "carry", Decimal(-10)),
    ]
    # The reason is written in the club's language when the players advance.
    assert {e.penalty.reason for e in lines} <= {"carried over from Girone", "riportato da Girone"}
    assert {e.penalty.reason for e in lines} and len({e.penalty.reason for e in lines}) == 1
    assert {e.label for e in lines} <= {"Carried over", "Riportato"}
    # The standings rebuilt from the journal alone say the same; the ratings are untouched.
    rebuild_standings(final)
    assert _points(final) == shown
    assert not RatingChange.objects.filter(club=club).exclude(game="punti").exists()
    assert not Penalty.objects.filter(competition=final, table__isnull=False).exists()
    # Each carried line counts once, and a standings row shows no game played for it.
    row = next(r for r in selectors.standings_for(final) if r["name"] == "Anna")
    assert (row["played"], row["wins"]) == (0, 0)
    # Before the first round too: the table after round 1 of the new stage starts from them.
    first = Round.objects.create(competition=final, number=1)
    Round.objects.create(competition=final, number=2)
    seated = list(Player.objects.filter(name__in=shown).order_by("name"))
    table = core.create_table(user=boss, competition=final, label="F1", players=seated, round=first)
    core.record_result(user=boss, table=table, source="manual", scores=[5, 0, -5])
    after_one = {"Anna": Decimal(35), "Bruno": Decimal(20), "Carla": Decimal(-15)}
    assert _points_as_of(final, 1) == after_one == _points(final)


def _points_as_of(competition: Competition, round_number: int) -> dict[str, Decimal]:
    return {
        str(r["name"]): Decimal(str(r["points"]))
        for r in selectors.standings_for(competition, round_number)
    }


def test_cancelling_a_carried_score_takes_its_points_back_and_is_not_called_a_penalty(
    club: Any, people: Any, points_game: str
) -> None:
    boss = people.users["organiser"]
    final, _stage = _carrying_final(club, boss)
    stages.advance(user=boss, competition=final)
    anna = Penalty.objects.get(competition=final, player__name="Anna")
    assert anna.kind == Penalty.Kind.CARRY and anna.points == Decimal(30)
    penalties.cancel_penalty(user=boss, penalty=anna, reason="wrong group")
    assert _points(final)["Anna"] == Decimal(0)
    assert _points(final)["Bruno"] == Decimal(20)
    rebuild_standings(final)
    assert _points(final)["Anna"] == Decimal(0)
    cancel = Entry.objects.select_related("penalty").get(competition=final, kind="cancel")
    assert cancel.points == Decimal(-30)
    assert cancel.label in ("Carried score cancelled", "Punteggio riportato annullato")
    with pytest.raises(Conflict, match=r"(carried score|punteggio riportato)"):
        penalties.cancel_penalty(user=boss, penalty=anna)
    # The player's own page lists no penalty; the referee's list names it carried over.
    browser = Client(HTTP_ACCEPT_LANGUAGE="it")
    browser.force_login(boss)
    page = browser.get(f"/c/{club.slug}/{final.slug}/night/penalties/").content.decode()
    assert "Riportato" in page and "riportato da Girone" in page
    assert list(for_player(anna.player, club)) == []
    mine = browser.get(f"/c/{club.slug}/p/{anna.player_id}/").content.decode()
    assert "Punteggio riportato annullato" in mine and 'id="penalties"' not in mine
    assert zero_sum_check(final) == []


def test_a_stage_without_carry_over_starts_from_zero(
    club: Any, people: Any, points_game: str
) -> None:
    boss = people.users["organiser"]
    final, stage = _carrying_final(club, boss)
    stage.carry_over = False
    stage.save()
    stages.advance(user=boss, competition=final)
    assert not Entry.objects.filter(competition=final).exists()
    assert set(_points(final).values()) <= {Decimal(0)}


@pytest.mark.parametrize("fmt", ["knockout", "swiss"])
def test_a_knockout_or_a_swiss_refuses_to_carry_the_score_over_at_the_field(
    club: Any, people: Any, points_game: str, fmt: str
) -> None:
    boss = people.users["organiser"]
    group = night_of(club, boss, "girone", {"Anna": 30, "Bruno": 20})
    later = Competition.objects.create(
        club=club, name="Dopo", slug="dopo", game="punti", format=fmt
    )
    with pytest.raises(Invalid) as refused:
        stages.make_stage(
            user=boss,
            competition=later,
            sources=[group],
            season=None,
            rule=Stage.Rule.TOP,
            count=2,
            threshold=None,
            carry_over=True,
        )
    assert "carry_over" in refused.value.fields
    assert not Stage.objects.filter(competition=later).exists()
    browser = Client(HTTP_ACCEPT_LANGUAGE="en")
    browser.force_login(boss)
    page = browser.post(
        f"/c/{club.slug}/dopo/stage/",
        {"rule": "top", "count": "2", "sources": [str(group.pk)], "carry_over": "1"},
    )
    body = page.content.decode()
    assert page.status_code == 400
    assert "A knockout starts level" in body and 'value="2"' in body


def test_the_stage_page_says_the_carried_score_counts(
    club: Any, people: Any, points_game: str
) -> None:
    boss = people.users["organiser"]
    final, _stage = _carrying_final(club, boss)
    browser = Client(HTTP_ACCEPT_LANGUAGE="en")
    browser.force_login(boss)
    page = browser.get(f"/c/{club.slug}/{final.slug}/stage/").content.decode()
    assert "advancing adds it to their points in this stage" in page
    it = Client(HTTP_ACCEPT_LANGUAGE="it")
    it.force_login(boss)
    assert "Riporta il punteggio" in it.get(f"/c/{club.slug}/{final.slug}/stage/").content.decode()
