"""The club's back office: an organiser makes competitions, enrols players, manages members
and their roles and invites logins, all from the club's pages, never the admin."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from ledger.clubs.models import Club, Competition, Invitation, Membership, Player, Role
from ledger.formats.models import Entrant, FormatSettings
from tests.conftest import People

pytestmark = pytest.mark.django_db


def _client(people: People, name: str = "organiser", language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(people.users[name])
    return client


NEW = {
    "name": "Torneo d'autunno",
    "game": "tarocco",
    "preset": "tarocco:dossena",
    "format": "league",
    "confirmation": "none",
    "seats_per_table": "4",
    "hands_per_table": "2",
    "rounds": "0",
    "win": "",
    "draw": "",
    "loss": "",
}


def test_an_organiser_creates_a_competition_from_a_preset_without_json(
    people: People, club: Club
) -> None:
    client = _client(people)
    page = client.get(reverse("office-competition-new", args=[club.slug]))
    assert page.status_code == 200
    body = page.content.decode()
    assert "Dossena" in body and "<textarea" not in body  # a list of rulesets, no JSON box
    answer = client.post(reverse("office-competition-new", args=[club.slug]), NEW)
    made = Competition.objects.get(club=club)
    assert answer.status_code == 302
    assert answer["Location"] == reverse("office-enrol", args=[club.slug, made.slug])
    assert made.slug == "torneo-dautunno"
    assert made.ruleset == {"name": "dossena"}
    settings = FormatSettings.objects.get(competition=made)
    assert (settings.seats_per_table, settings.hands_per_table) == (4, 2)


def test_a_ruleset_of_another_game_is_refused_at_its_field_with_what_was_typed_kept(
    people: People, club: Club
) -> None:
    client = _client(people)
    answer = client.post(
        reverse("office-competition-new", args=[club.slug]),
        {**NEW, "preset": "ergio:base", "win": "3"},
    )
    assert answer.status_code == 400
    form = answer.context["form"]
    assert "preset" in form.errors
    body = answer.content.decode()
    assert 'value="Torneo d&#x27;autunno"' in body and 'value="3"' in body
    assert not Competition.objects.exists()


def test_bad_points_are_refused_at_their_field(people: People, club: Club) -> None:
    answer = _client(people).post(
        reverse("office-competition-new", args=[club.slug]), {**NEW, "draw": "mezzo"}
    )
    assert answer.status_code == 400
    assert "draw" in answer.context["form"].errors
    assert not Competition.objects.exists()


def test_only_organisers_reach_the_back_office(people: People, club: Club) -> None:
    for name in ("member", "scorekeeper", "referee", "stranger"):
        client = _client(people, name)
        for url in (
            reverse("office", args=[club.slug]),
            reverse("office-members", args=[club.slug]),
            reverse("office-competition-new", args=[club.slug]),
        ):
            assert client.get(url).status_code == 403, (name, url)
        assert (
            client.post(reverse("office-competition-new", args=[club.slug]), NEW).status_code == 403
        )
    assert not Competition.objects.exists()


def _made(people: People, club: Club, **extra: Any) -> Competition:
    _client(people).post(reverse("office-competition-new", args=[club.slug]), {**NEW, **extra})
    return Competition.objects.get(club=club)


def test_editing_keeps_the_ranking_order_and_refuses_a_new_game_once_play_started(
    people: People, club: Club
) -> None:
    comp = _made(people, club)
    comp.standings_settings = {"order": ["points", "wins"]}
    comp.save()
    client = _client(people)
    url = reverse("office-competition-edit", args=[club.slug, comp.slug])
    answer = client.post(url, {**NEW, "name": "Autunno", "win": "3"})
    assert answer.status_code == 302
    comp.refresh_from_db()
    assert comp.name == "Autunno"
    assert comp.standings_settings == {"order": ["points", "wins"], "win": "3"}
    comp.rounds.create(number=1)
    answer = client.post(url, {**NEW, "preset": "tarocco:strict"})
    assert answer.status_code == 400
    assert "preset" in answer.context["form"].errors
    comp.refresh_from_db()
    assert comp.ruleset == {"name": "dossena"}


def test_ticked_members_are_enrolled_with_one_submit(people: People, club: Club) -> None:
    comp = _made(people, club)
    picked = [p.pk for p in people.extra[:4]]
    answer = _client(people).post(
        reverse("office-enrol", args=[club.slug, comp.slug]),
        {"how": "pick", "player": [str(p) for p in picked]},
    )
    assert answer.status_code == 302
    assert sorted(Entrant.objects.filter(competition=comp).values_list("player", flat=True)) == (
        sorted(picked)
    )


def test_pasted_names_ask_before_new_players_are_made_then_enrol_everyone(
    people: People, club: Club
) -> None:
    comp = _made(people, club)
    url = reverse("office-enrol", args=[club.slug, comp.slug])
    pasted = "1. giocatore 0\nGiocatore 1\n\n- Anna Rossi\nBruno  Verdi\nanna rossi\n"
    client = _client(people)
    first = client.post(url, {"how": "paste", "names": pasted})
    assert first.status_code == 200  # a question, not an error
    assert [n for n in first.context["confirm"].new] == ["Anna Rossi", "Bruno Verdi"]
    assert not Player.objects.filter(name="Anna Rossi").exists()
    assert not Entrant.objects.exists()
    second = client.post(url, {"how": "paste", "names": pasted, "confirm": "1"})
    assert second.status_code == 302
    names = set(Entrant.objects.filter(competition=comp).values_list("player__name", flat=True))
    assert names == {"Giocatore 0", "Giocatore 1", "Anna Rossi", "Bruno Verdi"}
    anna = Player.objects.get(name="Anna Rossi")
    assert Membership.objects.get(player=anna).club == club
    # Each entrant can be withdrawn from the same page.
    page = client.get(url).content.decode()
    assert 'data-withdraw="Anna Rossi"' in page
    client.post(
        reverse("formats-manage", args=[club.slug, comp.slug]),
        {"action": "withdraw", "player": anna.pk},
    )
    assert Entrant.objects.get(competition=comp, player=anna).withdrawn_after == 0
    assert 'data-withdraw="Anna Rossi"' not in client.get(url).content.decode()


def test_a_refused_entry_enrols_nobody(people: People, club: Club) -> None:
    comp = _made(people, club, format="knockout", seats_per_table="0")
    Entrant.objects.create(competition=comp, player=people.extra[0], number=1)
    comp.rounds.create(number=1)
    from ledger.formats.models import Draw

    Draw.objects.create(round=comp.rounds.get(), status=Draw.Status.PUBLISHED)
    answer = _client(people).post(
        reverse("office-enrol", args=[club.slug, comp.slug]),
        {"how": "paste", "names": "Nuova Persona", "confirm": "1"},
    )
    assert answer.status_code == 400
    assert "no late entries" in answer.context["problem"]
    assert not Player.objects.filter(name="Nuova Persona").exists()


def test_the_members_page_adds_a_person_and_changes_roles(people: People, club: Club) -> None:
    client = _client(people)
    url = reverse("office-members", args=[club.slug])
    page = client.get(url)
    assert page.status_code == 200
    assert (
        client.post(
            url, {"action": "add", "add-name": "Carla Neri", "add-role": "referee"}
        ).status_code
        == 302
    )
    carla = Membership.objects.get(player__name="Carla Neri")
    assert carla.role == Role.REFEREE
    again = client.post(url, {"action": "add", "add-name": "carla neri", "add-role": "member"})
    assert again.status_code == 400 and "name" in again.context["add_form"].errors
    assert (
        client.post(
            url, {"action": "role", "membership": carla.pk, "role": "organiser"}
        ).status_code
        == 302
    )
    carla.refresh_from_db()
    assert carla.role == Role.ORGANISER


def test_the_last_organiser_cannot_step_down(people: People, club: Club) -> None:
    client = _client(people)
    mine = Membership.objects.get(player=people.players["organiser"])
    answer = client.post(
        reverse("office-members", args=[club.slug]),
        {"action": "role", "membership": mine.pk, "role": "member"},
    )
    assert answer.status_code == 400
    assert answer.context["role_error"][0] == mine.pk
    mine.refresh_from_db()
    assert mine.role == Role.ORGANISER


def test_an_invitation_link_makes_a_login_once_and_is_stored_hashed(
    people: People, club: Club, django_user_model: Any
) -> None:
    client = _client(people)
    url = reverse("office-members", args=[club.slug])
    answer = client.post(
        url, {"action": "invite", "invite-name": "Dario Blu", "invite-role": "scorekeeper"}
    )
    assert answer.status_code == 201
    link = answer.context["link"]
    key = link.rstrip("/").rsplit("/", 1)[1]
    assert not Invitation.objects.filter(digest=key).exists()
    assert key not in client.get(url).content.decode()  # shown once
    visitor = Client(HTTP_ACCEPT_LANGUAGE="en")
    path = reverse("invitation", args=[key])
    short = visitor.post(path, {"username": "dario", "password": "x", "again": "x"})
    assert short.status_code == 400 and "password" in short.context["form"].errors
    assert 'value="dario"' in short.content.decode()
    ok = visitor.post(
        path, {"username": "dario", "password": "tarocchi-a-pisa", "again": "tarocchi-a-pisa"}
    )
    assert ok.status_code == 302
    user = django_user_model.objects.get(username="dario")
    assert not user.is_staff
    assert club.role_of(user) == Role.SCOREKEEPER
    assert Player.objects.get(user=user).name == "Dario Blu"
    assert Client().get(path).status_code == 410


def test_a_logged_in_player_joins_a_second_club_by_invitation(
    people: People, club: Club, other_club: Club
) -> None:
    other_organiser = people.players["organiser"]
    Membership.objects.create(club=other_club, player=other_organiser, role=Role.ORGANISER)
    from ledger.clubs.office import office

    _inv, key = office.invite(
        user=people.users["organiser"], club=other_club, name="Member", role=Role.MEMBER
    )
    client = _client(people, "member")
    assert client.post(reverse("invitation", args=[key])).status_code == 302
    member = people.players["member"]
    assert set(member.memberships.values_list("club__slug", flat=True)) == {"prova", "altro"}
    assert Player.objects.filter(name="Member").count() == 1


def test_an_existing_member_without_login_is_invited_from_the_list(
    people: People, club: Club
) -> None:
    client = _client(people)
    target = people.extra[0]
    answer = client.post(
        reverse("office-members", args=[club.slug]),
        {"action": "invite-member", "player": target.pk},
    )
    assert answer.status_code == 201
    key = answer.context["link"].rstrip("/").rsplit("/", 1)[1]
    Client().post(
        reverse("invitation", args=[key]),
        {"username": "g0", "password": "tarocchi-a-pisa", "again": "tarocchi-a-pisa"},
    )
    target.refresh_from_db()
    assert target.user is not None and target.user.username == "g0"


def test_the_back_office_is_linked_from_the_club_and_each_competition(
    people: People, club: Club
) -> None:
    comp = _made(people, club)
    client = _client(people)
    home = client.get(reverse("home")).content.decode()
    assert reverse("office", args=[club.slug]) in home
    assert reverse("office-competition-new", args=[club.slug]) in home
    page = client.get(reverse("competition", args=[club.slug, comp.slug])).content.decode()
    assert reverse("office-competition-edit", args=[club.slug, comp.slug]) in page
    assert reverse("office-enrol", args=[club.slug, comp.slug]) in page
    member_page = _client(people, "member").get(reverse("competition", args=[club.slug, comp.slug]))
    assert reverse("office-enrol", args=[club.slug, comp.slug]) not in member_page.content.decode()


def test_the_pages_speak_italian(people: People, club: Club) -> None:
    comp = _made(people, club)
    client = _client(people, language="it")
    body = client.get(reverse("office-enrol", args=[club.slug, comp.slug])).content.decode()
    assert "Iscrivi" in body
    body = client.get(reverse("office-members", args=[club.slug])).content.decode()
    assert "Soci" in body


def test_the_members_page_reads_in_few_queries(
    people: People, club: Club, django_assert_max_num_queries: Any
) -> None:
    for i in range(30):
        p = Player.objects.create(name=f"Extra {i}")
        Membership.objects.create(club=club, player=p)
    client = _client(people)
    with django_assert_max_num_queries(12):
        assert client.get(reverse("office-members", args=[club.slug])).status_code == 200


def test_an_organiser_adds_a_webhook_whose_secret_is_shown_once_then_switches_it_off(
    people: People, club: Club
) -> None:
    from ledger.clubs.models import Webhook

    client = _client(people)
    office = client.get(reverse("office", args=[club.slug])).content.decode()
    assert f'href="{reverse("webhook-log", args=[club.slug])}"' in office
    url = reverse("webhook-log", args=[club.slug])
    answer = client.post(
        url,
        {"action": "add", "url": "https://hooks.example.org/ledger", "events": ["result.ruled"]},
    )
    assert answer.status_code == 201
    hook = Webhook.objects.get(club=club)
    assert (hook.url, hook.events, hook.active) == (
        "https://hooks.example.org/ledger",
        ["result.ruled"],
        True,
    )
    assert len(hook.secret) == 64 and hook.secret in answer.content.decode()
    later = client.get(url).content.decode()
    assert "https://hooks.example.org/ledger" in later and "Referee&#x27;s ruling" in later
    assert hook.secret not in later  # shown only on the answer that made it
    client.post(url, {"action": "off", "webhook": hook.pk})
    hook.refresh_from_db()
    assert not hook.active and not hook.wants("result.ruled")
    assert "switched off" in client.get(url).content.decode()
    client.post(url, {"action": "on", "webhook": hook.pk})
    hook.refresh_from_db()
    assert hook.active


def test_a_webhook_to_a_private_address_is_refused_at_its_field_with_the_address_kept(
    people: People, club: Club
) -> None:
    from ledger.clubs.models import Webhook

    client = _client(people)
    answer = client.post(
        reverse("webhook-log", args=[club.slug]),
        {"action": "add", "url": "https://192.168.1.10/hook"},
    )
    assert answer.status_code == 400
    body = answer.content.decode()
    assert "This address is not on the public internet." in body
    assert 'value="https://192.168.1.10/hook"' in body
    assert not Webhook.objects.exists()


def test_only_an_organiser_adds_or_switches_the_clubs_webhooks(
    people: People, club: Club, other_club: Club
) -> None:
    from ledger.clubs.models import Webhook

    theirs = Webhook.objects.create(club=other_club, url="https://hooks.example.org/a", secret="s")
    scorekeeper = _client(people, "scorekeeper")
    scorekeeper.post(
        reverse("webhook-log", args=[club.slug]),
        {"action": "add", "url": "https://hooks.example.org/b"},
    )
    assert not Webhook.objects.filter(club=club).exists()
    # An organiser of this club cannot reach another club's webhook through this club's page.
    answer = _client(people).post(
        reverse("webhook-log", args=[club.slug]), {"action": "off", "webhook": theirs.pk}
    )
    assert answer.status_code == 404
    theirs.refresh_from_db()
    assert theirs.active


def test_an_organiser_lets_games_against_bots_count_and_the_bots_stay_unranked(
    people: People, club: Club, django_capture_on_commit_callbacks: Any
) -> None:
    from ledger.clubs.errors import Invalid
    from ledger.play import services as play
    from tests.play.conftest import play_out

    comp = _made(people, club)
    assert comp.bot_tables_count is False  # off unless an organiser turns it on
    bots = ["me", "heuristic", "heuristic", "heuristic"]
    keeper = people.users["organiser"]
    with pytest.raises(Invalid):
        play.create_table(user=keeper, club=club, game="tarocco", seats=bots, competition=comp)
    url = reverse("office-competition-edit", args=[club.slug, comp.slug])
    client = _client(people)
    assert 'name="bot_tables_count"' in client.get(url).content.decode()
    assert client.post(url, {**NEW, "bot_tables_count": "on"}).status_code == 302
    comp.refresh_from_db()
    assert comp.bot_tables_count is True
    assert client.get(url).context["form"].initial["bot_tables_count"] is True

    def run(fn: Any, *args: Any, **kwargs: Any) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return fn(*args, **kwargs)

    table = run(
        play.create_table, user=keeper, club=club, game="tarocco", seats=bots, competition=comp
    )
    play_out(run, keeper, table)
    table.refresh_from_db()
    assert not table.practice and table.result is not None
    page = client.get(reverse("competition", args=[club.slug, comp.slug])).content.decode()
    standings = page[page.index('id="standings"') :]
    standings = standings[: standings.index("</table>")]
    assert keeper.player.name in standings  # the person is ranked...
    assert "Bot" not in standings  # ...the bots who sat with them are not
    ratings = client.get(reverse("competition-ratings", args=[club.slug, comp.slug]))
    ratings = ratings.content.decode()
    assert "Bot" not in ratings
    members = client.get(reverse("office-members", args=[club.slug])).content.decode()
    assert "Bot" not in members and "Arbitro digitale" not in members


def test_a_new_night_goes_into_a_season_of_its_game_only(people: People, club: Club) -> None:
    import datetime

    from ledger.clubs.models import Season
    from ledger.formats.models import Championship

    season = Season.objects.create(
        club=club,
        name="Campionato",
        starts_on=datetime.date(2026, 1, 1),
        ends_on=datetime.date(2026, 6, 30),
    )
    Championship.objects.create(season=season, game="tarocco")
    client = _client(people, language="it")
    url = reverse("office-competition-new", args=[club.slug])
    answer = client.post(url, {**NEW, "season": str(season.pk)})
    assert answer.status_code == 302
    assert Competition.objects.get(club=club).season == season
    refused = client.post(
        url,
        {
            **NEW,
            "name": "Scacchi",
            "game": "cardchess",
            "preset": "cardchess:2p",
            "seats_per_table": "2",
            "season": str(season.pk),
        },
    )
    assert refused.status_code == 400
    assert "è di un altro gioco" in refused.content.decode()
