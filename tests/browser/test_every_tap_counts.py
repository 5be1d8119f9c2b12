"""Every tap counts: on a phone (touch, 390x844), a player taps the choices of a digital
table as fast as the board allows, through whole games of all five games against bots,
while the board keeps being drawn again under the finger (the bots' moves arriving live,
and a refresh of the same board every half second, as a seat's presence changing
would cause). Each tap is a real touch (touchstart, touchend, then the click the browser
makes of it) at a point anywhere inside the choice, its edges included.

Counted: a tap that sends no move and shows no message is lost; a tap that sends another
choice than the one under the finger is misdirected; a tap that sends two moves, or a
move applied twice by the server, is a double move. All must be 0: the number of taps,
of moves sent (POST requests) and of moves applied to the player's seat (the finished
game's record) are the same. The counts are printed.

Why taps were lost (traced with the events of a lost tap: the touch on the card's
picture, then mousedown and click on the form 4-9 ms later): the hover rule lifted the
button 6 px as the browser's emulated mouse moved onto it, so a touch near its lower edge
clicked the form beneath. See ledger/play/static/play/play.js and play.css."""

from __future__ import annotations

import contextlib
import random
import re
import sqlite3
import time
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

from games.core import registry
from tests.browser.conftest import log_in, refusals

# "Tengo": take a Tarocco hand on (four passes end the deal at once).
KEEN = re.compile(r"^\s*tengo", re.IGNORECASE)
GAMES = ["tarocco", "ergio", "ponte", "sanmarco", "cardchess"]
# A move is sent and answered within this long on a loaded machine; past it, the tap was lost.
SENT_WITHIN_MS = 4_000
READY = (
    "() => { const b = document.getElementById('board');"
    " if (!b || b.classList.contains('sending')) return false;"
    " if (document.getElementById('game-over')) return true;"
    " return !!document.querySelector('#your-turn')"
    " && !!document.querySelector('#board button.play-action:not([disabled])'); }"
)
# The board drawn again, as a live notice does, every half second, through the same
# path as live.js (play.js's offer, which takes an equal board too when asked with 0).
REDRAW = (
    "() => { window.__redraws = 0; setInterval(() => {"
    " fetch(location.pathname + 'board/', {headers: {'HX-Request': 'true'}})"
    " .then(r => r.text()).then(h => { if (window.playBoard.offer(h, 0)) window.__redraws++; });"
    " }, 500); }"
)

# What a lost tap's report shows: the events of the tap, their targets, and the boards drawn.
EVENTS = """
window.__events = [];
const name = el => {
  if (!el || !el.tagName) return String(el);
  const where = el.closest('button, li, figure, section, form');
  return el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
    (where ? ' in ' + where.outerHTML.replace(/<svg[\\s\\S]*?<\\/svg>/g, '').slice(0, 160) : '');
};
// Whether the finger came down on the choice aimed at (the test's aim, not the page's doing).
document.addEventListener('touchstart', e => {
  window.__onAim = e.target instanceof Element && !!e.target.closest('[data-aimed]');
}, true);
for (const type of ['touchstart', 'touchend', 'mousedown', 'click', 'submit']) {
  document.addEventListener(type, e => window.__events.push(type + ' ' + name(e.target)), true);
}
new MutationObserver(ms => { for (const m of ms) for (const n of m.removedNodes)
  if (n.id === 'board') window.__events.push('board drawn anew'); })
  .observe(document.documentElement, {childList: true, subtree: true});
window.addEventListener('scroll', () => window.__events.push('scrolled to ' + window.scrollY));
"""


