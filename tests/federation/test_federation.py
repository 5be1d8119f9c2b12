"""A region's federation (docs/federation.md): an officer founds it, a club applies and an
officer approves it, a season of membership cards is imported from the federation's list
(an Italian-Excel CSV and an .xlsx, a bad row named by its line), tiers carry a weight, and a
competition sanctioned at a tier checks its entrants' cards: a refusal above the club tier,
a warning at the club tier, as the federation sets."""

from __future__ import annotations

import io
from datetime import date

import openpyxl
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone, translation

from ledger.clubs.errors import Invalid, NotAllowed
from ledger.clubs.models import Competition, Membership, Player, Role
from ledger.federation import cards, services
from ledger.federation.models import Card, MemberClub, Tier
from ledger.formats.models import Entrant
from ledger.formats.services import enter_player


@pytest.fixture
def fed(people):
    """Toscana's federation, founded by the club's organiser, with the club a member."""
    founder = people.users["organiser"]
    federation = services.found(user=founder, name="Federazione Toscana", region="Toscana")
    membership = services.apply(user=founder, federation=federation, club=people.club)
    services.decide(user=founder, membership=membership, approve=True)
    today = timezone.localdate()
    season = services.add_season(
        user=founder,
        federation=federation,
        name=str(today.year),
        starts=date(today.year, 1, 1),
        ends=date(today.year, 12, 31),
    )
    return federation, season


def _csv_italian_excel(rows):
    text = "\r\n".join(";".join(r) for r in [["Numero", "Nome", "Valida dal", "Al"], *rows])
    return "\ufeff".encode() + text.encode("utf-8")


def test_a_club_applies_and_only_an_officer_approves_it(people, other_club, django_user_model):
    founder = people.users["organiser"]
    federation = services.found(user=founder, name="Federazione Ligure")
    other = django_user_model.objects.create_user(username="altra", password="pw")
    lucca = Player.objects.create(name="Organizzatrice di Lucca", user=other)
    Membership.objects.create(club=other_club, player=lucca, role=Role.ORGANISER)
    applied = services.apply(user=other, federation=federation, club=other_club)
    assert applied.status == MemberClub.Status.APPLIED
    with pytest.raises(NotAllowed):
        services.decide(user=other, membership=applied, approve=True)
    with pytest.raises(NotAllowed):  # a member, not an organiser, cannot make a club apply
        services.apply(user=people.users["member"], federation=federation, club=people.club)
    approved = services.decide(user=founder, membership=applied, approve=True)
    assert approved.status == MemberClub.Status.APPROVED and approved.decided_by == founder


def test_the_federations_list_as_an_italian_excel_csv_is_imported_and_matched_to_players(
    people, fed
):
    _federation, season = fed
    raw = _csv_italian_excel(
        [
            ["1001", "Giocatore 0", "", ""],
            ["1002", "gherardesca niccolò della", "01/02/2026", "31/12/2026"],
            ["1003", "Member", "", ""],
        ]
    )
    with translation.override("en"):
        imported = cards.import_cards(user=people.users["organiser"], season=season, raw=raw)
    assert imported.errors == []
    assert (imported.created, imported.linked) == (3, 2)
    assert imported.understood == "CSV, semicolon-separated"
    card = Card.objects.get(number="1002")
    assert (card.valid_from, card.valid_until) == (date(2026, 2, 1), date(2026, 12, 31))
    assert Card.objects.get(number="1001").player == people.extra[0]
    # The same list again changes nothing but brings the cards up to date.
    again = cards.import_cards(user=people.users["organiser"], season=season, raw=raw)
    assert (again.created, again.updated) == (0, 3)
    assert Card.objects.count() == 3


def test_an_xlsx_with_a_bad_row_imports_nothing_and_names_the_line(people, fed):
    _federation, season = fed
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["number", "name", "valid_from", "valid_until"])
    sheet.append([2001, "Anna Rizzo", None, None])
    sheet.append([2002, "", None, None])
    sheet.append([2003, "Bruno Greco", "31/12/2026", "01/01/2026"])
    out = io.BytesIO()
    book.save(out)
    with translation.override("en"):
        imported = cards.import_cards(
            user=people.users["organiser"], season=season, raw=out.getvalue()
        )
    assert [line for line, _why in imported.errors] == [3, 4]
    assert "name is missing" in imported.errors[0][1]
    assert "ends before it starts" in imported.errors[1][1]
    assert Card.objects.count() == 0


def test_only_an_officer_imports_cards(people, fed):
    _federation, season = fed
    with pytest.raises(NotAllowed):
        cards.import_cards(
            user=people.users["scorekeeper"], season=season, raw=b"number,name\n1,Anna\n"
        )


def _sanctioned(people, federation, missing_card, name):
    tier = services.add_tier(
        user=people.users["organiser"],
        federation=federation,
        name=name,
        weight="2,5" if missing_card == "refuse" else "1",
        missing_card=missing_card,
    )
    competition = Competition.objects.create(
        club=people.club, name=f"Torneo {name}", slug=f"torneo-{name.lower()}", game="tarocco"
    )
    services.sanction(user=people.users["organiser"], tier=tier, competition=competition)
    return competition


def test_a_regional_event_refuses_a_player_without_a_card_and_takes_one_with_it(people, fed):
    federation, season = fed
    cards.import_cards(
        user=people.users["organiser"],
        season=season,
        raw=_csv_italian_excel([["1001", "Giocatore 0", "", ""]]),
    )
    competition = _sanctioned(people, federation, "refuse", "Regionale")
    assert Tier.objects.get(name="Regionale").weight == pytest.approx(2.5)
    organiser = people.users["organiser"]
    entrant = enter_player(user=organiser, competition=competition, player=people.extra[0])
    assert entrant.player == people.extra[0]
    with pytest.raises(Invalid) as refused, translation.override("en"):
        enter_player(user=organiser, competition=competition, player=people.extra[1])
    assert "Giocatore 1 holds no valid card of Federazione Toscana" in refused.value.message
    assert not Entrant.objects.filter(player=people.extra[1]).exists()


