"""The Django admin is the site staff's: a staff login that organises club B, even with every
permission the admin knows, sees and changes nothing of club A; API token keys are kept
only as digests and shown once, on the club's page that makes them."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.contrib import admin
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from ledger.clubs.admin_scope import ClubScoped, club_path
from ledger.clubs.models import (
    ApiToken,
    Club,
    Competition,
    Dispute,
    Entry,
    ImportJob,
    Membership,
    Player,
    Rating,
    Result,
    Role,
    Round,
    Season,
    Seat,
    Table,
    Webhook,
    WebhookDelivery,
)
from ledger.play.models import GameTable
from ledger.referee.models import ArtificialScores, Case

MARK = "zeppelin"  # every name of club A carries it; nothing of A may show it to B's staff


def _club_with_everything(slug: str, mark: str, user: Any) -> dict[str, Any]:
    import datetime

    club = Club.objects.create(name=f"{mark} club", slug=slug, city=f"{mark} city")
    season = Season.objects.create(
        club=club,
        name=f"{mark} season",
        starts_on=datetime.date(2026, 1, 1),
        ends_on=datetime.date(2026, 12, 31),
    )
    comp = Competition.objects.create(
        club=club, season=season, name=f"{mark} cup", slug=f"{slug}-cup", game="tarocco"
    )
    rnd = Round.objects.create(competition=comp, number=1, name=f"{mark} round")
    players = [Player.objects.create(name=f"{mark} player {i}") for i in range(4)]
    for p in players:
        Membership.objects.create(club=club, player=p)
    table = Table.objects.create(competition=comp, round=rnd, label=f"{mark} table")
    for i, p in enumerate(players):
        Seat.objects.create(table=table, index=i, player=p)
    result = Result.objects.create(
        club=club,
        competition=comp,
        table=table,
        source="manual",
        status="accepted",
        scores=["1", "-1", "0", "0"],
        record={"note": mark},
        entered_by=user,
    )
    Entry.objects.create(
        club=club,
        competition=comp,
        result=result,
        table=table,
        player=players[0],
        seat=0,
        points=Decimal(1),
        source="manual",
        entered_by=user,
        sequence=1,
        prev_hash="0" * 64,
        hash="1" * 64,
    )
    hook = Webhook.objects.create(
        club=club, url=f"https://{mark}.example/hook", secret=f"{mark}-webhook-secret"
    )
    WebhookDelivery.objects.create(webhook=hook, event=f"{mark}.event", payload={"m": mark})
    Dispute.objects.create(result=result, opened_by=user, reason=f"{mark} dispute")
    Rating.objects.create(club=club, game="tarocco", player=players[0], mu=25, sigma=8)
    ImportJob.objects.create(
        club=club, user=user, filename=f"{mark}.csv", format="csv", content=mark
    )
    token, key = ApiToken.mint(
        user=user, club=club, scope=ApiToken.Scope.ORGANISER, name=f"{mark} token"
    )
    GameTable.objects.create(
        club=club, competition=comp, game="tarocco", seed=1, deal={}, created_by=user
    )
    Case.objects.create(club=club, competition=comp, result=result, game="tarocco", opened_by=user)
    ArtificialScores.objects.create(competition=comp, average_plus=60, average=50, average_minus=40)
    return {"club": club, "competition": comp, "players": players, "key": key, "token": token}


@pytest.fixture
def world(django_user_model):
    boss = django_user_model.objects.create_superuser("boss", "", "pw-boss")
    a = _club_with_everything("zeppelin", MARK, boss)
    b = _club_with_everything("bravo", "bravo", boss)
    staff = django_user_model.objects.create_user("bstaff", "", "pw-bstaff", is_staff=True)
    # The worst case: every permission the admin knows, yet no superuser.
    staff.user_permissions.set(Permission.objects.all())
    me = Player.objects.create(name="B organiser", user=staff)
    Membership.objects.create(club=b["club"], player=me, role=Role.ORGANISER)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(staff)
    return {"a": a, "b": b, "staff": staff, "me": me, "client": client, "boss": boss}


def _admin_url(model: Any, view: str, *args: Any) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{view}", args=args)


def _club_models() -> list[Any]:
    return [m for m in admin.site._registry if club_path(m) is not None]


def test_every_admin_of_club_data_is_scoped_to_the_staff_logins_clubs():
    unscoped = [
        m.__name__ for m in _club_models() if not isinstance(admin.site._registry[m], ClubScoped)
    ]
    assert unscoped == []
    for _m, model_admin in admin.site._registry.items():
        for inline in model_admin.inlines:
            if club_path(inline.model) is not None:
                assert hasattr(inline, "get_queryset") and "ScopedInline" in [
                    c.__name__ for c in inline.__mro__
                ], inline


def test_a_staff_organiser_of_b_sees_nothing_of_a_in_any_list_or_add_form(world):
    client = world["client"]
    seen = 0
    for model in admin.site._registry:
        listing = client.get(_admin_url(model, "changelist"))
        assert listing.status_code in (200, 403), model
        assert MARK not in listing.content.decode().lower(), model
        if listing.status_code == 200:
            seen += 1
        added = client.get(_admin_url(model, "add"))
        assert added.status_code in (200, 403), model
        assert MARK not in added.content.decode().lower(), model
    assert seen >= 15  # the lists were there, with B's rows
    home = client.get(reverse("admin:index")).content.decode()
    assert "API tokens" in home and MARK not in home.lower()
    # The lists do show B's own rows.
    assert "bravo cup" in client.get(_admin_url(Competition, "changelist")).content.decode()


def test_a_staff_organiser_of_b_can_open_change_or_delete_nothing_of_a(world):
    client = world["client"]
    for model in _club_models():
        path = club_path(model)
        for obj in model._default_manager.filter(**{f"{path}__in": [world["a"]["club"].pk]}):
            for view in ("change", "delete", "history"):
                answer = client.get(_admin_url(model, view, obj.pk))
                assert answer.status_code in (302, 403, 404), (model, view)
                assert MARK not in answer.content.decode().lower()
            client.post(_admin_url(model, "delete", obj.pk), {"post": "yes"})
            assert model._default_manager.filter(pk=obj.pk).exists(), model
    # A change posted to A's competition changes nothing.
    comp = world["a"]["competition"]
    client.post(
        _admin_url(Competition, "change", comp.pk),
        {"name": "taken", "slug": comp.slug, "club": comp.club_id, "game": "tarocco"},
    )
    comp.refresh_from_db()
    assert comp.name == f"{MARK} cup"
    # Nor does the delete action over a list of ids.
    client.post(
        _admin_url(Competition, "changelist"),
        {"action": "delete_selected", "_selected_action": [comp.pk], "post": "yes"},
    )
    assert Competition.objects.filter(pk=comp.pk).exists()


def test_a_staff_organiser_cannot_make_themselves_organiser_of_another_club(world):
    client, a, b, me = world["client"], world["a"], world["b"], world["me"]
    # Through the memberships list.
    answer = client.post(
        _admin_url(Membership, "add"),
        {"club": a["club"].pk, "player": me.pk, "role": Role.ORGANISER},
    )
    assert answer.status_code == 200  # the form again, with its error
    assert not Membership.objects.filter(club=a["club"], player=me).exists()
    # Through a competition or a table of A.
    client.post(
        _admin_url(Competition, "add"),
        {
            "club": a["club"].pk,
            "name": "mine",
            "slug": "mine",
            "game": "tarocco",
            "format": "league",
            "confirmation": "none",
            "ruleset": "{}",
            "standings_settings": "{}",
            "created_at_0": "2026-01-01",
            "created_at_1": "10:00",
            "rounds-TOTAL_FORMS": "0",
            "rounds-INITIAL_FORMS": "0",
        },
    )
    assert not Competition.objects.filter(club=a["club"], slug="mine").exists()
    # Through B's club page, adding one of A's players to B (a player of A is no choice).
    answer = client.get(_admin_url(Club, "change", b["club"].pk))
    assert answer.status_code == 200 and MARK not in answer.content.decode().lower()
    # Logins and groups are the site's: no list, no change, no new superuser.
    for url in (reverse("admin:auth_user_changelist"), reverse("admin:auth_user_add")):
        assert client.get(url).status_code == 403
    staff = world["staff"]
    client.post(
        reverse("admin:auth_user_change", args=[staff.pk]),
        {"username": "bstaff", "is_superuser": "on", "is_staff": "on", "is_active": "on"},
    )
    staff.refresh_from_db()
    assert not staff.is_superuser
    # The autocomplete of players offers none of A's.
    found = client.get(
        "/admin/autocomplete/",
        {"app_label": "clubs", "model_name": "membership", "field_name": "player", "term": "z"},
    )
    assert MARK not in found.content.decode().lower()


def test_no_token_can_be_minted_in_the_admin_and_none_for_another_club(world):
    client, a = world["client"], world["a"]
    before = ApiToken.objects.count()
    assert client.get(_admin_url(ApiToken, "add")).status_code == 403
    assert client.get("/admin/authtoken/tokenproxy/add/").status_code == 404
    # Nor on A's page for tokens.
    assert client.get(reverse("club-tokens", args=[a["club"].slug])).status_code == 403
    answer = client.post(
        reverse("club-tokens", args=[a["club"].slug]),
        {"name": "mine", "scope": "organiser", "expiry": "never"},
    )
    assert answer.status_code == 403
    assert (
        client.post(reverse("club-tokens-revoke", args=[a["club"].slug, a["token"].pk])).status_code
        == 403
    )
    assert ApiToken.objects.count() == before
    a["token"].refresh_from_db()
    assert a["token"].revoked_at is None


def test_a_tokens_key_is_shown_once_and_stored_only_as_a_digest(world):
    client, b = world["client"], world["b"]
    page = reverse("club-tokens", args=[b["club"].slug])
    made = client.post(page, {"name": "Table app", "scope": "scorekeeper", "expiry": "30"})
    assert made.status_code == 201
    token = ApiToken.objects.get(name="Table app")
    text = made.content.decode()
    start = text.index('id="token-key"')
    key = text[start:].split('value="', 1)[1].split('"', 1)[0]
    assert len(key) == 40 and key.startswith(token.prefix)
    assert made["Cache-Control"].startswith("max-age=0")
    # Nothing stored holds the key; no later page shows it.
    assert key not in repr(list(ApiToken.objects.values()))
    boss = Client()
    boss.force_login(world["boss"])
    for who in (client, boss):
        for url in (
            page,
            _admin_url(ApiToken, "changelist"),
            _admin_url(ApiToken, "change", token.pk),
            reverse("home"),
        ):
            answer = who.get(url)
            assert answer.status_code == 200, url
            assert key not in answer.content.decode()
            assert key[:20] not in answer.content.decode()
    # The key works, for B only and within its scope.
    api = Client(HTTP_AUTHORIZATION=f"Token {key}", HTTP_ACCEPT_LANGUAGE="en")
    assert api.get("/api/v1/results/").status_code == 200
    a_table = Table.objects.get(competition=world["a"]["competition"])
    answer = api.post(
        "/api/v1/results/",
        {"table": a_table.pk, "source": "manual", "scores": [1, -1, 0, 0]},
        content_type="application/json",
    )
    assert answer.status_code == 403
    b_comp = world["b"]["competition"]
    assert b_comp.club.allows(world["staff"], Role.ORGANISER)
    answer = api.post(
        "/api/v1/competitions/",
        {"club": b_comp.club_id, "name": "New", "slug": "new", "game": "tarocco"},
        content_type="application/json",
    )
    assert answer.status_code == 403  # a score-entry token is no organiser
    # Revoked, it stops working at once.
    client.post(reverse("club-tokens-revoke", args=[b["club"].slug, token.pk]))
    refused = api.get("/api/v1/results/")
    assert refused.status_code in (401, 403) and "revoked" in refused.content.decode()


def test_an_expired_token_is_refused(world):
    from datetime import timedelta

    from django.utils import timezone

    _token, key = ApiToken.mint(
        user=world["staff"],
        club=world["b"]["club"],
        scope="member",
        name="old",
        expires_at=timezone.now() - timedelta(seconds=1),
    )
    answer = Client(HTTP_AUTHORIZATION=f"Token {key}", HTTP_ACCEPT_LANGUAGE="en").get(
        "/api/v1/results/"
    )
    assert answer.status_code in (401, 403) and "expired" in answer.content.decode()


def test_a_superusers_club_token_is_an_organiser_of_that_club_only(world):
    from ledger.api.auth import TokenAuthentication

    _, key = ApiToken.mint(
        user=world["boss"], club=world["b"]["club"], scope="organiser", name="boss@b"
    )
    user, _ = TokenAuthentication().authenticate_credentials(key)
    assert not user.is_superuser and not user.is_staff
    assert world["b"]["club"].role_of(user) == Role.ORGANISER
    assert world["a"]["club"].role_of(user) is None


def test_the_migration_turns_clear_tokens_into_digests_that_still_work(django_user_model):
    import importlib

    from django.apps import apps
    from rest_framework.authtoken.models import Token

    from ledger.api.auth import TokenAuthentication

    login = django_user_model.objects.create_user("old-app", "", "pw")
    old = Token.objects.create(user=login)
    migration = importlib.import_module("ledger.clubs.migrations.0012_api_tokens")
    migration.hash_existing_tokens(apps, None)
    assert not Token.objects.exists()
    token = ApiToken.objects.get(user=login)
    assert token.club is None and token.prefix == old.key[:8] and old.key not in token.digest
    user, _ = TokenAuthentication().authenticate_credentials(old.key)
    assert user.pk == login.pk
