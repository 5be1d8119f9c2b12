"""An organiser draws a Swiss round in a real browser, adjusts it, publishes it, and the
public sees it on the round page, on a screen and on paper."""

from __future__ import annotations

from typing import Any

from tests.browser.conftest import log_in, manage

COMP = "/c/circolo-pisano/swiss-draw/"

# A Swiss of its own: the demo's San Marco Swiss has its first rounds played already.
SETUP = """
from ledger.clubs.models import Club, Competition
club = Club.objects.get(slug="circolo-pisano")
Competition.objects.get_or_create(
    club=club, slug="swiss-draw", defaults={"name": "Swiss", "game": "sanmarco", "format": "swiss"}
)
"""


def test_an_organiser_draws_adjusts_and_publishes_a_swiss_round(
    page: Any, server: str, server_env: dict[str, str]
) -> None:
    manage(server_env, "shell", "-c", SETUP)
    log_in(page, server)
    page.goto(server + COMP + "rounds/manage/")
    with page.expect_navigation():
        page.select_option("#language", "en")
    for _ in range(5):
        with page.expect_navigation():
            page.locator("#enter-form button[type=submit]").click()
    assert page.locator("#entrants tbody tr").count() == 5
    with page.expect_navigation():
        page.click("#generate")
    assert page.locator("#draft .table-card").count() == 2
    assert page.locator("#draft").inner_text().count("Bye") >= 1
    # Swap two players with the keyboard-friendly form.
    page.select_option("#swap-first", index=0)
    page.select_option("#swap-second", index=2)
    with page.expect_navigation():
        page.locator("#swap-form button[type=submit]").click()
    assert "Swapped" in page.locator(".messages").inner_text()
    with page.expect_navigation():
        page.click("#publish")
    assert "published" in page.locator(".messages").inner_text()

    page.goto(server + COMP + "rounds/")
    assert page.locator(".table-card").count() == 2
    assert "Tramontana" in page.locator(".draw").inner_text()
    page.emulate_media(media="print")
    assert not page.locator("header.site").is_visible()
    page.emulate_media(media="screen")
    page.goto(server + COMP + "rounds/1/?screen=1")
    assert page.locator("body.screen .table-card").count() == 2
