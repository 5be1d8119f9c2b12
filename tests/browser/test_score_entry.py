"""Score entry in a real browser: a scorekeeper types a Tarocco hand into the summary form,
reads the engine's preview while typing, records it, and the standings move by that much."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import log_in

COMPETITION = "/c/circolo-pisano/tarocco-2026/"


def _standings(page: Any) -> dict[str, float]:
    """Points by player name, as the competition page shows them."""
    rows = page.locator("table.standings tbody tr")
    expect(rows.first).to_be_visible()
    out = {}
    for row in rows.all():
        name = row.locator("td a").first.inner_text().strip()
        points = row.locator("td.num").nth(2).inner_text().strip()
        out[name] = float(points.replace(",", "."))
    return out


def test_a_tarocco_hand_entered_through_the_form_moves_the_standings(
    page: Any, server: str
) -> None:
    log_in(page, server)
    page.goto(server + COMPETITION)
    before = _standings(page)
    with page.expect_navigation():
        page.click("#record-result")
    with page.expect_navigation():
        page.get_by_role("link", name="Tavolo 1", exact=True).click()

    # The cursor starts in the first field; fields the outcome does not need are hidden.
    expect(page.locator("#id_outcome")).to_be_focused()
    page.select_option("#id_outcome", "solo")
    expect(page.locator("#id_offerer")).to_be_hidden()
    declarer = page.locator("#id_declarer option[value='0']").inner_text().strip()
    page.select_option("#id_declarer", "0")

    # An impossible count is named by its rule before anything is saved...
    page.fill("#id_card_points", "140")
    expect(page.locator("#preview-violations")).to_contain_text("tarocco.count.total")
    # ...and a possible one shows what each seat would get.
    page.fill("#id_card_points", "70")
    preview = page.locator("#preview-scores")
    # 3 x (70 - 55) for the soloist, (109 - 70) - 54 for each of the others.
    expect(preview.locator("tr[data-seat='0'] td.num")).to_have_text("45")
    expect(preview.locator("tr[data-seat='1'] td.num")).to_have_text("-15")

    with page.expect_navigation():
        page.click("#record")
    assert re.search(r"/t/\d+/score/$", page.url)
    expect(page.locator("ul.messages li.success")).to_be_visible()

    page.goto(server + COMPETITION)
    after = _standings(page)
    assert after[declarer] == before.get(declarer, 0.0) + 45
