"""Digital tables in a real browser: one human seat, driven through the page with the
keyboard-reachable action buttons, plays a whole game against bots; the finished game is
in the ledger (its competition's results, its result page), and can be replayed."""

from __future__ import annotations

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from games.core import registry
from tests.browser.conftest import log_in, screenshot

COMPETITIONS = {
    "tarocco": "Campionato sociale di Tarocco",
    "ergio": "Torneo di Er Giò",
    "ponte": "Sfida del Ponte",
    "sanmarco": "Coppa San Marco a due",
    "cardchess": "Serate di 3D cardChess",
}


def _play_to_the_end(page, limit: int = 2000) -> int:
    moves = 0
    unanswered = 0
    for _ in range(limit):
        if page.locator("#game-over").count():
            return moves
        board = page.locator("#board")
        before = board.get_attribute("data-moves")
        button = page.locator("button.play-action").first
        if button.count() == 0:
            page.wait_for_timeout(150)  # the board polls while bots are to act
            continue
        pick = page.locator("#pick")
        if pick.count():
            # A choice of several cards at once (Tarocco's discard): tick as many as asked,
            # from the keyboard, then send them.
            boxes = pick.locator("input[name=item]")
            for n in range(int(pick.get_attribute("data-count") or "0")):
                boxes.nth(n).focus()
                page.keyboard.press("Space")
        button.focus()
        page.keyboard.press("Enter")
        try:
            page.wait_for_function(
                "m => { const b = document.querySelector('#board');"
                " return b && b.dataset.moves !== m; }",
                arg=before,
                timeout=4000,
            )
        except PlaywrightTimeout:
            # The board's poll may have replaced the button between finding and pressing
            # it, so the key went nowhere: try again from the board as it is now, a few
            # times at most.
            unanswered += 1
            assert unanswered < 5, "moves made at the table were not answered"
            continue
        unanswered = 0
        assert page.locator("#move-error").count() == 0, page.locator("#move-error").inner_text()
        moves += 1
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("game", [g for g in registry.available() if g in COMPETITIONS])
def test_a_digital_game_against_bots_is_practice_in_the_players_history(page, server, game):
    log_in(page, server)
    page.goto(server + "/play/")
    first = next(
        o
        for o in page.locator("#ruleset option").all()
        if o.get_attribute("value").startswith(game + ":")
    )
    page.select_option("#ruleset", first.get_attribute("value"))
    page.check("input[name=others][value=heuristic]")
    page.fill("#label", f"Browser {game}")
    page.click("#new-table button[type=submit]")
    page.wait_for_selector("#board")
    assert page.locator("#table-status").inner_text() in ("In gioco", "Playing")
    assert page.locator("#practice").count() == 1
    moves = _play_to_the_end(page)
    assert moves > 0
    screenshot(page, f"play-{game}-over.png", full_page=True)
    assert page.locator("#ledger-result").count() == 0
    assert page.locator("#seed").count() == 1
    with page.expect_navigation():
        page.click("#history")
    # Waits for the history page to be drawn (counting at once could read it half-loaded).
    expect(page.locator(f"#practice-games >> text=Browser {game}")).to_have_count(1)
    # No competition's standings name a bot.
    page.goto(server + "/")
    page.click(f"text={COMPETITIONS[game]}")
    assert page.locator("table.standings >> text=Bot euristico").count() == 0


def test_a_finished_game_replays_move_by_move_and_downloads(page, server):
    log_in(page, server)
    page.goto(server + "/play/")
    page.select_option("#ruleset", "sanmarco:variant3")
    page.click("#new-table button[type=submit]")
    page.wait_for_selector("#board")
    _play_to_the_end(page)
    with page.expect_download() as download:
        page.click("#download")
    assert download.value.suggested_filename.startswith("sanmarco-")
    page.click("#replay")
    assert "0" in page.locator("h1").inner_text()
    page.click("#next")
    assert page.locator("#last-move").count() == 1
    page.click("#last")
    assert page.locator("#outcome").count() == 1


def test_open_seats_show_the_invitation_and_bots_can_take_them(page, server):
    log_in(page, server)
    page.goto(server + "/play/")
    page.select_option("#ruleset", "tarocco:dummett-mcleod")
    page.check("input[name=others][value=open]")
    page.click("#new-table button[type=submit]")
    page.wait_for_selector("#board")
    invite = page.locator("#invite").input_value()
    assert "/join/" in invite
    # While the creator chooses, the polling board leaves the focused control alone.
    page.focus("#bot-kind")
    page.wait_for_timeout(2500)
    assert page.evaluate("document.activeElement.id") == "bot-kind"
    page.select_option("#bot-kind", "random")
    page.click("#fill-bots")
    page.wait_for_selector("button.play-action, #waiting, #game-over")
    assert page.locator("#tableau .seat-name >> text=Bot casuale 3").count() == 1
    # The invitation link, opened by someone else, now says every seat is taken.
    other = page.context.browser.new_context(locale="it-IT").new_page()
    other.goto(invite)
    assert other.locator("#take-seat").count() == 0
    other.context.close()
