"""On a phone (390x844, Italian): a season of six Tarocco league nights, its championship
table counting the best 4 nights of 6 by the points of each place (10-8-6-5), ranked from 3
nights, the top 4 going to a final table, which takes them with one tap after a preview.

Each night is one table of four whose only hand is a settled offer (tarocco.score.offer):
the fourth seat gives 3 points to the first, the third 1 to the second, so the seats finish
in order, 3, 1, -1, -3. The table below is worked out by hand from NIGHTS."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in, manage

PHONE = {"width": 390, "height": 844}
# Each night's table, first place to fourth.
NIGHTS = [
    ("Anna", "Bruno", "Carla", "Dario"),
    ("Anna", "Carla", "Bruno", "Elena"),
    ("Bruno", "Anna", "Dario", "Fabio"),
    ("Carla", "Elena", "Anna", "Bruno"),
    ("Anna", "Dario", "Fabio", "Carla"),
    ("Elena", "Bruno", "Carla", "Anna"),
]
# By hand, 10-8-6-5 a place, the best four nights:
#   Anna  10 10  8  6 10  5 -> 10+10+10+8 = 38 (6 nights)
#   Bruno  8  6 10  5  8    -> 10+8+8+6   = 32 (5 nights; the 5 dropped)
#   Carla  6  8 10  5  6    -> 10+8+6+6   = 30 (5 nights; the 5 dropped)
#   Elena  5  8 10          -> 23 (3 nights)
#   Dario  5  6  8          -> 19 (3 nights)
#   Fabio  5  6             -> 11, two nights: not ranked yet (one more needed)
TABLE = [("1", "Anna", "38"), ("2", "Bruno", "32"), ("3", "Carla", "30"), ("4", "Elena", "23")]
TABLE += [("5", "Dario", "19"), ("–", "Fabio", "11")]
# After night 5 (Elena and Fabio on two nights, not ranked): Anna 38, Bruno 29 and Carla 29
# share the second place, Dario 19 fourth.
AFTER_FIVE = [("1", "Anna", "38"), ("2", "Bruno", "29"), ("2", "Carla", "29")]
AFTER_FIVE += [("4", "Dario", "19")]

SETUP = """
import datetime
from django.contrib.auth import get_user_model
from ledger.clubs.results import services
from ledger.clubs.models import Club, Competition, Membership, Player, Round, Season
from ledger.formats import stages
from ledger.formats.models import Championship, Stage
club = Club.objects.get(slug="circolo-pisano")
boss = get_user_model().objects.get(username="demo")
start = datetime.date(2026, 1, 1)
season = Season.objects.create(
    club=club, name="Campionato sociale", starts_on=start, ends_on=datetime.date(2026, 6, 30))
Championship.objects.create(season=season, game="tarocco", place_points=["10", "8", "6", "5"],
                            best_of=4, min_nights=3, qualifiers=4)
people = {}
for name in ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio"]:
    people[name] = Player.objects.create(name=name)
    Membership.objects.create(club=club, player=people[name])
offers = [{"offerer": 3, "taker": 0, "points": 3}, {"offerer": 2, "taker": 1, "points": 1}]
for n, order in enumerate(NIGHTS_HERE, start=1):
    night = Competition.objects.create(club=club, name="Serata %d" % n, game="tarocco",
                                       slug="campionato-serata-%d" % n, season=season)
    rnd = Round.objects.create(competition=night, number=1,
                               played_on=start + datetime.timedelta(weeks=n))
    table = services.create_table(user=boss, competition=night, label="Tavolo 1",
                                  players=[people[x] for x in order], round=rnd)
    record = {"outcome": "offer", "dealer": 0, "offers": offers}
    result, _ = services.record_result(user=boss, table=table, source="summary", record=record)
    assert [int(s) for s in result.scores] == [3, 1, -1, -3], result.scores
final = Competition.objects.create(club=club, name="Finale del campionato",
                                   slug="finale-campionato", game="tarocco")
stages.make_stage(user=boss, competition=final, sources=[], season=season, rule=Stage.Rule.TOP,
                  count=4, threshold=None, carry_over=False)
print(season.pk)
""".replace("NIGHTS_HERE", repr(NIGHTS))


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(
        locale="it-IT", viewport=PHONE, is_mobile=True, has_touch=True, service_workers="block"
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def rows(page: Any) -> list[tuple[str, str, str]]:
    out = []
    for row in page.locator("#season-rows tbody tr[data-player]").all():
        out.append(
            (
                row.locator("td.rank").inner_text().strip(),
                row.locator("td a").first.inner_text().strip(),
                row.locator("td.total").inner_text().strip(),
            )
        )
    return out


def no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("() => document.scrollingElement.scrollWidth")
    assert width <= PHONE["width"], width


def test_a_season_of_six_nights_sends_its_top_four_to_the_final_on_a_phone(
    phone: Any, server: str, server_env: dict[str, str]
) -> None:
    season = int(manage(server_env, "shell", "-c", SETUP).split()[-1])
    page = phone
    log_in(page, server)
    # From the club's page to the season's table.
    with page.expect_navigation():
        page.locator(f"a.season-link[href$='/seasons/{season}/']").tap()
    expect(page.locator("h1")).to_have_text("Campionato sociale")
    expect(page.locator("#season-rules")).to_contain_text("Le migliori 4 serate su 6 contano.")
    assert rows(page) == TABLE
    # The qualification line under the fourth; Fabio needs one more night.
    expect(page.locator("tr.cut")).to_have_attribute("data-player", str(_id(page, "Elena")))
    expect(page.locator("tr.unranked")).to_contain_text("ancora 1 serata per entrare in classifica")
    # Anna's two dropped nights (the 6 and the 5) in brackets; Carla moved down a place.
    expect(page.locator(f"tr[data-player='{_id(page, 'Anna')}'] small.nights")).to_have_text(
        "10 · 10 · 8 · (6) · 10 · (5)"
    )
    expect(page.locator(f"tr[data-player='{_id(page, 'Carla')}'] td.movement")).to_have_text("▼1")
    no_sideways_scroll(page)
    # As of night 5.
    with page.expect_navigation():
        page.select_option("#night", "5")
    assert rows(page)[:4] == AFTER_FIVE
    expect(page.locator("h2").first).to_contain_text("dopo la serata 5")
    # The final: a preview, then one tap.
    page.goto(server + "/c/circolo-pisano/finale-campionato/stage/")
    preview = page.locator("#stage-preview tbody tr")
    expect(preview).to_have_count(4)
    assert [r.locator("td").nth(1).inner_text() for r in preview.all()] == [
        "Anna",
        "Bruno",
        "Carla",
        "Elena",
    ]
    no_sideways_scroll(page)
    with page.expect_navigation():
        page.locator("#advance").tap()
    expect(page.locator("#stage-advanced")).to_be_visible()
    seeds = page.locator("#stage-seeds tbody tr")
    assert [
        (r.locator("td").nth(0).inner_text(), r.locator("td").nth(1).inner_text())
        for r in seeds.all()
    ] == [("1", "Anna"), ("2", "Bruno"), ("3", "Carla"), ("4", "Elena")]
    expect(page.locator("#advance")).to_have_count(0)


def _id(page: Any, name: str) -> int:
    link = page.locator("#season-rows tbody tr[data-player]", has_text=name).first
    return int(link.get_attribute("data-player"))