@pytest.mark.parametrize("how", ["paste", "pick"])
def test_the_enrolment_page_says_the_refusal_of_a_player_without_a_card_at_the_field(
    client, people, fed, how
):
    federation, _season = fed
    competition = _sanctioned(people, federation, "refuse", "Regionale")
    client.force_login(people.users["organiser"])
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    sent = (
        {"how": "paste", "names": "Giocatore 1"}
        if how == "paste"
        else {"how": "pick", "player": [str(people.extra[1].pk)]}
    )
    answer = client.post(f"/c/{people.club.slug}/{competition.slug}/enrol/", sent)
    assert answer.status_code == 400
    page = answer.content.decode()
    field = "names-error" if how == "paste" else "picked-error"
    said = "Giocatore 1 holds no valid card of Federazione Toscana"
    assert f'<p class="error" id="{field}">{said}' in page
    if how == "paste":  # the names typed are kept, the field marked
        assert 'aria-describedby="names-error">Giocatore 1</textarea>' in page
    assert not Entrant.objects.filter(competition=competition).exists()


def test_a_card_out_of_its_dates_is_no_card(people, fed):
    federation, season = fed
    year = timezone.localdate().year
    Card.objects.create(
        season=season,
        number="9",
        name="Giocatore 2",
        valid_from=date(year - 1, 1, 1),
        valid_until=date(year - 1, 12, 31),
    )
    competition = _sanctioned(people, federation, "refuse", "Nazionale")
    with pytest.raises(Invalid):
        enter_player(
            user=people.users["organiser"], competition=competition, player=people.extra[2]
        )


def test_a_club_tier_event_enters_a_player_without_a_card_with_a_warning_on_the_page(
    client, people, fed
):
    federation, _season = fed
    competition = _sanctioned(people, federation, "warn", "Circolo")
    client.force_login(people.users["organiser"])
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    answer = client.post(
        f"/c/{people.club.slug}/{competition.slug}/enrol/",
        {"how": "pick", "player": [str(people.extra[3].pk)]},
        follow=True,
    )
    page = answer.content.decode()
    assert Entrant.objects.filter(competition=competition, player=people.extra[3]).exists()
    assert "Giocatore 3 holds no valid card of Federazione Toscana" in page


def test_a_competition_of_a_club_that_is_not_a_member_cannot_be_sanctioned(people, fed, other_club):
    federation, _season = fed
    tier = services.add_tier(
        user=people.users["organiser"],
        federation=federation,
        name="Provinciale",
        weight="1.5",
        missing_card="refuse",
    )
    elsewhere = Competition.objects.create(club=other_club, name="X", slug="x", game="tarocco")
    with pytest.raises(Invalid):
        services.sanction(user=people.users["organiser"], tier=tier, competition=elsewhere)


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("it", ["Circoli membri", "Livelli degli eventi", "Tessere"]),
        ("en", ["Member clubs", "Event tiers", "Membership cards"]),
    ],
)
def test_the_office_pages_are_linked_and_speak_the_readers_language(
    client, people, fed, language, words
):
    federation, season = fed
    client.force_login(people.users["organiser"])
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = language
    home = client.get("/").content.decode()
    assert 'href="/federations/"' in home
    listing = client.get("/federations/").content.decode()
    assert f'href="/federations/{federation.slug}/"' in listing
    page = client.get(f"/federations/{federation.slug}/").content.decode()
    for word in words:
        assert word in page
    assert f'href="/federations/{federation.slug}/cards/{season.pk}/"' in page
    assert client.get(f"/federations/{federation.slug}/cards/{season.pk}/").status_code == 200


def test_a_bad_tier_weight_is_refused_at_the_field_with_what_was_typed_kept(client, people, fed):
    federation, _season = fed
    client.force_login(people.users["organiser"])
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    answer = client.post(
        f"/federations/{federation.slug}/",
        {"action": "tier", "name": "Regionale", "weight": "tanto", "missing_card": "refuse"},
    )
    assert answer.status_code == 400
    page = answer.content.decode()
    assert 'id="tier-weight-error"' in page and 'value="tanto"' in page
    assert not Tier.objects.exists()


def test_the_cards_page_imports_a_file_and_reports_bad_rows_by_line(client, people, fed):
    federation, season = fed
    client.force_login(people.users["organiser"])
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "it"
    url = f"/federations/{federation.slug}/cards/{season.pk}/"
    bad = client.post(url, {"file": SimpleUploadedFile("t.csv", b"numero,nome\n1,Anna\n,Bruno\n")})
    assert bad.status_code == 400 and "Riga 3" in bad.content.decode()
    good = client.post(
        url, {"file": SimpleUploadedFile("t.csv", b"numero,nome\n1,Anna\n2,Bruno\n")}, follow=True
    )
    assert "2 tessere aggiunte" in good.content.decode()
    assert Card.objects.filter(season=season).count() == 2


@pytest.mark.parametrize(
    ("language", "words", "not_words"),
    [("it", "nessun invio finora", ">mai<"), ("en", "not synced yet", ">never<")],
)
def test_a_member_club_that_never_synced_reads_not_synced_yet_in_the_readers_language(
    client, people, fed, language, words, not_words
):
    federation, _season = fed
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = language
    page = client.get(f"/federations/{federation.slug}/").content.decode()
    row = page.split(f'id="sync-{people.club.slug}"', 1)[1].split("</tr>", 1)[0]
    assert words in row and not_words not in row
