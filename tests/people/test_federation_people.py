"""One person across a federation's clubs: "did you mean" before anyone new is made (the
enrolment by paste and the members' page), the officers' likely duplicates with a merge's
preview, the merge and its undoing from that page, and a person's page across the clubs."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from ledger.clubs import people as who
from ledger.clubs.models import Club, Competition, Membership, Merge, Player, Standing
from ledger.clubs.results.services import create_table
from ledger.federation import services
from ledger.federation.cards import valid_card
from ledger.federation.models import Card
from ledger.formats.models import Entrant
from tests.ledger.helpers import record

pytestmark = pytest.mark.django_db

ACCENTED = "Niccolò Della Gherardesca"
PLAIN = "Niccolo Della Gherardesca"


@pytest.fixture
def fed(people: Any, other_club: Club, manual_competition: Competition) -> dict[str, Any]:
    """Two member clubs of one federation; Niccolò plays in the other club."""
    founder = people.users["organiser"]
    federation = services.found(user=founder, name="Federazione Toscana")
    for club in (people.club, other_club):
        applied = (
            services.apply(user=founder, federation=federation, club=club)
            if club == people.club
            else None
        )
        if applied is None:
            Membership.objects.create(
                club=other_club, player=people.players["organiser"], role="organiser"
            )
            applied = services.apply(user=founder, federation=federation, club=other_club)
        services.decide(user=founder, membership=applied, approve=True)
    nicc = Player.objects.create(name=ACCENTED)
    Membership.objects.create(club=other_club, player=nicc)
    there = Competition.objects.create(
        club=other_club, name="Torneo di Lucca", slug="lucca", game=manual_competition.game
    )
    Membership.objects.create(club=other_club, player=people.extra[4])
    table = create_table(
        user=founder, competition=there, label="L1", players=[nicc, people.extra[4]]
    )
    record(people, table, [6, -6], who="organiser")
    return {"federation": federation, "nicc": nicc, "there": there, "officer": founder}


def _client(user: Any) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    return client


def test_a_pasted_name_without_its_accent_asks_for_the_person_of_another_club(
    people: Any, fed: dict[str, Any], manual_competition: Competition
) -> None:
    client = _client(people.users["organiser"])
    url = reverse("office-enrol", args=[people.club.slug, manual_competition.slug])
    pasted = f"Giocatore 0\n{PLAIN}\nZeno Nuovo"
    asked = client.post(url, {"how": "paste", "names": pasted})
    page = asked.content.decode()
    assert f"Did you mean {ACCENTED} (Altro circolo)?" in page
    assert "No: Zeno Nuovo is someone new" not in page  # nobody like Zeno: nothing to ask
    assert pasted in page  # the typed text kept
    before = Player.objects.count()
    # The person of the same name is chosen already: confirming adds them, not a new player.
    done = client.post(
        url, {"how": "paste", "names": pasted, "confirm": "1", "choice-0": str(fed["nicc"].pk)}
    )
    assert done.status_code == 302
    assert Player.objects.count() == before + 1  # Zeno only
    assert Membership.objects.filter(club=people.club, player=fed["nicc"]).exists()
    entered = set(
        Entrant.objects.filter(competition=manual_competition).values_list(
            "player__name", flat=True
        )
    )
    assert entered == {"Giocatore 0", ACCENTED, "Zeno Nuovo"}


def test_choosing_someone_new_makes_a_new_player(
    people: Any, fed: dict[str, Any], manual_competition: Competition
) -> None:
    client = _client(people.users["organiser"])
    url = reverse("office-enrol", args=[people.club.slug, manual_competition.slug])
    client.post(url, {"how": "paste", "names": PLAIN, "confirm": "1", "choice-0": "new"})
    assert Player.objects.filter(name=PLAIN).count() == 1
    assert not Membership.objects.filter(club=people.club, player=fed["nicc"]).exists()


def test_the_members_page_asks_did_you_mean_before_adding_anyone(
    people: Any, fed: dict[str, Any]
) -> None:
    client = _client(people.users["organiser"])
    url = reverse("office-members", args=[people.club.slug])
    form = {"action": "add", "add-name": PLAIN, "add-role": "member"}
    asked = client.post(url, form)
    assert asked.status_code == 200
    assert f"Did you mean {ACCENTED} (Altro circolo)?" in asked.content.decode()
    assert not Player.objects.filter(name=PLAIN).exists()
    client.post(url, {**form, "choice": str(fed["nicc"].pk)})
    assert Membership.objects.filter(club=people.club, player=fed["nicc"]).exists()
    assert not Player.objects.filter(name=PLAIN).exists()
    # A member's name typed without its accent is the member already.
    again = client.post(url, form)
    assert again.status_code == 400
    assert f"{ACCENTED} is already a member." in again.content.decode()


def _duplicate(people: Any, competition: Competition) -> Player:
    """Niccolo, typed without the accent in this club, who won a game here."""
    dup = Player.objects.create(name=PLAIN)
    Membership.objects.create(club=people.club, player=dup)
    table = create_table(
        user=people.users["organiser"],
        competition=competition,
        label="T1",
        players=[dup, people.extra[0]],
    )
    record(people, table, [4, -4])
    return dup


def test_officers_see_the_duplicate_with_a_preview_merge_it_and_undo_it(
    people: Any, fed: dict[str, Any], manual_competition: Competition
) -> None:
    dup = _duplicate(people, manual_competition)
    the, nicc = fed["federation"], fed["nicc"]
    url = reverse("federation-people", args=[the.slug])
    stranger = Client(HTTP_ACCEPT_LANGUAGE="en")
    assert "Likely duplicates" not in stranger.get(url).content.decode()
    client = _client(fed["officer"])
    page = client.get(url).content.decode()
    assert "Likely duplicates" in page
    # The one with more results is kept (one each: the first made); the preview counts
    # the duplicate's membership, result and two journal lines... of its own seat: one.
    assert f"Merge {PLAIN} into {ACCENTED}" in page or f"Merge {ACCENTED} into {PLAIN}" in page
    merged, into = (dup, nicc) if f"Merge {PLAIN} into" in page else (nicc, dup)
    assert "Circolo di prova" in page and "Altro circolo" in page
    done = client.post(url, {"action": "merge", "merged": merged.pk, "into": into.pk})
    assert done.status_code == 302
    assert who.canonical(merged.pk) == into.pk
    standing = Standing.objects.get(competition=manual_competition, player=into)
    assert standing.points == Decimal("4.00")  # Niccolo's win, now the person's
    page = client.get(url).content.decode()
    assert f"{merged.name} counts as {into.name}" in page
    line = Merge.objects.get(act="merge")
    client.post(url, {"action": "undo", "merge": line.pk})
    assert who.canonical(merged.pk) == merged.pk
    assert Standing.objects.get(competition=manual_competition, player=dup).points == Decimal(
        "4.00"
    )


def test_a_merge_of_two_people_with_a_login_each_is_refused_on_the_page(
    people: Any, fed: dict[str, Any], django_user_model: Any
) -> None:
    the = fed["federation"]
    Player.objects.filter(pk=fed["nicc"].pk).update(user=people.users["stranger"])
    login = django_user_model.objects.create_user(username="niccolo", password="pw-n")
    twin = Player.objects.create(name=ACCENTED, user=login)
    Membership.objects.create(club=people.club, player=twin)
    client = _client(fed["officer"])
    url = reverse("federation-people", args=[the.slug])
    page = client.get(url).content.decode()
    assert "have their own login, and a person keeps one" in page
    refused = client.post(url, {"action": "merge", "merged": twin.pk, "into": fed["nicc"].pk})
    assert refused.status_code == 409
    assert not Merge.objects.exists()


def test_a_persons_page_lists_their_results_across_the_clubs_and_their_card(
    people: Any, fed: dict[str, Any], manual_competition: Competition
) -> None:
    the, nicc = fed["federation"], fed["nicc"]
    dup = _duplicate(people, manual_competition)
    today = timezone.localdate()
    season = services.add_season(
        user=fed["officer"],
        federation=the,
        name="2026",
        starts=date(today.year, 1, 1),
        ends=date(today.year, 12, 31),
    )
    Card.objects.create(
        season=season,
        number="1002",
        name="N. D. G.",
        player=dup,
        valid_from=season.starts,
        valid_until=season.ends,
    )
    assert valid_card(the.pk, nicc, today) is None
    from ledger.clubs.merges import preview

    # The preview names what else moves with the duplicate, in words.
    assert ("membership cards", 1) in preview(dup, nicc).others
    Merge.objects.create(merged=dup, into=nicc)
    from ledger.clubs.merges import _counting, _rebuild

    _rebuild(_counting([dup.pk, nicc.pk]))
    assert valid_card(the.pk, nicc, today) is not None  # the duplicate's card is the person's
    page = Client(HTTP_ACCEPT_LANGUAGE="en").get(
        reverse("federation-person", args=[the.slug, nicc.pk])
    )
    text = page.content.decode()
    assert "Card 1002" in text
    for club_slug, comp in (("altro", fed["there"]), ("prova", manual_competition)):
        assert f"/c/{club_slug}/{comp.slug}/r/" in text
    # The duplicate's page is the person's.
    moved = Client().get(reverse("federation-person", args=[the.slug, dup.pk]))
    assert moved.status_code == 302 and moved.url.endswith(f"/people/{nicc.pk}/")
    # And the club's player page links the person's federation page.
    mine = Client(HTTP_ACCEPT_LANGUAGE="en").get(reverse("player", args=["altro", nicc.pk]))
    assert reverse("federation-person", args=[the.slug, nicc.pk]) in mine.content.decode()


def test_a_players_name_key_follows_their_saves_and_players_written_in_bulk_are_caught_up(
    fed: dict[str, Any],
) -> None:
    from ledger.federation import name_index
    from ledger.federation.models import NameWord, PersonName

    nicc = fed["nicc"]
    assert PersonName.objects.get(player=nicc).key == "della gherardesca niccolo"
    nicc.name = "Niccolò D'Ella"
    nicc.save()
    assert PersonName.objects.get(player=nicc).key == "della niccolo"
    assert set(NameWord.objects.filter(player=nicc).values_list("word", flat=True)) == {
        "della",
        "niccolo",
    }
    bulk = Player.objects.bulk_create([Player(name="Zoë Bianchi"), Player(name="Ugo Neri")])
    assert not PersonName.objects.filter(player__in=bulk).exists()
    assert name_index.catch_up() == 2
    assert PersonName.objects.get(player=bulk[0]).key == "bianchi zoe"
    assert name_index.catch_up() == 0


def test_did_you_mean_reads_only_the_few_people_a_name_may_mean_of_a_large_federation(
    people: Any, fed: dict[str, Any], other_club: Club, monkeypatch: Any
) -> None:
    from ledger.federation import people as federation_people

    crowd = Player.objects.bulk_create([Player(name=f"Socio Numero {n}") for n in range(400)])
    Membership.objects.bulk_create([Membership(club=other_club, player=p) for p in crowd])
    close = Player.objects.create(name="Nicolo Della Gherardesca")  # one letter short
    Membership.objects.create(club=other_club, player=close)
    read: list[int] = []
    people_of = federation_people.people_of

    def counted(club_ids: Any, only: Any = None) -> Any:
        found = people_of(club_ids, only)
        read.append(len(found))
        return found

    monkeypatch.setattr(federation_people, "people_of", counted)
    offered = federation_people.nearby(people.club, [PLAIN])
    names = [k.player.name for k in federation_people.suggestions_for(PLAIN, offered)]
    assert names[0] == ACCENTED and "Nicolo Della Gherardesca" in names
    assert read and max(read) <= 5  # not the 400 members of the other club
