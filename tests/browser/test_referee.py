"""The referee desk in a real browser: a planted revoke in a Tarocco hand and an invalid
reinforcement in an Er Giò match are found, highlighted, and ruled on."""

from __future__ import annotations

import json
import re
from typing import Any

from tests.browser.conftest import log_in
from tests.referee import planted

CLUB = "circolo-pisano"


def _a_result(page: Any, server: str, competition: str) -> int:
    page.goto(f"{server}/c/{CLUB}/{competition}/")
    href = page.locator("a[href*='/r/']").first.get_attribute("href")
    match = re.search(r"/r/(\d+)/", href or "")
    assert match, href
    return int(match.group(1))


def _open_case(page: Any, server: str, result: int, record: dict[str, Any]) -> None:
    page.goto(f"{server}/referee/?result={result}")
    assert page.input_value("#result") == str(result)
    page.click("#open-case details.advanced summary")
    page.fill("#record", json.dumps(record))
    page.click("#open")
    page.wait_for_url(re.compile(r"/referee/case/\d+/"))


def test_a_revoke_in_a_tarocco_hand_is_found_and_ruled(page: Any, server: str) -> None:
    log_in(page, server)
    result = _a_result(page, server, "tarocco-2026")
    record, step = planted.tarocco_revoke()
    _open_case(page, server, result, record)

    offending = page.locator(f"#step-{step}")
    assert "offending" in (offending.get_attribute("class") or "")
    assert "first" in (offending.get_attribute("class") or "")
    assert offending.is_visible()  # its trick is unfolded
    first_row = page.locator("#violations tbody tr").first
    assert "tarocco.play.follow_suit" in first_row.inner_text()
    assert "Si risponde al seme di uscita se lo si ha." in first_row.inner_text()
    assert page.locator("#rules-score tbody tr").count() == 4

    page.check("#kind-artificial")
    page.select_option("#artificial_0", "plus")
    page.select_option("#artificial_1", "minus")
    page.select_option("#artificial_2", "plus")
    page.select_option("#artificial_3", "plus")
    page.fill("#note", "Rifiuto alla prima presa")
    with page.expect_navigation():
        page.click("#rule")
    assert page.locator("#ruling-preview tbody tr").count() >= 2
    with page.expect_navigation():
        page.click("#confirm-ruling")
    assert page.locator("#ruled").count() == 1
    assert page.locator("#ruled-scores tr").count() == 4
    page.click("#correction-link")
    page.wait_for_url(re.compile(r"/r/\d+/$"))
    assert "Rifiuto alla prima presa" in page.locator("#versions").inner_text()
    page.goto(f"{server}/c/{CLUB}/tarocco-2026/r/{result}/")
    assert page.locator("#versions").count() == 1


def test_an_invalid_reinforcement_in_an_ergio_match_is_found_and_ruled(
    page: Any, server: str
) -> None:
    log_in(page, server)
    result = _a_result(page, server, "ergio-2026")
    record, step = planted.ergio_bad_reinforcement()
    _open_case(page, server, result, record)

    offending = page.locator(f"#step-{step}")
    assert "offending" in (offending.get_attribute("class") or "")
    assert offending.is_visible()
    assert "ergio.battle.reinforce.slots" in page.locator("#violations").inner_text()

    page.check("#kind-assigned")
    page.select_option("#assigned", "rules")
    page.fill("#note", "Terzo rinforzo sotto il Magistrato")
    with page.expect_navigation():
        page.click("#rule")
    assert page.locator("#ruling-preview tbody tr").count() >= 2
    with page.expect_navigation():
        page.click("#confirm-ruling")
    assert page.locator("#ruled").count() == 1
    rules = [c.strip() for c in page.locator("#ruled-scores td.num").all_inner_texts()]
    assert len(rules) == 2
    page.click("#correction-link")
    assert "Terzo rinforzo sotto il Magistrato" in page.locator("#versions").inner_text()


def test_a_hand_is_entered_step_by_step_with_only_legal_choices(page: Any, server: str) -> None:
    log_in(page, server)
    page.goto(f"{server}/referee/")
    page.select_option(
        "#competition", label="Circolo dei Giochi Pisani · Campionato sociale di Tarocco"
    )
    page.click("#open")
    page.wait_for_url(re.compile(r"/referee/case/\d+/"))
    page.click("#builder details.advanced summary")
    page.fill("#seed", "12")
    page.click("#builder form button[type=submit]")
    page.wait_for_selector("#to-act")
    choices = page.locator("#builder .choices button")
    assert choices.count() >= 1
    chosen = choices.first.inner_text()
    choices.first.click()
    page.wait_for_selector("#step-0")
    assert chosen in page.locator("#step-0").inner_text()
    assert "offending" not in (page.locator("#step-0").get_attribute("class") or "")
    page.click("#builder details.advanced summary")
    page.fill("#played", '{"seat": 0, "discard": ["S5", "S6", "S7"]}')
    page.click("#record-played")
    page.wait_for_selector("#step-1")
    assert "offending" in (page.locator("#step-1").get_attribute("class") or "")
    with page.expect_navigation():
        page.click("#undo")
    assert page.locator("#step-1").count() == 0
