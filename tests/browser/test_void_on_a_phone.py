"""An organiser on a phone (390x844) voids a result entered twice from its page: "Annulla
questo risultato", the reason, "Annulla il risultato": two taps and the reason typed, and the
page then says who voided it and why, with nothing to scroll sideways."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in

TAROCCO = "/c/circolo-pisano/tarocco-2026/"
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(
        locale="it-IT", viewport=PHONE, is_mobile=True, has_touch=True, service_workers="block"
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def test_an_organiser_voids_a_result_from_its_page_in_two_taps(phone: Any, server: str) -> None:
    page = phone
    log_in(page, server)
    page.goto(server + TAROCCO + "score/")
    with page.expect_navigation():
        page.get_by_role("link", name="Tavolo 3", exact=True).click()
    page.select_option("#id_outcome", "solo")
    page.select_option("#id_declarer", "2")
    page.fill("#id_card_points", "70")
    with page.expect_navigation():
        page.click("#record")
    with page.expect_navigation():
        page.locator("a[href*='/r/']").first.click()
    result_page = page.url

    page.tap("#void")  # tap 1: the reason and the button open
    expect(page.locator("#void-reason")).to_be_visible()
    page.fill("#void-reason", "Inserito due volte")
    with page.expect_navigation():
        page.tap("#void-confirm")  # tap 2
    assert page.url == result_page
    expect(page.locator("#voided")).to_contain_text("Annullato da demo")
    expect(page.locator("#voided")).to_contain_text("Inserito due volte")
    expect(page.locator("#void")).to_have_count(0)
    width = page.evaluate("() => document.scrollingElement.scrollWidth")
    assert width <= PHONE["width"], width
