"""Two people, each in a browser of their own (one on a laptop in Italian, one on a phone in
English), play a whole game at a digital table with bots in the other seats, while a third
browser (a member of the club) watches: every move appears in the other pages without a
reload (the pages keep a marker set on them after the game began, never navigate, and stay
on their WebSocket), no
page ever holds another seat's hand, and the finished game is practice: in the player's own
history, in no competition's standings.

The board is read by what stays stable however it is drawn: the board's data-moves, the
"your turn" section, the buttons of class play-action, the forms #pick and #slots."""

from __future__ import annotations

import os
import random
import re
import time
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser.conftest import manage, refusals, screenshot

PASSWORD = "tavolo-dal-vivo-2026"
CLUB = "circolo-pisano"
# The third is a member of the club who watches: a table's socket is its seats' and its
# club's members' (ledger/play/live.py).
PEOPLE = (
    ("live.anna", "Anna Lanfranchi"),
    ("live.bruno", "Bruno Upezzinghi"),
    ("live.carla", "Carla Ventimiglia"),
)
SETUP = f"""
from django.contrib.auth import get_user_model
from ledger.clubs.models import Club, Membership, Player
club = Club.objects.get(slug="{CLUB}")
for username, name in {PEOPLE!r}:
    if not get_user_model().objects.filter(username=username).exists():
        user = get_user_model().objects.create_user(username, password="{PASSWORD}")
        Membership.objects.create(club=club, player=Player.objects.create(name=name, user=user))
"""
# Each game with a ruleset for more than two, so that bots sit beside the two people.
GAMES = {
    "tarocco": "dummett-mcleod",
    "ergio": "4p",
    "ponte": "3p-base",
    "cardchess": "3p",
}
MOVES = "() => document.getElementById('board')?.dataset.moves"
SETTLED = "() => !document.getElementById('board')?.classList.contains('sending')"
# The move a player keen to play the hand makes when offered (Tarocco: "tengo" takes the
# hand on; four passes would end the deal after four moves).
KEEN = {"tarocco": re.compile(r"^tengo", re.IGNORECASE)}


@pytest.fixture(scope="module")
def people_made(server_env: dict[str, str], server: str) -> None:
    manage(server_env, "shell", "-c", SETUP)


