"""The whole move list at hand: beside the board and open on a laptop (1000 px and wider),
under it and folded on a phone; every move of the game, numbered from the first, in a list
that scrolls to the newest."""

from __future__ import annotations

from typing import Any

from tests.browser.conftest import log_in, refusals, screenshot

MOVES = "() => Number(document.getElementById('board').dataset.moves)"
SETTLED = "() => !document.getElementById('board')?.classList.contains('sending')"


def _page(browser: Any, language: str, phone: bool) -> Any:
    size = {"width": 390, "height": 844} if phone else {"width": 1280, "height": 800}
    context = browser.new_context(locale=language, viewport=size, is_mobile=phone)
    context.add_init_script("localStorage.setItem('play-no-autoplay', '1')")
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def test_the_move_list_is_beside_the_board_on_a_laptop_and_folded_under_it_on_a_phone(
    browser: Any, server: str
) -> None:
    laptop = _page(browser, "en-GB", phone=False)
    refused = refusals(laptop)
    log_in(laptop, server)
    laptop.goto(server + "/play/")
    laptop.select_option("#ruleset", "tarocco:dummett-mcleod")
    laptop.check("input[name=others][value=heuristic]")
    with laptop.expect_navigation():
        laptop.click("#new-table button[type=submit]")
    table_url = laptop.url
    # A few moves of the person, each the first choice offered (the bots answer each at once).
    for _ in range(4):
        laptop.wait_for_function(SETTLED)
        if not laptop.locator("#your-turn").count():
            break
        before = laptop.evaluate(MOVES)
        pick = laptop.locator("#pick")
        if pick.count():
            # The monte's discard, when the person won the bidding (about one deal in
            # seven): its button sends only as many cards as it asks for, ticked first.
            boxes = pick.locator("input[name=item]")
            for n in range(int(pick.get_attribute("data-count") or "0")):
                boxes.nth(n).check()
        laptop.locator("#board button.play-action").first.click()
        laptop.wait_for_function(f"m => ({MOVES})() > m", arg=before)
    laptop.wait_for_function(SETTLED)
    moves = laptop.evaluate(MOVES)
    assert moves >= 4

    log = laptop.locator("#move-log")
    assert log.evaluate("d => d.open") is True
    items = log.locator("ol.moves li")
    assert items.count() == moves  # every move, not only the last ones
    assert log.locator("ol.moves").get_attribute("start") == "1"
    board = laptop.locator("#board").bounding_box()
    beside = log.bounding_box()
    hand = laptop.locator("#hand").bounding_box()
    assert beside["x"] >= hand["x"] + hand["width"]  # its own column, right of the hand
    assert beside["y"] < hand["y"]  # from the top of the board, not under it
    assert beside["x"] + beside["width"] <= board["x"] + board["width"] + 1
    assert laptop.evaluate("document.documentElement.scrollWidth") <= 1280
    screenshot(laptop, "A-board-laptop-en.png", full_page=True)

    phone = _page(browser, "it-IT", phone=True)
    log_in(phone, server)
    phone.goto(table_url)
    log = phone.locator("#move-log")
    assert log.evaluate("d => d.open") is False  # folded
    hand = phone.locator("#hand").bounding_box()
    assert log.bounding_box()["y"] > hand["y"] + hand["height"]  # under the board
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    log.locator("summary").click()
    assert log.evaluate("d => d.open") is True
    assert log.locator("ol.moves li").count() == moves
    assert "Le mosse fin qui" in log.locator("summary").inner_text()
    screenshot(phone, "A-board-phone-it.png", full_page=True)
    assert not refused, "\n".join(refused)
    for page in (laptop, phone):
        page.context.close()
