"""axe-core (vendored, pinned: tests/browser/vendor/) finds no serious or critical
accessibility violation on the digital tables' lobby, every game's board as a player sees
it, a replay, and every page of the referee desk (the desk, a case of each game with the
deal picker before and after a few taps, a case whose steps are being entered, the
artificial scores, a ruling's preview before it is written), each game's rules page (how the
game goes, then the rule book), on a phone in Italian and on a laptop in English."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from games.core import registry
from tests.browser.conftest import log_in, manage, refusals

AXE = Path(__file__).with_name("vendor") / "axe-4.14.1.min.js"
GAMES = ["tarocco", "ergio", "ponte", "sanmarco", "cardchess"]
SERIOUS = (
    "async () => { const r = await axe.run(document, {resultTypes: ['violations']});"
    " return r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')"
    " .map(v => v.id + ' (' + v.impact + '): ' + v.help + ' — '"
    " + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', ')); }"
)
#: A result of the demo club with its competition's name, for a case to rule on.
A_RESULT = """
from ledger.clubs.models import Result
r = Result.objects.filter(club__slug="circolo-pisano", status="accepted").order_by("pk").first()
print(r.pk)
"""
VIEWS = {
    "phone-it": {"locale": "it-IT", "viewport": {"width": 390, "height": 844}, "is_mobile": True},
    "laptop-en": {"locale": "en-GB", "viewport": {"width": 1280, "height": 800}},
}


def _axe(page: Any, where: str, found: dict[str, list[str]]) -> None:
    page.evaluate(AXE.read_text(encoding="utf-8"))
    problems = page.evaluate(SERIOUS)
    if problems:
        found[where] = problems


def _new_table(page: Any, server: str, game: str) -> None:
    page.goto(server + "/play/")
    value = next(
        o.get_attribute("value")
        for o in page.locator("#ruleset option").all()
        if (o.get_attribute("value") or "").startswith(game + ":")
    )
    page.select_option("#ruleset", value)
    page.check("input[name=others][value=heuristic]")
    with page.expect_navigation():
        page.click("#new-table button[type=submit]")
    page.wait_for_selector("#your-turn, #waiting, #game-over")


def _play_some(page: Any, moves: int) -> None:
    """Tap the first choice offered, ``moves`` times or until the game is over."""
    for _ in range(moves):
        page.wait_for_selector("#board button.play-action:not([disabled]), #game-over")
        if page.locator("#game-over").count():
            return
        pick = page.locator("#pick")
        if pick.count():
            boxes = pick.locator("input[name=item]")
            for n in range(int(pick.get_attribute("data-count") or "0")):
                boxes.nth(n).check()
        before = page.locator("#board").get_attribute("data-moves")
        page.locator("#board button.play-action:not([disabled])").first.click()
        page.wait_for_function(
            "m => document.getElementById('board')?.dataset.moves !== m"
            " || document.getElementById('move-error')",
            arg=before,
        )


@pytest.mark.parametrize("view", VIEWS)
def test_axe_finds_no_serious_violation_on_the_tables_and_the_desk(
    browser: Any, server: str, server_env: dict[str, str], view: str
) -> None:
    context = browser.new_context(**VIEWS[view])
    context.add_init_script("localStorage.setItem('play-no-autoplay', '1')")
    page = context.new_page()
    page.set_default_timeout(20_000)
    refused = refusals(page)
    found: dict[str, list[str]] = {}
    deep = view == "phone-it"  # the laptop sees each page as it opens, the phone further on
    log_in(page, server)

    page.goto(server + "/play/")
    _axe(page, "the lobby", found)
    for game in [g for g in GAMES if g in registry.available()]:
        _new_table(page, server, game)
        _axe(page, f"{game}'s board", found)
        if deep:  # a board further on: the scores' sheets, a trick on the table
            _play_some(page, 6)
            _axe(page, f"{game}'s board after a few moves", found)
    for game in [g for g in GAMES if g in registry.available()]:
        page.goto(f"{server}/rules/{game}/")
        _axe(page, f"{game}'s rules page", found)
    # A finished game's replay (San Marco's two-player game ends within a few moves).
    _new_table(page, server, "sanmarco")
    _play_some(page, 400)
    assert page.locator("#game-over").count() == 1
    with page.expect_navigation():
        page.click("#replay")
    _axe(page, "a replay, at its start", found)
    page.goto(re.sub(r"\?.*$", "", page.url) + "?step=3")
    _axe(page, "a replay, at step 3", found)

    # The referee desk: a case for each competition of the demo club (one per game).
    page.goto(server + "/referee/")
    _axe(page, "the referee desk", found)
    competitions = [
        v
        for v in page.locator("#competition option").evaluate_all("os => os.map(o => o.value)")
        if v
    ]
    assert len(competitions) >= len(GAMES)
    for competition in competitions:
        page.goto(server + "/referee/")
        page.select_option("#competition", competition)
        with page.expect_navigation():
            page.click("#open")
        case = page.url
        _axe(page, f"a new case of competition {competition}", found)
        picker = page.locator("#enter-deal, #enter-dealt")
        if picker.count():
            with page.expect_navigation():
                picker.first.click()
            _axe(page, f"the deal picker of competition {competition}", found)
            cards = page.locator(".pack button.pick-card")
            for n in range(min(cards.count(), 5)):
                cards.nth(n).click()
            _axe(page, f"the deal picker of competition {competition}, 5 cards given", found)
        page.goto(case)
        seed = page.locator("#seed")
        if deep and seed.count():
            page.locator("#builder details.advanced summary").first.click()
            seed.fill("12")
            with page.expect_navigation():
                seed.press("Enter")
            for _ in range(4):
                choices = page.locator("#builder .choices button")
                if not choices.count():
                    break
                with page.expect_navigation():
                    choices.first.click()
            _axe(page, f"a case of competition {competition} with its first steps", found)
        page.goto(f"{server}/referee/artificial/{competition}/")
        _axe(page, f"the artificial scores of competition {competition}", found)

    if deep:  # a case on a result of the ledger, ruled on: the preview before it is written
        result = manage(server_env, "shell", "-c", A_RESULT).split()[-1]
        page.goto(f"{server}/referee/?result={result}")
        with page.expect_navigation():
            page.click("#open")
        page.locator("#ruling-form input[name=kind]").first.check()
        with page.expect_navigation():
            page.click("#rule")
        page.wait_for_selector("#ruling-preview")
        _axe(page, "a ruling's preview", found)

    report = "\n".join(f"{where}:\n  " + "\n  ".join(p) for where, p in found.items())
    assert not found, "axe-core found serious or critical violations:\n" + report
    assert not refused, "\n".join(refused)
    context.close()
