"""The formats API: an organiser drafts, adjusts and publishes; everyone reads rounds."""

from __future__ import annotations

from typing import Any

import pytest

from tests.formats.conftest import make_competition

pytestmark = pytest.mark.django_db


def base(comp: Any) -> str:
    return f"/api/v1/formats/competitions/{comp.pk}/"


def test_an_organiser_runs_a_round_through_the_api(club: Any, people: Any) -> None:
    comp = make_competition(club, "swiss", "sanmarco")
    api = people.client("organiser")
    for p in people.extra[:5]:
        r = api.post(base(comp) + "entrants/", {"player": p.pk}, format="json")
        assert r.status_code == 201, r.json()
    r = api.patch(base(comp) + "settings/", {"rounds": 4}, format="json")
    assert r.json()["rounds"] == 4
    r = api.post(base(comp) + "rounds/generate/")
    assert r.status_code == 201
    body = r.json()
    assert body["status"] == "draft"
    assert len(body["tables"]) == 2 and len(body["byes"]) == 1
    tables = [[s["player"] for s in t["seats"]] for t in body["tables"]]
    # Put the bye holder in and the first player of table 1 out, by hand.
    bye = body["byes"][0]["player"]
    out = tables[0][0]
    tables[0][0] = bye
    r = api.put(base(comp) + "rounds/1/", {"tables": tables, "byes": [out]}, format="json")
    assert r.status_code == 200, r.json()
    assert r.json()["tables"][0]["seats"][0]["player"] == bye
    r = api.post(base(comp) + "rounds/1/publish/")
    assert r.json()["status"] == "published"
    assert r.json()["tables"][0]["id"] is not None
    public = people.client(None).get(base(comp) + "rounds/1/")
    assert public.status_code == 200
    assert people.client(None).get(base(comp) + "tiebreaks/").status_code == 200
    trf = people.client(None).get(base(comp) + "trf/")
    assert trf.status_code == 200 and trf.content.decode().startswith("012 ")


def test_a_draft_is_hidden_from_the_public(club: Any, people: Any) -> None:
    comp = make_competition(club, "league", "sanmarco")
    api = people.client("organiser")
    for p in people.extra[:4]:
        api.post(base(comp) + "entrants/", {"player": p.pk}, format="json")
    api.post(base(comp) + "rounds/generate/")
    r = people.client("member").get(base(comp) + "rounds/1/")
    assert r.status_code == 400
    assert "error" in r.json()


def test_a_scorekeeper_cannot_generate_a_round(club: Any, people: Any) -> None:
    comp = make_competition(club, "league", "sanmarco")
    r = people.client("scorekeeper").post(base(comp) + "rounds/generate/")
    assert r.status_code == 403
    assert r.json()["error"]["code"] == "permission_denied"


def test_seating_a_player_twice_is_refused_with_a_field_error(club: Any, people: Any) -> None:
    comp = make_competition(club, "league", "sanmarco")
    api = people.client("organiser")
    ids = [p.pk for p in people.extra[:4]]
    for pk in ids:
        api.post(base(comp) + "entrants/", {"player": pk}, format="json")
    api.post(base(comp) + "rounds/generate/")
    r = api.put(
        base(comp) + "rounds/1/", {"tables": [[ids[0], ids[1]], [ids[0], ids[2]]]}, format="json"
    )
    assert r.status_code == 400
    assert "tables" in r.json()["error"]["fields"]


def test_a_stranger_cannot_be_entered(club: Any, people: Any, other_club: Any) -> None:
    from ledger.clubs.models import Player

    comp = make_competition(club, "league", "sanmarco")
    outsider = Player.objects.create(name="Forestiero")
    r = people.client("organiser").post(
        base(comp) + "entrants/", {"player": outsider.pk}, format="json"
    )
    assert r.status_code == 400
    assert "player" in r.json()["error"]["fields"]


def test_a_referee_decides_a_knockout_match(club: Any, people: Any) -> None:
    comp = make_competition(club, "knockout", "sanmarco")
    api = people.client("organiser")
    ids = [p.pk for p in people.extra[:4]]
    for pk in ids:
        api.post(base(comp) + "entrants/", {"player": pk}, format="json")
    api.post(base(comp) + "rounds/generate/")
    api.post(base(comp) + "rounds/1/publish/")
    bracket = people.client(None).get(base(comp) + "bracket/").json()
    assert len(bracket) == 2 and all(m["winner"] is None for m in bracket)
    match = bracket[0]
    r = people.client("scorekeeper").post(
        base(comp) + f"bracket/{match['id']}/winner/", {"player": match["second"]}, format="json"
    )
    assert r.status_code == 403
    r = people.client("referee").post(
        base(comp) + f"bracket/{match['id']}/winner/", {"player": match["second"]}, format="json"
    )
    assert r.json()["winner"] == match["second"]
    outsider = bracket[1]["first"]
    r = people.client("referee").post(
        base(comp) + f"bracket/{match['id']}/winner/", {"player": outsider}, format="json"
    )
    assert r.status_code == 400


def test_a_round_says_how_it_was_drawn_in_the_readers_language_beside_the_engines_name(
    club: Any, people: Any
) -> None:
    comp = make_competition(club, "swiss", "sanmarco")
    api = people.client("organiser")
    for p in people.extra[:4]:
        api.post(base(comp) + "entrants/", {"player": p.pk}, format="json")
    api.patch(base(comp) + "settings/", {"rounds": 3}, format="json")
    api.post(base(comp) + "rounds/generate/")
    api.post(base(comp) + "rounds/1/publish/")
    english = people.client(None).get(base(comp) + "rounds/1/", HTTP_ACCEPT_LANGUAGE="en").json()
    italian = people.client(None).get(base(comp) + "rounds/1/", HTTP_ACCEPT_LANGUAGE="it").json()
    assert english["engine"] == italian["engine"] == "dutch"
    assert english["engine_label"] == "the FIDE Dutch system"
    assert italian["engine_label"] == "il sistema olandese FIDE"