def _context(browser: Any, language: str, phone: bool) -> Any:
    size = {"width": 390, "height": 844} if phone else {"width": 1280, "height": 800}
    context = browser.new_context(locale=language, viewport=size, is_mobile=phone)
    # Forced moves are clicked like any other here (the player's own setting), so that no
    # page moves by itself while the test reads it.
    context.add_init_script("localStorage.setItem('play-no-autoplay', '1')")
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def _log_in(page: Any, server: str, username: str) -> None:
    page.goto(server + "/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    with page.expect_navigation():
        page.click("button[type=submit]")


def _moves(page: Any) -> int:
    return int(page.evaluate(MOVES) or 0)


def _play_one(page: Any, chooser: random.Random, game: str) -> None:
    """Click one of the moves the board offers, as a person would; a click that sent
    nothing (it met the board as it was being redrawn) is made again, as a person would."""
    for attempt in range(3):
        if _click_one(page, chooser, game, keyboard=attempt > 0):
            return
    screenshot(page, "live-stuck.png", failing=True, full_page=True)
    raise AssertionError("three clicks on the board were not answered")


def _click_one(page: Any, chooser: random.Random, game: str, keyboard: bool) -> bool:
    # A move still on its way (its choices disabled, "Sending your move…"): its answer is
    # waited for, on a loaded machine longer than the click's own wait.
    page.wait_for_function(SETTLED, timeout=25_000)
    before = _moves(page)
    keen = page.get_by_role("button", name=KEEN[game]) if game in KEEN else None
    pick = page.locator("#pick")
    slots = page.locator("#slots")
    listed = page.locator("#your-turn select#action")
    if pick.count():
        boxes = pick.locator("input[name=item]")
        for n in range(int(pick.get_attribute("data-count") or "0")):
            boxes.nth(n).check()
        pick.locator("button.play-action").click()
    elif slots.count():
        for k, place in enumerate(slots.locator("fieldset.slot").all()):
            radios = place.locator("input[type=radio]")
            if not any(r.is_checked() for r in radios.all()):
                radios.nth(k % radios.count()).check()
        slots.locator("button.play-action").click()
    elif listed.count():
        options = listed.locator("option").all()
        listed.select_option(options[chooser.randrange(len(options))].get_attribute("value"))
        page.locator("#your-turn button.play-action").click()
    elif keen is not None and keen.count():
        keen.first.click()
    else:
        buttons = page.locator("#board button.play-action")
        if not buttons.count():
            page.wait_for_timeout(300)
            return False
        button = buttons.nth(chooser.randrange(buttons.count()))
        if keyboard:  # the same choice from the keyboard
            button.focus()
            page.keyboard.press("Enter")
        else:
            try:
                button.click(timeout=5_000)
            except PlaywrightTimeout:
                # The board was being redrawn under the pointer (a move arriving from
                # another seat): the next attempt takes the board as it is now.
                return False
    try:
        page.wait_for_function(
            f"m => Number(({MOVES})()) > m || document.getElementById('move-error')",
            arg=before,
            timeout=6_000,
        )
    except PlaywrightTimeout:
        return False
    error = page.locator("#move-error")
    assert error.count() == 0, error.inner_text()
    return True


# The cards a page shows, read by their place: a hand's cards carry their code in
# data-card, and the cards offered to tick (a discard, Er Giò's face-down slots) are the
# inputs of .pick-card. A move's own value is not a place: a move may name a card that says
# nothing of any hand (Tarocco's call of a King one does not hold, an Er Giò special taking
# a card from the public field). Nor are the table's faces (data-face): besides the public
# table they draw what the seat's own view remembers (its own face-down plays, the fight
# cards a side saw), whose codes another seat may hold a copy of; that a page is drawn from
# its own seat's view alone is proved on the server (tests/play/test_hidden_information.py).
CARDS = """() => [
  ...[...document.querySelectorAll('[data-card]')].map(e => [e.dataset.card, e]),
  ...[...document.querySelectorAll('.pick-card input')].map(e => [e.value, e]),
].map(([code, e]) => [code, e.closest('#hand') ? 'hand' : 'elsewhere',
  e.tagName.toLowerCase() + (e.closest('[id]') ? ' in #' + e.closest('[id]').id : '')])"""


def _cards(page: Any) -> list[tuple[str, str, str]]:
    """(code, "hand" or "elsewhere", the element and the nearest block with an id)."""
    return [tuple(row) for row in page.evaluate(CARDS)]


def _no_other_hand(pages: list[Any], spectator: Any) -> None:
    """No page draws a card of another seat's hand that the public table does not show
    (a pack may hold several copies of a card: a copy on the table is public).

    The pages are compared at one and the same move: read one after the other while bots
    go on playing, a card still in a hand on one page (Er Giò's four-player hand is the
    side's pool, partner bot's cards included) could be on the table of the next page read,
    a public card taken for a leak. So every page and the spectator must show the same
    number of moves before and after the reading, or it is read again."""
    everyone = [*pages, spectator]
    for _attempt in range(50):
        shown = [_moves(p) for p in everyone]
        if len(set(shown)) != 1:
            spectator.wait_for_timeout(100)
            continue
        read = [_cards(p) for p in pages]
        public = {code for code, _place, _where in _cards(spectator)}
        if [_moves(p) for p in everyone] != shown:
            continue  # a move was made while the pages were read
        break
    else:
        raise AssertionError("the pages never showed the same move for long enough to read")
    hands = [{c for c, place, _w in cards if place == "hand"} for cards in read]
    # What the owner's own page shows outside its hand (its own face-down cards, say).
    outside = [{c for c, place, _w in cards if place != "hand"} for cards in read]
    for i, cards in enumerate(read):
        for j, other in enumerate(hands):
            if i == j:
                continue
            secret = other - hands[i] - outside[j] - public
            leaked = sorted({(c, where) for c, _place, where in cards if c in secret})
            assert not leaked, f"page {i} shows cards of seat {j}'s hand: {leaked}"


@pytest.mark.parametrize("game", GAMES)
def test_two_people_and_bots_play_live_without_a_reload_and_the_game_stays_practice(
    browser: Any, server: str, people_made: None, game: str
) -> None:
    anna = _context(browser, "it-IT", phone=False)
    bruno = _context(browser, "en-GB", phone=True)
    watcher = _context(browser, "it-IT", phone=False)
    refused = [refusals(p) for p in (anna, bruno, watcher)]
    _log_in(anna, server, PEOPLE[0][0])
    _log_in(bruno, server, PEOPLE[1][0])
    _log_in(watcher, server, PEOPLE[2][0])

    # Anna makes a table with open seats and sends Bruno the invitation.
    label = f"Dal vivo {game}"
    anna.goto(server + "/play/")
    anna.select_option("#ruleset", f"{game}:{GAMES[game]}")
    anna.check("input[name=others][value=open]")
    anna.fill("#label", label)
    with anna.expect_navigation():
        anna.click("#new-table button[type=submit]")
    table_url = anna.url
    invite = anna.locator("#invite").input_value()
    bruno.goto(invite)
    with bruno.expect_navigation():
        bruno.click("#take-seat")
    assert bruno.url == table_url
    # Anna's page learns that Bruno sat down without being reloaded.
    anna.wait_for_function("() => window.playLive === true")
    anna.evaluate("window.liveMarker = 'seated'")
    anna.locator("#board").get_by_text(PEOPLE[1][1]).wait_for()
    assert anna.evaluate("window.liveMarker") == "seated"

    # She seats bots in the other seats; the game begins on Bruno's page by itself.
    bruno.wait_for_function("() => window.playLive === true")
    bruno.evaluate("window.liveMarker = 'kept'")
    with anna.expect_navigation():
        anna.click("#fill-bots")
    bruno.wait_for_function("() => document.getElementById('board').dataset.status !== 'waiting'")
    watcher.goto(table_url)
    pages = [anna, bruno]
    navigations: list[str] = []
    for page in (anna, bruno, watcher):
        page.wait_for_function("() => window.playLive === true")
        page.evaluate("window.liveMarker = 'kept'")
        page.on(
            "framenavigated",
            lambda f: navigations.append(f.url) if f.parent_frame is None else None,
        )
    assert anna.locator("#practice").count() == 1

    chooser = random.Random(19)
    moves = 0
    started = time.perf_counter()
    for _ in range(1500):
        if anna.locator("#game-over").count():
            break
        mover = None
        for _wait in range(40):  # a board still being drawn: a moment at most
            mover = next((p for p in pages if p.locator("#your-turn").count()), None)
            if mover is not None or anna.locator("#game-over").count():
                break
            anna.wait_for_timeout(250)
        if mover is None and anna.locator("#game-over").count():
            break
        if mover is None:
            screenshot(anna, "live-nobody.png", failing=True, full_page=True)
            screenshot(bruno, "live-nobody-bruno.png", failing=True, full_page=True)
        assert mover is not None, "neither person is to act and the game is not over"
        _play_one(mover, chooser, game)
        moves += 1
        # The move (and the bots' answers) reach the other pages without a reload.
        now = _moves(mover)
        for other in (anna, bruno, watcher):
            try:
                other.wait_for_function(f"n => Number(({MOVES})()) >= n", arg=now)
            except PlaywrightTimeout:
                shown = [_moves(p) for p in (anna, bruno, watcher)]
                raise AssertionError(f"after move {now} the pages show {shown}") from None
        # LEAK_EVERY=1: the check at every move (slower), to hunt a rare one.
        if moves % 5 == 1 or os.environ.get("LEAK_EVERY"):
            _no_other_hand(pages, watcher)
    else:
        raise AssertionError("the game did not end")
    bruno.locator("#game-over").wait_for()
    watcher.wait_for_function(
        "() => document.getElementById('board').dataset.status === 'finished'"
    )
    _no_other_hand(pages, watcher)
    # The line that said "live: every move appears here" now says the game is over.
    for page, words in ((anna, "partita è finita"), (bruno, "game is over"), (watcher, "finita")):
        page.wait_for_function(
            "() => document.getElementById('live-status').dataset.state === 'finished'"
        )
        assert words in page.locator("#live-status").inner_text()
    assert moves >= 2
    print(f"{game}: {moves} moves by the two people in {time.perf_counter() - started:.1f} s")
    for page in (anna, bruno, watcher):
        assert page.evaluate("window.liveMarker") == "kept", "the page was reloaded"
        assert page.evaluate("window.playLive") is True
    assert navigations == [], f"pages navigated during the game: {navigations}"
    screenshot(anna, f"live-{game}-laptop-it.png", full_page=True)
    screenshot(bruno, f"live-{game}-phone-en.png", full_page=True)

    # Practice: in the player's own history, never in a competition's standings.
    assert anna.locator("#ledger-result").count() == 0
    pk = re.search(r"/play/(\d+)/", table_url).group(1)  # type: ignore[union-attr]
    summary = anna.request.get(f"{server}/api/v1/play/tables/{pk}/").json()
    assert summary["practice"] is True and summary.get("result") is None
    with anna.expect_navigation():
        anna.click("#history")
    practice = anna.locator("#practice-games")
    assert label in practice.inner_text()
    anna.goto(server + "/")
    competitions = {
        href
        for href in anna.locator(f"a[href^='/c/{CLUB}/']").evaluate_all(
            "els => els.map(a => a.getAttribute('href'))"
        )
        if href.count("/") == 4 and "/p/" not in href
    }
    assert competitions  # the home page lists the club's competitions
    for url in competitions:
        standings = anna.request.get(server + url).text()
        assert "Bot euristico" not in standings and PEOPLE[0][1] not in standings, url
    for found in refused:
        assert not found, "the Content-Security-Policy refused:\n" + "\n".join(found)
    for page in (anna, bruno, watcher):
        page.context.close()
