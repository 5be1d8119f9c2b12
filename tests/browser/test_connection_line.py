"""The line under a live board tells the truth about the connection: "live" while the
socket answers, "reconnecting" as soon as the browser goes offline (it used to stay on
"Live: every move appears here"), and live again once the connection is back."""

from __future__ import annotations

from typing import Any

from tests.browser.conftest import log_in

STATE = "() => document.getElementById('live-status')?.dataset.state"


def test_the_connection_line_says_reconnecting_while_offline_and_live_once_back(
    page: Any, server: str
) -> None:
    log_in(page, server)
    page.goto(server + "/play/")
    page.select_option("#ruleset", "tarocco:dummett-mcleod")
    page.check("input[name=others][value=heuristic]")
    with page.expect_navigation():
        page.click("#new-table button[type=submit]")
    page.wait_for_function(f"() => ({STATE})() === 'live' && window.playLive === true")
    live_words = page.locator("#live-status").inner_text()
    assert "diretta" in live_words

    page.context.set_offline(True)
    page.wait_for_function(f"() => ({STATE})() === 'reconnecting'")
    assert page.evaluate("window.playLive") is False
    assert page.locator("#live-status").inner_text() != live_words

    page.context.set_offline(False)
    page.wait_for_function(f"() => ({STATE})() === 'live' && window.playLive === true")
    assert page.locator("#live-status").inner_text() == live_words
