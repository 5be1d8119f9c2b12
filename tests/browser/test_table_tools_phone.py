"""What players expect of an online table, on a phone in Italian: the clock counts down on
the board, a hint says a move and why, and a move is taken back at a practice table."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in, refusals


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(
        locale="it-IT",
        viewport={"width": 390, "height": 844},
        has_touch=True,
        is_mobile=True,
        extra_http_headers={"Accept-Language": "it"},
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    refused = refusals(page)
    yield page
    context.close()
    assert not refused, "the page's console complained:\n" + "\n".join(refused)


def _labels(page: Any) -> list[str]:
    return [b.inner_text().strip() for b in page.locator("#your-turn button.play-action").all()]


def test_clock_hint_and_takeback_on_a_phone_in_italian(phone, server):
    page = phone
    log_in(page, server)
    page.goto(server + "/play/")
    tarocco = next(
        o.get_attribute("value")
        for o in page.locator("#ruleset option").all()
        if o.get_attribute("value").startswith("tarocco:")
    )
    page.select_option("#ruleset", tarocco)
    page.check("input[name=others][value=heuristic]")
    page.check("input[name=clock][value=game]")
    page.fill("#game_minutes", "10")
    page.fill("#increment", "5")
    page.locator("#new-table button[type=submit]").tap()
    page.wait_for_selector("#board")
    expect(page.locator("#rules-link")).to_contain_text("Regole di")

    # The clock: every seat's time, the player's running down from 10:00.
    expect(page.locator("#clock-rule")).to_contain_text("Orologio per partita: 10 minuti")
    page.wait_for_selector("#your-turn")
    mine = page.locator("#clocks .clock.running .clock-time")
    expect(mine).to_have_count(1)
    first = mine.inner_text()
    assert re.fullmatch(r"(9:5\d|10:00)", first), first
    page.wait_for_timeout(2500)
    later = mine.inner_text()
    assert later != first and re.fullmatch(r"9:5\d", later), (first, later)

    # A hint: shown at once on a first game, else one tap away; a move and its reason.
    if page.locator("#hint-ask").count():
        page.locator("#hint-ask").tap()
    expect(page.locator("#hint")).to_contain_text("Suggerimento:")
    assert page.locator("#hint-why").inner_text().strip()
    hinted = page.locator("#hint").inner_text().split(":", 1)[1].strip()
    before = _labels(page)
    assert any(hinted in label or label in hinted for label in before), (hinted, before)

    # A move, then take it back: the bots agree at once and the same choice is offered again.
    moves = page.locator("#board").get_attribute("data-moves")
    # "Tengo" keeps the hand going (three passes after an offer would end it at once).
    buttons = page.locator("#your-turn button.play-action")
    keep = buttons.filter(has_text=re.compile("tengo", re.IGNORECASE))
    (keep.first if keep.count() else buttons.first).tap()
    page.wait_for_function(
        "m => { const b = document.querySelector('#board'); return b && b.dataset.moves !== m; }",
        arg=moves,
    )
    expect(page.locator("#takeback-ask")).to_be_visible()
    expect(page.locator("#takeback-ask")).to_have_text("Riprendi la mia ultima mossa")
    page.locator("#takeback-ask").tap()
    expect(page.locator("#takeback-ask")).to_have_count(0)
    page.wait_for_selector("#your-turn")
    assert _labels(page) == before
    assert page.locator("#move-error").count() == 0
