"""A season run from the club's own pages: the site's admin invites a new organiser of the
club by link; she, with no admin access, creates a Tarocco league from the club's page, enrols 16
players by pasting their names, and runs a night of four rounds at tables of four, drawing
each round and recording every table through the score entry, the standings checked after
every round. Every page after the invitation link is reached by clicking links."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import log_in

NAMES = [f"Giocatore Serale {n:02d}" for n in range(1, 17)]


def _standings(page: Any) -> dict[str, tuple[int, float]]:
    """Games played and points by player, as the competition page shows them."""
    rows = page.locator("table.standings tbody tr")
    expect(rows.first).to_be_visible()
    headings = [h.strip() for h in page.locator("table.standings thead th").all_text_contents()]
    played = next(i for i, h in enumerate(headings) if h in ("Giocate", "Played"))
    column = next(i for i, h in enumerate(headings) if h in ("Punti", "Points"))
    out = {}
    for row in rows.all():
        cells = row.locator("td")
        name = row.locator("td a").first.inner_text().strip()
        out[name] = (
            int(cells.nth(played).inner_text().strip()),
            float(cells.nth(column).inner_text().strip().replace(",", ".")),
        )
    return out


def _nav(page: Any, key: str) -> None:
    link = page.locator(f"nav.competition-nav a[data-nav='{key}']").first
    if not link.is_visible():  # on a phone the organiser's pages are folded: open them
        page.locator("nav.competition-nav details.staff-menu summary").click()
    with page.expect_navigation():
        link.click()


def test_an_organiser_without_admin_runs_a_league_night_from_the_clubs_pages(
    page: Any, server: str, browser: Any
) -> None:
    # The site's admin invites Ornella, the club's new organiser, by link.
    log_in(page, server)
    with page.expect_navigation():
        page.locator("a[href='/c/circolo-pisano/members/']").first.click()
    page.fill("#id_invite-name", "Ornella Serafini")
    page.select_option("#id_invite-role", "organiser")
    with page.expect_navigation():
        page.locator("#invite-person button[type=submit]").click()
    link = page.locator("#invitation-link").input_value()
    assert "/invite/" in link

    # Ornella, on her phone, opens the link and chooses her login and password.
    phone = browser.new_context(locale="it-IT", viewport={"width": 390, "height": 844})
    lucia = phone.new_page()
    lucia.set_default_timeout(15_000)
    lucia.goto(link)
    lucia.fill("#id_username", "ornella")
    lucia.fill("#id_password", "serata-di-tarocchi")
    lucia.fill("#id_again", "serata-di-tarocchi")
    with lucia.expect_navigation():
        lucia.click("#accept")
    assert lucia.url == server + "/"
    expect(lucia.locator("a[href='/admin/']")).to_have_count(0)
    assert lucia.goto(server + "/admin/").url.startswith(server + "/admin/login")
    lucia.goto(server + "/")

    # From the club's page: a new competition, its rules picked from the game's list.
    with lucia.expect_navigation():
        lucia.locator("a[href='/c/circolo-pisano/competitions/new/']").first.click()
    lucia.fill("#id_name", "Serata di Tarocco")
    lucia.select_option("#id_game", "tarocco")
    assert lucia.locator("#id_preset option:checked").inner_text().strip()
    lucia.select_option("#id_format", "league")
    lucia.select_option("#id_seats_per_table", "4")
    with lucia.expect_navigation():
        lucia.click("#save-competition")
    assert lucia.url.endswith("/c/circolo-pisano/serata-di-tarocco/enrol/")

    # Sixteen names pasted; new ones are confirmed before they become players.
    lucia.fill("#names", "\n".join(NAMES))
    with lucia.expect_navigation():
        lucia.click("#enrol-pasted")
    expect(lucia.locator("#new-names li")).to_have_count(16)
    with lucia.expect_navigation():
        lucia.click("#confirm-enrol")
    expect(lucia.locator("#entrants li")).to_have_count(16)

    expected: dict[str, tuple[int, float]] = {n: (0, 0.0) for n in NAMES}
    for number in range(1, 5):
        _nav(lucia, "draw")
        with lucia.expect_navigation():
            lucia.click("#generate")
        expect(lucia.locator("#draft .table-card")).to_have_count(4)
        with lucia.expect_navigation():
            lucia.click("#publish")
        expect(lucia.locator(".messages")).to_contain_text(str(number))

        # Every table of the round through the score entry: the first seat plays solo
        # and takes 70 card points, +45 for them and -15 for each of the others.
        _nav(lucia, "score")
        links = lucia.get_by_role("link", name=re.compile(rf"^T{number} · tavolo "))
        expect(links).to_have_count(4)
        for t in range(4):
            if t:  # back from the score entry to the tables, by its crumbs
                with lucia.expect_navigation():
                    lucia.locator(".crumbs a[href$='/score/']").click()
            with lucia.expect_navigation():
                lucia.get_by_role("link", name=re.compile(rf"^T{number} · tavolo ")).nth(t).click()
            players = []
            for seat in range(4):
                text = lucia.locator(f"#id_declarer option[value='{seat}']").inner_text()
                players += [n for n in NAMES if n in text]
            lucia.select_option("#id_outcome", "solo")
            lucia.select_option("#id_declarer", "0")
            lucia.fill("#id_card_points", "70")
            expect(lucia.locator("#preview-scores tr[data-seat='0'] td.num")).to_have_text("45")
            with lucia.expect_navigation():
                lucia.click("#record")
            expect(lucia.locator("ul.messages li.success")).to_be_visible()
            assert len(players) == 4, players
            for seat, name in enumerate(players):
                games, points = expected[name]
                expected[name] = (games + 1, points + (45 if seat == 0 else -15))

        # The standings right after the round: everyone has played every round so far.
        with lucia.expect_navigation():
            lucia.locator(".crumbs a[href$='/serata-di-tarocco/']").click()
        shown = _standings(lucia)
        assert {n: shown[n] for n in NAMES} == expected
        assert all(games == number for games, _p in expected.values())

    phone.close()
