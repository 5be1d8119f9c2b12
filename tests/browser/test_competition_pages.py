"""An organiser runs a Swiss of seven (one bye) and a knockout of six seeds from the
competition's own pages, every page reached by the competition's navigation: the Swiss
standings list all seven with the bye counted and the tiebreaks in them after every round,
and the bracket is a tree whose second round waits for the winners of 4-5 and 3-6 beside
seeds 1 and 2, fills in as results are typed and a referee names a forfeit's winner, up to
the champion."""

from __future__ import annotations

from typing import Any

from tests.browser.conftest import log_in, manage

CLUB = "/c/circolo-pisano/"

# Two competitions of the demo club's own, so that no other test's rounds are in them.
SETUP = """
from ledger.clubs.models import Club, Competition
club = Club.objects.get(slug="circolo-pisano")
for slug, game, fmt in (("swiss-7", "sanmarco", "swiss"), ("knockout-6", "sanmarco", "knockout")):
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


def score_round(
    page: Any, number: int, tables: int, second_wins: frozenset[int] = frozenset()
) -> None:
    """Results of round ``number`` through the score entry, reached from the competition's
    navigation: at each table the first seat wins, the second at the tables named."""
    nav(page, "score")
    for table in range(1, tables + 1):
        if table > 1:  # back to the tables from the entry page's breadcrumbs
            with page.expect_navigation():
                page.locator(".crumbs a").nth(1).click()
        with page.expect_navigation():
            page.get_by_role("link", name=f"T{number} · tavolo {table}", exact=True).click()
        inputs = page.locator("form .cells input[type=number]:visible")
        count = inputs.count()
        for i in range(count):
            first_half = i < count // 2
            wins = first_half != (table in second_wins)
            inputs.nth(i).fill("9" if wins else "2")
        with page.expect_navigation():
            page.click("#record")
    with page.expect_navigation():
        page.locator(".crumbs a").first.click()


def bracket(page: Any) -> list[list[list[str]]]:
    """The bracket's rounds, each a list of matches, each the two sides' texts."""
    out = []
    rounds = page.locator(".bracket-round")
    for r in range(rounds.count()):
        matches = rounds.nth(r).locator("li.bracket-match")
        out.append(
            [
                [
                    " ".join(matches.nth(m).locator(".bracket-side").nth(i).inner_text().split())
                    for i in range(2)
                ]
                for m in range(matches.count())
            ]
        )
    return out


def winners(page: Any, stage: int) -> list[str]:
    won = page.locator(".bracket-round").nth(stage).locator(".bracket-side.won .name")
    return [won.nth(i).inner_text() for i in range(won.count())]


def standings(page: Any) -> dict[str, float]:
    rows = page.locator("#swiss-standings tbody tr")
    out = {}
    for i in range(rows.count()):
        cells = rows.nth(i).locator("td")
        out[cells.nth(1).inner_text()] = float(cells.nth(2).inner_text().replace(",", "."))
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
    byes = [rows.nth(i).locator("td").nth(7).inner_text() for i in range(7)]
    assert byes.count("1") == 1
    assert "BH" in page.locator("#swiss-standings thead").inner_text().upper()

    # Round 1's results through the score entry, the first seat winning every table.
    score_round(page, 1, 3)
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
    score_round(page, 2, 3, second_wins=frozenset({2}))
    after_two = standings(page)
    assert len(after_two) == 7
    assert sum(after_two.values()) == 8  # six games won and two byes
    byes = [rows.nth(i).locator("td").nth(7).inner_text() for i in range(7)]
    assert byes.count("1") == 2  # two players have had a bye, nobody two
    nav(page, "tiebreaks")
    assert standings(page) == after_two
    nav(page, "rounds")
    assert page.locator(".table-card").count() == 3
    nav(page, "printables")
    assert page.locator("#printables a").count() >= 3

    # Knockout of six seeds on the club's San Marco cup.
    page.goto(server + CLUB + "knockout-6/")
    nav(page, "draw")
    enter_players(page, 6)
    with page.expect_navigation():
        page.click("#generate")
    assert page.locator("#draft .table-card").count() == 2  # seeds 1 and 2 have byes
    publish(page)
    nav(page, "bracket")
    tree = bracket(page)
    assert [len(r) for r in tree] == [4, 2, 1]
    assert tree[0][0][1] == tree[0][2][1] == "bye"  # seeds 1 and 2
    assert "winner of Quarter-finals, match 2" in tree[1][0][1]
    assert "winner of Quarter-finals, match 4" in tree[1][1][1]
    assert "Semi-finals" in tree[2][0][0]
    seed_one, seed_two = tree[0][0][0], tree[0][2][0]

    # Round 1: the second seat wins at table 1, the first at table 2.
    score_round(page, 1, 2, second_wins=frozenset({1}))
    nav(page, "bracket")
    through = winners(page, 0)
    assert len(through) == 4  # the two byes and the two winners
    tree = bracket(page)
    assert tree[1][0][0].startswith(seed_one) and tree[1][1][0].startswith(seed_two)
    assert tree[1][0][1].startswith(through[1]) and tree[1][1][1].startswith(through[3])
    assert "winner of Semi-finals, match 1" in tree[2][0][0]

    # Round 2: semi-final 1 played; semi-final 2 forfeited, its winner named by the referee.
    nav(page, "draw")
    with page.expect_navigation():
        page.click("#generate")
    assert page.locator("#draft .table-card").count() == 2
    publish(page)
    nav(page, "score")
    with page.expect_navigation():
        page.get_by_role("link", name="T2 · tavolo 1", exact=True).click()
    inputs = page.locator("form .cells input[type=number]:visible")
    for i in range(inputs.count()):
        inputs.nth(i).fill("9" if i < inputs.count() // 2 else "2")
    with page.expect_navigation():
        page.click("#record")
    page.goto(server + CLUB + "knockout-6/")
    nav(page, "draw")
    with page.expect_navigation():
        page.click("#generate")
    assert "bracket page" in page.locator(".messages").inner_text()  # one match has no winner
    nav(page, "bracket")
    decide = page.locator(".bracket-decide")
    assert decide.count() == 1
    decide.locator("summary").click()
    forfeit_winner = decide.locator("option").nth(1).inner_text()
    decide.locator("select").select_option(label=forfeit_winner)
    with page.expect_navigation():
        decide.locator("button").click()
    assert "referee" in page.locator(".messages").inner_text()
    finalists = winners(page, 1)
    assert len(finalists) == 2 and forfeit_winner in finalists
    assert page.locator(".bracket-note").count() == 1

    # The final, and the champion in bold at the end of the tree.
    nav(page, "draw")
    with page.expect_navigation():
        page.click("#generate")
    publish(page)
    score_round(page, 3, 1)
    nav(page, "bracket")
    tree = bracket(page)
    assert tree[2][0][0].startswith(finalists[0]) and tree[2][0][1].startswith(finalists[1])
    (champion,) = winners(page, 2)
    assert champion in finalists
    # The champion is named above the bracket; the knockout is over: the draw page offers
    # no further round, and the competition's table ranks by the round reached.
    assert champion in page.locator("#champion").inner_text()
    nav(page, "draw")
    assert page.locator("#generate").count() == 0
    assert "Concluded" in page.locator("#concluded").inner_text()
    nav(page, "standings")
    assert champion in page.locator("#champion").inner_text()
    assert "Final standings" in page.locator("#standings h2").inner_text()
    ranked = page.locator("#knockout-standings tbody tr")
    places = [ranked.nth(i).locator("td").first.inner_text() for i in range(ranked.count())]
    assert places == ["1", "2", "3", "3", "5", "5"]
    assert ranked.nth(0).locator("td").nth(1).inner_text() == champion

    # On a phone the tree scrolls inside its frame and the page does not.
    page.set_viewport_size({"width": 390, "height": 844})
    page.reload()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390
    page.goto(server + CLUB + "knockout-6/")  # the knockout's table fits a phone too
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.locator("#champion").is_visible()
    page.goto(server + CLUB + "knockout-6/bracket/")
    # There the organiser's fourteen pages fold under one line naming the page open now,
    # so that the page's own content starts on the first screen; a tap opens them.
    menu = page.locator("nav.competition-nav details.staff-menu")
    assert "Organiser's pages" in menu.locator("summary").inner_text()
    assert not menu.locator('a[data-nav="draw"]').is_visible()
    menu.locator("summary").click()
    assert menu.locator('a[data-nav="draw"]').is_visible()
    page.goto(server + CLUB + "swiss-7/score/")
    assert "Record a result" in page.locator("details.staff-menu summary").inner_text()
    # On a laptop they are all in sight, with no line to open.
    page.set_viewport_size({"width": 1280, "height": 800})
    page.reload()
    assert not page.locator("details.staff-menu summary").is_visible()
    assert page.locator('nav.competition-nav a[data-nav="draw"]').is_visible()
    page.goto(server + CLUB + "knockout-6/bracket/")
    page.emulate_media(media="print")
    assert not page.locator("nav.competition-nav").is_visible()
