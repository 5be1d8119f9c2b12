"""A player on a phone (390x844) reaches "My notifications" from the header, switches off
the seat e-mails, gives an address and saves: the choice stays; then from a competition's
page reaches its calendar page with "add to calendar" and the feed to subscribe to. Nothing
scrolls sideways."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in, refusals

TAROCCO = "/c/circolo-pisano/tarocco-2026/"
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(
        locale="it-IT", viewport=PHONE, is_mobile=True, has_touch=True, service_workers="block"
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    refused = refusals(page)
    yield page
    context.close()
    assert not refused, "the page's console complained:\n" + "\n".join(refused)


def no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("() => document.scrollingElement.scrollWidth")
    assert width <= PHONE["width"], width


def test_a_player_chooses_their_notifications_and_finds_the_calendar(
    phone: Any, server: str
) -> None:
    page = phone
    log_in(page, server)
    with page.expect_navigation():
        page.locator("#my-notifications").click()
    expect(page.locator("h1")).to_have_text("Le mie notifiche")
    no_sideways_scroll(page)
    seat_email = page.locator("#id_seat__email")
    expect(seat_email).to_be_checked()
    seat_email.tap()
    page.fill("#id_email", "demo@example.org")
    with page.expect_navigation():
        page.tap("#save-preferences")
    expect(page.locator(".messages")).to_contain_text("Le tue scelte sono salvate.")
    expect(page.locator("#id_seat__email")).not_to_be_checked()
    expect(page.locator("#id_seat__push")).to_be_checked()
    expect(page.locator("#id_email")).to_have_value("demo@example.org")
    expect(page.locator("#calendar-url")).to_have_value(re.compile(r"/cal/me/[^/]+\.ics$"))

    page.goto(server + TAROCCO)
    with page.expect_navigation():
        page.locator("#calendar-link").tap()
    expect(page.locator("h1")).to_have_text("I turni nel tuo calendario")
    expect(page.locator("#subscribe-competition")).to_have_attribute(
        "href", re.compile(r"^webcal://.*/calendar\.ics$")
    )
    no_sideways_scroll(page)