def _phone(browser: Any) -> Any:
    context = browser.new_context(
        locale="it-IT",
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        device_scale_factor=2,
    )
    # Forced moves are tapped like the others (a setting of the player's): a forced move that
    # played itself as well would be a second request for the same move.
    context.add_init_script("localStorage.setItem('play-no-autoplay', '1')")
    context.add_init_script(EVENTS)
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def _tap(page: Any, target: Any, chooser: random.Random) -> bool:
    """A thumb's tap anywhere inside the target, its lower edge included."""
    box = target.evaluate(
        "e => { e.scrollIntoView({block: 'nearest'}); const r = e.getBoundingClientRect();"
        " document.querySelectorAll('[data-aimed]').forEach(a => a.removeAttribute('data-aimed'));"
        " e.setAttribute('data-aimed', ''); window.__onAim = null;"
        " window.__events.push(`aimed at ${r.x | 0},${r.y | 0} ${r.width | 0}x${r.height | 0}`);"
        " return {x: r.x, y: r.y, width: r.width, height: r.height}; }",
        timeout=2_000,
    )
    x = box["x"] + box["width"] * chooser.uniform(0.15, 0.85)
    y = box["y"] + box["height"] * chooser.uniform(0.1, 0.97)
    if not box["width"] or not box["height"]:
        return False  # the board was drawn anew between finding the choice and measuring it
    page.touchscreen.tap(x, y)
    return True


def _prepare(page: Any, chooser: random.Random) -> tuple[Any, str | None]:
    """Ready the choice to send (tick cards, choose from a list) and return the button to
    tap and the action it sends (None where it is composed from several fields)."""
    board = page.locator("#board")
    pick = board.locator("#pick")
    if pick.count():
        boxes = pick.locator("input[name=item]")
        for n in range(int(pick.get_attribute("data-count") or "0")):
            boxes.nth(n).check()
        return pick.locator("button.play-action"), None
    slots = board.locator("#slots")
    if slots.count():
        for k, place in enumerate(slots.locator("fieldset.slot").all()):
            radios = place.locator("input[type=radio]")
            if not any(r.is_checked() for r in radios.all()):
                radios.nth(k % radios.count()).check()
        return slots.locator("button.play-action"), None
    for form_id in ("#number",):
        if board.locator(form_id).count():
            return board.locator(f"{form_id} button.play-action"), None
    listed = board.locator("#your-turn select#action")
    if listed.count():
        options = listed.locator("option").all()
        value = options[chooser.randrange(len(options))].get_attribute("value")
        listed.select_option(value)
        return board.locator("#your-turn button.play-action"), value
    buttons = board.locator("button.play-action:not([disabled])")
    keen = buttons.filter(has_text=KEEN)  # Tarocco: take the hand on, for a longer game
    button = keen.first if keen.count() else buttons.nth(chooser.randrange(buttons.count()))
    form = button.locator("xpath=ancestor::form[1]")
    chosen = form.locator("select[name=action]")
    if chosen.count():
        options = chosen.locator("option").all()
        value = options[chooser.randrange(len(options))].get_attribute("value")
        chosen.select_option(value)
        return button, value
    return button, form.locator("input[name=action]").get_attribute("value")


def _field(request: Any, name: str) -> str | None:
    from urllib.parse import parse_qs

    values = parse_qs(request.post_data or "").get(name)
    return values[0] if values else None


def _play_fast(page: Any, chooser: random.Random, taps: int | None) -> dict[str, Any]:
    """Tap until the game is over (or ``taps`` taps were made)."""
    limit = 2000
    sent: list[Any] = []
    page.on(
        "request", lambda r: sent.append(r) if r.method == "POST" and "/act/" in r.url else None
    )
    counts = {
        "taps": 0,
        "lost": 0,
        "misdirected": 0,
        "errors": 0,
        "lost_at": [],
        "beside": [],
        "double": [],
    }
    last = -1  # where the last tap's request is in ``sent``
    for _ in range(limit):
        page.wait_for_function(READY, timeout=20_000)
        if last >= 0 and len(sent) > last + 1:
            # The last tap sent more than one request: what it sent, and what happened.
            ids = [_field(r, "move_id") for r in sent[last:]]
            counts["double"].append([*ids, *page.evaluate("window.__events")])
            last = len(sent) - 1
        if page.locator("#game-over").count() or counts["taps"] == taps:
            counts["sent"] = len(sent)
            return counts
        try:
            button, action = _prepare(page, chooser)
            before = len(sent)
            page.evaluate("window.__events = []")
            if not _tap(page, button, chooser):
                continue
        except PlaywrightError:
            continue  # the board was drawn anew while the test read it, before any tap
        counts["taps"] += 1
        deadline = time.monotonic() + SENT_WITHIN_MS / 1000
        while len(sent) == before and time.monotonic() < deadline:
            page.wait_for_timeout(10)
        if len(sent) == before and page.evaluate("window.__onAim") is False:
            # The finger came down beside the choice (the page moved between the test's
            # measuring and its tap, with no board drawn): not a tap on a choice; again.
            counts["taps"] -= 1
            counts["beside"].append(page.evaluate("window.__events"))
            continue
        if len(sent) == before:
            counts["lost"] += 1
            counts["lost_at"].append(page.evaluate("window.__events"))
            continue
        last = before
        if action is not None and _field(sent[before], "action") != action:
            counts["misdirected"] += 1
        with contextlib.suppress(PlaywrightError):  # a request that failed says so itself
            sent[before].response()
        if page.locator("#move-error").count():
            counts["errors"] += 1
    raise AssertionError(f"the game did not end within {limit} taps: {counts}")


