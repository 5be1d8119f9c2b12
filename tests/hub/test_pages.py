"""The pages of a sync: at the venue, the office's page keeps the hub's address and the token
sealed (an address that is not HTTPS refused at its field, what was typed kept) and its
button starts a sync whose progress and stop the page shows; on the hub, an officer issues
a member club's upload token on the federation's page, which shows each club's last sync."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.utils import translation

from ledger.clubs.storage import signing
from ledger.federation import services as federation
from ledger.hub import services
from ledger.hub.models import ClubToken, HubLink, SyncRun, Upload

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english() -> Any:
    with translation.override("en"):
        yield


def test_the_office_keeps_the_hubs_address_and_its_token_sealed(client: Any, people: Any) -> None:
    client.force_login(people.users["organiser"])
    office = client.get(f"/c/{people.club.slug}/office/", HTTP_ACCEPT_LANGUAGE="en")
    assert f'href="/c/{people.club.slug}/office/hub/"' in office.content.decode()
    url = f"/c/{people.club.slug}/office/hub/"
    wrong = client.post(
        url,
        {"action": "save", "url": "http://hub.example.org", "token": "hub_secret-token"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert wrong.status_code == 400
    page = wrong.content.decode()
    field = page[page.index('id="field-url"') :][:600]
    assert "must start with https://" in field
    assert 'value="http://hub.example.org"' in field
    assert not HubLink.objects.exists()
    kept = client.post(
        url,
        {"action": "save", "url": "https://hub.example.org", "token": "hub_secret-token"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert kept.status_code == 302
    link = HubLink.objects.get()
    assert "hub_secret-token" not in link.token_sealed
    assert signing.open_secret(link.token_sealed) == "hub_secret-token"
    # Saved again without a token: the one kept stays.
    client.post(url, {"action": "save", "url": "https://hub2.example.org", "token": ""})
    link.refresh_from_db()
    assert link.url == "https://hub2.example.org"
    assert signing.open_secret(link.token_sealed) == "hub_secret-token"


def test_only_the_clubs_organisers_open_its_sync_page(client: Any, people: Any) -> None:
    client.force_login(people.users["member"])
    assert client.get(f"/c/{people.club.slug}/office/hub/").status_code == 403


def test_the_button_runs_a_sync_in_the_background_and_the_page_shows_why_it_stopped(
    client: Any, people: Any, django_capture_on_commit_callbacks: Any
) -> None:
    client.force_login(people.users["organiser"])
    # A hub that is not there (nothing listens on port 9 of this machine).
    HubLink.objects.create(
        club=people.club,
        url="http://127.0.0.1:9",
        token_sealed=signing.seal_secret("hub_x"),
        token_hint="hub_x",
    )
    url = f"/c/{people.club.slug}/office/hub/"
    with django_capture_on_commit_callbacks(execute=True):
        started = client.post(url, {"action": "sync"}, HTTP_ACCEPT_LANGUAGE="en")
    assert started.status_code == 302
    run = SyncRun.objects.get()
    assert run.status == SyncRun.Status.FAILED
    assert run.message.startswith("the hub cannot be reached")
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="sync-stopped"' in page and "the hub cannot be reached" in page
    progress = client.get(
        f"/c/{people.club.slug}/office/hub/runs/{run.pk}/", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert "Stopped" in progress.content.decode()
    assert "hx-trigger" not in progress.content.decode()  # it no longer asks again


def test_the_progress_asks_again_while_a_sync_runs(client: Any, people: Any) -> None:
    client.force_login(people.users["organiser"])
    run = SyncRun.objects.create(club=people.club, status="running", total=72, sent=25)
    run.chunks, run.chunks_sent = 3, 1
    run.save()
    html = client.get(
        f"/c/{people.club.slug}/office/hub/runs/{run.pk}/", HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert "25 of 72 journal lines" in html and "chunk 1 of 3" in html
    assert 'value="34"' in html  # 25 / 72, in per cent
    assert 'hx-trigger="every 1s"' in html


def test_an_officer_issues_a_member_clubs_token_and_reads_its_last_sync(
    client: Any, people: Any
) -> None:
    founder = people.users["organiser"]
    fed = federation.found(user=founder, name="Federazione Toscana", region="Toscana")
    member = federation.apply(user=founder, federation=fed, club=people.club)
    federation.decide(user=founder, membership=member, approve=True)
    client.force_login(founder)
    page = f"/federations/{fed.slug}/"
    issued = client.post(
        page, {"action": "token", "membership": member.pk}, HTTP_ACCEPT_LANGUAGE="en", follow=True
    )
    said = issued.content.decode()
    token = re.search(r"is (hub_[A-Za-z0-9_-]+)\.", said)
    assert token is not None
    stored = ClubToken.objects.get()
    assert stored.digest == services.digest_of(token.group(1))
    assert token.group(1) not in (stored.digest, stored.hint)  # kept as its digest alone
    row = re.search(r'<tr id="sync-prova">.*?</tr>', said, re.S)
    assert row is not None and "not synced yet" in row.group(0)
    Upload.objects.create(
        club=people.club, digest="d" * 64, since=0, length=0, head="", lines=0, key_id="k"
    )
    people.club.journal_length, people.club.journal_head = 72, "ab12cd34ef56" + "0" * 52
    people.club.save()
    html = client.get(page, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    row = re.search(r'<tr id="sync-prova">.*?</tr>', html, re.S)
    assert row is not None
    assert ">72<" in row.group(0) and "ab12cd34ef56" in row.group(0)
    assert "not synced yet" not in row.group(0)


def test_only_an_officer_issues_a_token(people: Any) -> None:
    founder = people.users["organiser"]
    fed = federation.found(user=founder, name="Federazione Toscana")
    member = federation.apply(user=founder, federation=fed, club=people.club)
    federation.decide(user=founder, membership=member, approve=True)
    from ledger.clubs.errors import NotAllowed

    with pytest.raises(NotAllowed):
        federation.issue_upload_token(user=people.users["member"], membership=member)


@pytest.fixture
def _sequences_put_back() -> Any:
    """PostgreSQL's sequences ignore a rollback: the test's numbering is undone by hand, so
    that the tests after it number their rows as before."""
    from django.db import connection

    if connection.vendor != "postgresql":
        yield
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT sequencename, last_value, last_value IS NOT NULL FROM pg_sequences "
            "WHERE schemaname = current_schema()"
        )
        before = cursor.fetchall()
    yield
    with connection.cursor() as cursor:
        for name, value, called in before:
            cursor.execute("SELECT setval(%s, %s, %s)", [name, value or 1, called])


def test_a_venue_linked_to_a_hub_numbers_its_new_rows_in_its_clubs_own_block(
    people: Any, _sequences_put_back: None
) -> None:
    from ledger.clubs.models import Player
    from ledger.hub import client, numbers

    block = people.club.pk * 10**9
    before = Player.objects.create(name="Prima").pk
    assert before < block
    client.set_hub(club=people.club, url="https://hub.example.org", token="hub_x")
    after = Player.objects.create(name="Dopo").pk
    assert after == block  # the block's first number
    assert numbers.first_number(people.club.pk) == block
    # Linked again: the numbering goes on where it was.
    client.set_hub(club=people.club, url="https://hub.example.org", token="")
    assert Player.objects.create(name="Terza").pk == after + 1
