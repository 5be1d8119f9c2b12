"""Each seat of a live table says whether its person has the table open: on a phone in
Italian, Anna sees Bruno's seat turn "presente" when his page opens and "assente" when he
closes it, in place (the mark itself changes, the board is not drawn again, the page is not
reloaded), while the bots' seats say "bot"."""

from __future__ import annotations

import time
from typing import Any

from tests.browser.conftest import refusals, screenshot
from tests.browser.test_live_tables import PEOPLE, _context, _log_in, people_made

__all__ = ["people_made"]  # the module's fixture, used here too

MARK = "#board [data-presence-seat='{seat}']"
# A person is to act (the bots wait for them): nothing else redraws the board meanwhile.
SETTLED = (
    "() => { const b = document.getElementById('board');"
    " return !!b && b.dataset.status === 'playing' && !!b.querySelector('#your-turn, #waiting'); }"
)


def _mark(page: Any, seat: int) -> Any:
    return page.locator(MARK.format(seat=seat)).first


def _shoot(page: Any, name: str) -> None:
    screenshot(page, name, full_page=True)


def test_a_seats_mark_turns_here_then_away_in_place_as_its_person_opens_and_closes_the_table(
    browser: Any, server: str, people_made: None
) -> None:
    anna = _context(browser, "it-IT", phone=True)
    refused = refusals(anna)
    _log_in(anna, server, PEOPLE[0][0])
    anna.goto(server + "/play/")
    anna.select_option("#ruleset", "tarocco:dummett-mcleod")
    anna.check("input[name=others][value=open]")
    anna.fill("#label", "Chi c'è")
    with anna.expect_navigation():
        anna.click("#new-table button[type=submit]")
    table_url = anna.url
    invite = anna.locator("#invite").input_value()
    anna.wait_for_function("() => window.playLive === true")
    # Her own seat: here from the first draw.
    assert _mark(anna, 0).get_attribute("data-presence") == "here"
    assert _mark(anna, 0).inner_text() == "presente"

    bruno = _context(browser, "en-GB", phone=False)
    _log_in(bruno, server, PEOPLE[1][0])
    bruno.goto(invite)
    with bruno.expect_navigation():
        bruno.click("#take-seat")
    with anna.expect_navigation():
        anna.click("#fill-bots")
    anna.wait_for_function("() => window.playLive === true")
    anna.wait_for_function(SETTLED)
    bruno.wait_for_function(SETTLED)
    anna.evaluate("window.liveMarker = 'kept'")
    assert _mark(anna, 1).get_attribute("data-presence") == "here"
    assert _mark(anna, 1).inner_text() == "presente"
    assert [_mark(anna, s).inner_text() for s in (2, 3)] == ["bot", "bot"]
    assert _mark(bruno, 0).inner_text() == "here"

    # Bruno closes his page: the same mark on Anna's phone turns "assente".
    anna.evaluate(f"document.querySelector(\"{MARK.format(seat=1)}\").dataset.kept = '1'")
    moves = anna.evaluate("document.getElementById('board').dataset.moves")
    started = time.perf_counter()
    bruno.context.close()
    anna.wait_for_function(
        f"() => document.querySelector(\"{MARK.format(seat=1)}\").dataset.presence === 'away'"
    )
    left = time.perf_counter() - started
    assert _mark(anna, 1).inner_text() == "assente"
    assert _mark(anna, 1).get_attribute("data-kept") == "1", "the mark was drawn anew"
    assert anna.evaluate("document.getElementById('board').dataset.moves") == moves
    _shoot(anna, "presence-phone-it.png")

    # A member of the club watching on a laptop in English sees the same.
    carla = _context(browser, "en-GB", phone=False)
    _log_in(carla, server, PEOPLE[2][0])
    carla.goto(table_url)
    carla.wait_for_function("() => window.playLive === true")
    assert _mark(carla, 0).inner_text() == "here"
    assert _mark(carla, 1).inner_text() == "away"
    assert _mark(carla, 2).inner_text() == "bot"
    _shoot(carla, "presence-laptop-en.png")

    # Bruno comes back: here again, in place.
    again = _context(browser, "en-GB", phone=False)
    _log_in(again, server, PEOPLE[1][0])
    started = time.perf_counter()
    again.goto(table_url)
    anna.wait_for_function(
        f"() => document.querySelector(\"{MARK.format(seat=1)}\").dataset.presence === 'here'"
    )
    print(
        f"away shown {left:.2f} s after the page closed, "
        f"here {time.perf_counter() - started:.2f} s after it was asked for"
    )
    assert _mark(anna, 1).inner_text() == "presente"
    assert _mark(anna, 1).get_attribute("data-kept") == "1", "the mark was drawn anew"
    assert anna.evaluate("window.liveMarker") == "kept", "the page was reloaded"
    for page in (anna, carla, again):
        page.context.close()
    assert not refused, "the page's console complained:\n" + "\n".join(refused)
