"""A venue sends its club's journal to the hub: each upload is checked and appended to the
hub's copy once; a forged, replayed or reordered upload, a wrong token and a wrong club are
refused with the reason (and the line); a sync stopped at a chunk's end or in the middle of
one carries on and ends with the hub holding what an uninterrupted sync leaves."""

from __future__ import annotations

import hashlib
from typing import Any

import orjson
import pytest
from django.utils import translation

from ledger.clubs import events
from ledger.clubs.models import Club, Entry, Standing
from ledger.clubs.transfer import transfer
from ledger.hub import client, services
from ledger.hub.models import ClubToken, Upload, VenueKey
from tests.hub.conftest import CHUNK, Venue

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english() -> Any:
    with translation.override("en"):
        yield


@pytest.fixture
def officer(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user(username="officer", password="pw")


@pytest.fixture
def hub_club(venue: Venue) -> Club:
    """The member club as the hub holds it before its venue's first upload: the same number
    and short name, no journal yet."""
    return Club.objects.create(pk=venue.club, slug=venue.slug, name=venue.name)


@pytest.fixture
def token(hub_club: Club, officer: Any) -> str:
    return services.issue_token(club=hub_club, user=officer)


def send(slug: str, token: str, body: bytes) -> services.Receipt:
    club, issued = services.authorise(slug, token)
    return services.receive(club, issued, body)


class Stop(Exception):
    """The venue's process killed, or its connection cut."""


class LocalHub:
    """The hub, called in this process as the venue's HTTPS calls reach it; ``trouble`` is
    what goes wrong at the n-th upload."""

    def __init__(self, slug: str, token: str, trouble: dict[int, str] | None = None) -> None:
        self.slug, self.token, self.trouble = slug, token, trouble or {}
        self.sent = 0

    def head(self) -> client.Head:
        club, _issued = services.authorise(self.slug, self.token)
        found = services.head_of(club)
        return client.Head(found.length, found.head)

    def send(self, body: bytes) -> client.Head:
        self.sent += 1
        trouble = self.trouble.get(self.sent)
        if trouble == "cut":  # the connection drops halfway through the upload
            body = body[: len(body) // 2]
        try:
            receipt = send(self.slug, self.token, body)
        except transfer.Refused as refused:
            raise client.SyncError(str(refused)) from None
        if trouble == "lost":  # applied at the hub, its answer never reaches the venue
            raise Stop("the answer was lost")
        return client.Head(receipt.head.length, receipt.head.head)


class Uploads:
    """The venue's journal and uploads, as its process wrote them (tests/hub/conftest.py)."""

    def __init__(self, venue: Venue) -> None:
        self.venue = venue

    def end(self) -> client.Head:
        return client.Head(self.venue.length, self.venue.hashes[self.venue.length])

    def hash_at(self, length: int) -> str:
        return self.venue.hashes[length]

    def upload(self, since: client.Head, upto: int, journal_only: bool) -> bytes:
        assert upto == min(since.length + CHUNK, self.venue.length)
        return self.venue.upload(since.length, journal_only)


def hub_holds(club: Club) -> tuple[list[tuple[int, str]], list[list[Any]]]:
    journal = list(
        Entry.objects.filter(club=club).order_by("sequence").values_list("sequence", "hash")
    )
    standings = sorted(
        [s.competition_id, s.player_id, f"{s.points:.2f}", s.played, s.wins, s.draws, s.losses]
        for s in Standing.objects.filter(competition__club=club)
    )
    return journal, standings


def venue_holds(venue: Venue) -> tuple[list[tuple[int, str]], list[list[Any]]]:
    journal = [(n, venue.hashes[n]) for n in range(1, venue.length + 1)]
    return journal, venue.standings


def line_of(body: bytes, kind: str, nth: int = 1) -> int:
    """The file's line number of the nth row of a kind."""
    seen = 0
    for n, line in enumerate(body.splitlines(), start=1):
        if orjson.loads(line[:-72] + b"}").get("t") == kind:
            seen += 1
            if seen == nth:
                return n
    raise AssertionError(kind)


def test_an_uninterrupted_sync_leaves_the_hub_the_venues_journal_and_standings(
    venue: Venue, token: str, hub_club: Club, django_capture_on_commit_callbacks: Any
) -> None:
    heard: list[dict[str, Any]] = []

    def listen(sender: Any, **said: Any) -> None:
        if said.get("kind") == events.JOURNAL_SYNCED:
            heard.append({"club": said["club"], "lines": said["lines"]})

    events.happened.connect(listen)
    progress: list[tuple[int, int, int, int]] = []
    try:
        with django_capture_on_commit_callbacks(execute=True):
            head = client.push(
                Uploads(venue),
                LocalHub(venue.slug, token),
                chunk=CHUNK,
                progress=lambda *seen: progress.append(seen),
            )
    finally:
        events.happened.disconnect(listen)
    chunks = -(-venue.length // CHUNK)
    assert venue.length == 72 and chunks == 4  # the demo club's journal, worked by hand
    assert (head.length, head.head) == (72, venue.hashes[72])
    assert hub_holds(hub_club) == venue_holds(venue)
    assert progress[0] == (0, 72, 0, 4) and progress[-1] == (72, 72, 4, 4)
    assert [p[0] for p in progress] == [0, 20, 40, 60, 72]
    assert heard == [{"club": venue.club, "lines": n} for n in (20, 20, 20, 12)]
    uploads = list(Upload.objects.filter(club=hub_club).order_by("since"))
    assert [(u.since, u.length, u.lines) for u in uploads] == [
        (0, 20, 20),
        (20, 40, 20),
        (40, 60, 20),
        (60, 72, 12),
    ]
    # The first upload registered the venue's key against the token.
    assert list(VenueKey.objects.values_list("public_key", flat=True)) == [venue.key]
    # The hub sealed the lines again with its own key, at their place.
    hub_club.refresh_from_db()
    assert (hub_club.journal_length, hub_club.journal_head) == (72, venue.hashes[72])


def test_sending_the_same_upload_twice_changes_nothing(
    venue: Venue, token: str, hub_club: Club
) -> None:
    first = send(venue.slug, token, venue.upload(0))
    before = hub_holds(hub_club)
    again = send(venue.slug, token, venue.upload(0))
    assert (first.lines, first.again) == (20, False)
    assert (again.lines, again.again) == (0, True)
    assert again.head == first.head
    assert hub_holds(hub_club) == before
    assert Upload.objects.count() == 1


def test_a_forged_journal_line_is_refused_with_its_line_and_nothing_is_written(
    venue: Venue, token: str, hub_club: Club
) -> None:
    body = venue.upload(0)
    lines = body.splitlines(keepends=True)
    at = line_of(body, "entry", 3)
    row = orjson.loads(lines[at - 1].rstrip(b"\n")[:-72] + b"}")
    row["points"] = "99.00"  # a score raised, its line's check made again to hide it
    lines[at - 1] = (
        orjson.dumps(row, option=orjson.OPT_SORT_KEYS)[:-1] + b',"x":"' + b"0" * 64 + b'"}\n'
    )
    check, forged = b"", []
    for line in lines:
        head = line.rstrip(b"\n")[:-72]
        check = hashlib.sha256(check + head).hexdigest().encode()
        forged.append(head + b',"x":"' + check + b'"}\n')
    with pytest.raises(transfer.Refused) as refused:
        send(venue.slug, token, b"".join(forged))
    assert refused.value.line == at
    assert str(refused.value) == (
        f"line {at}: journal line #3 was changed: its hash does not match what it says"
    )
    assert not Entry.objects.exists() and not Upload.objects.exists()
    # Nor was the key registered: the token's first upload is still to come.
    assert not VenueKey.objects.exists()


def test_a_line_changed_with_every_hash_made_again_fails_the_signature(
    venue: Venue, token: str, hub_club: Club
) -> None:
    body = venue.upload(0)
    end = line_of(body, "end")
    lines = body.splitlines(keepends=True)
    row = orjson.loads(lines[end - 1].rstrip(b"\n")[:-72] + b"}")
    row["signature"] = "00" * 64
    lines[end - 1] = (
        orjson.dumps(row, option=orjson.OPT_SORT_KEYS)[:-1] + b',"x":"' + b"0" * 64 + b'"}\n'
    )
    check, forged = b"", []
    for line in lines:
        head = line.rstrip(b"\n")[:-72]
        check = hashlib.sha256(check + head).hexdigest().encode()
        forged.append(head + b',"x":"' + check + b'"}\n')
    with pytest.raises(transfer.Refused) as refused:
        send(venue.slug, token, b"".join(forged))
    assert refused.value.line == end
    assert "the file's signature does not hold" in str(refused.value)
    assert not Entry.objects.exists()


def test_a_replayed_upload_is_refused_at_its_first_journal_line(
    venue: Venue, token: str, hub_club: Club
) -> None:
    send(venue.slug, token, venue.upload(0))
    send(venue.slug, token, venue.upload(20, journal_only=True))
    before = hub_holds(hub_club)
    replayed = venue.upload(0)
    with pytest.raises(transfer.Refused) as refused:
        send(venue.slug, token, replayed)
    at = line_of(replayed, "entry")
    assert str(refused.value) == (
        f"line {at}: journal line #1 is already here (an earlier upload brought it): this "
        "upload was sent before, or replayed"
    )
    assert hub_holds(hub_club) == before and Upload.objects.count() == 2


def test_an_upload_sent_before_the_one_it_follows_is_refused_as_out_of_order(
    venue: Venue, token: str, hub_club: Club
) -> None:
    second = venue.upload(20)
    with pytest.raises(transfer.Refused) as refused:
        send(venue.slug, token, second)
    at = line_of(second, "entry")
    assert str(refused.value) == (
        f"line {at}: this upload starts after journal line #20, but the lines here stop at "
        "#0: an upload before it is missing (uploads sent out of order)"
    )
    assert not Entry.objects.exists()
    # In its turn it is taken.
    send(venue.slug, token, venue.upload(0))
    assert send(venue.slug, token, second).head.length == 40


def test_a_wrong_or_withdrawn_token_is_refused_before_anything_is_read(
    venue: Venue, token: str, hub_club: Club, client: Any
) -> None:
    url = f"/hub/sync/{venue.slug}/upload/"
    answer = client.post(
        url,
        venue.upload(0),
        content_type=client_type(),
        HTTP_AUTHORIZATION="Bearer hub_nope",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert answer.status_code == 401
    assert "the hub does not know this token" in answer.json()["error"]
    ClubToken.objects.update(withdrawn_at="2026-01-01T00:00:00Z")
    answer = client.get(f"/hub/sync/{venue.slug}/head/", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert answer.status_code == 401
    assert not Entry.objects.exists()


def client_type() -> str:
    return client.UPLOAD_TYPE


def test_a_token_sends_only_its_own_clubs_results(
    venue: Venue, token: str, hub_club: Club, officer: Any, client: Any
) -> None:
    other = Club.objects.create(pk=venue.club + 1, name="Altro circolo", slug="altro")
    theirs = services.issue_token(club=other, user=officer)
    # Another club's token on this club's address.
    answer = client.post(
        f"/hub/sync/{venue.slug}/upload/",
        venue.upload(0),
        content_type=client_type(),
        HTTP_AUTHORIZATION=f"Bearer {theirs}",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert answer.status_code == 403
    assert answer.json()["error"] == (
        "this token is for the club 'altro' and sends only that club's results"
    )
    # This club's upload sent to the other club's copy with its token.
    answer = client.post(
        "/hub/sync/altro/upload/",
        venue.upload(0),
        content_type=client_type(),
        HTTP_AUTHORIZATION=f"Bearer {theirs}",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert answer.status_code == 409
    club_line = line_of(venue.upload(0), "club")
    assert answer.json() == {
        "error": (
            f"line {club_line}: this upload is of the club 'circolo-pisano' (number "
            f"{venue.club}), not of 'altro' (number {other.pk}) whose copy it was sent to"
        ),
        "line": club_line,
    }
    assert not Entry.objects.exists() and not VenueKey.objects.exists()


def test_an_upload_over_http_through_the_hubs_address_is_taken(
    venue: Venue, token: str, hub_club: Club, client: Any
) -> None:
    answer = client.post(
        f"/hub/sync/{venue.slug}/upload/",
        venue.upload(0),
        content_type=client_type(),
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    assert answer.status_code == 200, answer.content
    assert answer.json() == {"length": 20, "head": venue.hashes[20], "lines": 20, "again": False}
    head = client.get(f"/hub/sync/{venue.slug}/head/", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert head.json() == {"length": 20, "head": venue.hashes[20]}


def test_uploads_over_plain_http_are_refused_when_the_hub_takes_https_only(
    venue: Venue, token: str, hub_club: Club, client: Any, settings: Any
) -> None:
    settings.LEDGER_HUB_HTTPS_ONLY = True
    answer = client.get(
        f"/hub/sync/{venue.slug}/head/",
        HTTP_AUTHORIZATION=f"Bearer {token}",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert answer.status_code == 403
    assert answer.json()["error"] == "the hub takes uploads over HTTPS only"
    secure = client.get(
        f"/hub/sync/{venue.slug}/head/", HTTP_AUTHORIZATION=f"Bearer {token}", secure=True
    )
    assert secure.status_code == 200


@pytest.mark.parametrize(
    "trouble",
    [
        pytest.param({2: "lost"}, id="at-a-chunks-end-the-answer-lost"),
        pytest.param({3: "cut"}, id="mid-chunk-the-connection-cut"),
    ],
)
def test_a_sync_stopped_carries_on_and_ends_as_an_uninterrupted_one(
    venue: Venue, token: str, hub_club: Club, trouble: dict[int, str]
) -> None:
    with pytest.raises((Stop, client.SyncError)):
        client.push(Uploads(venue), LocalHub(venue.slug, token, trouble), chunk=CHUNK)
    assert 0 < Entry.objects.filter(club=hub_club).count() < venue.length
    # Run again: from the hub's head.
    progress: list[tuple[int, int, int, int]] = []
    client.push(
        Uploads(venue),
        LocalHub(venue.slug, token),
        chunk=CHUNK,
        progress=lambda *seen: progress.append(seen),
    )
    assert hub_holds(hub_club) == venue_holds(venue)
    assert progress[0][:2] == (0, venue.length - 40)  # from the head the hub holds: #40
    assert Upload.objects.count() == 4  # no chunk twice


def test_a_hub_killed_while_writing_an_upload_keeps_none_of_it_and_the_sync_carries_on(
    venue: Venue, token: str, hub_club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    send(venue.slug, token, venue.upload(0))
    writes = {"n": 0}
    real = transfer._insert

    def dies(*args: Any) -> None:
        writes["n"] += 1
        if writes["n"] == 2:
            raise Stop("killed")
        real(*args)

    monkeypatch.setattr(transfer, "_insert", dies)
    with pytest.raises(Stop):
        client.push(Uploads(venue), LocalHub(venue.slug, token), chunk=CHUNK)
    assert Entry.objects.filter(club=hub_club).count() == 20
    monkeypatch.setattr(transfer, "_insert", real)
    client.push(Uploads(venue), LocalHub(venue.slug, token), chunk=CHUNK)
    assert hub_holds(hub_club) == venue_holds(venue)


def test_a_key_the_hub_does_not_know_for_the_club_needs_a_new_token_from_an_officer(
    venue: Venue, token: str, hub_club: Club, officer: Any
) -> None:
    from ledger.clubs.storage import signing

    send(venue.slug, token, venue.upload(0))  # registers the venue's key
    # An upload signed with another key (this process's: a new laptop, say).
    other = b"".join(transfer.export_lines(hub_club, since=(20, venue.hashes[20]), upto=20))
    with pytest.raises(transfer.Refused) as refused:
        send(venue.slug, token, other)
    assert str(refused.value) == (
        f"line 1: the upload is signed with the key {signing.key_id()}, which the hub does not "
        f"know for this club (it knows {signing.key_id(venue.key)}): a new key (a new venue "
        "laptop) is registered by the first upload with a new token from the federation's "
        "officer"
    )
    # The officer vouches for the new laptop by issuing it a token: its first upload
    # registers the key.
    fresh = services.issue_token(club=hub_club, user=officer)
    taken = send(venue.slug, fresh, other)
    assert (taken.head.length, taken.lines) == (20, 0)
    assert sorted(VenueKey.objects.values_list("key_id", flat=True)) == sorted(
        [signing.key_id(venue.key), signing.key_id()]
    )


def test_an_upload_writes_over_the_rows_the_venue_changed_and_leaves_the_others_as_they_were(
    venue: Venue, token: str, hub_club: Club
) -> None:
    from django.db import connection

    from ledger.clubs.models import Competition, Result

    send(venue.slug, token, venue.upload(0))
    send(venue.slug, token, venue.upload(20))
    # The hub's copy of one competition differs from the venue's (as a row the venue
    # changed since the last upload would): the next upload brings the venue's back.
    competition = Competition.objects.filter(club=hub_club).order_by("pk").first()
    assert competition is not None
    venues_name = competition.name
    Competition.objects.filter(pk=competition.pk).update(name="Stale at the hub")
    pg = connection.vendor == "postgresql"

    def versions() -> dict[int, str]:
        # PostgreSQL's row version: a row written again gets a new one.
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT id, xmin::text FROM clubs_result WHERE club_id = %s", [venue.club]
            )
            return dict(cursor.fetchall())

    before = versions() if pg else {}
    send(venue.slug, token, venue.upload(40))
    competition.refresh_from_db()
    assert competition.name == venues_name
    assert Result.objects.filter(club=hub_club).count() >= len(before)
    if pg:
        # The results the upload carried unchanged were not written again.
        after = versions()
        assert before and all(after[pk] == version for pk, version in before.items())
