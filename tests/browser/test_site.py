"""A new visitor's first minutes, in a real browser."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.conftest import log_in


def test_the_home_page_is_in_italian_and_switches_to_english(page, server):
    page.goto(server + "/")
    assert page.locator("h1").inner_text() == "Circoli e competizioni"
    assert page.locator("text=Circolo dei Giochi Pisani").count() == 1
    page.select_option("#language", "en")
    expect(page.locator("h1")).to_have_text("Clubs and competitions")


def test_a_competition_page_shows_standings_and_results(page, server):
    page.goto(server + "/")
    page.click("text=Campionato sociale di Tarocco")
    assert page.locator("table.standings tbody tr").count() >= 4
    page.screenshot(path=str(_shots() / "competition.png"), full_page=True)


def test_the_demo_login_works_and_offers_score_entry(page, server):
    log_in(page, server)
    page.click("text=Campionato sociale di Tarocco")
    assert page.locator("#record-result").count() == 1


def _shots():
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "var" / "screenshots"
    path.mkdir(parents=True, exist_ok=True)
    return path
