"""Voiding a result: an organiser or referee takes back a result entered twice, at the wrong
table, or for a game never played. Nothing is deleted and nothing replaces it: its credits
are reversed in the journal, and every projection is what it would be had it never been
recorded."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from ledger.clubs.errors import Conflict, Invalid, NotAllowed
from ledger.clubs.journal import audit, journal
from ledger.clubs.models import (
    Club,
    Competition,
    Dispute,
    Entry,
    Membership,
    Player,
    Rating,
    RatingChange,
    Result,
    Role,
    RoundTotal,
    Standing,
    Table,
    Webhook,
    WebhookDelivery,
)
from ledger.clubs.results import services
from ledger.formats import selectors
from ledger.formats import services as formats
from tests.ledger.helpers import record, use

pytestmark = pytest.mark.django_db

NAMES = [f"Giocatore {i}" for i in range(8)]


class Swiss:
    """A club with eight members and a Swiss of Punti, its first round published."""

    def __init__(self, slug: str, points_game: str) -> None:
        self.club = Club.objects.create(name=slug, slug=slug)
        self.boss = get_user_model().objects.create_user(username=f"boss-{slug}")
        Membership.objects.create(
            club=self.club,
            player=Player.objects.create(name=f"Boss {slug}", user=self.boss),
            role=Role.ORGANISER,
        )
        self.competition = Competition.objects.create(
            club=self.club, name="Svizzero", slug="svizzero", game=points_game, format="swiss"
        )
        for k, name in enumerate(NAMES):
            player = Player.objects.create(name=name)
            Membership.objects.create(club=self.club, player=player)
            formats.enter_player(
                user=self.boss, competition=self.competition, player=player, rating=2000 - k
            )
        self.round(1)

    def round(self, number: int) -> list[Table]:
        draw = formats.generate_round(user=self.boss, competition=self.competition)
        formats.publish_draw(user=self.boss, draw=draw)
        assert draw.round.number == number
        return sorted(Table.objects.filter(round=draw.round), key=lambda t: t.label)

    def tables(self, number: int) -> list[Table]:
        return sorted(
            Table.objects.filter(competition=self.competition, round__number=number),
            key=lambda t: t.label,
        )

    def record(self, table: Table, scores: list[int]) -> Result:
        result, _created = services.record_result(
            user=self.boss, table=table, source="manual", scores=scores
        )
        return result

    def seen(self) -> dict[str, Any]:
        """Every projection of the club, by player name (the two clubs' ids differ)."""
        name = dict(Player.objects.filter(memberships__club=self.club).values_list("pk", "name"))
        c = self.competition
        number = dict(c.rounds.values_list("pk", "number"))
        return {
            "standings": sorted(
                (name[s.player_id], s.points, s.played, s.wins, s.draws, s.losses)
                for s in Standing.objects.filter(competition=c)
            ),
            "round totals": sorted(
                (number.get(t.round_key, 0), name[t.player_id], t.points, t.played, t.wins)
                for t in RoundTotal.objects.filter(competition=c)
                if t.played or t.points
            ),
            "ratings": sorted(
                (name[r.player_id], round(r.mu, 9), round(r.sigma, 9), r.results)
                for r in Rating.objects.filter(club=self.club)
                if r.results
            ),
            "rating history": sorted(
                (name[h.player_id], round(h.mu, 9), round(h.sigma, 9))
                for h in RatingChange.objects.filter(club=self.club)
            ),
            "swiss": [
                (r["name"], r["score"], r["played"], r["wins"], r["buchholz"])
                for r in selectors.swiss_standings(c)
            ],
            "history": sorted(
                (g.round, name.get(g.a), name.get(g.b), g.score_a, g.score_b)
                for g in selectors.history(c).games
            ),
            "round 2 pairing": sorted(
                tuple(sorted(name[s.player_id] for s in t.seats.all())) for t in self.tables(2)
            ),
        }


def test_voiding_a_result_leaves_every_projection_as_if_it_was_never_recorded(
    points_game: str, django_capture_on_commit_callbacks: Any
) -> None:
    voided = Swiss("voided", points_game)
    first = voided.tables(1)
    with django_capture_on_commit_callbacks(execute=True):
        voided.record(first[0], [3, 1])
        wrong = voided.record(first[1], [0, 4])  # a game that was never played
        voided.record(first[2], [2, 2])
        voided.record(first[3], [1, 3])
        services.void_result(user=voided.boss, result=wrong, reason="Never played")
        voided.record(first[1], [1, 0])  # the game really played there
        voided.record(voided.round(2)[0], [5, 0])

    clean = Swiss("clean", points_game)
    first = clean.tables(1)
    with django_capture_on_commit_callbacks(execute=True):
        clean.record(first[0], [3, 1])
        clean.record(first[2], [2, 2])
        clean.record(first[3], [1, 3])
        clean.record(first[1], [1, 0])
        clean.record(clean.round(2)[0], [5, 0])

    assert voided.seen() == clean.seen()
    wrong.refresh_from_db()
    assert wrong.status == Result.Status.VOIDED
    assert journal.verify_chain(voided.club) == []
    assert audit.result_problems(voided.club) == []
    assert audit.standing_problems(voided.club) == []


def test_voiding_reverses_the_credits_in_the_journal_and_deletes_nothing(
    people: Any, manual_table: Table
) -> None:
    result = record(people, manual_table, [5, 2])
    lines = Entry.objects.count()
    voided = services.void_result(user=people.users["referee"], result=result, reason="Twice")
    assert Entry.objects.count() == lines + 2
    reversal = voided.entries.filter(kind=Entry.Kind.REVERSAL).order_by("seat")
    assert [e.points for e in reversal] == [Decimal(-5), Decimal(-2)]
    assert voided.entries.filter(kind=Entry.Kind.CREDIT).count() == 2
    assert Result.objects.filter(competition=manual_table.competition).count() == 1
    voided.refresh_from_db()
    assert (voided.status, voided.voided_by, voided.void_reason) == (
        Result.Status.VOIDED,
        people.users["referee"],
        "Twice",
    )
    assert voided.voided_at is not None
    assert all(s.points == 0 and s.played == 0 for s in Standing.objects.all())
    assert journal.verify_chain(people.club) == []


def test_a_pending_result_is_voided_without_a_journal_line(
    people: Any, manual_table: Table
) -> None:
    use(manual_table.competition, Competition.Confirmation.SECOND_PERSON)
    result = record(people, manual_table, [5, 2])
    services.void_result(user=people.users["organiser"], result=result, reason="Wrong table")
    result.refresh_from_db()
    assert result.status == Result.Status.VOIDED
    assert not Entry.objects.exists()
    with pytest.raises(Conflict):
        services.confirm_result(user=people.users["scorekeeper2"], result=result)
    assert not Entry.objects.exists()


def test_voiding_a_disputed_result_closes_its_dispute(people: Any, manual_table: Table) -> None:
    use(manual_table.competition, Competition.Confirmation.SECOND_PERSON)
    result = record(people, manual_table, [5, 2])
    dispute = services.dispute_result(
        user=people.users["scorekeeper2"], result=result, reason="Not our game"
    )
    services.void_result(user=people.users["referee"], result=result, reason="Not our game")
    dispute.refresh_from_db()
    assert dispute.ruling == Dispute.Ruling.VOID
    assert dispute.ruled_by == people.users["referee"]
    assert not Entry.objects.exists()


def test_only_referees_and_organisers_void_and_say_why(people: Any, manual_table: Table) -> None:
    result = record(people, manual_table, [5, 2])
    with pytest.raises(NotAllowed):
        services.void_result(user=people.users["scorekeeper"], result=result, reason="Twice")
    with pytest.raises(Invalid) as refused:
        services.void_result(user=people.users["referee"], result=result, reason="  ")
    assert "reason" in refused.value.fields
    result.refresh_from_db()
    assert result.status == Result.Status.ACCEPTED
    assert Entry.objects.filter(kind=Entry.Kind.REVERSAL).count() == 0


def test_a_result_is_voided_once_and_a_replaced_one_not_at_all(
    people: Any, manual_table: Table
) -> None:
    result = record(people, manual_table, [5, 2])
    referee = people.users["referee"]
    services.void_result(user=referee, result=result, reason="Twice")
    with pytest.raises(Conflict):
        services.void_result(user=referee, result=result, reason="Twice again")
    other = record(people, manual_table, [1, 2])
    services.supersede_result(user=referee, result=other, source="manual", scores=[2, 1])
    with pytest.raises(Conflict):
        services.void_result(user=referee, result=other, reason="Old version")
    assert Entry.objects.filter(result=result, kind=Entry.Kind.REVERSAL).count() == 2


def test_a_voided_result_is_announced_to_webhooks(people: Any, manual_table: Table) -> None:
    hook = Webhook.objects.create(
        club=people.club, url="https://example.org/h", secret="s", events=["result.voided"]
    )
    result = record(people, manual_table, [5, 2])
    services.void_result(user=people.users["referee"], result=result, reason="Twice")
    delivery = WebhookDelivery.objects.get(webhook=hook)
    assert delivery.event == "result.voided"
    assert delivery.payload["result"]["status"] == "voided"
    assert delivery.payload["result"]["reason"] == "Twice"


def test_an_organiser_voids_a_result_from_its_page(people: Any, manual_table: Table) -> None:
    from django.test import Client

    result = record(people, manual_table, [5, 2])
    competition = manual_table.competition
    page = f"/c/{people.club.slug}/{competition.slug}/r/{result.pk}/"
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(people.users["organiser"])
    body = client.get(page).content.decode()
    assert 'id="void"' in body and f"{page}void/" in body
    refused = client.post(f"{page}void/", {"reason": ""})
    assert refused.status_code == 400
    assert 'id="void-reason-error"' in refused.content.decode()
    done = client.post(f"{page}void/", {"reason": "Entered twice"}, follow=True)
    text = done.content.decode()
    assert "Voided by organiser" in text and "Entered twice" in text
    assert 'id="void-form"' not in text
    result.refresh_from_db()
    assert result.status == Result.Status.VOIDED
    table_page = client.get(f"/c/{people.club.slug}/{competition.slug}/t/{manual_table.pk}/score/")
    assert 'class="status-voided"' in table_page.content.decode()


def test_a_scorekeeper_is_not_offered_the_void(people: Any, manual_table: Table) -> None:
    from django.test import Client

    result = record(people, manual_table, [5, 2])
    competition = manual_table.competition
    page = f"/c/{people.club.slug}/{competition.slug}/r/{result.pk}/"
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(people.users["scorekeeper"])
    assert 'id="void"' not in client.get(page).content.decode()
    client.post(f"{page}void/", {"reason": "Twice"})
    result.refresh_from_db()
    assert result.status == Result.Status.ACCEPTED


def test_the_api_voids_a_result(people: Any, manual_table: Table) -> None:
    result = record(people, manual_table, [5, 2])
    url = f"/api/v1/results/{result.pk}/void/"
    assert people.client("scorekeeper").post(url, {"reason": "x"}, format="json").status_code == 403
    blank = people.client("referee").post(url, {"reason": ""}, format="json")
    assert blank.status_code == 400 and "reason" in blank.json()["error"]["fields"]
    done = people.client("referee").post(url, {"reason": "Entered twice"}, format="json")
    assert done.status_code == 200, done.content
    body = done.json()
    assert body["status"] == "voided" and body["void_reason"] == "Entered twice"
    assert body["voided_by"] == people.users["referee"].pk
    assert [e["kind"] for e in body["entries"]].count("reversal") == 2
    again = people.client("referee").post(url, {"reason": "Entered twice"}, format="json")
    assert again.status_code == 409


def test_an_import_row_voids_the_result_it_names(people: Any, manual_table: Table) -> None:
    from ledger.clubs.transfer import imports

    result = record(people, manual_table, [5, 2])
    slug = manual_table.competition.slug
    content = f"competition,void,reason\n{slug},{result.pk},Entered twice\n"
    job = imports.create_job(
        user=people.users["referee"],
        club=people.club,
        filename="void.csv",
        raw=content.encode(),
        fmt="csv",
    )
    done = imports.run_job(job.pk)
    assert done.errors == [] and done.imported == 1
    result.refresh_from_db()
    assert result.status == Result.Status.VOIDED and result.void_reason == "Entered twice"
    again = imports.run_job(
        imports.create_job(
            user=people.users["referee"],
            club=people.club,
            filename="void.csv",
            raw=content.encode(),
            fmt="csv",
        ).pk
    )
    assert again.errors == [] and again.replayed == 1
    assert Entry.objects.filter(result=result, kind=Entry.Kind.REVERSAL).count() == 2


def test_a_referees_void_ruling_leaves_no_game_for_the_pairing_to_count(
    points_game: str,
) -> None:
    from ledger.referee import services as referee

    swiss = Swiss("ruled", points_game)
    table = swiss.tables(1)[0]
    result = swiss.record(table, [3, 1])
    case = referee.open_case(user=swiss.boss, competition=swiss.competition, result=result)
    referee.rule(user=swiss.boss, case=case, kind="void", note="Wrong table")
    assert not Result.objects.filter(table=table, status=Result.Status.ACCEPTED).exists()
    assert selectors.history(swiss.competition).games == []
    seated = set(table.seats.values_list("player_id", flat=True))
    assert all(
        row["played"] == 0
        for row in selectors.swiss_standings(swiss.competition)
        if row["player"] in seated
    )
