"""The line under a live board tells the truth about the connection: "live" while the
socket answers; "offline" as soon as the browser says it has no network (it used to stay on
"Live: every move appears here"), a move then refused in words; "reconnecting" when the
network is there but the server closed the socket; and live again once a socket answers."""

from __future__ import annotations

from typing import Any

from tests.browser.conftest import log_in

STATE = "() => document.getElementById('live-status')?.dataset.state"
LIVE = f"() => ({STATE})() === 'live' && window.playLive === true"
# Every socket the page opens, and every state the line takes, kept for the test to read.
WATCH = """
(() => {
  const Native = window.WebSocket;
  window.openedSockets = [];
  window.WebSocket = function (url, protocols) {
    const made = protocols === undefined ? new Native(url) : new Native(url, protocols);
    window.openedSockets.push(made);
    return made;
  };
  window.WebSocket.prototype = Native.prototype;
  Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
  window.lineStates = [];
  new MutationObserver(() => {
    const line = document.getElementById('live-status');
    const state = line && line.dataset.state;
    if (state && window.lineStates[window.lineStates.length - 1] !== state) {
      window.lineStates.push(state);
    }
  }).observe(document, {subtree: true, attributes: true, attributeFilter: ['data-state']});
})();
"""


def _table_against_bots(page: Any, server: str) -> None:
    """A Tarocco table against three bots, live, at the person's turn (the bots wait)."""
    page.context.add_init_script("localStorage.setItem('play-no-autoplay', '1')")
    log_in(page, server)
    page.goto(server + "/play/")
    page.select_option("#ruleset", "tarocco:dummett-mcleod")
    page.check("input[name=others][value=heuristic]")
    with page.expect_navigation():
        page.click("#new-table button[type=submit]")
    page.wait_for_function(LIVE)
    page.locator("#your-turn").wait_for()


def test_the_connection_line_says_offline_without_network_and_live_once_back(
    page: Any, server: str
) -> None:
    _table_against_bots(page, server)
    live_words = page.locator("#live-status").inner_text()
    assert "diretta" in live_words

    page.context.set_offline(True)
    page.wait_for_function(f"() => ({STATE})() === 'offline'")
    assert page.evaluate("window.playLive") is False
    offline_words = page.locator("#live-status").inner_text()
    assert "Senza rete" in offline_words and "mosse" in offline_words
    # A move tapped now is not sent, and the board says so in words.
    moves = page.evaluate("document.getElementById('board').dataset.moves")
    page.locator("#board button.play-action").first.click()
    page.locator("#tap-status").filter(has_text="connessione").wait_for()
    page.wait_for_timeout(1500)  # no socket is tried while there is no network
    assert page.evaluate(STATE) == "offline"
    assert page.evaluate("document.getElementById('board').dataset.moves") == moves

    page.context.set_offline(False)
    page.wait_for_function(LIVE)
    assert page.locator("#live-status").inner_text() == live_words


def test_a_socket_the_server_closes_with_the_network_up_says_reconnecting_then_live(
    page: Any, server: str
) -> None:
    page.context.add_init_script(WATCH)
    _table_against_bots(page, server)
    live_words = page.locator("#live-status").inner_text()
    page.evaluate("window.lineStates = ['live']")

    # The server closes a socket that keeps sending what is not a request (code 4400).
    closed = page.evaluate(
        """() => new Promise((done) => {
            const socket = window.openedSockets[window.openedSockets.length - 1];
            socket.addEventListener('close', (e) => done(e.code));
            for (let i = 0; i < 5; i++) { socket.send('not json'); }
        })"""
    )
    assert closed == 4400
    page.wait_for_function(f"() => window.openedSockets.length >= 2 && ({LIVE})()")
    assert page.evaluate("navigator.onLine") is True
    assert page.evaluate("window.lineStates") == ["live", "reconnecting", "live"]
    assert page.locator("#live-status").inner_text() == live_words
