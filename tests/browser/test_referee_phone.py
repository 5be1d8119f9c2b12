"""The referee desk on a phone (390x844, Italian), by tapping: for each of the five games a
fault is planted at the desk with the step offered marked ⚠ and the rule it breaks in words
(Tarocco's revoke, Er Giò's third card under a Magistrato, the Bridge's Game's fight card
played twice, San Marco's points beyond the cap typed in a number field, cardChess's wrong
capture), the timeline going back to the step by its ↶ button; the verdict finds it there."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.conftest import log_in, refusals
from tests.referee import planted

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(
        locale="it-IT", viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    refused = refusals(page)
    yield page
    context.close()
    assert not refused, "the page's console complained:\n" + "\n".join(refused)


def _open(page: Any, server: str, competition: str, record: dict[str, Any] | None) -> None:
    page.goto(f"{server}/referee/")
    # the demo club's competition of that name, not another test's
    named = re.compile(rf"· {re.escape(competition)}$")
    value = page.locator("#competition option", has_text=named).first.get_attribute("value")
    page.select_option("#competition", value)
    if record is None:
        page.locator("#start-cards").tap()
    else:
        page.locator("#open-case details.advanced summary").tap()
        page.fill("#record", json.dumps(record))
    with page.expect_navigation():
        page.locator("#open").tap()


def _no_wider_than_the_phone(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"] + 1, f"the page scrolls sideways: {width}px"


def _back_to(page: Any, step: int) -> None:
    """Tap the ↶ of step ``step`` (0-based) on the timeline."""
    button = page.locator(f"#step-{step} .go-here")
    if not button.is_visible():  # its group of steps is folded: unfold it
        summary = page.locator(f"#step-{step}").locator("xpath=ancestor::details[1]/summary")
        summary.scroll_into_view_if_needed()
        summary.tap()
    button.scroll_into_view_if_needed()
    with page.expect_navigation():
        button.tap()


def _tap_marked(page: Any, step: dict[str, Any]) -> str:
    """Tap the ⚠ step whose action is ``step``; return what it said it breaks."""
    wanted = json.dumps(step)
    button = page.locator(f".held-buttons button.illegal[value='{wanted}']")
    assert button.count() == 1, f"no marked step {wanted}"
    why = str(button.locator(".why-not").inner_text())
    assert why.startswith("Viola:"), why
    button.scroll_into_view_if_needed()
    with page.expect_navigation():
        button.tap()
    return why


def _found_at(page: Any, step: int) -> None:
    offending = page.locator(f"#step-{step}")
    assert "offending" in (offending.get_attribute("class") or "")
    assert "first" in (offending.get_attribute("class") or "")
    assert page.locator("#first-fault").count() == 1


def test_a_revoke_is_planted_in_tarocco_by_tapping(phone: Any, server: str) -> None:
    page = phone
    log_in(page, server)
    record, step = planted.tarocco_revoke()
    clean = copy.deepcopy(record)
    revoke = clean["actions"][step]
    _open(page, server, "Campionato sociale di Tarocco", clean)
    _back_to(page, step)
    assert page.locator("#put-back-all").count() == 1
    why = _tap_marked(page, revoke)
    assert "seme" in why
    _found_at(page, step)
    with page.expect_navigation():
        page.locator("#put-back-all").tap()
    _found_at(page, step)
    assert page.locator("#remedy-score tbody tr").count() == 4
    _no_wider_than_the_phone(page)


def test_a_third_card_under_a_magistrato_is_planted_in_ergio_by_tapping(
    phone: Any, server: str
) -> None:
    page = phone
    log_in(page, server)
    record, step = planted.ergio_bad_reinforcement()
    _open(page, server, "Torneo di Er Giò", record)
    _back_to(page, step)
    _tap_marked(page, record["actions"][step])
    _found_at(page, step)
    _no_wider_than_the_phone(page)


def test_a_fight_card_played_twice_is_planted_in_the_bridges_game_by_tapping(
    phone: Any, server: str
) -> None:
    page = phone
    log_in(page, server)
    record = planted.played("ponte", 7)
    record.pop("claimed_scores", None)
    step = 20  # the fight phase: A20000 was played at step 15
    _open(page, server, "Sfida del Ponte", record)
    _back_to(page, step)
    seat = record["actions"][step]["seat"]
    why = _tap_marked(page, {"seat": seat, "fight": "A20000", "strategy": None})
    assert "carte lotta" in why
    _found_at(page, step)
    with page.expect_navigation():
        page.locator("#drop-next").tap()  # the card really played there replaces it
    with page.expect_navigation():
        page.locator("#put-back-all").tap()
    # what the other side did after the fault follows from it: not counted against them
    assert page.locator("#remedy-score").count() == 1
    assert "senza il fallo" in page.locator("#remedy-score").inner_text().lower()
    assert page.locator("#remedy-score tbody tr").count() == 2
    _no_wider_than_the_phone(page)


def test_points_beyond_the_cap_are_planted_in_san_marco_in_a_number_field(
    phone: Any, server: str
) -> None:
    page = phone
    log_in(page, server)
    _open(page, server, "Coppa San Marco a due", None)
    page.wait_for_url(re.compile(r"/cards/$"))
    for place, colours in (("seat0", ("bianco", "nero")), ("seat1", ("giallo", "blu"))):
        page.locator(f".place-pick[data-place='{place}']").tap()
        for colour in colours:
            page.locator(f".pick-card[data-code='{colour}']").tap()
    with page.expect_navigation():
        page.locator("#save-deal").tap()
    assert page.locator("#number-entry").count() == 1
    assert page.locator("button[name='action']").count() == 0  # no button per value
    _no_wider_than_the_phone(page)
    page.locator("#entry-points").tap()
    page.fill("#entry-points", "250")
    with page.expect_navigation():
        page.locator("#record-entry").tap()
    assert "punti prestigio" in page.locator("#entry-error").inner_text().lower()
    assert page.input_value("#entry-points") == "250"
    anyway = page.locator("#record-entry-anyway")
    assert "⚠" in anyway.inner_text()
    with page.expect_navigation():
        anyway.tap()
    _found_at(page, 0)
    # on a phone the rule's words are under the step (the table's rule column is hidden)
    assert "tetto" in page.locator("#step-0 .why").inner_text()


def test_a_wrong_capture_is_planted_in_cardchess_by_tapping(phone: Any, server: str) -> None:
    page = phone
    log_in(page, server)
    record = planted.played("cardchess", 7)
    record.pop("claimed_scores", None)
    step = next(i for i, a in enumerate(record["actions"]) if "resolve" in a)
    right = record["actions"][step]["taker"]
    wrong = 1 if right != 1 else 0
    _open(page, server, "Serate di 3D cardChess", record)
    _back_to(page, step)
    _tap_marked(page, {"seat": 0, "resolve": record["actions"][step]["resolve"], "taker": wrong})
    _found_at(page, step)
    _no_wider_than_the_phone(page)
