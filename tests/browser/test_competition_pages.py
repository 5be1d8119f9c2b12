"""An organiser runs a Swiss of seven (one bye) and a knockout of six seeds from the
competition's own pages, every page reached by the competition's navigation: the Swiss
standings list all seven with the bye counted and the tiebreaks in them, and the bracket
is a tree whose second round waits for the winners of 4-5 and 3-6 beside seeds 1 and 2."""

from __future__ import annotations

from typing import Any

from tests.browser.conftest import log_in, manage

CLUB = "/c/circolo-pisano/"

# Two competitions of the demo club's own, so that no other test's rounds are in them.
SETUP = """
from ledger.clubs.models import Club, Competition
club = Club.objects.get(slug="circolo-pisano")
for slug, game, fmt in (("swiss-7", "sanmarco", "swiss"), ("knockout-6", "ponte", "knockout")):
    Competition.objects.get_or_create(
        club=club, slug=slug, defaults={"name": slug, "game": game, "format": fmt}
    )
"""


def nav(page: Any, key: str) -> None:
    with page.expect_navigation():
        page.locator(f'nav.competition-nav a[data-nav="{key}"]').click()


def enter_players(page: Any, n: int) -> None:
    for _ in range(n):
        with page.expect_navigation():
            page.locator("#enter-form button[type=submit]").click()
    assert page.locator("#entrants tbody tr").count() == n


def publish(page: Any) -> None:
    if page.locator("#publish-confirm").count():
        page.check("#publish-confirm")
    with page.expect_navigation():
        page.click("#publish")


def standings(page: Any) -> dict[str, float]:
    rows = page.locator("#swiss-standings tbody tr")
    out = {}
    for i in range(rows.count()):
        cells = rows.nth(i).locator("td")
        out[cells.nth(1).inner_text()] = float(cells.nth(7).inner_text().replace(",", "."))
    return out


def test_an_organiser_runs_a_swiss_and_a_knockout_from_the_competition_pages(
    page: Any, server: str, server_env: dict[str, str]
) -> None:
    manage(server_env, "shell", "-c", SETUP)
    log_in(page, server)
    page.goto(server + CLUB + "swiss-7/")
    with page.expect_navigation():
        page.select_option("#language", "en")

    # Swiss of seven: the draw page is one link away from the competition.
    nav(page, "draw")
    enter_players(page, 7)
    with page.expect_navigation():
        page.click("#generate")
    assert page.locator("#draft .table-card").count() == 3
    # The two actions differ: publishing is the main one, drawing again the outlined one.
    publish_colour = page.eval_on_selector("#publish", "b => getComputedStyle(b).backgroundColor")
    redraw_colour = page.eval_on_selector("#redraw", "b => getComputedStyle(b).backgroundColor")
    assert publish_colour != redraw_colour
    # The link buttons of the entrants' list are readable on the white card.
    link_colour = page.eval_on_selector("#entrants button.link", "b => getComputedStyle(b).color")
    assert link_colour not in ("rgb(255, 255, 255)", "rgba(0, 0, 0, 0)")
    publish(page)
    assert "published" in page.locator(".messages").inner_text()

    nav(page, "standings")
    rows = page.locator("#swiss-standings tbody tr")
    assert rows.count() == 7  # the player with the bye is in the table
    byes = [rows.nth(i).locator("td").nth(6).inner_text() for i in range(7)]
    assert byes.count("1") == 1
    assert "BH" in page.locator("#swiss-standings thead").inner_text().upper()

    # Round 1's results through the score entry, the first seat winning every table.
    nav(page, "score")
    for table in range(1, 4):
        if table > 1:  # back to the tables from the entry page's breadcrumbs
            with page.expect_navigation():
                page.locator(".crumbs a").nth(1).click()
        with page.expect_navigation():
            page.get_by_role("link", name=f"R1 · table {table}", exact=True).click()
        inputs = page.locator("form .cells input[type=number]:visible")
        for i in range(inputs.count()):
            inputs.nth(i).fill("9" if i < inputs.count() // 2 else "2")
        with page.expect_navigation():
            page.click("#record")
    with page.expect_navigation():
        page.locator(".crumbs a").first.click()
    assert page.locator("nav.competition-nav").count() == 1
    after_one = standings(page)
    assert len(after_one) == 7
    assert sorted(after_one.values()) == [0, 0, 0, 1, 1, 1, 1]  # three wins and the bye

    nav(page, "tiebreaks")
    assert standings(page) == after_one  # the same table, the same points
    nav(page, "draw")
    with page.expect_navigation():
        page.click("#generate")
    publish(page)
    nav(page, "standings")
    assert len(standings(page)) == 7
    nav(page, "rounds")
    assert page.locator(".table-card").count() == 3
    nav(page, "printables")
    assert page.locator("#printables a").count() >= 3

    # Knockout of six seeds on the club's Bridge's Game cup.
    page.goto(server + CLUB + "knockout-6/")
    nav(page, "draw")
    enter_players(page, 6)
    with page.expect_navigation():
        page.click("#generate")
    assert page.locator("#draft .table-card").count() == 2  # seeds 1 and 2 have byes
    publish(page)
    nav(page, "bracket")
    rounds = page.locator(".bracket-round")
    assert rounds.count() == 3
    assert rounds.nth(0).locator("li.bracket-match").count() == 4
    semis = rounds.nth(1).locator("li.bracket-match")
    assert semis.count() == 2
    first_semi = semis.nth(0).inner_text()
    second_semi = semis.nth(1).inner_text()
    assert "winner of Quarter-finals, match 2" in first_semi
    assert "winner of Quarter-finals, match 4" in second_semi
    final = rounds.nth(2).locator("li.bracket-match").inner_text()
    assert "Semi-finals" in final

    # On a phone the tree scrolls inside its frame and the page does not.
    page.set_viewport_size({"width": 390, "height": 844})
    page.reload()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390
    page.emulate_media(media="print")
    assert not page.locator("nav.competition-nav").is_visible()
