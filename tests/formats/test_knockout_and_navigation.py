"""The knockout bracket as a tree, the draw page's actions, and the links between a
competition's pages."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from ledger.clubs.models import Membership, Player, Table
from ledger.clubs.results import services as core
from ledger.formats import selectors, services
from ledger.formats.models import Draw, KnockoutMatch
from tests.formats.conftest import enter, make_competition

pytestmark = pytest.mark.django_db


def client_for(people: Any, role: str | None) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    if role:
        client.force_login(people.users[role])
    return client


def url(comp: Any, tail: str = "") -> str:
    return f"/c/{comp.club.slug}/{comp.slug}/{tail}"


def play(people: Any, comp: Any, winners: set[int] | None = None) -> Draw:
    """Draw and publish the next round; at each table the player in ``winners`` wins (the
    first seat when neither is)."""
    draw = services.generate_round(user=people.users["organiser"], competition=comp)
    services.publish_draw(user=people.users["organiser"], draw=draw)
    for table in Table.objects.filter(round=draw.round).prefetch_related("seats"):
        seats = [s.player_id for s in table.seats.order_by("index")]
        second_wins = winners is not None and seats[1] in winners
        core.record_result(
            user=people.users["scorekeeper"],
            table=table,
            source="manual",
            scores=[1, 3] if second_wins else [3, 1],
        )
    return draw


def six_seeds(people: Any, club: Any) -> tuple[Any, list[Player]]:
    comp = make_competition(club, "knockout")
    return comp, enter(people, comp, 6)  # seeded by rating: the list is seeds 1 to 6


def test_round_two_of_six_seeds_pairs_the_top_seeds_with_the_first_round_winners(
    club: Any, people: Any, points_game: str
) -> None:
    comp, seeds = six_seeds(people, club)
    s = {i + 1: p.pk for i, p in enumerate(seeds)}
    first = play(people, comp, winners={s[5], s[3]})  # 5 beats 4, 3 beats 6
    assert sorted(sorted(t["players"]) for t in first.tables) == sorted(
        [sorted([s[4], s[5]]), sorted([s[3], s[6]])]
    )
    assert set(first.byes) == {s[1], s[2]}
    second = services.generate_round(user=people.users["organiser"], competition=comp)
    pairs = sorted(sorted(t["players"]) for t in second.tables)
    assert pairs == sorted([sorted([s[1], s[5]]), sorted([s[2], s[3]])])
    services.publish_draw(user=people.users["organiser"], draw=second)


def test_seeds_one_and_two_can_meet_only_in_the_final(
    club: Any, people: Any, points_game: str
) -> None:
    comp = make_competition(club, "knockout")
    seeds = enter(people, comp, 11)
    top = {seeds[0].pk, seeds[1].pk}
    for _ in range(3):  # the favourites (first seat is the better seed) always win
        draw = play(people, comp, winners=top)
        assert not any(set(t["players"]) == top for t in draw.tables)
    final = play(people, comp, winners=top)
    assert set(final.tables[0]["players"]) == top


def test_a_knocked_out_player_is_not_told_they_have_no_table(
    club: Any, people: Any, points_game: str
) -> None:
    comp, _seeds = six_seeds(people, club)
    play(people, comp)
    second = services.generate_round(user=people.users["organiser"], competition=comp)
    warnings = services.check_draw(comp, second)
    assert [w for w in warnings if w.code == "unseated"] == []
    page = client_for(people, "organiser").get(url(comp, "rounds/manage/")).content.decode()
    assert "has no table" not in page


def test_the_bracket_is_a_tree_with_the_rounds_still_to_come(
    club: Any, people: Any, points_game: str
) -> None:
    comp, seeds = six_seeds(people, club)
    s = {i + 1: p for i, p in enumerate(seeds)}
    play(people, comp, winners={s[5].pk, s[3].pk})
    stages = selectors.bracket_view(comp)
    assert [len(st["matches"]) for st in stages] == [4, 2, 1]
    semi = stages[1]["matches"]
    assert [side["player"] for side in semi[0]["sides"]] == [s[1].pk, s[5].pk]
    assert [side["player"] for side in semi[1]["sides"]] == [s[2].pk, s[3].pk]
    assert [side["player"] for side in stages[2]["matches"][0]["sides"]] == [None, None]
    page = client_for(people, None).get(url(comp, "bracket/")).content.decode()
    for title in ("Quarter-finals", "Semi-finals", "Final"):
        assert title in page
    assert "winner of Semi-finals, match 1" in page
    assert page.count('<li class="bracket-match') == 7
    assert "<strong>" + s[5].name + "</strong>" in page


def test_publishing_a_draft_with_warnings_asks_for_a_confirmation(club: Any, people: Any) -> None:
    comp = make_competition(club, "league", "sanmarco")
    a, b, c, d = enter(people, comp, 4)
    services.forbid_pair(
        user=people.users["organiser"], competition=comp, first=a, second=b, hard=True
    )
    draw = services.generate_round(user=people.users["organiser"], competition=comp)
    services.adjust_draw(
        user=people.users["organiser"], draw=draw, tables=[[a.pk, b.pk], [c.pk, d.pk]]
    )
    client = client_for(people, "organiser")
    page = client.get(url(comp, "rounds/manage/")).content.decode()
    assert 'id="publish-confirm"' in page and 'id="redraw"' in page
    refused = client.post(url(comp, "rounds/manage/"), {"action": "publish"}, follow=True)
    assert "publish anyway" in refused.content.decode()
    draw.refresh_from_db()
    assert draw.status == Draw.Status.DRAFT
    client.post(url(comp, "rounds/manage/"), {"action": "publish", "confirm": "1"})
    draw.refresh_from_db()
    assert draw.status == Draw.Status.PUBLISHED


def test_link_buttons_are_readable_on_the_white_page() -> None:
    from pathlib import Path

    css = Path("static/css/site.css").read_text()
    rule = re.search(r"(?<![\w.-])button\.link \{([^}]*)\}", css)
    assert rule is not None
    assert "color:#fff" not in rule.group(1).replace(" ", "")


def nav_links(page: str) -> set[str]:
    nav = re.search(r'<nav class="competition-nav.*?</nav>', page, re.S)
    assert nav is not None, "no competition navigation"
    return set(re.findall(r'data-nav="([\w-]+)"', nav.group(0)))


@pytest.mark.parametrize("fmt", ["swiss", "knockout", "league"])
def test_every_page_of_a_competition_links_to_the_others_by_role(
    club: Any, people: Any, fmt: str, points_game: str
) -> None:
    comp = make_competition(club, fmt)
    public = {
        "standings",
        "rounds",
        "ratings",
        "printables",
        "night",
        "penalties",
        "signup",
        "schedule",
    }
    public |= {"swiss": {"tiebreaks"}, "knockout": {"bracket"}, "league": set()}[fmt]
    organiser = {"score", "draw", "settings", "standings-settings", "import", "tokens", "export"}
    organiser |= {"checkin", "clock", "tables", "edit", "enrol", "members"}
    organiser |= {"webhooks", "signup-manage", "fees", "stage"}
    pages = ["", "rounds/", "ratings/", "print/", "night/penalties/", "signup/"]
    pages += {"swiss": ["tiebreaks/"], "knockout": ["bracket/"], "league": []}[fmt]
    for tail in pages:
        assert nav_links(client_for(people, None).get(url(comp, tail)).content.decode()) == public
        assert nav_links(client_for(people, "member").get(url(comp, tail)).content.decode()) == (
            public
        )
        assert nav_links(
            client_for(people, "scorekeeper").get(url(comp, tail)).content.decode()
        ) == (public | {"score"})
        got = nav_links(client_for(people, "organiser").get(url(comp, tail)).content.decode())
        assert got == public | organiser
    for tail in (
        "rounds/manage/",
        "standings/settings/",
        "score/",
        "night/",
        "night/clock/",
        "edit/",
        "enrol/",
    ):
        assert nav_links(client_for(people, "organiser").get(url(comp, tail)).content.decode())


def test_a_players_page_says_where_they_sit_this_round(
    club: Any, people: Any, points_game: str
) -> None:
    comp = make_competition(club, "swiss")
    players = enter(people, comp, 5)
    draw = services.generate_round(user=people.users["organiser"], competition=comp)
    services.publish_draw(user=people.users["organiser"], draw=draw)
    table = draw.tables[0]
    seated = Player.objects.get(pk=table["players"][1])
    opponent = Player.objects.get(pk=table["players"][0])
    page = client_for(people, None).get(f"/c/{club.slug}/p/{seated.pk}/").content.decode()
    assert f"table {table['label']}, seat 2" in page and "Mezzogiorno" in page
    assert opponent.name in page
    bye = Player.objects.get(pk=draw.byes[0])
    page = client_for(people, None).get(f"/c/{club.slug}/p/{bye.pk}/").content.decode()
    assert "a bye" in page
    outsider = Player.objects.create(name="Nessuno")
    Membership.objects.create(club=club, player=outsider)
    page = client_for(people, None).get(f"/c/{club.slug}/p/{outsider.pk}/").content.decode()
    assert "Where you sit" not in page
    assert len(players) == 5 and KnockoutMatch.objects.count() == 0


def test_a_referee_names_the_winner_of_a_level_match_on_the_bracket_page(
    club: Any, people: Any, points_game: str
) -> None:
    comp, seeds = six_seeds(people, club)
    s = {i + 1: p for i, p in enumerate(seeds)}
    first = services.generate_round(user=people.users["organiser"], competition=comp)
    services.publish_draw(user=people.users["organiser"], draw=first)
    for table in Table.objects.filter(round=first.round):
        core.record_result(
            user=people.users["scorekeeper"], table=table, source="manual", scores=[2, 2]
        )
    with pytest.raises(services.Conflict, match="bracket page"):
        services.generate_round(user=people.users["organiser"], competition=comp)
    level = KnockoutMatch.objects.get(competition=comp, stage=1, first=s[4])
    other = KnockoutMatch.objects.get(competition=comp, stage=1, first=s[3])
    page = client_for(people, "referee").get(url(comp, "bracket/")).content.decode()
    assert f'id="decide-{level.pk}"' in page and f'id="decide-{other.pk}"' in page
    assert "decide-" not in client_for(people, None).get(url(comp, "bracket/")).content.decode()
    # A member cannot; a referee can, and the bracket says who decided.
    member = client_for(people, "member").post(
        url(comp, "bracket/"), {"match": level.pk, "winner": s[5].pk}
    )
    assert member.status_code == 403
    for match, winner in ((level, s[5]), (other, s[3])):
        answer = client_for(people, "referee").post(
            url(comp, "bracket/"), {"match": match.pk, "winner": winner.pk}
        )
        assert answer.status_code == 302
    level.refresh_from_db()
    assert level.winner_id == s[5].pk
    page = client_for(people, None).get(url(comp, "bracket/")).content.decode()
    assert page.count("winner named by the referee") == 2 and "decide-" not in page  # not byes
    second = services.generate_round(user=people.users["organiser"], competition=comp)
    assert sorted(sorted(t["players"]) for t in second.tables) == sorted(
        [sorted([s[1].pk, s[5].pk]), sorted([s[2].pk, s[3].pk])]
    )
    services.publish_draw(user=people.users["organiser"], draw=second)
    with pytest.raises(services.Conflict):
        services.set_match_winner(user=people.users["referee"], match=level, winner=s[4])


def test_a_clubs_own_address_leads_to_its_competitions(club: Any, people: Any) -> None:
    client = client_for(people, None)
    answer = client.get(f"/c/{club.slug}/")
    assert answer.status_code == 302 and answer["Location"] == f"/#club-{club.slug}"
    home = client.get(answer["Location"]).content.decode()
    assert f'id="club-{club.slug}"' in home
    assert client.get("/c/no-such-club/").status_code == 404
