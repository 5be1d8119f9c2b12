"""The organiser's round page and the public round pages."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from ledger.formats import selectors, services
from ledger.formats.models import Draw
from tests.formats.conftest import enter, make_competition

pytestmark = pytest.mark.django_db


def logged_in(people: Any, role: str) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(people.users[role])
    return client


def url(comp: Any, tail: str) -> str:
    return f"/c/{comp.club.slug}/{comp.slug}/{tail}"


def test_an_organiser_draws_swaps_and_publishes_a_round(club: Any, people: Any) -> None:
    comp = make_competition(club, "league", "sanmarco")
    players = enter(people, comp, 4)
    client = logged_in(people, "organiser")
    page = client.get(url(comp, "rounds/manage/"))
    assert page.status_code == 200
    assert "Draw round 1" in page.content.decode()
    client.post(url(comp, "rounds/manage/"), {"action": "generate"})
    draft = Draw.objects.get(round__competition=comp)
    first = draft.tables[0]["players"][0]
    second = draft.tables[1]["players"][0]
    page = client.post(
        url(comp, "rounds/manage/"),
        {"action": "swap", "first": first, "second": second},
        follow=True,
    )
    assert "Swapped" in page.content.decode()
    draft.refresh_from_db()
    assert draft.tables[0]["players"][0] == second
    page = client.post(url(comp, "rounds/manage/"), {"action": "publish"}, follow=True)
    assert "published" in page.content.decode()
    public = Client(HTTP_ACCEPT_LANGUAGE="en").get(url(comp, "rounds/1/"))
    body = public.content.decode()
    assert public.status_code == 200
    assert all(p.name in body for p in players)
    assert "Tramontana" in body


def test_the_draft_warns_about_a_forbidden_pairing(club: Any, people: Any) -> None:
    comp = make_competition(club, "league", "sanmarco")
    a, b, c, d = enter(people, comp, 4)
    services.forbid_pair(
        user=people.users["organiser"], competition=comp, first=a, second=b, hard=True
    )
    draw = services.generate_round(user=people.users["organiser"], competition=comp)
    services.adjust_draw(
        user=people.users["organiser"], draw=draw, tables=[[a.pk, b.pk], [c.pk, d.pk]]
    )
    page = logged_in(people, "organiser").get(url(comp, "rounds/manage/"))
    assert "must never be paired" in page.content.decode()


def test_a_member_cannot_open_the_organiser_page(club: Any, people: Any) -> None:
    comp = make_competition(club, "league", "sanmarco")
    assert logged_in(people, "member").get(url(comp, "rounds/manage/")).status_code == 403
    anonymous = Client().get(url(comp, "rounds/manage/"))
    assert anonymous.status_code == 302 and "/login/" in anonymous["Location"]


def test_a_bad_form_says_what_to_fix(club: Any, people: Any) -> None:
    comp = make_competition(club, "league", "sanmarco")
    page = logged_in(people, "organiser").post(
        url(comp, "rounds/manage/"), {"action": "enter", "player": "x"}, follow=True
    )
    assert "must be a whole number" in page.content.decode()


def test_the_public_round_page_has_empty_screen_and_fragment_views(club: Any, people: Any) -> None:
    comp = make_competition(club, "league", "tarocco")
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    assert "No round is published yet" in client.get(url(comp, "rounds/")).content.decode()
    enter(people, comp, 8)
    draw = services.generate_round(user=people.users["organiser"], competition=comp)
    assert client.get(url(comp, "rounds/1/")).status_code == 404  # a draft is not public
    services.publish_draw(user=people.users["organiser"], draw=draw)
    screen = client.get(url(comp, "rounds/1/?screen=1"))
    assert 'class="screen"' in screen.content.decode()
    fragment = client.get(url(comp, "rounds/1/"), HTTP_HX_REQUEST="true")
    assert "<html" not in fragment.content.decode()


def test_the_public_round_page_reads_a_fixed_number_of_queries(club: Any, people: Any) -> None:
    comp = make_competition(club, "league", "tarocco")
    enter(people, comp, 16)
    draw = services.generate_round(user=people.users["organiser"], competition=comp)
    services.publish_draw(user=people.users["organiser"], draw=draw)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    with CaptureQueriesContext(connection) as small:
        client.get(url(comp, "rounds/1/"))
    enter_more = make_competition(club, "league", "tarocco", slug="big")
    enter(people, enter_more, 32)
    draw = services.generate_round(user=people.users["organiser"], competition=enter_more)
    services.publish_draw(user=people.users["organiser"], draw=draw)
    with CaptureQueriesContext(connection) as big:
        client.get(url(enter_more, "rounds/1/"))
    assert len(big.captured_queries) == len(small.captured_queries) <= 12


def test_tiebreaks_trf_and_bracket_pages(club: Any, people: Any) -> None:
    comp = make_competition(club, "swiss", "sanmarco")
    enter(people, comp, 4)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    assert "Buchholz" in client.get(url(comp, "tiebreaks/")).content.decode()
    assert client.get(url(comp, "export.trf")).content.decode().startswith("012 ")
    ko = make_competition(club, "knockout", "sanmarco")
    assert "bracket appears" in client.get(url(ko, "bracket/")).content.decode()


def test_the_bye_points_field_keeps_its_value_in_italian(club: Any, people: Any) -> None:
    # A number field takes 0.5 and shows nothing for 0,5: its value is never localized.
    import re
    from decimal import Decimal

    comp = make_competition(club, "swiss", "sanmarco")
    services.update_settings(
        user=people.users["organiser"], competition=comp, bye_points=Decimal("0.5")
    )
    client = Client(HTTP_ACCEPT_LANGUAGE="it")
    client.force_login(people.users["organiser"])
    page = client.get(url(comp, "rounds/manage/")).content.decode()
    assert re.search(r'name="bye_points"[^>]*value="0\.50?"', page), "bye points not a number"


def test_a_published_tables_label_is_in_the_sites_language_whoever_publishes(
    club: Any, people: Any, no_sanmarco_engine: None
) -> None:
    from django.utils import translation

    from ledger.clubs.models import Table

    comp = make_competition(club, "swiss")
    enter(people, comp, 4)
    with translation.override("en"):
        draw = services.generate_round(user=people.users["organiser"], competition=comp)
        services.publish_draw(user=people.users["organiser"], draw=draw)
    labels = sorted(Table.objects.filter(round=draw.round).values_list("label", flat=True))
    assert labels == ["T1 · tavolo 1", "T1 · tavolo 2"]


def test_a_setting_typed_wrong_is_kept_with_its_error_at_the_field(club: Any, people: Any) -> None:
    comp = make_competition(club, "swiss", "tarocco")
    client = logged_in(people, "organiser")
    posted = {"action": "settings", "seats_per_table": "4", "hands_per_table": "tre"}
    page = client.post(url(comp, "rounds/manage/"), {**posted, "rounds": "5"})
    body = page.content.decode()
    assert page.status_code == 400
    assert 'value="tre"' in body and 'value="5"' in body  # both typed values are kept
    assert "Hands per table: give a whole number." in body
    assert 'name="hands_per_table" id="s-hands" value="tre" aria-invalid="true"' in body
    assert "hands_per_table must" not in body  # the field's label, not its code name
    assert selectors.settings_for(comp).rounds != 5  # nothing half-saved
    italian = client.post(url(comp, "rounds/manage/"), posted, HTTP_ACCEPT_LANGUAGE="it")
    assert "Smazzate per tavolo: scrivi un numero intero." in italian.content.decode()


def test_a_setting_the_rules_refuse_is_kept_with_the_reason_at_the_field(
    club: Any, people: Any
) -> None:
    comp = make_competition(club, "swiss", "sanmarco")
    client = logged_in(people, "organiser")
    page = client.post(url(comp, "rounds/manage/"), {"action": "settings", "exact_limit": "900"})
    body = page.content.decode()
    assert page.status_code == 400
    assert 'value="900" aria-invalid="true"' in body
    assert body.count('class="field-error"') == 1
