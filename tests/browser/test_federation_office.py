"""A federation's officer on a phone (390x844, Italian): reaches the federations from the
menu, founds one, approves the demo club's application, sees a bad tier weight refused at
its field with what was typed kept, adds the tier and a season, imports the cards from an
Italian-Excel CSV and sanctions a competition; the pages fit the phone's width."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in

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


def _fits(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"] + 1, width


def test_an_officer_sets_up_a_federation_on_a_phone(phone: Any, server: str) -> None:
    page = phone
    log_in(page, server)
    page.click("#nav-federations")
    expect(page.get_by_role("heading", name="Federazioni", exact=True)).to_be_visible()
    page.fill("#federation-name", "Federazione Pisana di Prova")
    page.fill("#federation-region", "Toscana")
    with page.expect_navigation():
        page.get_by_role("button", name="Fonda").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Federazione Pisana di Prova")
    _fits(page)

    with page.expect_navigation():
        page.click("#apply")
    with page.expect_navigation():
        page.locator("#applications button[value=approve]").first.click()
    expect(page.locator("#member-clubs")).to_contain_text("Circolo")

    page.get_by_text("Aggiungi un livello").click()
    page.fill("#tier-name", "Di circolo")
    page.fill("#tier-weight", "tanto")
    page.get_by_label("Iscrivilo, con un avviso").check()
    with page.expect_navigation():
        page.click("#add-tier")
    expect(page.locator("#tier-weight-error")).to_contain_text("Non è un peso")
    expect(page.locator("#tier-weight")).to_have_value("tanto")
    page.fill("#tier-weight", "1,5")
    with page.expect_navigation():
        page.click("#add-tier")
    expect(page.locator("#tiers")).to_contain_text("1,50")

    page.get_by_text("Aggiungi una stagione di tessere").click()
    page.fill("#season-name", "Prova 2026")
    page.fill("#season-starts", "01/01/2026")
    page.fill("#season-ends", "31/12/2026")
    with page.expect_navigation():
        page.click("#add-season")
    with page.expect_navigation():
        page.get_by_role("link", name="Prova 2026").click()
    rows = "\r\n".join(["Numero;Nome", "501;Lucia Bianchi", "502;Marco Rossi", "503;Giulia Verdi"])
    page.set_input_files(
        "#cards-file",
        {
            "name": "tessere.csv",
            "mimeType": "text/csv",
            "buffer": "\ufeff".encode() + rows.encode(),
        },
    )
    with page.expect_navigation():
        page.click("#import")
    expect(page.locator("#card-counts")).to_contain_text("3 tessere")
    expect(page.locator("#cards")).to_contain_text("Marco Rossi")
    _fits(page)

    with page.expect_navigation():
        page.get_by_role("link", name="Federazione Pisana di Prova").click()
    with page.expect_navigation():
        page.click("#sanction")
    expect(page.locator("#sanctioned")).to_contain_text("Di circolo")
    _fits(page)
