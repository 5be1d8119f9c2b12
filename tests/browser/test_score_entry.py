"""Score entry in a real browser: a scorekeeper types a Tarocco hand into the summary form,
reads the engine's preview while typing, records it, and the standings move by that much."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import log_in

COMPETITION = "/c/circolo-pisano/tarocco-2026/"


def _standings(page: Any) -> dict[str, float]:
    """Points by player name, as the competition page shows them (the column is found by its
    heading, so that other columns may come and go)."""
    rows = page.locator("table.standings tbody tr")
    expect(rows.first).to_be_visible()
    headings = [h.strip() for h in page.locator("table.standings thead th").all_text_contents()]
    column = next(i for i, h in enumerate(headings) if h in ("Punti", "Points"))
    out = {}
    for row in rows.all():
        name = row.locator("td a").first.inner_text().strip()
        points = row.locator("td").nth(column).inner_text().strip()
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


def test_a_cardchess_game_gets_a_row_per_sfida_as_it_is_needed(page: Any, server: str) -> None:
    log_in(page, server)
    page.goto(server + "/c/circolo-pisano/cardchess-2026/score/")
    with page.expect_navigation():
        page.get_by_role("link", name="Tavolo 2", exact=True).click()

    # Two players: four rows to start with, the cursor in the first.
    rows = page.locator("#sfida-rows tr")
    expect(rows).to_have_count(4)
    expect(page.locator("#id_sfida-0-p0")).to_be_focused()
    # The other way in (captured cards) stays out of sight until chosen.
    expect(page.locator("#id_captured_0")).to_be_hidden()
    page.check("#id_kind_1")
    expect(page.locator("#id_captured_0")).to_be_visible()
    expect(page.locator("#id_sfida-0-p0")).to_be_hidden()
    page.check("#id_kind_0")

    sfide = [(20, 10), (5, 5), (12, 14), (30, 2), (9, 1)]
    page.click("[data-add-row='sfida']")
    expect(rows).to_have_count(5)
    expect(rows.nth(4).locator("th")).to_contain_text("5")
    expect(page.locator("#id_sfida-4-p0")).to_be_focused()
    for n, (a, b) in enumerate(sfide):
        page.fill(f"#id_sfida-{n}-p0", str(a))
        page.fill(f"#id_sfida-{n}-p1", str(b))
    preview = page.locator("#preview-scores")
    # The sfida tied at 5-5 gives no gold card: 3 to 1 once all four are taken.
    expect(preview.locator("tr[data-seat='0'] td.num")).to_have_text("3")
    expect(preview.locator("tr[data-seat='1'] td.num")).to_have_text("1")

    results = page.locator("a[href*='/r/']")
    before = results.count()
    with page.expect_navigation():
        page.click("#record")
    expect(page.locator("ul.messages li.success")).to_be_visible()
    expect(results).to_have_count(before + 1)