def _applied(server_env: dict[str, str], table: str) -> int:
    """The moves the server applied for the player's seat (seat 0, the table's maker), read
    in the server's own database."""
    path = server_env["DATABASE_URL"].removeprefix("sqlite:///")
    with contextlib.closing(sqlite3.connect(path, timeout=10)) as db:
        (count,) = db.execute(
            "SELECT COUNT(*) FROM play_move WHERE table_id = ? AND seat = 0", (int(table),)
        ).fetchone()
    return int(count)


@pytest.mark.parametrize("game", [g for g in GAMES if g in registry.available()])
def test_every_tap_on_a_legal_choice_sends_exactly_one_move_on_a_phone(
    browser: Any, server: str, server_env: dict[str, str], game: str
) -> None:
    """The first taps of a game of each (a whole game of each: the soak test below)."""
    _fast_taps(browser, server, server_env, game, taps=8)


@pytest.mark.soak
@pytest.mark.parametrize("game", [g for g in GAMES if g in registry.available()])
def test_every_tap_counts_through_whole_games_on_a_phone(
    browser: Any, server: str, server_env: dict[str, str], game: str
) -> None:
    _fast_taps(browser, server, server_env, game, taps=None)


def _fast_taps(
    browser: Any, server: str, server_env: dict[str, str], game: str, taps: int | None
) -> None:
    page = _phone(browser)
    refused = refusals(page)
    assert page.evaluate("matchMedia('(hover: hover) and (pointer: fine)').matches") is False
    log_in(page, server)
    page.goto(server + "/play/")
    first = next(
        o.get_attribute("value")
        for o in page.locator("#ruleset option").all()
        if (o.get_attribute("value") or "").startswith(game + ":")
    )
    page.select_option("#ruleset", first)
    page.check("input[name=others][value=heuristic]")
    page.fill("#label", f"Ogni tocco {game}")
    with page.expect_navigation():
        page.click("#new-table button[type=submit]")
    table = re.search(r"/play/(\d+)/", page.url).group(1)  # type: ignore[union-attr]
    page.evaluate(REDRAW)
    page.wait_for_function("() => window.__redraws > 0")  # the redrawing has begun
    started = time.perf_counter()
    counts = _play_fast(page, random.Random(f"taps-{game}"), taps)
    seconds = time.perf_counter() - started
    page.wait_for_function(READY, timeout=20_000)  # the last move answered
    applied = _applied(server_env, table)
    redraws = page.evaluate("window.__redraws")
    print(
        f"{game}: {counts['taps']} taps, {counts['sent']} moves sent, {applied} applied, "
        f"{counts['lost']} lost, {counts['misdirected']} misdirected, {redraws} redraws "
        f"under the finger's board, {len(counts['beside'])} beside the choice, {seconds:.1f} s"
    )
    assert counts["lost"] == 0, f"lost taps at moves {counts['lost_at']}"
    assert counts["misdirected"] == 0
    assert not counts["double"], counts["double"]
    assert len(counts["beside"]) <= max(2, counts["taps"] // 10), counts["beside"]
    assert counts["errors"] == 0
    assert counts["sent"] == counts["taps"] == applied, "a tap sent two moves or none"
    assert counts["taps"] > 0 and redraws > 0
    if taps is None:
        assert page.locator("#game-over").count() == 1
    assert not refused, "\n".join(refused)
    page.context.close()
